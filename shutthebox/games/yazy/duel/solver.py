"""Two-player yazy (build time; numpy): the mover's highest chance to win, both players playing to win.

A state is ``(A, B, d)`` at the start of the mover's turn: ``A`` the mover's open categories, ``B`` the
opponent's, ``d`` the mover's total minus the opponent's. The mover is first in the round (``|A| = |B|``)
or second (``|A| = |B| + 1``). When the mover scores ``p`` points in category ``c`` the roles swap:

    W(A, B, d)  = E_3 of the turn (engine/dicekeep_arrays.py) whose scoring values are
    V0(r)       = max over c in A of  1 - W(B, A - c, -(d + score(c, r)))
    W(0, 0, d)  = 1 if d > 0, 1/2 if d = 0, 0 if d < 0           (the game is over)

``W`` is 0 for ``d < -most(A)`` (the mover cannot catch up) and 1 for ``d > most(B)`` (the opponent
cannot), where ``most`` is the most a set of categories can score (a tie is still possible at the edges).
And no game reaches ``d > most(S - A)`` or ``d < -most(S - B)`` (S: the game's categories; the
mover's total is at most what the closed categories can score, the opponent's too). A row holds ``d``
from ``-min(most(A), most(S - B))`` to ``min(most(B), most(S - A))``: the leads a game reaches and whose
chance is not settled. A turn from a lead a game reaches leads only to leads games reach (the successor's
``-(d + p)`` is at least ``-most(S - A) - best(c)``), so the solver never reads a lead no row holds but
a settled one (0 below the row, 1 above), and the questions refuse totals the closed categories cannot make.

Layers: layer ``(a, b)`` holds the states with ``|A| = a``, ``|B| = b`` and reads only layer
``(b, a - 1)``, the one before it in (1, 0), (1, 1), (2, 1), (2, 2), ... A layer is cut into blocks that
read few blocks of the layer before: a first mover's layer (``a = b``) has a block per mover's set ``A``
(its rows ``(A, B)`` for every ``B``); a second mover's layer a block per opponent's set ``B`` (rows
``(A, B)`` for every ``A``). A first mover's block ``A`` then reads the blocks ``A - c``, a second mover's
block ``B`` the one block ``B``. The cut depends on the game only, never on the number of workers.

A block is one float64 array: ``first`` (R numbers), ``count`` (R numbers), then the rows' values, each
row trimmed: its ``count`` values are ``W`` at ``d = first, first + 1, ...``; below ``first`` W is 0,
from ``first + count`` on it is 1 (the values trimmed are exactly 0 or 1 as computed; nothing is lost).
Values within ``EPS`` of 0 or 1 are made 0 or 1 first, which trims the long tails of lost and won games.

Float64, elementwise in a fixed order (no BLAS: the same bytes on every machine). Chances lie in [0, 1],
so errors are counted absolutely (unit roundoff u = 2^-53): ``1 - x`` adds at most u/2; a maximum nothing;
a mean of six (five additions of partial sums at most 2, 3, ..., 6, then a division) at most 4.4 u; a
turn nests three keep trees of five levels of means, 66 u; making a value within ``EPS`` of 0 or 1 that
value, ``EPS``. A layer thus adds at most 67 u + EPS to the error of the layer before, and the 22 layers of
the full game stay within 22 * (67 u + 1e-15) = 1.9e-13 of the exact rationals; the table stores each
chance in 48-bit fixed point (build.py), at most 2^-48 = 3.6e-15 more: ``ERROR_BOUND = 2e-13``.
"""

from functools import lru_cache

import numpy as np

from ....engine.dicekeep_arrays import Tree, turn_start
from ..rules import CATEGORIES, ROLLS, score

SOLVER_VERSION = 1
EPS = 1e-15  # a chance this close to 0 or 1 is stored as 0 or 1 (within the error bound)
ERROR_BOUND = 2e-13  # absolute, for every category set (22 layers at most)
COLUMNS = 2048  # (row, d) columns solved at once: the turn's arrays take about 10 MB


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


