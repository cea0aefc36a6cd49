"""Single-player strategies: one small interface, a registry, five families.

A strategy is built for one rule set and answers one question::

    strategy.choose(position, roll) -> move bitmask (0: no legal move)

Positions and moves are bitmasks (bit ``i`` = tile ``i + 1``). Exact
evaluation and simulation use ``strategy.choices(position, roll)``, a list of
``(move, probability)``; the default wraps ``choose`` (a deterministic
strategy), and a strategy whose choice is random overrides it with its exact
distribution (see Random).

To add a strategy: subclass Strategy (usually just ``key``), then register it::

    class LowestFirst(Strategy):
        name = "lowest-first"
        def key(self, position, move):
            return -(move & -move)          # prefer closing the lowest tile

    STRATEGIES["lowest-first"] = LowestFirst

Every evaluation, simulation and report picks it up by name.

Ties: a ``key`` strategy takes the move with the greatest key; among equal
keys, the one closing the highest tiles (the largest bitmask), the same
tie-break as the optimal tables.
"""

from __future__ import annotations

import random
from fractions import Fraction

from ..rules import Rules, moves_by_roll, tile_sums


class Strategy:
    """Base class: legal moves of each (position, roll), tie-break order first."""

    name = "strategy"
    title = "Strategy"
    deterministic = True

    def __init__(self, rules: Rules, seed=None):
        self.rules = rules
        self.sums = tile_sums(rules.tiles)
        self._legal: dict[int, dict[int, list[int]]] = {}

    def __repr__(self):
        return "<%s strategy for %s>" % (self.name, self.rules.describe())

    def legal(self, position: int, roll: int) -> list[int]:
        """Legal moves for ``roll`` at ``position``, largest bitmask first."""
        try:
            by_roll = self._legal[position]
        except KeyError:
            by_roll = self._legal[position] = moves_by_roll(self.rules, position, self.sums)
        return by_roll.get(roll, [])

    def choose(self, position: int, roll: int) -> int:
        """The move to play (a bitmask), or 0 when no legal move exists."""
        moves = self.legal(position, roll)
        if not moves:
            return 0
        key = self.key
        best, best_key = moves[0], key(position, moves[0])
        for move in moves[1:]:
            value = key(position, move)
            if value > best_key:  # strict: ties keep the highest tiles
                best, best_key = move, value
        return best

    def key(self, position: int, move: int):
        """Preference of a move (greater is better). Subclasses define it or override choose."""
        raise NotImplementedError

    def choices(self, position: int, roll: int) -> list[tuple[int, Fraction]]:
        """Exact distribution of the move played: ``[(move, probability), ...]``."""
        move = self.choose(position, roll)
        return [(move, Fraction(1))] if move else []


def _max_tile(move: int) -> int:
    return move.bit_length()


def _count(move: int) -> int:
    return bin(move).count("1")


class Random(Strategy):
    """A legal move chosen uniformly at random (seeded: ``Random(rules, seed=1)``)."""

    name = "random"
    title = "Random"
    deterministic = False

    def __init__(self, rules, seed=None):
        super().__init__(rules)
        self._random = random.Random(seed)

    def choose(self, position, roll):
        moves = self.legal(position, roll)
        return moves[self._random.randrange(len(moves))] if moves else 0

    def choices(self, position, roll):
        moves = self.legal(position, roll)
        return [(move, Fraction(1, len(moves))) for move in moves]


class Greedy(Strategy):
    """Close the highest tile possible; then the fewest tiles (the reference's ordering)."""

    name = "greedy"
    title = "Greedy"

    def key(self, position, move):
        return (_max_tile(move), -_count(move))


class MaxTiles(Strategy):
    """Close as many tiles as possible; then the highest tile (the reference's ordering)."""

    name = "max-tiles"
    title = "Max tiles"

    def key(self, position, move):
        return (_count(move), _max_tile(move))


class MostOptions(Strategy):
    """Leave the most roll totals that still have a legal move.

    Counted on the open tiles after the move, among the totals the dice can
    show there (one die or two, by the rules), each total counted once;
    shutting the box beats everything. Ties: the highest tile, then the fewest
    tiles (as the reference), then the highest tiles.
    """

    name = "most-options"
    title = "Most options"

    def __init__(self, rules, seed=None):
        super().__init__(rules)
        self._options: dict[int, int] = {0: 1 << 30}

    def options(self, position: int) -> int:
        """How many roll totals the dice can show at ``position`` have a legal move."""
        try:
            return self._options[position]
        except KeyError:
            rules = self.rules
            low, high = rules.roll_range(rules.dice_for(self.sums[position]))
            playable = moves_by_roll(rules, position, self.sums)
            count = self._options[position] = sum(1 for roll in playable if low <= roll <= high)
            return count

    def key(self, position, move):
        return (self.options(position & ~move), _max_tile(move), -_count(move))


class Optimal(Strategy):
    """The exact optimal move, from the shipped table (or solved on the spot for other rules).

    ``objective`` is ``"shut"`` (most likely to shut the box) or ``"score"``
    (lowest expected final score).
    """

    name = "optimal"
    title = "Optimal (shut)"
    objective = "shut"

    def __init__(self, rules, seed=None, objective=None):
        super().__init__(rules)
        if objective is not None:
            self.objective = objective
        self._move = _optimal_moves(rules, self.objective)

    def choose(self, position, roll):
        return self._move(position, roll)


class OptimalScore(Optimal):
    """The move with the lowest expected final score, from the shipped table."""

    name = "optimal-score"
    title = "Optimal (score)"
    objective = "score"


def _optimal_moves(rules, objective):
    """The function move(position, roll) of the optimal moves: from the shipped table, else solved."""
    from ....errors import TableError
    from .table import load_solo, variant_of

    variant = variant_of(rules)
    if variant is not None:
        try:
            table = load_solo(variant)
        except TableError:
            pass
        else:
            moves, width = table.move_array(objective), rules.max_roll + 1

            def from_table(position, roll):
                return moves[position * width + roll] if 0 <= roll < width else 0

            return from_table
    from .solver import solve_solo

    solution = solve_solo(rules)
    rows = solution.shut_moves if objective == "shut" else solution.score_moves

    def from_solution(position, roll):
        return rows[position][roll] if 0 <= roll < len(rows[position]) else 0

    return from_solution


# name -> factory(rules, seed=None) -> Strategy; the order is the order of reports.
STRATEGIES = {
    "random": Random,
    "max-tiles": MaxTiles,
    "greedy": Greedy,
    "most-options": MostOptions,
    "optimal": Optimal,
    "optimal-score": OptimalScore,
}


def make(name: str, rules: Rules, seed=None) -> Strategy:
    """Build a registered strategy by name; InvalidQuery naming the choices otherwise."""
    try:
        factory = STRATEGIES[name]
    except KeyError:
        from ....errors import InvalidQuery

        raise InvalidQuery("unknown strategy '%s' (choose %s)" % (name, ", ".join(STRATEGIES))) from None
    return factory(rules, seed=seed)
