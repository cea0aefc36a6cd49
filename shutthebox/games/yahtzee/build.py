"""Yahtzee's tables (build time only): solve, make every printed turn-start value right, encode.

The ``official`` table is shipped; ``free``, ``none``, ``bonus-only`` and ``yatzy`` are solved on first
use (the declaration names ``solve_table``; table.load passes it to engine.store.open_table).
"""

from fractions import Fraction

import numpy as np

from ...engine.printing import printed as engine_printed
from ...engine.writer import encode, pack_array
from .rules import GAME, YATZY, rules_dict, states
from .solver import SCALE_BITS, SOLVER_VERSION, States, error_bound, solve
from .turn import TIE

GENERATOR = "shutthebox yahtzee solver %d" % SOLVER_VERSION
# A value this close to a 6-decimal rounding midpoint (in float64, far above the float rounding of this test
# and far above every value's error bound) is looked at exactly.
_NEAR = 1e-11


def printed(values, open_boxes):
    """The float64s to store for the solved values (int64, units of 2**-SCALE_BITS): each the float64 nearest
    the solved value, unless ``%.6f`` of it would not print the solved value rounded to 6 decimals; there
    the neighbour that does (``engine.printing.printed``: fails the build when a value lies within its error
    bound of a rounding midpoint, or when no float64 nearby prints it)."""
    unit = Fraction(1, 1 << SCALE_BITS)
    stored = engine_printed(np.ldexp(values.astype(np.float64), -SCALE_BITS), lambda i: int(values[i]) * unit,
                            error_bound(1) * open_boxes, "yahtzee", near=_NEAR)
    positive = stored[stored != 0]
    if positive.size and positive.min() < 1.0:
        # turn.py reads each value as an integer multiple of 2**-52, which needs values of 1 or more
        raise AssertionError("a turn-start value below 1: %r" % float(positive.min()))
    return stored


def solve_table(joker: str, progress=None) -> bytes:
    """Solve, check and encode the table of the rule set ``joker`` (a joker rule, or ``yatzy``); a progress bar
    on a terminal (or ``progress``: True, False) and for whoever observes the engine's bars (the server)."""
    from ...engine.progress import Progress

    what = "yatzy" if joker == YATZY else "yahtzee (%s jokers)" % joker
    with Progress(states(joker), what, unit="states", enabled=progress) as bar:
        values, _ = solve(joker, progress=bar.update)
    open_boxes = States(joker).open
    stored = printed(values, open_boxes)
    # the farthest a stored float64 lies from the solved value, plus the solver's bound
    moved = np.abs(np.ldexp(stored, SCALE_BITS + 1).astype(np.int64) - 2 * values).max() / 2.0 ** (SCALE_BITS + 1)
    bound = error_bound(int(open_boxes.max())) + float(moved)
    arrays = {"turn": pack_array(stored.astype("<f8").tobytes(), "<f8", (states(joker),))}
    # Text, not floats: the header stays free of types a question would need struct for.
    fields = {"error_bound": "%.1e" % (bound * 1.1), "tie": "%g" % TIE}  # 2 digits, rounded up
    return encode(GAME, rules_dict(joker), arrays, generator=GENERATOR, fields=fields)


# The tables data/ holds: the official rules (the other rule sets are solved on first use).
SHIPPED = ("official",)
