"""One turn of Yahtzee (or Yatzy) in float64 numpy, from the table's turn-start values: the game model's fast
path (``model.py``, ``rational=False``; the learning environments' default), some times faster than the game's
own turn solver (``turn.py``, exact rationals) for a turn never met before.

    E_R(K) = (E_R(K + 1) + ... + E_R(K + 6)) / 6 over the keeps of fewer than five dice, E_R(roll) = V(R-1)(roll)
    VR(r)  = max(V0(r), the best E_R of a proper sub-keep of r)

Each value is within about 1e-12 of the exact rational the turn solver computes from the same table values (a
few roundings of numbers below 2000): ties (``turn.TIE``, 1e-9) come out the same. Learning time only: numpy.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

from .rules import DICE, FIFTY, OPEN, SIDES, SIXES, ZERO, joker_choices, upper_points, yahtzee_bonus

LEVELS = [list(combinations_with_replacement(range(1, SIDES + 1), k)) for k in range(DICE + 1)]
ROLLS = LEVELS[DICE]
_WHERE = [{keep: index for index, keep in enumerate(level)} for level in LEVELS]
ROLL_INDEX = _WHERE[DICE]
OFFSET = [sum(len(level) for level in LEVELS[:k]) for k in range(DICE + 1)]  # flat ids: level k starts here
CHILDREN = [np.array([[_WHERE[k + 1][tuple(sorted(keep + (face,)))] for face in range(1, SIDES + 1)]
                      for keep in LEVELS[k]]) for k in range(DICE)]
# KEEP[r, mask]: the flat id of the dice of ``mask`` kept from roll r (mask 31: the roll itself, id 210 + r)
KEEP = np.array([[OFFSET[bin(mask).count("1")] + _WHERE[bin(mask).count("1")][
    tuple(d for position, d in enumerate(roll) if mask >> position & 1)] for mask in range(1 << DICE)]
    for roll in ROLLS])
SUB = KEEP[:, : (1 << DICE) - 1]  # the proper sub-keeps of each roll
_KEPT = 4096  # turns kept per model (then the cache starts again)


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
    """``boxes``: (boxes, 252) each box's value for each roll (points, bonuses and the table's value after it;
    -inf where the roll may not go there). ``tree[R]``: the flat keep means with R rerolls left; ``values[R]``
    VR."""

    def __init__(self, boxes: np.ndarray):
        self.boxes = boxes
        v0 = boxes.max(axis=0)
        self.values = [v0]
        self.tree: list = [None]
        for _ in range(2):
            tree = keep_tree(self.values[-1])
            self.tree.append(tree)
            self.values.append(np.maximum(v0, tree[SUB].max(axis=1)))


class FloatTurns:
    """The float turns of one rule set's table, made as they are met and kept (``_KEPT`` of them)."""

    def __init__(self, table) -> None:
        self.table, self.rules, self.sheet = table, table.joker, table.sheet
        sheet = self.sheet
        self.scores = np.array([[sheet.score(c, roll) for roll in ROLLS] for c in range(len(sheet.categories))])
        self.keep = KEEP  # [roll, mask]: the flat id of the dice kept
        self._turns: dict = {}

    def _after(self, card: int, upper: int, box: int, category: int, points: int) -> float:
        """``points`` written in ``category`` (the upper bonus included) plus the table's value after it."""
        later, sheet = self.table.value, self.sheet
        card &= ~(1 << category)
        if category <= SIXES:
            upper, bonus = upper_points(upper, category, points, sheet.upper_bonus)
            return points + bonus + later(card, upper, box)
        if category == sheet.yahtzee:
            return points + later(card, upper, FIFTY if points else ZERO)
        return points + later(card, upper, box)

    def turn(self, card: int, upper: int, box: int) -> FloatTurn:
        """The turn of the card ``card``, ``upper`` points in ones..sixes (capped at 63) and the yahtzee box."""
        key = (card, upper, box)
        found = self._turns.get(key)
        if found is not None:
            return found
        if len(self._turns) >= _KEPT:
            self._turns.clear()
        sheet, rules = self.sheet, self.rules
        boxes = np.full((len(sheet.categories), len(ROLLS)), -np.inf)
        for c in range(len(sheet.categories)):
            if not card >> c & 1:
                continue
            scores = self.scores[c]
            if c <= SIXES or c == sheet.yahtzee:
                after = np.zeros(int(scores.max()) + 1)
                for points in set(scores.tolist()):
                    after[points] = self._after(card, upper, box, c, points)
                boxes[c] = after[scores]
            else:
                boxes[c] = scores + self._after(card, upper, box, c, 0)
        if sheet.yahtzee is not None and box != OPEN:  # a Yahtzee on a filled yahtzee box: the joker rule
            for face in range(1, SIDES + 1):
                r = ROLL_INDEX[(face,) * DICE]
                boxes[:, r] = -np.inf
                extra = yahtzee_bonus(rules, box, (face,) * DICE)
                for c, points in joker_choices(rules, card, box, face):
                    boxes[c, r] = self._after(card, upper, box, c, points) + extra
        found = self._turns[key] = FloatTurn(boxes)
        return found
