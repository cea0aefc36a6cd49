"""A set-aside dice game's table (query time): the expected total still to come, and the dice to set aside.

The file holds ``expect[n]``, the expected total still to come with ``n`` dice left to roll (float64), its
exact value as ``numerators[n] / denominator`` (header text), and ``move``, the best set-aside of every
sorted roll of 1 .. dice dice (docs/FORMAT.md). Questions are answered from the exact integers: every choice's
value is ``points + E(m)``, compared and printed exactly.
"""

from ....errors import InvalidQuery, TableError
from ...table import Table, Values, check_shapes, load_table
from ...text import as_whole, shown_value
from ...throws import faces, keeps


def six(numerator: int, denominator: int) -> str:
    """``numerator / denominator`` to 6 decimals, correctly rounded (half to even)."""
    whole, rest = divmod(numerator * 1_000_000, denominator)
    if 2 * rest > denominator or (2 * rest == denominator and whole % 2):
        whole += 1
    return "%d.%06d" % divmod(whole, 1_000_000)


class SetAsideTable(Table):
    """Exact answers for one set-aside dice game. A roll is the dice showing: text (``13356``, ``1,12,3``) or
    a sequence of faces, in any order. ``probe_*`` raises InvalidQuery for a question without an answer,
    ``get_*`` returns ``default``. Values are totals still to come, the dice set aside now included."""

    ARRAYS = {"_expect": "expect", "_move": "move"}

    def value_ranges(self) -> dict:
        rules = self.rules
        return {"expect": Values("an expected total", 0.0, float(rules.dice * max(rules.points))),
                "move": Values("a set of dice (a bitmask)", 1, (1 << rules.dice) - 1)}

    def __init__(self, tablefile, rules):
        super().__init__(tablefile)
        self.rules = rules
        check_shapes(self, {"expect": (rules.dice + 1,), "move": (rules.offset(rules.dice + 1),)}, rules.describe())
        self._expect, self._move = tablefile.arrays["expect"], tablefile.arrays["move"]
        header = tablefile.header
        try:
            denominator = int(header.get("denominator"))
            numerators = [int(text) for text in header.get("numerators").split(",")]
            exact = denominator > 0 and len(numerators) == rules.dice + 1 and numerators[0] == 0 and all(
                abs(numerator / denominator - self._expect[n]) <= 1e-9 for n, numerator in enumerate(numerators))
        except (TypeError, ValueError, AttributeError, OverflowError):  # a forged header: no number, or a huge one
            exact = False
        if not exact:
            raise TableError("table file %s has no exact values, or values that are not its floats', in its "
                             "header; rebuild it with `make tables`" % self.path)
        self.numerators, self.denominator = numerators, denominator
        self._points = rules.points

    # -- the dice ---------------------------------------------------------------------------------------

    def roll(self, dice) -> tuple:
        """The sorted roll of ``dice`` (text, or a sequence of faces), checked."""
        if isinstance(dice, str):
            return self.rules.parse_dice(dice)
        if not isinstance(dice, (list, tuple)):
            raise InvalidQuery("dice are text (13356) or a list of faces, not %s" % shown_value(dice))
        sides, roll = self.rules.sides, []
        for given in dice:
            face = as_whole(given)
            if face is None or not 1 <= face <= sides:
                raise InvalidQuery("a die shows 1 to %d, not %s" % (sides, shown_value(given)))
            roll.append(face)
        if not roll or len(roll) > self.rules.dice:
            raise InvalidQuery("a roll has 1 to %d dice, not %d" % (self.rules.dice, len(roll)))
        roll.sort()
        return tuple(roll)

    def choices(self, roll) -> list:
        """Every distinct set of dice ``roll`` can set aside, as ``(mask, numerator)`` (its value over
        ``denominator``), best first, ties by the tie rule (more dice, then the lower faces)."""
        points, numerators, denominator, n = self._points, self.numerators, self.denominator, len(roll)
        lowest, found = self.rules.lowest, []
        for mask in keeps(roll)[1:]:  # each set of faces once (the leftmost of equal faces), not none
            kept = faces(roll, mask)
            value = sum(points[face - 1] for face in kept) * denominator + numerators[n - len(kept)]
            found.append((value if lowest else -value, -len(kept), kept, mask))
        found.sort()
        return [(mask, value if lowest else -value) for value, _, _, mask in found]

    def value(self, roll, mask: int) -> int:
        """The value of setting aside the dice ``mask`` of the sorted ``roll``, over ``denominator``."""
        kept = faces(roll, mask)
        return sum(self._points[face - 1] for face in kept) * self.denominator + self.numerators[len(roll) - len(kept)]

    def best_value(self, roll) -> int:
        """The best value of the sorted ``roll``, over ``denominator``: the best of each size of set-aside is
        its lowest-scoring dice (highest, for the highest total), so ``len(roll)`` candidates."""
        lowest, denominator, numerators, n = self.rules.lowest, self.denominator, self.numerators, len(roll)
        values, running = [], 0
        for k, points in enumerate(sorted((self._points[face - 1] for face in roll), reverse=not lowest), 1):
            running += points
            values.append(running * denominator + numerators[n - k])
        return min(values) if lowest else max(values)

    def best(self, roll) -> int:
        """The table's set-aside for the sorted ``roll`` (a bitmask), checked against the exact values."""
        mask = self._move[self.rules.row(roll)]
        if mask >> len(roll) or self.value(roll, mask) != self.best_value(roll):
            raise TableError("table file %s holds a move that is not the best; rebuild it with `make tables`"
                             % self.path)
        return mask

    # -- the questions ----------------------------------------------------------------------------------

    def probe_expect(self, dice=None) -> float:
        """The expected total still to come: from the start (``dice`` None), or with ``dice`` showing, before
        setting any aside."""
        return self.exact(dice)[0] / self.denominator

    def probe_move(self, dice) -> tuple:
        """The faces to set aside (increasing) from the roll ``dice``."""
        roll = self.roll(dice)
        return faces(roll, self.best(roll))

    def probe_options(self, dice) -> list:
        """Every choice, best first: ``[(faces set aside, expected total still to come), ...]``."""
        roll = self.roll(dice)
        return [(faces(roll, mask), value / self.denominator) for mask, value in self.choices(roll)]

    def exact(self, dice=None) -> tuple:
        """``probe_expect``'s value as ``(numerator, denominator)``."""
        if dice is None:
            return self.numerators[self.rules.dice], self.denominator
        return self.best_value(self.roll(dice)), self.denominator


class TablePart:
    """The family's ``table`` hooks for one game: ``load`` and ``open_rules``."""

    def __init__(self, spec):
        self.family = spec.family

    def load(self, rules=None, path: str | None = None, build: bool = True) -> SetAsideTable:
        """The verified table of ``rules`` (default: the game's); other rules are solved on first use and cached."""
        return load_table(self.family, SetAsideTable, rules, path, build, rules_class=self.family.rules().Rules)

    def open_rules(self, rules) -> SetAsideTable:
        return self.load(rules)
