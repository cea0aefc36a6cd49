"""What every game's table class shares (query time): the verified file, ``preload``, ``close``, ``with``,
and lookups in pairs, as in python-chess's syzygy: ``probe_*`` raises InvalidQuery for a question
without an answer, ``get_*(..., default=None)`` returns ``default`` instead.

A subclass writes its ``probe_*`` methods; the matching ``get_*`` is made for it. ``ARRAYS`` maps an
attribute to the array it holds (``{"_rolls": "rolls"}``): read lazily, block by block, until
``preload()`` reads them whole.

Checksums vouch for the bytes, not for what they say: a subclass says what each array's values may be
(``VALUES``, or ``value_ranges()`` when that depends on the rules: array name -> :class:`Values`), and
the reader checks every value a question reads against it (a comparison a lookup; a whole array at once
when ``preload()`` reads it for a batch). A table whose checksums are right but which holds nan, an
infinity, a chance of 1.5 or a move the game has not is refused (TableError, exit status 3), never
printed.
"""

import sys

from ..errors import InvalidQuery, TableError
from .text import shown_value

# The largest finite float: a value up to it is finite (nan and the infinities are outside every range).
FINITE = sys.float_info.max
# How far a stored float may pass its exact bounds by rounding (a chance of 1 + 2e-16 summed by a solver):
# far below the 6 decimals printed, far above any float sum's error.
SLACK = 1e-9


class Values:
    """What the values of one array may be: numbers from ``low`` to ``high`` (a float within ``SLACK`` of
    them: rounding), and, when ``only`` is given, one of those. nan and the infinities are outside every
    range. ``what`` names the values in messages (``a chance``)."""

    __slots__ = ("what", "low", "high", "only", "_shown")

    def __init__(self, what: str, low, high=FINITE, only=None):
        self.what, self.only = what, None if only is None else frozenset(only)
        self._shown = (low, high)
        slack = SLACK if isinstance(low, float) or isinstance(high, float) else 0
        self.low, self.high = low - slack, high + slack

    def __repr__(self):
        return "Values(%r)" % self.words()

    def words(self) -> str:
        """``a chance from 0 to 1``, ``a move code: 0 to 30, 32 to 42 or 255``: for the message that refuses
        a value."""
        low, high = self._shown
        if self.only is not None:
            runs: list = []
            for value in sorted(self.only):
                if runs and value == runs[-1][1] + 1:
                    runs[-1][1] = value
                else:
                    runs.append([value, value])
            parts = ["%g" % first if first == last else "%g to %g" % (first, last) for first, last in runs]
            return "%s: %s" % (self.what, parts[0] if len(parts) == 1 else
                               "%s or %s" % (", ".join(parts[:-1]), parts[-1]))
        if high == FINITE:
            return "%s, finite and %g or more" % (self.what, low)
        return "%s from %g to %g" % (self.what, low, high)

    def holds(self, value) -> bool:
        return self.low <= value <= self.high and (self.only is None or value in self.only)

    def first_outside(self, values) -> int | None:
        """The index of the first of ``values`` (a typed memoryview or array) outside, or None: at C speed
        for a whole array read for a batch (``min``, ``max``; ``sum`` finds a nan; bytes for small whole
        numbers), a Python loop only to name the culprit."""
        if not len(values):
            return None
        code = getattr(values, "format", None) or values.typecode
        if code == "B":
            if not values.tobytes().translate(None, bytes(byte for byte in range(256) if self.holds(byte))):
                return None
        elif code == "H" and sys.byteorder == "little" and self.low <= 0 and self.only is None:
            top = min(int(self.high), 0xFFFF) >> 8  # the highest high byte allowed
            if not values.tobytes()[1::2].translate(None, bytes(range(top + 1))) and (
                    int(self.high) & 0xFF == 0xFF or max(values) <= self.high):
                return None  # (a bound 2^k - 1 is its high byte's: nothing more to check)
        elif self.only is None and self.low <= min(values) and max(values) <= self.high:
            total = sum(values)
            if total == total:  # a nan makes the sum nan
                return None
        return next((index for index, value in enumerate(values) if not self.holds(value)), None)


