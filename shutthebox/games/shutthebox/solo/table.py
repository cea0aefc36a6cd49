"""Query-time single-player tables: ``load_solo()`` and its answers.

>>> import shutthebox
>>> table = shutthebox.load_solo("two-dice")
>>> round(table.shut_probability("123456789"), 5)
0.07143
>>> table.move("12345", 7)
(3, 4)
>>> round(table.expected_score("123456789"), 6), table.move("12345", 7, "score")
(11.157508, (3, 4))
>>> from shutthebox.games.shutthebox.rules import Rules
>>> round(shutthebox.load_solo(rules=Rules(tiles=10)).shut_probability("1,2,3,4,5,6,7,8,9,10"), 6)
0.053825

Any rule set the two-player game takes has a single-player table: the three
named ones (``VARIANTS``) are shipped, any other is solved on first use and
kept in the user's cache (``engine.store``), as the two-player tables are.

Imports only the standard library and the table reader: never the solver,
the strategies or the simulator.
"""


from ....engine.table import CHANCE, Values, load_table
from ....engine.text import shown as shown_text
from ....engine.text import shown_value
from ....errors import InvalidQuery
from .. import DECLARATION
from ..rules import MAX_BUILD_TILES, Rules
from ..boxtable import BoxTable
from ..table import describe_fields

GAME = "one-player"
OBJECTIVES = ("shut", "score")
# Rule sets by name (--variant NAME): each is shipped as data/solo-NAME.msgpack.
VARIANTS = {
    "standard": Rules(),  # the assignment's: one die once the open tiles sum to 6 or less
    "two-dice": Rules(one_die_at_most=None),  # always two dice (the Scala reference project's rule)
    "two-tiles": Rules(max_move_tiles=2),  # the assignment's dice, at most two tiles closed per roll
}
DEFAULT_VARIANT = "standard"
_TABLES = DECLARATION.tables[1]


