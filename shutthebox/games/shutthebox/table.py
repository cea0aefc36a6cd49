"""Query-time API: ``load()`` a table and ask it questions.

>>> import shutthebox
>>> table = shutthebox.load()
>>> round(table.expect_one("123456789"), 6)
0.50281
>>> table.move_two("13456789", 17, 12)
(3, 9)

Expected wins count a tie as half a win (a share of the win for ties among
several players); moves are the closed tiles in increasing order, the highest
tiles first among exactly equal moves.
"""

import os

from ...engine.store import open_table
from ...engine.table import CHANCE, load_table
from ...engine.text import as_whole
from ...engine.text import shown_value as _shown
from ...errors import InvalidQuery, TableError
from . import DECLARATION
from .boxtable import BoxTable
from .rules import MAX_BUILD_TILES, MAX_PLAYERS, STANDARD, Rules

TABLE_ENV = "SHUTTHEBOX_TABLE"
STANDARD_TABLE = "standard.msgpack"
GAMES = ("two-player", "multi-player")
_TABLES = DECLARATION.tables[0]


def table_name(rules: Rules = STANDARD, players: int = 2) -> str:
    """File name of the table for ``rules`` and ``players``: ``t12-2d6-one6-p2.msgpack``."""
    return _TABLES.name((rules, players))


def rules_of_name(name: str) -> tuple[Rules, int] | None:
    """The rules and players of the table file ``name`` (the inverse of :func:`table_name`), checked as
    the command line checks ``--tiles``, ``--players``, ... (InvalidQuery, in its words); None when
    ``name`` is not a Shut the Box table's name."""
    return _TABLES.parse(name)


def open_rules(game: tuple):
    """The table of ``(rules, players)`` as the command line opens it, solving it on first use and caching it
    (with no progress bar: follow it with ``engine.progress.observed``)."""
    rules, players = game
    return load(rules=rules, players=players, progress=False)


def header_fields(rules: Rules, players: int) -> dict:
    """The header fields a table for ``rules`` and ``players`` has (and a reader checks)."""
    if players == 2:
        return {"game": "two-player", "rules": rules.as_dict()}
    return {"game": "multi-player", "rules": rules.as_dict(), "players": players}


def describe_fields(fields: dict) -> str:
    """A table's game in words, for messages: ``a 3-player table (tiles 1-9, ...)``."""
    game, players = fields.get("game"), fields.get("players")
    try:
        rules = Rules.from_dict(fields.get("rules")).describe()
    except Exception:  # noqa: BLE001 - another game's rules: show them as they are
        rules = repr(fields.get("rules"))
    if game == "multi-player" and type(players) is int:
        return "a %d-player table (%s)" % (players, rules)
    if game in GAMES or game == "one-player":
        return "a %s table (%s)" % (game, rules)
    return "a %r table (%s)" % (game, rules)


def load(path: str | None = None, *, rules: Rules | None = None, players: int = 2, build: bool = True,
         progress: bool | None = None):
    """Load and verify a Shut the Box table; return a :class:`TwoPlayerTable` or :class:`PlayersTable`.

    With no arguments: $SHUTTHEBOX_TABLE, else the shipped standard table.
    With ``rules`` and/or ``players``: the shipped or cached table for them,
    solved on first use (unless ``build`` is false) and cached. With ``path``
    (a table file), its own rules, or ``rules``/``players`` it must hold.
    """
    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise InvalidQuery("path must be the name of a table file, not %s" % _shown(path))
    if rules is not None and not isinstance(rules, Rules):
        raise InvalidQuery("rules must be a shutthebox Rules object, not %s" % _shown(rules))
    if type(players) is not int or not 2 <= players <= MAX_PLAYERS:
        raise InvalidQuery("players must be a whole number from 2 to %d, not %s" % (MAX_PLAYERS, _shown(players)))
    asked = rules is not None or players != 2
    if path is None and not asked:
        path = os.environ.get(TABLE_ENV) or None
    if path is not None:
        path = os.fspath(path)
        if not asked:  # the file's own rules: any Shut the Box table
            return _reader(open_table(path, expect={}, path=path))
    rules = STANDARD if rules is None else rules
    if rules.tiles > MAX_BUILD_TILES:
        raise InvalidQuery("tables are solved for at most %d tiles, not %d" % (MAX_BUILD_TILES, rules.tiles))

    return load_table(_TABLES, _read, (rules, players), path, build, expect=header_fields(rules, players),
                      describe=describe_fields, hint=", or set %s" % TABLE_ENV, progress=progress)