CHANCE = Values("a chance", 0.0, 1.0)


def load_table(family, cls, rules, path: str | None = None, build: bool = True, *, rules_class=None,
               header_rules=None, expect: dict | None = None, describe=None, hint: str = "", **solve_options):
    """The one table loader: the verified file of ``rules`` in the table family ``family`` (engine.game.Tables),
    from ``path`` (``--table``), the shipped ``data/``, the cache, or solved on first use (when ``build`` and the
    family solves on first use; ``solve_options`` go to its solver), as ``cls(tablefile, rules)``. With
    ``rules_class``, ``rules`` None means its defaults and rules of another class are refused. The header must
    hold the family's game and ``header_rules`` (default ``rules.as_dict()``), or the fields ``expect``;
    ``describe(header)`` words another header in messages (default :func:`describe_header`)."""
    import os

    from .store import open_table

    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise InvalidQuery("path must be the name of a table file, not %s" % shown_value(path))
    if rules_class is not None:
        rules = rules_class() if rules is None else rules
        if not isinstance(rules, rules_class):
            raise InvalidQuery("rules must be a %s Rules object, not %s" % (family.headers[0], shown_value(rules)))

    if expect is None:
        expect = {"game": family.headers[0], "rules": rules.as_dict() if header_rules is None else header_rules}
    tablefile = open_table(family.name(rules), expect=expect, describe=describe or describe_header, path=path,
                           build=family.solver(rules, **solve_options) if build else None, hint=hint)
    return cls(tablefile, rules)


def describe_header(fields: dict) -> str:
    """What a table header says it holds, for a message (``a goat table (goal 50, dice 6, rolls 3)``)."""
    rules = fields.get("rules")
    if isinstance(rules, dict):
        words = ", ".join("%s %s" % (key, value) for key, value in rules.items())
        return "a %s table (%s)" % (fields.get("game"), words)
    return "a %r table (%r)" % (fields.get("game"), rules)


def check_shapes(table, shapes: dict, what: str) -> None:
    """TableError unless the file's arrays have ``shapes`` (name -> shape)."""
    for name, shape in shapes.items():
        if table.file.shapes.get(name) != tuple(shape):
            raise TableError("table file %s has arrays of the wrong shape for %s; rebuild it with `make tables`"
                             % (table.path, what))


class Table:
    ARRAYS: dict = {}
    # array name -> Values: what each array's values may be (every value a question reads is checked).
    VALUES: dict = {}

    def __init__(self, tablefile):
        self.file = tablefile
        self.path = tablefile.path
        tablefile.limit(self.value_ranges)

    def value_ranges(self) -> dict:
        """array name -> :class:`Values`: ``VALUES``, or (overridden) what the table's rules give; called
        when the first array is read, so after ``__init__`` has set the rules."""
        return self.VALUES

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in list(vars(cls)):
            if name.startswith("probe_"):
                getter = "get_" + name[len("probe_"):]
                if getter not in vars(cls):
                    setattr(cls, getter, _getter(name))

    def preload(self) -> None:
        """Read and verify every array now, for the fastest lookups when many follow."""
        for attribute, name in self.ARRAYS.items():
            if name in self.file.arrays:
                setattr(self, attribute, self.file.whole(name))

    def close(self) -> None:
        """Close the file; lookups already read stay valid, others fail."""
        self.file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _getter(probe: str):
    def get(self, *args, default=None, **kwargs):
        try:
            return getattr(self, probe)(*args, **kwargs)
        except InvalidQuery:
            return default

    get.__name__ = "get_" + probe[len("probe_"):]
    get.__doc__ = "Like :meth:`%s`, but ``default`` where that raises InvalidQuery." % probe
    return get
