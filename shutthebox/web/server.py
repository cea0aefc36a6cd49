"""``ShutTheBox serve``: the browser assistant on a local web server (the command line).

Serves the page (the files of ``shutthebox/web/static/``) and, beside it, the
very bytes of the table files of the registry's games, which the page reads
and verifies itself (``tables``: what is served; ``handler``: one answer;
``pool``: connections and threads; ``solving``: tables solved on first use;
``export``: ``--export DIR``, the same files written as a static site).
At start it checks every byte of the two-player and single-player tables as
the page will (docs/FORMAT.md section 4) and warns about a damaged one.
Standard library and the query-time reader only; imported by the command line
only when asked for.
"""

from __future__ import annotations

import errno
import ipaddress
import os
import re
import sys

from ..engine.text import one_line, shown
from .pool import ANSWER_TIMES
from .solving import DEFAULT_IDLE, IDLE_ENV
from .tables import (PROG, TABLE_URL, WEB, Routes, check_every_byte, check_two_player, find_solo_tables,  # noqa: F401
                     find_table_path, static_files)
from .tables import warn_if_damaged as _warn_if_damaged

DEFAULT_PORT = 8765
TIMEOUT_ENV = "SHUTTHEBOX_SERVE_TIMEOUT"
DEFAULT_TIMEOUT = 10.0
# --solve-limit: a memory size written as the estimates write them (5GB, 500MB, 1.5GB).
_MEMORY = re.compile(r"(\d{1,6}(?:\.\d{1,3})?) ?([kmgt]?b)\Z", re.I)
_UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}

USAGE = ("usage: ShutTheBox serve [--port N] [--host ADDRESS] [--table PATH] [--solve-limit MEMORY] "
         "[--allow-remote-solves] | --export DIR [--table PATH]")
HELP = USAGE + """

Start the browser assistant (coach, play against the optimal computer, and
solo play for one player's objectives) on a local web server and print its
address; stop it with Ctrl-C. The page reads the table files itself, checks
their CRC-32, and needs no network. The tables of every game are served from
the data folders (and the cache) the Python API reads them from, and only
those; a table not solved yet is solved on first use when you press Solve in
the page, which shows its estimated size, memory and time first (POST
/solve/NAME.msgpack; one at a time, in a child process, into the cache), as
the command line would. Cancel in the page stops it (DELETE
/solve/NAME.msgpack), and so does closing the page, unless another page
waits for it too; a solve nobody has asked about for %(idle)g seconds is
stopped.

options:
  --port N        port to listen on (default %(port)d; 0 picks a free one)
  --host ADDRESS  address to listen on (default 127.0.0.1, this machine only;
                  any other address lets other machines read the pages)
  --table PATH    serve another two-player table as standard.msgpack
                  (or set SHUTTHEBOX_TABLE)
  --solve-limit MEMORY
                  refuse to solve a table estimated to need more memory than
                  this (default 2GB, the command line's limit without
                  --allow-large; e.g. 5GB or 500MB)
  --allow-remote-solves
                  let other machines start and stop solves (by default only
                  this machine may, whatever --host says)
  --export DIR    start no server: write the pages, games.json and the
                  shipped tables into DIR as a static site for any static
                  web host, then exit. Solving is unavailable there: the
                  pages name the command line that solves a table not in
                  DIR. DIR must be new, empty, or an earlier export (its
                  games.json says "solving": false), whose own other files
                  are kept; only --table may go with it
  -h, --help      print this help

environment: %(timeout_env)s=SECONDS closes a connection whose request has
not arrived in that time, or that stops reading an answer (default %(timeout)g;
an answer must be sent within %(times)d times that); %(idle_env)s=SECONDS
stops a solve nobody has asked about for that long (default %(idle)g)

page addresses: /?mode=coach, /?mode=play&seed=42&seat=2 (seat 2: the
computer plays first), /?mode=solo&seed=42&variant=two-dice&objective=score,
/?table=URL (read another two-player table)

exit status: 0 stopped (Ctrl-C) or exported, 1 the export could not be
written, 2 bad option or port in use, 3 table missing or damaged, 4 the
msgpack package missing (it writes the tables solved on first use)""" % {
    "port": DEFAULT_PORT, "timeout_env": TIMEOUT_ENV, "timeout": DEFAULT_TIMEOUT, "times": ANSWER_TIMES,
    "idle_env": IDLE_ENV, "idle": DEFAULT_IDLE}

