"""yazy, a Yahtzee variant of 11 turns with no bonuses: the maximum expected score and the best keep or category.

Query time: ``rules``, ``table``, ``grammar``, ``turn`` (the target mode's turn). ``model``: the game model
(``engine/model.py``; the learning surfaces', never a question's). Build and
analysis time: ``solver``, ``build``, ``analysis``, ``target`` (the target mode's table family: its ``rules`` and
``table`` are query time, its ``build`` build time), ``duel`` (two players' table family: the same split),
``distribution`` (the final total's law).
"""

from ...engine.game import Game, Tables

# A name slot's categories: names of the game (rules.CATEGORIES, not imported: reading a declaration costs a
# question nothing) joined by dots.
_NAME = "(?:ones|twos|threes|fours|fives|sixes|three-kind|four-kind|full-house|straight|yazy)"
_CATEGORIES = r"%s(?:\.%s)*" % (_NAME, _NAME)

DECLARATION = Game(
    "yazy",
    title="Yazy",
    about=("Eleven turns of five dice, two rerolls each, then score one open category. No bonuses. The "
           "table maximises the expected total."),
    package=__name__,
    page="games/yazy.js",
    model=True,  # model.py: the game model (engine/model.py), as python_shutthebox_yazy in OpenSpiel
    # The full game's tables keep their names; a game of some categories (--categories) has them in its
    # names, joined by dots: yazy-ones.yazy.msgpack. Its tables are solved on first use; the full game's
    # expected-score table is shipped (load() never solves it).
    tables=[Tables("yazy-{categories}", headers=("yazy",), fields={"categories": _CATEGORIES},
                   aliases={"yazy.msgpack": {"categories": "all"}}),
            # The target mode (--target X): the highest chance to reach X points, solved on first use.
            Tables("yazy-target-{categories}", headers=("yazy-target",), package=".target",
                   fields={"categories": _CATEGORIES}, aliases={"yazy-target.msgpack": {"categories": "all"}}),
            # Two players (--players 2): the mover's highest chance to win, solved on first use.
            Tables("yazy-duel-{categories}", headers=("yazy-duel",), package=".duel",
                   fields={"categories": _CATEGORIES}, aliases={"yazy-duel.msgpack": {"categories": "all"}})],
)
