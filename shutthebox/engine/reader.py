"""Reading table files (query time): path -> verified :class:`TableFile`.

The reader trusts nothing it has not checked. At open it reads the header
and verifies its CRC-32 before using any field of it; an array's bytes are
read with ``pread`` one 64 KiB block at a time, when a lookup first needs
them, and each block is verified against its CRC-32 before a value is taken
from it. Verified blocks are kept, so an answer always comes from verified
bytes: a file rewritten in place while a process reads it is refused at the
first block that no longer matches, never misread, and a truncated file is
an error, not a crash (nothing is memory-mapped).
"""

import os
import stat
import sys
import zlib

from ..errors import TableError
from .format import (
    ARRAYS_KEY,
    BLOCK_SIZE,
    CRC_TAIL,
    DTYPES,
    FORMAT_KEY,
    FORMAT_MAJOR,
    HEADER_CRC_KEY,
    MAGIC_PREFIX,
    REBUILD,
    block_count,
    element_count,
)

_WINDOW = 1 << 12  # header objects are small; a bigger one widens the window
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # opening a FIFO must not wait for a writer


def damaged(path, what: str, fix: str = REBUILD) -> TableError:
    return TableError("table file %s %s; %s" % (path, what, fix))


class TableFile:
    """An open, verified table file.

    ``header`` holds every top-level field but the arrays and checksums;
    ``game`` and ``rules`` are two of them. ``arrays[name]`` is a flat,
    indexable sequence of the array's numbers (read and verified block by
    block); ``whole(name)`` reads and verifies the array at once and returns
    it as a typed memoryview, the fastest way to make many lookups.
    ``shapes[name]`` gives each array's dimensions.
    """

    def __init__(self, path, fd, size, header, specs, header_crc, fix):
        self.path, self.size, self.header, self.fix = path, size, header, fix
        self.game = header.get("game")
        self.rules = header.get("rules")
        self.shapes = {name: spec[1] for name, spec in specs.items()}
        self._fd, self._specs, self._header_crc = fd, specs, header_crc
        self.arrays = _Arrays(self)
        self._whole: dict = {}

    def __repr__(self):
        return "<TableFile %s: %s>" % (self.path, self.game)

    def whole(self, name: str):
        """The array ``name`` as a typed memoryview, every block verified."""
        try:
            return self._whole[name]
        except KeyError:
            pass
        typecode, _, start, length, _, blocks = self._specs[name]
        raw = self._pread(start, length, name, "")
        view = memoryview(raw)
        for block in range(block_count(length)):
            self._verify(view[block * BLOCK_SIZE : (block + 1) * BLOCK_SIZE], blocks, block, name)
        typed = self._whole[name] = _typed(view, typecode)
        return typed

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown: nothing left to report to
            pass

    # -- block access ------------------------------------------------------

    def _pread(self, start, length, name, where):
        if self._fd is None:
            raise damaged(self.path, "was closed", self.fix)
        try:
            raw = os.pread(self._fd, length, start)
        except OSError as error:
            raise damaged(self.path, "cannot be read (%s)" % (error.strerror or error), self.fix) from None
        if len(raw) != length:
            raise damaged(self.path, "is truncated (array %s%s ends early; was it rewritten while in use?)"
                          % (name, where), self.fix)
        return raw

    def _verify(self, raw, blocks, block, name):
        found = zlib.crc32(raw, self._header_crc)
        if found != int.from_bytes(blocks[4 * block : 4 * block + 4], "little"):
            raise damaged(self.path, "is damaged or was rewritten while in use (checksum mismatch in array %s, "
                          "block %d)" % (name, block), self.fix)

    def _block(self, name, block):
        """Block ``block`` of array ``name``, read, verified and typed."""
        typecode, _, start, length, _, blocks = self._specs[name]
        if not 0 <= block < block_count(length):
            raise IndexError("%s index out of range" % name)
        begin = block * BLOCK_SIZE
        raw = self._pread(start + begin, min(BLOCK_SIZE, length - begin), name, ", block %d," % block)
        self._verify(raw, blocks, block, name)
        return _typed(memoryview(raw), typecode)


