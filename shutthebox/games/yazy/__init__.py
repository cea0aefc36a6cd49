"""yazy, a Yahtzee variant of 11 turns with no bonuses: the maximum expected score and the best keep or category.

Query time: ``rules``, ``table``, ``grammar``, ``turn`` (the target mode's turn). Build and
analysis time: ``solver``, ``build``, ``analysis``, ``target`` (the target mode's table),
``distribution`` (the final total's law).
"""

from ...engine.game import Game, Tables

DECLARATION = Game(
    "yazy",
    title="Yazy",
    about=("Eleven turns of five dice, two rerolls each, then score one open category. No bonuses. The "
           "table maximises the expected total."),
    grammar="shutthebox.games.yazy.grammar",
    page="games/yazy.js",
    tables=[Tables("yazy", headers=("yazy",),
                   fields_of="shutthebox.games.yazy.rules:fields_of",
                   rules_of="shutthebox.games.yazy.rules:rules_of",
                   open="shutthebox.games.yazy.table:open_rules",
                   solve="shutthebox.games.yazy.build:solve_table", first_use=False,
                   shipped="shutthebox.games.yazy.build:SHIPPED"),
            # The target mode (--target X): the highest chance to reach X points, solved on first use.
            Tables("yazy-target", headers=("yazy-target",),
                   fields_of="shutthebox.games.yazy.rules:fields_of",
                   rules_of="shutthebox.games.yazy.rules:rules_of",
                   open="shutthebox.games.yazy.table:open_target_rules",
                   solve="shutthebox.games.yazy.target:solve_table",
                   estimate="shutthebox.games.yazy.target:estimate")],
)
