"""Exact optimal play for Shut the Box, answered from precomputed tables.

>>> import shutthebox
>>> shutthebox.load().move_one("146789", 9)
(9,)
"""

from .errors import InvalidQuery, InvalidRules, ShutTheBoxError, TableError

__version__ = "0.1.0"
__all__ = ["load", "load_solo", "InvalidQuery", "InvalidRules", "ShutTheBoxError", "TableError", "__version__"]


def load(path=None, **game):
    """Load and verify a table (see :func:`shutthebox.api.load`): the standard
    two-player one, or ``load(rules=Rules(tiles=12), players=3)``."""
    from .api import load as _load  # the reader is imported only when asked for

    return _load(path, **game)


def load_solo(variant="standard", path=None):
    """Load and verify a single-player table (see :func:`shutthebox.solo_table.load_solo`).

    ``variant`` is ``"standard"``, ``"two-dice"`` or ``"two-tiles"``.
    """
    from .solo_table import load_solo as _load_solo

    return _load_solo(variant, path)
