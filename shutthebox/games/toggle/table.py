"""Query-time toggle tables: ``load()`` and the two questions (expected rolls, the card to turn).

>>> from shutthebox.games.toggle.table import load
>>> round(load().probe_expect("all"), 6)
50.317928
"""

from ...engine.notation import parse_collection, parse_set
from ...engine.table import Table, Values, check_shapes, load_table
from ...engine.text import as_whole, shown_value
from ...errors import InvalidQuery
from . import DECLARATION
from .rules import Rules

_CACHE_LIMIT = 1 << 16


def load(rules: Rules | None = None, path: str | None = None, build: bool = True) -> "ToggleTable":
    """The verified table of ``rules`` (default: 12 cards, 6-sided dice); solved on first use and cached."""
    return load_table(DECLARATION.tables[0], ToggleTable, rules, path, build, rules_class=Rules)


def open_rules(rules) -> "ToggleTable":
    """The table of ``rules`` as the command line opens it (the declaration's hook)."""
    return load(rules)


class ToggleTable(Table):
    """Exact answers for one toggle game.

    A state is the set of cards still face up: text in the project's notation
    (``"1,4,10,12"``; digits may run together with 9 cards or fewer; ``"all"``,
    ``"none"``), or a collection of card numbers. ``probe_*`` raises
    InvalidQuery for a question without an answer; ``get_*`` returns ``default``.
    """

    ARRAYS = {"_rolls": "rolls", "_flip": "flip"}

    def value_ranges(self):
        return {"rolls": Values("an expected number of rolls", 0.0),
                "flip": Values("a card number", 0, self.rules.cards)}

    def __init__(self, tablefile, rules: Rules):
        super().__init__(tablefile)
        self.rules = rules
        states, sides = rules.states, rules.sides
        check_shapes(self, {"rolls": (states,), "flip": (states, sides, sides)}, rules.describe())
        self._rolls = tablefile.arrays["rolls"]
        self._flip = tablefile.arrays["flip"]
        self._states: dict = {"all": states - 1, "none": 0}

    def state(self, state) -> int:
        """The bitmask of the face-up cards, validated."""
        try:
            return self._states[state]
        except (KeyError, TypeError):
            pass
        if isinstance(state, str):
            mask = parse_set(state, self.rules.cards, noun="card", what="state", plural="face-up cards")
            if len(self._states) < _CACHE_LIMIT:
                self._states[state] = mask
            return mask
        return parse_collection(state, self.rules.cards, noun="card", what="state")

    def probe_expect(self, state) -> float:
        """The expected number of further rolls from ``state``, playing optimally."""
        return self._rolls[self.state(state)]

    def probe_flip(self, state, x: int, y: int) -> int:
        """The card to turn when the dice show ``x`` and ``y``."""
        mask = self.state(state)
        sides = self.rules.sides
        faces = []
        for die in (x, y):
            face = as_whole(die)
            if face is None or not 1 <= face <= sides:
                raise InvalidQuery("a die shows 1 to %d, not %s" % (sides, shown_value(die)))
            faces.append(face)
        x, y = faces
        if not mask:
            raise InvalidQuery("every card is face down: the game is over, there is nothing to turn")
        card = self._flip[(mask * sides + x - 1) * sides + y - 1]
        if not card:
            raise InvalidQuery("dice %d and %d let you turn no card of 1 to %d: the roll passes"
                               % (x, y, self.rules.cards))
        return card

    # One set of lookup names across games (probe_expect, probe_move): ``probe_flip`` is toggle's move.
    probe_move = probe_flip
