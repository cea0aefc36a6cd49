"""One turn of a five-dice game in float64 numpy, from the values after each box (the fast path of
``Yahtzee-v0``): V0 of the 252 rolls, then the keep tree of means for one and two rerolls.

    E_R(K) = (E_R(K + 1) + ... + E_R(K + 6)) / 6 over the keeps of fewer than five dice, E_R(roll) = V(R-1)(roll)
    VR(r)  = max(V0(r), the best E_R of a proper sub-keep of r)

Each value is within about 1e-12 of the exact rational the game's own turn solver computes from the same
table values (a few roundings of numbers below 2000): ties (1e-9) and every printed sixth decimal but one
lying within that of a rounding midpoint come out the same.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

DICE, SIDES = 5, 6
LEVELS = [list(combinations_with_replacement(range(1, SIDES + 1), k)) for k in range(DICE + 1)]
ROLLS = LEVELS[DICE]
_WHERE = [{keep: index for index, keep in enumerate(level)} for level in LEVELS]
OFFSET = [sum(len(level) for level in LEVELS[:k]) for k in range(DICE + 1)]  # flat ids: level k starts here
PROPER = OFFSET[DICE]  # 210 keeps of 0-4 dice
CHILDREN = [np.array([[_WHERE[k + 1][tuple(sorted(keep + (face,)))] for face in range(1, SIDES + 1)]
                      for keep in LEVELS[k]]) for k in range(DICE)]
# KEEP[r, mask]: the flat id of the dice of ``mask`` kept from roll r (mask 31: the roll itself, id 210 + r)
KEEP = np.array([[OFFSET[bin(mask).count("1")] + _WHERE[bin(mask).count("1")][
    tuple(d for position, d in enumerate(roll) if mask >> position & 1)] for mask in range(1 << DICE)]
    for roll in ROLLS])
SUB = KEEP[:, : (1 << DICE) - 1]  # the proper sub-keeps of each roll


def keep_tree(top: np.ndarray) -> np.ndarray:
    """Flat means over the 462 keeps from the values ``top`` of the 252 rolls (the last 252 are ``top``)."""
    flat = np.empty(OFFSET[DICE] + len(ROLLS))
    flat[OFFSET[DICE]:] = top
    above = top
    for k in range(DICE - 1, -1, -1):
        children = above[CHILDREN[k]]
        level = (((((children[:, 0] + children[:, 1]) + children[:, 2]) + children[:, 3]) + children[:, 4])
                 + children[:, 5]) / 6.0
        flat[OFFSET[k]:OFFSET[k] + len(level)] = level
        above = level
    return flat


class FloatTurn:
    """``boxes``: (13, 252) each box's value for each roll (points, bonuses and the value after it; -inf where
    the roll may not go there). ``tree[R]``: the flat keep means with R rerolls left; ``values[R]`` VR."""

    def __init__(self, boxes: np.ndarray):
        self.boxes = boxes
        v0 = boxes.max(axis=0)
        self.values = [v0]
        self.tree = [None]
        for _ in range(2):
            tree = keep_tree(self.values[-1])
            self.tree.append(tree)
            self.values.append(np.maximum(v0, tree[SUB].max(axis=1)))
