"""A static server of one folder that answers ``Range`` (206), for the tests and bench/phone.py: what most
static hosts do and ``python3 -m http.server`` does not. ``refuse_ranges``: the whole file (200) for a
range, as a host without ranges answers; ``gzip``: text files gzipped for a client that accepts it, as most
hosts send them (tables never: they are read by ranges); ``requests`` records each (path, Range header)."""

from __future__ import annotations

import contextlib
import functools
import gzip as gzipped
import io
import http.server
import os
import re
import threading

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
