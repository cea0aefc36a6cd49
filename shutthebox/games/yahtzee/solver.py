"""Solving full Yahtzee (build time only; numpy): a turn-start value for each of the 536,448 states.

A turn-start state ``s`` is the open boxes, the upper total capped at 63 and what
the yahtzee box holds (open, 0 or 50); ``T(s)`` is the maximum expected sum of
the points still to come, bonuses included. For a sorted roll ``r``:

    V0(s, r) = max over the boxes c the roll may go in of  points(s, c, r) + T(s after c)
    VR(s, r) = max(V0(s, r), max over keeps K, proper sub-multisets of r, of E_R(s, K))   R = 1, 2
    E_R(s, K) = the mean of V(R-1)(s, K + the rolled dice),  one die at a time over the keep tree:
                E(K) = (E(K + 1) + ... + E(K + 6)) / 6,  E(K) = V(R-1)(K) for five dice
    T(s)     = E_3(s, {})

``points`` holds the box's score, the upper bonus when it is earned by this move, and
the Yahtzee bonus; on a Yahtzee roll with the yahtzee box filled the joker rule
decides where it may go (rules.joker_choices). States are solved in layers of
equal numbers of open boxes (a state needs only states with one box fewer), each
layer in chunks vectorised over states, the 252 rolls and the 462 keeps (the turn
over the keep tree: ``engine/dicekeep_arrays.py``).

Exactness: values are integers in units of ``2**-SCALE_BITS`` (numpy int64). Sums,
maxima and the points are exact; each division by 6 is rounded to the nearest
unit (error at most 1/2 unit), so a value is within ``7.5 * k`` units of the exact
rational for a state with ``k`` boxes open (15 divisions per turn, errors averaged,
never amplified); see ``error_bound``. Integer arithmetic is the same on every
machine, and the build checks that no sum can overflow.
"""

import numpy as np

from ...engine.dicekeep_arrays import Tree, turn_start
from .rules import (
    DICE, FIFTY, FULL_HOUSE, LARGE, OPEN, SIDES, SIXES, SMALL, ROLLS, UPPER_GOAL, YAHTZEE_BONUS, ZERO, has_bonus,
    pairs, reach, sheet,
)

SOLVER_VERSION = 1
SCALE_BITS = 51
UNIT = 2.0 ** -SCALE_BITS
ERROR_UNITS_PER_TURN = 7.5  # three keep trees of five halvings-at-most each
_NEG = -(1 << 62)  # a box that is not open


def error_bound(open_boxes: int) -> float:
    """The largest distance, in points, of a solved value from the exact one, ``open_boxes`` boxes open."""
    return ERROR_UNITS_PER_TURN * open_boxes * UNIT


def _mean(parts):
    """The mean of six int64 arrays of units, to the nearest unit (halves up): integer sums, exact."""
    total = next(parts)
    for part in parts:
        total += part
    total += 3
    total //= 6
    return total


# -- states ----------------------------------------------------------------------------------

class States:
    """The attributes of every state number of a rule set's table (docs/FORMAT.md): upper-open mask, capped upper
    total, the other lower boxes' open bits, the yahtzee box; and ``index(...)``, the number of a state."""

    def __init__(self, rules: str = "official"):
        self.sheet = found = sheet(rules)
        sets = reach()
        self.pairs = pairs()
        self.bits = len(found.lower)
        base, rank = np.zeros(64, dtype=np.int64), np.full((64, UPPER_GOAL + 1), -1, dtype=np.int64)
        pair_upper, pair_total = [], []
        for upper_open in range(64):
            base[upper_open] = len(pair_upper)
            totals = sets[63 & ~upper_open]
            capped = sorted({min(t, UPPER_GOAL) for t in range(totals.bit_length()) if totals >> t & 1})
            for number, total in enumerate(capped):
                rank[upper_open, total] = number
                pair_upper.append(upper_open)
                pair_total.append(total)
        self.base, self.rank = base, rank
        count = found.states()
        number = np.arange(count, dtype=np.int64)
        pair = number % self.pairs
        self.upper = np.array(pair_upper, dtype=np.int64)[pair]
        self.total = np.array(pair_total, dtype=np.int64)[pair]
        self.lower = number // self.pairs % (1 << self.bits)
        self.box = number // ((1 << self.bits) * self.pairs)
        popcount = np.array([bin(m).count("1") for m in range(1 << max(self.bits, 6))])
        self.open = popcount[self.upper] + popcount[self.lower]
        if found.yahtzee is not None:
            self.open = self.open + (self.box == OPEN)

    def index(self, upper, total, lower, box):
        return ((box << self.bits) + lower) * self.pairs + self.base[upper] + self.rank[upper, total]


