"""A set-aside dice game's table (build time): the exact solve, the printed digits checked, the file encoded.

With ``n`` dice still to roll, the expected total still to come under optimal play is

    E(n) = sum over the sorted rolls r of n dice of  P(r) * best over k = 1..n of (points(r, k) + E(n - k))

where ``points(r, k)`` is the best ``k`` dice of ``r`` set aside (the ``k`` lowest-scoring for the lowest
total): a set of ``k`` dice leaves the same game, ``E(n - k)``, whichever they are, so only the best of each
size can be optimal. Everything is a ``Fraction``; ties are decided exactly, by the family's rule: more dice
set aside first (a shorter game), then the lower faces. Pure Python: no numpy, no order of summation that
a machine could change.
"""

import sys
from array import array
from fractions import Fraction

from ...writer import encode, pack_array, printed_float
from ...throws import sorted_rolls, weight

SOLVER_VERSION = 1
TIE = "more dice set aside, then the lower faces"


class Solution:
    """``expect[n]`` (n = 0 .. dice) exact; ``moves``: the best set-aside of each sorted roll of 1 .. dice
    dice, the table's rows in order."""

    def __init__(self, expect: list, moves: list):
        self.expect, self.moves = expect, moves


def solve(rules) -> Solution:
    points, lowest = rules.points, rules.lowest
    expect, moves = [Fraction(0)], []
    for n in range(1, rules.dice + 1):
        total = Fraction(0)
        for roll in sorted_rolls(n, rules.sides):
            # The dice in the order they are best set aside; among equal points the lower face (and, among
            # equal faces, the leftmost position: one mask for each set of faces).
            order = sorted(range(n), key=lambda i: (points[roll[i] - 1] if lowest else -points[roll[i] - 1], i))
            running = mask = best_mask = 0
            best = Fraction(0)
            for k, position in enumerate(order, 1):
                running += points[roll[position] - 1]
                mask |= 1 << position
                value = running + expect[n - k]
                # ``<=``: an equal value with more dice set aside wins (k grows)
                if k == 1 or (value <= best if lowest else value >= best):
                    best, best_mask = value, mask
            moves.append(best_mask)
            total += weight(roll) * best
        expect.append(total / rules.sides ** n)
    return Solution(expect, moves)


def common_denominator(rules) -> int:
    """A denominator of every ``E(n)``: ``E(n)`` is over ``sides ** n`` times ``E(n - 1)``'s."""
    return rules.sides ** (rules.dice * (rules.dice + 1) // 2)


def check_printing(rules, expect: list, stored: list) -> None:
    """Every value a question can print, ``points + E(m)``, prints its exact value's 6-decimal rounding
    from the stored floats too (the command prints from the exact numerators; other readers add floats)."""
    top = rules.dice * max(rules.points)
    for m, exact in enumerate(expect[:-1]):
        for points in range(top + 1):
            value = points + exact
            whole, rest = divmod(value.numerator * 1_000_000, value.denominator)
            if 2 * rest > value.denominator or (2 * rest == value.denominator and whole % 2):
                whole += 1
            if "%.6f" % (points + stored[m]) != "%d.%06d" % divmod(whole, 1_000_000):
                raise AssertionError("%s: %d + E(%d) would print wrong from its float" % (rules.GAME, points, m))


class BuildPart:
    """The family's ``build`` hooks for one game: ``solve_table`` and ``SHIPPED``."""

    def __init__(self, spec):
        self.spec = spec
        self.SHIPPED = (spec.rules().Rules(),)

    def solve_table(self, rules) -> bytes:
        solution = solve(rules)
        denominator = common_denominator(rules)
        numerators = []
        for value in solution.expect:
            numerator, rest = divmod(value.numerator * denominator, value.denominator)
            assert rest == 0, "E(n) is not over the common denominator"
            numerators.append(numerator)
        stored = [printed_float(numerator, denominator) for numerator in numerators]
        check_printing(rules, solution.expect, stored)
        expect = array("d", stored)
        moves = bytes(solution.moves)
        arrays = {"expect": pack_array(_little(expect), "<f8", (rules.dice + 1,)),
                  "move": pack_array(moves, "|u1", (len(moves),))}
        fields = {"denominator": str(denominator), "numerators": ",".join(map(str, numerators)), "tie": TIE}
        return encode(rules.GAME, rules.as_dict(), arrays,
                      generator="shutthebox set-aside dice solver %d" % SOLVER_VERSION, fields=fields)


def _little(values) -> bytes:
    if sys.byteorder != "little":
        values = values.__copy__()
        values.byteswap()
    return values.tobytes()
