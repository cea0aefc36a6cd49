"""The Pig family solved exactly (build time; numpy; docs/PIG.md), on the push-your-luck engine.

    >>> sol = solve("pig", 100)        # Neller and Presser's Pig
    >>> "%.6f" % sol.win[0, 0]         # the first player's chance, both playing to win
    '0.530593'

A state is ``(i, j, k)``: the mover has banked i, the opponent j, the turn so far has made k. The mover
rolls or holds; holding banks k and passes the turn; reaching the goal (i + k at or past it, after a hold
or a roll) wins at once. A turn starts with a roll (no hold at k = 0). Variants (:func:`outcomes`):

- ``pig``: one die of ``sides`` faces (2 to 20): a 1 ends the turn and loses its total; other faces add;
- ``piglet``: a coin: tails ends the turn and loses its total, heads adds 1;
- ``two-dice``: two dice: a single 1 ends the turn and loses its total; double 1s end it and also reset
  the mover's banked score to 0; otherwise the sum adds;
- ``big-pig``: two dice: a single 1 ends the turn and loses its total; double 1s add 25 and the turn
  goes on; other doubles add twice their sum; otherwise the sum adds.

Goals (:func:`goal_limits`): 2 to 200; piglet 2 to 50, and pig with a 2-sided die (piglet scoring 2 a head)
2 to 100. Goal 200 is a 4-million-state table (36 MB), solved in 9 s (big-pig) to 38 s (two-dice) with
about 190 MB at most; goal 100 in 1.3 to 4.4 s. Past piglet's 50 the hopeless side's moves are all tied
within TIE (its chances are below 2^-50) and the turns counted for the bound grow fast (560 at 64).

How (the engine's docstring proves the bound):

- Positions ``(i, j)`` at a turn's start (two seats for a duel of two policies: ``seat * goal^2 + i * goal
  + j``); the turn's slots are the turn totals 0 .. goal - 1, a shared :class:`~shutthebox.engine.pushluck.Turn`
  whose gain columns are the totals (0: a bust) and, for Two-Dice Pig, the reset. A hold or a roll that
  reaches the goal is worth 1; a hold of k is worth ``1 - V(j, i + k)``; a bust ``1 - V(j, i)`` (the
  partner: the same sum of banked scores); a reset ``1 - V(j, 0)``.
- Every roll adds at least ``step`` points (pig 2, two-dice 4, big-pig 5, piglet 1), so the totals
  1 .. step - 1 are never reached and the solve uses a turn of the reachable totals only: then a position's
  holds reach sums of banked scores at least ``step`` higher, and ``step`` consecutive sums form one group
  of :func:`~shutthebox.engine.pushluck.solve_groups` (Newton on each position and its partner), solved
  highest first. The unreachable totals are filled by the final sweep (the full turn).
- Two-Dice Pig's reset sends play to ``(j, 0)``, a lower sum: the reset values ``R(j) = V(j, 0)`` are
  solved outside, by Newton's method on ``R = F(R)`` (F: the group solve with the resets worth R): for the
  policy F chooses, F is affine, its slopes ``dF/dR`` are carried through the groups from each turn's law
  (:func:`~shutthebox.engine.pushluck.turn_laws`), and ``(I - dF/dR) step = F(R) - R`` is solved by Gaussian
  elimination in a fixed order. As in policy iteration, a few steps reach the fixed point; its residual is
  then measured like everyone's.
- One sweep of every position with the full turn gives the stored values and moves (ties within ``TIE``:
  hold) and the residual; the expected turns for the bound come from the same engine with each player free
  among the moves within TIE (:func:`~shutthebox.engine.pushluck.error_bound`).
"""

from functools import lru_cache

import numpy as np

from ...engine import pushluck
from ...engine.pushluck import TIE, Turn, play_turn, solve_groups, turn_laws
from .rules import ADD, BUST, RESET, SIDES_LIMITS, VARIANTS, goal_limits
from .rules import outcomes as rules_outcomes

__all__ = ["SOLVER_VERSION", "Solution", "Space", "TIE", "outcomes", "solve", "tri"]

SOLVER_VERSION = 1
MAX_OUTER = 40  # Newton steps on Two-Dice Pig's reset values
CHUNK = 4096  # positions a sweep takes at once
NOISE = 1e-13  # Newton on a position and its partner stops when a step gains nothing at this size
TURNS_NOISE = 1e-9  # the same for the expected turns, an upper bound needed only roughly (its residual counts)


