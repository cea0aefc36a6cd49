"""The toggle game's rules: N cards, two S-sided dice, and which cards a roll lets you turn.

A state is the bitmask of the cards still face up (bit ``i``: card ``i + 1``);
the game starts with every card face up and ends when none is. Dice showing
``(x, y)`` let the player turn card ``x``, card ``y`` or card ``x + y``, each
only if the game has that card; turning a card face down or face up again.
When no such card exists (small games with big dice), the roll passes.
"""

from ...engine.rules import Option, RuleSet
from ...errors import InvalidQuery

GAME = "toggle"
DEFAULT_CARDS, DEFAULT_SIDES = 12, 6
# Beyond 16 cards a table takes over 10 MiB and the solve minutes; 12 x 6 is the published game.
LIMITS = {"cards": (1, 16), "sides": (2, 12)}


class Rules(RuleSet):
    """``Rules(cards=12, sides=6)``: the published game."""

    __slots__ = ()
    GAME = GAME
    OPTIONS = (Option("cards", DEFAULT_CARDS, low=LIMITS["cards"][0], high=LIMITS["cards"][1], help="cards 1..N"),
               Option("sides", DEFAULT_SIDES, low=LIMITS["sides"][0], high=LIMITS["sides"][1],
                      help="sides of each die"))

    def complete(self, values: dict) -> None:
        cards, sides = values["cards"], values["sides"]
        if cards > 2 * sides:
            raise InvalidQuery("with %d-sided dice no roll can turn a card above %d, so %d cards can never all be "
                               "face down: use at most %d cards or more sides" % (sides, 2 * sides, cards, 2 * sides))

    def describe(self) -> str:
        return "cards 1-%d, two dice with %d sides" % (self.cards, self.sides)

    @property
    def states(self) -> int:
        return 1 << self.cards

    def choices(self, x: int, y: int) -> tuple[int, ...]:
        """The cards dice showing ``(x, y)`` let the player turn, increasing, without repeats."""
        return tuple(sorted({card for card in (x, y, x + y) if card <= self.cards}))


# -- rules chosen on the command line (--cards 8 --sides 4) and in table names (toggle-c8-s4) ----------

OPTIONS = Rules.option_flags()


def fields_of(rules: Rules) -> dict:
    return rules.fields()


def rules_of(fields: dict) -> Rules:
    return Rules.from_fields(fields)


def estimate(rules: Rules):
    """What solving the table of ``rules`` costs: its bytes (exact), memory and time from ratios
    measured on the build machine, rounded up (12 cards, 6 sides: 180 kB, 51 MB, 1.1 s)."""
    from ...engine.game import Estimate

    size = rules.states * (8 + rules.sides * rules.sides)
    return Estimate(size, 50 * 10**6 + 8 * size, 0.05 + 7 * size / 1e6)
