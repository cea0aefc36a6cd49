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


from ....engine.store import open_table
from ....errors import InvalidQuery
from .. import DECLARATION
from ..rules import Rules
from ..board import BaseTable
from ..table import describe_fields

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
    return DECLARATION.tables[1].name(variant)


def fields_of(variant: str) -> dict:
    return {"variant": variant}


def variant_of_fields(fields: dict) -> str:
    """The variant of a table's file name slots, refused (InvalidQuery) when unknown."""
    variant_rules(fields["variant"])
    return fields["variant"]


def check_objective(objective: str) -> str:
    if objective not in OBJECTIVES:
        raise InvalidQuery("unknown objective '%s' (choose shut or score)" % (objective,))
    return objective


def load_solo(variant: str | None = None, path: str | None = None) -> "SoloTable":
    """Load and verify a single-player table: ``path``, else the shipped one of ``variant`` (default
    ``standard``).

    With an explicit ``path`` and no ``variant`` the file's own rules are used; a ``variant`` given
    with a ``path`` must name the file's rules (TableError otherwise).
    """
    rules = variant_rules(DEFAULT_VARIANT if variant is None else variant)
    expect = {"game": GAME}
    if path is None or variant is not None:
        expect["rules"] = rules.as_dict()
    return SoloTable(open_table(table_name(variant or DEFAULT_VARIANT), expect=expect, describe=describe_fields,
                                path=path))


class SoloTable(BaseTable):
    """Exact single-player answers for one rule set.

    Positions are digit strings (``"146789"``) or iterables of tiles; rolls
    are ints. ``objective`` is ``"shut"`` (highest probability of shutting
    the box) or ``"score"`` (lowest expected final score: the sum of the tiles
    left open, 0 when shut). Every method raises InvalidQuery, with a message
    for the player, for a question that has no answer.
    """

    game = GAME
    ARRAYS = {"_shut": "shut", "_shut_move": "shut_move", "_score": "score", "_score_move": "score_move"}

    def __init__(self, tablefile):
        super().__init__(tablefile)
        self.variant = variant_of(self.rules)

    def expected_shapes(self):
        positions = 1 << self.rules.tiles
        return {"shut": (positions,), "shut_move": (positions, self._rolls),
                "score": (positions,), "score_move": (positions, self._rolls)}

    def _values(self, objective):
        if objective == "shut":
            return self._shut
        if objective == "score":
            return self._score
        check_objective(objective)

    def move_array(self, objective: str = "shut"):
        """The objective's moves as a flat array, ``[position * (max_roll + 1) + roll]``,
        read and verified whole (for programs that make many lookups)."""
        return self.file.whole(self._MOVES[check_objective(objective)])

    _MOVES = {"shut": "shut_move", "score": "score_move"}

    # -- the questions ----------------------------------------------------

    def shut_probability(self, position) -> float:
        """Probability of shutting the box from ``position`` (before rolling), playing optimally."""
        return self._shut[self.position(position)]

    def expected_score(self, position) -> float:
        """Lowest expected final score from ``position`` (before rolling), playing optimally."""
        return self._score[self.position(position)]

    def expect(self, position, objective: str = "shut") -> float:
        """``shut_probability`` or ``expected_score``, by objective."""
        return self._values(objective)[self.position(position)]

    def move(self, position, roll: int, objective: str = "shut") -> tuple[int, ...]:
        """The optimal move for ``roll``: the tiles to close, increasing.

        Among exactly equal moves, the one closing the highest tiles.
        """
        moves = self._shut_move if check_objective(objective) == "shut" else self._score_move
        mask = self.position(position)
        self._check_roll(mask, roll)
        return self._move_tiles(mask, roll, moves[mask * self._rolls + roll])

    def probe_expect(self, position, objective: str = "shut") -> float:
        return self.expect(position, objective)

    def probe_move(self, position, roll: int, objective: str = "shut") -> tuple[int, ...]:
        return self.move(position, roll, objective)

    def move_mask(self, position: int, roll: int, objective: str = "shut") -> int:
        """The optimal move as a bitmask (0: none), without validation: for programs."""
        return self.move_array(objective)[position * self._rolls + roll]

    _mask = BaseTable.position
