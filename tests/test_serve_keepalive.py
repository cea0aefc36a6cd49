"""``ShutTheBox serve`` speaks HTTP/1.1 with persistent connections: several requests on one connection, each
answer framed by its ``Content-Length`` (files, gzip, 206, 416, 304, HEAD, errors), each request checked as
a first one is (its ``Host``; its head's rate); a malformed request, ``Connection: close``, an HTTP/1.0
request or one with a body closes the connection after its answer; an idle kept connection is closed and
holds no thread."""

from __future__ import annotations

import gzip
import http.client
import os
import socket

import pytest

from serving import ROOT, address, head_of, running_server, wait_for
from test_serve import WORKERS, needs_proc, thread_count

TABLE = os.path.join(ROOT, "data", "standard.msgpack")
APP = os.path.join(ROOT, "shutthebox", "web", "static", "app.js")
HOST = b"Host: 127.0.0.1\r\n"


@pytest.fixture(scope="module")
def served():
    with running_server() as (url, proc):
        yield url, proc


def answer_on(sock):
    """One answer read from ``sock`` by its framing: (status, headers, body); None when the server closed."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(1 << 16)
        if not chunk:
            assert not data, data[:80]
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    headers = head_of(data)
    length = int(headers.get("content-length", "0")) if status != 304 else 0
    while len(body) < length:
        chunk = sock.recv(1 << 16)
        assert chunk, "closed within a body"
        body += chunk
    assert len(body) == length, (status, len(body), length)  # nothing more than the answer said
    return status, headers, body


def closed(sock):
    """Whether the server closed ``sock`` (rather than sending anything more)."""
    try:
        return sock.recv(1 << 16) == b""
    except ConnectionResetError:
        return True


def test_several_requests_on_one_connection_each_framed_by_its_length(served):
    url, _ = served
    table, app = open(TABLE, "rb").read(), open(APP, "rb").read()
    connection = http.client.HTTPConnection(*address(url), timeout=30)
    try:
        def ask(method, path, **headers):
            connection.request(method, path, headers=headers)
            response = connection.getresponse()
            return response, response.read()

        first, body = ask("GET", "/games.json")
        sock = connection.sock
        assert first.status == 200 and int(first.getheader("Content-Length")) == len(body) > 0
        answers = [
            (ask("GET", "/standard.msgpack", Range="bytes=100-199"), 206, table[100:200]),
            (ask("GET", "/standard.msgpack", Range="bytes=%d-" % len(table)), 416, None),
            (ask("HEAD", "/standard.msgpack"), 200, b""),
            (ask("GET", "/app.js", **{"Accept-Encoding": "gzip"}), 200, app),
            (ask("GET", "/no-such-file.js"), 404, None),
            (ask("POST", "/app.js"), 405, None),
            (ask("GET", "/standard.msgpack"), 200, table),
        ]
        tag = answers[-1][0][0].getheader("ETag")
        answers.append((ask("GET", "/standard.msgpack", **{"If-None-Match": tag}), 304, b""))
        answers.append((ask("HEAD", "/standard.msgpack", Range="bytes=0-9"), 206, b""))
        for (response, body), status, expected in answers:
            assert response.status == status, (status, response.status)
            if response.getheader("Content-Encoding") == "gzip":
                assert int(response.getheader("Content-Length")) == len(body)
                body = gzip.decompress(body)
            elif response.status != 304 and body:  # (a HEAD's says the length a GET would send: below)
                assert int(response.getheader("Content-Length")) == len(body), status
            if expected is not None:
                assert body == expected, (status, len(body))
        assert answers[2][0][0].getheader("Content-Length") == str(len(table))  # HEAD: the length a GET sends
        assert answers[-1][0][0].getheader("Content-Length") == "10"
        assert connection.sock is sock  # one connection all along
    finally:
        connection.close()


@pytest.mark.parametrize(("last", "status"), [
    (b"GARBAGE\r\n\r\n", 400),  # no method, path and version
    (b"GET /app.js HTTP/9.9\r\n" + HOST + b"\r\n", 505),
    (b"BREW /app.js HTTP/1.1\r\n" + HOST + b"\r\n", 501),
    (b"GET /app.js HTTP/1.1\r\n" + b"X: x\r\n" * 120 + b"\r\n", 431),  # too many header lines
    (b"GET /app.js HTTP/1.1\r\n" + HOST + b"Connection: close\r\n\r\n", 200),
    (b"GET /app.js HTTP/1.0\r\n" + HOST + b"Connection: keep-alive\r\n\r\n", 200),  # not offered to 1.0
    (b"POST /app.js HTTP/1.1\r\n" + HOST + b"Content-Length: 5\r\n\r\nhello", 405),  # a body is never read
    (b"GET /app.js HTTP/1.1\r\n" + HOST + b"\r\nGET /app.js HTTP/1.1\r\n" + HOST + b"\r\n", 200),  # pipelined
])
def test_a_malformed_request_or_one_asking_to_close_ends_the_connection(served, last, status):
    url, _ = served
    with socket.create_connection(address(url), timeout=30) as sock:
        sock.sendall(b"GET /games.json HTTP/1.1\r\n" + HOST + b"\r\n")
        assert answer_on(sock)[0] == 200
        sock.sendall(last)
        got, headers, _ = answer_on(sock)  # framed by its Content-Length, errors included
        assert got == status and "content-length" in headers, (got, headers)
        assert closed(sock), last


def test_each_request_of_a_kept_connection_is_checked_as_a_first_one(served):
    url, _ = served
    with socket.create_connection(address(url), timeout=30) as sock:
        sock.sendall(b"GET /games.json HTTP/1.1\r\n" + HOST + b"\r\n")
        assert answer_on(sock)[0] == 200
        sock.sendall(b"GET /games.json HTTP/1.1\r\nHost: evil.example\r\n\r\n")  # DNS rebinding: refused
        status, _, body = answer_on(sock)
        assert status == 403 and b"evil.example" in body
        sock.sendall(b"GET /standard.msgpack HTTP/1.1\r\n" + HOST + b"Range: bytes=0-3\r\n\r\n")
        assert answer_on(sock)[:1] == (206,)


@pytest.mark.slow
def test_a_kept_connection_sending_its_next_head_slowly_is_dropped():
    """The head's rate holds for each request: a second head sent a byte every half second (its whole 40
    bytes would take 20 s) is dropped without an answer, as a first one is, long before the timeout."""
    with running_server(env={"SHUTTHEBOX_SERVE_TIMEOUT": "60"}) as (url, _):
        with socket.create_connection(address(url), timeout=60) as sock:
            sock.sendall(b"GET /games.json HTTP/1.1\r\n" + HOST + b"\r\n")
            assert answer_on(sock)[0] == 200
            request = b"GET /app.js HTTP/1.1\r\n" + HOST + b"\r\n"
            sock.settimeout(0.5)
            heard = None
            for byte in request[:-1]:
                try:
                    sock.sendall(bytes([byte]))
                    heard = sock.recv(1 << 16)
                except TimeoutError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    heard = b""
                break
            assert heard == b"", heard  # closed, with no answer, before the head was complete


@needs_proc
@pytest.mark.slow
def test_idle_kept_connections_hold_no_thread_and_are_closed():
    with running_server(env={"SHUTTHEBOX_SERVE_TIMEOUT": "1"}) as (url, proc):
        socks = []
        try:
            for _ in range(60):
                sock = socket.create_connection(address(url), timeout=30)
                sock.sendall(b"GET /app.js HTTP/1.1\r\n" + HOST + b"\r\n")
                assert answer_on(sock)[0] == 200
                socks.append(sock)
            assert thread_count(proc) <= WORKERS + 2
            # a new connection is answered while the 60 are kept
            with socket.create_connection(address(url), timeout=30) as other:
                other.sendall(b"GET /games.json HTTP/1.1\r\n" + HOST + b"Connection: close\r\n\r\n")
                assert answer_on(other)[0] == 200
            assert [closed(sock) for sock in socks] == [True] * 60  # each closed by the server, idle
        finally:
            for sock in socks:
                sock.close()
        wait_for(lambda: thread_count(proc) <= WORKERS + 2, "the threads back to the pool")
    assert proc.stderr_text == ""


def test_the_pages_load_over_kept_connections(served):
    """A browser's page load: its requests share connections (HTTP/1.1), every one answered whole."""
    url, _ = served
    connection = http.client.HTTPConnection(*address(url), timeout=30)
    try:
        paths = ["/", "/app.js", "/style.css", "/lib/format.js", "/lib/remote.js", "/games.json"]
        socks = set()
        for path in paths * 3:
            connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
            response = connection.getresponse()
            body = response.read()
            assert response.status == 200 and int(response.getheader("Content-Length")) == len(body), path
            socks.add(id(connection.sock))
        assert len(socks) == 1
    finally:
        connection.close()
