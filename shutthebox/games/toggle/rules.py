"""The toggle game's rules: N cards, two S-sided dice, and which cards a roll lets you turn.

A state is the bitmask of the cards still face up (bit ``i``: card ``i + 1``);
the game starts with every card face up and ends when none is. Dice showing
``(x, y)`` let the player turn card ``x``, card ``y`` or card ``x + y``, each
only if the game has that card; turning a card face down or face up again.
When no such card exists (small games with big dice), the roll passes.
"""

from ...engine.text import whole_in
from ...errors import InvalidQuery

GAME = "toggle"
DEFAULT_CARDS, DEFAULT_SIDES = 12, 6
# Beyond 16 cards a table takes over 10 MiB and the solve minutes; 12 x 6 is the published game.
LIMITS = {"cards": (1, 16), "sides": (2, 12)}


class Rules:
    """``Rules(cards=12, sides=6)``: the published game."""

    __slots__ = ("cards", "sides")

    def __init__(self, cards: int = DEFAULT_CARDS, sides: int = DEFAULT_SIDES):
        for name, value in (("cards", cards), ("sides", sides)):
            low, high = LIMITS[name]
            if type(value) is not int or not low <= value <= high:
                raise InvalidQuery("--%s must be a whole number from %d to %d, not %r" % (name, low, high, value))
        if cards > 2 * sides:
            raise InvalidQuery("with %d-sided dice no roll can turn a card above %d, so %d cards can never all be "
                               "face down: use at most %d cards or more sides" % (sides, 2 * sides, cards, 2 * sides))
        self.cards, self.sides = cards, sides

    def __eq__(self, other):
        return isinstance(other, Rules) and (self.cards, self.sides) == (other.cards, other.sides)

    def __hash__(self):
        return hash((self.cards, self.sides))

    def __repr__(self):
        return "Rules(cards=%d, sides=%d)" % (self.cards, self.sides)

    def as_dict(self) -> dict:
        return {"cards": self.cards, "sides": self.sides}

    def describe(self) -> str:
        return "cards 1-%d, two dice with %d sides" % (self.cards, self.sides)

    @property
    def states(self) -> int:
        return 1 << self.cards

    def choices(self, x: int, y: int) -> tuple[int, ...]:
        """The cards dice showing ``(x, y)`` let the player turn, increasing, without repeats."""
        return tuple(sorted({card for card in (x, y, x + y) if card <= self.cards}))


# -- rules chosen on the command line (--cards 8 --sides 4) and in table names (toggle-c8-s4) ----------

OPTIONS = ("--cards", "--sides")


def rules_from_options(options: dict) -> Rules:
    """The rules of the game options' texts (``{"--cards": "8"}``), checked as the command line checks them."""
    fields = {}
    for option in OPTIONS:
        if option in options:
            low, high = LIMITS[option[2:]]
            fields[option[2:]] = whole_in(option, options[option], low, high)
    return Rules(**fields)


def fields_of(rules: Rules) -> dict:
    return {"cards": str(rules.cards), "sides": str(rules.sides)}


def estimate(rules: Rules):
    """What solving the table of ``rules`` costs: its bytes (exact), memory and time from ratios
    measured on the build machine, rounded up (16 cards, 12 sides: 10 MB, 95 MB, 30 s)."""
    from ...engine.game import Estimate

    size = rules.states * (8 + rules.sides * rules.sides)
    return Estimate(size, 50 * 10**6 + 8 * size, 1 + 3.5 * size / 1e6)


def rules_of(fields: dict) -> Rules:
    return rules_from_options({"--" + name: text for name, text in fields.items()})
