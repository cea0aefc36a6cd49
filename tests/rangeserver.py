"""A static server of one folder that answers ``Range`` (206), for the tests and bench/phone.py: what most
static hosts do and ``python3 -m http.server`` does not. ``refuse_ranges``: the whole file (200) for a
range, as a host without ranges answers; ``gzip``: text files gzipped for a client that accepts it, as most
hosts send them (tables never: they are read by ranges); ``requests`` records each (path, Range header).

``raw_host``: a host of one table that misbehaves (the misbehaviours below), for the URL readers' tests."""

from __future__ import annotations

import contextlib
import functools
import gzip as gzipped
import io
import http.server
import os
import re
import socket
import socketserver
import struct
import threading
import time

_RANGE = re.compile(r"bytes=(\d*)-(\d*)\Z")


TEXT = (".html", ".js", ".css", ".json", ".txt", ".svg")


class RangeHandler(http.server.SimpleHTTPRequestHandler):
    refuse_ranges = False
    gzip = False
    requests: list = []

    def log_message(self, *args):  # quiet: the tests read self.requests
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        self.requests.append((self.path, self.headers.get("Range")))
        wanted = _RANGE.match(self.headers.get("Range") or "")
        path = self.translate_path(self.path)
        if (self.gzip and path.endswith(TEXT) and os.path.isfile(path) and not wanted and
                "gzip" in (self.headers.get("Accept-Encoding") or "")):
            with open(path, "rb") as handle:
                body = gzipped.compress(handle.read(), 6, mtime=0)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)
        if self.refuse_ranges or not wanted or not os.path.isfile(path):
            head = super().send_head()
            return head
        size = os.path.getsize(path)
        first, last = wanted.groups()
        if first == "":
            start, end = max(size - int(last or 0), 0), size - 1
        else:
            start, end = int(first), min(int(last) if last else size - 1, size - 1)
        if start >= size or start > end:
            self.send_response(416)
            self.send_header("Content-Range", "bytes */%d" % size)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        handle = open(path, "rb")
        handle.seek(start)
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        self.send_header("Content-Length", str(end - start + 1))
        self.end_headers()
        return _Slice(handle, end - start + 1)


class _Slice:
    """The part of an open file that a 206 sends (copyfile reads it, then closes it)."""

    def __init__(self, handle, length):
        self.handle, self.left = handle, length

    def read(self, size=-1):
        size = self.left if size < 0 else min(size, self.left)
        data = self.handle.read(size)
        self.left -= len(data)
        return data

    def close(self):
        self.handle.close()


@contextlib.contextmanager
def serving(folder, refuse_ranges=False, gzip=False, base=None):
    """Serve ``folder`` on a free loopback port; yield (base URL, the list of requests). Always stopped.
    ``base``: a subclass of RangeHandler to serve with."""
    requests: list = []
    handler = type("Handler", (base or RangeHandler,), {"refuse_ranges": refuse_ranges, "gzip": gzip, "requests": requests})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield "http://127.0.0.1:%d/" % server.server_address[1], requests
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# -- a host that misbehaves: each misbehaviour answers a request for bytes start-end (inclusive) of a table of
# `size` bytes on the raw socket, and returns the count of bytes it sent of a body


@contextlib.contextmanager
def raw_host(table, misbehave, first_too=False):
    """A host on a free loopback port that answers the first range of the file ``table`` (from byte 0) as a range
    host does and each later request with ``misbehave(socket, start, end, size)`` (``first_too``: the first
    too); yields the table's URL and the list of what each misbehaving answer returned."""
    with open(table, "rb") as handle:
        data = handle.read()
    sent: list = []

    class Host(socketserver.BaseRequestHandler):
        def handle(self):
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = self.request.recv(4096)
                if not chunk:
                    return
                head += chunk
            wanted = re.search(rb"^Range: *bytes=(\d+)-(\d+)\r$", head, re.I | re.M)
            start, end = map(int, wanted.groups()) if wanted else (0, len(data) - 1)
            end = min(end, len(data) - 1)
            try:
                if start == 0 and not first_too:
                    self.request.sendall(b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes %d-%d/%d\r\n"
                                         b"Content-Length: %d\r\nConnection: close\r\n\r\n"
                                         % (start, end, len(data), end - start + 1) + data[start : end + 1])
                else:
                    sent.append(misbehave(self.request, start, end, len(data)))
            except OSError:  # the reader hung up: what it should do
                pass

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Host)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield "http://127.0.0.1:%d/%s" % (server.server_address[1], os.path.basename(table)), sent
    finally:
        server.shutdown()
        server.server_close()


