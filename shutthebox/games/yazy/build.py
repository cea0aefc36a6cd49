"""yazy's table (build time only): solve, make every printed value right, encode (docs/YAZY.md)."""

import math
from fractions import Fraction

import numpy as np

from ...engine.writer import encode, pack_array
from .rules import ALL, GAME, ROLLS, RULES
from .solver import ERROR_BOUND, SOLVER_VERSION, TIE, solve

GENERATOR = "shutthebox yazy solver %d" % SOLVER_VERSION
# A value this close to a 6-decimal rounding midpoint (far above the float64 rounding of the
# stored value and of this test) is looked at exactly.
_NEAR = 1e-12


def printed(hi, lo):
    """The float64s to store for the double-double values hi + lo: ``hi``, unless ``%.6f`` of it would
    not print the value rounded to 6 decimals; there the neighbour that does. Fails the build when a
    value lies within its error bound of a midpoint (its rounding is then not known)."""
    stored = np.array(hi, dtype=np.float64)
    flat, flat_lo = stored.reshape(-1), np.asarray(lo).reshape(-1)
    scaled = flat * 1e6
    near = np.flatnonzero(np.abs(scaled - np.floor(scaled) - 0.5) * 1e-6 < _NEAR)
    for i in near:
        value = Fraction(float(flat[i])) + Fraction(float(flat_lo[i]))
        whole, rest = divmod(value * 1_000_000, 1)
        if abs(rest - Fraction(1, 2)) * Fraction(1, 1_000_000) <= Fraction(ERROR_BOUND):
            raise AssertionError("yazy value %r lies within %g of a rounding midpoint" % (float(value), ERROR_BOUND))
        digits = int(whole) + (rest > Fraction(1, 2))
        for candidate in (flat[i], math.nextafter(flat[i], math.inf), math.nextafter(flat[i], -math.inf)):
            if round(float("%.6f" % candidate) * 1_000_000) == digits and \
                    (Fraction(float(candidate)) * 2_000_000).denominator != 1:
                flat[i] = candidate
                break
        else:
            raise AssertionError("no float64 near %r prints its 6-decimal rounding" % float(value))
    return stored


def solve_table(rules=RULES) -> bytes:
    solution = solve()
    turn = printed(solution.turn, solution.turn_lo)
    expect = printed(solution.expect, solution.expect_lo)
    sets, rolls = ALL + 1, len(ROLLS)
    arrays = {
        "turn": pack_array(turn.astype("<f8").tobytes(), "<f8", (sets,)),
        "expect": pack_array(expect.astype("<f8").tobytes(), "<f8", (sets, 3, rolls)),
        "move": pack_array(solution.move.astype("|u1").tobytes(), "|u1", (sets, 3, rolls)),
    }
    # Text, not floats: the header stays free of types a question would need struct for.
    fields = {"error_bound": "%g" % ERROR_BOUND, "tie": "%g" % TIE}
    return encode(GAME, RULES, arrays, generator=GENERATOR, fields=fields)


# The tables data/ holds: the one rule set.
SHIPPED = (RULES,)
