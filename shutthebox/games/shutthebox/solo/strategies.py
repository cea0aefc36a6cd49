"""Single-player strategies: one small interface, a registry, and the simple rules a person can remember.

A strategy is built for one rule set and answers one question::

    strategy.choose(position, roll) -> move bitmask (0: no legal move)

and, where the rules let the player throw one die or all (``one_die_optional``),
``strategy.dice(position)``: how many dice to throw (all of them unless a
strategy says otherwise; the optimal ones follow the table).

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

A strategy whose ``deterministic`` is true is evaluated, simulated and logged
through ``choose`` alone; one that draws its moves sets it false and gives
``choices``.
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

    def dice(self, position: int) -> int:
        """How many dice to throw at ``position``: all of them (where the rules offer one die as a choice)."""
        return self.rules.dice_choices(position, self.sums[position])[0]


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
    rule = "close the highest tile you can, with the fewest tiles"

    def key(self, position, move):
        return (_max_tile(move), -_count(move))


class MaxTiles(Strategy):
    """Close as many tiles as possible; then the highest tile (the reference's ordering)."""

    name = "max-tiles"
    title = "Max tiles"
    rule = "close the most tiles you can, highest first"

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
            rolls = self.rules.possible_rolls(position, self.sums[position])
            playable = moves_by_roll(self.rules, position, self.sums)
            count = self._options[position] = sum(1 for roll in playable if roll in rolls)
            return count

    def key(self, position, move):
        return (self.options(position & ~move), _max_tile(move), -_count(move))


def scala_order(tiles: int) -> list[int]:
    """The order in which the reference project's Scala 2.13 ``(1 to tiles).toSet`` lists its tiles: insertion
    order up to 4 elements (``Set1`` .. ``Set4``), else a ``HashSet``'s, by the low 5 bits of each tile's
    improved hash (distinct for tiles 1 to 12, so one level of the trie holds them all): 5, 1, 6, 9, 2, 7, 3,
    8, 4 for nine tiles."""
    if tiles <= 4:
        return list(range(1, tiles + 1))

    def improve(code):  # scala.collection.Hashing.improve, in 32-bit arithmetic
        mask = 0xFFFFFFFF
        h = (code + (~(code << 9) & mask)) & mask
        h ^= h >> 14
        h = (h + (h << 4)) & mask
        return h ^ (h >> 10)

    slots = {tile: improve(tile) & 31 for tile in range(1, tiles + 1)}
    if len(set(slots.values())) != tiles:
        raise ValueError("the reference's order is not known for %d tiles" % tiles)
    return sorted(slots, key=slots.get)


class ReferenceMostOptions(Strategy):
    """The reference project's Most Options, as its code counts.

    A move's options are the dice-weighted roll outcomes (of the ``outcomes``
    equally likely throws of all the dice) whose total some set of tiles could
    make, counted on *all the tiles minus the move*, not on the tiles left open:
    the reference's ``numValidRolls(allTiles -- combo)``. The most options wins;
    then the highest tile; then the fewest tiles; then the reference's own list
    order (subsets by size, then in the order its Scala set lists the tiles:
    :func:`scala_order`). Under the two-dice rules its exact chance to shut the
    box is 6.746%; the reference simulated 6.757%.
    """

    name = "most-options-reference"
    title = "Most options (reference)"

    def __init__(self, rules, seed=None):
        super().__init__(rules)
        self._weighted: dict[int, int] = {}
        order = scala_order(rules.tiles)
        self._index = {tile: index for index, tile in enumerate(order)}

    def weighted_options(self, tiles: int) -> int:
        """Throws (of ``outcomes``) whose total some set of ``tiles`` (a bitmask) makes."""
        try:
            return self._weighted[tiles]
        except KeyError:
            rules = self.rules
            weights = rules.roll_weights(rules.dice_choices(tiles, self.sums[tiles])[0]) if tiles else {}
            playable = moves_by_roll(rules, tiles, self.sums) if tiles else {}
            count = self._weighted[tiles] = sum(weight for roll, weight in weights.items() if roll in playable)
            return count

    def key(self, position, move):
        return (self.weighted_options(self.rules.all_open & ~move), _max_tile(move), -_count(move))

    def _listed(self, move):
        """The reference's list order of a move (smaller first)."""
        return (_count(move), sorted(self._index[tile] for tile in range(1, self.rules.tiles + 1)
                                     if move >> (tile - 1) & 1))

    def choose(self, position, roll):
        moves = self.legal(position, roll)
        if not moves:
            return 0
        best = max(self.key(position, move) for move in moves)
        tied = [move for move in moves if self.key(position, move) == best]
        return min(tied, key=self._listed)


# -- simple rules a person can remember ---------------------------------------------


class FewestTiles(Strategy):
    """Close the fewest tiles; among those, the highest tiles."""

    name = "fewest-tiles"
    title = "Fewest tiles"
    rule = "close the fewest tiles, highest first"

    def key(self, position, move):
        return -_count(move)


class FewestSpareLow(Strategy):
    """Close the fewest tiles; among those, one that closes the highest open tile; else spare the low
    tiles (the move whose lowest tile is highest)."""

    name = "fewest-spare-low"
    title = "Fewest tiles, spare the low"
    rule = "close the fewest tiles: the highest open tile if you can, else spare the low tiles"

    def key(self, position, move):
        return (-_count(move), move.bit_length() == position.bit_length(), (move & -move).bit_length())


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
        self._move, self._dice = _optimal_moves(rules, self.objective)

    def choose(self, position, roll):
        return self._move(position, roll)

    def dice(self, position):
        return self._dice(position)


class OptimalScore(Optimal):
    """The move with the lowest expected final score, from the shipped table."""

    name = "optimal-score"
    title = "Optimal (score)"
    objective = "score"


def _optimal_moves(rules, objective):
    """The functions move(position, roll) and dice(position) of the optimal play: from the shipped table of
    a named rule set, else solved here."""
    from ....errors import TableError
    from .table import load_solo, variant_of

    variant = variant_of(rules)
    if variant is not None:
        try:
            table = load_solo(variant, build=False)
        except TableError:
            pass
        else:
            moves, width = table.move_array(objective), rules.max_roll + 1

            def from_table(position, roll):
                return moves[position * width + roll] if 0 <= roll < width else 0

            def dice_from_table(position):
                return table.dice(position, objective) if position else rules.dice

            return from_table, dice_from_table
    solution = _solved(rules)
    rows = solution.shut_moves if objective == "shut" else solution.score_moves

    def from_solution(position, roll):
        return rows[position][roll] if 0 <= roll < len(rows[position]) else 0

    def dice_from_solution(position):
        return solution.dice(position, objective)

    return from_solution, dice_from_solution


_SOLVED: dict = {}


def _solved(rules):
    """The exact solution of a rule set with no shipped table, solved once per process (both objectives)."""
    from .solver import solve_solo

    try:
        return _SOLVED[rules]
    except KeyError:
        if len(_SOLVED) > 8:
            _SOLVED.clear()
        solution = _SOLVED[rules] = solve_solo(rules)
        return solution


# name -> factory(rules, seed=None) -> Strategy; the order is the order of reports.
STRATEGIES = {
    "random": Random,
    "max-tiles": MaxTiles,
    "greedy": Greedy,
    "most-options": MostOptions,
    "most-options-reference": ReferenceMostOptions,
    "fewest-tiles": FewestTiles,
    "fewest-spare-low": FewestSpareLow,
    "optimal": Optimal,
    "optimal-score": OptimalScore,
}
# The strategies a person can play from memory (each has a ``rule``, one line): the report gives each one's
# exact value, its loss against optimal play and the positions where it costs most.
SIMPLE_RULES = ("greedy", "fewest-tiles", "fewest-spare-low", "max-tiles")


def make(name: str, rules: Rules, seed=None) -> Strategy:
    """Build a registered strategy by name; InvalidQuery naming the choices otherwise."""
    try:
        factory = STRATEGIES[name]
    except KeyError:
        from ....errors import InvalidQuery

        raise InvalidQuery("unknown strategy '%s' (choose %s)" % (name, ", ".join(STRATEGIES))) from None
    return factory(rules, seed=seed)
