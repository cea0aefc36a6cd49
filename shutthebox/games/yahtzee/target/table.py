"""Yahtzee's target tables (query time): ``load_target(joker)`` and the questions.

A table holds, for each turn-start state it covers (``position``: where each state number of
rules.state_index is held, or 2^32 - 1), the chances T(s, x) for x = 1 .. n(s) (``chance``, from
``offsets``):
T is 1 for x <= 0 and below ``cut`` (prints 0.000000) beyond n(s). The whole game's table
covers every state; a reduced one (``build.solve_table(joker, start=...)``) the game from
its ``start`` header field only. Mid-turn chances and moves are computed from it when asked
(``turn.py``). ``Targets`` answers any card: from the whole game's table when it is there, else from the
reduced table of the game from the card (``reduced/``), solved on first use and cached by card.
"""

import os

from ....engine.table import Table, Values, load_table
from ....engine.text import as_whole, shown_value
from ....errors import InvalidQuery, TableError
from .. import DECLARATION
from ..rules import (
    DEFAULT_JOKER, FIFTY, JOKERS, OPEN, UPPER_GOAL, ZERO, format_categories, rules_dict, sheet, state_index, states,
)
from ..table import YahtzeeTable
from .reduced.rules import FIRST_USE_SECONDS, estimate, normal
from .rules import target_x

NOWHERE = 2**32 - 1  # the position of a state a reduced table does not hold


def load_target(joker: str = DEFAULT_JOKER, path: str | None = None, build: bool = True):
    """The target questions of the joker rule ``joker``: the verified table at ``path`` (a TargetTable), or,
    without it, every card's (``Targets``: each card's table found or solved when first asked)."""
    if joker not in JOKERS:
        raise InvalidQuery("the target mode's rule set is official, free, none or bonus-only, not %s"
                           % shown_value(joker))
    return Targets(joker, build) if path is None else load_whole(joker, path, build)


def load_whole(joker: str, path: str | None = None, build: bool = True) -> "TargetTable":
    """The whole game's target table of ``joker`` (or the one at ``path``), solved on first use."""
    return load_table(DECLARATION.tables[1], TargetTable, joker, path, build, header_rules=rules_dict(joker),
                      hint=" (it is solved on first use: leave out --table)")


def load_card(rules: tuple, build: bool = True) -> "TargetTable":
    """The reduced table of ``rules`` (``reduced.rules.normal``: joker, card, upper, box) from the cache, or
    solved on first use (its cost said first); its header must name that start."""
    joker, card, upper, box = rules
    expect = {"game": DECLARATION.tables[2].headers[0], "rules": rules_dict(joker), "start": "%d,%d,%d" % rules[1:]}
    return load_table(DECLARATION.tables[2], lambda tablefile, _: TargetTable(tablefile, joker), rules, None, build,
                      expect=expect)


def open_rules(rules: str) -> "TargetTable":
    """The table of ``rules`` as the command line opens it (the declaration's hook)."""
    return load_whole(rules)


