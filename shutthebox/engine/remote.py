"""A table file on a web host, read by HTTP ranges (query time, imported only for a URL).

``read_table("https://host/goat-g100.msgpack")`` reads the table the way it reads a file: the header
through small windows, then each block a lookup needs, each verified by its CRC-32 (reader.py);
here every ``pread`` is a ``Range`` request (standard library ``urllib`` only), and what came is kept. A
host that answers a range with the whole file (200) is read from that body. docs/FORMAT.md section 7.1.

Nothing the host does is trusted: each request must be answered whole within ``timeout()`` seconds (60, or
``$SHUTTHEBOX_URL_TIMEOUT``), however slowly the bytes come; no more is read than was asked (a range) or than
the file's declared size (a whole file, which must declare it); any other answer is a TableError in one line.
"""

from __future__ import annotations

import http.client
import os
import re
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request

from ..errors import InvalidQuery, TableError
from .decode import Cursor
from .text import shown

TIMEOUT = 60  # seconds a request may take, from asking to its last byte
TIMEOUT_ENV = "SHUTTHEBOX_URL_TIMEOUT"  # SECONDS: another limit (0.01 to 3600)
PAGE = 1 << 14  # what is asked and kept: aligned pages, so the header's many small windows share requests
_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+)\Z")


def timeout() -> float:
    """The seconds each request may take: ``$SHUTTHEBOX_URL_TIMEOUT``, else ``TIMEOUT``."""
    text = os.environ.get(TIMEOUT_ENV, "").strip()
    if not text:
        return TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0.01 <= seconds <= 3600:  # nan too
        raise InvalidQuery("%s must be a number of seconds from 0.01 to 3600, not '%s'" % (TIMEOUT_ENV, shown(text)))
    return seconds


def _checked_url(url: str) -> str:
    """``url``, or InvalidQuery when it is no URL a request can be made of (a bad question, not a bad host)."""
    if not url.isascii() or not url.isprintable() or " " in url:
        raise InvalidQuery("table URL %s is malformed (a space, a control or a non-ASCII character: "
                           "percent-encode it)" % shown(url))
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 - a port that is no number from 0 to 65535 raises here
        urllib.request.Request(url)  # what each request is made of
    except ValueError as error:
        raise InvalidQuery("table URL %s is malformed (%s)" % (shown(url), error)) from None
    if not parts.hostname:
        raise InvalidQuery("table URL %s is malformed (it names no host)" % shown(url))
    return url


class _Deadline:
    """A request's time limit: when it passes, the request's sockets are shut, so a read waiting on a host
    that drips bytes (each socket read within the socket's timeout) ends at once."""

    def __init__(self, seconds: float):
        self.seconds, self.passed = seconds, False
        self._sockets: list = []
        self._timer = threading.Timer(seconds, self._hang_up)
        self._timer.daemon = True
        self._timer.start()

    def watch(self, sock):
        self._sockets.append(sock)
        if self.passed:  # made after the deadline (a redirect's connection)
            _shut(sock)
        return sock

    def _hang_up(self) -> None:
        self.passed = True
        for sock in list(self._sockets):
            _shut(sock)

    def cancel(self) -> None:
        self._timer.cancel()


def _shut(sock) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


class _Watched:
    """urllib's handler, each connection's socket handed to the request's deadline when it is made."""

    deadline: _Deadline

    def do_open(self, http_class, req, **options):
        deadline = self.deadline

        def connection(host, **kwargs):
            made = http_class(host, **kwargs)
            create = made._create_connection
            made._create_connection = lambda *args, **more: deadline.watch(create(*args, **more))
            return made

        return super().do_open(connection, req, **options)


class _HTTP(_Watched, urllib.request.HTTPHandler):
    pass


class _HTTPS(_Watched, urllib.request.HTTPSHandler):
    pass


def _opener(deadline: _Deadline):
    handlers = []
    for kind in (_HTTP, _HTTPS):
        handler = kind()
        handler.deadline = deadline
        handlers.append(handler)
    return urllib.request.build_opener(*handlers)


