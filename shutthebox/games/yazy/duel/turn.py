"""One turn of two-player yazy, worked out from the table when asked (query time; pure Python).

The table holds ``W(A, B, d)``, the mover's chance to win at the start of a turn (``solver.py``). A
question inside a turn needs the turn's values for that state only, for every roll at once (the keep tree
and its means: ``engine/dicekeep.py``; the choices and the tie rule: yazy's ``turn.py``):

    V0(r) = max over c in A of  1 - W(B, A - c, -(d + score(c, r)))

in the same order of operations as the solver, from the stored chances (each within 2^-48 of the
solver's float64). Errors are absolute, within ``ERROR_BOUND`` of the exact value; a value that close to a
6-decimal rounding midpoint is refused, never printed.
"""

from ....engine.printing import checked as checked_printing
from ....errors import InvalidQuery
from ..rules import CATEGORIES
from ..turn import Turn, best, score_row  # noqa: F401 - best: the tie rule, for the table's callers

ERROR_BOUND = 2e-13  # absolute (solver.ERROR_BOUND)


class DuelTurn(Turn):
    """The turn of the mover with open categories ``mask``; ``after(c, p)`` is the mover's chance after
    scoring ``p`` points in category ``c`` (``1 - W(B, A - c, -(d + p))``)."""

    def __init__(self, mask: int, after):
        self.mask, self.after = mask, after

    def scoring(self) -> list:
        out = []
        for c in range(len(CATEGORIES)):
            if self.mask >> c & 1:
                seen: dict = {}
                for points in score_row(c):
                    if points not in seen:
                        seen[points] = self.after(c, points)
                out.append((c, [seen[points] for points in score_row(c)]))
        return out


def checked(value: float, what: str) -> float:
    """``value``, unless %.6f might print it wrong (within its error bound of a rounding midpoint)."""
    return checked_printing(value, ERROR_BOUND, "yazy duel: " + what, error=InvalidQuery)
