"""Finding tables (query time): a given path, else the shipped ``data/``, else the user's cache.

A table not shipped is solved on first use, if the game gives a builder,
and written atomically into the cache; a damaged cached table is solved
again. The builder (build-time code) is imported by the game only when it is
called: this is the one crossing from the query path to the build path.
"""

import os
import sys

from ..errors import InvalidQuery, TableError
from .format import REBUILD
from .reader import TableFile, read_table
from .text import shown

CACHE_ENV = "SHUTTHEBOX_CACHE"
CACHE_FIX = "delete it: it is solved again on next use"
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Installed wheel first (data mapped into the package), then the checkout.
SEARCH_PATH = (os.path.join(_PACKAGE, "data"), os.path.join(os.path.dirname(_PACKAGE), "data"))


def cache_dir() -> str:
    """Where tables solved on first use are kept: $SHUTTHEBOX_CACHE, else the user's cache folder."""
    folder = os.environ.get(CACHE_ENV)
    if folder:
        return folder
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        home = os.environ.get("HOME") or ""
        if not os.path.isabs(home):
            why = "HOME is not set" if not home else "HOME is not an absolute path ('%s')" % shown(home)
            raise TableError("no cache folder for tables solved on first use: %s; set %s" % (why, CACHE_ENV))
        base = os.path.join(home, ".cache")
    return os.path.join(base, "shutthebox")


def shipped(name: str) -> str | None:
    """The path of a shipped table, or None."""
    for folder in SEARCH_PATH:
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return path
    return None


def open_table(name: str, *, expect: dict, describe=None, path: str | None = None, build=None,
               hint: str = "") -> TableFile:
    """The verified table file ``name`` for the question whose header fields are ``expect``.

    ``path`` (``--table``) wins; then the shipped table; then the cached one.
    ``build()`` returns the bytes of a missing table, or ``build.write(path)``
    writes it (None: the table must be shipped). ``hint`` is added to "not found" messages (another way to get it).
    """
    if path is not None:
        return read_table(path, expect=expect, describe=describe, fix="give a valid table file")
    found = shipped(name)
    if found is not None:
        return read_table(found, expect=expect, describe=describe, fix=REBUILD)
    folder = cache_dir() if build is not None or os.environ.get(CACHE_ENV) or os.environ.get("HOME") else None
    cached = os.path.join(folder, name) if folder else None
    if folder and cached and os.path.lexists(cached):
        _check_folder(folder)
        try:
            return read_table(cached, expect=expect, describe=describe, fix=CACHE_FIX)
        except TableError:
            if build is None:
                raise
            # damaged, or another game's bytes: solved again below
    if build is None:
        tried = " and ".join(os.path.join(where, name) for where in SEARCH_PATH + ((folder,) if folder else ()))
        raise TableError("no table file %s found (looked at %s); build it with `make tables`%s" % (name, tried, hint))
    assert cached is not None  # a table to build has the cache folder (cache_dir())
    return _build(cached, build, expect, describe)


def _build(cached: str, build, expect, describe) -> TableFile:
    # What would stop the solve, found before it starts: a cache folder the table cannot be written to, a
    # missing package of the solver (numpy); then, holding the table's lock (one process solves it, any other
    # asking for it waits, then reads what it wrote), its cost (refused when too large; said when long).
    try:
        check_cache_folder(os.path.dirname(cached))
    except TableError as error:  # named as every surface names a failed solve (the server's status too)
        raise TableError("cannot solve table %s: %s" % (os.path.basename(cached), error)) from None
    if hasattr(build, "prepare"):
        build.prepare()
    from .solvelock import lock, unlock  # build time: only now

    made = not os.path.isdir(os.path.dirname(cached))
    held = lock(cached)
    try:
        if os.path.lexists(cached):  # solved by another process while this one waited for the lock
            try:
                return read_table(cached, expect=expect, describe=describe, fix=CACHE_FIX)
            except TableError:
                pass
        return _solve(cached, build, expect, describe)
    finally:
        unlock(cached, held, made)


def _solve(cached: str, build, expect, describe) -> TableFile:
    estimate = build.estimate() if hasattr(build, "estimate") else None
    if estimate is not None:
        check_estimate(os.path.basename(cached), estimate, os.path.dirname(cached))
    from .writer import write_atomic  # build time: only now

    from .progress import ticking

    # Solve.write writes the table itself (a part at a time when its solver can); a plain builder gives bytes.
    write = getattr(build, "write", None) or (lambda path: write_atomic(path, build()))
    try:
        with ticking(os.path.basename(cached), estimate.seconds if estimate is not None else 0.0):
            _write(cached, write)
    except AssertionError as error:  # a solver's own check failed: no table is better than a wrong one
        raise TableError("cannot solve table %s: %s" % (os.path.basename(cached), error)) from None
    return read_table(cached, expect=expect, describe=describe, fix=CACHE_FIX)


