"""One turn of Yahtzee's target mode, computed when asked from the target table (query time; pure Python).

The table holds T(s, x), the highest chance at the start of a turn in state s that the
points still to come reach x (``solver.py``). A question inside a turn needs that
state's turn for one x, here for every roll at once (the keep tree and its means:
``engine/dicekeep.py``):

    V0(r)   = max over the boxes c roll r may go in of  T(s after c, x - points(c, r))
    E_R(K)  = (E_R(K + 1) + ... + E_R(K + 6)) / 6,  E_R(K) = V(R-1)(K) for five dice
    VR(r)   = max(V0(r), max over proper sub-keeps K of r of E_R(K))

in the solver's order of operations, so a value here is the float64 the solver would
have found, within ``ERROR_BOUND * value + ABSOLUTE_BOUND`` of the exact chance; a value
that close to a 6-decimal rounding midpoint is refused rather than printed.

The move is the best choice; choices within ``TIE`` are equally good and the tie rule of
the expected-score table picks one: scoring first (boxes in the card's order), then
keeping more dice, then the lowest dice.
"""

from ....engine.dicekeep import best_sub_keeps, keep_means, tree
from ....engine.printing import checked as checked_printing
from ....errors import InvalidQuery
from ..turn import box_scores
from ..rules import (
    CATEGORIES, FIFTY, OPEN, ROLLS, SIXES, UPPER_BONUS, UPPER_GOAL, YAHTZEE, ZERO, has_bonus, joker_choices,
    score, state_index, yahtzee_bonus,
)

TIE = 1e-11
ERROR_BOUND = 2e-13  # relative (solver.py)
ABSOLUTE_BOUND = 2e-14


class Turn:
    """The turn of the state (``card``, ``upper`` capped at 63, ``box``) with ``x`` points still needed;
    ``chance(state number, x)`` reads T from the table."""

    def __init__(self, joker: str, card: int, upper: int, box: int, x: int, chance):
        self.joker, self.card, self.upper, self.box, self.x = joker, card, min(upper, UPPER_GOAL), box, x
        self.chance = chance
        self._after: dict = {}
        self._v0 = None
        self._trees: list = []  # E_1, E_2 as far as asked

    def after(self, c: int, points: int, extra: int = 0) -> float:
        """T of the state after ``points`` in box ``c``, for the x left once they, the upper bonus they earn
        and ``extra`` (the Yahtzee bonus) are scored."""
        key = (c, points, extra)
        found = self._after.get(key)
        if found is None:
            upper, box, gain = self.upper, self.box, points + extra
            if c <= SIXES:
                upper = min(self.upper + points, UPPER_GOAL)
                if self.upper < UPPER_GOAL <= self.upper + points:
                    gain += UPPER_BONUS
            elif c == YAHTZEE:
                box = FIFTY if points else ZERO
            found = self._after[key] = self.chance(state_index(self.card & ~(1 << c), upper, box), self.x - gain)
        return found

    def scoring(self, roll) -> list:
        """[(box, chance after scoring ``roll`` there)], in the card's order."""
        if roll[0] == roll[-1] and self.box != OPEN and has_bonus(self.joker):  # the joker rule, the bonus
            extra = yahtzee_bonus(self.joker, self.box, roll)
            return [(c, self.after(c, points, extra))
                    for c, points in sorted(joker_choices(self.joker, self.card, self.box, roll[0]))]
        return [(c, self.after(c, score(c, roll))) for c in range(len(CATEGORIES)) if self.card >> c & 1]

    def v0(self) -> list:
        """V0 of the 252 rolls: each open box's chance after it, a column a box (``..turn``'s score bytes)."""
        if self._v0 is None:
            tables = box_scores(self.joker)
            columns = []
            for c in range(len(CATEGORIES)):
                if self.card >> c & 1:
                    scores = tables.scores[c]
                    by_points = [0.0] * (max(scores) + 1)
                    for points in set(scores):
                        by_points[points] = self.after(c, points)
                    columns.append(tables.score_of[c](by_points))
            v0 = list(map(max, *columns)) if len(columns) > 1 else list(columns[0])
            if self.box != OPEN and has_bonus(self.joker):  # jokers, the Yahtzee bonus
                for r in tables.yahtzees:
                    v0[r] = max(chance for _, chance in self.scoring(ROLLS[r]))
            self._v0 = v0
        return self._v0

    def values(self, rerolls: int) -> tuple:
        """(V0 of every roll, [E_1 tree, E_2 tree][:rerolls])."""
        v0 = self.v0()
        trees, v = self._trees, v0
        for level in range(rerolls):
            if level == len(trees):
                trees.append(keep_means(v))
            v = list(map(max, v0, best_sub_keeps(trees[level])))
        return v0, trees[:rerolls]

    def start(self) -> float:
        """The turn-start chance computed from the states one box later (the table stores it; its check)."""
        v0, trees = self.values(2)
        return keep_means(list(map(max, v0, best_sub_keeps(trees[1]))))[0][0]

    def choices(self, roll, rerolls: int) -> list:
        """[(chance, move text)] for the sorted ``roll`` with ``rerolls`` left, in the tie rule's order."""
        out = [(chance, "score " + CATEGORIES[c]) for c, chance in self.scoring(roll)]
        if rerolls:
            means = self.values(rerolls)[1][rerolls - 1]
            out.extend((means[level][i], text) for level, i, _, text in tree().sub_keeps(roll))
        return out


def best(choices: list) -> tuple:
    """(the best chance, the move the tie rule picks)."""
    top = max(chance for chance, _ in choices)
    return top, next(move for chance, move in choices if chance >= top - TIE)


def checked(value: float, what: str) -> float:
    """``value``, unless %.6f might print it wrong (within its error bound of a rounding midpoint)."""
    return checked_printing(value, value * ERROR_BOUND + ABSOLUTE_BOUND, "yahtzee target: " + what,
                            error=InvalidQuery)

