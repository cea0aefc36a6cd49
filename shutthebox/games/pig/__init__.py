"""The Pig family: Pig, Piglet, Two-Dice Pig and Big Pig; two players, each playing to win (docs/PIG.md).

Query time: ``rules``, ``table``, ``grammar``. Build and analysis time: ``solver``, ``build``,
``strategies``, ``analysis``.
"""

from ...engine.game import Game, Tables

DECLARATION = Game(
    "pig",
    title="Pig",
    about=("Roll to build a turn total, or hold to bank it; a 1 loses the turn's points. First to the goal wins. "
           "The table gives the mover's chance to win with both playing to win, and the best choice."),
    package=__name__,
    model=True,  # model.py: the game model (engine/model.py): pig_v0 and python_shutthebox_pig
    page="games/pig.js",
    tables=[Tables("pig-{variant}-g{goal}-s{sides}", headers=("pig",),
                   fields={"variant": "pig|piglet|two-dice|big-pig"})],
)
