"""Query-time Yahtzee tables: ``load()`` and the questions (expected points to come, the best move, every
choice valued).

>>> from shutthebox.games.yahtzee.table import load
>>> "%.6f" % load().probe_expect("all")
'254.587729'
>>> load().probe_move("all", "13366", 2)
'keep 6 6'
>>> load().probe_move("fours,large-straight", "44412", 2, upper=60, box="50")
'keep 4 4 4'

A card is the open boxes (``"ones,full-house"``, ``"all"``, ``"none"``) or their
bitmask; ``upper`` the points scored in the upper section (text or a number,
default 0); ``box`` what a closed yahtzee box holds, ``"50"`` or ``"0"`` (None
when yahtzee is open, and in Yatzy); ``dice`` five digits 1-6 in any order;
``rerolls`` 0-2. ``load("yatzy")`` is Scandinavian Yatzy's table.
"""

from ...engine.table import Table, Values, load_table
from ...engine.text import as_whole, shown_value
from ...errors import InvalidQuery, TableError
from . import DECLARATION
from .rules import (
    DEFAULT_JOKER, RULES, YAHTZEE_BONUS, YATZY, categories, has_bonus, parse_dice, rerolls_left, rules_dict, sheet,
    state_index, states, upper_total, yahtzee_box,
)

_TURNS_KEPT = 256  # turn-start states whose turn is kept solved (a batch asks many on one card); ~50 kB each


def load(joker: str = DEFAULT_JOKER, path: str | None = None, build: bool = True) -> "YahtzeeTable":
    """The verified table of the rule set ``joker``: a joker rule of Yahtzee (official, free, none, bonus-only)
    or ``yatzy`` (Scandinavian Yatzy); ``official`` is shipped, the others are solved on first use (at most
    Yahtzee's 15 s and Yatzy's 30 s, as their estimates say before they start) and cached."""
    if joker not in RULES:
        raise InvalidQuery("the rule set must be official, free, none, bonus-only or yatzy, not %s"
                           % shown_value(joker))
    return load_table(DECLARATION.tables[0], YahtzeeTable, joker, path, build, header_rules=rules_dict(joker),
                      hint=" (python build_tables.py --game yahtzee)")


def most_to_come(rules: str) -> int:
    """The most points a whole game can still bring: every box at its best, the upper bonus and, where the
    rule set pays it, a Yahtzee bonus in every other box (1575 in Yahtzee, 374 in Yatzy)."""
    found = sheet(rules)
    bonuses = YAHTZEE_BONUS * (len(found.categories) - 1) if has_bonus(rules) else 0
    return sum(found.most) + found.upper_bonus + bonuses


def open_rules(rules: str) -> "YahtzeeTable":
    """The table of ``rules`` as the command line opens it (the declaration's hook)."""
    return load(rules)


