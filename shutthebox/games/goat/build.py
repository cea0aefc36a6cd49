"""Goat tables (build time only): solve, check the residual and the printed digits, encode (docs/GOAT.md)."""

import numpy as np

from ...engine.writer import encode, pack_array, printed_float
from .chains import expected_turns, useful_threshold
from .optimal import solve_last, solve_solo, solve_two, turns_left
from .rules import DICE, GAME, THRESHOLDS, Rules
from .solver import RESIDUAL, SOLVER_VERSION, TIE, goat_turn

GENERATOR = "shutthebox goat solver %d" % SOLVER_VERSION


def check_printing(values, bound: float, what: str) -> None:
    """Fail the build if a printed value could differ from the exact one's: none lies within
    ``bound`` of a 6-decimal rounding midpoint."""
    scaled = np.asarray(values, dtype=float).ravel() * 1e6
    distance = np.abs(scaled - np.floor(scaled) - 0.5) * 1e-6
    if distance.size and distance.min() <= bound:
        worst = int(np.argmin(distance))
        raise AssertionError("goat %s value %r lies within %.3g of a rounding midpoint"
                             % (what, float(scaled[worst] / 1e6), bound))


def fixed_values(goal: int) -> list:
    """Expected turns of every fixed strategy, [k - 1][t - 1][score], as the floats that print exactly."""
    out = []
    for k in range(1, DICE + 1):
        rows, seen = [], {}
        for t in range(1, THRESHOLDS + 1):
            key = useful_threshold(k, t)
            if key not in seen:
                seen[key] = [printed_float(top, bottom) for top, bottom in expected_turns(k, key, goal)]
            rows.append(seen[key])
        out.append(rows)
    return out


def solve_table(rules: Rules) -> bytes:
    goal = rules.goal
    turn = goat_turn()
    solo, last = solve_solo(goal, turn), solve_last(turn)
    two = solve_two(goal, last, turn)
    for name, part in (("solo", solo), ("two-player", two)):
        if not part.residual < RESIDUAL:
            raise AssertionError("goat %s: Bellman residual %.3g is not below %g" % (name, part.residual, RESIDUAL))
    turns = -solo.values
    solo_bound = solo.residual * (float(turns.max()) + 1) * 2 + float(turns.max()) * 2.0**-50
    # a fixed point's bound: its residual times the turns still to play (docs/GOAT.md)
    two_bound = two.residual * (turns_left(goal, two, turn) + 1) * 2 + 2.0**-50
    bound = max(solo_bound, two_bound)
    if not bound < TIE / 10:
        raise AssertionError("goat: error bound %.3g is not far below the tie width %g" % (bound, TIE))
    check_printing(turns, solo_bound, "solo")
    check_printing(two.values, two_bound, "two-player")
    check_printing(last.values, 2.0**-50, "last-turn")
    size = goal * goal
    slots = two.values.shape[1]

    def floats(values, shape):
        return pack_array(np.ascontiguousarray(values, dtype="<f8").tobytes(), "<f8", shape)

    def moves(actions, shape):
        return pack_array(np.ascontiguousarray(actions, dtype="|u1").tobytes(), "|u1", shape)

    fixed = fixed_values(goal)
    arrays = {
        "fixed": pack_array([v for rows in fixed for row in rows for v in row], "<f8", (DICE, THRESHOLDS, goal)),
        "solo": floats(turns, (goal, slots)), "solo_move": moves(solo.actions, (goal, slots)),
        "one": floats(two.values[:size], (goal, goal, slots)), "one_move": moves(two.actions[:size], (goal, goal, slots)),
        "two": floats(two.values[size:], (goal, goal, slots)), "two_move": moves(two.actions[size:], (goal, goal, slots)),
        "last": floats(last.values, (len(last.values), slots)), "last_move": moves(last.actions, (len(last.values), slots)),
    }
    # Text, not floats: the header stays free of types a question would need struct for.
    fields = {"error_bound": "%.2g" % (bound * 1.05), "tie": "%g" % TIE}
    return encode(GAME, rules.as_dict(), arrays, generator=GENERATOR, fields=fields)


# The tables data/ holds: the homework's goal.
SHIPPED = (Rules(),)
