"""Full Yahtzee: 13 turns with the upper bonus, the Yahtzee bonus and jokers; the maximum expected score,
every keep and box valued, and a review of a played game.

Query time: ``rules``, ``turn``, ``table``, ``grammar``. ``model``: the game model (``engine/model.py``; the
learning surfaces', never a question's). Build and analysis time: ``solver``, ``build``, ``analysis``
(docs/YAHTZEE.md).
"""

from ...engine.game import Game, Tables

DECLARATION = Game(
    "yahtzee",
    title="Yahtzee",
    about=("Thirteen turns of five dice, two rerolls each, then score one open box, with the upper bonus, "
           "the Yahtzee bonus and jokers as in the official rules. The table maximises the expected total."),
    package=__name__,
    page="games/yahtzee.js",
    model=True,  # model.py: the game model (engine/model.py), as python_shutthebox_yahtzee in OpenSpiel
    tables=[Tables("yahtzee-{joker}", headers=("yahtzee",), fields={"joker": "[a-z]+(?:-[a-z]+)?"}),
            Tables("yahtzee-target.{joker}", headers=("yahtzee-target",), package=".target",
                   fields={"joker": "[a-z]+(?:-[a-z]+)?"}),
            # the game from one card (target/reduced/): 4hlc-u51-y50 is fours,full-house,large-straight,chance open,
            # 51 in the upper section, 50 in the yahtzee box
            Tables("yahtzee-target.{joker}.{card}-u{upper}-y{box}", headers=("yahtzee-target",),
                   package=".target.reduced",
                   fields={"joker": "[a-z]+(?:-[a-z]+)?", "card": "[1-6tfhslyc]+|none", "box": "open|0|50"})],
)
