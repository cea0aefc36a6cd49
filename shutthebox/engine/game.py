"""A game's declaration: the one contract the command, the registry, ``build_tables.py``, the server
and the tests read (docs/ARCHITECTURE.md, "The contract of a game").

A game's package (``shutthebox/games/NAME/__init__.py``) holds ``DECLARATION = Game(...)``. What the
engine calls is found in plain modules of fixed names, imported only when used, so reading a declaration
costs a question nothing:

- ``PACKAGE/grammar.py``: the command line's questions (``HELP``, ``GAME_OPTIONS``, ``COMMANDS``, ``open_game``);
- for each table family (``Tables``), in its package (the game's, or a sub-package it names):
  ``rules.py`` (``fields_of``, ``rules_of``, optional ``estimate``), ``table.py`` (``open_rules``) and
  ``build.py`` (``solve_table``, optional ``SHIPPED``; build time).
"""

import sys

from ..errors import InvalidQuery
from .format import SUFFIX

TYPE_CHECKING = False  # not typing's: importing typing would cost a question its time
if TYPE_CHECKING:
    from .model import Hooks


def module(name: str):
    """The module ``name``, imported now. Always ``__import__``: it waits while another thread is still
    importing the module (the server answers on many threads); never ``importlib``, whose import costs a
    question a millisecond."""
    __import__(name)
    return sys.modules[name]


class Estimate:
    """What solving a table costs, said before it is solved: the file's ``size`` in bytes (from its
    arrays' shapes), the peak ``memory`` in bytes and the ``seconds`` on one core (ratios measured on
    the build machine, rounded up: an order of magnitude, not a promise); ``scratch``, the bytes a layered
    build keeps on disk beside the cache while it solves (its checkpoints, removed once the table is written)."""

    __slots__ = ("size", "memory", "seconds", "scratch")

    def __init__(self, size: int, memory: int, seconds: float, scratch: int = 0):
        self.size, self.memory, self.seconds, self.scratch = size, memory, seconds, scratch

    def words(self) -> str:
        """``a 304 MB table, about 4.3 GB of memory and 2 minutes``; a layered build's ``a 1.87 GB table (4.32 GB
        more on disk while it solves), about ...``."""
        minutes = self.seconds / 60
        seconds = max(1, round(self.seconds))
        time = ("1 second" if seconds == 1 else "%d seconds" % seconds) if minutes < 2 else "%d minutes" % round(minutes)
        disk = " (%s more on disk while it solves)" % _bytes(self.scratch) if self.scratch >= 10**8 else ""
        return "a %s table%s, about %s of memory and %s" % (_bytes(self.size), disk, _bytes(self.memory), time)


def _bytes(count: int) -> str:
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= size:
            return "%.3g %s" % (count / size, unit)
    return "%d bytes" % count


class Solve:
    """The call that solves one table and returns its bytes (build time: the build module is imported
    only when it is called), with what it will cost (:class:`Estimate`, or None when the game gives none)."""

    __slots__ = ("family", "rules", "options")

    def __init__(self, family, rules, options):
        self.family, self.rules, self.options = family, rules, options

    def __call__(self) -> bytes:
        return self.family.build().solve_table(self.rules, **self.options)

    def write(self, path: str) -> None:
        """Solve the table and write it to ``path`` atomically: a part at a time by a solver that can
        (``solve_table(rules, out=PATH)``: the largest tables need not fit in memory), else its bytes."""
        import inspect

        from .writer import write_atomic

        solve_table = self.family.build().solve_table
        if "out" in inspect.signature(solve_table).parameters:
            solve_table(self.rules, out=path, **self.options)
        else:
            write_atomic(path, solve_table(self.rules, **self.options))

    def prepare(self) -> None:
        """Import the solver now, before the solve's cost is said: a missing package (numpy) is said first."""
        self.family.build()

    def estimate(self):
        estimate = getattr(self.family.rules(), "estimate", None)
        return estimate(self.rules) if estimate is not None else None


