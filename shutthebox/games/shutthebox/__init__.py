"""Shut the Box: two players (the assignment), 2-8 players, rule variants, and one player (``solo``).

Query time: ``rules``, ``table``, ``grammar``, ``solo.table``, ``solo.grammar``.
Build and analysis time: ``solver``, ``build``, ``solo.solver``, ``solo.build``,
``solo.strategies``, ``solo.simulate``, ``solo.report``.
"""

from ...engine.game import Game, Tables

_RULES_KEY = {"one": r"(?:-(?:one|opt)(?:\d+|high)(?:-high)?)?", "most": r"(?:-max\d+)?"}

DECLARATION = Game(
    "shutthebox",
    title="Shut the Box",
    about="Close the tiles whose sum the dice show; the lower score wins, shutting the box wins at once",
    package=__name__,
    model=True,  # model.py: the game model of 2 to 8 players (engine/model.py): shutthebox_v0, OpenSpiel's game
    page="index.html",
    tables=[
        # Two or more players, any rule set: t12-2d6-opt6-high-max2-p3.msgpack (rules key, players).
        Tables("t{tiles}-{dice}d{sides}{one}{most}-p{players}", headers=("two-player", "multi-player"),
               fields=_RULES_KEY,
               aliases={"standard.msgpack": {"tiles": "9", "dice": "2", "sides": "6", "one": "-one6", "most": "",
                                             "players": "2"}}),
        # One player, any rule set: solo-t10-2d6-one6.msgpack (the rules key); the three named rule sets
        # (solo/table.py VARIANTS) are shipped under their names, solo-two-dice.msgpack.
        Tables("solo-t{tiles}-{dice}d{sides}{one}{most}", headers=("one-player",), package=".solo",
               fields=_RULES_KEY,
               aliases={"solo-standard.msgpack": {"tiles": "9", "dice": "2", "sides": "6", "one": "-one6", "most": ""},
                        "solo-two-dice.msgpack": {"tiles": "9", "dice": "2", "sides": "6", "one": "", "most": ""},
                        "solo-two-tiles.msgpack": {"tiles": "9", "dice": "2", "sides": "6", "one": "-one6",
                                                   "most": "-max2"}}),
    ],
)
