"""Pig tables (build time only): solve, check the bound and the printed digits, encode (docs/PIG.md)."""

import numpy as np

from ...engine.printing import check_printing
from ...engine.writer import encode, pack_array
from .rules import GAME, Rules, rows
from .solver import SOLVER_VERSION, TIE, solve

GENERATOR = "shutthebox pig solver %d" % SOLVER_VERSION


# More values this near a rounding midpoint than this means something is wrong, not bad luck.
MAX_UNSURE = 100


def unsure_indexes(win, bound: float) -> list:
    """The flat indexes of the values lying within ``bound`` of a 6-decimal rounding midpoint: their printed
    6th decimal could differ from the exact value's, so questions on them are refused (one state of Two-Dice
    Pig to 100 lies 6.9e-15 from one, under its bound 1.2e-13). The build fails if there are many."""
    flat = np.asarray(win, dtype=np.float64).ravel()
    scaled = flat * 1e6
    unsure = np.flatnonzero(np.abs(scaled - np.floor(scaled) - 0.5) * 1e-6 <= bound).tolist()
    if len(unsure) > MAX_UNSURE:
        raise AssertionError("pig: %d values lie within the error bound %.3g of a rounding midpoint"
                             % (len(unsure), bound))
    check_printing(np.delete(flat, unsure), bound, "pig")  # the rest: proven to print right
    return unsure


def solve_table(rules: Rules) -> bytes:
    """Solve, check and encode the table of ``rules``."""
    solution = solve(rules.variant, rules.goal, rules.sides if rules.variant == "pig" else 6)
    if not solution.bound < TIE / 10:
        raise AssertionError("pig: error bound %.3g is not far below the tie width %g" % (solution.bound, TIE))
    unsure = unsure_indexes(solution.win, solution.bound)
    shape = (rows(rules.goal), rules.goal)
    arrays = {
        "win": pack_array(np.ascontiguousarray(solution.win, dtype="<f8").tobytes(), "<f8", shape),
        "move": pack_array(np.ascontiguousarray(solution.move, dtype="|u1").tobytes(), "|u1", shape),
    }
    # Text, not floats: the header stays free of types a question would need struct for.
    fields = {"error_bound": "%.2g" % (solution.bound * 1.05 + 1e-300), "tie": "%g" % TIE,
              "unsure": ",".join(map(str, unsure))}
    return encode(GAME, rules.as_dict(), arrays, generator=GENERATOR, fields=fields)


# The tables data/ holds: Neller and Presser's Pig.
SHIPPED = (Rules(),)
