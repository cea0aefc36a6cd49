"""Exact two-player solution by dynamic programming (build time only).

Values are kept as integer numerators over one common denominator per
player, so ties between moves are decided exactly and cheaply.

Why a common denominator exists: a turn from a position with ``k`` open tiles
lasts at most ``k`` throws, each with probabilities in units of
``1/outcomes`` (36 for two dice), and the final result is 0, 1/2 or 1. So
``E2 * 2 * outcomes**tiles`` is a whole number. Player one's value adds one
more turn (player two's), hence ``E1 * 2 * outcomes**(2 * tiles)``. The solver
checks every division on the way is exact.
"""

from __future__ import annotations

from fractions import Fraction

from .rules import Rules, moves_by_roll, tile_sums

# Bump when the solver's output for the same rules changes; stamped in tables.
SOLVER_VERSION = 1


class TwoPlayerSolution:
    """Exact values and tie-broken optimal moves for every state.

    ``e1[position]`` over ``d1`` is player one's expected wins before rolling;
    ``e2[score][position]`` over ``d2`` is player two's, once player one has
    finished with ``score``. ``m1[position][roll]`` and
    ``m2[score][position][roll]`` are the moves (bitmasks; 0 = no legal move).
    """

    def __init__(self, rules, e1, d1, m1, e2, d2, m2):
        self.rules = rules
        self.e1, self.d1, self.m1 = e1, d1, m1
        self.e2, self.d2, self.m2 = e2, d2, m2

    def expect_one(self, position: int) -> Fraction:
        return Fraction(self.e1[position], self.d1)

    def expect_two(self, position: int, score: int) -> Fraction:
        return Fraction(self.e2[score][position], self.d2)

    def move_one(self, position: int, roll: int) -> int:
        return self.m1[position][roll]

    def move_two(self, position: int, score: int, roll: int) -> int:
        return self.m2[score][position][roll]


class _Turn:
    """What can happen in one throw from each position, precomputed once."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.size = 1 << rules.tiles
        self.sums = tile_sums(rules.tiles)
        weights = {n: rules.roll_weights(n) for n in {1, rules.dice}}
        # per position: (weight of throws that end the turn,
        #                [(roll, weight, ((successor, move), ...)), ...])
        self.options = [(0, [])]
        for position in range(1, self.size):
            moves = moves_by_roll(rules, position, self.sums)
            stuck = 0
            choices = []
            for roll, weight in weights[rules.dice_for(self.sums[position])].items():
                if roll in moves:
                    pairs = tuple((position ^ move, move) for move in moves[roll])
                    choices.append((roll, weight, pairs))
                else:
                    stuck += weight
            self.options.append((stuck, choices))

    def solve(self, win: int, end_value) -> tuple[list[int], list[list[int]]]:
        """Values (numerators) and best moves of one player's whole turn.

        ``win`` is the numerator of shutting the box; ``end_value(score)`` the
        numerator when the turn ends with ``score``. Successors are smaller
        integers than their position, so increasing order is a valid DP order.
        """
        outcomes = self.rules.outcomes
        width = self.rules.max_roll + 1
        values = [win] + [0] * (self.size - 1)
        best_moves = [[0] * width]
        sums = self.sums
        for position in range(1, self.size):
            stuck, choices = self.options[position]
            total = stuck * end_value(sums[position]) if stuck else 0
            row = [0] * width
            for roll, weight, pairs in choices:
                best = -1
                for successor, move in pairs:
                    value = values[successor]
                    if value > best:  # strict: the first (highest-tile) move keeps ties
                        best, chosen = value, move
                total += weight * best
                row[roll] = chosen
            value, remainder = divmod(total, outcomes)
            if remainder:
                raise ArithmeticError("inexact value at position %d" % position)
            values[position] = value
            best_moves.append(row)
        return values, best_moves


def solve_two_player(rules: Rules, progress=None) -> TwoPlayerSolution:
    """Solve the two-player game exactly for ``rules``."""
    turn = _Turn(rules)
    scale = rules.outcomes**rules.tiles
    d2 = 2 * scale
    e2 = [None] * (rules.max_score + 1)
    m2 = [None] * (rules.max_score + 1)
    # Score 0 means player one shut the box: player two never plays and loses.
    e2[0] = [0] * turn.size
    m2[0] = [[0] * (rules.max_roll + 1) for _ in range(turn.size)]
    for score in range(1, rules.max_score + 1):

        def end_two(own, score=score):
            return d2 if own < score else scale if own == score else 0

        e2[score], m2[score] = turn.solve(d2, end_two)
        if progress:
            progress(score, rules.max_score)

    d1 = d2 * scale
    full = rules.all_open

    def end_one(own):
        return (d2 - e2[own][full]) * scale

    e1, m1 = turn.solve(d1, end_one)
    return TwoPlayerSolution(rules, e1, d1, m1, e2, d2, m2)
