"""Goat: up to six dice a roll, three rolls a turn, a match loses the turn's points; first to the goal.

Query time: ``rules``, ``table``, ``grammar``. Build and analysis time: ``dice``,
``chains``, ``solver``, ``build``, ``analysis`` (docs/GOAT.md).
"""
