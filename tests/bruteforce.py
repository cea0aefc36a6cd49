"""An independent, deliberately naive solver for checking the real one.

It shares no code with shutthebox: tiles are tuples, probabilities are
Fractions from enumerating every face of every die, moves come from
itertools.combinations, and the tie-break is the literal rule (sort the
closed tiles decreasingly, take the lexicographically greatest).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product

HALF = Fraction(1, 2)


class BruteForce:
    def __init__(self, tiles=9, sides=6, dice=2, one_die_at_most=6, max_move_tiles=None,
                 one_die_optional=False, one_die_high_shut=False):
        self.all_tiles = tuple(range(1, tiles + 1))
        self.sides, self.dice = sides, dice
        self.one_die_at_most, self.max_move_tiles = one_die_at_most, max_move_tiles
        self.one_die_optional, self.one_die_high_shut = one_die_optional, one_die_high_shut
        self.expect_one = lru_cache(maxsize=None)(self._expect_one)
        self.expect_two = lru_cache(maxsize=None)(self._expect_two)
        self.results = lru_cache(maxsize=None)(self._results)
        self.turn_results = lru_cache(maxsize=None)(self._turn_results)

    def dice_counts(self, open_tiles):
        """Numbers of dice the player may throw, all dice first."""
        few = self.one_die_at_most is not None and sum(open_tiles) <= self.one_die_at_most
        few = few or (self.one_die_high_shut and all(t <= 6 for t in open_tiles))
        if not few:
            return [self.dice]
        return [self.dice, 1] if self.one_die_optional else [1]

    def chances(self, count):
        totals = Counter(sum(faces) for faces in product(range(1, self.sides + 1), repeat=count))
        return {roll: Fraction(n, self.sides**count) for roll, n in totals.items()}

    def roll_chances(self, open_tiles):
        """Every roll some allowed number of dice can show (chances of the first)."""
        merged = {}
        for count in reversed(self.dice_counts(open_tiles)):
            merged.update(self.chances(count))
        return merged

    def moves(self, open_tiles, roll):
        most = len(open_tiles) if self.max_move_tiles is None else self.max_move_tiles
        return [c for k in range(1, most + 1) for c in combinations(open_tiles, k) if sum(c) == roll]

    @staticmethod
    def after(open_tiles, move):
        return tuple(t for t in open_tiles if t not in move)

    @staticmethod
    def pick(options):
        """(value, move) pairs -> the best value and its tie-broken move."""
        top = max(value for value, _ in options)
        tied = [move for value, move in options if value == top]
        return top, max(tied, key=lambda move: sorted(move, reverse=True))

    def _turn(self, open_tiles, value_of, end_value):
        if not open_tiles:
            return Fraction(1)
        best = None
        for count in self.dice_counts(open_tiles):
            total = Fraction(0)
            for roll, chance in self.chances(count).items():
                options = [(value_of(self.after(open_tiles, m)), m) for m in self.moves(open_tiles, roll)]
                total += chance * (self.pick(options)[0] if options else end_value(sum(open_tiles)))
            best = total if best is None else max(best, total)
        return best

    def _expect_two(self, open_tiles, score):
        def end(own):
            return Fraction(1) if own < score else HALF if own == score else Fraction(0)

        return self._turn(open_tiles, lambda rest: self.expect_two(rest, score), end)

    def _expect_one(self, open_tiles):
        def end(own):
            return 1 - self.expect_two(self.all_tiles, own)

        return self._turn(open_tiles, self.expect_one, end)

    def move_one(self, open_tiles, roll):
        if roll not in self.roll_chances(open_tiles):
            return ()
        options = [(self.expect_one(self.after(open_tiles, m)), m) for m in self.moves(open_tiles, roll)]
        return self.pick(options)[1] if options else ()

    def move_two(self, open_tiles, score, roll):
        if roll not in self.roll_chances(open_tiles):
            return ()
        options = [(self.expect_two(self.after(open_tiles, m), score), m) for m in self.moves(open_tiles, roll)]
        return self.pick(options)[1] if options else ()

    def positions(self):
        return [c for k in range(1, len(self.all_tiles) + 1) for c in combinations(self.all_tiles, k)]

    # -- any number of players, from the full list of posted scores ----------

    def _results(self, players, posted):
        """Expected wins of every player, players ``1..len(posted)`` having
        posted those scores and the next one about to start: a tuple."""
        player = len(posted)
        if player == players:
            best = min(posted)
            winners = [i for i, score in enumerate(posted) if score == best]
            return tuple(Fraction(1, len(winners)) if i in winners else Fraction(0) for i in range(players))
        return self.turn_results(players, posted, self.all_tiles)

    def _turn_results(self, players, posted, open_tiles):
        """Result vector of the moving player's turn from ``open_tiles``."""
        player = len(posted)
        if not open_tiles:
            return tuple(Fraction(int(i == player)) for i in range(players))
        best = None
        for count in self.dice_counts(open_tiles):
            total = [Fraction(0)] * players
            for roll, chance in self.chances(count).items():
                moves = self.moves(open_tiles, roll)
                if moves:
                    options = [(self.turn_results(players, posted, self.after(open_tiles, m)), m) for m in moves]
                    top = max(vector[player] for vector, _ in options)
                    tied = [(vector, m) for vector, m in options if vector[player] == top]
                    vector = max(tied, key=lambda pair: sorted(pair[1], reverse=True))[0]
                else:
                    vector = self.results(players, posted + (sum(open_tiles),))
                total = [t + chance * v for t, v in zip(total, vector)]
            if best is None or total[player] > best[player]:
                best = total
        return tuple(best)

    def move_of_player(self, players, posted, open_tiles, roll):
        if roll not in self.roll_chances(open_tiles):
            return ()
        options = [(self.turn_results(players, posted, self.after(open_tiles, m)), m)
                   for m in self.moves(open_tiles, roll)]
        if not options:
            return ()
        player = len(posted)
        top = max(vector[player] for vector, _ in options)
        return max((m for vector, m in options if vector[player] == top), key=lambda m: sorted(m, reverse=True))


