"""The Python reader given a table's URL (``--table URL``, ``load(path=URL)``): it reads the table by HTTP
ranges (shutthebox/engine/remote.py, standard library only), only the blocks a question reads, each
verified, and answers the shared corpus (tests/data/) as from the file; a host that refuses ranges is read
from its whole answer; every damaged table of the corpus is refused for the reason its file is. A host that
misbehaves (a body cut short or longer than asked, a garbage status line, an overlong header, a 416 without
its size, bytes dripped past the deadline) is one line and exit status 3; a malformed URL is exit status 2."""

from __future__ import annotations

import http.server
import os
import re
import subprocess
import sys
import threading
import time

import pytest

import rangeserver as host
from rangeserver import serving
from test_corpus import DATA, GOLDEN, golden, golden_command

from conftest import COMMAND, run

from shutthebox.engine.format import BLOCK_SIZE
from shutthebox.engine.remote import PAGE
from shutthebox.errors import InvalidQuery, TableError
from shutthebox.games.goat.rules import Rules as GoatRules
from shutthebox.games.goat.table import load


def url_command(path, url):
    """The golden file's command with its table given by URL."""
    return [url + "good/" + os.path.basename(word) if word.startswith(os.path.join(DATA, "good")) else word
            for word in golden_command(path)]


@pytest.mark.parametrize("refuse", [False, True], ids=["ranges", "ranges refused"])
@pytest.mark.parametrize("name", GOLDEN)
def test_golden_answers_by_url(name, refuse):
    path = os.path.join(DATA, "good", name)
    pairs = golden(path)
    with serving(DATA, refuse_ranges=refuse) as (url, requests):
        command = url_command(path, url)
        assert any(word.startswith(url) for word in command)
        batch = run(*command, "--batch", stdin="\n".join(question for question, _ in pairs) + "\n")
        question, answer = pairs[0]
        one = run(*command, *question.split())
    assert batch.stdout.splitlines() == [answer for _, answer in pairs], batch.stderr
    assert (one.stdout.strip() or one.stderr.strip().replace("ShutTheBox: ", "error: ", 1)) == answer
    if refuse:  # each opening asked its first range, and read the whole answer
        assert {wanted for _, wanted in requests} == {"bytes=0-16383"}


def test_a_large_table_by_url_reads_only_the_blocks_asked():
    name = "goat-g100.msgpack"
    with serving(os.path.join(os.path.dirname(os.path.dirname(DATA)), "data")) as (url, requests):
        table = load(path=url + name)
        value = table.probe_win(1, 50, 40, 10, 1)
        fetched = sum(int(b) - int(a) + 1 for a, b in (re.fullmatch(r"bytes=(\d+)-(\d+)", w).groups() for _, w in requests))
    assert value == load().probe_win(1, 50, 40, 10, 1)
    # its header, descriptors and a few blocks, each asked as whole pages of the URL reader
    assert fetched < 12 * max(BLOCK_SIZE, PAGE) < os.path.getsize(os.path.join(DATA, "..", "..", "data", name)) / 50


def test_every_damaged_table_is_refused_by_url_as_its_file_is():
    folder = os.path.join(DATA, "bad")
    with serving(folder) as (url, _):
        for name in sorted(os.listdir(folder)):
            by_file = run("--one", "--table", os.path.join(folder, name), "--expect", "1234")
            by_url = run("--one", "--table", url + name, "--expect", "1234")
            assert by_url.returncode == by_file.returncode == 3, name
            assert by_url.stderr.replace(url + name, "TABLE") == by_file.stderr.replace(os.path.join(folder, name), "TABLE"), name
        missing = run("--one", "--table", url + "absent.msgpack", "--expect", "1234")
    assert missing.returncode == 3 and "HTTP 404" in missing.stderr


# -- hosts that misbehave: one line and exit status 3, never a traceback, a wait without end or a body held whole

GOAT = os.path.join(DATA, "good", "goat-g5.msgpack")  # 77 KB: read by several ranges
GOAT_QUESTION = ["goat", "--goal", "5", "--solo", "--expect", "4"]


def _refused(done, url, *words):
    assert done.returncode == 3 and done.stdout == "", (done.returncode, done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert url in done.stderr and all(word in done.stderr for word in words), done.stderr


@pytest.mark.parametrize("misbehave", [host.truncated, host.garbage_status, host.long_header, host.range_not_satisfiable,
                                       host.short_range], ids=lambda misbehave: misbehave.__name__)
def test_a_host_that_misbehaves_is_one_line_and_exit_status_3(misbehave):
    with host.raw_host(GOAT, misbehave) as (url, sent):
        done = run(*GOAT_QUESTION, "--table", url)
        with pytest.raises(TableError, match="cannot read table file"):
            load(GoatRules(goal=5), url).probe_solo(4)
    _refused(done, url, "cannot read table file")
    assert sent, "the table was read by more than its first range"


@pytest.mark.parametrize("misbehave", [host.oversized, host.whole_without_length], ids=["range", "whole"])
def test_a_body_larger_than_declared_is_refused_without_holding_it(misbehave):
    with host.raw_host(GOAT, misbehave) as (url, sent):
        done = run(*GOAT_QUESTION, "--table", url)
    _refused(done, url, "cannot read table file")
    assert sent and max(sent) < 1 << 26, sent  # the reader hung up long before: it held no such body


DRIP_WAIT = 30  # seconds: the command must have given up long before


class _Dripping(http.server.BaseHTTPRequestHandler):
    """Answers a range at once, then sends its bytes one every 0.2 s (``head``: the status line too)."""

    head = False

    def log_message(self, *args):
        pass

    def do_GET(self):
        line = b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-16383/77000\r\nContent-Length: 16384\r\n\r\n"
        try:
            if not self.head:
                self.wfile.write(line)
                line = b"\0" * 16384
            for byte in line:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(0.2)
        except OSError:  # the reader hung up
            pass


@pytest.mark.parametrize("head", [False, True], ids=["body", "status line"])
def test_a_host_that_drips_bytes_is_cut_off_at_the_deadline(head):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), type("Host", (_Dripping,), {"head": head}))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/goat-g5.msgpack" % server.server_address[1]
    try:
        began = time.monotonic()
        done = subprocess.run([sys.executable, COMMAND, *GOAT_QUESTION, "--table", url], capture_output=True,
                              text=True, timeout=DRIP_WAIT, env={**os.environ, "SHUTTHEBOX_URL_TIMEOUT": "1"})
        took = time.monotonic() - began
    finally:
        server.shutdown()
        server.server_close()
    _refused(done, url, "1 s")
    assert took < 15, took


def test_a_malformed_url_is_a_bad_question():
    for url in ("http://[::1", "http://127.0.0.1:99999/t.msgpack", "http:///t.msgpack"):
        done = run(*GOAT_QUESTION, "--table", url)
        assert done.returncode == 2 and done.stdout == "", (url, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr and url in done.stderr, done.stderr
        with pytest.raises(InvalidQuery):
            load(GoatRules(goal=5), url)
