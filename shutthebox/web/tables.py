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
LOCKS = 16  # locks shared by the names looked up (Routes.path)


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


def games_list(folder=WEB, solving=True) -> dict:
    """``/games.json``: the registry's games in its order, from each game's declaration: ``id``, ``title``,
    ``about`` and ``page`` (``games.html?game=NAME`` for a module of the games page, a page of its own
    by its URL, None for the command line only); for a module of the games page, ``module``, its path
    under ``static/`` (``games/NAME.js``, or a family's module such as ``families/setaside.js``); for a game
    declared on a family whose hooks give ``page_data()``, ``family``: what the family's module reads (its
    rules); and ``solving``: whether this server solves tables on first use (False in a static copy,
    ``export``, which adds the list of its ``tables``)."""
    from .. import registry

    games = []
    for game in registry.declarations():
        page, entry = game.page, {}
        if page is not None and page.endswith(".js"):
            page, entry["module"] = "games.html?game=" + game.id, page
            data = getattr(game.hooks, "page_data", None)
            if data is not None:
                entry["family"] = data()
        games.append({"id": game.id, "title": game.title, "about": game.about, "page": page, **entry})
    return {"games": games, "solving": solving}


def flagship(family: int = 0):
    """The table module of a family of the flagship's tables (``index.html``'s game), through the registry:
    0 its two-player tables, 1 its one-player tables."""
    from .. import registry

    return registry.declaration(registry.DEFAULT).tables[family].table()


def find_table_path(option):
    """The two-player table to serve: --table, else $SHUTTHEBOX_TABLE, else the shipped one."""
    from ..engine.store import shipped
    from ..errors import TableError

    STANDARD_TABLE, TABLE_ENV = flagship().STANDARD_TABLE, flagship().TABLE_ENV

    path = option or os.environ.get(TABLE_ENV) or shipped(STANDARD_TABLE)
    if path is None:
        raise TableError("no table file %s found; build it with `make tables`, or set %s" % (STANDARD_TABLE, TABLE_ENV))
    return path


def check_two_player(table_path):
    """Raise TableError unless the file's verified header is a two-player table: --table names a
    table, never any file. Damage past the header is only warned about (warn_if_damaged)."""
    from ..engine.reader import read_table

    read_table(table_path, expect={"game": "two-player"}, describe=flagship().describe_fields,
               fix="give a two-player table file").close()


def warn_if_damaged(table_path):
    """Serve a table the Python reader refuses all the same (the page says why), but say so here too."""
    from ..errors import TableError

    try:
        table = flagship().load(table_path)
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

    solo_tables = flagship(1)
    routes = {}
    for variant in solo_tables.VARIANTS:
        url = "/" + solo_tables.table_name(variant)
        routes[url] = None
        try:
            solo = solo_tables.load_solo(variant, build=False)  # never solved at start: only when the page asks
            routes[url] = solo.path
            check_every_byte(solo.file)
        except ShutTheBoxError as error:
            if warn:
                sys.stderr.write("%s: warning: %s\n" % (PROG, error))
    return routes


