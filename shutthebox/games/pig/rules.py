"""The Pig family's rules (query time; docs/PIG.md): two players race to a goal, and each roll of a turn
risks the turn total.

The player to move has banked ``i`` points, the opponent ``j``, and the turn so far has made ``k``. They
roll or hold; holding banks ``k`` and passes the turn. A turn starts with a roll (no hold at ``k`` = 0).
Reaching the goal (``i + k`` at or past it) wins at once. A roll's outcomes (:func:`outcomes`):

- ``pig``: one die of ``sides`` faces: a 1 ends the turn and loses its total; 2..sides add.
- ``piglet``: a coin: tails ends the turn and loses its total; heads adds 1.
- ``two-dice``: two dice: a single 1 ends the turn and loses its total; double 1s end it and reset the
  banked score to 0; otherwise the sum adds.
- ``big-pig``: two dice: a single 1 ends the turn and loses its total; double 1s add 25; other doubles add
  twice their sum; otherwise the sum adds.
"""

from ...engine.rules import Option, RuleSet
from ...errors import InvalidQuery

GAME = "pig"
VARIANTS = ("pig", "piglet", "two-dice", "big-pig")
DEFAULT_GOAL = {"pig": 100, "piglet": 10, "two-dice": 100, "big-pig": 100}
# The faces of the variants' dice (a coin is a 2-sided die); only pig's may be chosen.
SIDES = {"piglet": 2, "two-dice": 6, "big-pig": 6}
# Goal 200 makes a 36 MB table solved in under a minute; the size grows as the goal cubed. A coin-like die
# (piglet, pig's 2-sided die) has a lower limit: past it the hopeless side's moves tie and the error bound's
# expected turns grow fast (docs/PIG.md).
GOAL_LIMITS = (2, 200)
VARIANT_GOALS = {"piglet": (2, 50)}
TWO_SIDED_GOALS = (2, 100)
SIDES_LIMITS = (2, 20)

# What one roll does: (chance numerator over ``denominator``, kind, points); the kinds:
BUST, RESET, ADD = "bust", "reset", "add"


class Rules(RuleSet):
    """``Rules(variant="pig", goal=100, sides=6)``: Neller and Presser's Pig."""

    __slots__ = ()
    GAME = GAME
    OPTIONS = (Option("variant", "pig", choices=VARIANTS, help="the game"),
               Option("goal", None, low=GOAL_LIMITS[0], high=GOAL_LIMITS[1], help="the score to reach",
                      default_words="100; piglet: 10, at most 50; a 2-sided die: at most 100"),
               Option("sides", None, low=SIDES_LIMITS[0], high=SIDES_LIMITS[1], help="faces of pig's die",
                      default_words="6"))

    def complete(self, values: dict) -> None:
        variant = values["variant"]
        if values["goal"] is None:
            values["goal"] = DEFAULT_GOAL[variant]
        if variant == "pig":
            values["sides"] = 6 if values["sides"] is None else values["sides"]
        elif values["sides"] is None or values["sides"] == SIDES[variant]:
            values["sides"] = SIDES[variant]
        else:
            raise InvalidQuery(_no_sides(variant))
        low, high = goal_limits(variant, values["sides"])
        if not low <= values["goal"] <= high:
            what = "pig with a 2-sided die" if variant == "pig" else variant
            raise InvalidQuery("--goal of %s must be a whole number from %d to %d, not %d"
                               % (what, low, high, values["goal"]))

    @classmethod
    def from_options(cls, options: dict):
        variant = options.get("--variant", "pig")
        if "--sides" in options and variant in SIDES:
            raise InvalidQuery(_no_sides(variant))
        return super().from_options(options)

    @classmethod
    def from_fields(cls, fields: dict):
        fields = dict(fields)
        if fields.get("variant") in SIDES and fields.get("sides") == str(SIDES[fields["variant"]]):
            del fields["sides"]  # implied by the variant: the name formats back only if it was
        return super().from_fields(fields)

    def describe(self) -> str:
        what = {"pig": "one %d-sided die; a 1 ends the turn" % self.sides,
                "piglet": "a coin; tails ends the turn, heads adds 1",
                "two-dice": "two dice; a single 1 ends the turn, double 1s also reset the banked score to 0",
                "big-pig": "two dice; a single 1 ends the turn, double 1s add 25, other doubles twice their sum"}
        return "%s: first to %d; %s" % (self.variant, self.goal, what[self.variant])

    def outcomes(self) -> tuple:
        """One roll's outcomes, ``(count, kind, points)`` with ``count`` out of :meth:`denominator` rolls."""
        return outcomes(self.variant, self.sides)

    def denominator(self) -> int:
        return sum(count for count, _, _ in self.outcomes())


def goal_limits(variant: str, sides: int) -> tuple:
    """The goals a table is solved for (with a proven error bound far below the tie width)."""
    if variant == "pig" and sides == 2:
        return TWO_SIDED_GOALS
    return VARIANT_GOALS.get(variant, GOAL_LIMITS)


def _no_sides(variant: str) -> str:
    die = "flips a coin" if variant == "piglet" else "rolls two 6-sided dice"
    return "--sides is pig's die size; %s %s: drop --sides" % (variant, die)


def outcomes(variant: str, sides: int) -> tuple:
    """One roll's outcomes, merged and in a fixed order: ``(count, kind, points)``, ``count`` out of
    ``sides`` (one die, a coin) or 36 (two dice)."""
    if variant in ("pig", "piglet"):
        faces = [(1, BUST, 0)] + [(1, ADD, 1 if variant == "piglet" else face) for face in range(2, sides + 1)]
    else:
        faces = []
        for a in range(1, 7):
            for b in range(1, 7):
                if a == b == 1:
                    faces.append((1, RESET, 0) if variant == "two-dice" else (1, ADD, 25))
                elif 1 in (a, b):
                    faces.append((1, BUST, 0))
                elif a == b and variant == "big-pig":
                    faces.append((1, ADD, 4 * a))
                else:
                    faces.append((1, ADD, a + b))
    merged: dict = {}
    for count, kind, points in faces:
        merged[kind, points] = merged.get((kind, points), 0) + count
    return tuple((count, kind, points) for (kind, points), count in sorted(merged.items()))


OPTIONS = Rules.option_flags()


def fields_of(rules: Rules) -> dict:
    return rules.fields()


def rules_of(fields: dict) -> Rules:
    return Rules.from_fields(fields)


def rows(goal: int) -> int:
    """The tables' rows: one per (i, k) with i + k below the goal."""
    return goal * (goal + 1) // 2


def row(goal: int, mine: int, turn: int) -> int:
    """The row of banked score ``mine`` and turn total ``turn`` (``mine + turn < goal``)."""
    return mine * goal - mine * (mine - 1) // 2 + turn


def estimate(rules: Rules):
    """What solving the table of ``rules`` costs: its bytes (exact, from the arrays' shapes), memory and time
    from ratios measured on the build machine, rounded up."""
    from ...engine.game import Estimate

    cells = rows(rules.goal) * rules.goal
    size = 9 * cells  # the header adds under 1 kB
    return Estimate(size, 60 * 10**6 + 120 * cells, 0.05 + cells / 6.5e4)
