"""What ``serve`` hands out: the page's files and the tables of the registry's games, nothing else.

A table is served at ``/NAME.msgpack`` only when ``engine.store`` finds a file
of that name where the Python API looks (the shipped ``data/`` folders, then
the cache of tables solved on first use) and its verified header is a table of
a game in ``shutthebox.registry``. ``/standard.msgpack`` is the two-player table
the command line would read (``--table``, ``$SHUTTHEBOX_TABLE``, the shipped
one), which must be a two-player table too. Query-time modules only.
"""

from __future__ import annotations

import os
import re
import sys
import threading

PROG = "ShutTheBox serve"
WEB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
TABLE_URL = "/standard.msgpack"
# A file name, never a path: no slash, no leading dot.
TABLE_FILE = re.compile(r"/([a-z0-9][a-z0-9.-]{0,99}\.msgpack)\Z")


def static_files(folder=WEB):
    """URL path -> file path for every file of the page."""
    files = {}
    for base, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            path = os.path.join(base, name)
            url = "/" + os.path.relpath(path, folder).replace(os.sep, "/")
            files[url] = path
    files["/"] = os.path.join(folder, "index.html")
    return files


def games_list(folder=WEB) -> dict:
    """``/games.json``: the registry's games in its order, from each game's declaration: ``id``, ``title``,
    ``about`` and ``page`` (``games.html?game=NAME`` for a module of the games page, a page of its own
    by its URL, None for the command line only)."""
    from .. import registry

    games = []
    for game in registry.declarations():
        page = game.page
        if page is not None and page.endswith(".js"):
            page = "games.html?game=" + game.id
        games.append({"id": game.id, "title": game.title, "about": game.about, "page": page})
    return {"games": games}


def find_table_path(option):
    """The two-player table to serve: --table, else $SHUTTHEBOX_TABLE, else the shipped one."""
    from ..engine.store import shipped
    from ..errors import TableError
    from ..games.shutthebox.table import STANDARD_TABLE, TABLE_ENV

    path = option or os.environ.get(TABLE_ENV) or shipped(STANDARD_TABLE)
    if path is None:
        raise TableError("no table file %s found; build it with `make tables`, or set %s" % (STANDARD_TABLE, TABLE_ENV))
    return path


def check_two_player(table_path):
    """Raise TableError unless the file's verified header is a two-player table: --table names a
    table, never any file. Damage past the header is only warned about (warn_if_damaged)."""
    from ..engine.reader import read_table
    from ..games.shutthebox.table import describe_fields

    read_table(table_path, expect={"game": "two-player"}, describe=describe_fields,
               fix="give a two-player table file").close()


def warn_if_damaged(table_path):
    """Serve a table the Python reader refuses all the same (the page says why), but say so here too."""
    from ..errors import TableError
    from ..games.shutthebox.table import load

    try:
        table = load(table_path)
        check_every_byte(table.file)
    except TableError as error:
        sys.stderr.write("%s: warning: %s\n" % (PROG, error))


def find_solo_tables(warn=True):
    """URL -> path of each single-player table, where ``load_solo`` finds it (None: missing).

    A missing or damaged one is a warning, not a failure: Solo mode with those
    rules then says what is wrong, the rest of the page works. A table whose
    header is sound but whose bytes are damaged is served all the same: the
    page refuses it and says why.
    """
    from ..errors import ShutTheBoxError
    from ..games.shutthebox.solo.table import VARIANTS, load_solo, table_name  # the flagship's own tables

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


class Routes:
    """URL -> file path: the page's files and the tables found at start, then any other table of a
    registry game, looked up through ``engine.store`` when first asked for (a table solved on first
    use by the command line while the server runs is served too)."""

    def __init__(self, files, table_path, solo_tables=None):
        self.files = dict(files)
        self.fixed = {TABLE_URL: table_path, **(solo_tables or {})}
        self._found: dict = {}
        self._lock = threading.Lock()
        self._games = None

    def is_table(self, url) -> bool:
        return url in self.fixed or TABLE_FILE.match(url) is not None

    def path(self, url):
        """The file to send for ``url``, or None."""
        if url in self.files:
            return self.files[url]
        if url in self.fixed:
            return self.fixed[url]
        found = self._found.get(url)
        if found is None and TABLE_FILE.match(url):
            with self._lock:  # one lookup (and one check of every byte) per table, not one per request
                found = self._found.get(url) or self._look_up(url[1:])
                if found:
                    self._found[url] = found
        return found

    def _look_up(self, name):
        from ..engine.store import open_table
        from ..errors import ShutTheBoxError

        try:
            tablefile = open_table(name, expect={})
        except ShutTheBoxError:
            return None  # not found, or not a table: the same 404 as any other unknown URL
        try:
            if tablefile.header.get("game") not in self.games():
                return None
            try:
                check_every_byte(tablefile)
            except ShutTheBoxError as error:
                sys.stderr.write("%s: warning: %s\n" % (PROG, error))
            return tablefile.path
        finally:
            tablefile.close()

    def games(self) -> set:
        """The ``game`` header fields of the registry's games' tables, from their declarations."""
        if self._games is None:
            from .. import registry

            self._games = set().union(*(game.headers() for game in registry.declarations()))
        return self._games
