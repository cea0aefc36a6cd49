"""A game's rules declared once, as options (query time).

A game lists its options (:class:`Option`: a name, a default, a range of whole numbers or a set of words,
a line of help) on a :class:`RuleSet` subclass; the engine makes the rest: the frozen, hashable value with
``as_dict()`` (the table header's ``rules``), the game options' parser (``from_options``), the table
name's slots (``fields`` / ``from_fields``) and the help lines.

>>> class Rules(RuleSet):
...     GAME = "toggle"
...     OPTIONS = (Option("cards", 12, low=1, high=16, help="cards 1..N"),)
>>> Rules(cards=8)
Rules(cards=8)
>>> Rules.from_options({"--cards": "8"}) == Rules(cards=8), Rules().fields()
(True, {'cards': '12'})
"""

from ..errors import InvalidQuery
from .text import shown, shown_value, whole_in


class Option:
    """One game option, ``--NAME``: whole numbers from ``low`` to ``high``, or one of the words ``choices``.
    ``default`` is the value when it is not given (None: the rule set's ``complete`` chooses it)."""

    __slots__ = ("name", "default", "low", "high", "choices", "help", "default_words")

    def __init__(self, name: str, default, *, low: int | None = None, high: int | None = None,
                 choices: tuple | None = None, help: str = "", default_words: str | None = None):
        self.name, self.default, self.low, self.high = name, default, low, high
        self.choices, self.help = tuple(choices) if choices else None, help
        self.default_words = default_words  # what --help says the default is (a default that depends)

    @property
    def flag(self) -> str:
        return "--" + self.name

    def value(self, value):
        """``value`` as the API gives it, checked (InvalidQuery, in the command line's words)."""
        if self.choices is not None:
            if not isinstance(value, str) or value not in self.choices:
                raise InvalidQuery("%s must be %s, not %s" % (self.flag, self.words(), shown_value(value)))
            return value
        if type(value) is not int or not self.low <= value <= self.high:
            # numpy integers are whole numbers too
            if hasattr(value, "__index__") and not isinstance(value, bool) and type(value) is not int:
                return self.value(value.__index__())
            raise InvalidQuery("%s must be a whole number from %d to %d, not %s"
                               % (self.flag, self.low, self.high, shown_value(value)))
        return value

    def parse(self, text: str):
        """``value`` as the command line gives it (text)."""
        if self.choices is not None:
            if text not in self.choices:
                raise InvalidQuery("%s must be %s, not '%s'" % (self.flag, self.words(), shown(text)))
            return text
        assert self.low is not None and self.high is not None  # an option of numbers has its range
        return whole_in(self.flag, text, self.low, self.high)

    def words(self) -> str:
        if self.choices:
            return "one of " + ", ".join(self.choices)
        assert self.low is not None and self.high is not None
        return "%d to %d" % (self.low, self.high)


class RuleSet:
    """A game's rules: set ``GAME`` (the table header's game) and ``OPTIONS``; ``CONSTANTS`` (name -> value) are
    written into ``as_dict()`` beside the options. Override ``complete(values)`` to choose defaults that depend
    on other options or refuse combinations (``values``: option name -> value, None where not given)."""

    GAME = ""
    OPTIONS: tuple = ()
    CONSTANTS: dict = {}
    __slots__ = ("_values",)
    _values: tuple

    def __init__(self, *args, **given):
        if len(args) > len(self.OPTIONS):
            raise InvalidQuery("%s takes at most %d rules, got %d" % (self.GAME, len(self.OPTIONS), len(args)))
        for option, value in zip(self.OPTIONS, args):
            if option.name in given:
                raise InvalidQuery("%s is given twice" % option.name)
            given[option.name] = value
        values = {}
        for option in self.OPTIONS:
            value = given.pop(option.name, None)
            values[option.name] = None if value is None else option.value(value)
        if given:
            raise InvalidQuery("%s has no rule %s (its rules: %s)" % (
                self.GAME, shown(sorted(given)[0]), ", ".join(option.name for option in self.OPTIONS)))
        for option in self.OPTIONS:
            if values[option.name] is None and option.default is not None:
                values[option.name] = option.default
        self.complete(values)
        object.__setattr__(self, "_values", tuple(values[option.name] for option in self.OPTIONS))

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for number, option in enumerate(cls.OPTIONS):  # rules.goal: a property, as fast as an attribute
            setattr(cls, option.name, property(lambda self, number=number: self._values[number],
                                               doc="The %s." % option.help))

    def complete(self, values: dict) -> None:
        """Fill the defaults that depend on other options and refuse what does not make a game (InvalidQuery)."""

    def __setattr__(self, name, value):
        raise AttributeError("rules are frozen: make new ones")

    def __eq__(self, other):
        return type(other) is type(self) and other._values == self._values

    def __hash__(self):
        return hash((type(self).__name__, self._values))

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(
            "%s=%r" % (option.name, value) for option, value in zip(self.OPTIONS, self._values)))

    def __reduce__(self):
        return (_remake, (type(self), self.as_options()))

    def as_options(self) -> dict:
        """Option name -> value (``Rules(**rules.as_options())`` is ``rules``)."""
        return {option.name: value for option, value in zip(self.OPTIONS, self._values)}

    def as_dict(self) -> dict:
        """The table header's ``rules``: the options, then the constants."""
        return {**{name: value for name, value in self.as_options().items() if value is not None}, **self.CONSTANTS}

    def fields(self) -> dict:
        """The table name's slots: each option's text (``{"goal": "100"}``)."""
        return {name: str(value) for name, value in self.as_options().items() if value is not None}

    @classmethod
    def option_flags(cls) -> tuple:
        """The command line's game options (``("--goal",)``)."""
        return tuple(option.flag for option in cls.OPTIONS)

    @classmethod
    def from_options(cls, options: dict):
        """The rules of the game options' texts (``{"--goal": "50"}``), checked as the command line checks them."""
        given = {}
        for option in cls.OPTIONS:
            if option.flag in options:
                given[option.name] = option.parse(options[option.flag])
        return cls(**given)

    @classmethod
    def from_fields(cls, fields: dict):
        """The rules of a table name's slots (the inverse of :meth:`fields`)."""
        return cls.from_options({"--" + name: text for name, text in fields.items()})

    @classmethod
    def help_lines(cls, width: int = 78) -> str:
        """The options' lines of ``--help``, in the column of the shared options' (``--batch``, ...)::

          --goal N       the score to reach: 2 to 200 (default 100)
        """
        lines = []
        for option in cls.OPTIONS:
            default = option.default_words or option.default
            words = ("%s: %s%s" % (option.help, option.words(), "" if default is None else " (default %s)" % default))
            line = "  %-14s" % ("%s %s" % (option.flag, "WORD" if option.choices else "N"))
            for word in words.split():  # wrapped by hand: textwrap would cost every question its import
                if len(line) + 1 + len(word) > width and not line.endswith("  "):
                    lines.append(line)
                    line = " " * 16
                line += " " + word
            lines.append(line)
        return "\n".join(lines)


def _remake(cls, options):
    return cls(**options)