class YahtzeeTable(Table):
    """Exact answers for full Yahtzee under one joker rule, or for Scandinavian Yatzy (``joker`` is the rule
    set, ``sheet`` its boxes). ``probe_*`` raises InvalidQuery for a question without an answer; ``get_*``
    returns ``default``."""

    ARRAYS = {"_turn": "turn"}

    def value_ranges(self) -> dict:
        return {"turn": Values("an expected number of points (0, or 1 and more)", 0.0, float(most_to_come(self.joker)))}

    def __init__(self, tablefile, joker: str):
        super().__init__(tablefile)
        self.joker = self.rules = joker
        self.sheet = sheet(joker)
        self._index = state_index if joker != YATZY else self.sheet.state_index
        if tablefile.shapes.get("turn") != (states(joker),):
            raise TableError("table file %s has arrays of the wrong shape for Yahtzee; rebuild it with `make tables`"
                             % self.path)
        self._turn = tablefile.arrays["turn"]
        self._turns: dict = {}
        self._cards: dict = {}

    # -- states ------------------------------------------------------------------------------

    def card(self, cats) -> int:
        if type(cats) is int and 0 <= cats <= self.sheet.all:
            return cats
        if not isinstance(cats, str):
            number = as_whole(cats)  # a numpy integer is a bitmask too
            if number is not None and 0 <= number <= self.sheet.all:
                return number
            raise InvalidQuery("a card must be text such as ones,%s or all, or its bitmask 0 to %d, not %s"
                               % (self.sheet.categories[-1], self.sheet.all, shown_value(cats)))
        mask = self._cards.get(cats)
        if mask is None:
            mask = categories(cats, self.joker)
            if len(self._cards) < 1 << 12:
                self._cards[cats] = mask
        return mask

    def state(self, cats, upper=None, box=None) -> tuple[int, int, int]:
        """(card bitmask, upper total, yahtzee box) checked: ``upper`` must be a total the closed upper boxes
        can hold; ``box`` ("50", "0", 50, 0) is required exactly when yahtzee is closed."""
        card = self.card(cats)
        total = 0 if upper is None else upper_total(_typed("upper total", upper), card)
        return card, total, yahtzee_box(None if box is None else _typed("yahtzee box (50 or 0)", box), card, self.joker)

    def value(self, card: int, upper: int, box: int) -> float:
        """The stored turn-start value of a valid state: 0, or 1 and more (turn.py: each is a whole multiple
        of 2**-52 that is at least 1), else the table is refused."""
        index = self._index(card, upper, box)
        value = self._turn[index]
        if 0.0 < value < 1.0:
            raise self.file.impossible("turn", index, value)
        return value

    def turn(self, card: int, upper: int, box: int):
        """The solved turn of a valid state with a box open (turn.Turn), kept for later questions."""
        key = (card, min(upper, 63), box)
        turns = self._turns
        found = turns.pop(key, None)
        if found is None:
            from .turn import Turn

            if not card:
                raise InvalidQuery("no box is open: the game is over, there is no turn to play")
            if len(turns) >= _TURNS_KEPT:
                del turns[next(iter(turns))]  # the least recently asked
            found = Turn(self.joker, card, upper, box, self.value)
        turns[key] = found
        return found

    def _mid_turn(self, cats, dice, rerolls, upper, box):
        card, total, holds = self.state(cats, upper, box)
        return self.turn(card, total, holds), parse_dice(_dice_text(dice)), rerolls_left(_typed("number of rerolls",
                                                                                                   rerolls))

    # -- the questions -----------------------------------------------------------------------

    def probe_expect(self, cats, dice=None, rerolls=None, upper=None, box=None) -> float:
        """The maximum expected points still to come (bonuses to be earned included): from the start of a
        turn (no dice), or mid-turn with ``dice`` showing and ``rerolls`` left (the float nearest the value
        computed exactly from the table)."""
        if dice is None and rerolls is None:
            return self.value(*self.state(cats, upper, box))
        numerator, denominator = self.expect_fraction(cats, dice, rerolls, upper, box)
        return numerator / denominator

    def expect_fraction(self, cats, dice, rerolls, upper=None, box=None) -> tuple[int, int]:
        """(numerator, denominator): the mid-turn value, exactly as computed from the table's values."""
        from .turn import denominator

        turn, roll, count = self._mid_turn(cats, dice, rerolls, upper, box)
        return turn.best(roll, count)[0], denominator(count)

    def probe_move(self, cats, dice, rerolls, upper=None, box=None) -> str:
        """The best move: ``score CATEGORY``, ``keep D D D`` (kept dice, increasing) or ``keep none``."""
        turn, roll, count = self._mid_turn(cats, dice, rerolls, upper, box)
        return turn.best(roll, count)[1]

    def probe_options(self, cats, dice, rerolls, upper=None, box=None) -> list:
        """[(choice, expected points, loss against the best)] for every legal choice, best first; the
        numbers are floats (the exact digits: ``options_line``)."""
        turn, roll, count = self._mid_turn(cats, dice, rerolls, upper, box)
        denominator, listed = turn.choices(roll, count)
        best = listed[0][0]
        return [(text, value / denominator, max(best - value, 0) / denominator) for value, text, _ in listed]

    def options_line(self, cats, dice, rerolls, upper=None, box=None) -> str:
        """``CHOICE VALUE LOSS; CHOICE VALUE LOSS; ...``, the exact values to 6 decimals."""
        from .turn import decimal

        turn, roll, count = self._mid_turn(cats, dice, rerolls, upper, box)
        denominator, listed = turn.choices(roll, count)
        best = listed[0][0]
        return "; ".join("%s %s %s" % (text, decimal(value, denominator), decimal(max(best - value, 0), denominator))
                         for value, text, _ in listed)


def _typed(name: str, value) -> str:
    """A number the API was given (text, an int or a numpy integer) as the text the command line reads."""
    if isinstance(value, str):
        return value
    number = as_whole(value)
    if number is None or not -10**12 < number < 10**12:
        raise InvalidQuery("the %s must be a whole number, not %s" % (name, shown_value(value)))
    return str(number)


def _dice_text(dice) -> str:
    """Five dice as digits: ``"13366"`` or five faces (``[1, 3, 3, 6, 6]``, numpy integers too)."""
    if isinstance(dice, str):
        return dice
    faces = [as_whole(die) for die in dice] if isinstance(dice, (list, tuple)) and len(dice) <= 16 else [None]
    if None in faces or not all(0 <= face <= 9 for face in faces):
        raise InvalidQuery("dice must be five digits 1 to 6 or a list of five faces, not %s" % shown_value(dice))
    return "".join(map(str, faces))
