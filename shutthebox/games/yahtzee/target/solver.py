"""Yahtzee's target mode (build time; numpy): T(s, x), the highest chance at the start of a turn, in the
turn-start state ``s``, that the points still to come (bonuses included) reach ``x``.

``T(s, x) = 1`` for x <= 0, ``T(s, x) = 0`` for x > 0 once no box is open, and with the
turn of the expected-score solver (``../solver.py``), points replaced by the target:

    V0(s, x, r) = max over the boxes c roll r may go in of  T(s after c, x - points(s, c, r))
    VR(s, x, r) = max(V0(s, x, r), max over proper sub-keeps K of r of the mean of V(R-1)(s, x, K + dice))
    T(s, x)     = E_3(s, x, {})

``points`` holds the box's score, the upper bonus earned by it and the Yahtzee bonus;
on a Yahtzee with the yahtzee box filled the joker rule says where it may go
(``rules.joker_choices``).

What is stored, and why (docs/YAHTZEE.md, "Reach a score"):
- for each state, x = 1 .. n(s) only: T is non-increasing in x, and n(s) is the last x
  with T(s, x) >= ``CUT`` (2^-50, 8.9e-16). Every x beyond has T < CUT (it is 0 beyond the
  most the state can still score): it prints 0.000000, and a turn reading it as 0 errs by
  less than CUT. ``CUT`` far below a printed digit, not at 5e-7, because the values a
  state stores feed the states before it and every mid-turn answer: a cut at what
  prints 0 would move their digits.
- which x to try: ``T(s, x) <= max over c of T(s after c, x - most(c))``, so rows beyond
  ``max over c of n(s after c) + most(c)`` (``most(c)``: the most box c can add now, bonuses
  included) are below CUT without being solved;
- which states: those reachable from the start state, layer by layer (the number of open
  boxes; layer k reads layer k-1 only), but one for all the states that differ only in an
  upper total from which the upper bonus can no longer be reached (the total changes
  nothing there): from the full card, 359,616 of the 536,448 (``game_of``), and 210 million
  rows at most (the sum of the most each can still score) instead of 290 million.
- float64 chances, elementwise in a fixed order (no BLAS: the same bytes everywhere).

The error bound. Every quantity is a chance, never negative: a maximum adds no error,
a mean of six adds at most 6 rounding units (u = 2^-53) relatively, a turn nests three
keep trees of five means (90 u) and a game at most 13 turns (1170 u = 1.3e-13,
relatively); each cut adds less than CUT absolutely, at most 13 times (1.2e-14). So a
stored value v is within ``ERROR_BOUND * v + ABSOLUTE_BOUND`` of the exact one, and so
is a mid-turn value computed from the table (``turn.py``: the same operations in the
same order). The build lists the stored values that lie within their bound of a
6-decimal rounding midpoint (``unsure``: refused when asked, never printed).
"""

import numpy as np

from ....engine.dicekeep_arrays import Tree, turn_start
from ..rules import (
    DICE, FIFTY, OPEN, ROLLS, SIDES, SIXES, UPPER, UPPER_GOAL, YAHTZEE, ZERO, has_bonus, joker_choices, reach,
    sheet, yahtzee_bonus,
)
from ..solver import States, points_table

SOLVER_VERSION = 1
CUT = 2.0 ** -50
ERROR_BOUND = 2e-13  # relative
ABSOLUTE_BOUND = 2e-14  # 13 cuts
TIE = 1e-11  # moves whose chances differ by less are tied (turn.py)
BLOCK = 4096  # states a block (a task); fixed, so the bytes never depend on the workers
COLUMNS = 1024  # (state, x) rows a turn is solved for at once: the arrays stay in the cache


# -- the states of a game from a start ----------------------------------------------------

_STATES: dict = {}


def states_of(joker: str) -> States:
    found = _STATES.get(joker)
    if found is None:
        found = _STATES[joker] = States(joker)
    return found


_GAMES: dict = {}


def game_of(joker: str, start: tuple) -> tuple:
    """(layers, canon) of the game from ``start`` (card, upper total, yahtzee box): ``layers[k]`` the sorted
    numbers of the states solved with k boxes open; ``canon[s]`` the state whose values stand for the
    reached state s (itself, or -1 for a state not reached). Once the upper bonus can no longer be reached,
    the upper total changes nothing: those states share the values of the one of least total."""
    key = (joker, tuple(start))
    found = _GAMES.get(key)
    if found is None:
        found = _GAMES[key] = _game(joker, *start)
    return found


