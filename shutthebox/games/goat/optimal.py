"""Goat's optimal play on the push-your-luck engine (``engine/pushluck.py``; build time; docs/GOAT.md).

Positions, numbered for the arrays of the table (goal G):
- solo: banked score s (0..G-1), values are minus the expected turns (the engine maximises);
- the last turn: the second player must beat the first's banked total by ``need`` (1..64): row need - 1;
- two players: the first to move with (my, opp) at my * G + opp; the second at G*G + my * G + opp,
  ``opp`` the first player's score, below the goal. Values are the mover's chance to win.

The same for both readings of the rules option ``choose``: the turn (``solver.goat_turn``) differs, and every
sweep takes its mask (``turn.mask``: under ``once``, only stop and the turn's own dice after its first roll).
"""

import numpy as np

from ...engine.pushluck import TIE, play_turn, rounding, solve_groups, sweep, turns_bound
from .rules import DICE, MAX_GAIN, NEEDS
from .solver import goat_turn

GAINS = np.arange(MAX_GAIN + 1)
TURNS_NOISE = 1e-9  # Newton on the expected turns stops when a step gains nothing at this size (its residual counts)
# The tie width of the two-player bound's proof (engine/pushluck.py: another tie width), below TIE: within TIE,
# near-decided positions' moves (chances within 1e-12 of 0 or 1) would count as free, and players free among them
# put the end off (goal 150, known values counted as ends: 28,644 expected turns within TIE, 8,923 within 1e-12,
# 23.0 within 3e-13).
WIDTH = 3e-13


class Part:
    """One solved part: ``starts`` (value before the first roll), ``values`` and ``actions`` at every
    slot (positions x slots), ``residual`` of the verifying sweep, ``good`` (positions x slots x (1 + dice),
    bool; None for the last turn) the actions that sweep found within ``width`` of the best (stop, roll 1, ...)."""

    def __init__(self, starts, values, actions, residual, good=None, width=None):
        self.starts, self.values, self.actions, self.residual = starts, values, actions, residual
        self.good, self.width = good, width


def _finish(turn, payoff, starts, partners, constant, sign, width):
    good = np.zeros((len(starts), turn.slots, 1 + DICE), dtype=bool)
    values, actions, residual = sweep(turn, payoff, starts, partners, constant, sign, allowed=turn.mask(len(starts)),
                                      good=good, width=width)
    return Part(starts, values[:, turn.gains:], actions, residual, good, width)


def _most_turns(turn, groups, payoff, partners, size: int, allowed) -> float:
    """An upper bound on the most expected turns still to play from any position's start, this turn
    included, each player free among ``allowed`` at every slot (the engine's ``turns_bound``: the
    computed maximum, its own sweep's residual and rounding)."""
    turns = solve_groups(turn, groups, payoff, 1.0, 1.0, size, start=1.0, allowed=allowed, noise=TURNS_NOISE)
    _, _, residual = sweep(turn, payoff, turns, partners, 1.0, 1.0, allowed=allowed)
    most = float(turns.max())
    return turns_bound(most, residual, rounding(turn, most + 1.0))


def solve_solo(goal: int, turn=None) -> Part:
    turn = turn or goat_turn()

    def payoff(positions, starts):
        total = positions[:, None] + GAINS[None, :]
        return np.where(total < goal, -1.0 + starts[np.minimum(total, goal - 1)], -1.0)

    starts = solve_groups(turn, _solo_groups(goal), payoff, -1.0, 1.0, goal, start=-10.0, allowed=turn.mask(goal))
    return _finish(turn, payoff, starts, np.arange(goal), -1.0, 1.0, TIE)


def _solo_groups(goal: int):
    return [(np.array([s]), np.array([0])) for s in range(goal - 1, -1, -1)]


def solo_turns(goal: int, solo: Part, turn=None) -> float:
    """The most expected turns to the goal from any banked score, this turn included, free among the
    actions within TIE of the best (``solo.good``): the factor of the solo error bound. Where no other
    action is that close it is the stored policy's count, the stored values themselves."""
    turn = turn or goat_turn()

    def payoff(positions, starts):
        total = positions[:, None] + GAINS[None, :]
        return np.where(total < goal, 1.0 + starts[np.minimum(total, goal - 1)], 1.0)

    return _most_turns(turn, _solo_groups(goal), payoff, np.arange(goal), goal, solo.good)


def solve_last(turn=None) -> Part:
    """The second player's last turn: win by ending above the mark, tie on it, lose below or on a match."""
    turn = turn or goat_turn()
    needs = np.arange(1, NEEDS + 1)
    payoff = np.where(GAINS[None, :] > needs[:, None], 1.0, np.where(GAINS[None, :] == needs[:, None], 0.5, 0.0))
    values, actions, _ = play_turn(turn, payoff, allowed=turn.mask(NEEDS))
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
    starts = solve_groups(turn, two_player_groups(goal), payoff, 1.0, -1.0, 2 * goal * goal, start=0.5,
                          allowed=turn.mask(2 * goal * goal))
    return _finish(turn, payoff, starts, two_player_partners(goal), 1.0, -1.0, WIDTH)


