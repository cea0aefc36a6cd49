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
from .rules import (ALL, CATEGORIES, FULL, NO_MOVE, REROLLS, ROLLS, SCORE, TARGETS, Rules, Sets, describe_move,
                    roll_index)

_FAMILY, _TARGET = DECLARATION.tables[:2]


def load(path: str | None = None, rules: Rules | None = None) -> "YazyTable":
    """The verified table of ``rules`` (default: all eleven categories, the shipped table; with ``path`` and no
    rules, the file's own); a game of fewer categories is solved on first use (a second at most) and cached."""
    rules = _rules(_FAMILY, rules, path)
    return load_table(_FAMILY, YazyTable, rules, path, build=rules != FULL, rules_class=Rules,
                      hint=" (python build_tables.py --game yazy)" if rules == FULL else "")


def _rules(family, rules, path):
    if rules is None and path is not None:
        return family.rules_in(path) or FULL  # a file of another game: refused in load_table's words
    return rules


def open_rules(rules) -> "YazyTable":
    """The table of ``rules``, as the command line opens it (the declaration's hook)."""
    return load(rules=rules)


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

    def __init__(self, tablefile, rules: Rules = FULL):
        super().__init__(tablefile)
        self.rules, self.sets = rules, Sets(rules)
        shape = (len(self.sets.rows or range(ALL + 1)), REROLLS + 1, len(ROLLS))
        shapes = tablefile.shapes
        if shapes.get("turn") != shape[:1] or shapes.get("expect") != shape or shapes.get("move") != shape:
            raise TableError("table file %s has arrays of the wrong shape for yazy; rebuild it with `make tables`"
                             % self.path)
        self._turn, self._expect, self._move = (tablefile.arrays[name] for name in ("turn", "expect", "move"))

    def value_ranges(self) -> dict:
        if self.sets.rows is None:
            return self.VALUES
        played = [c for c in range(len(CATEGORIES)) if self.sets.game >> c & 1]
        return {**self.VALUES, "move": Values("a move code", 0, NO_MOVE,
                                              only=(*range(31), *(SCORE + c for c in played), NO_MOVE))}

    def categories(self, cats) -> int:
        """The bitmask of the open categories ``cats``: text (``ones,yazy``, ``all``: the game's, ``none``) or a
        bitmask of the full game's numbering; within the game's categories."""
        return self.sets.categories(cats)

    def _state(self, cats, dice, rerolls) -> tuple[int, int]:
        mask = self.sets.categories(cats)
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
        return (self.sets.row(mask) * 3 + rerolls) * len(ROLLS) + roll, roll

    def probe_expect(self, cats, dice=None, rerolls=None) -> float:
        """The maximum expected sum of the scores still to come: from the start of a turn (no dice),
        or mid-turn with ``dice`` showing and ``rerolls`` left."""
        if dice is None and rerolls is None:
            return self._turn[self.sets.row(self.sets.categories(cats))]
        return self._expect[self._state(cats, dice, rerolls)[0]]

    def probe_move(self, cats, dice, rerolls) -> str:
        """The best move: ``score CATEGORY``, ``keep D D D`` (kept dice, increasing) or ``keep none``."""
        index, roll = self._state(cats, dice, rerolls)
        code = self._move[index]
        if code == NO_MOVE:
            raise TableError("table file %s has no move for a turn with categories open; rebuild it" % self.path)
        return describe_move(code, ROLLS[roll])


# -- the target mode: the highest chance that the points still to come reach X ---------------------------

def load_target(path: str | None = None, rules: Rules | None = None) -> "TargetTable":
    """The verified target table of ``rules`` (default all eleven categories; with ``path`` and no rules, the
    file's own); solved on first use (at most 20 s for all eleven) and cached."""
    return load_table(_TARGET, TargetTable, _rules(_TARGET, rules, path), path, rules_class=Rules)


class TargetTable(Table):
    """The target mode: ``T[cats, x]``, the highest chance at the start of a turn that the points still to come
    reach ``x`` (0 to 280); mid-turn chances and moves are computed from it when asked (``turn.py``)."""

    ARRAYS = {"_target": "target"}
    VALUES = {"target": CHANCE}

    def __init__(self, tablefile, rules: Rules = FULL):
        super().__init__(tablefile)
        self.targets = TARGETS
        self.rules, self.sets = rules, Sets(rules)
        if tablefile.shapes.get("target") != (len(self.sets.rows or range(ALL + 1)), TARGETS):
            raise TableError("table file %s has arrays of the wrong shape for the yazy target mode; delete it to "
                             "solve it again" % self.path)
        self._target = tablefile.arrays["target"]

    # the same words as the expected-score table's questions: its parsing, on this table's sets
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
        from .turn import Turn  # a turn's modules (the keep tree): only for a question inside a turn

        x = self._x(x)
        _, roll = self._state(cats, dice, rerolls)
        mask = self.sets.categories(cats)
        rows = {}
        for c in range(len(CATEGORIES)):
            if mask >> c & 1:
                base = self.sets.row(mask & ~(1 << c)) * self.targets
                rows[c] = [self._target[base + i] for i in range(self.targets)]
        rerolls = int(rerolls)
        return Turn(mask, x, rows).choices(roll, rerolls)

    def probe_target(self, x, cats="all", dice=None, rerolls=None) -> float:
        """The highest chance that the points still to come reach ``x``: from the start of a turn (no dice),
        or mid-turn with ``dice`` showing and ``rerolls`` left."""
        if dice is None and rerolls is None:
            x = self._x(x)
            return self._target[self.sets.row(self.sets.categories(cats)) * self.targets + x]
        from .turn import best, checked

        return checked(best(self._turn(cats, dice, rerolls, x))[0], "the chance")

    def probe_target_move(self, x, cats, dice, rerolls) -> str:
        """The move that gives that chance: ``score CATEGORY``, ``keep D D D`` or ``keep none``."""
        from .turn import best

        return best(self._turn(cats, dice, rerolls, x))[1]