class _Arrays:
    """name -> :class:`LazyArray`, made on first use."""

    def __init__(self, owner):
        self._owner = owner
        self._made: dict = {}

    def __contains__(self, name):
        return name in self._owner._specs

    def __iter__(self):
        return iter(self._owner._specs)

    def keys(self):
        return self._owner._specs.keys()

    def get(self, name, default=None):
        return self[name] if name in self._owner._specs else default

    def __getitem__(self, name):
        try:
            return self._made[name]
        except KeyError:
            pass
        if name not in self._owner._specs:
            raise KeyError(name)
        made = self._made[name] = LazyArray(self._owner, name)
        return made


class LazyArray:
    """One array of a table, read and verified one 64 KiB block at a time."""

    __slots__ = ("_owner", "_name", "_blocks", "_shift", "_mask", "_length")

    def __init__(self, owner, name):
        typecode, shape, _, _, _, _ = owner._specs[name]
        per_block = BLOCK_SIZE // DTYPES_BY_CODE[typecode]
        self._owner, self._name, self._blocks = owner, name, {}
        self._shift, self._mask = per_block.bit_length() - 1, per_block - 1
        self._length = element_count(shape)

    def __len__(self):
        return self._length

    def __getitem__(self, index):
        try:
            return self._blocks[index >> self._shift][index & self._mask]
        except KeyError:
            if type(index) is not int or not 0 <= index < self._length:
                raise IndexError("%s index %r out of range" % (self._name, index)) from None
            block = index >> self._shift
            values = self._blocks[block] = self._owner._block(self._name, block)
            return values[index & self._mask]

    def tolist(self) -> list:
        return self._owner.whole(self._name).tolist()


DTYPES_BY_CODE = {code: size for code, size in DTYPES.values()}


def read_table(path: str, *, expect: dict | None = None, describe=None, fix: str = REBUILD) -> TableFile:
    """Open and verify a table file; raise TableError naming the file and the fix.

    ``expect`` maps header fields to the values the question needs (``game``,
    ``rules``, ``players``, ...): a valid table of another game or rule set is
    refused, never used. ``describe(fields)`` words such a dict for the
    message. ``fix`` tells the reader of an error how to get a good file.
    """
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK)
    except FileNotFoundError:
        raise TableError("table file %s does not exist; %s" % (path, fix)) from None
    except OSError as error:
        raise TableError("cannot read table file %s (%s)" % (path, error.strerror or error)) from None
    except (ValueError, TypeError):  # a NUL byte in the name, or not a name at all
        raise TableError("table file %r: not a file name; give the path of a table file" % (path,)) from None
    try:
        table = _open(path, fd, fix)
    except BaseException:
        os.close(fd)
        raise
    if expect:
        wrong = [key for key, value in expect.items() if table.header.get(key) != value]
        if wrong:
            table.close()
            words = describe or _fields_text
            found = table.header if describe else {key: table.header.get(key) for key in expect}
            raise TableError("table file %s holds %s, not %s as asked; %s"
                             % (path, words(found), words(expect), fix))
    return table


def _fields_text(fields: dict) -> str:
    return ", ".join("%s %s" % (key, value) for key, value in fields.items())


def _open(path, fd, fix):
    try:
        info = os.fstat(fd)
    except OSError as error:
        raise TableError("cannot read table file %s (%s)" % (path, error.strerror or error)) from None
    if not stat.S_ISREG(info.st_mode):
        raise TableError("table file %s is not a regular file; %s" % (path, fix))
    size = info.st_size
    cursor = _Cursor(fd, size)
    try:
        return _open_verified(path, fd, cursor, size, fix)
    except OSError as error:  # a read error (EIO, /proc/self/mem): a table problem, not the output's
        raise TableError("cannot read table file %s (%s); %s" % (path, error.strerror or error, fix)) from None


def _open_verified(path, fd, cursor, size, fix):
    head = cursor.window(0, 64)
    if len(head) < 64 or head[1 : 1 + len(MAGIC_PREFIX)] != MAGIC_PREFIX:
        raise damaged(path, "is not a ShutTheBox table (wrong magic)", fix)
    try:
        header, header_crc, specs = _walk(cursor, path, fix)
    except TableError:
        raise
    except (ValueError, TypeError, UnicodeDecodeError, OverflowError) as error:
        raise damaged(path, "cannot be decoded (%s)" % (error or type(error).__name__), fix) from None
    if cursor.window(size - 4 - len(CRC_TAIL), len(CRC_TAIL)) != CRC_TAIL:
        raise damaged(path, "is truncated (no checksum at its end)", fix)
    return TableFile(path, fd, size, header, specs, header_crc, fix)