def _sure(turn, ends):
    """Rows (positions) where some play of the turn ends, with chance 1, in a gain column marked in ``ends``
    (positions x gains, bool). Exact: the chance of the other columns is computed from values 0 and -1, and a
    sum of products of counts and values <= 0 is 0 only when every term is (rounding keeps a sum's terms' sign,
    and no product of this turn's chances, 6^-18 at least, comes near an underflow)."""
    values, _, _ = play_turn(turn, np.where(ends, 0.0, -1.0), allowed=turn.mask(len(ends)))
    return values[:, turn.gains + turn.root] == 0.0


def _never(turn, ends):
    """Rows where no play of the turn reaches a gain column marked in ``ends`` (exact, as :func:`_sure`)."""
    values, _, _ = play_turn(turn, np.where(ends, 1.0, 0.0), allowed=turn.mask(len(ends)))
    return values[:, turn.gains + turn.root] == 0.0


def known_values(goal: int, two: Part, turn=None):
    """(wins, losses): bool over the two-player positions, the exact value 1 (the mover wins surely) or 0
    (the mover loses surely), found by induction on the turns to the end (a sure win ends in a win or the
    opponent's sure loss, whatever the dice; a sure loss in a loss or the opponent's sure win, whatever the
    play). Only positions whose start value is exactly 1 or 0 are looked at: a known value must be stored
    exactly (engine/pushluck.py: positions of known value). The first player's reaching the goal wins surely
    where no play of the second's last turn reaches the mark, loses surely where one surely beats it."""
    turn = turn or goat_turn()
    size = goal * goal
    needs = np.arange(1, NEEDS + 1)
    beaten = _sure(turn, GAINS[None, :] > needs[:, None])
    missed = _never(turn, GAINS[None, :] >= needs[:, None])
    partners = two_player_partners(goal)

    def ends(positions, wins, losses):
        """(won, lost): positions x gains, whether a turn's end wins or loses surely for the mover."""
        first = (positions < size)[:, None]
        mover, other = (positions % size) // goal, positions % goal
        total = mover[:, None] + GAINS[None, :]
        reached = total >= goal
        need = np.clip(total - other[:, None], 1, NEEDS) - 1
        following = np.where(first, size, 0) + other[:, None] * goal + np.minimum(total, goal - 1)
        following[:, 0] = partners[positions]  # a match: the opponent to move at the same scores
        won = np.where(reached, np.where(first, missed[need], True), losses[following])
        lost = np.where(reached, first & beaten[need], wins[following])
        return won, lost

    ones, zeros = np.flatnonzero(two.starts == 1.0), np.flatnonzero(two.starts == 0.0)
    wins, losses = np.zeros(2 * size, dtype=bool), np.zeros(2 * size, dtype=bool)
    while True:
        found_wins = ones[_sure(turn, ends(ones, wins, losses)[0])]
        found_losses = zeros[_never(turn, ~ends(zeros, wins, losses)[1])]
        if len(found_wins) == np.count_nonzero(wins) and len(found_losses) == np.count_nonzero(losses):
            return wins, losses
        wins[found_wins], losses[found_losses] = True, True


def turns_left(goal: int, two: Part, turn=None) -> float:
    """The most expected turns still to play, from any position's start, each player free among the
    actions within ``two.width`` of the best (``two.good``): the factor of the two-player error bound (the
    last turn is one turn, however it is played).

    A position of known value (:func:`known_values`) counts as the game's end (engine/pushluck.py): its own
    turn is counted as one (played with one die, never a match). Free among ties there (where a sure winner's
    opponent cannot reach the goal in one turn, every action of both ties exactly), the two players could put
    the end off by hundreds of thousands of turns (272,273 expected from the first player's (0, 99) at goal 100)."""
    turn = turn or goat_turn()
    size = goal * goal
    wins, losses = known_values(goal, two, turn)
    known = wins | losses
    allowed = two.good.copy()
    allowed[known] = False
    if turn.allowed is None:
        allowed[known, :, 1] = True  # one die at every slot: no match, so no partner's count
    else:  # the dice chosen once a turn: one die, then stop (no match either)
        allowed[known, 0, 1] = True
        allowed[known, 1:, 0] = True

    def payoff(positions, starts):
        first = positions < size
        mover, other = (positions % size) // goal, positions % goal
        total = mover[:, None] + GAINS[None, :]
        below = np.minimum(total, goal - 1)
        one = np.where(total >= goal, 2.0, 1.0 + starts[size + other[:, None] * goal + below])
        two_ = np.where(total >= goal, 1.0, 1.0 + starts[other[:, None] * goal + below])
        return np.where(known[positions][:, None], 1.0, np.where(first[:, None], one, two_))

    return _most_turns(turn, two_player_groups(goal), payoff, two_player_partners(goal), 2 * size, allowed)

