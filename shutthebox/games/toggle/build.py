"""Toggle tables (build time only): solve, check the printed digits, encode (docs/TOGGLE.md)."""

from ...engine.printing import check_printing
from ...engine.writer import encode, pack_array
from .rules import GAME, Rules
from .solver import SOLVER_VERSION, TIE, solve

GENERATOR = "shutthebox toggle solver %d" % SOLVER_VERSION


def solve_table(rules: Rules, method: str = "value") -> bytes:
    """Solve (by value or policy iteration: the same bytes), check and encode the table of ``rules``."""
    solution = solve(rules, method)
    check_printing(solution.rolls, solution.bound, "toggle")  # no printed digit can be wrong
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
