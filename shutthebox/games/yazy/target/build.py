"""yazy's target mode (build time; numpy): the highest chance that the points still to come reach X.

For a set of open categories ``m`` and a target ``x`` (the points still needed), let
``T(m, x)`` be the highest chance, at the start of a turn, that the scores still to
come add up to x or more. ``T(m, x) = 1`` for x <= 0, ``T(0, x) = 0`` for x > 0, and
with the turn's rolls as in the expected-score solver (docs/YAZY.md):

    V0(m, x, r) = max over open c of  T(m - c, x - score(c, r))
    VR(m, x, r) = max(V0(m, x, r), max over keeps K, proper sub-multisets of r, of E_R(m, x, K))
    E_R(m, x, K) = the mean of V(R-1)(m, x, K + the rolled dice)
    T(m, x)     = E_3(m, x, {})

The table stores T for every set and every x from 0 to ``MAX_TOTAL`` (280, the
most a game can score): the mid-turn values and the moves are computed from it
when asked (``turn.py``). Targets above the most the open categories can score
have chance 0 and are not solved. Sets are solved in layers of equal size, a chunk of
(set, x) rows at a time, each row over the 252 rolls and the 462 keeps; the best
proper sub-keep of every roll comes from the keep tree (``B(K) = max(E(K),
B(K - one of its dice))``), not from 31 candidates a roll (the turn over the keep
tree: ``engine/dicekeep_arrays.py``).

Float64 throughout, elementwise in a fixed order (no BLAS: the same bytes on every
machine). Every quantity is a chance, never negative, so errors are relative: a
maximum is exact (it keeps the largest relative error of its inputs), a mean of six
adds at most 6 units of rounding (u = 2^-53) to it, a turn nests three keep trees of
five means (90 u) and a game eleven turns: each value is within 990 u = 1.1e-13 of
itself, relatively, of the exact rational; ``ERROR_BOUND = 2e-13`` (relative). The
build fails if a stored value lies within its bound of a 6-decimal rounding midpoint
(none does; the closest, relative to its bound, is reported in the header;
``engine/printing.py``).
"""

import numpy as np

from ....engine.dicekeep_arrays import Tree, turn_start
from ....engine.printing import check_printing
from ....engine.progress import Progress
from ....engine.writer import encode, pack_array
from ..rules import ALL, CATEGORIES, FULL, ROLLS, score, subsets

GAME = "yazy-target"
SOLVER_VERSION = 1
MAX_TOTAL = 5 + 10 + 15 + 20 + 25 + 30 + 30 + 30 + 25 + 40 + 50  # 280: every category at its best
TARGETS = MAX_TOTAL + 1  # x = 0 .. 280
ERROR_BOUND = 2e-13  # relative to the value
TIE = 1e-11  # moves whose chances differ by less are tied (turn.py)
ROWS = 8192  # (set, x) rows solved at once: the arrays take about 0.1 GB


def scores() -> np.ndarray:
    return np.array([[score(c, roll) for roll in ROLLS] for c in range(len(CATEGORIES))], dtype=np.int64)


def solve(game: int = ALL, progress=None) -> np.ndarray:
    """T, (a row per subset of the categories ``game``, in increasing order: ``rules.subsets``; 281 targets),
    float64. For all eleven, the row is the set."""
    tree = Tree()
    points = scores()
    subs = np.array(subsets(game))
    sets, cats = len(subs), len(CATEGORIES)
    row = np.zeros(ALL + 1, dtype=np.int64)
    row[subs] = np.arange(sets)
    table = np.zeros((sets, TARGETS))
    table[:, 0] = 1.0  # nothing more needed
    popcount = np.array([bin(m).count("1") for m in range(ALL + 1)])
    best = points.max(axis=1)
    most = np.array([sum(int(best[c]) for c in range(cats) if m >> c & 1) for m in range(ALL + 1)])
    done = 0
    with Progress(sets - 1, "yazy target", unit="category sets", enabled=progress) as bar:
        for size in range(1, popcount[game] + 1):
            masks = subs[popcount[subs] == size]
            # x above the most the open categories can score: the chance is 0, as the table holds already
            rows_m = np.repeat(masks, most[masks])
            rows_x = np.concatenate([np.arange(1, most[m] + 1) for m in masks])
            for start in range(0, len(rows_m), ROWS):
                m, x = rows_m[start:start + ROWS], rows_x[start:start + ROWS]
                v0 = np.full((len(ROLLS), len(m)), -np.inf)  # a roll a row
                for c in range(cats):
                    open_ = np.flatnonzero(m >> c & 1)
                    if not open_.size:
                        continue
                    need = np.maximum(x[None, open_] - points[c][:, None], 0)
                    v0[:, open_] = np.maximum(v0[:, open_], table[row[m[open_] & ~(1 << c)][None, :], need])
                table[row[m], x] = turn_start(tree, v0)
            done += len(masks)
            bar.update(done)
    return table


def solve_table(rules=FULL) -> bytes:
    table = solve(rules.mask)
    if not ((table >= 0) & (table <= 1)).all():
        raise AssertionError("yazy target: a chance outside [0, 1]")
    closest = check_printing(table, table * ERROR_BOUND, "yazy target")
    arrays = {"target": pack_array(np.ascontiguousarray(table, dtype="<f8").tobytes(), "<f8", table.shape)}
    fields = {"error_bound": "%g" % ERROR_BOUND, "tie": "%g" % TIE, "midpoint_distance_over_bound": "%.3g" % closest}
    return encode(GAME, rules.as_dict(), arrays, generator="shutthebox yazy target solver %d" % SOLVER_VERSION, fields=fields)
