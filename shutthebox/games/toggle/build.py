"""Toggle tables (build time only): solve, check the printed digits, encode (docs/TOGGLE.md)."""

import math

from ...engine.writer import encode, pack_array
from .rules import GAME, Rules
from .solver import SOLVER_VERSION, TIE, solve

GENERATOR = "shutthebox toggle solver %d" % SOLVER_VERSION


def check_printing(values, bounds) -> None:
    """Fail the build if a printed value could differ from the exact one's: none lies within
    its error bound of a 6-decimal rounding midpoint."""
    for value, bound in zip(values, bounds):
        scaled = value * 1e6
        distance = abs(scaled - math.floor(scaled) - 0.5) * 1e-6
        if distance <= bound:
            raise AssertionError("toggle value %r lies within %.3g of a rounding midpoint" % (value, bound))


def solve_table(rules: Rules) -> bytes:
    """Solve, check and encode the table of ``rules``."""
    solution = solve(rules)
    check_printing(solution.rolls.tolist(), solution.bound.tolist())
    states, sides = rules.states, rules.sides
    arrays = {
        "rolls": pack_array(solution.rolls.astype("<f8").tobytes(), "<f8", (states,)),
        "flip": pack_array(solution.flip.astype("|u1").tobytes(), "|u1", (states, sides, sides)),
    }
    # Text, not floats: the header stays free of types a question would need struct for.
    fields = {"error_bound": "%.2g" % (solution.bound.max() * 1.05), "tie": "%g" % TIE}
    return encode(GAME, rules.as_dict(), arrays, generator=GENERATOR, fields=fields)


# The tables data/ holds: the published game and its 4-card check.
SHIPPED = (Rules(12, 6), Rules(4, 2))
