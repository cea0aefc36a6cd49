"""``ShutTheBox serve --export DIR``: the pages, ``games.json`` and the shipped tables as a static site.

What is written is what ``serve`` would hand out without solving: every file of
``static/`` (``sw.js`` as ``worker`` fills it in), ``games.json`` as the server makes it but with ``"solving": false``
and the list of the ``tables`` beside it (the pages read it and never ask a
``/solve/`` URL that no static host has), and the tables ``serve`` finds
shipped, under the names it serves them by: ``standard.msgpack`` (``--table``,
``$SHUTTHEBOX_TABLE`` or the shipped one), the solo tables, and every file of
the shipped data folders (``engine.store.SEARCH_PATH``) that is a table of a
registry game. Tables solved on first use (the cache) are not copied.

DIR must be new, empty, or an earlier export (its ``games.json`` says
``"solving": false``); other files of an earlier export (a host's own, like
``CNAME``) are kept, its tables no longer exported are removed. Each file is
written under a temporary name in its folder and renamed, so a failed export
leaves no half file under a final name. ``games.json`` goes first: an export
that fails half way is still an earlier export, to be run again.
"""

from __future__ import annotations

import errno
import json
import os
import re
import sys

from ..engine.text import one_line
from .tables import PROG, TABLE_FILE, TABLE_URL, WEB, Routes, games_list, static_files
from .worker import WORKER, render

GAMES = "games.json"
PART = ".part"  # a file being written: .NAME.XXXX.part, renamed when whole
LARGE = 10**7  # bytes: an export this big says its size before it writes
_LEFT = re.compile(r"\..+\.[a-z0-9_]{8}" + re.escape(PART) + r"\Z")  # _temporary's names


class Refused(Exception):
    """DIR cannot take the export: one line on stderr, exit status 2."""


def plan(table_path, solo_tables) -> dict:
    """Served name (a path relative to DIR) -> source file: the pages, then the tables."""
    from ..engine.store import SEARCH_PATH, shipped

    files = {url[1:]: path for url, path in static_files().items() if url != "/"}
    tables = {TABLE_URL[1:]: table_path}
    tables.update((url[1:], path) for url, path in (solo_tables or {}).items() if path)
    routes = Routes({}, table_path, solo_tables)
    for folder in SEARCH_PATH:
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            if name in tables or not TABLE_FILE.match("/" + name) or shipped(name) != os.path.join(folder, name):
                continue
            if routes.path("/" + name) == shipped(name):  # a table of a registry game, as serve finds it
                tables[name] = shipped(name)
    for name, path in sorted(tables.items()):
        files[name] = path
    return files


def earlier_export(folder):
    """The table names an earlier export in ``folder`` listed, or None when ``folder`` holds none."""
    try:
        with open(os.path.join(folder, GAMES), encoding="utf-8") as handle:
            said = json.load(handle)
    except (OSError, ValueError):
        return None
    if not isinstance(said, dict) or said.get("solving") is not False:
        return None
    tables = said.get("tables")
    return [name for name in tables if isinstance(name, str)] if isinstance(tables, list) else []


def check_folder(folder):
    """Refused unless ``folder`` is new, empty or an earlier export, and can be written: the table names
    of the earlier export (an empty list for none). Folders made for the check that cannot be written are
    removed again."""
    if not folder:
        raise Refused("--export needs a folder to write the static copy into")
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise Refused("--export %s: not a folder" % one_line(folder))
    inside = os.path.realpath(folder)
    if os.path.commonpath([inside, os.path.realpath(WEB)]) == os.path.realpath(WEB):
        raise Refused("--export %s: inside the pages' own folder %s, whose files it copies; choose another folder"
                      % (one_line(folder), one_line(WEB)))
    try:
        present = os.listdir(folder) if os.path.isdir(folder) else []
    except OSError as error:
        raise Refused("--export %s: cannot read the folder (%s)" % (one_line(folder), _why(error))) from None
    earlier = earlier_export(folder) if present else []
    if earlier is None:
        raise Refused("--export %s: the folder is not empty and holds no earlier export (no %s saying "
                      "\"solving\": false); choose a new or empty folder" % (one_line(folder), GAMES))
    made = _missing_parents(folder)
    try:
        os.makedirs(folder, exist_ok=True)
        probe = _temporary(folder, "probe")
        os.close(probe[0])
        os.unlink(probe[1])
    except OSError as error:
        for path in made:
            try:
                os.rmdir(path)
            except OSError:
                break
        raise Refused("--export %s: cannot write there (%s)" % (one_line(folder), _why(error))) from None
    return earlier


