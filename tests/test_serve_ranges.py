"""``ShutTheBox serve`` answers HTTP ``Range``: one byte range of a table or a file of the page (206, the very
bytes of the file at those offsets), 416 past the end, the whole file for several ranges or a changed file;
``Accept-Ranges: bytes`` on whole answers. The expected bytes are sliced from the files on disk."""

from __future__ import annotations

import email.utils
import gzip
import os

import pytest

from serving import ROOT, call, exchange, head_of, running_server

TABLE = os.path.join(ROOT, "data", "standard.msgpack")
APP = os.path.join(ROOT, "shutthebox", "web", "static", "app.js")


@pytest.fixture(scope="module")
def served():
    with running_server() as (url, proc):
        yield url, proc


def ranged(url, path, value, **headers):
    return call(url + path, headers={"Range": value, **headers})


@pytest.mark.parametrize(("asked", "first", "last"), [
    ("bytes=0-15", 0, 15), ("bytes=0-0", 0, 0), ("bytes=100-", 100, None), ("bytes=-20", -20, None),
    ("bytes=1000-2047", 1000, 2047), ("bytes=5-99999999", 5, None), ("bytes=-99999999", 0, None),
    ("BYTES=7-9", 7, 9)])
def test_one_range_is_206_with_the_very_bytes(served, asked, first, last):
    url, _ = served
    data = open(TABLE, "rb").read()
    expected = data[first:] if last is None else data[first:last + 1]
    start = first % len(data)
    for extra in ({}, {"Accept-Encoding": "gzip"}):  # a range is of the file's own bytes, never gzipped
        status, headers, body = ranged(url, "standard.msgpack", asked, **extra)
        assert status == 206 and body == expected, (asked, status, len(body))
        assert headers["content-range"] == "bytes %d-%d/%d" % (start, start + len(expected) - 1, len(data))
        assert headers["content-length"] == str(len(expected)) and "content-encoding" not in headers
        assert headers["accept-ranges"] == "bytes" and headers["content-type"] == "application/vnd.msgpack"


def test_whole_answers_say_ranges_are_accepted_and_a_page_file_has_ranges_too(served):
    url, _ = served
    status, headers, body = call(url + "standard.msgpack")
    assert status == 200 and headers["accept-ranges"] == "bytes" and body == open(TABLE, "rb").read()
    status, headers, body = call(url + "app.js", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["accept-ranges"] == "bytes" and gzip.decompress(body) == open(APP, "rb").read()
    status, headers, body = ranged(url, "app.js", "bytes=3-40")
    assert status == 206 and body == open(APP, "rb").read()[3:41]


def test_past_the_end_is_416_and_what_http_says_to_ignore_is_the_whole_file(served):
    url, _ = served
    data = open(TABLE, "rb").read()
    for asked in ("bytes=%d-" % len(data), "bytes=%d-%d" % (len(data) + 5, len(data) + 9), "bytes=-0"):
        status, headers, body = ranged(url, "standard.msgpack", asked)
        assert status == 416 and headers["content-range"] == "bytes */%d" % len(data), (asked, status)
    # Several ranges are served whole (no multipart answers); a malformed or reversed range is ignored.
    for asked in ("bytes=0-1,5-6", "bytes=0-1, 100-", "bytes=9-3", "items=0-5", "bytes=", "bytes=-", "bytes=a-b"):
        status, headers, body = ranged(url, "standard.msgpack", asked)
        assert status == 200 and body == data and "content-range" not in headers, asked
    # Not on answers other than files.
    assert ranged(url, "games.json", "bytes=0-3")[0] == 200


def test_if_range_serves_the_range_only_of_the_same_version(served):
    url, _ = served
    data = open(TABLE, "rb").read()
    _, whole, _ = call(url + "standard.msgpack")
    tag, date = whole["etag"], whole["last-modified"]
    assert ranged(url, "standard.msgpack", "bytes=0-3", **{"If-Range": tag})[2] == data[:4]
    assert ranged(url, "standard.msgpack", "bytes=0-3", **{"If-Range": date})[0] == 206
    earlier = email.utils.formatdate(os.path.getmtime(TABLE) - 60, usegmt=True)
    for other in ('"another"', "W/" + tag, earlier):  # another version (a weak tag never matches): the whole file
        status, _, body = ranged(url, "standard.msgpack", "bytes=0-3", **{"If-Range": other})
        assert status == 200 and body == data, other
    # A conditional request for the version the client has is still a 304, range or not.
    assert ranged(url, "standard.msgpack", "bytes=0-3", **{"If-None-Match": tag})[0] == 304


def test_head_and_raw_http_1_0_ranges(served):
    url, proc = served
    data = open(TABLE, "rb").read()
    answer = exchange(url, b"HEAD /standard.msgpack HTTP/1.0\r\nRange: bytes=10-19\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 206 ") and answer.endswith(b"\r\n\r\n"), answer[-40:]
    assert head_of(answer)["content-length"] == "10"
    answer = exchange(url, b"GET /standard.msgpack HTTP/1.0\r\nRange: bytes=-3\r\n\r\n")
    assert answer.split(b"\r\n\r\n", 1)[1] == data[-3:]