class Plan:
    """The layers, blocks and rows of the game of the categories ``cats`` (a bitmask)."""

    def __init__(self, cats: int):
        self.cats = cats
        self.opened = [c for c in range(len(CATEGORIES)) if cats >> c & 1]
        self.points = np.array([[score(c, roll) for roll in ROLLS] for c in range(len(CATEGORIES))],
                               dtype=np.int64)
        best = [int(row.max()) for row in self.points]
        masks = [m for m in range(cats + 1) if m & ~cats == 0]
        self.most = {m: sum(best[c] for c in range(len(CATEGORIES)) if m >> c & 1) for m in masks}
        self.sizes = [[m for m in masks if _popcount(m) == k] for k in range(len(self.opened) + 1)]
        n = len(self.opened)
        self.layers = [layer for b in range(n) for layer in ((b + 1, b), (b + 1, b + 1))]

    def keys(self, a: int, b: int) -> list:
        """The block keys of layer ``(a, b)``: the mover's sets (first mover) or the opponent's (second)."""
        return self.sizes[a] if a == b else self.sizes[b]

    def rows(self, a: int, b: int, key: int) -> list:
        """The rows ``(A, B)`` of block ``key`` of layer ``(a, b)``, in order."""
        if a == b:
            return [(key, other) for other in self.sizes[b]]
        return [(mover, key) for mover in self.sizes[a]]

    def low(self, mover: int, other: int) -> int:
        """The lowest lead a row holds: below ``-most(mover)`` the mover has lost; below ``-most(closed
        categories of the opponent)`` no game goes."""
        return -min(self.most[mover], self.most[self.cats & ~other])

    def high(self, mover: int, other: int) -> int:
        """The highest lead a row holds: above ``most(other)`` the mover has won; above ``most(closed
        categories of the mover)`` no game goes."""
        return min(self.most[other], self.most[self.cats & ~mover])

    def successor_key(self, a: int, b: int, mover: int, other: int, c: int) -> int:
        """The block of layer ``(b, a - 1)`` holding the successor ``(other, mover - c)``."""
        return other if b == a - 1 else mover & ~(1 << c)


@lru_cache(maxsize=4)
def plan(cats: int) -> Plan:
    return Plan(cats)


@lru_cache(maxsize=1)
def tree() -> Tree:
    return Tree()


def job_layers(cats: int) -> tuple:
    """The layers' block keys, each ``(cats, a, b, key)``, in the order they are solved."""
    p = plan(cats)
    return tuple(tuple((cats, a, b, key) for key in p.keys(a, b)) for a, b in p.layers)


def split(block, count: int) -> tuple:
    """(first, count, values) of a block array of ``count`` rows."""
    return (block[:count].astype(np.int64), block[count:2 * count].astype(np.int64), block[2 * count:])