def variant_rules(name: str) -> Rules:
    """The rules of a variant by name; InvalidQuery naming the choices otherwise."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        given = "'%s'" % shown_text(name) if isinstance(name, str) else shown_value(name)
        raise InvalidQuery("unknown variant %s (choose %s)" % (given, ", ".join(VARIANTS))) from None


def variant_of(rules: Rules) -> str | None:
    """The name of the variant with exactly these rules, or None."""
    for name, known in VARIANTS.items():
        if known == rules:
            return name
    return None


def rules_label(rules: Rules) -> str:
    """A rule set's name in messages and reports: the variant's name, else its rules key (``t10-2d6-one6``)."""
    return variant_of(rules) or rules.key()


def table_name(rules) -> str:
    """The file name of the single-player table of ``rules`` (a Rules, or a variant's name):
    ``solo-two-dice.msgpack``, ``solo-t10-2d6-one6.msgpack``."""
    if not isinstance(rules, Rules):
        rules = variant_rules(rules)
    return _TABLES.name(rules)


def check_objective(objective: str) -> str:
    if type(objective) is not str or objective not in OBJECTIVES:
        shown = "'%s'" % shown_text(objective) if type(objective) is str else shown_value(objective)
        raise InvalidQuery("unknown objective %s (choose shut or score)" % shown)
    return objective


def rules_for(variant: str | None = None, rules: Rules | None = None) -> Rules:
    """The rules a question names: ``rules``, or the variant's, or the standard ones; both given must agree
    (InvalidQuery otherwise)."""
    if rules is not None and not isinstance(rules, Rules):
        raise InvalidQuery("rules must be a shutthebox Rules object, not %s" % shown_value(rules))
    if variant is None:
        return VARIANTS[DEFAULT_VARIANT] if rules is None else rules
    named = variant_rules(variant)
    if rules is not None and rules != named:
        raise InvalidQuery("variant %s is %s, not %s: give the variant or the rules, or both alike"
                           % (variant, named.describe(), rules.describe()))
    return named


def load_solo(variant: str | None = None, path: str | None = None, *, rules: Rules | None = None,
              build: bool = True, progress: bool | None = None) -> "SoloTable":
    """Load and verify a single-player table.

    ``variant`` names a rule set (``standard``, the default; ``two-dice``; ``two-tiles``); ``rules`` (a
    :class:`~shutthebox.games.shutthebox.rules.Rules`) gives any other, whose table is solved on first
    use and cached (unless ``build`` is false; ``progress``: a progress bar on a terminal). Both given
    must name the same rules. With an explicit ``path`` and neither, the file's own rules are used;
    otherwise the file must hold the rules asked for (TableError otherwise).
    """
    asked = variant is not None or rules is not None
    chosen = rules_for(variant, rules)
    if chosen.tiles > MAX_BUILD_TILES:
        raise InvalidQuery("tables are solved for at most %d tiles, not %d" % (MAX_BUILD_TILES, chosen.tiles))
    expect = {"game": GAME}
    if path is None or asked:
        expect["rules"] = chosen.as_dict()
    return load_table(_TABLES, _read, chosen, path, build and path is None, expect=expect, describe=describe_fields,
                      progress=progress)


def _read(tablefile, rules) -> "SoloTable":
    return SoloTable(tablefile)


def open_rules(rules: Rules) -> "SoloTable":
    """The table of ``rules`` as the command line opens it, solving it on first use and caching it (with no
    progress bar: the declaration's ``open``)."""
    return load_solo(rules=rules, progress=False)


class SoloTable(BoxTable):
    """Exact single-player answers for one rule set.

    Positions are digit strings (``"146789"``) or iterables of tiles; rolls
    are ints. ``objective`` is ``"shut"`` (highest probability of shutting
    the box) or ``"score"`` (lowest expected final score: the sum of the tiles
    left open, 0 when shut). Every method raises InvalidQuery, with a message
    for the player, for a question that has no answer.
    """

    game = GAME
    ARRAYS = {"_shut": "shut", "_shut_move": "shut_move", "_score": "score", "_score_move": "score_move",
              "_shut_dice": "shut_dice", "_score_dice": "score_dice"}

    def __init__(self, tablefile):
        super().__init__(tablefile)
        self.variant = variant_of(self.rules)

    def value_ranges(self):
        moves, dice = self.moves_and_dice()
        score = Values("an expected score", 0.0, float(self.rules.max_score))
        return {"shut": CHANCE, "score": score, "shut_move": moves, "score_move": moves, "shut_dice": dice,
                "score_dice": dice}

    def expected_shapes(self):
        positions = 1 << self.rules.tiles
        shapes = {"shut": (positions,), "shut_move": (positions, self._rolls),
                  "score": (positions,), "score_move": (positions, self._rolls)}
        if self.rules.one_die_optional:  # the player's choice of one die or all, per objective
            shapes.update(shut_dice=(positions,), score_dice=(positions,))
        return shapes

    def _values(self, objective):
        if type(objective) is str:  # (a numpy array compared with text is an array, neither true nor false)
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
        roll = self._check_roll(mask, roll)
        return self._move_tiles(mask, roll, moves[mask * self._rolls + roll])

    def dice(self, position, objective: str = "shut") -> int:
        """How many dice to throw at ``position``: all of them, unless the rules let the player choose one
        die (``one_die_optional``) and one die is better for the objective."""
        mask = self.position(position)
        thrown = self._shut_dice if check_objective(objective) == "shut" else self._score_dice
        if thrown is None:
            return self.rules.dice_choices(mask, self.open_sum(mask))[0]
        return thrown[mask]

    def probe_expect(self, position, objective: str = "shut") -> float:
        return self.expect(position, objective)

    def probe_move(self, position, roll: int, objective: str = "shut") -> tuple[int, ...]:
        return self.move(position, roll, objective)

    def move_mask(self, position: int, roll: int, objective: str = "shut") -> int:
        """The optimal move as a bitmask (0: none), without validation: for programs."""
        return self.move_array(objective)[position * self._rolls + roll]

    _mask = BoxTable.position