class TargetTable(Table):
    """T(s, x) for the states of one joker rule's game (or of the game from ``start``)."""

    ARRAYS = {"_position": "position", "_offsets": "offsets", "_chance": "chance"}
    VALUES = {"position": Values("a position", 0, 2**32 - 1), "offsets": Values("an offset", 0, 2**32 - 1),
              "chance": Values("a chance", 0.0, 1.0)}

    def __init__(self, tablefile, joker: str):
        super().__init__(tablefile)
        self.joker = self.rules = joker
        header = tablefile.header
        try:
            self.start = tuple(int(part) for part in header["start"].split(","))
            card, upper, box = self.start  # a turn-start state: read when a question asks one the table lacks
            if not (0 <= card <= sheet(joker).all and 0 <= upper <= UPPER_GOAL and box in (OPEN, ZERO, FIFTY)):
                raise ValueError
            self.unsure = frozenset(int(i) for i in header["unsure"].split(",")) if header["unsure"] else frozenset()
            if tablefile.shapes["position"] != (states(),) or len(tablefile.shapes["offsets"]) != 1 or \
                    len(tablefile.shapes["chance"]) != 1:
                raise ValueError
        except (KeyError, ValueError, AttributeError, TypeError, IndexError):
            raise TableError("table file %s is not a valid Yahtzee target table (its header or arrays); delete it "
                             "to solve it again" % self.path) from None
        self._position = tablefile.arrays["position"]
        self._offsets = tablefile.arrays["offsets"]
        self._chance = tablefile.arrays["chance"]
        if self._offsets[len(self._offsets) - 1] != len(self._chance):
            raise TableError("table file %s is not a valid Yahtzee target table (its offsets); delete it to solve "
                             "it again" % self.path)
        self._cards: dict = {}
        self._turns: dict = {}
        self.sheet = sheet(joker)

    # the same words as the expected-score table's questions: its parsing, on this table's cache
    card = YahtzeeTable.card

    def state(self, cats, upper=None, box=None) -> tuple:
        """(card, upper total, yahtzee box) checked; a state this table does not hold is asked as the state of
        the same game it may hold (``reduced.rules.normal``: a reduced table holds its start's)."""
        card, total, holds = YahtzeeTable.state(self, cats, upper, box)
        if self._position[state_index(card, total, holds)] == NOWHERE:
            card, total, holds = normal(self.joker, card, total, holds)[1:]
        return card, total, holds

    def position(self, number: int) -> int:
        """Where the state ``number`` is in the table; InvalidQuery when a reduced table does not hold it."""
        i = self._position[number]
        if i == NOWHERE:
            card, upper, box = self.start
            raise InvalidQuery("this target table holds only the game from %s (upper %d%s); solve the state asked "
                               "for with its own table" % (format_categories(card), upper,
                                                           "" if box == 0 else ", yahtzee box %d" % (50, 0)[2 - box]))
        return i

    def row(self, number: int) -> tuple:
        """(first, end): where the state ``number``'s chances are in ``chance``; TableError for a position or
        offsets pointing outside the arrays (checksums vouch for the bytes, not for where they point)."""
        i = self.position(number)
        rows = len(self._offsets) - 1
        if i >= rows:
            raise TableError("table file %s holds an impossible value: position[%d] is %d, past its %d rows; give "
                             "a valid table file" % (self.path, number, i, rows))
        first, end = self._offsets[i], self._offsets[i + 1]
        if not first <= end <= len(self._chance):
            raise TableError("table file %s holds an impossible value: offsets[%d] and offsets[%d] are %d and %d, "
                             "not a row of its %d chances; give a valid table file"
                             % (self.path, i, i + 1, first, end, len(self._chance)))
        return first, end

    def chance(self, number: int, x: int) -> float:
        """T(state ``number``, x) as stored: 1 for x <= 0, 0 beyond the stored targets."""
        if x <= 0:
            return 1.0
        low, end = self.row(number)
        if x > end - low:
            return 0.0
        return self._chance[low + x - 1]

    @staticmethod
    def _x(x) -> int:
        return target_x(x if isinstance(x, str) else as_whole(x) if as_whole(x) is not None else x)

    def turn(self, x, cats, upper=None, box=None):
        from .turn import Turn

        x = self._x(x)
        card, total, holds = self.state(cats, upper, box)
        if not card:
            raise InvalidQuery("no box is open: the game is over, there is no turn to play")
        key = (card, min(total, 63), holds, x)
        found = self._turns.pop(key, None)
        if found is None:
            if len(self._turns) >= 256:
                del self._turns[next(iter(self._turns))]  # the least recently asked
            found = Turn(self.joker, card, total, holds, x, self.chance)
        self._turns[key] = found  # a batch asks many questions of one turn
        return found

    def _choices(self, x, cats, dice, rerolls, upper, box):
        from ..rules import parse_dice, rerolls_left
        from ..table import _dice_text, _typed

        turn = self.turn(x, cats, upper, box)
        roll = parse_dice(_dice_text(dice))
        count = rerolls_left(_typed("number of rerolls", rerolls))
        return turn.choices(roll, count)

    def probe_target(self, x, cats="all", dice=None, rerolls=None, upper=None, box=None) -> float:
        """The highest chance that the points still to come reach ``x``: from the start of a turn (no dice),
        or mid-turn with ``dice`` showing and ``rerolls`` left."""
        from .turn import best, checked

        if dice is None and rerolls is None:
            x = self._x(x)
            card, total, holds = self.state(cats, upper, box)
            if x <= 0:
                return 1.0
            low, end = self.row(state_index(card, total, holds))
            if x > end - low:
                return 0.0
            if low + x - 1 in self.unsure:
                raise InvalidQuery("the chance of this question lies within its error bound of a 6-decimal "
                                   "rounding midpoint: its 6th decimal cannot be vouched for")
            return self._chance[low + x - 1]
        return checked(best(self._choices(x, cats, dice, rerolls, upper, box))[0], "the chance")

    def probe_target_move(self, x, cats, dice, rerolls, upper=None, box=None) -> str:
        """The move that gives that chance: ``score CATEGORY``, ``keep D D D`` or ``keep none``."""
        from .turn import best

        return best(self._choices(x, cats, dice, rerolls, upper, box))[1]


