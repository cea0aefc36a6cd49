"""Query-time yazy table: ``load()`` and the two questions (expected score to come, the best move).

>>> from shutthebox.games.yazy.table import load
>>> "%.6f" % load().probe_expect("all")
'165.757319'
>>> load().probe_move("all", "13366", 2)
'keep 6 6'
"""


from ...engine.table import CHANCE, Table, Values, load_table
from ...engine.text import as_whole, shown_value, whole
from ...errors import InvalidQuery, TableError
from . import DECLARATION
from .turn import TARGETS, Turn, best, checked
from .rules import ALL, CATEGORIES, NO_MOVE, REROLLS, ROLLS, RULES, SCORE, categories, describe_move, roll_index

_SHAPE = (ALL + 1, REROLLS + 1, len(ROLLS))
_TARGET = DECLARATION.tables[1]


def load(path: str | None = None) -> "YazyTable":
    """The verified shipped table (or the one at ``path``)."""
    return load_table(DECLARATION.tables[0], _yazy_table, RULES, path, build=False, header_rules=RULES,
                      hint=" (python build_tables.py --game yazy)")


def _yazy_table(tablefile, rules) -> "YazyTable":
    return YazyTable(tablefile)


def open_rules(rules) -> "YazyTable":
    """The table of ``rules`` (yazy has one rule set), as the command line opens it."""
    return load()


class YazyTable(Table):
    """Exact answers for yazy.

    ``cats``: the open categories (``"ones,full-house"``, ``"all"``, ``"none"``)
    or their bitmask; ``dice``: five digits 1-6 in any order; ``rerolls``: 0-2.
    ``probe_*`` raises InvalidQuery for a question without an answer; ``get_*``
    returns ``default``.
    """

    ARRAYS = {"_turn": "turn", "_expect": "expect", "_move": "move"}
    _POINTS = Values("an expected score", 0.0, float(TARGETS - 1))  # 280: the most a game scores
    # a move: kept positions of the sorted roll (0 to 30), SCORE + a category, or NO_MOVE (no category open)
    VALUES = {"turn": _POINTS, "expect": _POINTS,
              "move": Values("a move code", 0, NO_MOVE, only=(*range(31), *range(SCORE, SCORE + len(CATEGORIES)),
                                                             NO_MOVE))}

    def __init__(self, tablefile):
        super().__init__(tablefile)
        shapes = tablefile.shapes
        if shapes.get("turn") != (ALL + 1,) or shapes.get("expect") != _SHAPE or shapes.get("move") != _SHAPE:
            raise TableError("table file %s has arrays of the wrong shape for yazy; rebuild it with `make tables`"
                             % self.path)
        self._turn, self._expect, self._move = (tablefile.arrays[name] for name in ("turn", "expect", "move"))
        self._sets: dict = {}

    def categories(self, cats) -> int:
        if type(cats) is int and 0 <= cats <= ALL:
            return cats
        if as_whole(cats) is not None and 0 <= as_whole(cats) <= ALL:  # a numpy integer
            return as_whole(cats)
        if not isinstance(cats, str):
            raise InvalidQuery("categories must be text such as ones,yazy or all, or a bitmask from 0 to %d, not %s"
                               % (ALL, shown_value(cats)))
        mask = self._sets.get(cats)
        if mask is None:
            mask = categories(cats)
            if len(self._sets) < 1 << 12:
                self._sets[cats] = mask
        return mask

    def _state(self, cats, dice, rerolls) -> tuple[int, int]:
        mask = self.categories(cats)
        if not isinstance(dice, str):
            try:
                dice = "".join(str(as_whole(die)) if as_whole(die) is not None and 0 <= as_whole(die) <= 9 else "?"
                               for die in dice)
            except TypeError:
                raise InvalidQuery("dice must be five digits 1 to 6 or a list of five faces, not %s"
                                   % shown_value(dice)) from None
        roll = roll_index(dice)
        if isinstance(rerolls, str):
            rerolls = whole("number of rerolls", rerolls)
        elif as_whole(rerolls) is not None:
            rerolls = as_whole(rerolls)  # a numpy integer
        if type(rerolls) is not int or not 0 <= rerolls <= REROLLS:
            raise InvalidQuery("rerolls left must be 0, 1 or 2, not %s" % shown_value(rerolls))
        if not mask:
            raise InvalidQuery("no category is open: the game is over, there is no turn to play")
        return (mask * 3 + rerolls) * len(ROLLS) + roll, roll

    def probe_expect(self, cats, dice=None, rerolls=None) -> float:
        """The maximum expected sum of the scores still to come: from the start of a turn (no dice),
        or mid-turn with ``dice`` showing and ``rerolls`` left."""
        if dice is None and rerolls is None:
            return self._turn[self.categories(cats)]
        return self._expect[self._state(cats, dice, rerolls)[0]]

    def probe_move(self, cats, dice, rerolls) -> str:
        """The best move: ``score CATEGORY``, ``keep D D D`` (kept dice, increasing) or ``keep none``."""
        index, roll = self._state(cats, dice, rerolls)
        code = self._move[index]
        if code == NO_MOVE:
            raise TableError("table file %s has no move for a turn with categories open; rebuild it" % self.path)
        return describe_move(code, ROLLS[roll])


