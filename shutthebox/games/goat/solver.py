"""Goat's turn on the push-your-luck engine (build time; numpy; docs/GOAT.md).

The engine (``engine/pushluck.py``) solves any turn of rolls and stops, position by position with
cycles, and proves the tables' error bound once; Goat supplies its turn here (:func:`goat_turn`: up to
three rolls of 1 to 6 dice, a match ends the turn with nothing) and its positions in ``optimal.py``.
The engine's names are re-exported for the tests and tools that import them from here.

Under ``--choose once`` (:func:`goat_turn` of ``ONCE``) the turn's slots are ``rules.once_slot``'s: after the
first roll of K dice only stop and roll K are allowed. The engine takes the actions a slot allows as a mask
(``allowed``, :attr:`GoatTurn.allowed`), so every level keeps the six actions, those the rules forbid there
with a placeholder (a sure match: one term, never played); the solver passes the mask to every sweep.
"""

import numpy as np

from ...engine.pushluck import (MAX_NEWTON, RESIDUAL, TIE, Turn, _options, _sums, expect, play_turn, smallest_gap,
                                solve_groups, sweep)
from .dice import THROWS as ROLL
from .rules import DICE, EACH, MAX_GAIN, ONCE_SLOTS, ROLLS, SLOTS, once_slot, once_totals, slot

__all__ = ["MAX_NEWTON", "RESIDUAL", "SOLVER_VERSION", "TIE", "GoatTurn", "Turn", "_options", "_sums", "expect",
           "goat_turn", "play_turn", "smallest_gap", "solve_groups", "sweep"]

SOLVER_VERSION = 2  # 2: sums in a fixed order (the same bytes on every machine); 1: matrix products


class GoatTurn(Turn):
    """Goat's turn on the engine, with ``allowed`` (slots x (1 + DICE), bool: stop, roll 1, ..., roll 6) the
    actions the rules allow at each slot, or None where every action is (``each``)."""

    def __init__(self, gains, slots, levels, allowed=None):
        super().__init__(gains, slots, levels)
        self.allowed = allowed

    def mask(self, count: int):
        """``allowed`` for ``count`` positions, as the engine takes it (None: every action)."""
        if self.allowed is None:
            return None
        return np.broadcast_to(self.allowed, (count,) + self.allowed.shape)


def goat_turn(choose: str = EACH) -> GoatTurn:
    """The turn of the rules option ``choose``: the dice chosen before each roll, or once a turn."""
    if choose != EACH:
        return _once_turn()
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
    return GoatTurn(gains, SLOTS, levels)


def _once_turn() -> GoatTurn:
    """The dice chosen once a turn: a level for each (rolls, K) after the first roll, deepest first, where roll K
    goes on with K dice and the other five actions are placeholders the mask forbids; then the first roll."""
    gains = MAX_GAIN + 1
    columns = gains + ONCE_SLOTS
    allowed = np.zeros((ONCE_SLOTS, 1 + DICE), dtype=bool)
    allowed[0, 1:] = True  # before the first roll: any number of dice, no stop
    levels = []
    for rolls in range(ROLLS - 1, 0, -1):
        for k in range(1, DICE + 1):
            turns = list(once_totals(rolls, k))
            slots = np.array([once_slot(rolls, turn, k) for turn in turns])
            allowed[slots, 0] = allowed[slots, k] = True
            bust, sums = ROLL[k]
            actions = []
            for code in range(1, DICE + 1):
                weights = np.zeros((columns, len(turns)))
                if code != k:
                    weights[0] = 1.0  # a placeholder: the mask forbids it
                else:
                    for i, turn in enumerate(turns):
                        weights[0, i] = float(bust)
                        for total, share in sums.items():
                            after = turn + total
                            column = after if rolls + 1 == ROLLS else gains + once_slot(rolls + 1, after, k)
                            weights[column, i] += float(share)
                actions.append((code, weights))
            levels.append((slots, np.array(turns), actions))
    actions = []
    for k in range(1, DICE + 1):
        bust, sums = ROLL[k]
        weights = np.zeros((columns, 1))
        weights[0, 0] = float(bust)
        for total, share in sums.items():
            weights[gains + once_slot(1, total, k), 0] += float(share)
        actions.append((k, weights))
    levels.append((np.array([0]), np.array([-1]), actions))
    return GoatTurn(gains, ONCE_SLOTS, levels, allowed)