def check_every_byte(tablefile):
    """Raise TableError unless every byte of the table is sound, as the page checks before it answers:
    the whole-file CRC-32 (read a megabyte at a time), then each array's checksums (the reader verified
    the header at open)."""
    import zlib

    from ..engine.format import CRC_TAIL
    from ..engine.reader import damaged

    ends = 4 + len(CRC_TAIL)  # every file ends with CRC_TAIL and the CRC-32 of all the bytes before its last 4
    try:
        with open(tablefile.path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            marker = os.pread(handle.fileno(), len(CRC_TAIL), size - ends) if size >= ends else b""
            crc, left = 0, size - 4
            while left > 0 and marker == CRC_TAIL:
                chunk = handle.read(min(1 << 20, left))
                if not chunk:
                    break
                crc, left = zlib.crc32(chunk, crc), left - len(chunk)
            stored = handle.read(4)
    except OSError as error:
        raise damaged(tablefile.path, "cannot be read (%s)" % (error.strerror or error), tablefile.fix) from None
    if marker != CRC_TAIL or left > 0 or len(stored) != 4:
        raise damaged(tablefile.path, "is truncated (no checksum at its end)", tablefile.fix)
    if crc != int.from_bytes(stored, "big"):
        raise damaged(tablefile.path, "is damaged (checksum mismatch)", tablefile.fix)
    for name in tablefile.arrays:
        tablefile.whole(name)


class Routes:
    """URL -> file path: the page's files and the tables found at start, then any other table of a
    registry game, looked up through ``engine.store`` when first asked for (a table solved on first
    use by the command line while the server runs is served too).

    Every byte of such a table is verified before it is served, again whenever its file changes (size,
    modification time, inode): a shipped table that is damaged is served all the same with a warning
    (the page says why it refuses it), a damaged table in the cache is not served at all (404, and
    ``damaged`` says why), so that the page has it solved again."""

    def __init__(self, files, table_path, solo_tables=None):
        self.files = dict(files)
        self.fixed = {TABLE_URL: table_path, **(solo_tables or {})}
        self._found: dict = {}  # url -> (path, signature): verified (or shipped and warned about)
        self._damaged: dict = {}  # url -> (path, signature, message): a damaged table of the cache
        # A fixed set of locks, a URL's chosen by its hash: nothing is kept per name asked (any client may ask
        # for any number of names that exist nowhere), and two requests for one table still look it up once.
        self._locks = tuple(threading.Lock() for _ in range(LOCKS))
        self._games = None

    def is_table(self, url) -> bool:
        return url in self.fixed or TABLE_FILE.match(url) is not None

    def path(self, url):
        """The file to send for ``url``, or None."""
        if url in self.files:
            return self.files[url]
        if url in self.fixed:
            return self.fixed[url]
        if not TABLE_FILE.match(url):
            return None
        found = self._found.get(url)
        if found is not None and _signature(found[0]) == found[1]:
            return found[0]
        # one lookup (and one check of every byte) per table version, not one per request
        with self._locks[hash(url) % LOCKS]:
            found = self._found.get(url)
            if found is not None and _signature(found[0]) == found[1]:
                return found[0]
            self._found.pop(url, None)
            found = self._look_up(url, url[1:])
            if found is not None:
                self._found[url] = found
                return found[0]
        return None

    def damaged(self, url):
        """Why the cache's table ``url`` is not served (its bytes are damaged), or None."""
        known = self._damaged.get(url)
        if known is not None and _signature(known[0]) == known[1]:
            return known[2]
        return None

    def _look_up(self, url, name):
        from ..engine.store import open_table, shipped
        from ..errors import ShutTheBoxError

        try:
            tablefile = open_table(name, expect={})
        except ShutTheBoxError:
            return None  # not found, or not a table: the same 404 as any other unknown URL
        try:
            if tablefile.header.get("game") not in self.games():
                return None
            signature = _signature(tablefile.path)
            known = self._damaged.get(url)
            if known is not None and known[:2] == (tablefile.path, signature):
                return None  # damaged, and checked already
            try:
                check_every_byte(tablefile)
            except ShutTheBoxError as error:
                if shipped(name) != tablefile.path:  # the cache's: not served; the page has it solved again
                    self._damaged[url] = (tablefile.path, signature, str(error))
                    sys.stderr.write("%s: warning: %s (not served: it is solved again when the page asks)\n"
                                     % (PROG, error))
                    return None
                sys.stderr.write("%s: warning: %s\n" % (PROG, error))
            self._damaged.pop(url, None)
            return tablefile.path, signature
        finally:
            tablefile.close()

    def games(self) -> set:
        """The ``game`` header fields of the registry's games' tables, from their declarations."""
        if self._games is None:
            from .. import registry

            self._games = set().union(*(game.headers() for game in registry.declarations()))
        return self._games


def _signature(path):
    """What changes when a file is replaced or rewritten: size, modification time, inode; None when gone."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_size, info.st_mtime_ns, info.st_ino, info.st_dev
