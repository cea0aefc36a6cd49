"""The table file format (docs/FORMAT.md): constants and the verifying reader.

A table file is one msgpack map. Its first entries are ``magic`` and
``format``; its last entry is ``crc32``, always a msgpack uint32 (``0xce`` and
4 big-endian bytes), the CRC-32 of every byte of the file before those 4.
Bulk numbers are little-endian arrays in msgpack ``bin`` fields; each array's
own ``crc32`` covers the header bytes before ``arrays`` and its data, so a
large file can be checked piece by piece.
"""

from __future__ import annotations

import mmap
import os
import sys
import zlib

import msgpack

from .errors import InvalidRules, TableError
from .rules import Rules

MAGIC = "ShutTheBox table"
FORMAT_MAJOR = 1
FORMAT_MINOR = 0
# dtype string -> (array typecode, item size)
DTYPES = {"<f8": ("d", 8), "<u2": ("H", 2), "|u1": ("B", 1)}
DTYPES_BY_CODE = {code: size for code, size in DTYPES.values()}
REBUILD = "rebuild it with `make tables`"

# The bytes every table starts with: a map header, then "magic": MAGIC.
_MAGIC_KEY = msgpack.packb("magic") + msgpack.packb(MAGIC)
CRC_TAIL = msgpack.packb("crc32") + b"\xce"


# Files up to this size are verified whole when opened; larger ones array by
# array, on first use (each array's own CRC-32 also covers the header).
EAGER_LIMIT = 4 << 20
# Arrays also carry a CRC-32 per block of this many bytes: a large table's
# lookup checks only the block it reads.
BLOCK_SIZE = 1 << 16
_WINDOW = 1 << 12  # header objects are small; a bigger one widens the window


class TableFile:
    """A verified table: ``header`` (every field but the arrays) and ``arrays``.

    ``arrays[name]`` is a flat, indexable sequence of numbers (a memoryview of
    the mapped file, cast to the array's type), verified before it is first
    returned; ``shapes[name]`` gives its dimensions.
    """

    __slots__ = ("path", "header", "rules", "arrays", "shapes", "size")

    def __init__(self, path, header, rules, arrays, shapes, size):
        self.path = path
        self.header = header
        self.rules = rules
        self.arrays = arrays
        self.shapes = shapes
        self.size = size


class _Arrays:
    """name -> typed array, checked against its CRC-32 on first access."""

    def __init__(self, path, data, spans, header_crc, verified, fix):
        self._path, self._data, self._spans = path, data, spans
        self._header_crc, self._verified, self._fix = header_crc, verified, fix
        self._typed: dict = {}

    def __contains__(self, name):
        return name in self._spans

    def __iter__(self):
        return iter(self._spans)

    def keys(self):
        return self._spans.keys()

    def get(self, name, default=None):
        return self[name] if name in self._spans else default

    def __getitem__(self, name):
        try:
            return self._typed[name]
        except KeyError:
            pass
        typecode, start, end, crc, blocks = self._spans[name]
        payload = memoryview(self._data)[start:end]
        if self._verified:
            typed = _typed(payload, typecode)
        elif blocks is not None:
            typed = _CheckedArray(self, name, payload, typecode, blocks)
        elif zlib.crc32(payload, self._header_crc) == crc:
            typed = _typed(payload, typecode)
        else:
            raise _damaged(self._path, "is damaged (checksum mismatch in array %s)" % name, self._fix)
        self._typed[name] = typed
        return typed


