"""The answer to one request of ``serve``: a file of ``Routes`` or 404, with validators and gzip;
``/games.json`` and ``/sw.js`` (made at start: ``worker``); and ``/solve/NAME.msgpack``, the tables solved on first use (``solving``).

Every answer carries an ``ETag`` and ``Last-Modified`` (from the file's size and
modification time) and ``Cache-Control: no-cache``: the browser asks again
each load and gets ``304 Not Modified`` while the file is unchanged. A client
that accepts gzip gets the gzipped bytes, made once per file version and kept (a
file of at most ``GZIP_LIMIT`` bytes; a larger one is sent as it is).
Log lines escape control characters; a client that goes away is not an error.

Only a ``POST`` starts a solve and only a ``DELETE`` stops one, and only from the
page itself: it must carry ``X-ShutTheBox: solve`` (which another site's page
cannot send without this server's consent, never given), name this server by
address or ``localhost`` in ``Host`` (not a domain name that another site could
point here: DNS rebinding), ``Origin``, when sent, must be ``http://`` and that
``Host``, and it must come from this machine (a loopback address) unless
``serve --allow-remote-solves``. Any request whose ``Host`` is not this server's
own is refused (403), a ``GET`` too: a page of a domain name pointed here after
it loaded reads nothing and keeps no solve going. Every answer, the standard
library's error pages too, carries ``headers.security_headers``: no
``Referer``, no guessing of content types; ``Server`` names no Python version.
All but a page's parts (modules, styles, tables, JSON, icons), so what a browser
runs as a document or a worker and every error, also carry a full
Content-Security-Policy (no framing, only this server's files, the inline
scripts by hash): a browser ignores a policy sent with a page's part, and its
420 bytes on each of a page's 40 requests add 17 KB before a phone's first
answer. A request without a version (HTTP/0.9) is answered 400 with headers.

A file is served whole (``Accept-Ranges: bytes``), or one byte range of it
(``Range: bytes=A-B``, ``A-``, ``-N``): ``206 Partial Content`` with
``Content-Range``, never gzipped, so that the page reads a table's header and
then only the blocks a question needs; ``If-Range`` with the file's ``ETag`` or
date. A range past the end is ``416`` with ``Content-Range: bytes */SIZE``;
several ranges at once are not served as parts: the answer is the whole file
(``200``), as HTTP allows a server that ignores ``Range``.

Under ``pool.Server`` an answer is made in memory (headers and a short body) with,
for a file, a duplicate of its descriptor; the server's selector thread sends it,
so a client that reads slowly holds no worker thread. HTTP/1.1: the connection of
an HTTP/1.1 request stays open for the next one (the server reads its head as it
read the first), unless the client says ``Connection: close``, the request has a
body (``Content-Length`` or ``Transfer-Encoding``: not read here) or the answer is
an error of the standard library's (its ``Connection: close``). Every answer says
its ``Content-Length`` (a ``304`` has no body).
"""

from __future__ import annotations

import email.utils
import gzip
import hashlib
import io
import ipaddress
import json
import mimetypes
import os
import re
import shutil
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler

from ..engine.text import shown
from .headers import SUBRESOURCES, security_headers, subresource_headers
from .tables import PROG, TABLE_FILE, games_list
from .worker import WORKER, render

SOLVE = "/solve/"
# The request header a solve needs: a page of another origin cannot send it (no CORS consent here).
SOLVE_HEADER = ("X-ShutTheBox", "solve")
# Each page's own random word on its solve requests: a solve other pages wait for outlives one page's DELETE.
PAGE_HEADER = "X-ShutTheBox-Page"
_PAGE = re.compile(r"[A-Za-z0-9_-]{1,64}\Z")
# A log line longer than this is cut (a request line may be 64 kB).
LOG_LIMIT = 400
# A Range header of one range: bytes=A-B, bytes=A- or bytes=-N (suffix).
_RANGE = re.compile(r"bytes=\s*(\d{0,18})\s*-\s*(\d{0,18})\s*\Z", re.I)

TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".svg": "image/svg+xml",
         ".txt": "text/plain", ".msgpack": "application/vnd.msgpack", ".png": "image/png",
         ".webmanifest": "application/manifest+json"}
# A client that hangs up or stops reading: its connection ends, nothing is logged.
DISCONNECTS = (ConnectionError, TimeoutError)
# C0 and C1 controls and DEL as \xNN: a request line must not drive the terminal (colours, bells, cursor moves).
_ESCAPES = {code: "\\x%02x" % code for code in (*range(0x20), *range(0x7F, 0xA0))}
_CHUNK = 1 << 16


def escape(text: str) -> str:
    return text.translate(_ESCAPES)


# Files above this are sent as they are: gzip holds a file's bytes and its gzipped copy in memory (a 1.8 GB
# table asked whole would take 2 GB), and the pages read a large table by ranges, never whole but to keep it.
GZIP_LIMIT = 64 << 20


class Gzipped:
    """path -> the gzipped bytes of its current version (None: gzip would not make it smaller)."""

    def __init__(self):
        self._kept: dict = {}
        self._locks: dict = {}
        self._lock = threading.Lock()

    def get(self, path, version, handle):
        kept = self._kept.get(path)
        if kept is not None and kept[0] == version:
            return kept[1]
        with self._lock:
            lock = self._locks.setdefault(path, threading.Lock())
        with lock:  # concurrent first requests compress once
            kept = self._kept.get(path)
            if kept is None or kept[0] != version:
                data = handle.read()
                packed = gzip.compress(data, 6, mtime=0)
                kept = (version, packed if len(packed) < len(data) else None)
                self._kept[path] = kept
        return kept[1]


def accepts_gzip(header) -> bool:
    for part in (header or "").split(","):
        coding, _, params = part.partition(";")
        if coding.strip().lower() in ("gzip", "x-gzip"):
            name, _, value = params.strip().partition("=")
            try:
                return name.strip().lower() != "q" or float(value) > 0
            except ValueError:
                return False
    return False


