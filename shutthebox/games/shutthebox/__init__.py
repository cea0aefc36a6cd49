"""Shut the Box: two players (the assignment), 2-8 players, rule variants, and one player (``solo``).

Query time: ``rules``, ``table``, ``grammar``, ``solo.table``, ``solo.grammar``.
Build and analysis time: ``solver``, ``build``, ``solo.solver``, ``solo.build``,
``solo.strategies``, ``solo.simulate``, ``solo.report``.
"""

from ...engine.game import Game, Tables

_PACKAGE = "shutthebox.games.shutthebox"

DECLARATION = Game(
    "shutthebox",
    title="Shut the Box",
    about="Close the tiles whose sum the dice show; the lower score wins, shutting the box wins at once",
    grammar=_PACKAGE + ".grammar",
    page="index.html",
    tables=[
        # Two or more players, any rule set: t12-2d6-opt6-high-max2-p3.msgpack (rules key, players).
        Tables("t{tiles}-{dice}d{sides}{one}{most}-p{players}", headers=("two-player", "multi-player"),
               fields={"one": r"(?:-(?:one|opt)(?:\d+|high)(?:-high)?)?", "most": r"(?:-max\d+)?"},
               aliases={"standard.msgpack": {"tiles": "9", "dice": "2", "sides": "6", "one": "-one6", "most": "",
                                             "players": "2"}},
               fields_of=_PACKAGE + ".rules:fields_of", rules_of=_PACKAGE + ".rules:rules_of",
               open=_PACKAGE + ".table:open_rules", solve=_PACKAGE + ".build:solve_game",
               estimate=_PACKAGE + ".rules:estimate",
               shipped=_PACKAGE + ".build:SHIPPED"),
        # One player, any rule set: solo-t10-2d6-one6.msgpack (the rules key); the three named rule sets
        # (solo/table.py VARIANTS) are shipped under their names, solo-two-dice.msgpack.
        Tables("solo-t{tiles}-{dice}d{sides}{one}{most}", headers=("one-player",),
               fields={"one": r"(?:-(?:one|opt)(?:\d+|high)(?:-high)?)?", "most": r"(?:-max\d+)?"},
               aliases={"solo-standard.msgpack": {"tiles": "9", "dice": "2", "sides": "6", "one": "-one6", "most": ""},
                        "solo-two-dice.msgpack": {"tiles": "9", "dice": "2", "sides": "6", "one": "", "most": ""},
                        "solo-two-tiles.msgpack": {"tiles": "9", "dice": "2", "sides": "6", "one": "-one6",
                                                   "most": "-max2"}},
               fields_of=_PACKAGE + ".solo.table:fields_of", rules_of=_PACKAGE + ".solo.table:rules_of_fields",
               open=_PACKAGE + ".solo.table:open_rules", solve=_PACKAGE + ".solo.build:solve_rules",
               estimate=_PACKAGE + ".solo.table:estimate",
               shipped=_PACKAGE + ".solo.build:SHIPPED"),
    ],
)