class _CheckedArray:
    """An array of a large file whose blocks are verified when first read."""

    __slots__ = ("_values", "_shift", "_checked", "_payload", "_blocks", "_owner", "_name")

    def __init__(self, owner, name, payload, typecode, blocks):
        self._owner, self._name, self._payload, self._blocks = owner, name, payload, blocks
        self._values = _typed(payload, typecode)
        self._shift = (BLOCK_SIZE // DTYPES_BY_CODE[typecode]).bit_length() - 1
        self._checked = bytearray(len(blocks) // 4)

    def __len__(self):
        return len(self._values)

    def __getitem__(self, index):
        block = index >> self._shift
        if not self._checked[block]:
            self._check(block)
        return self._values[index]

    def _check(self, block):
        owner = self._owner
        start = block * BLOCK_SIZE
        found = zlib.crc32(self._payload[start : start + BLOCK_SIZE], owner._header_crc)
        if found != int.from_bytes(self._blocks[4 * block : 4 * block + 4], "little"):
            raise _damaged(owner._path, "is damaged (checksum mismatch in array %s, block %d)" % (self._name, block),
                           owner._fix)
        self._checked[block] = 1


def _damaged(path, what, fix=REBUILD):
    return TableError("table file %s %s; %s" % (path, what, fix))


def read_table(path: str, fix: str = REBUILD) -> TableFile:
    """Open and verify a table file; raise TableError naming the file and the fix.

    The file is memory-mapped and its arrays are views of it: nothing is
    copied, and a large table's arrays are read only when a question needs them.
    ``fix`` tells the reader of an error message how to get a good file.
    """
    try:
        data = _map(path)
    except FileNotFoundError:
        raise TableError("table file %s does not exist; build it with `make tables`" % path) from None
    except OSError as error:
        raise TableError("cannot read table file %s (%s)" % (path, error.strerror or error)) from None
    if not data[1 : 1 + len(_MAGIC_KEY)] == _MAGIC_KEY:
        raise _damaged(path, "is not a ShutTheBox table (wrong magic)", fix)
    _check_version(path, data, fix)
    if len(data) < 64 or data[-4 - len(CRC_TAIL) : -4] != CRC_TAIL:
        raise _damaged(path, "is truncated (no checksum at its end)", fix)
    eager = len(data) <= EAGER_LIMIT
    if eager and zlib.crc32(memoryview(data)[:-4]) != int.from_bytes(data[-4:], "big"):
        raise _damaged(path, "is damaged (checksum mismatch)", fix)
    try:
        header, specs, arrays_at = _walk(data)
    except Exception as error:  # msgpack raises several types for bad data
        raise _damaged(path, "cannot be decoded (%s)" % (error or type(error).__name__), fix) from None
    return _check_fields(path, data, header, specs, zlib.crc32(memoryview(data)[:arrays_at]), eager, fix)


class _Cursor:
    """Reads one msgpack object at a time from an absolute offset, so that
    big ``bin`` payloads can be stepped over instead of copied."""

    def __init__(self, data, position=0):
        self.data, self.position = data, position

    def _read(self, what):
        """``what(unpacker)`` on the bytes from here, in a window wide enough."""
        window = _WINDOW
        while True:
            unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
            unpacker.feed(self.data[self.position : self.position + window])
            try:
                found = what(unpacker)
            except msgpack.OutOfData:
                if self.position + window >= len(self.data):
                    raise
                window *= 16
                continue
            self.position += unpacker.tell()
            return found

    def value(self):
        return self._read(msgpack.Unpacker.unpack)

    def map_header(self) -> int:
        return self._read(msgpack.Unpacker.read_map_header)

    def bin_span(self) -> tuple[int, int]:
        """Step over a ``bin`` value; return where its payload starts and ends."""
        kind, at = self.data[self.position], self.position + 1
        if kind == 0xC4:
            length, start = self.data[at], at + 1
        elif kind == 0xC5:
            length, start = int.from_bytes(self.data[at : at + 2], "big"), at + 2
        elif kind == 0xC6:
            length, start = int.from_bytes(self.data[at : at + 4], "big"), at + 4
        else:
            raise ValueError("array data is not a msgpack bin")
        if start + length > len(self.data):
            raise ValueError("array data runs past the end of the file")
        self.position = start + length
        return start, start + length


def _walk(data):
    """(header fields, array descriptors with payload spans, offset of "arrays")."""
    cursor = _Cursor(data)
    header, specs, arrays_at = {}, {}, None
    for _ in range(cursor.map_header()):
        key_at = cursor.position
        key = cursor.value()
        if key != "arrays":
            header[key] = cursor.value()
            continue
        arrays_at = key_at
        for _ in range(cursor.map_header()):
            name = cursor.value()
            spec = {}
            for _ in range(cursor.map_header()):
                field = cursor.value()
                spec[field] = cursor.bin_span() if field == "data" else cursor.value()
            specs[name] = spec
    if arrays_at is None:
        raise ValueError("no arrays")
    return header, specs, arrays_at


def _check_fields(path, data, header, specs, header_crc, eager, fix):
    try:
        rules = Rules.from_dict(header["rules"])
        spans, shapes = {}, {}
        for name, spec in specs.items():
            typecode, item_size = DTYPES[spec["dtype"]]
            shape = tuple(spec["shape"])
            start, end = spec["data"]
            count = 1
            for dimension in shape:
                count *= dimension
            if end - start != count * item_size:
                raise _damaged(path, "has array %s of %d bytes, expected %d" % (name, end - start, count * item_size), fix)
            if not eager and type(spec.get("crc32")) is not int:
                raise _damaged(path, "has no checksum for array %s" % name, fix)
            blocks = spec.get("block_crc32")
            if spec.get("block_size") != BLOCK_SIZE or type(blocks) is not bytes \
                    or len(blocks) != 4 * -(-(end - start) // BLOCK_SIZE):
                blocks = None  # no usable block checksums: check the array whole
            spans[name] = (typecode, start, end, spec.get("crc32"), blocks)
            shapes[name] = shape
    except TableError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError, InvalidRules) as error:
        raise _damaged(path, "has a malformed header (%s: %s)" % (type(error).__name__, error), fix) from None
    arrays = _Arrays(path, data, spans, header_crc, eager, fix)
    return TableFile(path, header, rules, arrays, shapes, len(data))


def _map(path):
    """The file's bytes, memory-mapped: no copy, only the pages we touch."""
    handle = os.open(path, os.O_RDONLY)
    try:
        if os.fstat(handle).st_size == 0:
            return b""  # mmap refuses empty files
        return mmap.mmap(handle, 0, access=mmap.ACCESS_READ)
    finally:
        os.close(handle)


def _check_version(path, data, fix):
    unpacker = msgpack.Unpacker()
    unpacker.feed(data[:64])
    try:
        unpacker.read_map_header()
        unpacker.skip(), unpacker.skip()  # "magic": MAGIC, checked already
        key, version = unpacker.unpack(), unpacker.unpack()
    except Exception:
        raise _damaged(path, "is truncated (no format version)", fix) from None
    if key != "format" or not isinstance(version, list) or len(version) != 2:
        raise _damaged(path, "has no format version", fix)
    if version[0] != FORMAT_MAJOR:
        raise TableError(
            "table file %s has format version %s.%s; this program reads %d.x; %s"
            % (path, version[0], version[1], FORMAT_MAJOR, fix)
        )


def _typed(raw, typecode: str):
    if sys.byteorder == "little":
        return raw.cast(typecode)
    from array import array  # only big-endian hosts need a converted copy

    values = array(typecode, bytes(raw))  # pragma: no cover - big-endian hosts only
    values.byteswap()
    return values