def _read(tablefile, game):
    return _reader(tablefile)


def _reader(tablefile):
    """The reader class for the file's game."""
    game = tablefile.game
    if game == "multi-player":
        return PlayersTable(tablefile)
    if game == "two-player":
        return TwoPlayerTable(tablefile)
    raise TableError("table file %s holds %s, not a two-player or multi-player table; give one of those%s"
                     % (tablefile.path, describe_fields(tablefile.header),
                        " or ask with --solo" if game == "one-player" else ""))


class TwoPlayerTable(BoxTable):
    """Exact answers for one rule set of the two-player game.

    Positions are digit strings (``"146789"``) or iterables of tiles; scores
    and rolls are ints. Every method raises InvalidQuery, with a message for
    the player, for a question that has no answer.

    The four assignment questions repeat their checks inline rather than call
    shared helpers: a lookup must stay well under a microsecond.
    """

    game = "two-player"
    players = 2

    # Arrays are fetched (and, in a large file, verified) on first use only.
    ARRAYS = {"_e1": "e1", "_m1": "m1", "_e2": "e2", "_m2": "m2", "_c1": "c1", "_c2": "c2"}

    def value_ranges(self):
        moves, dice = self.moves_and_dice()
        return {"e1": CHANCE, "e2": CHANCE, "m1": moves, "m2": moves, "c1": dice, "c2": dice}

    def expected_shapes(self):
        positions, scores, rolls = 1 << self.rules.tiles, self._scores, self._rolls
        shapes = {"e1": (positions,), "m1": (positions, rolls), "e2": (positions, scores),
                  "m2": (positions, scores, rolls)}
        if self.rules.one_die_optional:
            shapes.update(c1=(positions,), c2=(positions, scores))
        return shapes

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
            valid = self._valid[mask]
        except KeyError:
            valid = self.possible_rolls(mask)
        if type(roll) is not int or roll not in valid:
            roll = self._bad_roll(mask, roll)
        move = self._m1[mask * self._rolls + roll]
        try:
            return self._tiles[move]
        except KeyError:
            return self._move_tiles(mask, roll, move)

    def expect_two(self, position, score: int) -> float:
        """Player two's expected wins at ``position``, player one having scored ``score``."""
        try:
            mask = self._positions[position]
        except (KeyError, TypeError):
            mask = self._position(position)
        if type(score) is not int or not 0 < score < self._scores:
            score = self._bad_score(score)
        return self._e2[mask * self._scores + score]

    def move_two(self, position, score: int, roll: int) -> tuple[int, ...]:
        """Player two's optimal move, player one having scored ``score``."""
        try:
            mask = self._positions[position]
        except (KeyError, TypeError):
            mask = self._position(position)
        if type(score) is not int or not 0 < score < self._scores:
            score = self._bad_score(score)
        try:
            valid = self._valid[mask]
        except KeyError:
            valid = self.possible_rolls(mask)
        if type(roll) is not int or roll not in valid:
            roll = self._bad_roll(mask, roll)
        move = self._m2[(mask * self._scores + score) * self._rolls + roll]
        try:
            return self._tiles[move]
        except KeyError:
            return self._move_tiles(mask, roll, move)

    # -- the same questions for any player, by the scores posted before ----

    def expect(self, position, scores=()) -> float:
        """Expected wins of the player to move, after ``scores`` were posted."""
        player, best, _ = self._check_scores(scores, 2)
        return self.expect_one(position) if player == 1 else self.expect_two(position, best)

    def move(self, position, roll: int, scores=()) -> tuple[int, ...]:
        """Optimal move of the player to move, after ``scores`` were posted."""
        player, best, _ = self._check_scores(scores, 2)
        return self.move_one(position, roll) if player == 1 else self.move_two(position, best, roll)

    def dice(self, position, scores=()) -> int:
        """How many dice the player to move should throw (a choice only when one die is optional)."""
        mask = self.position(position)
        player, best, _ = self._check_scores(scores, 2)
        if self._c1 is None:
            return self.rules.dice_choices(mask, self.open_sum(mask))[0]
        return self._c1[mask] if player == 1 else self._c2[mask * self._scores + best]

    def _bad_score(self, score) -> int:
        """A score that failed the fast check: as an int when it is a whole number in range (a numpy integer),
        else InvalidQuery saying why."""
        number = as_whole(score)
        if number is not None and type(score) is not int:
            score = number
            if 0 < score < self._scores:
                return score
        if type(score) is int and score == 0:  # (an array's == is no truth value)
            raise InvalidQuery("score 0 means player one shut the box and won: player two does not play")
        raise InvalidQuery(
            "player one's score must be a whole number from 1 to %d (the sum of the tiles left open), not %s"
            % (self._scores - 1, _shown(score))
        )


