"""What every Shut the Box table reader shares (query time): positions, rolls and moves read and
checked, and the messages that refuse them in the player's words.

Two players (``table.TwoPlayerTable``), more (``table.PlayersTable``) and one (``solo.table.SoloTable``)
build on :class:`BoxTable`.
"""

from ...engine.notation import format_set as format_position
from ...engine.notation import numbers_of as tiles_of
from ...engine.notation import parse_collection, parse_set
from ...engine.table import Table as TableBase
from ...engine.table import Values
from ...engine.text import as_whole
from ...engine.text import shown_value as _shown
from ...errors import InvalidQuery, TableError
from .rules import Rules

_CACHE_LIMIT = 1 << 16


class BoxTable(TableBase):
    """What every Shut the Box table reader shares: positions, rolls, moves, messages."""

    game = ""
    # A name for the rules in messages ("two-dice"), when the table has one.
    variant: str | None = None

    def __init__(self, tablefile):
        super().__init__(tablefile)
        try:
            self.rules = rules = Rules.from_dict(tablefile.rules)
        except Exception as error:  # noqa: BLE001 - InvalidRules, TypeError: a malformed rules map
            raise TableError("table file %s has rules this program does not know (%s); rebuild it with "
                             "`make tables`" % (self.path, error)) from None
        self._scores, self._rolls = rules.max_score + 1, rules.max_roll + 1
        shapes = tablefile.shapes
        if tablefile.game != self.game or any(
            shapes.get(name) != shape for name, shape in self.expected_shapes().items()
        ):
            raise TableError("table file %s is not a %s table for %s; rebuild it with `make tables`"
                             % (self.path, self.game, rules.describe()))
        self._positions: dict = {}
        self._tiles: dict = {}
        self._valid: dict = {}

    def expected_shapes(self) -> dict:
        raise NotImplementedError

    def moves_and_dice(self) -> tuple:
        """(Values of a move: a set of the tiles, 0 for none; Values of a number of dice thrown: 1 or all of
        them, 0 where no one throws), for ``value_ranges``."""
        rules = self.rules
        return (Values("a move of tiles 1 to %d" % rules.tiles, 0, (1 << rules.tiles) - 1),
                Values("a number of dice", 0, rules.dice, only=(0, 1, rules.dice)))

    def __getattr__(self, name):
        """Fetch an array the first time it is used; it is an attribute after that."""
        try:
            array_name = self.ARRAYS[name]
        except KeyError:
            raise AttributeError(name) from None
        found = self.file.arrays.get(array_name)
        setattr(self, name, found)
        return found

    # Lookups come in pairs, as in python-chess's syzygy: ``probe_*`` raises
    # InvalidQuery for a question without an answer, ``get_*`` returns ``default``.

    def probe_expect(self, position, scores=()) -> float:
        """Expected wins of the player to move (InvalidQuery when the question has no answer)."""
        return self.expect(position, scores)

    def probe_move(self, position, roll: int, scores=()) -> tuple[int, ...]:
        """Optimal move of the player to move (InvalidQuery when there is none)."""
        return self.move(position, roll, scores)

    def __repr__(self):
        return "<shutthebox.%s %s: %s>" % (type(self).__name__, self.path, self.rules.describe())

    # -- validation, shared ---------------------------------------------------

    def _position(self, position) -> int:
        if isinstance(position, str):
            mask = parse_set(position, self.rules.tiles)
        else:
            mask = parse_collection(position, self.rules.tiles)
        if not mask:
            raise InvalidQuery("the position is empty: with no tile open the box is already shut")
        if type(position) is str and len(self._positions) < _CACHE_LIMIT:
            self._positions[position] = mask
        return mask

    def position(self, position) -> int:
        """The bitmask of a position, validated."""
        try:
            return self._positions[position]
        except (KeyError, TypeError):
            return self._position(position)

    def open_sum(self, mask: int) -> int:
        return sum(tiles_of(mask))

    def possible_rolls(self, mask: int) -> frozenset:
        """Every roll the dice can show at a position (bitmask)."""
        try:
            return self._valid[mask]
        except KeyError:
            rolls = self._valid[mask] = self.rules.possible_rolls(mask, self.open_sum(mask))
            return rolls

    def roll_range(self, mask: int) -> tuple[int, int]:
        """Lowest and highest roll the dice can show at a position (bitmask)."""
        rolls = self.possible_rolls(mask)
        return min(rolls), max(rolls)

    def _check_roll(self, mask, roll):
        try:
            valid = self._valid[mask]
        except KeyError:
            valid = self.possible_rolls(mask)
        if type(roll) is not int or roll not in valid:
            roll = self._bad_roll(mask, roll)
        return roll

    def _bad_roll(self, mask, roll) -> int:
        """A roll that failed the fast check: as an int when it is a whole number the dice can show (a numpy
        integer), else InvalidQuery saying why."""
        number = as_whole(roll)
        if number is not None and type(roll) is not int:
            roll = number
            if roll in self.possible_rolls(mask):
                return roll
        if type(roll) is int and not -10**6 < roll < 10**6:
            raise InvalidQuery("the roll is far out of range")
        if type(roll) is not int:
            raise InvalidQuery("the roll must be a whole number, not %s" % _shown(roll))
        rules, total = self.rules, self.open_sum(mask)
        choices = rules.dice_choices(mask, total)
        rolls = sorted(self.possible_rolls(mask))
        if rules.one_die_at_most is not None and total <= rules.one_die_at_most:
            why = "the open tiles %s sum to %d, so " % (format_position(mask, self.rules.tiles), total)
        elif 1 in choices:
            why = "every tile above 6 is shut, so "
        elif rules.one_die_at_most is not None:
            why = "the open tiles %s sum to %d, so " % (format_position(mask, self.rules.tiles), total)
        elif rules.one_die_high_shut:
            why = "a tile above 6 is open, so "
        else:
            why = ""
        if len(choices) > 1:
            what = "%s or one die may be thrown" % _dice_words(choices[0])
        else:
            what = "%s %s thrown" % (_dice_words(choices[0]), "is" if choices[0] == 1 else "are")
        shown = "%d to %d" % (rolls[0], rolls[-1]) if len(rolls) == rolls[-1] - rolls[0] + 1 else \
            ", ".join(map(str, rolls))
        named = " under the %s rules" % self.variant if self.variant else ""
        raise InvalidQuery("roll %d is impossible%s: %s%s (%s)" % (roll, named, why, what, shown))

    def _move_tiles(self, mask, roll, move):
        try:
            return self._tiles[move]
        except KeyError:
            pass
        if not move:
            limit = self.rules.max_move_tiles
            raise InvalidQuery(
                "no %sopen tiles of %s add up to %d: the turn ends there, scoring %d"
                % ("%d or fewer " % limit if limit else "", format_position(mask, self.rules.tiles), roll, self.open_sum(mask))
            )
        tiles = self._tiles[move] = tiles_of(move)
        return tiles

    def _check_scores(self, scores, players) -> tuple[int, int, int]:
        """(player, best, shared) for the scores posted before the player."""
        try:
            posted = list(scores)
        except TypeError:
            raise InvalidQuery("the scores posted so far must be a list of whole numbers, not %s" % _shown(scores)) from None
        if len(posted) >= players:
            raise InvalidQuery("%d scores posted, but in a game of %d players at most %d are posted before a turn"
                               % (len(posted), players, players - 1))
        for number, score in enumerate(posted):
            if type(score) is not int and as_whole(score) is not None:
                score = posted[number] = as_whole(score)  # a numpy integer
            if type(score) is int and score == 0:  # (an array's == is no truth value)
                raise InvalidQuery("score 0 means that player shut the box and won: nobody plays after")
            if type(score) is not int or not 0 < score < self._scores:
                raise InvalidQuery("a posted score must be a whole number from 1 to %d (the sum of the tiles left "
                                   "open), not %s" % (self._scores - 1, _shown(score)))
        if not posted:
            return 1, 0, 0
        best = min(posted)
        return len(posted) + 1, best, posted.count(best)


def _dice_words(dice: int) -> str:
    if dice == 1:
        return "one die"
    return "%s dice" % ({2: "two", 3: "three"}.get(dice) or dice)