class Targets(Table):
    """Every card's target questions under one joker rule, each card answered by the first table that holds it:
    the whole game's when it is shipped or cached; else the reduced table of the game from the card, cached by its
    normalised card or solved on first use when small (estimated within ``FIRST_USE_SECONDS``); else the whole
    game's, solved on first use (its cost said first; refused past the memory limit unless allowed).
    A Table for its ``get_*`` lookups only: it has no file of its own."""

    KEPT = 64  # the reduced tables kept open (a batch of many cards)

    def __init__(self, joker: str, build: bool = True):  # no file: Table.__init__ is not called
        self.joker = self.rules = joker
        self.build = build
        self.sheet = sheet(joker)
        self._cards: dict = {}
        self._tables: dict = {}  # normalised rules -> its reduced table, the least recently asked first
        self._whole: TargetTable | None = None

    card = YahtzeeTable.card
    state = YahtzeeTable.state

    def table_for(self, card: int, total: int, holds: int) -> TargetTable:
        """The table that answers the turn-start state (``card``, ``total``, ``holds``), opened or solved now."""
        from ....engine.store import MEMORY_LIMIT, cache_dir, shipped

        if self._whole is not None:
            return self._whole
        whole = DECLARATION.tables[1].name(self.joker)
        if shipped(whole) or os.path.isfile(os.path.join(cache_dir(), whole)):
            self._whole = load_whole(self.joker, build=self.build)
            return self._whole
        rules = normal(self.joker, card, total, holds)
        found = self._tables.pop(rules, None)
        if found is None:
            name = DECLARATION.tables[2].name(rules)
            cost = None if shipped(name) or os.path.isfile(os.path.join(cache_dir(), name)) else estimate(rules)
            if cost is not None and (cost.seconds > FIRST_USE_SECONDS or cost.memory > MEMORY_LIMIT):
                self._whole = load_whole(self.joker, build=self.build)  # too many boxes open: the whole game's
                return self._whole
            found = load_card(rules, self.build)
            if len(self._tables) >= self.KEPT:
                self._tables.pop(next(iter(self._tables))).close()
        self._tables[rules] = found
        return found

    def probe_target(self, x, cats="all", dice=None, rerolls=None, upper=None, box=None) -> float:
        """``TargetTable.probe_target`` for any card; with no box open the game is over: 1 for x = 0, else 0."""
        x = TargetTable._x(x)
        card, total, holds = self.state(cats, upper, box)
        if not card and dice is None and rerolls is None:
            return 1.0 if x <= 0 else 0.0
        return self.table_for(card, total, holds).probe_target(x, card, dice, rerolls, upper, box)

    def probe_target_move(self, x, cats, dice, rerolls, upper=None, box=None) -> str:
        x = TargetTable._x(x)
        card, total, holds = self.state(cats, upper, box)
        if not card:
            raise InvalidQuery("no box is open: the game is over, there is no turn to play")
        return self.table_for(card, total, holds).probe_target_move(x, card, dice, rerolls, upper, box)

    def preload(self) -> None:
        """Nothing to read ahead: each card's table is read when first asked."""

    def close(self) -> None:
        for table in list(self._tables.values()) + [self._whole] * (self._whole is not None):
            table.close()
        self._tables.clear()
