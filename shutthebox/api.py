"""Query-time API: ``load()`` a table and ask it questions.

>>> import shutthebox
>>> table = shutthebox.load()
>>> round(table.expect_one("123456789"), 6)
0.50281
>>> table.move_two("13456789", 17, 12)
(3, 9)

Expected wins count a tie as half a win; moves are the closed tiles in
increasing order, the highest tiles first among exactly equal moves.
"""

from __future__ import annotations

import os

from .errors import InvalidQuery, TableError
from .notation import format_position, parse_position, tiles_of
from .table import read_table

TABLE_ENV = "SHUTTHEBOX_TABLE"
STANDARD_TABLE = "standard.msgpack"
_PACKAGE = os.path.dirname(os.path.abspath(__file__))
# Installed wheel first (data mapped into the package), then the checkout.
SEARCH_PATH = (os.path.join(_PACKAGE, "data"), os.path.join(os.path.dirname(_PACKAGE), "data"))
_CACHE_LIMIT = 1 << 16


def find_table(name: str = STANDARD_TABLE) -> str:
    """Path of a shipped table, next to the package first; TableError if none."""
    tried = []
    for folder in SEARCH_PATH:
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return path
        tried.append(path)
    raise TableError(
        "no table file %s found (looked at %s); build it with `make tables`, or set %s"
        % (name, " and ".join(tried), TABLE_ENV)
    )


def load(path: str | None = None) -> "Table":
    """Load and verify a two-player table: ``path``, else $SHUTTHEBOX_TABLE, else the shipped one."""
    path = path or os.environ.get(TABLE_ENV) or find_table()
    return Table(read_table(path))


class Table:
    """Exact answers for one rule set of the two-player game.

    Positions are digit strings (``"146789"``) or iterables of tiles; scores
    and rolls are ints. Every method raises InvalidQuery, with a message for
    the player, for a question that has no answer.
    """

    def __init__(self, tablefile):
        self.file = tablefile
        self.path = tablefile.path
        self.rules = rules = tablefile.rules
        header, shapes = tablefile.header, tablefile.shapes
        positions, scores, rolls = 1 << rules.tiles, rules.max_score + 1, rules.max_roll + 1
        expected = {
            "e1": (positions,),
            "m1": (positions, rolls),
            "e2": (positions, scores),
            "m2": (positions, scores, rolls),
        }
        if header.get("game") != "two-player" or any(shapes.get(k) != v for k, v in expected.items()):
            raise TableError(
                "table file %s is not a two-player table for %s; rebuild it with `make tables`"
                % (self.path, rules.describe())
            )
        arrays = tablefile.arrays
        self._e1, self._m1, self._e2, self._m2 = arrays["e1"], arrays["m1"], arrays["e2"], arrays["m2"]
        self._scores, self._rolls = scores, rolls
        self._positions: dict = {}
        self._tiles: dict = {}
        self._ranges: dict = {}

    def __repr__(self):
        return "<shutthebox.Table %s: %s>" % (self.path, self.rules.describe())

    # -- the four questions ---------------------------------------------

    def expect_one(self, position) -> float:
        """Player one's expected wins at ``position``, before rolling."""
        try:
            mask = self._positions[position]
        except (KeyError, TypeError):
            mask = self._position(position)
        return self._e1[mask]

    def move_one(self, position, roll: int) -> tuple[int, ...]:
        """Player one's optimal move: the tiles to close, increasing."""
        try:
            mask = self._positions[position]
        except (KeyError, TypeError):
            mask = self._position(position)
        try:
            low, high = self._ranges[mask]
        except KeyError:
            low, high = self._roll_range(mask)
        if type(roll) is not int or not low <= roll <= high:
            self._bad_roll(mask, roll)
        try:
            return self._tiles[self._m1[mask * self._rolls + roll]]
        except KeyError:
            return self._no_move(mask, roll, self._m1[mask * self._rolls + roll])

    def expect_two(self, position, score: int) -> float:
        """Player two's expected wins at ``position``, player one having scored ``score``."""
        try:
            mask = self._positions[position]
        except (KeyError, TypeError):
            mask = self._position(position)
        if type(score) is not int or not 0 < score < self._scores:
            self._bad_score(score)
        return self._e2[mask * self._scores + score]

    def move_two(self, position, score: int, roll: int) -> tuple[int, ...]:
        """Player two's optimal move, player one having scored ``score``."""
        try:
            mask = self._positions[position]
        except (KeyError, TypeError):
            mask = self._position(position)
        if type(score) is not int or not 0 < score < self._scores:
            self._bad_score(score)
        try:
            low, high = self._ranges[mask]
        except KeyError:
            low, high = self._roll_range(mask)
        if type(roll) is not int or not low <= roll <= high:
            self._bad_roll(mask, roll)
        move = self._m2[(mask * self._scores + score) * self._rolls + roll]
        try:
            return self._tiles[move]
        except KeyError:
            return self._no_move(mask, roll, move)

    # -- validation -------------------------------------------------------

    def _position(self, position) -> int:
        mask = parse_position(position, self.rules.tiles)
        if type(position) is str and len(self._positions) < _CACHE_LIMIT:
            self._positions[position] = mask
        return mask

    def open_sum(self, mask: int) -> int:
        return sum(tiles_of(mask))

    def roll_range(self, mask: int) -> tuple[int, int]:
        """Lowest and highest roll the dice can show at a position (bitmask)."""
        return self.rules.roll_range(self.rules.dice_for(self.open_sum(mask)))

    def _roll_range(self, mask):
        found = self._ranges[mask] = self.roll_range(mask)
        return found

    def _bad_roll(self, mask, roll):
        if type(roll) is not int:
            raise InvalidQuery("the roll must be a whole number, not %r" % (roll,))
        low, high = self.roll_range(mask)
        dice = self.rules.dice_for(self.open_sum(mask))
        raise InvalidQuery(
            "roll %d is impossible: the open tiles %s sum to %d, so %s thrown (%d to %d)"
            % (roll, format_position(mask), self.open_sum(mask),
               _dice_words(dice), low, high)
        )

    def _no_move(self, mask, roll, move):
        """Tiles of a move not seen yet, or the error for a roll with no move."""
        if not move:
            raise InvalidQuery(
                "no open tiles of %s add up to %d: the turn ends there, scoring %d"
                % (format_position(mask), roll, self.open_sum(mask))
            )
        tiles = self._tiles[move] = tiles_of(move)
        return tiles

    def _bad_score(self, score):
        if score == 0 and type(score) is int:
            raise InvalidQuery("score 0 means player one shut the box and won: player two does not play")
        raise InvalidQuery(
            "player one's score must be a whole number from 1 to %d (the sum of the tiles left open), not %r"
            % (self._scores - 1, score)
        )


def _dice_words(dice: int) -> str:
    if dice == 1:
        return "one die is"
    return "%s dice are" % ({2: "two", 3: "three"}.get(dice) or dice)
