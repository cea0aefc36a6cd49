"""Two-player yazy's table at query time: the mover's chance to win and the move that gives it; a
question inside a turn is worked out from the table when asked (``turn.py``).

A question at the start of a turn is a lookup: the modules of a turn (``turn.py``, yazy's ``turn.py`` and
``table.py``, the keep tree) are imported only by a question inside one, each saving it a fraction of a
millisecond (bench/README.md).
"""

from ....engine.table import Table, Values, check_shapes, load_table
from ....engine.text import shown_value
from ....errors import InvalidQuery, TableError
from .. import DECLARATION
from ..rules import FULL, Rules, format_categories
from .rules import BEST, GAME, Positions, header_rules, over

_POSITION = Values("a chance's position", 0, (1 << 32) - 1)
SCALE = float(1 << 48)  # a chance is stored as round(W * 2^48), split into 32 high and 16 low bits


def load_duel(rules=None, path: str | None = None) -> "DuelTable":
    """The verified table of the two-player game of ``rules`` (yazy's ``Rules``: the categories played;
    None: all), from ``path``, the cache, or solved on first use (its cost said first)."""
    rules = FULL if rules is None else rules
    if not isinstance(rules, Rules):
        raise InvalidQuery("rules must be a yazy Rules object (Rules(categories=\"ones,yazy\"), from "
                           "shutthebox.games.yazy.rules), or None for all eleven categories, not %s" % shown_value(rules))
    family = next(family for family in DECLARATION.tables if GAME in family.headers)
    return load_table(family, DuelTable, rules, path, header_rules=header_rules(rules))


def open_rules(rules) -> "DuelTable":
    return load_duel(rules)


