"""The dice-keeping turn of the five-dice games over numpy arrays (build and analysis time).

The same turn as ``engine/dicekeep.py`` (its docstring: the keeps, their levels and order, the
equations), for many columns at once: the keep tree as index arrays (``Tree``), the means over every
keep (``keep_means``, in the arithmetic a game gives: float64, double-double, integer units), each
roll's best proper sub-keep (``best_proper``), a whole turn from the values of scoring each roll
(``turn_start``), and the chance of each roll after rolling the dice not kept (``keep_chances``).

Elementwise operations in a fixed order only (no reduction whose order numpy picks), so the bytes of
a table do not depend on the machine.
"""

import numpy as np

from .dicekeep import DICE, ROLLS, SIDES, levels, sub_keeps


class Tree:
    """The keep tree as index arrays.

    ``levels[k]``: the keeps of k dice, sorted (level 5: ``ROLLS``). Keeps are numbered by size, then in
    their level (``starts[k]``: the number of the first keep of k dice; ``count``: 462 keeps).
    ``children[k]`` (k = 0..4): (n_k, 6) the positions in level k + 1 of each keep plus face 1..6.
    ``parents[k]`` (k = 1..5): (n_k, k) the positions in level k - 1 of each keep without its i-th
    smallest die (repeated where dice repeat). ``subs[r]``: the proper sub-keeps of roll r in the tie
    rule's order (``dicekeep.sub_keeps``); ``proper`` (252, 31): their numbers, padded with ``count``.
    """

    def __init__(self):
        self.levels = levels()
        where = [{keep: number for number, keep in enumerate(level)} for level in self.levels]
        self.starts = [sum(len(level) for level in self.levels[:k]) for k in range(DICE + 1)]
        self.count = self.starts[DICE] + len(ROLLS)
        self.children = [np.array([[where[k + 1][tuple(sorted(keep + (face,)))] for face in range(1, SIDES + 1)]
                                   for keep in self.levels[k]]) for k in range(DICE)]
        self.parents = [None] + [np.array([[where[k - 1][keep[:i] + keep[i + 1:]] for i in range(k)]
                                           for keep in self.levels[k]]) for k in range(1, DICE + 1)]
        self.subs = [sub_keeps(roll) for roll in ROLLS]
        width = (1 << DICE) - 1
        self.proper = np.full((len(ROLLS), width), self.count)
        for r, subs in enumerate(self.subs):
            self.proper[r, :len(subs)] = [self.starts[len(keep)] + where[len(keep)][keep] for keep in subs]


def float_mean(parts):
    """The mean of six float64 arrays, added in their order, then divided by 6."""
    total = next(parts)
    for part in parts:
        total += part
    total /= SIDES
    return total


def keep_means(tree: Tree, values, mean=float_mean, axis: int = 0) -> list:
    """[E_0, ..., E_4, values]: from ``values``, the values of the 252 rolls along ``axis``, E over the
    keeps of each level along the same axis: each keep's ``mean`` of its six children, which ``mean`` is
    given face by face (an iterator of six arrays, new ones it may change)."""
    out = [None] * DICE + [values]
    for k in range(DICE - 1, -1, -1):
        above, child = out[k + 1], tree.children[k]
        out[k] = mean(np.take(above, child[:, face], axis=axis) for face in range(SIDES))
    return out


def best_proper(tree: Tree, means):
    """For each roll (axis 0), the best of ``means`` (``keep_means``' levels, keeps along axis 0) over its
    proper sub-keeps: ``B(K) = max(E(K), B(K less one of its dice))``, smallest keeps first."""
    best = means[0]
    for k in range(1, DICE + 1):
        parents = tree.parents[k]
        found = best[parents[:, 0]]
        for i in range(1, k):
            np.maximum(found, best[parents[:, i]], out=found)
        if k == DICE:
            return found
        best = np.maximum(means[k], found, out=found)


def turn_start(tree: Tree, v0, mean=float_mean, rerolls: int = 2):
    """The value at the start of a turn (before its first roll) with ``rerolls`` rerolls after it, from
    ``v0``, the value of scoring each roll now (the 252 rolls along axis 0, any columns):
    ``V_R = max(V0, best_proper(E_R))``, ``E_R = keep_means(V_(R-1))``, the start E of keeping nothing."""
    v = v0
    for _ in range(rerolls):
        v = np.maximum(v0, best_proper(tree, keep_means(tree, v, mean)))
    return keep_means(tree, v, mean)[0][0]


def keep_chances() -> dict:
    """{kept dice (a sorted tuple): the chance of each of the 252 rolls after rolling the others}, counted
    over the ordered outcomes of the rolled dice."""
    index = {roll: number for number, roll in enumerate(ROLLS)}
    out = {}
    for kept in (keep for level in levels() for keep in level):
        row = np.zeros(len(ROLLS))
        rolled = DICE - len(kept)
        for number in range(SIDES**rolled):
            dice = list(kept)
            for _ in range(rolled):
                number, face = divmod(number, SIDES)
                dice.append(face + 1)
            row[index[tuple(sorted(dice))]] += 1
        out[kept] = row / SIDES**rolled
    return out
