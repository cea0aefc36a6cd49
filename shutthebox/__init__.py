"""Exact optimal play for Shut the Box and other dice games, answered from precomputed tables.

>>> import shutthebox
>>> shutthebox.load().move_one("146789", 9)
(9,)

Importing the package imports nothing else: the readers are imported when asked for.
"""

from .errors import InvalidQuery, InvalidRules, ShutTheBoxError, TableError

__version__ = "0.2.0"
__all__ = ["load", "load_solo", "InvalidQuery", "InvalidRules", "ShutTheBoxError", "TableError", "__version__"]


def load(path=None, *, rules=None, players=2, build=True, progress=None):
    """Load and verify a Shut the Box table: the standard two-player one, or
    ``load(rules=Rules(tiles=12), players=3)`` (see :func:`shutthebox.games.shutthebox.table.load`)."""
    from .games.shutthebox.table import load as _load  # the reader is imported only when asked for

    return _load(path, rules=rules, players=players, build=build, progress=progress)


def load_solo(variant=None, path=None, *, rules=None, build=True, progress=None):
    """Load and verify a single-player table (see :func:`shutthebox.games.shutthebox.solo.table.load_solo`).

    ``variant`` is ``"standard"`` (the default), ``"two-dice"`` or ``"two-tiles"``; ``rules`` any rule set
    (``load_solo(rules=Rules(tiles=10))``), solved on first use and cached; both given must agree. With
    ``path`` and neither, the file's own rules.
    """
    from .games.shutthebox.solo.table import load_solo as _load_solo

    return _load_solo(variant, path, rules=rules, build=build, progress=progress)
