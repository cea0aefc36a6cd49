"""yazy, a Yahtzee variant of 11 turns with no bonuses: the maximum expected score and the best keep or category.

Query time: ``rules``, ``table``, ``grammar``, ``turn`` (the target mode's turn). Build and
analysis time: ``solver``, ``build``, ``analysis``, ``target`` (the target mode's table family: its ``rules`` and
``table`` are query time, its ``build`` build time),
``distribution`` (the final total's law).
"""

from ...engine.game import Game, Tables

DECLARATION = Game(
    "yazy",
    title="Yazy",
    about=("Eleven turns of five dice, two rerolls each, then score one open category. No bonuses. The "
           "table maximises the expected total."),
    package=__name__,
    page="games/yazy.js",
    tables=[Tables("yazy", headers=("yazy",), first_use=False),
            # The target mode (--target X): the highest chance to reach X points, solved on first use.
            Tables("yazy-target", headers=("yazy-target",), package=".target")],
)