def _game(joker: str, card: int, upper: int, box: int) -> tuple:
    st = states_of(joker)
    found = st.sheet
    upper_open = card & UPPER
    sets = reach()
    # ok[U, t]: the capped total t is reached from ``upper`` once the upper boxes U (of the open ones) stay open
    ok = np.zeros((64, UPPER_GOAL + 1), dtype=bool)
    for still in range(64):
        if still & ~upper_open:
            continue
        totals = sets[upper_open & ~still]
        for t in range(totals.bit_length()):
            if totals >> t & 1:
                ok[still, min(upper + t, UPPER_GOAL)] = True
    reached = ok[st.upper, st.total] & ((st.lower & ~found.lower_mask(card)) == 0)
    if found.yahtzee is None or not card >> YAHTZEE & 1:
        reached &= st.box == box  # else every state of the box follows the open yahtzee box
    most_upper = np.array([sum(5 * (j + 1) for j in range(6) if u >> j & 1) for u in range(64)])
    dead = reached & (st.total + most_upper[st.upper] < UPPER_GOAL)
    canon = np.where(reached, np.arange(len(reached)), -1)
    ids = np.flatnonzero(dead)
    group = (st.box[ids] * 64 + st.lower[ids]) * 64 + st.upper[ids]
    order = np.lexsort((st.total[ids], group))  # by group, least total first
    first = np.ones(len(ids), dtype=bool)
    first[1:] = group[order][1:] != group[order][:-1]
    representative = ids[order][np.maximum.accumulate(np.where(first, np.arange(len(ids)), 0))]
    canon[ids[order]] = representative
    solved = reached & (canon == np.arange(len(reached)))
    count = bin(card).count("1")
    return [np.flatnonzero(solved & (st.open == k)) for k in range(count + 1)], canon


def layers_of(joker: str, start: tuple) -> list:
    """The sorted numbers of the states solved for the game from ``start``, by the number of open boxes."""
    return game_of(joker, start)[0]


def most_of(joker: str) -> np.ndarray:
    """(boxes,) the most each box can score (jokers included; the bonuses are added where they can be paid)."""
    return np.array(sheet(joker).most, dtype=np.int64)


# -- a layer: the values of its states ----------------------------------------------------------

