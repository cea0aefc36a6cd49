"""Five six-sided dice (query time): their sorted rolls, the numbering yazy and Yahtzee share.

Kept apart from ``dicekeep.py`` (the keep tree, needed only inside a turn) so that a question at the
start of a turn imports no more than the numbering.
"""

from itertools import combinations_with_replacement

DICE, SIDES = 5, 6
# The 252 sorted rolls in lexicographic order (11111, 11112, ..., 66666).
ROLLS = tuple(combinations_with_replacement(range(1, SIDES + 1), DICE))