def loopback(address) -> bool:
    """Whether a client's address is this machine's (127.0.0.0/8, ::1, or either as IPv4-mapped IPv6)."""
    try:
        ip = ipaddress.ip_address(str(address).split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


def own_host(host, bound="127.0.0.1", names=()) -> bool:
    """Whether a ``Host`` header names this server: an IP address, ``localhost``, the ``--host`` given or
    one of ``names`` (this machine's own, when it listens beyond loopback), never another domain name
    (which a web site could point at this machine: DNS rebinding)."""
    try:
        name = urllib.parse.urlsplit("//" + (host or "")).hostname
    except ValueError:
        return False
    if not name:
        return False
    if name in ("localhost", bound.lower().strip("[]")) or name in names:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class RequestHandler(BaseHTTPRequestHandler):
    """One answer. What it serves is set as class attributes of the subclass :func:`make_handler` makes."""

    server_version = "ShutTheBox"  # and no Python version after it (version_string)
    # HTTP/1.1: persistent connections (an idle one holds no worker: pool.Server reads every request head).
    protocol_version = "HTTP/1.1"
    # A request line without a version is HTTP/0.9 to the standard library, whose answers then have no status
    # line and no headers: its refusals (400) are sent as HTTP/1.0 answers, with the headers, instead.
    default_request_version = "HTTP/1.0"
    # Set by make_handler: a tables.Routes, a solving.Solves (None: no solving), the --host address,
    # the seconds a client may stay silent (StreamRequestHandler applies it to the connection),
    # the gzipped files kept, and /games.json with its ETag (made once at start).
    routes = None
    solves = None
    bound_host = "127.0.0.1"
    host_names: frozenset = frozenset()  # this machine's names, when it listens beyond loopback
    security = security_headers()  # on every answer; make_handler adds the hashes of the pages' inline scripts
    remote_solves = False  # serve --allow-remote-solves: other machines may start and stop solves
    timeout = 10.0
    gzipped: Gzipped | None = None
    games_json = b""
    games_tag = ""
    worker_js = b""  # /sw.js, its version and files written in (worker.render)
    worker_tag = ""

    def setup(self):
        super().setup()
        self._body = None  # (descriptor, length) of a file the server sends after the answer made here
        self._deferred = False
        self._keep = False  # the connection stays open for the next request
        head = getattr(self.server, "take_head", None)
        if head is not None:  # the server read the request head already (pool.Server)
            self.rfile.close()  # else the socket stays open until this file is collected
            self.rfile = io.BytesIO(head(self.request))
        if getattr(self.server, "keep_answer", None) is not None:  # and it sends the answer (pool.Server)
            self._deferred = True
            self.wfile = io.BytesIO()

    def handle(self):
        if not self._deferred:
            super().handle()
            return
        # pool.Server: this request only; on a kept connection the server reads the next head as it read this one
        self.close_connection = True
        self.handle_one_request()
        self._keep = not self.close_connection

    def finish(self):
        if self._deferred:
            self.server.keep_answer(self.request, self.wfile.getvalue(), self._body, self._keep)
            self._body = None
        super().finish()

    def version_string(self):
        return self.server_version

    def send_response_only(self, code, message=None):
        self._code = code
        super().send_response_only(code, message)

    def send_header(self, keyword, value):
        if keyword == "Content-Type":
            self._kind = value
        super().send_header(keyword, value)

    def end_headers(self):
        kind, self._kind = getattr(self, "_kind", None), None
        url = self._url() if hasattr(self, "path") else ""  # no path: a request line refused before it was read
        part = getattr(self, "_code", 500) < 400 and kind is not None and kind.startswith(SUBRESOURCES)
        subresource = part and url != "/" + WORKER
        for header in subresource_headers(self.security) if subresource else self.security:
            self.send_header(*header)
        super().end_headers()

    def parse_request(self):
        if not super().parse_request():
            return False
        if len(self.requestline.split()) == 2:  # GET PATH, HTTP/0.9: refused, with a status line and headers
            self.send_error(400, "Bad request version: HTTP/0.9 is not served")
            return False
        # Kept open only for an HTTP/1.1 request without a body (a body is never read: its bytes would be
        # taken for the next request's); an HTTP/1.0 client's keep-alive is not offered.
        if (self.request_version < "HTTP/1.1" or self.headers.get("Transfer-Encoding") is not None
                or self.headers.get("Content-Length", "0").strip() != "0"):
            self.close_connection = True
        return True

    def do_GET(self):
        if self._foreign_host():
            return
        self._send(body=True)

    def do_HEAD(self):
        if self._foreign_host():
            return
        self._send(body=False)

    def _foreign_host(self) -> bool:
        """Refuse (403) a request naming another server in ``Host``: a domain name that another site may point
        at this machine (DNS rebinding). A request without ``Host`` (HTTP/1.0) is no browser's."""
        given = self.headers.get("Host")
        if given is None or own_host(given, self.bound_host, self.host_names):
            return False
        data = ("403: this server answers only to its own address, not to '%s'\n" % shown(given)).encode()
        self._send_small(403, "text/plain; charset=utf-8", data, "no-store")
        return True

    def do_POST(self):
        url = self._url()
        if not url.startswith(SOLVE) or self.solves is None:
            self._send_json(405, {"state": "failed", "error": "only /solve/NAME.msgpack takes a POST"},
                            ("Allow", "GET, HEAD"))
            return
        refused = self._refused("started")
        if refused:
            self._send_json(403, {"state": "failed", "error": refused})
            return
        name = self._table_name(url)
        if name is not None:
            self._send_json(*self.solves.start(name, self._page()))

    def do_DELETE(self):
        url = self._url()
        if not url.startswith(SOLVE) or self.solves is None:
            self._send_json(405, {"state": "failed", "error": "only /solve/NAME.msgpack takes a DELETE"},
                            ("Allow", "GET, HEAD"))
            return
        refused = self._refused("stopped")
        if refused:
            self._send_json(403, {"state": "failed", "error": refused})
            return
        name = self._table_name(url)
        if name is not None:
            self._send_json(*self.solves.cancel(name, self._page()))

    def _page(self):
        """The word a page names itself by in its solve requests (``PAGE_HEADER``), or None."""
        word = self.headers.get(PAGE_HEADER, "").strip()
        return word if _PAGE.match(word) else None

    def _url(self):
        return self.path.split("?", 1)[0].split("#", 1)[0]

    def _refused(self, done):
        """Why this POST or DELETE may not start or stop a solve (None: it may): it must come from the
        page itself, on this machine unless other machines are allowed. The words the client sent are
        echoed once, escaped and cut short (``shown``); the JSON around them escapes nothing more."""
        if not self.remote_solves and not loopback(self.client_address[0]):
            return ("a solve is started and stopped only from this machine, not from %s (ShutTheBox serve "
                    "--allow-remote-solves allows other machines)" % shown(self.client_address[0]))
        if self.headers.get(SOLVE_HEADER[0], "").strip().lower() != SOLVE_HEADER[1]:
            return "a solve needs the request header %s: %s (the page sends it)" % SOLVE_HEADER
        given = self.headers.get("Host")
        if not own_host(given, self.bound_host, self.host_names):
            return "a solve is %s only through this server's address, not '%s'" % (done, shown(given or ""))
        origin = self.headers.get("Origin")
        if origin is not None and origin.lower() != "http://" + given.lower():
            return "a solve is %s only by this server's own pages, not by '%s'" % (done, shown(origin))
        return None

    def _table_name(self, url):
        """The NAME of ``/solve/NAME.msgpack``; else answers 400 and returns None."""
        if TABLE_FILE.match(url[len(SOLVE) - 1 :]):
            return url[len(SOLVE) :]
        self._send_json(400, {"state": "failed", "error": "a table is named by its file name, never a path: "
                              "lower-case letters, digits, '.' and '-', ending .msgpack"})
        return None

    def _send_json(self, code, answer, *headers):
        data = json.dumps(answer, sort_keys=True).encode()
        if code == 503:
            headers += (("Retry-After", "1"),)
        self._send_small(code, "application/json", data, "no-store", headers)

    def _send_small(self, code, kind, data, cache, headers=()):
        """A short answer made here (JSON, a 404 line): no validators, no gzip."""
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", cache)
        for header in headers:
            self.send_header(*header)
        self._finish(data if self.command != "HEAD" else None)

    def _finish(self, data=None, handle=None, length=None):
        """End the headers, then write ``data`` or copy ``handle`` from where it stands, ``length`` bytes or to its
        end (neither: no body); a client that went away mid-answer closes the connection, nothing to report.
        Under ``pool.Server`` the file is not copied here: a duplicate of its descriptor goes to the server,
        which sends it."""
        try:
            self.end_headers()
            if data is not None:
                self.wfile.write(data)
            elif handle is not None and self._deferred:
                if length is None:
                    length = os.fstat(handle.fileno()).st_size - handle.tell()
                descriptor = os.dup(handle.fileno())
                os.lseek(descriptor, handle.tell(), os.SEEK_SET)
                self._body = (descriptor, length)
            elif handle is not None and length is not None:
                self.wfile.write(handle.read(length))
            elif handle is not None:
                shutil.copyfileobj(handle, self.wfile, _CHUNK)
        except DISCONNECTS:
            self.close_connection = True

    def _send_made(self, data, tag, kind, body):
        """``/games.json`` or ``/sw.js``: made once at start; revalidated by its ``ETag``."""
        unchanged = self._unchanged((tag,), None)
        self.send_response(304 if unchanged else 200)
        if not unchanged:
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
        self.send_header("ETag", tag)
        self.send_header("Cache-Control", "no-cache")
        self._finish(data if body and not unchanged else None)

    def _send(self, body):
        url = self._url()
        if url == "/games.json":
            self._send_made(self.games_json, self.games_tag, "application/json", body)
            return
        if url == "/" + WORKER and self.worker_js:
            self._send_made(self.worker_js, self.worker_tag, "text/javascript; charset=utf-8", body)
            return
        if url.startswith(SOLVE) and self.solves is not None:
            name = self._table_name(url)
            if name is not None:
                self._send_json(*self.solves.status(name, self._page()))
            return
        target = self.routes.path(url)
        try:
            handle = open(target, "rb")
        except (TypeError, OSError):
            self._not_found("the table file" if self.routes.is_table(url) else "this file")
            return
        with handle:
            self._send_file(url, target, handle, body)

    def _send_file(self, url, target, handle, body):
        info = os.fstat(handle.fileno())
        tag = '"%x-%x"' % (info.st_size, info.st_mtime_ns)
        tags = (tag, tag[:-1] + '-gzip"')
        unchanged = self._unchanged(tags, info.st_mtime)
        span = None if unchanged else self._range(info.st_size, tag, info.st_mtime)
        if span == "unsatisfiable":
            data = ("416: the range asked is not within this file of %d bytes\n" % info.st_size).encode()
            self._send_small(416, "text/plain; charset=utf-8", data, "no-cache",
                             (("Content-Range", "bytes */%d" % info.st_size), ("Accept-Ranges", "bytes")))
            return
        data = None
        # Only a whole file within the limit has a gzipped representation: only its answer varies (Vary); a
        # range never does, which spares each of a phone's table reads a header.
        varies = span is None and info.st_size <= GZIP_LIMIT
        if varies and accepts_gzip(self.headers.get("Accept-Encoding")):
            data = self.gzipped.get(target, (info.st_size, info.st_mtime_ns, info.st_ino), handle)
            handle.seek(0)
        if unchanged:
            self.send_response(304)
        else:
            self.send_response(200 if span is None else 206)
            self.send_header("Content-Type", self._content_type(url, target))
            if span is not None:
                self.send_header("Content-Range", "bytes %d-%d/%d" % (span[0], span[1], info.st_size))
            length = info.st_size if span is None else span[1] + 1 - span[0]
            self.send_header("Content-Length", str(length if data is None else len(data)))
            if data is not None:
                self.send_header("Content-Encoding", "gzip")
            self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", tags[data is not None])
        self.send_header("Last-Modified", email.utils.formatdate(info.st_mtime, usegmt=True))
        self.send_header("Cache-Control", "no-cache")
        if varies:
            self.send_header("Vary", "Accept-Encoding")
        if body and self._status in (200, 206):
            if span is not None:
                handle.seek(span[0])
            self._finish(data, handle if data is None else None, None if span is None else span[1] + 1 - span[0])
        else:
            self._finish()

    def _range(self, size, tag, mtime):
        """The one byte range asked, as (first, last), both included; None for the whole file (no ``Range``, one
        HTTP says to ignore, several ranges, or an ``If-Range`` that no longer matches); "unsatisfiable"."""
        asked = self.headers.get("Range")
        if asked is None or self.command not in ("GET", "HEAD"):
            return None
        found = _RANGE.match(asked.strip())
        if not found or found.group(1) == found.group(2) == "":
            return None  # not one range of bytes: ignored, the whole file
        condition = self.headers.get("If-Range")
        if condition is not None and not self._same_version(condition.strip(), tag, mtime):
            return None
        first, last = found.groups()
        if first == "":  # the last N bytes
            count = int(last)
            return (max(0, size - count), size - 1) if count and size else "unsatisfiable"
        first = int(first)
        if last != "" and int(last) < first:
            return None  # not a valid range: ignored
        if first >= size:
            return "unsatisfiable"
        return first, size - 1 if last == "" else min(int(last), size - 1)

    @staticmethod
    def _same_version(condition, tag, mtime) -> bool:
        """Whether ``If-Range`` names this version: its strong ``ETag``, or exactly its date."""
        if condition.startswith(('"', "W/")):
            return condition == tag
        try:
            when = email.utils.parsedate_to_datetime(condition)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return when.tzinfo is not None and int(when.timestamp()) == int(mtime)

    def _content_type(self, url, target):
        ext = ".msgpack" if self.routes.is_table(url) else os.path.splitext(target)[1]
        kind = TYPES.get(ext) or mimetypes.guess_type(target)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind.endswith("javascript"):
            kind += "; charset=utf-8"
        return kind

    def _unchanged(self, tags, mtime) -> bool:
        asked = self.headers.get("If-None-Match")
        if asked is not None:
            given = {part.strip().removeprefix("W/") for part in asked.split(",")}
            return "*" in given or not given.isdisjoint(tags)
        since = self.headers.get("If-Modified-Since")
        if since is None or mtime is None:
            return False
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return when.tzinfo is not None and int(mtime) <= when.timestamp()

    def _not_found(self, what):
        data = ("404: %s is not here\n" % what).encode()
        self._send_small(404, "text/plain; charset=utf-8", data, "no-cache")

    def send_response(self, code, message=None):
        self._status = code
        super().send_response(code, message)

    def log_request(self, code="-", size="-"):  # quiet: only failures are worth a line
        if str(getattr(code, "value", code)).startswith(("4", "5")):
            super().log_request(code, size)

    def log_error(self, format, *args):
        if not format.startswith("Request timed out"):  # a connection that went quiet: closed, not an error
            super().log_error(format, *args)

    def log_message(self, format, *args):
        text = escape(format % args)
        if len(text) > LOG_LIMIT:
            text = text[: LOG_LIMIT - 3] + "..."
        sys.stderr.write("%s: %s\n" % (PROG, text))


def machine_names(host) -> frozenset:
    """The names of this machine a browser may use for a server listening on ``host`` beyond loopback
    (``--host 0.0.0.0``, opened as http://NAME:PORT/); none for a server on loopback."""
    import socket

    try:
        if ipaddress.ip_address(host.split("%", 1)[0]).is_loopback:
            return frozenset()
    except ValueError:
        pass
    names = set()
    for find in (socket.gethostname, socket.getfqdn):
        try:
            names.add(find().lower().rstrip("."))
        except OSError:
            pass
    return frozenset(name for name in names if name)


def make_handler(routes, timeout=10.0, solves=None, host="127.0.0.1", remote_solves=False):
    """The request handler class answering from ``routes`` (a ``tables.Routes``) and ``solves`` (a
    ``solving.Solves``; None: no solving); ``timeout`` (seconds) ends a connection whose client stops
    reading; ``host`` is the address listened on (``--host``); ``remote_solves``: other machines may
    start and stop solves (``--allow-remote-solves``)."""
    games = json.dumps(games_list(solving=solves is not None), indent=1).encode() + b"\n"  # the registry's order
    worker = render(routes.files) if "/" + WORKER in routes.files else b""
    return type("Handler", (RequestHandler,), {
        "routes": routes, "solves": solves, "bound_host": host, "remote_solves": remote_solves,
        "host_names": machine_names(host), "security": security_headers(routes.files.values()),
        "timeout": timeout, "gzipped": Gzipped(),
        "games_json": games, "games_tag": '"%s"' % hashlib.sha256(games).hexdigest()[:20],
        "worker_js": worker, "worker_tag": '"%s"' % hashlib.sha256(worker).hexdigest()[:20]})