class Layer:
    """The solved values of a layer's states (``ids``, sorted state numbers), read where they are, in the
    layer's blocks (a copy would double the build's memory): state i's segment ``[1, T(1), ..., T(n_i), 0]``
    starts at ``seg[i]`` of block ``i // BLOCK``, so that ``block[seg + clip(x, 0, n + 1)]`` is T(x) for any x."""

    def __init__(self, ids, blocks):
        """``blocks``: the layer's block arrays, each [n of its states] then their segments."""
        self.ids, self.blocks = ids, blocks
        counts = [len(ids[b * BLOCK:(b + 1) * BLOCK]) for b in range(len(blocks))]
        self.n = np.concatenate([block[:count].astype(np.int64) for block, count in zip(blocks, counts)])
        self.seg = np.zeros(len(ids), dtype=np.int64)
        for b, count in enumerate(counts):
            seg = self.seg[b * BLOCK:b * BLOCK + count]
            np.cumsum(self.n[b * BLOCK:b * BLOCK + count - 1] + 2, out=seg[1:])
            seg += count  # the block's segments follow its n

    def position(self, state: int) -> int:
        return int(np.searchsorted(self.ids, state))

    def row(self, state: int, x, less: int = 0) -> np.ndarray:
        """T(state, x - less) for the int64 array ``x``."""
        i = self.position(state)
        at = x - less
        np.maximum(at, 0, out=at)
        np.minimum(at, self.n[i] + 1, out=at)
        at += self.seg[i]
        return self.blocks[i // BLOCK][at]


def layer_zero(ids) -> np.ndarray:
    """A block of states with no box open: n = 0, T = [1, 0]."""
    return np.concatenate([np.zeros(len(ids)), np.tile([1.0, 0.0], len(ids))])


class Solver:
    """The turns of one layer's states, from the layer before (``previous``, a Layer)."""

    def __init__(self, joker: str, previous: Layer, canon):
        self.joker, self.previous, self.canon = joker, previous, canon
        self.st = st = states_of(joker)
        self.sheet = st.sheet
        self.points = points_table(st.sheet)
        self.counts = np.array([[roll.count(face) for roll in ROLLS] for face in range(1, SIDES + 1)])
        self.yahtzee_rows = [ROLLS.index((face,) * DICE) for face in range(1, SIDES + 1)]
        self.most = most_of(joker)
        self.tree = Tree()
        self.rows = 0  # (state, x) rows solved, for the build's figures
        # each lower box: its distinct scores and which a roll has
        self.distinct = {}
        for c in range(SIXES + 1, len(st.sheet.categories)):
            values, inverse = np.unique(self.points[c], return_inverse=True)
            self.distinct[c] = (values, inverse)

    def attributes(self, state: int):
        st = self.st
        return int(st.upper[state]), int(st.total[state]), int(st.lower[state]), int(st.box[state])

    def after(self, state_attrs, c: int, points: int) -> tuple:
        """(the state after scoring ``points`` in box ``c``, the upper bonus earned)."""
        upper, total, lower, box = state_attrs
        st = self.st
        if c <= SIXES:
            bonus = self.sheet.upper_bonus if total < UPPER_GOAL <= total + points else 0
            return int(self.canon[st.index(upper & ~(1 << c), min(total + points, UPPER_GOAL), lower, box)]), bonus
        if c == self.sheet.yahtzee:
            return int(self.canon[st.index(upper, total, lower, FIFTY if points else ZERO)]), 0
        bit = self.sheet.lower.index(c)
        return int(self.canon[st.index(upper, total, lower & ~(1 << bit), box)]), 0

    def card(self, state_attrs) -> int:
        upper, _, lower, box = state_attrs
        return self.sheet.card_of(lower, upper, box)

    def bound(self, state_attrs) -> int:
        """The largest x worth solving: beyond it T < CUT (the module's docstring)."""
        card = self.card(state_attrs)
        _, total, _, box = state_attrs
        prev = self.previous
        yahtzee_bonus_now = 100 if box == FIFTY and has_bonus(self.joker) else 0
        top = 0
        for c in range(len(self.sheet.categories)):
            if not card >> c & 1:
                continue
            gain = int(self.most[c]) + yahtzee_bonus_now
            if c <= SIXES and total < UPPER_GOAL <= total + 5 * (c + 1):
                gain += self.sheet.upper_bonus
            outcomes = range(DICE + 1) if c <= SIXES else (0, 1) if c == self.sheet.yahtzee else (0,)
            for k in outcomes:
                points = (c + 1) * k if c <= SIXES else 50 * k
                after, _ = self.after(state_attrs, c, points)
                top = max(top, int(prev.n[prev.position(after)]) + gain)
        return top

    def v0(self, state: int, width: int, out=None) -> np.ndarray:
        """(252, width): V0 for x = 1 .. width (in ``out`` when given)."""
        attrs = self.attributes(state)
        card = self.card(attrs)
        prev = self.previous
        x = np.arange(1, width + 1, dtype=np.int64)
        if out is None:
            v0 = np.zeros((len(ROLLS), width))
        else:
            v0 = out
            v0.fill(0.0)
        for c in range(len(self.sheet.categories)):
            if not card >> c & 1:
                continue
            if c <= SIXES:
                rows = []
                for k in range(DICE + 1):
                    after, bonus = self.after(attrs, c, (c + 1) * k)
                    rows.append(prev.row(after, x, (c + 1) * k + bonus))
                np.maximum(v0, np.array(rows)[self.counts[c]], out=v0)
            elif c == self.sheet.yahtzee:
                zero, _ = self.after(attrs, c, 0)
                fifty, _ = self.after(attrs, c, 50)
                rows = np.array([prev.row(zero, x), prev.row(fifty, x, 50)])
                np.maximum(v0, rows[(self.points[c] > 0).astype(np.int64)], out=v0)
            else:
                after, _ = self.after(attrs, c, 0)
                values, inverse = self.distinct[c]
                rows = np.array([prev.row(after, x, int(p)) for p in values])
                np.maximum(v0, rows[inverse], out=v0)
        box = attrs[3]
        if box != OPEN and has_bonus(self.joker):  # a Yahtzee on a filled yahtzee box: the joker rule
            for face in range(1, SIDES + 1):
                roll = (face,) * DICE
                extra = yahtzee_bonus(self.joker, box, roll)
                best = np.zeros(width)
                for c, points in joker_choices(self.joker, card, box, face):
                    after, bonus = self.after(attrs, c, points)
                    np.maximum(best, prev.row(after, x, points + bonus + extra), out=best)
                v0[self.yahtzee_rows[face - 1]] = best
        return v0

    def solve(self, ids) -> np.ndarray:
        """The block of the states ``ids``: [n of each state] then each state's segment [1, T(1..n), 0]."""
        values = [None] * len(ids)
        buffer = np.empty((len(ROLLS), COLUMNS))  # the V0 of several states side by side
        pending, columns = [], 0

        def flush():
            nonlocal pending, columns
            if pending:
                t = turn_start(self.tree, buffer[:, :columns])
                for i, at, width in pending:
                    values[i] = t[at:at + width]
            pending, columns = [], 0

        for i, s in enumerate(ids):
            width = self.bound(self.attributes(int(s)))
            self.rows += width
            if width > COLUMNS:  # a wide state alone, COLUMNS rows at a time
                v = self.v0(int(s), width)
                values[i] = np.concatenate([turn_start(self.tree, v[:, at:at + COLUMNS])
                                            for at in range(0, width, COLUMNS)])
                continue
            if columns + width > COLUMNS:
                flush()
            self.v0(int(s), width, out=buffer[:, columns:columns + width])
            pending.append((i, columns, width))
            columns += width
        flush()
        n = np.zeros(len(ids))
        segments = []
        for i, t in enumerate(values):
            kept = int(np.count_nonzero(t >= CUT))
            if kept and not (t[:kept] >= CUT).all():
                raise AssertionError("yahtzee target: T not non-increasing in x")
            n[i] = kept
            segments.append(np.concatenate([[1.0], t[:kept], [0.0]]))
        return np.concatenate([n] + segments)


# -- the layered build: blocks of states are the tasks ------------------------------------------

_SOLVERS: dict = {}  # (joker, start, layer) -> the Solver of that layer, in this process


def block_keys(joker: str, start: tuple) -> tuple:
    """The job's layers: for each number of open boxes, its blocks' keys (joker, start, layer, block)."""
    return tuple(tuple((joker, start, k, b) for b in range(-(-len(ids) // BLOCK)))
                 for k, ids in enumerate(layers_of(joker, start)))


def solve_block(key, previous) -> np.ndarray:
    """One block (a task): [n of each state] then each state's segment, from the previous layer's blocks."""
    joker, start, k, b = key
    layers = layers_of(joker, start)
    ids = layers[k][b * BLOCK:(b + 1) * BLOCK]
    if k == 0:
        return layer_zero(ids)
    solver = _SOLVERS.get((joker, start, k))
    if solver is None:
        _SOLVERS.clear()  # one layer's solver at a time: the layer before is the memory
        solver = _SOLVERS[(joker, start, k)] = Solver(joker, Layer(layers[k - 1], tuple(previous)),
                                                      game_of(joker, start)[1])
    return solver.solve(ids)


def job(joker: str, start: tuple):
    """The layered build of the game from ``start`` (engine/layers.py): its name, its blocks, solve_block."""
    from ....engine.layers import Job

    return Job("yahtzee-target-v%d-%s-c%d-u%d-b%d" % ((SOLVER_VERSION, joker) + tuple(start)),
               layers=block_keys(joker, start), solve=solve_block)


def solve(joker: str, start: tuple, take, progress=None, workers=None, cluster=None, **options):
    """Solve the game from ``start`` layer after layer; then ``take(ids, blocks)`` makes the table: ``ids`` the
    states solved (state numbers, layer after layer; ``game_of``'s ``canon`` maps the others to them),
    ``blocks`` yields, a block at a time, (n, values): the number of stored targets of each of its states and
    their T(1..n) one state after another. What ``take`` returns is returned. ``workers``, ``cluster``: where
    the blocks run (engine/layers.py: this process, this machine's cores, or a Dask cluster); the same bytes.
    ``options`` (``checkpoint``, ``serial_seconds``) are ``run_layers``'. The layers are read back from their
    checkpoint a block at a time: the full game's, 1.7 GB, are never in memory together."""
    from ....engine.layers import run_layers

    layers = layers_of(joker, start)

    def blocks(finished):
        _SOLVERS.clear()  # the last layer's solver and the layer it read
        for k in range(len(finished)):
            for b, block in enumerate(finished.blocks(k)):
                count = len(layers[k][b * BLOCK:(b + 1) * BLOCK])
                n = block[:count].astype(np.int64)
                flat = block[count:]
                starts = np.zeros(count, dtype=np.int64)
                np.cumsum(n[:-1] + 2, out=starts[1:])
                keep = np.ones(len(flat), dtype=bool)
                keep[starts] = False  # each segment's leading 1
                keep[starts + n + 1] = False  # and trailing 0
                yield n, flat[keep]

    return run_layers(job(joker, start), workers=workers, cluster=cluster, progress=bool(progress),
                      collect=lambda finished: take(np.concatenate(layers), blocks(finished)), **options)
