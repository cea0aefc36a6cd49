"""The one list of games. The command, build_tables.py, the cache, the web server
and the tests find every game through it; adding a game is a folder and a line here.

Each name maps to a package in ``shutthebox/games/`` (docs/ARCHITECTURE.md): its
``grammar`` answers questions on the command line, its ``build`` makes its tables.
Nothing is imported until a game is used.
"""

import sys

GAMES = {
    "shutthebox": "shutthebox.games.shutthebox",  # two players (the assignment), 2-8 players, variants
    "solo": "shutthebox.games.solo",  # one player: asked through shutthebox's --solo questions
    "toggle": "shutthebox.games.toggle",  # Project Euler 640: turn every card face down
    "goat": "shutthebox.games.goat",  # the dice homework: fixed strategies, optimal solo and two-player play
    "yazy": "shutthebox.games.yazy",  # a Yahtzee variant: 11 turns, the maximum expected score
}
# The game of a command line that names none: ``ShutTheBox --one --expect 123456789``.
DEFAULT = "shutthebox"
# Games asked through another's grammar rather than by name.
ASKED_VIA = {"solo": "shutthebox"}
# Games named first on the command line: ``ShutTheBox toggle --expect all``.
NAMED = tuple(name for name in GAMES if name != DEFAULT and name not in ASKED_VIA)


def module(name: str, part: str):
    """``module("toggle", "grammar")``: the game's module, imported now."""
    dotted = "%s.%s" % (GAMES[name], part)
    __import__(dotted)  # not importlib: importing that package costs a question a millisecond
    return sys.modules[dotted]


def has(name: str, part: str) -> bool:
    """Whether the game has the module ``part`` (without importing it)."""
    from importlib.util import find_spec

    return find_spec("%s.%s" % (GAMES[name], part)) is not None