def _walk(cursor, path, fix):
    """(header fields, CRC of the bytes before "arrays", array specs), checking as it goes."""
    count = cursor.map_header()
    header: dict = {}
    checked = False
    for _ in range(count):
        key_at = cursor.position
        key = cursor.value()
        if type(key) is not str:
            raise ValueError("a header key is not a string")
        if key == ARRAYS_KEY:
            if FORMAT_KEY not in header:
                raise damaged(path, "has no format version", fix)
            if not checked:  # a format 1.0 file: no header checksum, so check the whole file first
                _check_whole(cursor, path, fix)
            header_crc = zlib.crc32(cursor.window(0, key_at))
            return header, header_crc, _array_specs(cursor, path, fix)
        value = header[key] = cursor.value()
        if key == FORMAT_KEY:
            _check_version(path, value, fix)
        elif key == HEADER_CRC_KEY:
            if zlib.crc32(cursor.window(0, key_at)) != value:
                raise damaged(path, "is damaged (header checksum mismatch)", fix)
            checked = True
    raise damaged(path, "has no arrays", fix)


def _check_version(path, version, fix):
    if not (isinstance(version, list) and len(version) == 2 and all(type(part) is int for part in version)):
        raise damaged(path, "has no format version", fix)
    if version[0] != FORMAT_MAJOR:
        raise TableError("table file %s has format version %s.%s; this program reads %d.x; %s"
                         % (path, version[0], version[1], FORMAT_MAJOR, fix))


def _check_whole(cursor, path, fix):
    size = cursor.size
    body = cursor.window(0, size)
    if len(body) != size or zlib.crc32(memoryview(body)[:-4]) != int.from_bytes(body[-4:], "big"):
        raise damaged(path, "is damaged (checksum mismatch)", fix)


