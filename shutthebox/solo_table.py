"""Query-time single-player tables: ``load_solo()`` and its answers.

>>> import shutthebox
>>> table = shutthebox.load_solo("two-dice")
>>> round(table.shut_probability("123456789"), 5)
0.07143
>>> table.move("12345", 7)
(3, 4)
>>> round(table.expected_score("123456789"), 6), table.move("12345", 7, "score")
(11.157508, (3, 4))

Imports only the standard library, msgpack and the table reader: never the
solver, the strategies or the simulator.
"""

from __future__ import annotations

import os

from .errors import InvalidQuery, TableError
from .notation import format_position, parse_position, tiles_of
from .rules import Rules
from .table import read_table

GAME = "one-player"
OBJECTIVES = ("shut", "score")
# Dice rule sets by name: the shipped single-player tables are data/solo-NAME.msgpack.
VARIANTS = {
    "standard": Rules(),  # the assignment's: one die once the open tiles sum to 6 or less
    "two-dice": Rules(one_die_at_most=None),  # always two dice (the Scala reference project's rule)
    "two-tiles": Rules(max_move_tiles=2),  # the assignment's dice, at most two tiles closed per roll
}
DEFAULT_VARIANT = "standard"


def variant_rules(name: str) -> Rules:
    """The rules of a variant by name; InvalidQuery naming the choices otherwise."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise InvalidQuery("unknown variant '%s' (choose %s)" % (name, ", ".join(VARIANTS))) from None


def variant_of(rules: Rules) -> str | None:
    """The name of the variant with exactly these rules, or None."""
    for name, known in VARIANTS.items():
        if known == rules:
            return name
    return None


def table_name(variant: str) -> str:
    return "solo-%s.msgpack" % variant


def check_objective(objective: str) -> str:
    if objective not in OBJECTIVES:
        raise InvalidQuery("unknown objective '%s' (choose shut or score)" % (objective,))
    return objective


def load_solo(variant: str = DEFAULT_VARIANT, path: str | None = None) -> "SoloTable":
    """Load and verify a single-player table: ``path``, else the shipped one of ``variant``.

    With an explicit ``path`` the file's own rules are used; ``variant``, when
    not the default, must name those same rules.
    """
    rules = variant_rules(variant)
    if path is None:
        from .api import find_table

        path = find_table(table_name(variant))
        table = SoloTable(read_table(path))
        if table.rules != rules:
            raise TableError(
                "table file %s holds %s, not the %s variant (%s); rebuild it with `make tables`"
                % (path, table.rules.describe(), variant, rules.describe())
            )
        return table
    table = SoloTable(read_table(path))
    if variant != DEFAULT_VARIANT and table.rules != rules:
        raise InvalidQuery(
            "table file %s solves %s, not the %s variant" % (path, table.rules.describe(), variant)
        )
    return table


class SoloTable:
    """Exact single-player answers for one rule set.

    Positions are digit strings (``"146789"``) or iterables of tiles; rolls
    are ints. ``objective`` is ``"shut"`` (highest probability of shutting
    the box) or ``"score"`` (lowest expected final score: the sum of the tiles
    left open, 0 when shut). Every method raises InvalidQuery, with a message
    for the player, for a question that has no answer.
    """

    def __init__(self, tablefile):
        self.file = tablefile
        self.path = tablefile.path
        self.rules = rules = tablefile.rules
        self.variant = variant_of(rules)
        positions, rolls = 1 << rules.tiles, rules.max_roll + 1
        expected = {"shut": (positions,), "shut_move": (positions, rolls),
                    "score": (positions,), "score_move": (positions, rolls)}
        shapes = tablefile.shapes
        if tablefile.header.get("game") != GAME or any(shapes.get(k) != v for k, v in expected.items()):
            raise TableError(
                "table file %s is not a one-player table for %s; rebuild it with `make tables`"
                % (self.path, rules.describe())
            )
        arrays = tablefile.arrays
        self._values = {"shut": arrays["shut"], "score": arrays["score"]}
        self._moves = {"shut": arrays["shut_move"], "score": arrays["score_move"]}
        self._rolls = rolls
        self._positions: dict = {}

    def __repr__(self):
        return "<shutthebox.SoloTable %s: %s>" % (self.path, self.rules.describe())

    # -- the questions ----------------------------------------------------

    def shut_probability(self, position) -> float:
        """Probability of shutting the box from ``position`` (before rolling), playing optimally."""
        return self._values["shut"][self._mask(position)]

    def expected_score(self, position) -> float:
        """Lowest expected final score from ``position`` (before rolling), playing optimally."""
        return self._values["score"][self._mask(position)]

    def expect(self, position, objective: str = "shut") -> float:
        """``shut_probability`` or ``expected_score``, by objective."""
        try:
            values = self._values[objective]
        except (KeyError, TypeError):
            check_objective(objective)
        return values[self._mask(position)]

    def move(self, position, roll: int, objective: str = "shut") -> tuple[int, ...]:
        """The optimal move for ``roll``: the tiles to close, increasing.

        Among exactly equal moves, the one closing the highest tiles.
        """
        try:
            moves = self._moves[objective]
        except (KeyError, TypeError):
            check_objective(objective)
        mask = self._mask(position)
        low, high = self.roll_range(mask)
        if type(roll) is not int or not low <= roll <= high:
            self._bad_roll(mask, roll)
        move = moves[mask * self._rolls + roll]
        if not move:
            limit = self.rules.max_move_tiles
            raise InvalidQuery(
                "no %sopen tiles of %s add up to %d: the turn ends there, scoring %d"
                % ("%d or fewer " % limit if limit else "", format_position(mask), roll, sum(tiles_of(mask)))
            )
        return tiles_of(move)

    def move_mask(self, position: int, roll: int, objective: str = "shut") -> int:
        """The optimal move as a bitmask (0: none), without validation: for programs."""
        return self._moves[objective][position * self._rolls + roll]

    # -- validation -------------------------------------------------------

    def _mask(self, position) -> int:
        try:
            return self._positions[position]
        except (KeyError, TypeError):
            mask = parse_position(position, self.rules.tiles)
            if type(position) is str and len(self._positions) < 4096:
                self._positions[position] = mask
            return mask

    def roll_range(self, mask: int) -> tuple[int, int]:
        """Lowest and highest roll the dice can show at a position (bitmask)."""
        return self.rules.roll_range(self.rules.dice_for(sum(tiles_of(mask))))

    def _bad_roll(self, mask, roll):
        if type(roll) is not int:
            raise InvalidQuery("the roll must be a whole number, not %r" % (roll,))
        low, high = self.roll_range(mask)
        total = sum(tiles_of(mask))
        dice = self.rules.dice_for(total)
        raise InvalidQuery(
            "roll %d is impossible under the %s rules: the open tiles %s sum to %d, so %s thrown (%d to %d)"
            % (roll, self.variant or "table's", format_position(mask), total,
               "one die is" if dice == 1 else "%d dice are" % dice, low, high)
        )