class Tables:
    """One family of a game's table files: how they are named, what their header says, how one is
    opened (solving it on first use) and which are shipped.

    ``pattern`` is the file name without ``.msgpack``, with ``{field}`` slots
    (``"toggle-c{cards}-s{sides}"``); a slot matches a whole number unless
    ``fields`` gives its regular expression. ``aliases`` names files whose name
    is not the pattern's (``{"standard.msgpack": {...fields}}``). ``package`` is
    where the family's modules are (default: the game's; ``".solo"``: a sub-package
    of it): its ``rules.py`` has ``fields_of(rules) -> dict`` and ``rules_of(fields)
    -> rules`` (the table name's slots, both ways; the latter with the command line's
    checks and messages) and may have ``estimate(rules) -> Estimate`` (what a solve
    on first use costs, said before it starts); its ``table.py`` has
    ``open_rules(rules)`` (the table as the command line opens it); its ``build.py``
    (build time) has ``solve_table(rules, **options) -> bytes`` and, for shipped
    tables, ``SHIPPED`` (the rules whose tables ``data/`` holds). A table is solved
    on first use unless ``first_use`` is false (it must be shipped).
    """

    __slots__ = ("pattern", "headers", "fields", "aliases", "package", "first_use", "hooks", "_regex")

    def __init__(self, pattern: str, *, headers: tuple, package: str | None = None, first_use: bool = True,
                 fields: dict | None = None, aliases: dict | None = None, hooks: "Hooks | None" = None):
        self.pattern, self.headers, self.package = pattern, tuple(headers), package
        self.fields, self.aliases = dict(fields or {}), dict(aliases or {})
        self.first_use = first_use
        self.hooks = hooks  # a game declared on a family engine: the family's modules, bound to the game
        self._regex = None

    def rules(self):
        """The family's ``rules`` module (query time)."""
        return self.hooks.rules() if self.hooks is not None else module(self.package + ".rules")

    def table(self):
        """The family's ``table`` module (query time)."""
        return self.hooks.table() if self.hooks is not None else module(self.package + ".table")

    def build(self):
        """The family's ``build`` module (build time: numpy)."""
        return self.hooks.build() if self.hooks is not None else module(self.package + ".build")

    def slots(self) -> list:
        """The pattern's slot names, in order."""
        return [part.split("}", 1)[0] for part in self.pattern.split("{")[1:]]

    def name(self, rules) -> str:
        """The file name of the table of ``rules``."""
        fields = self.rules().fields_of(rules)
        for alias, alias_fields in self.aliases.items():
            if alias_fields == fields:
                return alias
        return self.pattern.format(**fields) + SUFFIX

    def parse(self, name: str):
        """The rules of the table file ``name`` (the inverse of :meth:`name`), checked as the command line
        checks them (InvalidQuery, in its words); None when ``name`` is not of this family."""
        if name in self.aliases:
            fields = dict(self.aliases[name])
        else:
            found = self.regex().match(name)
            if found is None:
                return None
            fields = found.groupdict()
        rules = self.rules().rules_of(fields)
        if self.name(rules) != name:  # 06 for 6, a rule set with a name of its own, ...
            raise InvalidQuery("%s is not the name of a table: the table of these rules is %s"
                               % (name, self.name(rules)))
        return rules

    def regex(self):
        if self._regex is None:
            import re  # only here: `re` costs a question milliseconds

            parts = re.split(r"\{(\w+)\}", self.pattern)
            text = "".join(re.escape(part) if index % 2 == 0 else
                           "(?P<%s>%s)" % (part, self.fields.get(part, r"\d+"))
                           for index, part in enumerate(parts))
            self._regex = re.compile(text + re.escape(SUFFIX) + r"\Z")
        return self._regex

    def rules_in(self, path: str):
        """The rules of the table file at ``path`` (``--table`` with no game option: the file's own rules, as
        Shut the Box reads them); None for a file of another game, which opening it then refuses in its words."""
        from ..errors import InvalidQuery, TableError
        from .reader import read_table

        with read_table(path, fix="give a valid table file") as table:
            game, rules = table.header.get("game"), table.header.get("rules")
        if game not in self.headers or not isinstance(rules, dict):
            return None
        try:
            return self.rules().rules_of({key: str(value) for key, value in rules.items()})
        except (InvalidQuery, KeyError) as error:
            raise TableError("table file %s holds rules this version does not take (%s); give a valid table file"
                             % (path, error)) from None

    def opener(self, name: str):
        """The call that opens the table file ``name`` as the command line does, solving it on first use;
        None when ``name`` is not of this family."""
        rules = self.parse(name)
        if rules is None:
            return None
        return lambda: self.table().open_rules(rules)

    def solver(self, rules, **options):
        """The call that solves the table of ``rules`` on first use and returns its bytes (the build module
        is imported only when it is called); None when the family is never solved on first use."""
        if not self.first_use:
            return None
        return self.builder(rules, **options)

    def builder(self, rules, **options) -> Solve:
        """The call that solves the table of ``rules`` and returns its bytes (build_tables.py)."""
        return Solve(self, rules, options)

    def shipped_rules(self) -> tuple:
        """The rules of the family's tables in ``data/`` (build time: reads ``build.SHIPPED``)."""
        return tuple(getattr(self.build(), "SHIPPED", ()))


