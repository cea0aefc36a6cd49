"""The exact law of a dice game's final total under a fixed policy (analysis time; numpy): what the five-dice
games (yazy, Yahtzee) share for their ``distribution`` commands.

- ``turn_chances``: one turn of the dice-keeping games (``engine/dicekeep_arrays.py``) played by a given
  policy, for many states at once: the chance that each roll is scored with 2, 1 or 0 rerolls left, the
  kept dice rerolled over the keep tree (each keep's mass spread a sixth to each child, level by level).
- ``add_shifted``: the step of a forward pass over states with a law of the points so far each: a state's
  law, shifted by the points a move earns and weighted by its chance, added into the next state's.
- ``Law``: a final total's law summarised (each total's chance, the chance of at least it, mean,
  standard deviation, median) with every printed digit checked against the law's error bound
  (``engine/printing.py``).

Chances are float64 sums and products of non-negative numbers (no cancellation), so each is within a relative
gamma_K = K u / (1 - K u) of the exact rational, u = 2^-53 and K the most roundings on any path of the
computation to it: in a turn, 5 levels of the keep tree (a division and at most 5 additions each) and a
scatter of at most 252 rolls for each of 3 rolls, then at most 3 x 252 additions into a box's points; in the
pass, one product and at most 13 x 102 x 6 additions into a total's chance for each of at most 15 turns:
K < 15 x (3 x 282 + 756 + 8000) < 1.5 x 10^5, gamma_K < 1.7e-11. ``RELATIVE`` rounds that up.
"""

import math

import numpy as np

from .dice import DICE, SIDES
from .printing import checked

RELATIVE = 2e-11  # the relative error bound of every chance, mean and standard deviation computed here


def turn_chances(tree, kept, rerolls: int = 2) -> np.ndarray:
    """(rerolls + 1, 252, n): the chance that roll r is scored with R rerolls left (``[R, r, column]``), for n
    states (columns) played by a policy: ``kept[R]`` (252, n) is the number of the keep (``tree``'s numbering:
    ``tree.starts[len(K)]`` + its place in its level, fewer than five dice) the policy keeps on roll r with R
    rerolls left, or -1 to score it (always -1 for R = 0). The first roll is five dice rolled; each keep's
    chance is spread a sixth to each of its children, level by level, down to the 252 rolls."""
    n = kept[rerolls].shape[1]
    sizes = [len(level) for level in tree.levels]
    below = tree.starts[DICE]  # the keeps of fewer than five dice, numbered 0 .. below - 1
    out = np.zeros((rerolls + 1, sizes[DICE], n))
    masses = np.zeros((below, n))
    masses[0] = 1.0  # keep nothing: roll all five
    columns = np.arange(n)
    for left in range(rerolls, -1, -1):
        levels = [masses[tree.starts[k]:tree.starts[k] + sizes[k]] for k in range(DICE)] + [np.zeros((sizes[DICE], n))]
        for k in range(DICE):
            share = levels[k] / SIDES
            child = tree.children[k]
            for face in range(SIDES):
                levels[k + 1][child[:, face]] += share  # distinct keeps plus one face: distinct children
        rolls = levels[DICE]
        choice = kept[left]
        scoring = choice < 0
        if left == 0 and not scoring.all():
            raise AssertionError("a policy keeps dice with no reroll left")
        out[left] = np.where(scoring, rolls, 0.0)
        if left:
            keeping = ~scoring
            flat = (choice * n + columns[None, :])[keeping]
            masses = np.bincount(flat, weights=rolls[keeping], minlength=below * n).astype(np.float64)
            masses = masses.reshape(below, n)  # (float64 even when nothing is kept: bincount gives int64 then)
    return out


def add_shifted(target, rows, shift: int, weights, source) -> None:
    """``target[rows[i], shift + x] += weights[i] * source[i, x]`` for every i and x (the law of points so far of
    the states ``source``, shifted by ``shift`` points, into the states ``rows`` of ``target``; rows may repeat).
    The source's columns past the target's width must hold 0 (checked by the pass's total chance)."""
    width = min(source.shape[1], target.shape[1] - shift)
    if width <= 0 or not len(rows):
        return
    added = source[:, :width] * weights[:, None]
    part = target[:, shift:shift + width]
    if len(np.unique(rows)) == len(rows):
        part[rows] += added
    else:
        np.add.at(part, rows, added)


class Law:
    """The law of a final total (``chances[t]``: the chance of total t), summarised with exact printed digits:
    ``mean``, ``sd`` (the standard deviation), ``median`` (the least total whose chance of at most it is 1/2 or
    more), ``at_least[t]``; ``bound(value)`` the error bound of a value computed from the chances."""

    def __init__(self, chances):
        self.chances = np.asarray(chances, dtype=np.float64)
        totals = np.arange(len(self.chances))
        self.total = float(math.fsum(self.chances))
        self.mean = math.fsum(totals * self.chances)
        self.sd = math.sqrt(math.fsum((totals - self.mean) ** 2 * self.chances))
        tail = np.cumsum(self.chances[::-1])[::-1]
        self.at_least = tail
        at_most = np.cumsum(self.chances)
        self.median = int(np.argmax(at_most >= 0.5))
        self.lowest = int(np.argmax(self.chances > 0))
        self.highest = int(len(self.chances) - 1 - np.argmax(self.chances[::-1] > 0))

    def check(self, what: str, mean: float | None = None) -> str:
        """Every figure's digits vouched for (else AssertionError): the total chance 1 within its bound, the
        median's chance of at most it away from 1/2, the standard deviation away from 6-decimal midpoints; the
        mean equal to ``mean`` (a value known to its printed digits, such as a table's) within its bound, else
        away from the midpoints. Returns the mean's 6 decimals."""
        if abs(self.total - 1.0) > 2 * RELATIVE:
            raise AssertionError("%s: the chances add up to %r, not 1" % (what, self.total))
        below = float(math.fsum(self.chances[:self.median]))
        if abs(below - 0.5) <= 2 * RELATIVE or abs(below + self.chances[self.median] - 0.5) <= 2 * RELATIVE:
            raise AssertionError("%s: the median's chance lies within its error bound of 1/2" % what)
        checked(self.sd, 2 * RELATIVE * self.sd, what + " standard deviation")
        if mean is None:
            return "%.6f" % checked(self.mean, 2 * RELATIVE * self.mean, what + " mean")
        if abs(self.mean - mean) > 2 * RELATIVE * abs(mean) + 1e-12:
            raise AssertionError("%s: the mean %r is not %r" % (what, self.mean, mean))
        return "%.6f" % mean

    def rows(self, cut: float = 5e-7) -> tuple[list, int | None]:
        """([(total, chance, chance of at least it)] from the lowest total while the chance of at least it is
        ``cut`` or more, each digit checked; the first total left out, or None)."""
        out: list = []
        for total in range(self.lowest, self.highest + 1):
            if self.at_least[total] < cut:
                return out, total
            if self.chances[total] > 0:
                chance = checked(float(self.chances[total]), 2 * RELATIVE * self.chances[total],
                                 "the chance of %d" % total)
                tail = checked(float(self.at_least[total]), 2 * RELATIVE * self.at_least[total],
                               "the chance of at least %d" % total)
                out.append((total, chance, tail))
        return out, None
