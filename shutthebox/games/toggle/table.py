"""Query-time toggle tables: ``load()`` and the two questions (expected rolls, the card to turn).

>>> from shutthebox.games.toggle.table import load
>>> round(load().probe_expect("all"), 6)
50.317928
"""

from ...engine.notation import parse_collection, parse_set
from ...engine.store import open_table
from ...errors import InvalidQuery, TableError
from .rules import GAME, Rules

_CACHE_LIMIT = 1 << 16


def table_name(rules: Rules) -> str:
    return "toggle-c%d-s%d.msgpack" % (rules.cards, rules.sides)


_NAME = r"toggle-c(\d+)-s(\d+)\.msgpack\Z"  # compiled only when asked: `re` costs a question milliseconds


def solver_for(name: str):
    """The call that opens the table file ``name`` (``toggle-c8-s4.msgpack``) as ``ShutTheBox toggle
    --cards 8 --sides 4`` does, solving it on first use; None when ``name`` is not a toggle table's name;
    InvalidQuery, in the command line's words, for rules it refuses."""
    import re

    found = re.match(_NAME, name)
    if found is None:
        return None
    from .grammar import rules_from_options  # the command line's checks (grammar imports this module)

    rules = rules_from_options({"--cards": found.group(1), "--sides": found.group(2)})
    if table_name(rules) != name:
        raise InvalidQuery("%s is not the name of a table: the table of these rules is %s"
                           % (name, table_name(rules)))
    return lambda: load(rules)


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

    def solve():
        from .build import solve_table  # build time: only when no table exists

        return solve_table(rules)

    tablefile = open_table(table_name(rules), expect={"game": GAME, "rules": rules.as_dict()},
                           describe=describe_fields, path=path, build=solve if build else None)
    return ToggleTable(tablefile, rules)


class ToggleTable:
    """Exact answers for one toggle game.

    A state is the set of cards still face up: text in the project's notation
    (``"1,4,10,12"``; digits may run together with 9 cards or fewer; ``"all"``,
    ``"none"``), or a collection of card numbers. ``probe_*`` raises
    InvalidQuery for a question without an answer; ``get_*`` returns ``default``.
    """

    def __init__(self, tablefile, rules: Rules):
        self.file, self.path, self.rules = tablefile, tablefile.path, rules
        states, sides = rules.states, rules.sides
        if tablefile.shapes.get("rolls") != (states,) or tablefile.shapes.get("flip") != (states, sides, sides):
            raise TableError("table file %s has arrays of the wrong shape for %s; rebuild it with `make tables`"
                             % (self.path, rules.describe()))
        self._rolls = tablefile.arrays["rolls"]
        self._flip = tablefile.arrays["flip"]
        self._states: dict = {"all": states - 1, "none": 0}

    def preload(self) -> None:
        """Read and verify the whole table now, for many lookups."""
        self._rolls, self._flip = self.file.whole("rolls"), self.file.whole("flip")

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
                raise InvalidQuery("a die shows 1 to %d, not %s" % (sides, _shown(die)))
        if not mask:
            raise InvalidQuery("every card is face down: the game is over, there is nothing to turn")
        card = self._flip[(mask * sides + x - 1) * sides + y - 1]
        if not card:
            raise InvalidQuery("dice %d and %d let you turn no card of 1 to %d: the roll passes"
                               % (x, y, self.rules.cards))
        return card

    def get_expect(self, state, default=None):
        try:
            return self.probe_expect(state)
        except InvalidQuery:
            return default

    def get_flip(self, state, x: int, y: int, default=None):
        try:
            return self.probe_flip(state, x, y)
        except InvalidQuery:
            return default


def _shown(value) -> str:
    if type(value) is int and not -10**12 < value < 10**12:
        return "a number far out of range"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
