"""Goat: up to six dice a roll, three rolls a turn, a match loses the turn's points; first to the goal.

Query time: ``rules``, ``table``, ``grammar``. Build and analysis time: ``dice``,
``chains``, ``solver``, ``optimal``, ``build``, ``analysis`` (docs/GOAT.md).
"""

from ...engine.game import Game, Tables

DECLARATION = Game(
    "goat",
    title="Goat",
    about=("Before each roll put 1 to 6 dice in the cup: if two dice match the turn scores nothing, "
           "else their sum adds to the turn total; roll again or stop and bank it, at most 3 rolls a "
           "turn. First to the goal."),
    package=__name__,
    model=True,  # model.py: the two-player game model (engine/model.py): goat_v0 and python_shutthebox_goat
    page="games/goat.js",
    # goat-g100.msgpack; the dice chosen once a turn (--choose once): goat-g100-once.msgpack
    tables=[Tables("goat-g{goal}{choose}", headers=("goat",), fields={"choose": "(?:-once)?"})],
)