def _array_specs(cursor, path, fix):
    specs = {}
    for _ in range(cursor.map_header()):
        name = cursor.value()
        fields = {}
        for _ in range(cursor.map_header()):
            field = cursor.value()
            fields[field] = cursor.bin_span() if field == "data" else cursor.value()
        try:
            typecode, item_size = DTYPES[fields["dtype"]]
            shape = tuple(fields["shape"])
            if not all(type(dimension) is int and dimension >= 0 for dimension in shape):
                raise ValueError("bad shape")
            start, end = fields["data"]
            blocks = fields["block_crc32"]
            if fields["block_size"] != BLOCK_SIZE or type(blocks) is not bytes:
                raise ValueError("no block checksums")
        except (KeyError, TypeError, ValueError) as error:
            raise damaged(path, "has a malformed descriptor for array %s (%s)" % (name, error), fix) from None
        length = end - start
        if length != element_count(shape) * item_size:
            raise damaged(path, "has array %s of %d bytes, expected %d"
                          % (name, length, element_count(shape) * item_size), fix)
        if len(blocks) != 4 * block_count(length):
            raise damaged(path, "has %d block checksums for array %s, expected %d"
                          % (len(blocks) // 4, name, block_count(length)), fix)
        specs[name] = (typecode, shape, start, length, fields.get("crc32"), blocks)
    return specs


class _Short(Exception):
    """The window ends inside the object being decoded: read a wider one."""


# Header objects are small (the biggest is a large array's block checksums):
# a window wider than this means a damaged file.
_MAX_WINDOW = 1 << 20


class _Cursor:
    """Reads one msgpack object at a time from the file at an absolute offset,
    through small ``pread`` windows, stepping over ``bin`` payloads unread.

    The header is decoded here rather than by the msgpack package: it uses a
    handful of types, and importing msgpack would cost a question more time
    than all of our own work (docs/FORMAT.md lists the types a table uses).
    """

    def __init__(self, fd, size):
        self.fd, self.size, self.position = fd, size, 0
        self._start, self._bytes = 0, b""

    def window(self, start: int, length: int) -> bytes:
        """Bytes ``[start, start + length)`` of the file (fewer at its end)."""
        if start < 0:
            return b""
        offset = start - self._start
        if offset >= 0 and offset + length <= len(self._bytes):
            return self._bytes[offset : offset + length]
        self._start, self._bytes = start, os.pread(self.fd, max(length, _WINDOW), start)
        return self._bytes[:length]

    def _read(self, header_only: bool):
        window = _WINDOW
        while True:
            data = self.window(self.position, window)
            try:
                found, used = _decode(data, 0, header_only, 0)
            except _Short:
                if self.position + window >= self.size:
                    raise ValueError("the file ends inside its header") from None
                if window >= _MAX_WINDOW:
                    raise ValueError("a header object is larger than %d bytes" % _MAX_WINDOW) from None
                window *= 16
                continue
            self.position += used
            return found

    def value(self):
        return self._read(False)

    def map_header(self) -> int:
        return self._read(True)

    def bin_span(self) -> tuple[int, int]:
        """Step over a ``bin`` value; return where its payload starts and ends."""
        head = self.window(self.position, 5)
        kind = head[:1]
        if kind == b"\xc4":
            length, start = head[1], self.position + 2
        elif kind == b"\xc5":
            length, start = int.from_bytes(head[1:3], "big"), self.position + 3
        elif kind == b"\xc6":
            length, start = int.from_bytes(head[1:5], "big"), self.position + 5
        else:
            raise ValueError("array data is not a msgpack bin")
        if start + length > self.size:
            raise ValueError("array data runs past the end of the file")
        self.position = start + length
        return start, start + length


# msgpack's fixed-size types: first byte -> (kind, size of the length or value)
_SIZED = {0xC4: ("bin", 1), 0xC5: ("bin", 2), 0xC6: ("bin", 4), 0xD9: ("str", 1), 0xDA: ("str", 2),
          0xDB: ("str", 4), 0xDC: ("array", 2), 0xDD: ("array", 4), 0xDE: ("map", 2), 0xDF: ("map", 4),
          0xCC: ("uint", 1), 0xCD: ("uint", 2), 0xCE: ("uint", 4), 0xCF: ("uint", 8), 0xD0: ("int", 1),
          0xD1: ("int", 2), 0xD2: ("int", 4), 0xD3: ("int", 8), 0xCA: ("float", 4), 0xCB: ("float", 8)}
_CONSTANTS = {0xC0: None, 0xC2: False, 0xC3: True}


def _take(data, position, size):
    end = position + size
    if end > len(data):
        raise _Short
    return data[position:end], end


def _decode(data, position, header_only, depth):
    """(object, position after it) of the msgpack object at ``position``; with
    ``header_only``, a map's entry count instead of the map."""
    if depth > 8:
        raise ValueError("objects nested too deep")
    if position >= len(data):
        raise _Short
    first = data[position]
    position += 1
    if header_only and not (0x80 <= first <= 0x8F or first in (0xDE, 0xDF)):
        raise ValueError("expected a msgpack map")
    if first <= 0x7F:
        return first, position
    if first >= 0xE0:
        return first - 0x100, position
    if first <= 0x8F:
        kind, count = "map", first & 0x0F
    elif first <= 0x9F:
        kind, count = "array", first & 0x0F
    elif first <= 0xBF:
        kind, count = "str", first & 0x1F
    elif first in _CONSTANTS:
        return _CONSTANTS[first], position
    elif first in _SIZED:
        kind, size = _SIZED[first]
        raw, position = _take(data, position, size)
        if kind == "float":
            from struct import unpack  # no table header holds a float today

            return unpack(">d" if size == 8 else ">f", raw)[0], position
        number = int.from_bytes(raw, "big", signed=kind == "int")
        if kind in ("uint", "int"):
            return number, position
        count = number
    else:
        raise ValueError("unexpected msgpack type 0x%02x in the header" % first)
    if kind == "map" and header_only:
        return count, position
    if kind in ("str", "bin"):
        raw, position = _take(data, position, count)
        return (raw.decode("utf-8") if kind == "str" else bytes(raw)), position
    if count > len(data) - position:  # every element takes a byte at least
        raise _Short
    if kind == "array":
        items = []
        for _ in range(count):
            item, position = _decode(data, position, False, depth + 1)
            items.append(item)
        return items, position
    mapping = {}
    for _ in range(count):
        key, position = _decode(data, position, False, depth + 1)
        value, position = _decode(data, position, False, depth + 1)
        try:
            mapping[key] = value
        except TypeError:
            raise ValueError("a map key is not a string or number") from None
    return mapping, position


def _typed(raw: memoryview, typecode: str):
    if sys.byteorder == "little":
        return raw.cast(typecode)
    from array import array  # only big-endian hosts need a converted copy

    values = array(typecode, bytes(raw))  # pragma: no cover - big-endian hosts only
    values.byteswap()
    return values
