"""``ShutTheBox serve``: the browser assistant on a local web server.

Serves the page (the files of ``shutthebox/web/static/``) and, beside it, the
very bytes of the table files, which the page reads and verifies itself: the
two-player table at ``standard.msgpack`` and the single-player tables at
``solo-NAME.msgpack`` (found where ``shutthebox.load_solo`` finds them). At
start it checks every byte of them as the page will (docs/FORMAT.md section 4)
and warns about a damaged one. Standard library and the query-time reader
only; imported by the command line only when asked for.
"""

from __future__ import annotations

import errno
import mimetypes
import os
import sys

PROG = "ShutTheBox serve"
WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
TABLE_URL = "/standard.msgpack"
DEFAULT_PORT = 8765

USAGE = "usage: ShutTheBox serve [--port N] [--host ADDRESS] [--table PATH]"
HELP = USAGE + """

Start the browser assistant (coach, play against the optimal computer, and
solo play for one player's objectives) on a local web server and print its
address; stop it with Ctrl-C. The page reads the table files itself, checks
their CRC-32, and needs no network. The single-player tables
(solo-standard.msgpack, solo-two-dice.msgpack, solo-two-tiles.msgpack) are
served from the data folders the Python API reads them from.

options:
  --port N        port to listen on (default %d; 0 picks a free one)
  --host ADDRESS  address to listen on (default 127.0.0.1, this machine only)
  --table PATH    serve another table file (or set SHUTTHEBOX_TABLE)
  -h, --help      print this help

page addresses: /?mode=coach, /?mode=play&seed=42&seat=2 (seat 2: the
computer plays first), /?mode=solo&seed=42&variant=two-dice&objective=score,
/?table=URL (read another two-player table)""" % DEFAULT_PORT

_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".svg": "image/svg+xml",
          ".txt": "text/plain", ".msgpack": "application/vnd.msgpack"}


class UsageError(Exception):
    """A mistake on the command line: one line on stderr, exit status 2."""


def parse_args(argv):
    options = {"port": DEFAULT_PORT, "host": "127.0.0.1", "table": None, "help": False}
    words = list(argv)
    while words:
        word = words.pop(0)
        if word in ("-h", "--help"):
            options["help"] = True
            continue
        name, eq, value = word.partition("=")
        if name not in ("--port", "--host", "--table"):
            raise UsageError("unknown argument '%s' (%s)" % (word if len(word) <= 40 else word[:37] + "...",
                                                             USAGE[len("usage: "):]))
        if not eq:
            if not words:
                raise UsageError("%s needs a value" % name)
            value = words.pop(0)
        options[name[2:]] = value
    port = options["port"]
    if isinstance(port, str):
        if not (port.isascii() and port.isdigit()) or len(port) > 5 or not 0 <= int(port) <= 65535:
            raise UsageError("--port must be a whole number from 0 to 65535, not '%s'"
                             % (port if len(port) <= 40 else port[:37] + "..."))
        options["port"] = int(port)
    if not options["host"]:
        raise UsageError("--host needs an address, like 127.0.0.1")
    return options


def static_files(folder=WEB):
    """URL path -> file path for every file of the page (nothing else is served)."""
    files = {}
    for base, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(base, name)
            url = "/" + os.path.relpath(path, folder).replace(os.sep, "/")
            files[url] = path
    files["/"] = os.path.join(folder, "index.html")
    return files


def find_solo_tables(warn=True):
    """URL -> path of each single-player table, where ``load_solo`` finds it (None: missing).

    A missing or damaged one is a warning, not a failure: Solo mode with those
    rules then says what is wrong, the rest of the page works. A table whose
    header is sound but whose bytes are damaged is served all the same: the
    page refuses it and says why.
    """
    from ..errors import ShutTheBoxError
    from ..games.solo.table import VARIANTS, load_solo

    routes = {}
    for variant in VARIANTS:
        url = "/" + table_name(variant)
        routes[url] = None
        try:
            solo = load_solo(variant)
            routes[url] = solo.path
            check_every_byte(solo.file)
        except ShutTheBoxError as error:
            if warn:
                sys.stderr.write("%s: warning: %s\n" % (PROG, error))
    return routes