def points_table(found):
    """(boxes, 252) the printed score of each box of the sheet ``found`` for each roll."""
    return np.array([[found.score(c, roll) for roll in ROLLS] for c in range(len(found.categories))], dtype=np.int64)


def solve(joker: str, progress=None, chunk: int = 512):
    """The turn-start values of every state of the rule set ``joker``, int64 in units of ``2**-SCALE_BITS``:
    (values, largest)."""
    tree = Tree()
    st = States(joker)
    points = points_table(st.sheet)
    counts = np.array([[roll.count(face) for roll in ROLLS] for face in range(1, SIDES + 1)])
    yahtzee_rows = [ROLLS.index((face,) * DICE) for face in range(1, SIDES + 1)]
    values = np.zeros(st.sheet.states(), dtype=np.int64)
    one = np.int64(1) << SCALE_BITS
    largest = 0
    done = 0
    order = np.argsort(st.open, kind="stable")
    layer_of = st.open[order]
    for layer in range(1, len(st.sheet.categories) + 1):
        members = order[layer_of == layer]
        for start in range(0, len(members), chunk):
            ids = members[start:start + chunk]
            upper, total, lower, box = st.upper[ids], st.total[ids], st.lower[ids], st.box[ids]
            best = options(joker, st, values, upper, total, lower, box, points, counts, yahtzee_rows, one)[0]
            top = int(best.max())
            if top * 6 >= 1 << 63 or int(best.min()) < 0:
                raise AssertionError("yahtzee: values out of the integer range (largest %d)" % top)
            values[ids] = turn_start(tree, best, _mean)  # two rerolls
            largest = max(largest, top)
            done += len(ids)
            if progress is not None:
                progress(done)
    return values, largest


def options(joker, st, values, upper, total, lower, box, points, counts, yahtzee_rows, one, each=False):
    """For a chunk of states: (V0, scores), V0 (252, n) the value of scoring each roll now, the best box's
    points plus the value after it (``values``, in the units ``one``); with ``each``, ``scores`` is
    {box: (252, n)} the value of scoring each roll in each box (the box's points, both bonuses and the value
    after it; ``_NEG`` (integer ``values``) or -inf (float64 ``values``, ``one`` 1.0) where the box is closed or
    the joker rule forbids it), else None."""
    found = st.sheet
    n = len(upper)
    neg, kind = (_NEG, np.int64) if values.dtype.kind == "i" else (-np.inf, np.float64)  # a closed box
    best = np.full((len(points[0]), n), neg, dtype=kind)
    scores = {} if each else None
    by_count = {}  # upper box j -> (6, n): the value of scoring j with 0..5 dice showing j
    for c in range(SIXES + 1):
        face, bit = c + 1, 1 << c
        is_open = (upper & bit) != 0
        if not is_open.any():
            by_count[c] = np.full((DICE + 1, n), neg, dtype=kind)
        else:
            rows = []
            for count in range(DICE + 1):
                got = face * count
                after = np.minimum(total + got, UPPER_GOAL)
                bonus = np.where((total < UPPER_GOAL) & (total + got >= UPPER_GOAL), found.upper_bonus, 0)
                later = values[st.index(upper & ~bit, after, lower, box)]
                rows.append(np.where(is_open, (got + bonus) * one + later, neg))
            by_count[c] = np.array(rows)
            np.maximum(best, by_count[c][counts[c]], out=best)
        if each:
            scores[c] = by_count[c][counts[c]]
    later_of = {}
    for bit_number, c in enumerate(found.lower):
        bit = 1 << bit_number
        is_open = (lower & bit) != 0
        later = np.where(is_open, values[st.index(upper, total, lower & ~bit, box)], neg)
        later_of[c] = later
        if is_open.any():
            value = points[c][:, None] * one + later[None, :]
            np.maximum(best, value, out=best)
            if each:
                scores[c] = np.where(is_open[None, :], value, neg)
        elif each:
            scores[c] = np.full((len(points[0]), n), neg, dtype=kind)
    if found.yahtzee is None:
        return best, scores
    yahtzee_open = box == OPEN
    if yahtzee_open.any():
        zero = np.where(yahtzee_open, values[st.index(upper, total, lower, np.full(n, ZERO))], neg)
        fifty = np.where(yahtzee_open, values[st.index(upper, total, lower, np.full(n, FIFTY))], neg)
        is_yahtzee = points[found.yahtzee] > 0
        value = np.where(is_yahtzee[:, None], 50 * one + fifty[None, :], zero[None, :])
        np.maximum(best, value, out=best)
        if each:
            scores[found.yahtzee] = np.where(yahtzee_open[None, :], value, neg)
    elif each:
        scores[found.yahtzee] = np.full((len(points[0]), n), neg, dtype=kind)
    filled = ~yahtzee_open
    if has_bonus(joker) and filled.any():
        _yahtzee_rolls(joker, found, upper, lower, box, filled, best, scores, by_count, later_of, yahtzee_rows, one,
                       neg)
    return best, scores