def export(folder, table_path, solo_tables, out=sys.stdout) -> list:
    """Write the static copy into ``folder`` (checked by ``check_folder`` first); return the names written.
    Raises Refused before anything is written, OSError (the name written) when a write fails."""
    earlier = check_folder(folder)
    files = plan(table_path, solo_tables)
    tables = sorted(name for name in files if name.endswith(".msgpack"))
    listing = {**games_list(solving=False), "tables": tables}
    games = json.dumps(listing, indent=1).encode() + b"\n"
    size = len(games) + sum(os.path.getsize(path) for path in files.values())
    if size >= LARGE:
        out.write("%s: writing %s (%d files, %d tables) to %s\n" % (PROG, _megabytes(size), len(files) + 1,
                                                                     len(tables), one_line(folder)))
        out.flush()
    _write(folder, GAMES, lambda handle: handle.write(games))
    worker = render(static_files())  # its version and files written in, as serve answers it
    for name, source in files.items():
        if name == WORKER:
            _write(folder, name, lambda handle: handle.write(worker))
        else:
            _write(folder, name, lambda handle, source=source: _copy(source, handle))
    for name in set(earlier) - set(tables):  # a table the earlier export had and this one has not
        if TABLE_FILE.match("/" + name):
            try:
                os.unlink(os.path.join(folder, name))
            except FileNotFoundError:
                pass
    for base, _, names in os.walk(folder):  # what a killed export left under temporary names
        for name in names:
            if _LEFT.match(name):
                os.unlink(os.path.join(base, name))
    return [GAMES, *files]


def _write(folder, name, fill):
    """``fill(handle)`` into a temporary file beside ``folder/name``, renamed to it once whole."""
    target = os.path.join(folder, *name.split("/"))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    descriptor, temporary = _temporary(os.path.dirname(target), os.path.basename(target))
    try:
        with os.fdopen(descriptor, "wb") as handle:
            fill(handle)
        os.chmod(temporary, 0o644)  # mkstemp makes 0600: a web host must be able to read it
        os.replace(temporary, target)
    except BaseException as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(error, OSError) and not error.filename:
            error.filename = target
        raise


def _copy(source, handle):
    import shutil

    with open(source, "rb") as read:
        shutil.copyfileobj(read, handle, 1 << 20)


def _temporary(folder, base):
    import tempfile

    return tempfile.mkstemp(prefix="." + base + ".", suffix=PART, dir=folder)


def _missing_parents(folder) -> list:
    """The folders ``os.makedirs(folder)`` would make, deepest first."""
    made, path = [], os.path.abspath(folder)
    while path and not os.path.exists(path):
        made.append(path)
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    return made


def _why(error) -> str:
    return one_line(error.strerror or errno.errorcode.get(error.errno, "") or error)


def _megabytes(size) -> str:
    return "%.1f MB" % (size / 1e6)


def main(folder, table_path, solo_tables) -> int:
    """``serve --export DIR`` after the options are read and the tables found: the exit status."""
    try:
        written = export(folder, table_path, solo_tables)
    except Refused as error:
        sys.stderr.write("%s: %s\n" % (PROG, one_line(error)))
        return 2
    except OSError as error:
        where = " %s" % one_line(error.filename) if error.filename else ""
        sys.stderr.write("%s: --export stopped: cannot write%s (%s); nothing half written is left under a "
                         "final name, run it again\n" % (PROG, where, _why(error)))
        return 1
    tables = sum(name.endswith(".msgpack") for name in written)
    try:
        # The host should answer HTTP ranges: then a page reads a table a block at a time, as under ``serve``;
        # ``python3 -m http.server`` does not, and every table is then read whole.
        print("%s: wrote %d files (%d tables) to %s; put the folder on a static web host that answers HTTP "
              "ranges (nginx, Caddy, Apache httpd, python3 -m RangeHTTPServer; not python3 -m http.server, which "
              "sends each table whole), solving is unavailable there" % (PROG, len(written), tables, one_line(folder)), flush=True)
    except BrokenPipeError:  # the reader went away (``| head -0``): the copy is written, not an error
        from ..engine.command import _silence_stdout

        _silence_stdout()
    return 0