def check_every_byte(tablefile):
    """Raise TableError unless every byte of the table is sound, as the page checks before it answers:
    the whole-file CRC-32, then each array's checksums (the reader verified the header at open)."""
    import zlib

    from ..engine.format import CRC_TAIL
    from ..engine.reader import damaged

    try:
        with open(tablefile.path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise damaged(tablefile.path, "cannot be read (%s)" % (error.strerror or error), tablefile.fix) from None
    tail = len(data) - 4 - len(CRC_TAIL)
    if tail < 0 or data[tail : tail + len(CRC_TAIL)] != CRC_TAIL:
        raise damaged(tablefile.path, "is truncated (no checksum at its end)", tablefile.fix)
    if zlib.crc32(memoryview(data)[:-4]) != int.from_bytes(data[-4:], "big"):
        raise damaged(tablefile.path, "is damaged (checksum mismatch)", tablefile.fix)
    for name in tablefile.arrays:
        tablefile.whole(name)


def table_name(variant):
    from ..games.solo.table import table_name as solo_name

    return solo_name(variant)


def make_handler(files, table_path, solo_tables=None):
    from http.server import BaseHTTPRequestHandler

    routes = dict(files)
    routes[TABLE_URL] = table_path
    routes.update(solo_tables or {})
    tables = {TABLE_URL} | set(solo_tables or ())

    class Handler(BaseHTTPRequestHandler):
        server_version = "ShutTheBox"

        def do_GET(self):
            self._send(body=True)

        def do_HEAD(self):
            self._send(body=False)

        def _send(self, body):
            path = self.path.split("?", 1)[0].split("#", 1)[0]
            target = routes.get(path)
            try:
                with open(target, "rb") as handle:
                    data = handle.read()
            except (TypeError, OSError):
                what = "the table file" if path in tables else "this file"
                data = ("404: %s is not here\n" % what).encode()
                self.send_response(404)
                self.send_header("Content-Type", "text/plain; charset=utf-8")
            else:
                self.send_response(200)
                ext = os.path.splitext(target)[1] if path not in tables else ".msgpack"
                kind = _TYPES.get(ext) or mimetypes.guess_type(target)[0] or "application/octet-stream"
                if kind.startswith("text/") or kind.endswith("javascript"):
                    kind += "; charset=utf-8"
                self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-cache")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            if body:
                self.wfile.write(data)

        def log_request(self, code="-", size="-"):  # quiet: only failures are worth a line
            if str(getattr(code, "value", code)).startswith(("4", "5")):
                super().log_request(code, size)

        def log_message(self, format, *args):
            sys.stderr.write("%s: %s\n" % (PROG, format % args))

    return Handler


def find_table_path(option):
    """The table to serve: --table, else $SHUTTHEBOX_TABLE, else the shipped one."""
    from ..engine.store import shipped
    from ..errors import TableError
    from ..games.shutthebox.table import STANDARD_TABLE, TABLE_ENV

    path = option or os.environ.get(TABLE_ENV) or shipped(STANDARD_TABLE)
    if path is None:
        raise TableError("no table file %s found; build it with `make tables`, or set %s" % (STANDARD_TABLE, TABLE_ENV))
    return path


def main(argv=None) -> int:
    """Run ``ShutTheBox serve``; return the exit status."""
    from ..errors import ShutTheBoxError

    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        options = parse_args(argv)
        if options["help"]:
            print(HELP)
            return 0
        table_path = find_table_path(options["table"])
        if not os.path.isfile(table_path):
            sys.stderr.write("%s: table file %s does not exist; build it with `make tables`\n" % (PROG, table_path))
            return 3
        _warn_if_damaged(table_path)
        handler = make_handler(static_files(), table_path, find_solo_tables())
        server = _bind(options["host"], options["port"], handler)
    except UsageError as error:
        sys.stderr.write("%s: %s\n" % (PROG, error))
        return 2
    except ShutTheBoxError as error:
        sys.stderr.write("%s: %s\n" % (PROG, error))
        return error.exit_status
    host, port = server.server_address[:2]
    shown = "[%s]" % host if ":" in host else host
    print("Shut the Box assistant at http://%s:%d/  (table: %s; Ctrl-C to stop)"
          % (shown, port, os.path.abspath(table_path)), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _warn_if_damaged(table_path):
    """Serve a table the Python reader refuses all the same (the page says why), but say so here too."""
    from ..errors import TableError
    from ..games.shutthebox.table import load

    try:
        table = load(table_path)
        check_every_byte(table.file)
    except TableError as error:
        sys.stderr.write("%s: warning: %s\n" % (PROG, error))


def _bind(host, port, handler):
    import socket
    from http.server import ThreadingHTTPServer

    class Server(ThreadingHTTPServer):
        daemon_threads = True

    if ":" in host:
        Server.address_family = socket.AF_INET6
    try:
        return Server((host, port), handler)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise UsageError("port %d on %s is in use; choose another with --port (0 picks a free one)"
                             % (port, host)) from None
        if error.errno == errno.EACCES:
            raise UsageError("no permission to listen on port %d; choose a port above 1023" % port) from None
        if isinstance(error, socket.gaierror) or error.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
            raise UsageError("cannot listen on address '%s' (%s)" % (host, error.strerror or error)) from None
        raise UsageError("cannot listen on %s port %d (%s)" % (host, port, error.strerror or error)) from None