OPTIONS = ("--port", "--host", "--table", "--solve-limit", "--export")  # each takes a value
FLAGS = ("--allow-remote-solves",)
# What a server needs and a static copy cannot use: refused beside --export.
SERVER_ONLY = ("--port", "--host", "--solve-limit", "--allow-remote-solves")


class UsageError(Exception):
    """A mistake on the command line: one line on stderr, exit status 2."""


def parse_args(argv):
    from ..engine.store import MEMORY_LIMIT

    options = {"port": DEFAULT_PORT, "host": "127.0.0.1", "table": None, "solve-limit": MEMORY_LIMIT,
               "allow-remote-solves": False, "export": None, "help": False}
    given = []
    words = list(argv)
    while words:
        word = words.pop(0)
        if word in ("-h", "--help"):
            options["help"] = True
            continue
        if word in FLAGS:
            options[word[2:]] = True
            given.append(word)
            continue
        name, eq, value = word.partition("=")
        if name not in OPTIONS:
            raise UsageError("unknown argument '%s' (%s)" % (shown(word), USAGE[len("usage: "):]))
        if not eq:
            if not words:
                raise UsageError("%s needs a value" % name)
            value = words.pop(0)
        options[name[2:]] = value
        given.append(name)
    if options["export"] is not None:
        if not options["export"]:
            raise UsageError("--export needs a folder to write the static copy into")
        idle = list(dict.fromkeys(word for word in given if word in SERVER_ONLY))  # as given, once each
        if idle:
            raise UsageError("--export writes a static copy and starts no server: %s make%s no sense with it"
                             % (" and ".join(idle), "" if len(idle) > 1 else "s"))
    port = options["port"]
    if isinstance(port, str):
        if not (port.isascii() and port.isdigit()) or len(port) > 5 or not 0 <= int(port) <= 65535:
            raise UsageError("--port must be a whole number from 0 to 65535, not '%s'" % shown(port))
        options["port"] = int(port)
    if not options["host"]:
        raise UsageError("--host needs an address, like 127.0.0.1")
    limit = options["solve-limit"]
    if isinstance(limit, str):
        found = _MEMORY.match(limit.strip())
        if not found or float(found.group(1)) * _UNITS[found.group(2).lower()] < 10**6:
            raise UsageError("--solve-limit must be a memory size of 1MB or more, like 5GB or 500MB, not '%s'"
                             % shown(limit))
        options["solve-limit"] = int(float(found.group(1)) * _UNITS[found.group(2).lower()])
    return options


def make_handler(files, table_path, solo_tables=None, timeout=DEFAULT_TIMEOUT, host="127.0.0.1", solve_limit=None,
                 remote_solves=False, idle=DEFAULT_IDLE):
    """The request handler class: the page's ``files``, the two-player table, the solo tables, every
    other table of the registry's games, ``/games.json``, and ``/solve/NAME.msgpack`` (tables solved on
    first use, one at a time in a child process; ``solve_limit``: the most memory a solve may be estimated
    to need, default the command line's; ``remote_solves``: other machines may start them; ``idle``: the
    seconds after which a solve nobody asks about is stopped). The handler's ``solves`` must be closed
    (``Solves.close``) when the server stops."""
    from .handler import make_handler as handler_for
    from .solving import Solves

    routes = Routes(files, table_path, solo_tables)
    return handler_for(routes, timeout, Solves(routes, solve_limit, idle), host, remote_solves)


def seconds_from_environment(name, default) -> float:
    text = os.environ.get(name)
    if not text:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0.01 <= seconds <= 3600:
        raise UsageError("%s must be a number of seconds from 0.01 to 3600, not '%s'" % (name, shown(text)))
    return seconds


def timeout_from_environment() -> float:
    return seconds_from_environment(TIMEOUT_ENV, DEFAULT_TIMEOUT)


