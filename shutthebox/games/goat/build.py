"""Goat tables (build time only): solve, check the residual and the printed digits, encode (docs/GOAT.md)."""

import numpy as np

from ...engine.printing import check_printing
from ...engine.pushluck import check_tie, error_bound, rounding
from ...engine.writer import encode, pack_array, printed_float
from .chains import expected_turns, useful_threshold
from .optimal import solo_turns, solve_last, solve_solo, solve_two, turns_left
from .rules import DICE, EACH, GAME, THRESHOLDS, Rules
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


class Bound:
    """One part's error bound by the Theorem of engine/pushluck.py: ``residual`` of its verifying sweep,
    ``turns`` the most expected turns still to play, this turn included, each player free among the actions
    within ``width`` of the best (None for the last turn), ``rounding`` the sweep's rounding bound (Lemma 1);
    ``value`` the bound on every stored value's error. The Theorem's hypothesis is checked."""

    def __init__(self, residual: float, turns, rounding_: float, width: float | None = None):
        self.residual, self.turns, self.rounding, self.width = residual, turns, rounding_, width
        if turns is None:  # an acyclic turn from exact payoffs: Lemma 1's rounding only
            self.value = rounding_
        else:
            check_tie(residual, turns, rounding_, width)
            self.value = error_bound(residual, turns, rounding_)


def solve_parts(goal: int, choose: str = EACH):
    """(turn, solo, two-player, last turn) of the rules option ``choose``, each solved and its residual checked."""
    turn = goat_turn(choose)
    solo, last = solve_solo(goal, turn), solve_last(turn)
    two = solve_two(goal, last, turn)
    for name, part in (("solo", solo), ("two-player", two)):
        if not part.residual < RESIDUAL:
            raise AssertionError("goat %s: Bellman residual %.3g is not below %g" % (name, part.residual, RESIDUAL))
    return turn, solo, two, last


def error_bounds(goal: int, turn, solo, two) -> dict:
    """{"solo", "two-player", "last-turn": Bound} (docs/GOAT.md). Lemma 1's C is the largest payoff or slot
    value in size: 1 for chances; for solo (values: minus the expected turns) a payoff is ``-1 + V(next)``, so
    1 + the most expected turns (every slot value lies between payoffs). The last turn is acyclic, its payoffs
    exact (0, 1/2, 1): its values are within the rounding of one turn. The two-player turns count a position
    of known value as the game's end, and are free among the moves within ``optimal.WIDTH``
    (``optimal.turns_left``)."""
    chances = rounding(turn, 1.0)
    return {"solo": Bound(solo.residual, solo_turns(goal, solo, turn),
                          rounding(turn, 1.0 + float(np.abs(solo.starts).max())), solo.width),
            "two-player": Bound(two.residual, turns_left(goal, two, turn), chances, two.width),
            "last-turn": Bound(0.0, None, chances)}


def solve_table(rules: Rules) -> bytes:
    goal = rules.goal
    turn, solo, two, last = solve_parts(goal, rules.choose)
    bounds = error_bounds(goal, turn, solo, two)
    bound = max(part.value for part in bounds.values())
    if not bound < TIE / 10:
        raise AssertionError("goat: error bound %.3g is not far below the tie width %g" % (bound, TIE))
    turns = -solo.values
    check_printing(turns, bounds["solo"].value, "goat solo")
    check_printing(two.values, bounds["two-player"].value, "goat two-player")
    check_printing(last.values, bounds["last-turn"].value, "goat last-turn")
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
