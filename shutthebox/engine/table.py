"""What every game's table class shares (query time): the verified file, ``preload``, ``close``, ``with``,
and lookups in pairs, as in python-chess's syzygy: ``probe_*`` raises InvalidQuery for a question
without an answer, ``get_*(..., default=None)`` returns ``default`` instead.

A subclass writes its ``probe_*`` methods; the matching ``get_*`` is made for it. ``ARRAYS`` maps an
attribute to the array it holds (``{"_rolls": "rolls"}``): read lazily, block by block, until
``preload()`` reads them whole.
"""

from ..errors import InvalidQuery, TableError
from .text import shown_value


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

    def __init__(self, tablefile):
        self.file = tablefile
        self.path = tablefile.path

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
