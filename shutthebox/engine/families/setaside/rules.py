"""A set-aside dice game's rules and its dice (query time).

A roll of ``n`` dice is written sorted, increasing (``(1, 3, 3, 5, 6)``); the rolls of ``n`` dice are
numbered in lexicographic order (``rank``), and the table's rows for ``n`` dice follow those of fewer dice
(``offset``). A choice is the set of dice set aside, as a bitmask over the sorted roll's positions (bit ``i``:
the ``i + 1``-th smallest die).
"""

from math import comb

from ....errors import InvalidQuery
from ...rules import Option, RuleSet
from ...text import shown
from . import LIMITS

TYPE_CHECKING = False  # not typing's: importing typing would cost a question its time
if TYPE_CHECKING:
    from typing import Any


class SetAsideRules(RuleSet):
    """The rules of one game of the family (a subclass per game: ``GAME`` and ``SPEC``, its declaration)."""

    __slots__ = ()
    SPEC: "Any" = None  # the game's declaration (SetAside)
    dice: int  # the options' properties, made by RuleSet for each game's class
    sides: int

    @property
    def points(self) -> tuple:
        """What each face 1 .. sides scores."""
        return tuple(self.SPEC.score(face) for face in range(1, self.sides + 1))

    @property
    def lowest(self) -> bool:
        return self.SPEC.lowest

    def as_dict(self) -> dict:
        """The table header's ``rules``: the options, what each face scores, and which total is best."""
        return {"dice": self.dice, "sides": self.sides, "points": list(self.points),
                "best": "lowest" if self.lowest else "highest"}

    def describe(self) -> str:
        """``5 dice of 6 sides, a 3 scores 0, the lowest total wins``."""
        odd = ", ".join("a %d scores %d" % (face, points) for face, points in enumerate(self.points, 1)
                        if points != face)
        return "%d dice of %d sides%s, the %s total wins" % (self.dice, self.sides, ", " + odd if odd else "",
                                                            "lowest" if self.lowest else "highest")

    def __reduce__(self):
        return (rules_of_game, (self.GAME, self.as_options()))

    # -- the dice -----------------------------------------------------------------------------------------

    def rolls(self, count: int) -> int:
        """How many sorted rolls ``count`` dice have."""
        return comb(self.sides + count - 1, count)

    def offset(self, count: int) -> int:
        """The first row of the rolls of ``count`` dice in the table's ``move`` array."""
        return sum(self.rolls(fewer) for fewer in range(1, count))

    def rank(self, roll) -> int:
        """The number of the sorted ``roll`` among the rolls of as many dice, in lexicographic order."""
        sides, left, rank, low = self.sides, len(roll), 0, 1
        for face in roll:
            left -= 1
            for smaller in range(low, face):  # the rolls that put ``smaller`` here come first
                rank += comb(sides - smaller + left, left)
            low = face
        return rank

    def row(self, roll) -> int:
        """The row of the sorted ``roll`` in the ``move`` array."""
        return self.offset(len(roll)) + self.rank(roll)

    def parse_dice(self, text: str) -> tuple:
        """Dice as a player writes them, any order: digits (``61352``) where every face is one digit, else
        numbers with commas (``1,12,3``) -> the sorted roll, checked."""
        quoted = "'%s'" % shown(text)
        if "," in text or " " in text:
            parts = [part for part in text.replace(",", " ").split(" ") if part]
        elif self.sides <= 9 or len(text) == 1:
            parts = list(text)
        else:  # a run of digits: one die above 9, or several dice? Refused, never guessed
            one = (", %s, for one die" % text if len(text) == 2 and text.isascii() and text.isdigit()
                   and int(text) <= self.sides else "")
            raise InvalidQuery("dice %s: with faces above 9 separate the dice with commas (%s for several "
                               "dice%s)" % (quoted, ",".join(shown(text)[:8]), one))
        if not parts or not all(part.isascii() and part.isdigit() for part in parts):
            raise InvalidQuery("dice %s: write the dice showing as %s" % (quoted, self.dice_example()))
        faces = [int(part) for part in parts]
        wrong = next((face for face in faces if not 1 <= face <= self.sides), None)
        if wrong is not None:
            raise InvalidQuery("dice %s: a die shows 1 to %d, not %d" % (quoted, self.sides, wrong))
        if len(faces) > self.dice:
            raise InvalidQuery("dice %s: the game has %d dice, not %d" % (quoted, self.dice, len(faces)))
        return tuple(sorted(faces))

    def dice_example(self) -> str:
        if self.sides > 9:
            return "numbers with commas, such as 1,12,3"
        return "digits, such as %s" % "".join(str(min(face, self.sides)) for face in (1, 3, 3, 5, 6)[:self.dice])

    def dice_text(self, dice) -> str:
        """Dice as the command line writes them: ``13356``, ``1,3,12``."""
        return ("" if self.sides <= 9 else ",").join(map(str, dice))


def rules_class(spec) -> type:
    """The ``Rules`` class of the game ``spec`` (``SetAside``): ``--dice`` and ``--sides``, its defaults."""
    dice, sides = LIMITS["dice"], LIMITS["sides"]
    return type("Rules", (SetAsideRules,), {
        "__slots__": (), "GAME": spec.id, "SPEC": spec, "__module__": __name__,
        "OPTIONS": (Option("dice", spec.dice, low=dice[0], high=dice[1], help="how many dice"),
                    Option("sides", spec.sides, low=sides[0], high=sides[1], help="sides of each die"))})


def rules_of_game(game: str, options: dict):
    """The rules ``options`` of the registered game ``game`` (how a game's rules pickle)."""
    from .... import registry

    return registry.declaration(game).tables[0].rules().Rules(**options)


class RulesPart:
    """The family's ``rules`` hooks for one game (``engine.game.Tables``): ``Rules``, ``fields_of``,
    ``rules_of``, ``estimate``."""

    def __init__(self, spec):
        self.Rules = rules_class(spec)

    def fields_of(self, rules) -> dict:
        return rules.fields()

    def rules_of(self, fields: dict):
        return self.Rules.from_fields(fields)

    def estimate(self, rules):
        """What a solve costs: the file's bytes (exact, bar its header), memory and time (8 dice of 12
        sides, the largest: a 126 kB table in about 6 s)."""
        from ...game import Estimate

        size = 400 + 8 * (rules.dice + 1) + rules.offset(rules.dice + 1)
        return Estimate(size, 30 * 10**6 + 400 * size, 0.02 + size / 18_000)