class Game:
    """One game: its name on the command line, its words for the pages, its package, its tables.

    ``package`` is the game's package (its ``grammar.py`` is the query-time module the command runs:
    ``HELP``, ``GAME_OPTIONS``, ``COMMANDS``, ``open_game``); ``page`` the games page's module for it
    (``static/games/NAME.js``) or the URL of a page of its own, None for none.
    """

    __slots__ = ("id", "title", "about", "package", "tables", "page", "hooks", "has_model")

    def __init__(self, id: str, *, package: str, title: str, about: str, tables: list | tuple,
                 page: str | None = None, hooks: "Hooks | None" = None, model: bool = False):
        self.id, self.title, self.about, self.package = id, title, about, package
        self.tables, self.page, self.hooks = tuple(tables), page, hooks
        self.has_model = model or hooks is not None  # a game of its own: its package's model.py
        for family in self.tables:
            if family.package is None or family.package.startswith("."):
                family.package = package + (family.package or "")

    @property
    def grammar(self) -> str:
        """The name of the game's query grammar module (a game declared on a family: the family's)."""
        return self.package + ".grammar"

    def grammar_module(self):
        """The game's query grammar (``HELP``, ``GAME_OPTIONS``, ``COMMANDS``, ``open_game``), imported now."""
        return self.hooks.grammar() if self.hooks is not None else module(self.grammar)

    def model(self, rules=None, **options):
        """The game model of ``rules`` (default: the game's) for the surfaces that play step by step
        (``engine/model.py``): its family's, or ``model(rules, **options)`` of its package's ``model.py`` (its
        ``OPTIONS``); None for a game without one (its learning environments are still its own)."""
        if self.hooks is not None:
            return self.hooks.model(rules, **options)
        return module(self.package + ".model").model(rules, **options) if self.has_model else None

    def players(self) -> "int | range":
        """The seats of the game's models, known without a table (its family's, or its ``model.PLAYERS``): a
        number, or a range where the rules choose it (Shut the Box's ``players``, 2 to 8). One seat gives a game
        its Gymnasium environment, several its PettingZoo one (``shutthebox.rl``)."""
        return self.hooks.players if self.hooks is not None else module(self.package + ".model").PLAYERS

    def __repr__(self):
        return "<Game %s>" % self.id

    def headers(self) -> set:
        """The ``game`` header values of this game's tables."""
        return {header for family in self.tables for header in family.headers}

    def family(self, name: str):
        """The table family whose names ``name`` matches (parsed, with rules), or (None, None)."""
        for family in self.tables:
            rules = family.parse(name)
            if rules is not None:
                return family, rules
        return None, None

    def opener(self, name: str):
        """The call that opens the table file ``name`` (see :meth:`Tables.opener`), or None."""
        for family in self.tables:
            found = family.opener(name)
            if found is not None:
                return found
        return None