# -- the target mode: the highest chance that the points still to come reach X ---------------------------

def load_target(path: str | None = None) -> "TargetTable":
    """The verified target table (or the one at ``path``); solved on first use (about 15 s) and cached."""
    return load_table(_TARGET, _target_table, RULES, path, header_rules=RULES)


def _target_table(tablefile, rules) -> "TargetTable":
    return TargetTable(tablefile)


class TargetTable(Table):
    """The target mode: ``T[cats, x]``, the highest chance at the start of a turn that the points still to come
    reach ``x`` (0 to 280); mid-turn chances and moves are computed from it when asked (``turn.py``)."""

    ARRAYS = {"_target": "target"}
    VALUES = {"target": CHANCE}

    def __init__(self, tablefile):
        super().__init__(tablefile)
        self.targets = TARGETS
        if tablefile.shapes.get("target") != (ALL + 1, TARGETS):
            raise TableError("table file %s has arrays of the wrong shape for the yazy target mode; delete it to "
                             "solve it again" % self.path)
        self._target = tablefile.arrays["target"]
        self._sets: dict = {}

    # the same words as the expected-score table's questions: its parsing, on this table's cache
    categories = YazyTable.categories
    _state = YazyTable._state

    def _x(self, x) -> int:
        if isinstance(x, str):
            x = whole("target X", x)
        elif as_whole(x) is not None:
            x = as_whole(x)  # a numpy integer
        if type(x) is not int or not 0 <= x < self.targets:
            raise InvalidQuery("the target X is the points still to come, 0 to %d (the most a game scores), not %s"
                               % (self.targets - 1, shown_value(x)))
        return x

    def _turn(self, cats, dice, rerolls, x):
        x = self._x(x)
        _, roll = self._state(cats, dice, rerolls)
        mask = self.categories(cats)
        rows = {}
        for c in range(len(CATEGORIES)):
            if mask >> c & 1:
                base = (mask & ~(1 << c)) * self.targets
                rows[c] = [self._target[base + i] for i in range(self.targets)]
        rerolls = int(rerolls)
        return Turn(mask, x, rows).choices(roll, rerolls)

    def probe_target(self, x, cats="all", dice=None, rerolls=None) -> float:
        """The highest chance that the points still to come reach ``x``: from the start of a turn (no dice),
        or mid-turn with ``dice`` showing and ``rerolls`` left."""
        if dice is None and rerolls is None:
            x = self._x(x)
            return self._target[self.categories(cats) * self.targets + x]
        return checked(best(self._turn(cats, dice, rerolls, x))[0], "the chance")

    def probe_target_move(self, x, cats, dice, rerolls) -> str:
        """The move that gives that chance: ``score CATEGORY``, ``keep D D D`` or ``keep none``."""
        return best(self._turn(cats, dice, rerolls, x))[1]
