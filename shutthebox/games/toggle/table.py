"""Query-time toggle tables: ``load()`` and the two questions (expected rolls, the card to turn).

>>> from shutthebox.games.toggle.table import load
>>> round(load().probe_expect("all"), 6)
50.317928
"""

from ...engine.notation import parse_collection, parse_set
from ...engine.store import open_table
from ...engine.table import Table
from ...engine.text import shown_value
from ...errors import InvalidQuery, TableError
from . import DECLARATION
from .rules import GAME, Rules

_TABLES = DECLARATION.tables[0]

_CACHE_LIMIT = 1 << 16


def table_name(rules: Rules) -> str:
    return _TABLES.name(rules)


def describe_fields(fields: dict) -> str:
    rules = fields.get("rules")
    if fields.get("game") == GAME and isinstance(rules, dict):
        return "a toggle table (%d cards, %d-sided dice)" % (rules.get("cards"), rules.get("sides"))
    return "a %r table (%r)" % (fields.get("game"), rules)


def load(rules: Rules | None = None, path: str | None = None, build: bool = True) -> "ToggleTable":
    """The verified table of ``rules`` (default: 12 cards, 6-sided dice); solved on first use and cached."""
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise InvalidQuery("rules must be a toggle Rules object, not %r" % (rules,))

    tablefile = open_table(table_name(rules), expect={"game": GAME, "rules": rules.as_dict()},
                           describe=describe_fields, path=path, build=_TABLES.solver(rules) if build else None)
    return ToggleTable(tablefile, rules)


class ToggleTable(Table):
    """Exact answers for one toggle game.

    A state is the set of cards still face up: text in the project's notation
    (``"1,4,10,12"``; digits may run together with 9 cards or fewer; ``"all"``,
    ``"none"``), or a collection of card numbers. ``probe_*`` raises
    InvalidQuery for a question without an answer; ``get_*`` returns ``default``.
    """

    ARRAYS = {"_rolls": "rolls", "_flip": "flip"}

    def __init__(self, tablefile, rules: Rules):
        super().__init__(tablefile)
        self.rules = rules
        states, sides = rules.states, rules.sides
        if tablefile.shapes.get("rolls") != (states,) or tablefile.shapes.get("flip") != (states, sides, sides):
            raise TableError("table file %s has arrays of the wrong shape for %s; rebuild it with `make tables`"
                             % (self.path, rules.describe()))
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
        for die in (x, y):
            if type(die) is not int or not 1 <= die <= sides:
                raise InvalidQuery("a die shows 1 to %d, not %s" % (sides, shown_value(die)))
        if not mask:
            raise InvalidQuery("every card is face down: the game is over, there is nothing to turn")
        card = self._flip[(mask * sides + x - 1) * sides + y - 1]
        if not card:
            raise InvalidQuery("dice %d and %d let you turn no card of 1 to %d: the roll passes"
                               % (x, y, self.rules.cards))
        return card