def _yahtzee_rolls(joker, found, upper, lower, box, filled, best, scores, by_count, later_of, yahtzee_rows, one,
                   neg):
    """The rows of the six Yahtzees in ``best`` (and ``scores``) where the yahtzee box is ``filled``: the
    Yahtzee bonus, and where the joker rule lets the dice go for how much."""
    n = len(upper)
    bonus = np.where(box == FIFTY, YAHTZEE_BONUS, 0) * one
    if joker == "bonus-only":  # the printed scores, and the bonus wherever the dice go
        for row in yahtzee_rows:
            best[row] = np.where(filled, best[row] + bonus, best[row])
            if scores is not None:
                for c in scores:
                    scores[c][row] = np.where(filled & (scores[c][row] != neg), scores[c][row] + bonus,
                                              scores[c][row])
        return
    for face in range(1, SIDES + 1):
        c_face = face - 1
        face_open = (upper >> c_face & 1) == 1
        row = yahtzee_rows[face - 1]
        lower_joker = np.full(n, neg, dtype=best.dtype)
        joker_value = {}
        for c in found.lower:
            pay = {FULL_HOUSE: 25, SMALL: 30, LARGE: 40}.get(c, DICE * face)
            if joker == "free" and c in (FULL_HOUSE, SMALL, LARGE):
                pay = np.where(face_open, 0, pay)
            joker_value[c] = np.where(later_of[c] == neg, neg, pay * one + later_of[c])
            lower_joker = np.maximum(lower_joker, joker_value[c])
        if joker == "official":
            zero_above = np.max([by_count[c][0] for c in range(SIXES + 1)], axis=0)
            value = np.where(face_open, by_count[c_face][DICE],
                             np.where(lower != 0, lower_joker, zero_above))
            if scores is not None:
                allowed = {c: np.where(face_open, neg, np.where(lower != 0, joker_value[c], neg))
                           for c in found.lower}
                for c in range(SIXES + 1):
                    allowed[c] = np.where(face_open, by_count[c][DICE] if c == c_face else neg,
                                          np.where(lower != 0, neg, by_count[c][0]))
        else:  # free: any open box
            above = np.max([by_count[c][DICE if c == c_face else 0] for c in range(SIXES + 1)], axis=0)
            value = np.maximum(above, lower_joker)
            if scores is not None:
                allowed = dict(joker_value)
                for c in range(SIXES + 1):
                    allowed[c] = by_count[c][DICE if c == c_face else 0]
        best[row] = np.where(filled, value + bonus, best[row])
        if scores is not None:
            for c, got in allowed.items():
                scores[c][row] = np.where(filled, np.where(got == neg, neg, got + bonus), scores[c][row])