def main(argv=None) -> int:
    """Run ``ShutTheBox serve``; return the exit status."""
    from ..errors import ShutTheBoxError

    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        options = parse_args(argv)
        if options["help"]:
            return _print_help()
        if options["export"] is None and not _has_msgpack():
            return _missing("msgpack")
        timeout = timeout_from_environment()
        idle = seconds_from_environment(IDLE_ENV, DEFAULT_IDLE)
        table_path = find_table_path(options["table"])
        if not os.path.isfile(table_path):
            sys.stderr.write("%s: table file %s does not exist; build it with `make tables`\n"
                             % (PROG, one_line(table_path)))
            return 3
        check_two_player(table_path)
        if options["export"] is not None:
            from .export import Refused, check_folder

            try:
                check_folder(options["export"])  # refused before any table is read
            except Refused as error:
                raise UsageError(str(error)) from None
        _warn_if_damaged(table_path)
        if options["export"] is not None:
            from .export import main as export

            return export(options["export"], table_path, find_solo_tables())
        handler = make_handler(static_files(), table_path, find_solo_tables(), timeout, options["host"],
                               options["solve-limit"], options["allow-remote-solves"], idle)
        server = _bind(options["host"], options["port"], handler, timeout)
    except UsageError as error:
        sys.stderr.write("%s: %s\n" % (PROG, one_line(error)))
        return 2
    except ShutTheBoxError as error:
        sys.stderr.write("%s: %s\n" % (PROG, one_line(error)))
        return error.exit_status
    host, port = server.server_address[:2]
    if not _this_machine_only(host):
        sys.stderr.write("%s: warning: listening on %s: every machine that can reach it can read the pages and "
                         "tables%s\n" % (PROG, host, ", and start and stop solves (--allow-remote-solves)"
                                         if options["allow-remote-solves"] else
                                         "; solves are refused to them (--allow-remote-solves allows them)"))
    address = "[%s]" % host if ":" in host else host
    try:
        print("Shut the Box assistant at http://%s:%d/  (table: %s; Ctrl-C to stop)"
              % (address, port, one_line(os.path.abspath(table_path))), flush=True)
    except BrokenPipeError:  # the reader went away (``| head -0``): serving goes on, nothing more is printed
        from ..engine.command import _silence_stdout

        _silence_stdout()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        handler.solves.close()
        server.server_close()
    return 0


def _print_help() -> int:
    """``serve --help``, in the command line's way: a reader that goes away (``| head -1``) is not an error,
    a closed standard output is one line and exit status 1."""
    from ..engine.command import _write, guarded

    def write():
        _write(HELP + "\n")
        return 0

    return guarded(write, PROG)


def _has_msgpack() -> bool:
    """Whether the tables solved on first use can be written: the solver's child needs msgpack (the pages
    and the shipped tables do not, so --export goes without it)."""
    try:
        import msgpack  # noqa: F401
    except ImportError:
        return False
    return True


def _missing(package) -> int:
    """The command line's words and exit status for a missing package (engine.command.guarded)."""
    from ..engine.command import guarded

    def fail():
        raise ImportError("No module named %r" % package, name=package)

    return guarded(fail, PROG)


def _this_machine_only(host) -> bool:
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def _bind(host, port, handler, timeout=DEFAULT_TIMEOUT):
    import socket

    from .pool import Server

    class Bound(Server):
        address_family = socket.AF_INET6 if ":" in host else socket.AF_INET

    try:
        return Bound((host, port), handler, timeout)
    except (OSError, UnicodeError, ValueError) as error:
        why = one_line(getattr(error, "strerror", None) or error)
        if getattr(error, "errno", None) == errno.EADDRINUSE:
            raise UsageError("port %d on %s is in use; choose another with --port (0 picks a free one)"
                             % (port, shown(host))) from None
        if getattr(error, "errno", None) == errno.EACCES:
            raise UsageError("no permission to listen on port %d; choose a port above 1023" % port) from None
        if (isinstance(error, (socket.gaierror, UnicodeError, ValueError))
                or getattr(error, "errno", None) in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT)):
            raise UsageError("cannot listen on address '%s' (%s)" % (shown(host), why)) from None
        raise UsageError("cannot listen on %s port %d (%s)" % (shown(host), port, why)) from None
