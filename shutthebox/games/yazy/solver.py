"""Solving yazy (build time only; numpy): the keep-multiset dynamic program over the 2**11 category sets.

For a set of open categories ``m`` let ``T(m)`` be the maximum expected sum of
the scores still to come at the start of a turn (``T(0) = 0``), and for a
sorted roll ``r`` with ``R`` rerolls left

    V0(m, r) = max over open c of  score(c, r) + T(m - c)
    VR(m, r) = max(V0(m, r), max over keeps K, proper sub-multisets of r, of E_R(m, K))
    E_R(m, K) = the mean of V(R-1)(m, K + the rolled dice)
    T(m)     = E_3(m, {})

Keeping all five dice with rerolls left comes to scoring now (one may keep them
again), so it is the ``V0`` term. ``E`` is computed one die at a time, over the
462 keeps: ``E(K) = (E(K + 1) + ... + E(K + 6)) / 6``, ``E(K) = V(K)`` for five
dice (the keep tree: ``engine/dicekeep_arrays.py``). Sets are solved in layers of
equal size, each layer vectorised.

Exactness: every value is a double-double (a float64 pair hi + lo, about 106
bits), so the value stored, hi, is the float64 nearest the exact one up to an
error below ``ERROR_BOUND``; ties are told apart from real differences
(``TIE``, far above that error and far below the smallest real gap, both
checked) and broken by a fixed order (docs/YAZY.md): score before keeping;
categories in the order of ``CATEGORIES``; keeps with more dice first, then the
lexicographically smallest. All operations are elementwise in a fixed order (no
BLAS), so the bytes do not depend on the machine.
"""

import numpy as np

from ...engine.dicekeep_arrays import Tree, keep_means
from .rules import ALL, CATEGORIES, NO_MOVE, ROLLS, SCORE, score, subsets

SOLVER_VERSION = 1
TIE = 1e-12
ERROR_BOUND = 1e-20  # of the double-double values, far above their actual ~1e-27
_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's split into two 26-bit halves


class Solution:
    """Of each set m (its row: ``solve``), ``turn`` T(m); ``expect[m, R, r]`` VR(m, r) (0 for m = 0); ``move[m, R, r]`` the chosen move
    (rules.py's codes); ``*_lo`` the double-double low parts; ``smallest_gap`` the smallest difference
    between an action's value and the best that is not a tie, ``largest_tie`` the largest that is."""

    def __init__(self, turn, turn_lo, expect, expect_lo, move, smallest_gap, largest_tie):
        self.turn, self.turn_lo, self.expect, self.expect_lo, self.move = turn, turn_lo, expect, expect_lo, move
        self.smallest_gap, self.largest_tie = smallest_gap, largest_tie


# -- double-double arithmetic on numpy arrays (values are never negative) -----------------

def _quick(s, e):
    hi = s + e
    return hi, e - (hi - s)


def _add(ah, al, bh, bl):
    s = ah + bh
    bv = s - ah
    e = (ah - (s - bv)) + (bh - bv)
    return _quick(s, e + (al + bl))


def _div6(h, l):
    q = h / 6.0
    t = _SPLIT * q
    q1 = t - (t - q)  # q = q1 + q2 exactly, each short enough that q1 * 6 and q2 * 6 are exact
    p = q * 6.0
    err = (q1 * 6.0 - p) + (q - q1) * 6.0  # q * 6 = p + err exactly (Dekker)
    return _quick(q, (((h - p) - err) + l) / 6.0)


def _max(h, l, axis):
    best = h.max(axis=axis)
    low = np.where(h == np.expand_dims(best, axis), l, -np.inf).max(axis=axis)
    return best, low


# -- the keeps' move codes and means ------------------------------------------------------

def move_codes(tree: Tree):
    """(252, 31): the move code of each proper sub-keep of each roll, in ``tree.proper``'s order (0 padded)."""
    codes = np.zeros(tree.proper.shape, dtype=np.uint8)
    for r, (roll, subs) in enumerate(zip(ROLLS, tree.subs)):
        codes[r, :len(subs)] = [positions(roll, keep) for keep in subs]
    return codes


def positions(roll, kept) -> int:
    """The move code keeping the dice ``kept`` of the sorted ``roll``: of each face, its first dice."""
    left = list(kept)
    bits = 0
    for position, die in enumerate(roll):
        if die in left:
            left.remove(die)
            bits |= 1 << position
    return bits


def _mean6(parts):
    """The mean of six double-doubles (each a (2, ...) array: hi, lo), added in their order."""
    sh, sl = next(parts)
    for part_h, part_l in parts:
        sh, sl = _add(sh, sl, part_h, part_l)
    return np.stack(_div6(sh, sl))


