"""The table file format (docs/FORMAT.md): constants and the verifying reader.

A table file is one msgpack map. Its first entries are ``magic`` and
``format``; its last entry is ``crc32``, always a msgpack uint32 (``0xce`` and
4 big-endian bytes), the CRC-32 of every byte of the file before those 4.
Bulk numbers are little-endian arrays in msgpack ``bin`` fields.
"""

from __future__ import annotations

import mmap
import os
import sys
import zlib
from array import array

import msgpack

from .errors import InvalidRules, TableError
from .rules import Rules

MAGIC = "ShutTheBox table"
FORMAT_MAJOR = 1
FORMAT_MINOR = 0
# dtype string -> (array typecode, item size)
DTYPES = {"<f8": ("d", 8), "<u2": ("H", 2)}
REBUILD = "rebuild it with `make tables`"

# The bytes every table starts with: a map header, then "magic": MAGIC.
_MAGIC_KEY = msgpack.packb("magic") + msgpack.packb(MAGIC)
CRC_TAIL = msgpack.packb("crc32") + b"\xce"


class TableFile:
    """A verified table: ``header`` (every field but the arrays) and ``arrays``.

    Each array is a flat, indexable sequence of numbers (a memoryview cast to
    the array's type); ``shapes[name]`` gives its dimensions.
    """

    __slots__ = ("path", "header", "rules", "arrays", "shapes", "size")

    def __init__(self, path, header, rules, arrays, shapes, size):
        self.path = path
        self.header = header
        self.rules = rules
        self.arrays = arrays
        self.shapes = shapes
        self.size = size


def _damaged(path, what):
    return TableError("table file %s %s; %s" % (path, what, REBUILD))


def read_table(path: str) -> TableFile:
    """Read and verify a table file; raise TableError naming the file and the fix."""
    try:
        data = _map(path)
    except FileNotFoundError:
        raise TableError("table file %s does not exist; build it with `make tables`" % path) from None
    except OSError as error:
        raise TableError("cannot read table file %s (%s)" % (path, error.strerror or error)) from None
    if not data[1 : 1 + len(_MAGIC_KEY)] == _MAGIC_KEY:
        raise _damaged(path, "is not a ShutTheBox table (wrong magic)")
    _check_version(path, data)
    if len(data) < 64 or data[-4 - len(CRC_TAIL) : -4] != CRC_TAIL:
        raise _damaged(path, "is truncated (no checksum at its end)")
    stored = int.from_bytes(data[-4:], "big")
    if zlib.crc32(memoryview(data)[:-4]) != stored:
        raise _damaged(path, "is damaged (checksum mismatch)")
    try:
        fields = msgpack.unpackb(data)
    except Exception as error:  # msgpack raises several types for bad data
        raise _damaged(path, "cannot be decoded (%s)" % error) from None
    return _check_fields(path, fields, len(data))


def _map(path):
    """The file's bytes, memory-mapped: no copy, only the pages we touch."""
    handle = os.open(path, os.O_RDONLY)
    try:
        if os.fstat(handle).st_size == 0:
            return b""  # mmap refuses empty files
        return mmap.mmap(handle, 0, access=mmap.ACCESS_READ)
    finally:
        os.close(handle)


def _check_version(path, data):
    unpacker = msgpack.Unpacker()
    unpacker.feed(data[:64])
    try:
        unpacker.read_map_header()
        unpacker.skip(), unpacker.skip()  # "magic": MAGIC, checked already
        key, version = unpacker.unpack(), unpacker.unpack()
    except Exception:
        raise _damaged(path, "is truncated (no format version)") from None
    if key != "format" or not isinstance(version, list) or len(version) != 2:
        raise _damaged(path, "has no format version")
    if version[0] != FORMAT_MAJOR:
        raise TableError(
            "table file %s has format version %s.%s; this program reads %d.x; %s"
            % (path, version[0], version[1], FORMAT_MAJOR, REBUILD)
        )


def _check_fields(path, fields, size):
    try:
        header = {key: value for key, value in fields.items() if key != "arrays"}
        rules = Rules.from_dict(header["rules"])
        arrays, shapes = {}, {}
        for name, spec in fields["arrays"].items():
            typecode, item_size = DTYPES[spec["dtype"]]
            shape = tuple(spec["shape"])
            raw = spec["data"]
            count = 1
            for dimension in shape:
                count *= dimension
            if len(raw) != count * item_size:
                raise _damaged(path, "has array %s of %d bytes, expected %d" % (name, len(raw), count * item_size))
            arrays[name] = _typed(raw, typecode)
            shapes[name] = shape
    except TableError:
        raise
    except (KeyError, TypeError, AttributeError, InvalidRules) as error:
        raise _damaged(path, "has a malformed header (%s: %s)" % (type(error).__name__, error)) from None
    return TableFile(path, header, rules, arrays, shapes, size)


def _typed(raw: bytes, typecode: str):
    if sys.byteorder == "little":
        return memoryview(raw).cast(typecode)
    values = array(typecode, raw)  # pragma: no cover - big-endian hosts only
    values.byteswap()
    return values