def outcomes(variant: str, sides: int = 6):
    """One roll: ``(denominator, bust, reset, adds)``, the counts of a bust and of a reset out of
    ``denominator`` equally likely throws, and ``adds`` the ``(points, count)`` of every throw that adds,
    by points (from the rules' :func:`~shutthebox.games.pig.rules.outcomes`, the one statement of a roll)."""
    check(variant, 2, sides)
    rolled = rules_outcomes(variant, 2 if variant == "piglet" else sides)
    count = {kind: sum(n for n, k, _ in rolled if k == kind) for kind in (BUST, RESET)}
    adds = tuple(sorted((points, n) for n, kind, points in rolled if kind == ADD))
    return sum(n for n, _, _ in rolled), count[BUST], count[RESET], adds


def check(variant: str, goal: int, sides: int) -> None:
    """ValueError unless the variant, goal and sides are solvable (the rules' :func:`goal_limits` and ``SIDES_LIMITS``;
    only pig's die may have other than 6 sides)."""
    if variant not in VARIANTS:
        raise ValueError("pig: the variant is one of %s, not %r" % (", ".join(VARIANTS), variant))
    if variant == "pig":
        if type(sides) is not int or not SIDES_LIMITS[0] <= sides <= SIDES_LIMITS[1]:
            raise ValueError("pig: the die has %d to %d sides, not %r" % (SIDES_LIMITS + (sides,)))
    elif sides != 6:
        raise ValueError("pig: %s has no sides to choose (6, the default), not %r" % (variant, sides))
    low, high = goal_limits(variant, 2 if variant == "piglet" else sides)
    if type(goal) is not int or not low <= goal <= high:
        what = "pig with a 2-sided die" if variant == "pig" and sides == 2 else variant
        raise ValueError("pig: %s's goal is a whole number from %d to %d, not %r" % (what, low, high, goal))


