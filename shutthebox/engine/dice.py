"""Five six-sided dice (query time): their sorted rolls, the numbering yazy and Yahtzee share.

Kept apart from ``dicekeep.py`` (the keep tree, needed only inside a turn) so that a question at the
start of a turn imports no more than the numbering.
"""

DICE, SIDES = 5, 6
# The 252 sorted rolls in lexicographic order (11111, 11112, ..., 66666): itertools'
# combinations_with_replacement(range(1, 7), 5), written out so that a question imports no itertools.
ROLLS = tuple((a, b, c, d, e) for a in range(1, SIDES + 1) for b in range(a, SIDES + 1) for c in range(b, SIDES + 1)
              for d in range(c, SIDES + 1) for e in range(d, SIDES + 1))
