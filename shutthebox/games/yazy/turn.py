"""One turn of yazy's target mode, computed when asked from the target table (query time; pure Python).

The table holds T(m, x), the highest chance at the start of a turn that the points
still to come reach x (``target.py``). A question inside a turn needs the turn's
values for that set and target only, here for every roll at once:

    V0(r)   = max over open c of  T(m - c, x - score(c, r))      (T = 1 once x - score <= 0)
    E_R(K)  = (E_R(K + 1) + ... + E_R(K + 6)) / 6,  E_R(K) = V(R-1)(K) for five dice
    VR(r)   = max(V0(r), max over proper sub-keeps K of r of E_R(K))

in the same order of operations as the solver, so a value here is the float64 the
solver would have found. Chances are never negative: the error stays relative, within
``ERROR_BOUND`` of the exact value (``target.py``'s argument), and a value that close
to a 6-decimal rounding midpoint is refused rather than printed (never seen;
``engine/printing.py``).

The move is the best choice; choices within ``TIE`` are equally good and the tie rule
of the expected-score table picks one: scoring first (categories in their order), then
keeping more dice, then the lowest dice.
"""

from itertools import combinations_with_replacement

from ...engine.printing import checked as checked_printing
from ...errors import TableError
from .rules import CATEGORIES, DICE, ROLLS, SIDES, score

TARGETS = 281  # x = 0 .. 280 (target.MAX_TOTAL)
TIE = 1e-11
ERROR_BOUND = 2e-13  # relative


class _Dice:
    """The keep tree, made once: ``levels[k]`` the sorted multisets of k dice (level 5: ``ROLLS``, in the same
    order), ``children[k][i]`` the indices in level k + 1 of keep i plus each face, ``parents[k][i]`` the
    indices in level k - 1 of keep i minus one of its dice (each distinct once), and each roll's proper sub-keeps
    in the tie rule's order (more dice first, then the lowest) as (level, index)."""

    def __init__(self):
        self.levels = [list(combinations_with_replacement(range(1, SIDES + 1), k)) for k in range(DICE + 1)]
        index = [{keep: i for i, keep in enumerate(level)} for level in self.levels]
        self.children = [[[index[k + 1][tuple(sorted(keep + (face,)))] for face in range(1, SIDES + 1)]
                          for keep in self.levels[k]] for k in range(DICE)]
        self.parents = [None] + [[sorted({index[k - 1][keep[:i] + keep[i + 1:]] for i in range(k)})
                                  for keep in self.levels[k]] for k in range(1, DICE + 1)]
        self.index = index
        self._subs: dict = {}
        self.scores: dict = {}

    def score_row(self, c: int) -> list:
        row = self.scores.get(c)
        if row is None:
            row = self.scores[c] = [score(c, roll) for roll in ROLLS]
        return row

    def sub_keeps(self, r: int) -> list:
        found = self._subs.get(r)
        if found is None:
            roll = ROLLS[r]
            subs = set()
            for bits in range(2**DICE - 1):  # every proper subset of the five dice
                subs.add(tuple(die for position, die in enumerate(roll) if bits >> position & 1))
            found = [(len(keep), self.index[len(keep)][keep]) for keep in sorted(subs, key=lambda k: (-len(k), k))]
            self._subs[r] = found
        return found


_DICE = None


def dice() -> _Dice:
    global _DICE
    if _DICE is None:
        _DICE = _Dice()
    return _DICE


def _means(tree: _Dice, values: list) -> list:
    """E over every keep, level by level: ``[level 0, ..., level 5 = values]``."""
    out = [None] * DICE + [values]
    for k in range(DICE - 1, -1, -1):
        upper = out[k + 1]
        level = []
        for c0, c1, c2, c3, c4, c5 in tree.children[k]:
            level.append((((((upper[c0] + upper[c1]) + upper[c2]) + upper[c3]) + upper[c4]) + upper[c5]) / SIDES)
        out[k] = level
    return out


def _best_proper(tree: _Dice, means: list) -> list:
    """For every roll, the best E over its proper sub-keeps."""
    best = [means[0]]
    for k in range(1, DICE):
        below = best[k - 1]
        best.append([max([value] + [below[p] for p in parents]) for value, parents in zip(means[k], tree.parents[k])])
    four = best[DICE - 1]
    return [max(four[p] for p in parents) for parents in tree.parents[DICE]]


class Turn:
    """The turn of the open set ``mask`` with ``x`` points still needed; ``rows[c]``: T(mask - c, .) for each
    open category c (a sequence of TARGETS chances)."""

    def __init__(self, mask: int, x: int, rows: dict):
        self.mask, self.x, self.rows = mask, x, rows
        self.tree = dice()

    def scoring(self) -> list:
        """[(category, [chance after scoring it, for each roll])] of the open categories, in their order."""
        out = []
        for c in range(len(CATEGORIES)):
            if self.mask >> c & 1:
                row, points, x = self.rows[c], self.tree.score_row(c), self.x
                out.append((c, [row[x - p] if x > p else 1.0 for p in points]))
        return out

    def values(self, rerolls: int) -> tuple:
        """(V0 for every roll, [E_1 tree, E_2 tree][:rerolls]): what a question with ``rerolls`` left needs."""
        scoring = self.scoring()
        v0 = [max(column) for column in zip(*(chances for _, chances in scoring))]
        trees, v = [], v0
        for _ in range(rerolls):
            means = _means(self.tree, v)
            trees.append(means)
            v = [max(a, b) for a, b in zip(v0, _best_proper(self.tree, means))]
        return scoring, v0, trees

    def choices(self, r: int, rerolls: int) -> list:
        """[(chance, move text)] for roll number ``r`` with ``rerolls`` left, in the tie rule's order."""
        scoring, _, trees = self.values(rerolls)
        out = [(chances[r], "score " + CATEGORIES[c]) for c, chances in scoring]
        if rerolls:
            means = trees[rerolls - 1]
            for level, i in self.tree.sub_keeps(r):
                keep = self.tree.levels[level][i]
                out.append((means[level][i], "keep " + (" ".join(map(str, keep)) if keep else "none")))
        return out


def best(choices: list) -> tuple:
    """(the best chance, the move the tie rule picks)."""
    top = max(chance for chance, _ in choices)
    return top, next(move for chance, move in choices if chance >= top - TIE)


def checked(value: float, what: str) -> float:
    """``value``, unless %.6f might print it wrong (within its error bound of a rounding midpoint)."""
    return checked_printing(value, value * ERROR_BOUND, "yazy target: " + what, error=TableError)