class Space:
    """The positions and turns of one game: ``seats`` 1 (both players the same, optimal) or 2 (a duel:
    seat 0 moves first). Position ``seat * goal^2 + i * goal + j``; its partner (after a bust) is
    ``(other seat, j, i)``; a reset leads to ``(other seat, j, 0)``, whose value is ``R[other * goal + j]``."""

    def __init__(self, variant: str, goal: int, sides: int = 6, seats: int = 1):
        check(variant, goal, sides)
        self.variant, self.goal, self.sides, self.seats = variant, goal, sides, seats
        self.denominator, self.bust, self.reset, self.adds = outcomes(variant, sides)
        self.step = min(points for points, _ in self.adds)
        top = max(points for points, _ in self.adds)
        self.reset_column = goal + top if self.reset else None
        self.gains = goal + top + (1 if self.reset else 0)  # totals 0 .. goal + top - 1 (0: bust), the reset
        self.size = seats * goal * goal
        reachable = np.zeros(goal, dtype=bool)
        reachable[0] = True
        for total in range(goal):
            if reachable[total]:
                for points, _ in self.adds:
                    if total + points < goal:
                        reachable[total + points] = True
        self.full = self._turn(range(goal))
        self.reach = self._turn(np.flatnonzero(reachable))
        positions = np.arange(self.size)
        seat, mine, other = self.decode(positions)
        self.partners = self.position(1 - seat if seats == 2 else seat, other, mine)
        self.reset_positions = self.position(np.repeat(np.arange(seats), goal), np.tile(np.arange(goal), seats), 0)
        self.groups = self._groups(mine + other)

    def decode(self, positions):
        square = self.goal * self.goal
        return positions // square, (positions % square) // self.goal, positions % self.goal

    def position(self, seat, mine, other):
        return seat * self.goal * self.goal + mine * self.goal + other

    def other_seat(self, seat):
        return 1 - seat if self.seats == 2 else seat

    def _turn(self, slots) -> Turn:
        """The turn over the totals ``slots`` (descending levels, no slot of a level reaching another)."""
        goal, gains = self.goal, self.gains
        levels, chunk = [], []
        for total in sorted(slots, reverse=True) + [None]:
            if chunk and (total is None or chunk[-1] - total >= self.step):
                weights = np.zeros((gains + goal, len(chunk)))
                for index, turn in enumerate(chunk):
                    weights[0, index] = self.bust
                    if self.reset:
                        weights[self.reset_column, index] = self.reset
                    for points, count in self.adds:
                        after = turn + points
                        weights[after if after >= goal else gains + after, index] += count
                stop = np.array([turn if turn else -1 for turn in chunk])
                levels.append((np.array(chunk), stop, [(1, weights)]))
                chunk = []
            if total is not None:
                chunk.insert(0, int(total))  # increasing within a level: a term's columns are a slice
        return Turn(gains, goal, levels, denominator=self.denominator)

    def _groups(self, sums):
        """[(positions, partners' indices)]: ``step`` consecutive sums of banked scores at a time, highest first."""
        groups, where = [], np.full(self.size, -1)
        for top in range(2 * self.goal - 2, -1, -self.step):
            positions = np.flatnonzero((sums <= top) & (sums > top - self.step))
            where[positions] = np.arange(len(positions))
            groups.append((positions, where[self.partners[positions]]))
        return groups

    def payoff(self, constant: float, sign: float, win: float, resets=None):
        """``payoff(positions, starts)`` for the engine: a hold or roll reaching the goal is worth ``win``,
        a hold of k ``constant + sign * V(other, j, i + k)``, a reset ``constant + sign * resets[...]``."""
        totals = np.arange(self.gains)
        goal = self.goal

        def payoff(positions, starts):
            seat, mine, other = self.decode(positions)
            total = mine[:, None] + totals[None, :]
            nxt = self.position(self.other_seat(seat), other, 0)
            out = np.where(total >= goal, win, constant + sign * starts[nxt[:, None] + np.minimum(total, goal - 1)])
            if self.reset:
                out[:, self.reset_column] = constant + sign * resets[self.other_seat(seat) * goal + other]
            return out

        return payoff

    def solve(self, constant: float, sign: float, win: float, start: float, policy=None, allowed=None,
              noise: float = NOISE):
        """Start values of every position for payoffs ``constant + sign * V(next)`` (see :meth:`payoff`):
        the best play (restricted to ``allowed``) or ``policy``'s. With resets, Newton on the reset values."""
        if not self.reset:
            return solve_groups(self.reach, self.groups, self.payoff(constant, sign, win), constant, sign,
                                self.size, start, policy, allowed, noise=noise)
        resets = np.full(self.seats * self.goal, float(start))
        actions = np.zeros((self.size, self.goal), dtype=np.uint8)
        starts = np.full(self.size, float(start))
        for _ in range(MAX_OUTER):
            # Newton on each pair starts from the last step's values
            starts = solve_groups(self.reach, self.groups, self.payoff(constant, sign, win, resets), constant, sign,
                                  self.size, starts, policy, allowed, actions, noise)
            reached = starts[self.reset_positions]
            change = float(np.abs(reached - resets).max())
            if change <= max(1e-15, noise / 100) * max(1.0, float(np.abs(reached).max())):
                return starts
            resets = resets + _linear_solve(np.eye(len(resets)) - self.slopes(actions, sign), reached - resets)
        raise AssertionError("pig: Newton's method on the reset values did not settle (change %.3g)" % change)

    def slopes(self, actions, sign: float):
        """dF/dR for the policy ``actions`` (every position x slots): how the reset positions' start values
        move with the reset values, carried group by group through each turn's law (float64, fixed order)."""
        goal, count = self.goal, self.seats * self.goal
        slopes = np.zeros((self.size, count))
        for positions, local in self.groups:
            seat, mine, other = self.decode(positions)
            laws = turn_laws(self.reach, actions[positions])
            nxt = self.position(self.other_seat(seat), other, 0)
            direct = np.zeros((len(positions), count))
            for total in range(self.step, goal):
                weight = np.where(mine + total < goal, laws[:, total], 0.0)
                if weight.any():
                    direct += weight[:, None] * slopes[nxt + np.minimum(mine + total, goal - 1)]
            direct[np.arange(len(positions)), self.other_seat(seat) * goal + other] += laws[:, self.reset_column]
            direct *= sign
            bust = sign * laws[:, 0]
            slopes[positions] = (direct + bust[:, None] * direct[local]) / (1.0 - bust * bust[local])[:, None]
        return slopes[self.reset_positions]

    def sweep(self, starts, constant: float, sign: float, win: float, policy=None, allowed=None, good=None,
              turn=None, keep=None):
        """One Bellman update of every position from ``starts`` (a chunk of positions at a time): its residual.
        ``good`` receives the moves within TIE; ``keep(positions, values, actions)`` sees each chunk."""
        turn = turn or self.reach
        resets = starts[self.reset_positions] if self.reset else None
        payoff = self.payoff(constant, sign, win, resets)
        residual = 0.0
        for first in range(0, self.size, CHUNK):
            positions = np.arange(first, min(first + CHUNK, self.size))
            gains = payoff(positions, starts)
            gains[:, 0] = constant + sign * starts[self.partners[positions]]
            mask = None if good is None else np.zeros((len(positions), self.goal, 2), dtype=bool)
            values, actions, _ = play_turn(turn, gains, None if policy is None else policy[positions],
                                           None if allowed is None else allowed[positions], mask)
            if good is not None:
                good[positions] = mask
            residual = max(residual, float(np.abs(values[:, turn.gains + turn.root] - starts[positions]).max()))
            if keep is not None:
                keep(positions, values[:, turn.gains:], actions)
        return residual

    def expected_turns(self, policy=None, allowed=None) -> float:
        """An upper bound on the most expected turns still to play from any position, this turn included,
        under ``policy`` or free among ``allowed`` (the engine's :func:`~shutthebox.engine.pushluck.turns_bound`)."""
        turns = self.solve(1.0, 1.0, 1.0, 1.0, policy, allowed, TURNS_NOISE)
        residual = self.sweep(turns, 1.0, 1.0, 1.0, policy, allowed)
        most = float(turns.max())
        return pushluck.turns_bound(most, residual, pushluck.rounding(self.reach, most + 1.0))


