"""yazy, a Yahtzee variant of 11 turns with no bonuses: the maximum expected score and the best keep or category.

Query time: ``rules``, ``table``, ``grammar``. Build and analysis time: ``solver``,
``build``, ``analysis``.
"""