class PlayersTable(BoxTable):
    """Exact answers for a game of three or more players.

    A player's question names the scores posted before their turn
    (``scores=[17, 23]`` for the third player); only the best of them and how
    many players share it matter (docs/FORMAT.md explains why).
    """

    game = "multi-player"

    def __init__(self, tablefile):
        self.players = tablefile.header.get("players")
        if type(self.players) is not int or not 2 <= self.players <= MAX_PLAYERS:
            raise TableError("table file %s has no valid player count; rebuild it" % tablefile.path)
        super().__init__(tablefile)
        self._positions_count = 1 << self.rules.tiles

    ARRAYS = {"_e": "e", "_m": "m", "_c": "c"}

    def value_ranges(self):
        moves, dice = self.moves_and_dice()
        return {"e": CHANCE, "m": moves, "c": dice}

    def expected_shapes(self):
        states = 1 + (self._scores - 1) * self.players * (self.players - 1) // 2
        positions = 1 << self.rules.tiles
        shapes = {"e": (states, positions), "m": (states, positions, self._rolls)}
        if self.rules.one_die_optional:
            shapes["c"] = (states, positions)
        return shapes

    def _state(self, scores) -> int:
        player, best, shared = self._check_scores(scores, self.players)
        if player == 1:
            return 0
        return 1 + (self._scores - 1) * ((player - 1) * (player - 2) // 2 + shared - 1) + best - 1

    def expect(self, position, scores=()) -> float:
        """Expected wins of the player to move, after ``scores`` were posted."""
        mask = self.position(position)
        return self._e[self._state(scores) * self._positions_count + mask]

    def move(self, position, roll: int, scores=()) -> tuple[int, ...]:
        """Optimal move of the player to move, after ``scores`` were posted."""
        mask = self.position(position)
        state = self._state(scores)
        roll = self._check_roll(mask, roll)
        return self._move_tiles(mask, roll, self._m[(state * self._positions_count + mask) * self._rolls + roll])

    def expect_one(self, position) -> float:
        return self.expect(position, ())

    def move_one(self, position, roll: int) -> tuple[int, ...]:
        return self.move(position, roll, ())

    def expect_two(self, position, score: int) -> float:
        return self.expect(position, (score,))

    def move_two(self, position, score: int, roll: int) -> tuple[int, ...]:
        return self.move(position, roll, (score,))

    def dice(self, position, scores=()) -> int:
        """How many dice the player to move should throw."""
        mask = self.position(position)
        state = self._state(scores)
        if self._c is None:
            return self.rules.dice_choices(mask, self.open_sum(mask))[0]
        return self._c[state * self._positions_count + mask]