def _write(cached: str, write) -> None:
    """``write(cached)``, into a cache folder made and checked first, never through a link."""
    folder = os.path.dirname(cached)
    try:
        os.makedirs(folder, mode=0o755, exist_ok=True)
        _check_folder(folder)
        if os.path.lexists(cached) and not os.path.isfile(cached) or os.path.islink(cached):
            os.unlink(cached)  # never write through a link or over a special file
        write(cached)
    except OSError as error:
        raise TableError("cannot write table %s (%s); set %s to a writable folder"
                         % (cached, error.strerror or error, CACHE_ENV)) from None


# A solve on first use whose peak memory would pass this, or that would take longer than LONG_SECONDS (the
# largest tables need little memory since they are built a part at a time, but take most of an hour), is
# refused unless the user allows it.
LARGE_ENV = "SHUTTHEBOX_ALLOW_LARGE"
MEMORY_LIMIT = 2 * 10**9
LONG_SECONDS = 600
ALLOW_LARGE = False  # set by the command's --allow-large
# A solve estimated longer than this says what it will cost before it starts (estimates: engine/game.py).
SAY_AFTER = 1.0


def check_estimate(name: str, estimate, folder: str) -> None:
    """Refuse a solve that would pass ``MEMORY_LIMIT`` or ``LONG_SECONDS`` (unless ``$SHUTTHEBOX_ALLOW_LARGE``
    is set, as ``--allow-large`` does) or not fit in the cache folder's free space; say the cost of a long one on
    standard error before it starts (Ctrl-C stops it; nothing is written until it is done)."""
    large = estimate.memory > MEMORY_LIMIT or estimate.seconds > LONG_SECONDS
    if large and not (ALLOW_LARGE or os.environ.get(LARGE_ENV)):
        raise InvalidQuery("solving %s would make %s; give --allow-large (or set %s=1) to solve it anyway"
                           % (name, estimate.words(), LARGE_ENV))
    import shutil

    probe = folder
    while probe and not os.path.isdir(probe):
        probe = os.path.dirname(probe)
    try:
        free = shutil.disk_usage(probe or ".").free
    except OSError:
        free = None
    needed = estimate.size + estimate.scratch
    if free is not None and free < needed * 1.2 + 10**6:
        working = " (the table and %.3g MB of working files while it solves)" % (estimate.scratch / 1e6) \
            if estimate.scratch else ""
        raise TableError("solving %s needs %.3g MB in %s%s, which has %.3g MB free; free some space or set %s"
                         % (name, needed / 1e6, folder, working, free / 1e6, CACHE_ENV))
    if estimate.seconds > SAY_AFTER and sys.stderr is not None:
        sys.stderr.write("ShutTheBox: solving %s: %s (Ctrl-C stops it)\n" % (name, estimate.words()))
        sys.stderr.flush()


def _check_folder(folder: str) -> None:
    """Refuse a cache folder of another user, or one other users could write to, as ssh refuses loose key
    files: whoever can write there can plant a table that answers wrongly."""
    try:
        info = os.stat(folder)
    except OSError:
        return
    getuid = getattr(os, "getuid", None)
    if getuid is None:
        return
    if info.st_uid != getuid():
        raise TableError("cache folder %s belongs to another user (uid %d), who could plant a table there; use a "
                         "folder of your own: set %s" % (folder, info.st_uid, CACHE_ENV))
    if info.st_mode & 0o022:
        raise TableError("cache folder %s can be written by other users; make it yours alone (chmod 700) "
                         "or set %s" % (folder, CACHE_ENV))


def check_cache_folder(folder: str) -> None:
    """Refuse, before a solve starts, a cache folder its table could not be written to (read-only, not a
    folder, or not to be made), or one that is not safe (:func:`_check_folder`): found after the solve, the
    work would be lost. Nothing is created here: the folder is made when the table is written."""
    fix = "make it writable or set %s to a writable folder" % CACHE_ENV
    if os.path.isdir(folder):
        _check_folder(folder)
        if not os.access(folder, os.W_OK | os.X_OK):
            raise TableError("cache folder %s is not writable, so a table solved now could not be kept; %s"
                             % (folder, fix))
        return
    if os.path.lexists(folder):
        raise TableError("cache folder %s is not a folder; %s" % (folder, fix))
    parent = os.path.dirname(os.path.abspath(folder))
    while not os.path.lexists(parent):  # the nearest existing folder above, where it would be made
        parent = os.path.dirname(parent)
    if not os.path.isdir(parent) or not os.access(parent, os.W_OK | os.X_OK):
        raise TableError("cache folder %s cannot be made (%s is %s); %s"
                         % (folder, parent, "not writable" if os.path.isdir(parent) else "not a folder", fix))


def describe(tablefile, game: str, rules: str) -> str:
    """What ``--rules`` prints: where a table lives, its size, and what it was solved for."""
    header = tablefile.header
    version = header.get("format") or ["?", "?"]
    return "\n".join([
        "table:     %s" % os.path.abspath(tablefile.path),
        "size:      %d bytes" % tablefile.size,
        "game:      %s" % game,
        "rules:     %s" % rules,
        "format:    %s.%s, made by %s" % (version[0], version[1], header.get("generator")),
    ])
