"""Query-time Pig tables: ``load()`` and the questions (the mover's chance to win, roll or hold).

>>> from shutthebox.games.pig.table import load
>>> "%.6f" % load().probe_win(0, 0, 0)
'0.530593'
>>> load().probe_move(0, 0, 21)
'hold'
"""

from ...engine.printing import checked
from ...engine.table import CHANCE, Table, Values, check_shapes, load_table
from ...engine.text import as_whole, shown_value
from ...errors import InvalidQuery, TableError
from . import DECLARATION
from .rules import ADD, BUST, Rules, row, rows

ROLL, HOLD = "roll", "hold"


def load(rules: Rules | None = None, path: str | None = None, build: bool = True) -> "PigTable":
    """The verified table of ``rules`` (default: Pig to 100); other rules are solved on first use and cached."""
    return load_table(DECLARATION.tables[0], PigTable, rules, path, build, rules_class=Rules)


def open_rules(rules) -> "PigTable":
    """The table of ``rules`` as the command line opens it (the declaration's hook)."""
    return load(rules)


class PigTable(Table):
    """Exact answers for one Pig game. A state is ``(i, j, k)``: the mover's banked score, the opponent's, the
    turn total so far. ``probe_*`` raises InvalidQuery for a state that cannot be asked (a score at or past the
    goal, a negative number); ``get_*`` returns ``default``. Chances are the mover's, both playing to win."""

    ARRAYS = {"_win": "win", "_move": "move"}
    VALUES = {"win": CHANCE, "move": Values("a move (0 hold, 1 roll)", 0, 1)}

    def __init__(self, tablefile, rules: Rules):
        super().__init__(tablefile)
        self.rules = rules
        shape = (rows(rules.goal), rules.goal)
        check_shapes(self, {"win": shape, "move": shape}, rules.describe())
        self._win, self._move = tablefile.arrays["win"], tablefile.arrays["move"]
        self._outcomes, self._denominator, self._goal = rules.outcomes(), rules.denominator(), rules.goal
        try:
            self.bound = float(tablefile.header.get("error_bound"))
            unsure = tablefile.header.get("unsure", "")
            self.unsure = frozenset(int(index) for index in unsure.split(",")) if unsure else frozenset()
        except (TypeError, ValueError, AttributeError):
            raise TableError("table file %s has no error bound or a damaged 'unsure' list in its header; rebuild it "
                             "with `make tables`" % self.path) from None

    def index(self, mine: int, other: int, turn: int = 0) -> int:
        """The flat index of state ``(mine, other, turn)``, checked (InvalidQuery)."""
        goal = self.rules.goal
        numbers = []
        for name, value in (("I", mine), ("J", other), ("K", turn)):
            if type(value) is not int:  # a numpy integer is a whole number; a float, a bool or an array is not
                number = as_whole(value)
                if number is None:
                    raise InvalidQuery("%s must be a whole number, not %s" % (name, shown_value(value)))
                value = number
            if value < 0:
                raise InvalidQuery("%s is a score, 0 or more, not %s" % (name, shown_value(value)))
            numbers.append(value)
        mine, other, turn = numbers
        if other >= goal:
            raise InvalidQuery("J %s has reached the goal %d: the opponent has won" % (shown_value(other), goal))
        if mine + turn >= goal:
            what = "I %s" % shown_value(mine) if turn == 0 else "I + K = %s" % shown_value(mine + turn)
            raise InvalidQuery("%s has reached the goal %d: the mover has won (holding banks it)" % (what, goal))
        return row(goal, mine, turn) * goal + other

    def printed(self, index: int, value: float) -> str:
        """``value`` (the table's at ``index``) as ``%.6f``, unless the build found it within its error bound of a
        rounding midpoint (its 6th decimal then cannot be vouched for: InvalidQuery, never a digit that may be
        wrong)."""
        if index in self.unsure:  # a question without a provable answer: refused like a bad one, never guessed
            raise InvalidQuery("this chance lies within the table's error bound of a 6-decimal rounding midpoint, "
                               "so its 6th decimal cannot be vouched for (docs/PIG.md); --move is answered")
        return "%.6f" % value

    def probe_win(self, mine: int, other: int, turn: int = 0) -> float:
        """The mover's chance to win at ``(mine, other, turn)`` before choosing, both playing to win."""
        return self._win[self.index(mine, other, turn)]

    # One set of lookup names across games (probe_expect, probe_move, probe_options): Pig's value is a chance.
    probe_expect = probe_win

    def probe_move(self, mine: int, other: int, turn: int) -> str:
        """``"roll"`` or ``"hold"``: the best choice (among equal ones, hold; at turn total 0, roll)."""
        return ROLL if self._move[self.index(mine, other, turn)] else HOLD

    def probe_options(self, mine: int, other: int, turn: int) -> list:
        """Every choice with its chance to win, best first: ``[("roll", 0.53), ("hold", 0.47)]`` (no hold at
        turn total 0). The roll's chance is the table's value where rolling is best, else computed from the
        outcomes of one roll; a value whose 6th decimal is not sure (near a rounding midpoint) is refused."""
        index = self.index(mine, other, turn)  # checked: each is an int or a numpy integer
        return self.choices(mine.__index__(), other.__index__(), turn.__index__(), index)

    def choices(self, mine: int, other: int, turn: int, index: int) -> list:
        """:meth:`probe_options` of a state already checked (``index``: its flat index)."""
        roll = self._roll(mine, other, turn, index)
        if not turn:
            return [(ROLL, roll)]
        hold = self._hold(mine, other, turn)
        return [(ROLL, roll), (HOLD, hold)] if self._move[index] else [(HOLD, hold), (ROLL, roll)]

    def _flat(self, mine: int, other: int, turn: int) -> int:
        """The flat index of a state known to be valid (a neighbour of a checked one)."""
        goal = self._goal
        return (mine * goal - mine * (mine - 1) // 2 + turn) * goal + other

    def _hold(self, mine, other, turn) -> float:
        banked = mine + turn
        if banked >= self._goal:
            return 1.0
        return checked(1.0 - self._win[self._flat(other, banked, 0)], self.bound + 1e-15, "the chance to win after "
                       "a hold", InvalidQuery)

    def _roll(self, mine, other, turn, index) -> float:
        if self._move[index]:
            return self._win[index]
        goal, total = self._goal, 0.0
        for count, kind, points in self._outcomes:  # a fixed order: the same sum everywhere
            if kind == BUST:
                value = 1.0 - self._win[self._flat(other, mine, 0)]
            elif kind == ADD:
                value = 1.0 if mine + turn + points >= goal else self._win[self._flat(mine, other, turn + points)]
            else:  # RESET
                value = 1.0 - self._win[self._flat(other, 0, 0)]
            total += count * value
        return checked(total / self._denominator, self.bound + 1e-14, "the chance to win after a roll",
                       InvalidQuery)
