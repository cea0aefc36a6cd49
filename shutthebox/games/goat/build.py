"""Goat tables (build time only): solve, check the residual and the printed digits, encode (docs/GOAT.md)."""

import numpy as np

from ...engine.printing import check_printing
from ...engine.pushluck import error_bound
from ...engine.writer import encode, pack_array, printed_float
from .chains import expected_turns, useful_threshold
from .optimal import solve_last, solve_solo, solve_two, turns_left
from .rules import DICE, GAME, THRESHOLDS, Rules
from .solver import RESIDUAL, SOLVER_VERSION, TIE, goat_turn

GENERATOR = "shutthebox goat solver %d" % SOLVER_VERSION


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
    # A fixed point's bound: its residual times the turns still to play (docs/GOAT.md). Kept as shipped, for the
    # table's bytes: twice pushluck.error_bound without its rounding term rho, with the stored policy's turns. With
    # rho (pushluck.rounding: 3 rolls, 11 terms) it would be 4.2e-13 solo and 7.3e-14 two-player at goal 100, both
    # below TIE / 10 too (the engine's Theorem also wants the turns counted free among tied actions).
    solo_bound = 2 * error_bound(solo.residual, float(turns.max())) + float(turns.max()) * 2.0**-50
    two_bound = 2 * error_bound(two.residual, turns_left(goal, two, turn)) + 2.0**-50
    bound = max(solo_bound, two_bound)
    if not bound < TIE / 10:
        raise AssertionError("goat: error bound %.3g is not far below the tie width %g" % (bound, TIE))
    check_printing(turns, solo_bound, "goat solo")
    check_printing(two.values, two_bound, "goat two-player")
    check_printing(last.values, 2.0**-50, "goat last-turn")
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
