"""Goat's turn on the push-your-luck engine (build time; numpy; docs/GOAT.md).

The engine (``engine/pushluck.py``) solves any turn of rolls and stops, position by position with
cycles, and proves the tables' error bound once; Goat supplies its turn here (:func:`goat_turn`: up to
three rolls of 1 to 6 dice, a match ends the turn with nothing) and its positions in ``optimal.py``.
The engine's names are re-exported for the tests and tools that import them from here.
"""

import numpy as np

from ...engine.pushluck import (MAX_NEWTON, RESIDUAL, TIE, Turn, _options, _sums, expect, play_turn, smallest_gap,
                                solve_groups, sweep)
from .dice import THROWS as ROLL
from .rules import DICE, MAX_GAIN, ROLLS, SLOTS, slot

__all__ = ["MAX_NEWTON", "RESIDUAL", "SOLVER_VERSION", "TIE", "Turn", "_options", "_sums", "expect", "goat_turn",
           "play_turn", "smallest_gap", "solve_groups", "sweep"]

SOLVER_VERSION = 2  # 2: sums in a fixed order (the same bytes on every machine); 1: matrix products


def goat_turn() -> Turn:
    gains = MAX_GAIN + 1
    columns = gains + SLOTS
    levels = []
    for rolls in range(ROLLS - 1, -1, -1):
        turns = [0] if rolls == 0 else list(range(rolls, rolls * 21 + 1))
        slots = np.array([slot(rolls, turn) for turn in turns])
        stop = np.array([turn if rolls else -1 for turn in turns])
        actions = []
        for k in range(1, DICE + 1):
            bust, sums = ROLL[k]
            weights = np.zeros((columns, len(turns)))
            for i, turn in enumerate(turns):
                weights[0, i] = float(bust)
                for total, share in sums.items():
                    after = turn + total
                    column = after if rolls + 1 == ROLLS else gains + slot(rolls + 1, after)
                    weights[column, i] += float(share)
            actions.append((k, weights))
        levels.append((slots, stop, actions))
    return Turn(gains, SLOTS, levels)
