"""Optimal Goat (build time; numpy): one turn engine, solved position by position with cycles.

A *turn* is a small acyclic game: from each slot (rolls taken, turn total) the
player stops or rolls; the turn ends in a *gain* column g (0: a match). Given
the payoff ``U[:, g]`` of ending the turn with each gain, :func:`play_turn`
takes the best action at every slot, deepest slots first, vectorised over many
positions at once (a position: whose turn and the banked scores).

A match returns to the same banked scores with the other player to move (solo:
the same player), so a position's value depends on its *partner*'s:
``U[:, 0] = C + SIGN * value(partner)``. Positions whose banked scores have the
same sum form a group that depends only on groups of higher sums, solved
first. Within a group each position's value is an affine function of the
partner's for a fixed policy (slope: the chance of a match); Newton's method
on the pair (policy iteration) reaches the fixed point in a few steps. The
residual ``|T(V) - V|`` of the whole table is then measured in one more sweep
and must be below ``RESIDUAL``.

Ties: actions whose values are within ``TIE`` of the best count as equally
good (TIE is far above the error bound, so exact ties are always seen as ties), and the first of stop, roll 1, roll 2, ..., roll 6 is taken (stop first:
a finished turn risks nothing; then the fewest dice).
"""

import numpy as np

from .dice import THROWS as ROLL
from .rules import DICE, MAX_GAIN, ROLLS, SLOTS, slot

SOLVER_VERSION = 1
RESIDUAL = 1e-12
TIE = 1e-11
MAX_NEWTON = 60


class Turn:
    """A turn's shape: ``gains`` payoff columns, then one column per slot; ``levels`` deepest first,
    each ``(slots, stop_gain, [(action, weights)])`` with ``weights`` (columns x slots) the chance of
    each column after the action; ``stop_gain[i]`` is -1 where stopping is not allowed."""

    def __init__(self, gains, slots, levels, root=0):
        self.gains, self.slots, self.levels, self.root = gains, slots, levels, root

    @property
    def columns(self):
        return self.gains + self.slots


def goat_turn() -> Turn:
    gains = MAX_GAIN + 1
    columns = gains + SLOTS
    levels = []
    for rolls in range(ROLLS - 1, -1, -1):
        turns = [0] if rolls == 0 else list(range(rolls, rolls * 21 + 1))
        slots = np.array([slot(rolls, turn) for turn in turns])
        stop = np.array([turn if rolls else -1 for turn in turns])
        actions = []
        for k in range(1, DICE + 1):
            bust, sums = ROLL[k]
            weights = np.zeros((columns, len(turns)))
            for i, turn in enumerate(turns):
                weights[0, i] = float(bust)
                for total, share in sums.items():
                    after = turn + total
                    column = after if rolls + 1 == ROLLS else gains + slot(rolls + 1, after)
                    weights[column, i] += float(share)
            actions.append((k, weights))
        levels.append((slots, stop, actions))
    return Turn(gains, SLOTS, levels)


def pig_turn(goal: int = 100) -> Turn:
    """Pig's turn on the same engine: one die, a 1 ends the turn with nothing, no limit on rolls
    (a turn total of ``goal`` or more has won, so the slots are totals 0 .. goal - 1)."""
    gains, slots = goal + 6, goal
    levels = []
    for turn in range(goal - 1, -1, -1):
        weights = np.zeros((gains + slots, 1))
        weights[0, 0] = 1 / 6
        for face in range(2, 7):
            after = turn + face
            weights[after if after >= goal else gains + after, 0] += 1 / 6
        levels.append((np.array([turn]), np.array([turn if turn else -1]), [(1, weights)]))
    return Turn(gains, slots, levels)


