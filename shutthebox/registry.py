"""The one list of games. The command, build_tables.py, the cache, the web server
and the tests find every game through it; adding a game is a folder and a line here.

Each name maps to a package in ``shutthebox/games/`` whose ``DECLARATION``
(``engine.game.Game``) says the rest: its grammar, its tables, its page
(docs/ARCHITECTURE.md). Nothing is imported until a game is used.
"""

import sys

GAMES = {
    "shutthebox": "shutthebox.games.shutthebox",  # two players (the assignment), 2-8 players, variants, one player
    "toggle": "shutthebox.games.toggle",  # Project Euler 640: turn every card face down
    "goat": "shutthebox.games.goat",  # the dice homework: fixed strategies, optimal solo and two-player play
    "yazy": "shutthebox.games.yazy",  # a Yahtzee variant: 11 turns, the maximum expected score
    "yahtzee": "shutthebox.games.yahtzee",  # full Yahtzee: 13 turns, bonuses and jokers, the maximum expected score
    "pig": "shutthebox.games.pig",  # Pig, Piglet, Two-Dice Pig, Big Pig: two players, each playing to win
    "threes": "shutthebox.games.threes",  # five dice set aside one roll at a time, a 3 counts 0: the lowest total
}
# The game of a command line that names none: ``ShutTheBox --one --expect 123456789``.
DEFAULT = "shutthebox"
# Games named first on the command line: ``ShutTheBox toggle --expect all``.
NAMED_FIRST = tuple(name for name in GAMES if name != DEFAULT)


def declaration(name: str):
    """The game's ``engine.game.Game``: its package is imported (light: it imports only the engine's
    declaration classes)."""
    package = GAMES[name]
    # Always __import__, never a look in sys.modules first: a module is there while another thread still
    # runs it, and only the import waits for it to finish (the server answers on 16 threads). Not importlib:
    # importing that package would cost a question a millisecond.
    __import__(package)
    return sys.modules[package].DECLARATION


def declarations() -> list:
    """Every game's declaration, in the registry's order."""
    return [declaration(name) for name in GAMES]


def grammar(name: str):
    """The game's query grammar module, imported now."""
    return declaration(name).grammar_module()