class Solution:
    """``win`` (float64) and ``move`` (uint8: 1 roll, 0 hold) at row ``tri(i) + k`` (``tri(i) = i * goal -
    i * (i - 1) // 2``; only i + k < goal), column j; ``bound`` a proven bound on every entry's error;
    ``starts`` the start values ``(i, j)`` the sweep was made from (goal x goal), ``residual`` its residual,
    ``turns`` the most expected turns in the bound, ``rounding`` the sweep's rounding bound."""

    def __init__(self, variant, goal, sides, win, move, bound, starts, residual, turns, rounding):
        self.variant, self.goal, self.sides = variant, goal, sides
        self.win, self.move, self.bound = win, move, bound
        self.starts, self.residual, self.turns, self.rounding = starts, residual, turns, rounding

    def policy(self):
        """The stored moves as a policy of the engine (positions x turn totals; hold where i + k >= goal)."""
        goal = self.goal
        policy = np.zeros((goal * goal, goal), dtype=np.uint8)
        for mine in range(goal):
            rows = tri(goal, mine)
            policy[mine * goal: (mine + 1) * goal, : goal - mine] = self.move[rows: rows + goal - mine].T
        return policy


def tri(goal: int, mine: int) -> int:
    """The first row of banked score ``mine``."""
    return mine * goal - mine * (mine - 1) // 2


def solve(variant: str, goal: int, sides: int = 6) -> Solution:
    """Optimal play of ``variant`` to ``goal`` (``sides``: pig's die), both players playing to win."""
    return _solve(variant, goal, sides)


@lru_cache(maxsize=4)
def _solve(variant: str, goal: int, sides: int) -> Solution:
    space = Space(variant, goal, sides)
    starts = space.solve(1.0, -1.0, 1.0, 0.5)
    win = np.zeros((goal * (goal + 1) // 2, goal))
    move = np.zeros(win.shape, dtype=np.uint8)

    def keep(positions, values, actions):
        _, mine, other = space.decode(positions)
        rows = tri(goal, mine)[:, None] + np.arange(goal)[None, :]
        inside = mine[:, None] + np.arange(goal)[None, :] < goal
        columns = np.broadcast_to(other[:, None], rows.shape)
        win[rows[inside], columns[inside]] = values[inside]
        move[rows[inside], columns[inside]] = actions[inside]

    good = np.zeros((space.size, goal, 2), dtype=bool)
    residual = space.sweep(starts, 1.0, -1.0, 1.0, good=good, turn=space.full, keep=keep)
    # Totals at or past the goal are no states (the game is won), only slots of the shared turn: hold there.
    won = space.decode(np.arange(space.size))[1][:, None] + np.arange(goal)[None, :] >= goal
    good[won] = (True, False)
    turns = space.expected_turns(allowed=good)
    rounding = pushluck.rounding(space.full, 1.0)
    pushluck.check_tie(residual, turns, rounding)
    bound = pushluck.error_bound(residual, turns, rounding)
    for array in (win, move, starts):
        array.setflags(write=False)  # shared by the callers of solve(): a few solutions are kept
    return Solution(variant, goal, sides, win, move, bound, starts.reshape(goal, goal), residual, turns, rounding)


def _linear_solve(matrix, right):
    """``matrix^-1 right`` by Gaussian elimination with partial pivoting, elementwise in a fixed order."""
    a, b = matrix.copy(), right.copy()
    n = len(b)
    for k in range(n):
        pivot = k + int(np.argmax(np.abs(a[k:, k])))
        if pivot != k:
            a[[k, pivot]] = a[[pivot, k]]
            b[[k, pivot]] = b[[pivot, k]]
        factors = a[k + 1:, k] / a[k, k]
        a[k + 1:, k:] -= factors[:, None] * a[k, k:][None, :]
        b[k + 1:] -= factors * b[k]
    x = np.zeros(n)
    for k in range(n - 1, -1, -1):
        x[k] = b[k] / a[k, k]
        b[:k] -= a[:k, k] * x[k]
    return x
