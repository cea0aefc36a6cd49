"""Exact solutions by dynamic programming (build time only).

Values are kept as integer numerators over one common denominator per turn,
so ties between moves are decided exactly and cheaply.

Why a common denominator exists: a turn from a position with ``k`` open tiles
lasts at most ``k`` throws, each with probabilities in units of
``1/outcomes`` (36 for two dice), and the turn's results (0, 1/2, 1 for two
players) are rationals. Scaling those results by ``unit = D * outcomes**tiles``
(``D`` their common denominator) makes every value a whole number; the solver
checks that every division on the way is exact.

Several players (:func:`solve_players`): player ``k`` of ``N`` needs to know
only the best score posted before them, ``best``, and how many players share
it, ``shared``. A player who shuts the box wins; otherwise only beating or tying
``best`` matters, and a tie's share depends only on how many tie. Later players
see the same two numbers, updated by this player's score. So the state of a
turn is ``(k, best, shared)``, and the game is solved from the last player back.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from .rules import Rules, moves_by_roll, tile_sums

# Bump when the solver's output for the same rules changes; stamped in tables.
SOLVER_VERSION = 1


class TwoPlayerSolution:
    """Exact values and tie-broken optimal moves for every state.

    ``e1[position]`` over ``d1`` is player one's expected wins before rolling;
    ``e2[score][position]`` over ``d2`` is player two's, once player one has
    finished with ``score``. ``m1[position][roll]`` and
    ``m2[score][position][roll]`` are the moves (bitmasks; 0 = no legal move).
    ``c1[position]`` and ``c2[score][position]`` are the dice thrown (they
    matter only when one die is optional).
    """

    def __init__(self, rules, e1, d1, m1, e2, d2, m2, c1=None, c2=None):
        self.rules = rules
        self.e1, self.d1, self.m1 = e1, d1, m1
        self.e2, self.d2, self.m2 = e2, d2, m2
        self.c1, self.c2 = c1, c2

    def expect_one(self, position: int) -> Fraction:
        return Fraction(self.e1[position], self.d1)

    def expect_two(self, position: int, score: int) -> Fraction:
        return Fraction(self.e2[score][position], self.d2)

    def move_one(self, position: int, roll: int) -> int:
        return self.m1[position][roll]

    def move_two(self, position: int, score: int, roll: int) -> int:
        return self.m2[score][position][roll]


class Turn:
    """What can happen in one throw from each position, precomputed once."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.size = 1 << rules.tiles
        self.sums = tile_sums(rules.tiles)
        weights = {n: rules.roll_weights(n) for n in {1, rules.dice}}
        # per position, per number of dice the player may throw:
        # (dice, weight of rolls that end the turn, [(roll, weight, ((successor, move), ...)), ...])
        self.throws = [()]
        for position in range(1, self.size):
            moves = moves_by_roll(rules, position, self.sums)
            throws = []
            for dice in rules.dice_choices(position, self.sums[position]):
                stuck = 0
                choices = []
                for roll, weight in weights[dice].items():
                    if roll in moves:
                        pairs = tuple((position ^ move, move) for move in moves[roll])
                        choices.append((roll, weight, pairs))
                    else:
                        stuck += weight
                throws.append((dice, stuck, choices))
            self.throws.append(tuple(throws))

    def solve(self, win: int, end_value) -> tuple[list[int], list[list[int]], list[int]]:
        """Values (numerators), best moves and dice thrown, for a whole turn.

        ``win`` is the numerator of shutting the box; ``end_value(score)`` the
        numerator when the turn ends with ``score``. Successors are smaller
        integers than their position, so increasing order is a valid DP order.
        """
        outcomes = self.rules.outcomes
        width = self.rules.max_roll + 1
        values = [win] + [0] * (self.size - 1)
        best_moves = [[0] * width]
        thrown = [0] * self.size
        sums = self.sums
        for position in range(1, self.size):
            row = [0] * width
            best_total = -1
            for dice, stuck, choices in self.throws[position]:
                total = stuck * end_value(sums[position]) if stuck else 0
                for roll, weight, pairs in choices:
                    best = -1
                    for successor, move in pairs:
                        value = values[successor]
                        if value > best:  # strict: the first (highest-tile) move keeps ties
                            best, chosen = value, move
                    total += weight * best
                    row[roll] = chosen
                if total > best_total:  # strict: all dice (listed first) keep ties
                    best_total, thrown[position] = total, dice
            values[position] = _exact(best_total, outcomes, position)
            best_moves.append(row)
        return values, best_moves, thrown

    def follow(self, moves, thrown, win: int, end_value) -> list[int]:
        """Values (numerators) of a turn played with the given moves and dice."""
        outcomes = self.rules.outcomes
        values = [win] + [0] * (self.size - 1)
        sums = self.sums
        for position in range(1, self.size):
            row = moves[position]
            for dice, stuck, choices in self.throws[position]:
                if dice == thrown[position]:
                    total = stuck * end_value(sums[position]) if stuck else 0
                    for roll, weight, _ in choices:
                        total += weight * values[position ^ row[roll]]
                    break
            values[position] = _exact(total, outcomes, position)
        return values


