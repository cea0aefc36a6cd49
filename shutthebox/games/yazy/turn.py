"""One turn of yazy's target mode, computed when asked from the target table (query time; pure Python).

The table holds T(m, x), the highest chance at the start of a turn that the points
still to come reach x (``target.py``). A question inside a turn needs the turn's
values for that set and target only, here for every roll at once (the keep tree and its
means: ``engine/dicekeep.py``):

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

from ...engine.dicekeep import best_sub_keeps, keep_means, tree
from ...engine.dicescores import BOXES
from ...engine.dicescores import row as dice_row
from ...engine.printing import checked as checked_printing
from ...errors import InvalidQuery
from .rules import CATEGORIES, ROLLS

TIE = 1e-11
ERROR_BOUND = 2e-13  # relative

_ROWS: dict = {}  # category -> its score of each roll, decoded when first asked
# yazy's categories among the boxes of engine/dicescores.py (its straight is the large one: 40 points)
_BOXES = tuple(BOXES.index({"straight": "large-straight", "yazy": "yahtzee"}.get(name, name)) for name in CATEGORIES)


def score_row(c: int) -> bytes:
    """Category ``c``'s score of each roll (``ROLLS``' order), from the shared constant (a test checks it
    against ``rules.score``): scoring the 252 rolls at query time would cost a question a millisecond."""
    row = _ROWS.get(c)
    if row is None:
        row = _ROWS[c] = dice_row(_BOXES[c])
    return row


class Turn:
    """The turn of the open set ``mask`` with ``x`` points still needed; ``rows[c]``: T(mask - c, .) for each
    open category c (a sequence of TARGETS chances)."""

    def __init__(self, mask: int, x: int, rows: dict):
        self.mask, self.x, self.rows = mask, x, rows

    def scoring(self) -> list:
        """[(category, [chance after scoring it, for each roll])] of the open categories, in their order."""
        out = []
        for c in range(len(CATEGORIES)):
            if self.mask >> c & 1:
                row, points, x = self.rows[c], score_row(c), self.x
                out.append((c, [row[x - p] if x > p else 1.0 for p in points]))
        return out

    def values(self, rerolls: int) -> tuple:
        """(V0 for every roll, [E_1 tree, E_2 tree][:rerolls]): what a question with ``rerolls`` left needs."""
        scoring = self.scoring()
        v0 = [max(column) for column in zip(*(chances for _, chances in scoring))]
        trees, v = [], v0
        for _ in range(rerolls):
            means = keep_means(v)
            trees.append(means)
            v = list(map(max, v0, best_sub_keeps(means)))
        return scoring, v0, trees

    def choices(self, r: int, rerolls: int, values: tuple | None = None) -> list:
        """[(chance, move text)] for roll number ``r`` with ``rerolls`` left, in the tie rule's order;
        ``values``: the turn's ``values(k)`` for some k >= ``rerolls``, when already worked out."""
        scoring, _, trees = values or self.values(rerolls)
        out = [(chances[r], "score " + CATEGORIES[c]) for c, chances in scoring]
        if rerolls:
            means = trees[rerolls - 1]
            out.extend((means[level][i], text) for level, i, _, text in tree().sub_keeps(ROLLS[r]))
        return out


def best(choices: list) -> tuple:
    """(the best chance, the move the tie rule picks)."""
    top = max(chance for chance, _ in choices)
    return top, next(move for chance, move in choices if chance >= top - TIE)


def checked(value: float, what: str) -> float:
    """``value``, unless %.6f might print it wrong (within its error bound of a rounding midpoint)."""
    return checked_printing(value, value * ERROR_BOUND, "yazy target: " + what, error=InvalidQuery)