def play_turn(turn: Turn, payoff, policy=None):
    """(values at every column, actions at every slot, d value(root) / d payoff[:, 0]).

    ``payoff``: positions x gains. ``policy`` (positions x slots), when given, is followed instead of
    the best action. Values are the best action's; the action stored is the first within ``TIE`` of it."""
    count = len(payoff)
    values = np.zeros((count, turn.columns))
    slope = np.zeros((count, turn.columns))
    values[:, : turn.gains] = payoff
    slope[:, 0] = 1.0
    actions = np.zeros((count, turn.slots), dtype=np.uint8)
    for slots, stop, moves in turn.levels:
        codes = [0] + [code for code, _ in moves]
        allowed = stop >= 0
        stopping = np.where(allowed, values[:, np.maximum(stop, 0)], -np.inf)
        options = np.stack([stopping] + [values @ weights for _, weights in moves])
        slopes = np.stack([np.where(allowed, slope[:, np.maximum(stop, 0)], 0.0)]
                          + [slope @ weights for _, weights in moves])
        if policy is None:
            pick = np.argmax(options, axis=0)  # the values are the best actions' ...
            best = np.take_along_axis(options, pick[None], 0)[0]
            shown = np.argmax(options >= best - TIE, axis=0)  # ... the action shown the first of the equally good
        else:
            pick = shown = np.searchsorted(codes, policy[:, slots])
        columns = turn.gains + slots
        values[:, columns] = np.take_along_axis(options, pick[None], 0)[0]
        slope[:, columns] = np.take_along_axis(slopes, pick[None], 0)[0]
        actions[:, slots] = np.asarray(codes, dtype=np.uint8)[shown]
    return values, actions, slope[:, turn.gains + turn.root]


def solve_groups(turn: Turn, groups, payoff, constant: float, sign: float, size: int, start: float = 0.0,
                 policy=None):
    """Values at the start of a turn of every position (``size`` of them), group by group.

    ``groups``: [(positions, partners)] in solving order, ``partners[i]`` the index in ``positions``
    of position i's partner; ``payoff(positions, start_values)`` gives the gain payoffs (column 0 is
    overwritten with ``constant + sign * partner's value``); ``policy`` (every position x slots), when
    given, is evaluated instead of the best play."""
    starts = np.full(size, start)
    for positions, local in groups:
        gains = payoff(positions, starts)
        fixed = None if policy is None else policy[positions]
        x = starts[positions].copy()
        for _ in range(MAX_NEWTON):
            gains[:, 0] = constant + sign * x[local]
            values, _, slope = play_turn(turn, gains, fixed)
            alpha = values[:, turn.gains + turn.root] + slope * (constant - gains[:, 0])
            updated = (alpha + sign * slope * alpha[local]) / (1.0 - slope * slope[local])
            change = np.abs(updated - x).max()
            x = updated
            if change <= 1e-15 * max(1.0, np.abs(x).max()):
                break
        else:
            raise AssertionError("goat: policy iteration did not settle (change %.3g)" % change)
        gains[:, 0] = constant + sign * x[local]
        x = play_turn(turn, gains, fixed)[0][:, turn.gains + turn.root]  # one update more: float64's fixed point
        starts[positions] = x
    return starts


def sweep(turn: Turn, payoff, starts, partners, constant: float, sign: float):
    """One Bellman update of every position: (values at every column, actions, residual)."""
    positions = np.arange(len(starts))
    gains = payoff(positions, starts)
    gains[:, 0] = constant + sign * starts[partners]
    values, actions, _ = play_turn(turn, gains)
    residual = float(np.abs(values[:, turn.gains + turn.root] - starts).max())
    return values, actions, residual


def smallest_gap(turn: Turn, payoff, starts, partners, constant, sign):
    """The smallest difference between the best action and another that is not a tie (for the tie check)."""
    positions = np.arange(len(starts))
    gains = payoff(positions, starts)
    gains[:, 0] = constant + sign * starts[partners]
    values, _, _ = play_turn(turn, gains)
    gap = np.inf
    for slots, stop, moves in turn.levels:
        allowed = stop >= 0
        options = np.stack([np.where(allowed, values[:, np.maximum(stop, 0)], -np.inf)]
                           + [values @ weights for _, weights in moves])
        difference = options.max(axis=0) - options
        real = difference[(difference > TIE) & np.isfinite(difference)]
        if real.size:
            gap = min(gap, float(real.min()))
    return gap
