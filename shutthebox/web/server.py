"""``ShutTheBox serve``: the browser assistant on a local web server (the command line).

Serves the page (the files of ``shutthebox/web/static/``) and, beside it, the
very bytes of the table files of the registry's games, which the page reads
and verifies itself (``tables``: what is served; ``handler``: one answer;
``pool``: connections and threads). At start it checks every byte of the
two-player and single-player tables as the page will (docs/FORMAT.md section 4)
and warns about a damaged one. Standard library and the query-time reader
only; imported by the command line only when asked for.
"""

from __future__ import annotations

import errno
import os
import sys

from .tables import (PROG, TABLE_URL, WEB, Routes, check_every_byte, check_two_player, find_solo_tables,  # noqa: F401
                     find_table_path, static_files)
from .tables import warn_if_damaged as _warn_if_damaged

DEFAULT_PORT = 8765
TIMEOUT_ENV = "SHUTTHEBOX_SERVE_TIMEOUT"
DEFAULT_TIMEOUT = 10.0

USAGE = "usage: ShutTheBox serve [--port N] [--host ADDRESS] [--table PATH]"
HELP = USAGE + """

Start the browser assistant (coach, play against the optimal computer, and
solo play for one player's objectives) on a local web server and print its
address; stop it with Ctrl-C. The page reads the table files itself, checks
their CRC-32, and needs no network. The tables of every game are served from
the data folders (and the cache) the Python API reads them from, and only
those; a table not solved yet is solved on first use when the page asks
(POST /solve/NAME.msgpack; one at a time, into the cache), as the command
line would.

options:
  --port N        port to listen on (default %d; 0 picks a free one)
  --host ADDRESS  address to listen on (default 127.0.0.1, this machine only)
  --table PATH    serve another two-player table as standard.msgpack
                  (or set SHUTTHEBOX_TABLE)
  -h, --help      print this help

environment: %s=SECONDS closes a connection whose request has not
arrived in that time, or that stops reading an answer (default %g)

page addresses: /?mode=coach, /?mode=play&seed=42&seat=2 (seat 2: the
computer plays first), /?mode=solo&seed=42&variant=two-dice&objective=score,
/?table=URL (read another two-player table)""" % (DEFAULT_PORT, TIMEOUT_ENV, DEFAULT_TIMEOUT)


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


def make_handler(files, table_path, solo_tables=None, timeout=DEFAULT_TIMEOUT, host="127.0.0.1"):
    """The request handler class: the page's ``files``, the two-player table, the solo tables, every
    other table of the registry's games, ``/games.json``, and ``/solve/NAME.msgpack`` (tables solved on
    first use, one at a time in one background thread)."""
    from .handler import make_handler as handler_for
    from .solving import Solves

    routes = Routes(files, table_path, solo_tables)
    return handler_for(routes, timeout, Solves(routes), host)


def timeout_from_environment() -> float:
    text = os.environ.get(TIMEOUT_ENV)
    if not text:
        return DEFAULT_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0.01 <= seconds <= 3600:
        raise UsageError("%s must be a number of seconds from 0.01 to 3600, not '%s'"
                         % (TIMEOUT_ENV, text if len(text) <= 40 else text[:37] + "..."))
    return seconds


def main(argv=None) -> int:
    """Run ``ShutTheBox serve``; return the exit status."""
    from ..errors import ShutTheBoxError

    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        options = parse_args(argv)
        if options["help"]:
            print(HELP)
            return 0
        timeout = timeout_from_environment()
        table_path = find_table_path(options["table"])
        if not os.path.isfile(table_path):
            sys.stderr.write("%s: table file %s does not exist; build it with `make tables`\n" % (PROG, table_path))
            return 3
        check_two_player(table_path)
        _warn_if_damaged(table_path)
        handler = make_handler(static_files(), table_path, find_solo_tables(), timeout, options["host"])
        server = _bind(options["host"], options["port"], handler, timeout)
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


def _bind(host, port, handler, timeout=DEFAULT_TIMEOUT):
    import socket

    from .pool import Server

    class Bound(Server):
        address_family = socket.AF_INET6 if ":" in host else socket.AF_INET

    try:
        return Bound((host, port), handler, timeout)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise UsageError("port %d on %s is in use; choose another with --port (0 picks a free one)"
                             % (port, host)) from None
        if error.errno == errno.EACCES:
            raise UsageError("no permission to listen on port %d; choose a port above 1023" % port) from None
        if isinstance(error, socket.gaierror) or error.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
            raise UsageError("cannot listen on address '%s' (%s)" % (host, error.strerror or error)) from None
        raise UsageError("cannot listen on %s port %d (%s)" % (host, port, error.strerror or error)) from None
