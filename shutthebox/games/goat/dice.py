"""One roll of K dice, exactly (build time): the chance of a match and of each sum of different faces."""

from fractions import Fraction
from itertools import combinations
from math import factorial

from .rules import DICE


def roll(k: int) -> tuple[Fraction, dict]:
    """(chance of a match, {sum: chance}) for ``k`` six-sided dice: each set of k different faces
    shows in k! of the 6^k ordered outcomes."""
    sums: dict = {}
    for faces in combinations(range(1, 7), k):
        sums[sum(faces)] = sums.get(sum(faces), 0) + Fraction(factorial(k), 6**k)
    return 1 - sum(sums.values()), dict(sorted(sums.items()))


THROWS = {k: roll(k) for k in range(1, DICE + 1)}
