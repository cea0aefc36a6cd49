"""What every game's table class shares (query time): the verified file, ``preload``, ``close``, ``with``,
and lookups in pairs, as in python-chess's syzygy: ``probe_*`` raises InvalidQuery for a question
without an answer, ``get_*(..., default=None)`` returns ``default`` instead.

A subclass writes its ``probe_*`` methods; the matching ``get_*`` is made for it. ``ARRAYS`` maps an
attribute to the array it holds (``{"_rolls": "rolls"}``): read lazily, block by block, until
``preload()`` reads them whole.
"""

from ..errors import InvalidQuery


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