class DuelTable(Table, Positions):
    """``W(A, B, d)``: the chance that the player to move wins, both playing to win (a tie is half a win).

    ``mine`` and ``theirs`` are the mover's and the opponent's open categories (text as yazy's CATS, or
    bitmasks); the mover is first in the round (as many open as the opponent) or second (one more).
    ``scores`` is the two totals, ``"S1,S2"`` or a pair: the mover's, the opponent's.
    """

    ARRAYS = {"_start": "start", "_first": "first", "_count": "count", "_high": "win_high", "_low": "win_low",
              "_unsure": "unsure"}
    VALUES = {"win_high": Values("a chance's high 32 bits", 0, (1 << 32) - 1),
              "win_low": Values("a chance's low 16 bits", 0, (1 << 16) - 1), "start": _POSITION, "unsure": _POSITION,
              "first": Values("a lead", -sum(BEST), sum(BEST)), "count": Values("a row's length", 0, 2 * sum(BEST) + 1)}

    def __init__(self, tablefile, rules):
        Table.__init__(self, tablefile)
        Positions.__init__(self, rules)
        cats = self.cats
        pairs = 4 ** len(self.opened)
        chances = self.file.shapes.get("win_high") or (-1,)
        check_shapes(self, {"start": (pairs,), "first": (pairs,), "count": (pairs,), "win_low": chances},
                     "two-player yazy of " + format_categories(cats))
        if len(self.file.shapes.get("unsure") or ()) != 1:  # its length is the build's: one axis, present
            raise TableError("table file %s has no list of the chances near a rounding midpoint (array unsure); "
                             "give a valid table file" % self.path)
        self._start, self._first, self._count, self._high, self._low, self._unsure = (
            tablefile.arrays[name] for name in ("start", "first", "count", "win_high", "win_low", "unsure"))
        self._size = self.file.shapes["win_high"][0]
        self._codes: dict = {}  # set -> its bits at the game's categories, packed (made when first asked)
        self._unsure_positions = None  # frozenset, read when first needed

    # -- lookups ------------------------------------------------------------------------------------------

    def pair(self, mover: int, other: int) -> int:
        """The number of the pair of sets ``(mover, other)`` in the arrays ``start``, ``first``, ``count``."""
        codes = self._codes
        for mask in (mover, other):
            if mask not in codes:
                codes[mask] = sum(1 << j for j, c in enumerate(self.opened) if mask >> c & 1)
        return codes[mover] << len(self.opened) | codes[other]

    def chance(self, mover: int, other: int, d: int, printed: bool = False) -> float:
        """``W(mover, other, d)`` from the table (the question unchecked: ``d`` a lead some game reaches).
        ``printed``: refused where the build found the chance within its bound of a rounding midpoint."""
        if not mover and not other:
            return over(d)
        code = self.pair(mover, other)
        k = d - self._first[code]
        if k < 0:
            return 0.0
        count = self._count[code]
        if k >= count:
            return 1.0
        start = self._start[code]
        if start + count > self._size:  # the checksums vouch for the bytes, not for where they point
            raise TableError("table file %s holds an impossible value: start[%d] + count[%d] is %d, past its %d "
                             "chances; give a valid table file" % (self.path, code, code, start + count, self._size))
        position = start + k
        if printed:
            if self._unsure_positions is None:  # the few the build could not vouch for: 115 in the full game
                self._unsure_positions = frozenset(self.file.whole("unsure"))
            if position in self._unsure_positions:
                raise InvalidQuery("this chance lies within the table's error bound of a 6-decimal rounding "
                                   "midpoint, so its 6th decimal cannot be vouched for (docs/YAZY.md); --move is "
                                   "answered")
        return (self._high[position] << 16 | self._low[position]) / SCALE

    def turn(self, mover: int, other: int, d: int):
        """The mover's turn (``turn.DuelTurn``)."""
        from .turn import DuelTurn

        if not mover:
            raise InvalidQuery("no category is open: the game is over, there is no turn to play")
        chance = self.chance
        return DuelTurn(mover, lambda c, points: 1.0 - chance(other, mover & ~(1 << c), -(d + points)))

    def _roll(self, dice, rerolls) -> tuple:
        from ..table import YazyTable

        _, roll = YazyTable._state(self, self.cats, dice, rerolls)
        return roll, int(rerolls)

    def probe_win(self, mine, theirs, scores, dice=None, rerolls=None) -> float:
        """The mover's chance to win: at the start of the turn (no dice), or mid-turn with ``dice`` showing
        and ``rerolls`` left, both players playing to win from here."""
        mover, other, d = self.state(mine, theirs, scores)
        if dice is None and rerolls is None:
            return self.chance(mover, other, d, printed=True)
        from .turn import best, checked

        roll, rerolls = self._roll(dice, rerolls)
        return checked(best(self.turn(mover, other, d).choices(roll, rerolls))[0], "the chance")

    def probe_move(self, mine, theirs, scores, dice, rerolls) -> str:
        """The move that gives that chance: ``score CATEGORY``, ``keep D D D`` or ``keep none`` (moves whose
        chances differ by less than 1e-11 are tied, broken by yazy's rule)."""
        from .turn import best

        mover, other, d = self.state(mine, theirs, scores)
        roll, rerolls = self._roll(dice, rerolls)
        return best(self.turn(mover, other, d).choices(roll, rerolls))[1]

    def probe_options(self, mine, theirs, scores, dice, rerolls) -> list:
        """[(chance, move)] of every choice, in the tie rule's order."""
        mover, other, d = self.state(mine, theirs, scores)
        roll, rerolls = self._roll(dice, rerolls)
        return self.turn(mover, other, d).choices(roll, rerolls)

    def options_line(self, mine, theirs, scores, dice, rerolls) -> str:
        """``CHOICE CHANCE LOSS; ...``: every choice, best first (among chances within 1e-11 of the best, the
        tie rule's order, so the first is ``probe_move``'s), its chance to win and what it loses against the
        best, every digit vouched for."""
        from ....engine.printing import checked as checked_printing
        from ..turn import TIE
        from .turn import ERROR_BOUND, best, checked

        choices = self.probe_options(mine, theirs, scores, dice, rerolls)
        top = best(choices)[0]
        listed = sorted(choices, key=lambda choice: -top if choice[0] >= top - TIE else -choice[0])
        return "; ".join("%s %.6f %.6f" % (move, checked(chance, "the chance of " + move),
                                           checked_printing(max(top - chance, 0.0), 2 * ERROR_BOUND,
                                                            "yazy duel: the loss of " + move, error=InvalidQuery))
                         for chance, move in listed)