def _length(headers) -> int | None:
    """The declared Content-Length, or None."""
    text = (headers.get("Content-Length") or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 else None


class RemoteFile:
    """``pread(length, start)`` over HTTP ranges, as ``os.pread`` over a file; ``size`` from the first answer."""

    def __init__(self, url: str):
        self.url = _checked_url(url)
        self.whole: bytes | None = None  # the body of a host that refuses ranges
        self.pages: dict = {}  # page number -> its bytes
        self.fetched = self.requests = 0
        self.size: int | None = None
        first, total = self._get(0, PAGE)
        if total is None:
            self.whole = first
            self.size = len(first)
        else:
            self.size = total
            self._keep(0, first)

    def _keep(self, start: int, data: bytes) -> None:
        for at in range(0, len(data), PAGE):
            self.pages[(start + at) // PAGE] = data[at : at + PAGE]

    def _refused(self, why: str) -> TableError:
        return TableError("cannot read table file %s (%s)" % (self.url, why))

    def _get(self, start: int, length: int):
        """-> (bytes, the file's size) of a 206, or (the whole body, None) of a 200; within the deadline, and
        never more bytes than were asked (206) or than the file's size (200)."""
        request = urllib.request.Request(self.url, headers={"Range": "bytes=%d-%d" % (start, start + length - 1)})
        deadline = _Deadline(timeout())
        try:
            with _opener(deadline).open(request, timeout=deadline.seconds) as response:  # noqa: S310 - the user's URL
                status, headers = response.status, response.headers
                declared = _length(headers)
                if status == 206:
                    if declared is not None and declared > length:
                        raise self._refused("the server sends %d bytes for the %d asked" % (declared, length))
                    body = response.read(length + 1)
                elif status == 200:
                    if declared is None:
                        raise self._refused("the server sends the whole file without its size (Content-Length)")
                    if self.size is not None and declared != self.size:
                        raise self._refused("the server sends the whole file as %d bytes, not %d" % (declared, self.size))
                    length = declared
                    body = response.read(declared + 1)
                else:
                    raise self._refused("HTTP %d" % status)
        except urllib.error.HTTPError as error:
            error.close()
            if deadline.passed:
                raise self._late(deadline) from None
            if error.code == 416 and not self.requests and start == 0:
                return b"", 0  # an empty file
            raise self._refused("HTTP %d" % error.code) from None
        except TableError:
            raise
        except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError, MemoryError) as error:
            if deadline.passed:
                raise self._late(deadline) from None
            if isinstance(error, MemoryError):
                raise self._refused("too large to hold") from None
            why = getattr(error, "reason", None) or error or type(error).__name__
            raise self._refused(shown(why)) from None
        finally:
            deadline.cancel()
        if deadline.passed:
            raise self._late(deadline)
        self.fetched += len(body)
        self.requests += 1
        if status == 200:
            if len(body) != length:
                raise self._refused("the server sent %d bytes of the %d it declared" % (len(body), length))
            return body, None
        if len(body) > length:
            raise self._refused("the server sent more than the %d bytes asked" % length)
        found = _CONTENT_RANGE.match(headers.get("Content-Range") or "")
        if (not found or int(found.group(1)) != start or int(found.group(2)) != min(start + length, int(found.group(3))) - 1
                or len(body) != int(found.group(2)) - start + 1):
            raise self._refused("the server sent other bytes than %d-%d" % (start, start + length - 1))
        return body, int(found.group(3))

    def _late(self, deadline: _Deadline) -> TableError:
        return self._refused("no whole answer within %g s; %s=SECONDS gives it longer" % (deadline.seconds, TIMEOUT_ENV))

    def pread(self, length: int, start: int) -> bytes:
        if self.whole is not None:
            return self.whole[start : start + length]
        size = self.size or 0
        end = min(start + length, size)
        if start >= end:
            return b""
        first, last = start // PAGE, (end - 1) // PAGE
        page = first
        while page <= last:  # each run of missing pages in one request
            if page in self.pages:
                page += 1
                continue
            run = page
            while run + 1 <= last and run + 1 not in self.pages:
                run += 1
            begin = page * PAGE
            data, total = self._get(begin, min((run + 1) * PAGE, size) - begin)
            if total is None:  # the host sent the whole file this time (its size checked): read from it
                self.whole = data
                return data[start : start + length]
            if total != size:
                raise self._refused("the file's size changed from %d to %d bytes while it was read" % (size, total))
            self._keep(begin, data)
            page = run + 1
        data = b"".join(self.pages[n] for n in range(first, last + 1))
        return data[start - first * PAGE : end - first * PAGE]


class RemoteCursor(Cursor):
    """The header's cursor (decode.Cursor) over a RemoteFile."""

    def pread(self, length: int, start: int) -> bytes:
        return self.fd.pread(length, start)