def range_head(start, end, size, length=None):
    return (b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes %d-%d/%d\r\nContent-Length: %d\r\n\r\n"
            % (start, end, size, end - start + 1 if length is None else length))


def truncated(sock, start, end, size):  # Content-Length more than is sent, then the connection closed
    sock.sendall(range_head(start, end, size) + b"x" * ((end - start + 1) // 2))
    return 0


def garbage_status(sock, start, end, size):
    sock.sendall(b"GARBAGE\r\n\r\n")
    return 0


def long_header(sock, start, end, size):
    sock.sendall(b"HTTP/1.1 206 Partial Content\r\nX-Padding: " + b"a" * 70000 + b"\r\n\r\n")
    return 0


def range_not_satisfiable(sock, start, end, size):  # a 416 without the file's size
    sock.sendall(b"HTTP/1.1 416 Range Not Satisfiable\r\nContent-Length: 0\r\n\r\n")
    return 0


def short_range(sock, start, end, size):  # a 206 of fewer bytes than asked, its Content-Range saying so
    sock.sendall(range_head(start, start, size) + b"x")
    return 0


def other_range(sock, start, end, size):  # a 206 of as many bytes as asked, from elsewhere in the file
    sock.sendall(range_head(start - 1, end - 1, size) + b"x" * (end - start + 1))
    return 0


def unavailable(sock, start, end, size):
    sock.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
    return 0


def redirect_loop(sock, start, end, size):  # sent back to the same URL, again and again
    sock.sendall(b"HTTP/1.1 302 Found\r\nLocation: /again\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    return 0


def reset(sock, start, end, size):  # half the body, then the connection reset (RST, not a close)
    sock.sendall(range_head(start, end, size) + b"x" * ((end - start + 1) // 2))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()
    return 0


def endless(sock) -> int:
    """256 MB of zeros, or less if the reader hangs up; the bytes sent."""
    chunk, done = b"\0" * (1 << 16), 0
    try:
        while done < 1 << 28:
            sock.sendall(chunk)
            done += len(chunk)
    except OSError:
        pass
    return done


def oversized(sock, start, end, size):  # a 206 of the range asked whose body goes on for 256 MB
    sock.sendall(range_head(start, end, size, length=1 << 28))
    return endless(sock)


def range_without_length(sock, start, end, size):  # a 206 of the range asked, no Content-Length, 256 MB of body
    sock.sendall(b"HTTP/1.1 206 Partial Content\r\nContent-Range: bytes %d-%d/%d\r\nConnection: close\r\n\r\n"
                 % (start, end, size))
    return endless(sock)


def whole_without_length(sock, start, end, size):  # a 200 of no declared size that goes on for 256 MB
    sock.sendall(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n")
    return endless(sock)


def drip(sock, start, end, size, head=False):
    """A 206 of the range asked, its bytes (``head``: from the status line on) one every 0.2 s; at most 100 of
    them (20 s), then the connection closed. -> the bytes sent."""
    answer = range_head(start, end, size) + b"\0" * (end - start + 1)
    at = 0 if head else answer.index(b"\r\n\r\n") + 4
    sock.sendall(answer[:at])
    for i in range(at, min(at + 100, len(answer))):
        sock.sendall(answer[i : i + 1])
        time.sleep(0.2)
    return 0


def drip_head(sock, start, end, size):
    return drip(sock, start, end, size, head=True)


def whole_truncated(sock, start, end, size):  # a 200 declaring the file's size, half of it sent, then closed
    sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n" % size + b"x" * (size // 2))
    return 0
