"""Exact optimal play for Shut the Box and other dice games, answered from precomputed tables.

>>> import shutthebox
>>> shutthebox.load().move_one("146789", 9)
(9,)

Importing the package imports nothing else: the readers are imported when asked for.
"""

from .errors import InvalidQuery, InvalidRules, ShutTheBoxError, TableError

__version__ = "0.2.0"
__all__ = ["open", "load", "load_solo", "InvalidQuery", "InvalidRules", "ShutTheBoxError", "TableError", "__version__"]


def open(game: str = "shutthebox", **rules):
    """The table of any registered game under any rule set its command takes, as the command opens it:
    ``open("goat", goal=50)``, ``open("toggle", cards=8, sides=4)``, ``open("shutthebox", tiles=12, players=3)``.

    Each rule is a game option of ``ShutTheBox GAME --help`` (``one_die="opt6"`` is ``--one-die opt6``), checked
    with the command's words (InvalidQuery); a table that is not shipped is solved on first use and cached,
    with the command's estimate and refusals. The table has the game's ``probe_*`` / ``get_*`` lookups and is
    a context manager:

    >>> with open("toggle") as table:
    ...     round(table.probe_expect("all"), 6)
    50.317928
    """
    from . import registry  # the reader is imported only when asked for
    from .engine.text import as_whole, shown, shown_value

    if not isinstance(game, str) or game not in registry.GAMES:
        raise InvalidQuery("no game %s: the games are %s" % (shown_value(game), ", ".join(registry.GAMES)))
    grammar = registry.grammar(game)
    options = {}
    for name, value in rules.items():
        flag = "--" + name.replace("_", "-")
        if flag not in grammar.GAME_OPTIONS:
            names = ", ".join(option[2:].replace("-", "_") for option in grammar.GAME_OPTIONS) or "none"
            raise InvalidQuery("%s has no rule %s (its rules: %s)" % (game, shown(name), names))
        number = None if type(value) is str else as_whole(value)  # a numpy integer too; an array is not one
        if type(value) is not str and number is None:
            raise InvalidQuery("%s must be a whole number or a word, not %s" % (name, shown_value(value)))
        if number is not None and not -10**12 < number < 10**12:  # str() of a 5,000-digit number raises
            raise InvalidQuery("%s is far out of range" % name)
        options[flag] = value if number is None else str(number)
    return grammar.open_game(options, None).table()


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
