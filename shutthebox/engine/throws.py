"""Throws of dice, for the game models (``engine/model.py``) and the family solvers: the sorted rolls of a
number of dice, each with its exact weight, and the keeps of a roll, one for each set of faces.

A roll is its faces sorted increasing; the rolls of ``count`` dice are numbered in lexicographic order (the
order of ``itertools.combinations_with_replacement``), which is also each throw's outcome number. A keep (or
a set-aside) is a bitmask over the sorted roll's positions; of equal faces only the leftmost are taken, so
each set of faces has one mask (OpenSpiel refuses two actions of the same words).
"""

from itertools import combinations_with_replacement
from math import factorial

_ROLLS: dict = {}
_THROWS: dict = {}
_KEEPS: dict = {}


def weight(roll) -> int:
    """The number of ordered rolls that sort to ``roll``."""
    count = factorial(len(roll))
    for face in set(roll):
        count //= factorial(roll.count(face))
    return count


def sorted_rolls(count: int, sides: int) -> list:
    """The sorted rolls of ``count`` dice of ``sides`` sides, in lexicographic order."""
    found = _ROLLS.get((count, sides))
    if found is None:
        found = _ROLLS[count, sides] = list(combinations_with_replacement(range(1, sides + 1), count))
    return found


def throw(count: int, sides: int) -> tuple:
    """A throw of ``count`` dice: ``([(outcome, weight)], sides ** count)``, outcome ``o`` the ``o``-th sorted
    roll."""
    found = _THROWS.get((count, sides))
    if found is None:
        found = _THROWS[count, sides] = ([(number, weight(roll)) for number, roll in
                                          enumerate(sorted_rolls(count, sides))], sides ** count)
    return found


def leftmost(roll, mask: int) -> bool:
    """Whether ``mask`` takes no die of ``roll`` unless it takes the equal dice left of it."""
    return not any(mask >> i & 1 and not mask >> (i - 1) & 1 and roll[i - 1] == roll[i] for i in range(1, len(roll)))


def keeps(roll) -> list:
    """The masks over the sorted ``roll`` that take each set of its faces once (the leftmost of equal faces),
    increasing, none and all included."""
    found = _KEEPS.get(roll)
    if found is None:
        found = _KEEPS[roll] = [mask for mask in range(1 << len(roll)) if leftmost(roll, mask)]
    return found


def faces(roll, mask: int) -> tuple:
    """The faces of ``roll`` at the bits of ``mask``."""
    return tuple(face for i, face in enumerate(roll) if mask >> i & 1)
