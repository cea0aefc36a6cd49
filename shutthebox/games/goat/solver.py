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

Reproducible bytes: an action's value is a weighted sum of columns (its
weights: whole counts over 6^k), computed by :func:`expect` one elementwise
product and sum at a time, in a fixed order (by column), then divided by the
denominator; never by a matrix product or a summing reduction (``@``,
``np.dot``, ``np.sum(axis=...)``), which leave the order of the additions to the
BLAS build and the CPU, and the table's last bits with them. So the table's
bytes are the same on every machine; ``tests/test_reproducible.py`` checks
the solvers' source for such calls.
"""

from fractions import Fraction
from math import lcm

import numpy as np

from .dice import THROWS as ROLL
from .rules import DICE, MAX_GAIN, ROLLS, SLOTS, slot

SOLVER_VERSION = 2  # 2: sums in a fixed order (the same bytes on every machine); 1: matrix products
RESIDUAL = 1e-12
TIE = 1e-11
MAX_NEWTON = 60
_MAX_DENOMINATOR = 6**6  # of a turn's weights (goat: 6^k for k dice; Pig: 6)


class Turn:
    """A turn's shape: ``gains`` payoff columns, then one column per slot; ``levels`` deepest first,
    each ``(slots, stop_gain, [(action, weights)])`` with ``weights`` (columns x slots) the chance of
    each column after the action; ``stop_gain[i]`` is -1 where stopping is not allowed. ``sums``:
    each level's actions as :func:`_sums` writes them for :func:`expect`."""

    def __init__(self, gains, slots, levels, root=0):
        self.gains, self.slots, self.levels, self.root = gains, slots, levels, root
        self.sums = [[_sums(weights) for _, weights in moves] for _, _, moves in levels]

    @property
    def columns(self):
        return self.gains + self.slots


def _sums(weights):
    """``weights`` (columns x slots) as ``(slots, denominator, terms)`` for :func:`expect`.

    An action's weights are chances with a small common denominator (6^k for k dice), so they are
    kept as whole counts over it: a product ``column * count`` is rounded once, the counts of a turn's
    chances (which add up to 1) add up exactly to the denominator, and rounding being monotone, a sum
    of values in [0, 1] stays in [0, 1] (a chance never comes out as -1e-16, which prints as -0.000000). ``terms[k]`` is every
    slot's k-th term ``(columns, count)``, a slot's terms in increasing column order: ``columns`` a
    slice where the slots read consecutive columns (or all the same one), else an index array;
    ``count`` a float where every slot's is the same, else a column of counts. A slot with fewer
    terms than another gets count 0 on column 0 for the rest."""
    width = weights.shape[1]
    rows = [np.flatnonzero(weights[:, i]) for i in range(width)]
    exact = [[Fraction(float(weights[j, i])).limit_denominator(_MAX_DENOMINATOR) for j in row]
             for i, row in enumerate(rows)]
    if any(float(w) != weights[j, i] for i, (row, ws) in enumerate(zip(rows, exact)) for j, w in zip(row, ws)):
        raise AssertionError("goat: a turn's weights are not fractions of denominator <= %d" % _MAX_DENOMINATOR)
    denominator = lcm(1, *(w.denominator for ws in exact for w in ws))
    terms = []
    for k in range(max((len(row) for row in rows), default=0)):
        columns = np.array([row[k] if k < len(row) else 0 for row in rows])
        counts = np.array([float(ws[k] * denominator) if k < len(ws) else 0.0 for ws in exact])
        first = int(columns[0])
        if (columns == first).all():
            where = slice(first, first + 1)  # the same column for every slot: broadcast
        elif (columns == first + np.arange(width)).all():
            where = slice(first, first + width)
        else:
            where = columns
        terms.append((where, float(counts[0]) if (counts == counts[0]).all() else counts[:, None]))
    return width, float(denominator), terms


def expect(columns, sums, out=None, scratch=None):
    """``weights.T @ columns`` for ``sums = _sums(weights)``; ``columns``: (..., columns, positions),
    the result (..., slots, positions). Every slot's products are added one at a time in its terms'
    order, then divided by the denominator, each step an elementwise float64 operation: the bytes
    are the same with every BLAS and CPU (no matrix product, no summing reduction)."""
    width, denominator, terms = sums
    if out is None:
        out = np.empty(columns.shape[:-2] + (width,) + columns.shape[-1:])
    if scratch is None or scratch.shape != out.shape:
        scratch = np.empty_like(out)
    (where, count), rest = terms[0], terms[1:]
    np.multiply(columns[..., where, :], count, out=out)
    for where, count in rest:
        np.multiply(columns[..., where, :], count, out=scratch)
        out += scratch
    out /= denominator
    return out


def _options(both, stop, sums):
    """Every action's values at a level's slots, (layers, 1 + actions, slots, positions) from
    ``both`` (layers, columns, positions): stopping first (layer 0: -inf where not allowed; the
    other layers, the slopes, 0), then each roll's."""
    layers, _, count = both.shape
    width = len(stop)
    options = np.empty((layers, 1 + len(sums), width, count))
    options[:, 0] = both[:, np.maximum(stop, 0)]
    refused = stop < 0
    if refused.any():
        options[0, 0, refused] = -np.inf
        options[1:, 0, refused] = 0.0
    scratch = np.empty((layers, width, count))
    for action, action_sums in enumerate(sums, 1):
        expect(both, action_sums, out=options[:, action], scratch=scratch)
    return options


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
    both = np.zeros((2, turn.columns, count))  # the values and their slopes, a column a row
    values, slope = both
    values[: turn.gains] = payoff.T
    slope[0] = 1.0
    actions = np.zeros((turn.slots, count), dtype=np.uint8)
    for (slots, stop, moves), sums in zip(turn.levels, turn.sums):
        codes = np.array([0] + [code for code, _ in moves], dtype=np.uint8)
        options = _options(both, stop, sums)
        if policy is None:
            pick = np.argmax(options[0], axis=0)  # the values are the best actions' ...
            best = np.take_along_axis(options[0], pick[None], 0)[0]
            shown = np.argmax(options[0] >= best - TIE, axis=0)  # ... the action shown the first tie
        else:
            pick = shown = np.searchsorted(codes, policy[:, slots].T)
        columns = turn.gains + slots
        values[columns] = np.take_along_axis(options[0], pick[None], 0)[0]
        slope[columns] = np.take_along_axis(options[1], pick[None], 0)[0]
        actions[slots] = codes[shown]
    return values.T, actions.T, slope[turn.gains + turn.root]


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
    for (slots, stop, moves), sums in zip(turn.levels, turn.sums):
        options = _options(np.ascontiguousarray(values.T)[None], stop, sums)[0]
        difference = options.max(axis=0) - options
        real = difference[(difference > TIE) & np.isfinite(difference)]
        if real.size:
            gap = min(gap, float(real.min()))
    return gap
