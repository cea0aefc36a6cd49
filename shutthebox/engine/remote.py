"""A table file on a web host, read by HTTP ranges (query time, imported only for a URL).

``read_table("https://host/goat-g100.msgpack")`` reads the table the way it reads a file: the header
through small windows, then each block a lookup needs, each verified by its CRC-32 (reader.py);
here every ``pread`` is a ``Range`` request (standard library ``urllib`` only), and what came is kept. A
host that answers a range with the whole file (200) is read from that body. docs/FORMAT.md section 7.1.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request

from ..errors import TableError
from .decode import Cursor

TIMEOUT = 60  # seconds a request may take
PAGE = 1 << 14  # what is asked and kept: aligned pages, so the header's many small windows share requests
_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+)\Z")


class RemoteFile:
    """``pread(length, start)`` over HTTP ranges, as ``os.pread`` over a file; ``size`` from the first answer."""

    def __init__(self, url: str):
        self.url = url
        self.whole: bytes | None = None  # the body of a host that refuses ranges
        self.pages: dict = {}  # page number -> its bytes
        self.fetched = self.requests = 0
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

    def _get(self, start: int, length: int):
        """-> (bytes, the file's size) of a 206, or (the whole body, None) of a 200."""
        request = urllib.request.Request(self.url, headers={"Range": "bytes=%d-%d" % (start, start + length - 1)})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:  # noqa: S310 - the user's URL
                body = response.read()
                status, span = response.status, response.headers.get("Content-Range") or ""
        except urllib.error.HTTPError as error:
            if error.code == 416:
                return b"", 0  # an empty file (or a range past its end)
            raise TableError("cannot read table file %s (HTTP %d)" % (self.url, error.code)) from None
        except (urllib.error.URLError, OSError, ValueError) as error:
            raise TableError("cannot read table file %s (%s)" % (self.url, getattr(error, "reason", error))) from None
        self.fetched += len(body)
        self.requests += 1
        if status == 200:
            return body, None
        found = _CONTENT_RANGE.match(span)
        if status != 206 or not found or int(found.group(1)) != start or len(body) != int(found.group(2)) - start + 1:
            raise TableError("cannot read table file %s (the server sent other bytes than %d-%d)"
                             % (self.url, start, start + length - 1))
        return body, int(found.group(3))

    def pread(self, length: int, start: int) -> bytes:
        if self.whole is not None:
            return self.whole[start : start + length]
        end = min(start + length, self.size)
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
            data, _ = self._get(begin, min((run + 1) * PAGE, self.size) - begin)
            self._keep(begin, data)
            page = run + 1
        data = b"".join(self.pages[n] for n in range(first, last + 1))
        return data[start - first * PAGE : end - first * PAGE]


class RemoteCursor(Cursor):
    """The header's cursor (decode.Cursor) over a RemoteFile."""

    def pread(self, length: int, start: int) -> bytes:
        return self.fd.pread(length, start)