def _exact(total: int, outcomes: int, position: int) -> int:
    value, remainder = divmod(total, outcomes)
    if remainder:
        raise ArithmeticError("inexact value at position %d" % position)
    return value


def solve_two_player(rules: Rules, progress=None) -> TwoPlayerSolution:
    """Solve the two-player game exactly for ``rules``."""
    turn = Turn(rules)
    scale = rules.outcomes**rules.tiles
    d2 = 2 * scale
    scores = rules.max_score + 1
    e2, m2, c2 = [None] * scores, [None] * scores, [None] * scores
    # Score 0 means player one shut the box: player two never plays and loses.
    e2[0], c2[0] = [0] * turn.size, [0] * turn.size
    m2[0] = [[0] * (rules.max_roll + 1) for _ in range(turn.size)]
    for score in range(1, scores):

        def end_two(own, score=score):
            return d2 if own < score else scale if own == score else 0

        e2[score], m2[score], c2[score] = turn.solve(d2, end_two)
        if progress:
            progress(score, scores)

    d1 = d2 * scale
    full = rules.all_open

    def end_one(own):
        return (d2 - e2[own][full]) * scale

    e1, m1, c1 = turn.solve(d1, end_one)
    if progress:
        progress(scores, scores)
    return TwoPlayerSolution(rules, e1, d1, m1, e2, d2, m2, c1, c2)


class PlayersSolution:
    """Exact values and moves of every player's turn in an N-player game.

    States are numbered by :meth:`state`: 0 is player 1; player ``k >= 2``
    with best posted score ``best`` shared by ``shared`` players has
    ``1 + max_score * ((k - 1) * (k - 2) / 2 + shared - 1) + best - 1``.
    ``values[state][position]`` over ``units[state]`` is that player's
    expected wins before rolling; ``moves[state][position][roll]`` the move;
    ``thrown[state][position]`` the dice thrown.
    """

    def __init__(self, rules, players, values, units, moves, thrown):
        self.rules, self.players = rules, players
        self.values, self.units, self.moves, self.thrown = values, units, moves, thrown

    def state(self, player: int, best: int = 0, shared: int = 0) -> int:
        return state_index(self.rules.max_score, player, best, shared)

    def expect(self, position: int, state: int) -> Fraction:
        return Fraction(self.values[state][position], self.units[state])

    def move(self, position: int, state: int, roll: int) -> int:
        return self.moves[state][position][roll]


def state_count(max_score: int, players: int) -> int:
    return 1 + max_score * players * (players - 1) // 2


def state_index(max_score: int, player: int, best: int = 0, shared: int = 0) -> int:
    """Row of player ``player``'s turn, given the best score posted before it."""
    if player == 1:
        return 0
    return 1 + max_score * ((player - 1) * (player - 2) // 2 + shared - 1) + best - 1


def solve_players(rules: Rules, players: int, progress=None) -> PlayersSolution:
    """Solve the N-player game exactly: every player maximises their own expected wins."""
    if type(players) is not int or not 1 <= players <= 16:
        raise ValueError("players must be a whole number from 1 to 16")
    turn = Turn(rules)
    scale = rules.outcomes**rules.tiles
    top = rules.max_score
    full = rules.all_open
    count = state_count(top, players)
    values, units, moves, thrown = [None] * count, [None] * count, [None] * count, [None] * count
    done = 0

    def share_after_last(best, shared):  # nobody left to play: the leaders split the win
        return Fraction(1, shared)

    share = share_after_last  # share(best, shared): each leader's expected win, later players to come
    for player in range(players, 0, -1):
        states = [(top + 1, 0)] if player == 1 else [(b, c) for c in range(1, player) for b in range(1, top + 1)]
        leaders: dict = {}
        for best, shared in states:

            def own(score, best=best, shared=shared, share=share):
                if score < best:
                    return share(score, 1)
                return share(best, shared + 1) if score == best else Fraction(0)

            unit, numerators = _over_one_unit([Fraction(1)] + [own(s) for s in range(1, top + 1)], scale)
            index = state_index(top, player, best, shared)
            values[index], moves[index], thrown[index] = turn.solve(unit, numerators.__getitem__)
            units[index] = unit
            if player > 1:
                # What this turn leaves to the players already sharing ``best``.
                def theirs(score, best=best, shared=shared, share=share):
                    if score < best:
                        return Fraction(0)
                    return share(best, shared + 1) if score == best else share(best, shared)

                kept_unit, kept_numerators = _over_one_unit([Fraction(0)] + [theirs(s) for s in range(1, top + 1)], scale)
                left = turn.follow(moves[index], thrown[index], 0, kept_numerators.__getitem__)
                leaders[best, shared] = Fraction(left[full], kept_unit)
            done += 1
            if progress:
                progress(done, count)
        if player > 1:
            share = _as_function(leaders)
    return PlayersSolution(rules, players, values, units, moves, thrown)


def _over_one_unit(ends, scale):
    """Turn results (Fractions: index 0 = shut, then by score) as integer
    numerators over one unit that keeps every division of the DP exact."""
    unit = lcm(*(end.denominator for end in ends)) * scale
    return unit, [end.numerator * (unit // end.denominator) for end in ends]


def _as_function(table: dict):
    def share(best, shared):
        return table[best, shared]

    return share