# -- one player: an independent, naive solver of both objectives ------------------


class Naive:
    """Shares no code with shutthebox: enumerates dice faces and tile subsets literally."""

    def __init__(self, tiles, sides, dice, one_die_at_most, max_move_tiles):
        self.tiles, self.sides, self.dice = tiles, sides, dice
        self.one_die_at_most, self.max_move_tiles = one_die_at_most, max_move_tiles
        self.shut = lru_cache(maxsize=None)(self._shut)
        self.score = lru_cache(maxsize=None)(self._score)

    def chances(self, open_tiles):
        count = self.dice
        if self.one_die_at_most is not None and sum(open_tiles) <= self.one_die_at_most:
            count = 1
        faces = list(product(range(1, self.sides + 1), repeat=count))
        totals = Counter(sum(face) for face in faces)
        return {total: Fraction(n, len(faces)) for total, n in totals.items()}

    def moves(self, open_tiles, roll):
        """Legal moves, tie-break order: closed tiles sorted decreasingly, greatest first."""
        found = []
        for size in range(1, len(open_tiles) + 1):
            if self.max_move_tiles is not None and size > self.max_move_tiles:
                break
            found += [c for c in combinations(open_tiles, size) if sum(c) == roll]
        return sorted(found, key=lambda c: sorted(c, reverse=True), reverse=True)

    def after(self, open_tiles, move):
        return tuple(t for t in open_tiles if t not in move)

    def best(self, open_tiles, roll, value, better):
        chosen = None
        for move in self.moves(open_tiles, roll):
            v = value(self.after(open_tiles, move))
            if chosen is None or better(v, chosen[0]):
                chosen = (v, move)
        return chosen

    def _shut(self, open_tiles):
        if not open_tiles:
            return Fraction(1)
        total = Fraction(0)
        for roll, chance in self.chances(open_tiles).items():
            found = self.best(open_tiles, roll, self.shut, lambda a, b: a > b)
            total += chance * (found[0] if found else 0)
        return total

    def _score(self, open_tiles):
        total = Fraction(0)
        for roll, chance in (self.chances(open_tiles).items() if open_tiles else ()):
            found = self.best(open_tiles, roll, self.score, lambda a, b: a < b)
            total += chance * (found[0] if found else sum(open_tiles))
        return total


def mask(tiles):
    return sum(1 << (t - 1) for t in tiles)


def tiles_of(m):
    return tuple(i + 1 for i in range(16) if m >> i & 1)


# Five six-sided dice kept and rerolled (yazy, Yahtzee): the 252 sorted rolls, and a turn's values by brute force.
SORTED_ROLLS = sorted({tuple(sorted(dice)) for dice in product(range(1, 7), repeat=5)})


def reroll_levels(now: dict) -> list:
    """[V0, V1, V2] of a turn of five dice from V0 (sorted roll -> value with no reroll left): V1 and V2 with
    1 and 2 rerolls left, holding any subset of the dice (all five: not rerolling), the others rerolled over
    every ordered outcome; each also carries "held" (held dice -> the value of rerolling the rest)."""
    values = [now]
    for _ in (1, 2):
        before = values[-1]
        held_value = {}
        for roll in SORTED_ROLLS:
            for mask in range(32):
                held = tuple(die for position, die in enumerate(roll) if mask >> position & 1)
                if held not in held_value:
                    rolled = 5 - len(held)
                    held_value[held] = sum(before[tuple(sorted(held + outcome))]
                                           for outcome in product(range(1, 7), repeat=rolled)) / 6**rolled
        level = {roll: max(now[roll], max(held_value[tuple(die for p, die in enumerate(roll) if m >> p & 1)]
                                          for m in range(32))) for roll in SORTED_ROLLS}
        level["held"] = held_value
        values.append(level)
    return values