def _means(tree: Tree, hi, lo):
    """E over every keep, from the values (M, 252) of the rolls: (2, M, 462) hi and lo, keeps numbered as in
    ``tree``."""
    return np.concatenate(keep_means(tree, np.stack([hi, lo]), _mean6, axis=-1), axis=-1)


class _Gaps:
    """The smallest real gap and the largest tie seen between an action and the best."""

    def __init__(self):
        self.smallest, self.largest = np.inf, 0.0

    def see(self, gaps):
        gaps = gaps[np.isfinite(gaps)]
        real = gaps[gaps > TIE]
        tied = gaps[gaps <= TIE]
        if real.size:
            self.smallest = min(self.smallest, float(real.min()))
        if tied.size:
            self.largest = max(self.largest, float(np.abs(tied).max()))


def solve(game: int = ALL) -> Solution:
    """The game of the categories ``game`` (a bitmask): one row of the arrays for each of its subsets, in
    increasing order (``rules.subsets``; for all eleven, the row is the set). A set's values depend on its
    subsets only, each computed alike whatever else is solved: a subset game's rows are the full game's."""
    tree = Tree()
    codes = move_codes(tree)
    subs = np.array(subsets(game))
    rolls, sets, cats = len(ROLLS), len(subs), len(CATEGORIES)
    row = np.zeros(ALL + 1, dtype=np.int64)
    row[subs] = np.arange(sets)
    scores = np.array([[score(c, roll) for roll in ROLLS] for c in range(cats)], dtype=np.float64)
    turn, turn_lo = np.zeros(sets), np.zeros(sets)
    expect, expect_lo = np.zeros((sets, 3, rolls)), np.zeros((sets, 3, rolls))
    move = np.full((sets, 3, rolls), NO_MOVE, dtype=np.uint8)
    gaps = _Gaps()
    popcount = np.array([bin(m).count("1") for m in subs])
    for size in range(1, popcount.max() + 1):
        masks = subs[popcount == size]
        rows = row[masks]
        count = len(masks)
        # V0: score an open category
        cand_h = np.full((count, cats, rolls), -np.inf)
        cand_l = np.zeros((count, cats, rolls))
        for c in range(cats):
            open_ = masks >> c & 1 == 1
            rest = masks[open_] & ~(1 << c)
            h, l = _add(np.broadcast_to(scores[c], (open_.sum(), rolls)), 0.0, turn[row[rest]][:, None],
                        turn_lo[row[rest]][:, None])
            cand_h[open_, c], cand_l[open_, c] = h, l
        vh, vl = _max(cand_h, cand_l, 1)
        gap = (vh[:, None] - cand_h) + (vl[:, None] - cand_l)
        gaps.see(gap)
        chosen = np.argmax(gap <= TIE, axis=1)
        move[rows, 0] = SCORE + chosen
        expect[rows, 0], expect_lo[rows, 0] = vh, vl
        scoring = move[rows, 0]
        v0h, v0l = vh, vl
        # V1, V2: score now or keep some dice and roll the rest
        for rerolls in (1, 2):
            eh, el = _means(tree, vh, vl)
            eh = np.concatenate([eh, np.full((count, 1), -np.inf)], axis=1)
            el = np.concatenate([el, np.zeros((count, 1))], axis=1)
            kh, kl = eh[:, tree.proper], el[:, tree.proper]  # (count, rolls, 31)
            bh, bl = _max(kh, kl, 2)
            vh, vl = _max(np.stack([v0h, bh]), np.stack([v0l, bl]), 0)
            score_gap = (vh - v0h) + (vl - v0l)
            keep_gap = (vh[..., None] - kh) + (vl[..., None] - kl)
            gaps.see(score_gap)
            gaps.see(keep_gap)
            first = np.argmax(keep_gap <= TIE, axis=2)
            keep_code = codes[np.arange(rolls)[None, :], first]
            move[rows, rerolls] = np.where(score_gap <= TIE, scoring, keep_code)
            expect[rows, rerolls], expect_lo[rows, rerolls] = vh, vl
        th, tl = _means(tree, vh, vl)
        turn[rows], turn_lo[rows] = th[:, 0], tl[:, 0]
    if not gaps.largest < TIE / 1000 or not gaps.smallest > TIE * 1000:
        raise AssertionError("yazy: ties are not clear (largest tie %.3g, smallest real gap %.3g, tie %g)"
                             % (gaps.largest, gaps.smallest, TIE))
    return Solution(turn, turn_lo, expect, expect_lo, move, gaps.smallest, gaps.largest)
