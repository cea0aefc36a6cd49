"""Goat's optimal play on the push-your-luck engine (``engine/pushluck.py``; build time; docs/GOAT.md).

Positions, numbered for the arrays of the table (goal G):
- solo: banked score s (0..G-1), values are minus the expected turns (the engine maximises);
- the last turn: the second player must beat the first's banked total by ``need`` (1..64): row need - 1;
- two players: the first to move with (my, opp) at my * G + opp; the second at G*G + my * G + opp,
  ``opp`` the first player's score, below the goal. Values are the mover's chance to win.
"""

import numpy as np

from ...engine.pushluck import play_turn, solve_groups, sweep
from .rules import MAX_GAIN, NEEDS
from .solver import goat_turn

GAINS = np.arange(MAX_GAIN + 1)


class Part:
    """One solved part: ``starts`` (value before the first roll), ``values`` and ``actions`` at every
    slot (positions x slots), ``residual`` of the verifying sweep."""

    def __init__(self, starts, values, actions, residual):
        self.starts, self.values, self.actions, self.residual = starts, values, actions, residual


def _finish(turn, payoff, starts, partners, constant, sign):
    values, actions, residual = sweep(turn, payoff, starts, partners, constant, sign)
    return Part(starts, values[:, turn.gains:], actions, residual)


def solve_solo(goal: int, turn=None) -> Part:
    turn = turn or goat_turn()

    def payoff(positions, starts):
        total = positions[:, None] + GAINS[None, :]
        return np.where(total < goal, -1.0 + starts[np.minimum(total, goal - 1)], -1.0)

    groups = [(np.array([s]), np.array([0])) for s in range(goal - 1, -1, -1)]
    starts = solve_groups(turn, groups, payoff, -1.0, 1.0, goal, start=-10.0)
    return _finish(turn, payoff, starts, np.arange(goal), -1.0, 1.0)


def solve_last(turn=None) -> Part:
    """The second player's last turn: win by ending above the mark, tie on it, lose below or on a match."""
    turn = turn or goat_turn()
    needs = np.arange(1, NEEDS + 1)
    payoff = np.where(GAINS[None, :] > needs[:, None], 1.0, np.where(GAINS[None, :] == needs[:, None], 0.5, 0.0))
    values, actions, _ = play_turn(turn, payoff)
    return Part(values[:, turn.gains + turn.root], values[:, turn.gains:], actions, 0.0)


def two_player_payoff(goal: int, last_start):
    size = goal * goal

    def payoff(positions, starts):
        first = positions < size
        mover, other = (positions % size) // goal, positions % goal
        total = mover[:, None] + GAINS[None, :]
        reached = total >= goal
        below = np.minimum(total, goal - 1)
        # the first player's gain: the second to move (my = opp, opp = total), or their last turn
        need = np.clip(total - other[:, None], 1, NEEDS) - 1
        one = np.where(reached, 1.0 - last_start[need], 1.0 - starts[size + other[:, None] * goal + below])
        # the second player's gain: reaching the goal wins; else the first to move with (opp, total)
        two = np.where(reached, 1.0, 1.0 - starts[other[:, None] * goal + below])
        return np.where(first[:, None], one, two)

    return payoff


def two_player_partners(goal: int):
    """The partner of each position: the other player to move at the same banked scores."""
    size = goal * goal
    positions = np.arange(2 * size)
    mover, other = (positions % size) // goal, positions % goal
    return np.where(positions < size, size + other * goal + mover, other * goal + mover)


def two_player_groups(goal: int):
    """Positions by the sum of the banked scores, highest first, each with its partner."""
    partners = two_player_partners(goal)
    groups = []
    for total in range(2 * goal - 2, -1, -1):
        mine = np.arange(max(0, total - goal + 1), min(total, goal - 1) + 1)
        ones = mine * goal + (total - mine)
        n = len(mine)
        groups.append((np.concatenate([ones, partners[ones]]), np.concatenate([np.arange(n, 2 * n), np.arange(n)])))
    return groups


def solve_two(goal: int, last: Part, turn=None) -> Part:
    turn = turn or goat_turn()
    payoff = two_player_payoff(goal, last.starts)
    starts = solve_groups(turn, two_player_groups(goal), payoff, 1.0, -1.0, 2 * goal * goal, start=0.5)
    return _finish(turn, payoff, starts, two_player_partners(goal), 1.0, -1.0)


def turns_left(goal: int, two: Part, turn=None) -> float:
    """The most expected turns still to play, from any position's start, under the stored actions
    (the factor of the error bound; the last turn is one turn)."""
    turn = turn or goat_turn()
    size = goal * goal

    def payoff(positions, starts):
        first = positions < size
        mover, other = (positions % size) // goal, positions % goal
        total = mover[:, None] + GAINS[None, :]
        below = np.minimum(total, goal - 1)
        one = np.where(total >= goal, 2.0, 1.0 + starts[size + other[:, None] * goal + below])
        two_ = np.where(total >= goal, 1.0, 1.0 + starts[other[:, None] * goal + below])
        return np.where(first[:, None], one, two_)

    starts = solve_groups(turn, two_player_groups(goal), payoff, 1.0, 1.0, 2 * size, start=1.0, policy=two.actions)
    return float(starts.max())

