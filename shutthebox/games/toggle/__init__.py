"""The card-flip game of Project Euler 640: the fewest expected rolls to turn every card face down.

Query time: ``rules``, ``table``, ``grammar``. ``model``: the game model (``engine/model.py``; the
learning surfaces', never a question's). Build and analysis time: ``solver``,
``build``, ``analysis``.
"""

from ...engine.game import Game, Tables

DECLARATION = Game(
    "toggle",
    title="Toggle",
    about=("Cards 1 to N start face up. Dice showing x and y let you turn card x, card y or card x+y; "
           "the game ends when every card is face down. The table minimises the expected number of "
           "rolls (Project Euler 640)."),
    package=__name__,
    page="games/toggle.js",
    model=True,  # model.py: the game model (engine/model.py), Toggle-v0 and python_shutthebox_toggle
    tables=[Tables("toggle-c{cards}-s{sides}", headers=("toggle",))],
)