def solve_block(key: tuple, previous) -> np.ndarray:
    """The block ``key`` = ``(cats, a, b, block)``, from ``previous``, the blocks of the layer before (in
    their keys' order; None for the first layer, which reads the finished games)."""
    cats, a, b, block = key
    p = plan(cats)
    rows = p.rows(a, b, block)
    # The successors' rows, each padded with a 0 before and a 1 after (the chances beyond its ends), then a
    # last value 2 that a category not open points at (1 - 2 loses to every choice): {(mover, other):
    # (where its padded row starts, first, count)}.
    if previous is None:  # (0, 0, e): 1/2 at e = 0; 0 below, 1 above
        parts, where = [np.array([0.0, 0.5, 1.0])], {(0, 0): (0, 0, 1)}
    else:
        keys = p.keys(b, a - 1)
        position = {k: i for i, k in enumerate(keys)}
        needed = sorted({p.successor_key(a, b, mover, other, c)
                         for mover, other in rows for c in p.opened if mover >> c & 1})
        parts, where, at = [], {}, 0
        for k in needed:
            previous_rows = p.rows(b, a - 1, k)
            first, count, values = split(previous[position[k]], len(previous_rows))
            padded = padded_rows(count, values)
            starts = at + np.concatenate(([0], np.cumsum(count + 2)[:-1]))
            where.update(zip(previous_rows, zip(starts.tolist(), first.tolist(), count.tolist())))
            parts.append(padded)
            at += len(padded)
    flat = np.concatenate(parts + [np.array([2.0])])
    closed = len(flat) - 1

    # per row and category: the lowest and highest index into flat, and the index of lead 0 (all three the
    # last value 2 where the category is not open)
    low_index = np.full((len(rows), len(CATEGORIES)), closed, dtype=np.int64)
    high_index, zero_index = low_index.copy(), low_index.copy()
    for i, (mover, other) in enumerate(rows):
        for c in p.opened:
            if mover >> c & 1:
                start, first, count = where[(other, mover & ~(1 << c))]
                low_index[i, c], high_index[i, c], zero_index[i, c] = start, start + count + 1, start + 1 - first
    low = np.array([p.low(mover, other) for mover, other in rows], dtype=np.int64)
    length = np.array([p.high(mover, other) + 1 - p.low(mover, other) for mover, other in rows], dtype=np.int64)
    movers = np.array([mover for mover, _ in rows], dtype=np.int64)
    row_of = np.repeat(np.arange(len(rows)), length)
    offsets = np.concatenate(([0], np.cumsum(length)[:-1]))
    d_of = np.arange(len(row_of)) - offsets[row_of] + low[row_of]
    values = np.empty(len(row_of))
    tree_ = tree()
    for start in range(0, len(row_of), COLUMNS):
        columns = slice(start, start + COLUMNS)
        r, d = row_of[columns], d_of[columns]
        v0 = None
        union = int(np.bitwise_or.reduce(np.unique(movers[r])))
        for c in p.opened:
            if not union >> c & 1:
                continue
            # the successor's lead is -(d + points): its index, clipped to the padding
            index = (zero_index[r, c] - d)[None, :] - p.points[c][:, None]
            np.clip(index, low_index[r, c][None, :], high_index[r, c][None, :], out=index)
            chance = np.take(flat, index)
            np.subtract(1.0, chance, out=chance)
            v0 = chance if v0 is None else np.maximum(v0, chance, out=v0)
        values[columns] = turn_start(tree_, v0)
    values[values < EPS] = 0.0
    values[values > 1.0 - EPS] = 1.0
    return pack(values, offsets, length, low)


def padded_rows(count, values) -> np.ndarray:
    """The rows of ``values`` (``count`` values each, in order), each with a 0 before and a 1 after."""
    rows = len(count)
    out = np.empty(len(values) + 2 * rows)
    starts = np.concatenate(([0], np.cumsum(count + 2)[:-1])).astype(np.int64)
    out[starts] = 0.0
    out[starts + count + 1] = 1.0
    out[np.arange(len(values)) + 2 * np.repeat(np.arange(rows), count) + 1] = values
    return out


def pack(values, offsets, length, low) -> np.ndarray:
    """The block array of rows ``values[offsets[i]:offsets[i] + length[i]]`` (d from ``low[i]``), trimmed."""
    firsts, counts, kept = [], [], []
    for offset, size, d_low in zip(offsets.tolist(), length.tolist(), low.tolist()):
        row = values[offset:offset + size]
        nonzero, not_one = np.flatnonzero(row != 0.0), np.flatnonzero(row != 1.0)
        lo = int(nonzero[0]) if nonzero.size else size
        hi = int(not_one[-1]) if not_one.size else -1
        hi = max(hi, lo - 1)
        firsts.append(d_low + lo)
        counts.append(hi + 1 - lo)
        kept.append(row[lo:hi + 1])
    return np.concatenate([np.array(firsts, dtype=np.float64), np.array(counts, dtype=np.float64)] + kept)


def solve(cats: int, workers=None, progress=True, **options):
    """Every layer's blocks (``job_layers``' order), on the layered engine: ``workers`` and ``options``
    (a cluster's address, ``serial_seconds``, ``collect``: what to make of them instead, a block at a time,
    ...) are ``run_layers``'."""
    from ....engine.layers import Job, run_layers

    name = "yazy-duel-v%d-c%d" % (SOLVER_VERSION, cats)
    return run_layers(Job(name=name, layers=job_layers(cats), solve=solve_block), workers=workers,
                      progress=progress, **options)
