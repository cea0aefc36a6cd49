"""yazy's table (build time only): solve, make every printed value right, encode (docs/YAZY.md)."""

from fractions import Fraction

import numpy as np

from ...engine.printing import printed as engine_printed
from ...engine.writer import encode, pack_array
from .rules import FULL, GAME, ROLLS
from .solver import ERROR_BOUND, SOLVER_VERSION, TIE, solve

GENERATOR = "shutthebox yazy solver %d" % SOLVER_VERSION
# A value this close to a 6-decimal rounding midpoint (far above the float64 rounding of the
# stored value and of this test) is looked at exactly.
_NEAR = 1e-12


def printed(hi, lo):
    """The float64s to store for the double-double values hi + lo: ``hi``, unless ``%.6f`` of it would
    not print the value rounded to 6 decimals; there the neighbour that does (``engine.printing.printed``:
    fails the build when a value lies within its error bound of a midpoint)."""
    flat_hi, flat_lo = np.asarray(hi).reshape(-1), np.asarray(lo).reshape(-1)
    return engine_printed(np.array(hi, dtype=np.float64),
                          lambda i: Fraction(float(flat_hi[i])) + Fraction(float(flat_lo[i])), ERROR_BOUND, "yazy",
                          near=_NEAR)


def solve_table(rules=FULL) -> bytes:
    """The table of the game of ``rules``' categories: a row per subset of them (``rules.subsets``)."""
    solution = solve(rules.mask)
    turn = printed(solution.turn, solution.turn_lo)
    expect = printed(solution.expect, solution.expect_lo)
    sets, rolls = len(turn), len(ROLLS)
    arrays = {
        "turn": pack_array(turn.astype("<f8").tobytes(), "<f8", (sets,)),
        "expect": pack_array(expect.astype("<f8").tobytes(), "<f8", (sets, 3, rolls)),
        "move": pack_array(solution.move.astype("|u1").tobytes(), "|u1", (sets, 3, rolls)),
    }
    # Text, not floats: the header stays free of types a question would need struct for.
    fields = {"error_bound": "%g" % ERROR_BOUND, "tie": "%g" % TIE}
    return encode(GAME, rules.as_dict(), arrays, generator=GENERATOR, fields=fields)


# The tables data/ holds: the full game's.
SHIPPED = (FULL,)
