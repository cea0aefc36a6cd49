"""Reading table files (query time): path -> verified :class:`TableFile`.

The reader trusts nothing it has not checked. At open it reads the header
and verifies its CRC-32 before using any field of it; an array's bytes are
read with ``pread`` one block at a time (its descriptor's ``block_size``),
when a lookup first needs them, and each block is verified against its CRC-32
before a value is taken from it (a large array's checksums, too, are read
when needed: :class:`Checksums`). Verified blocks are kept (up to
``KEPT_BYTES`` an array), so an answer always comes from verified bytes: a
file rewritten in place while a process reads it is refused at the first block
that no longer matches, never misread, and a truncated file is an error, not a
crash (nothing is memory-mapped). A URL (``http://``, ``https://``) is read
the same way by HTTP ranges (``remote.py``, imported only then).

The header's msgpack is decoded by ``decode`` (a :class:`~.decode.Cursor` over
the open file); this module checks what it means, then serves the arrays.
"""

import os
import stat
import sys
import zlib

from ..errors import TableError
from .decode import Cursor
from .format import (
    ARRAYS_KEY,
    CRC_TAIL,
    DTYPES,
    FORMAT_KEY,
    FORMAT_MAJOR,
    HEADER_CRC_KEY,
    MAGIC_PREFIX,
    REBUILD,
    MAX_BLOCK_SIZE,
    MIN_BLOCK_SIZE,
    block_count,
    element_count,
    valid_block_size,
)

# An array's block checksums are read at open up to this many bytes (16,384 blocks), later beyond it.
LATE_CHECKSUMS = 1 << 16
# An array keeps at most this many bytes of verified blocks (the oldest read is dropped first, and read
# and verified again if asked for): a long run over a table of gigabytes (a batch, a simulation) holds
# a bounded part of it. Every shipped table's arrays fit whole.
KEPT_BYTES = 1 << 25
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

    Checksums vouch for the bytes, not for what they say: once the table class
    says what its arrays' values may be (:meth:`limit`), every value read is
    checked against that (a comparison a lookup; a whole array when it is read
    whole), and an impossible one refuses the file.
    """

    def __init__(self, path, fd, size, header, specs, header_crc, fix):
        self.path, self.size, self.header, self.fix = path, size, header, fix
        self.game = header.get("game")
        self.rules = header.get("rules")
        self.shapes = {name: spec[1] for name, spec in specs.items()}
        self._fd, self._specs, self._header_crc = fd, specs, header_crc
        self.arrays = _Arrays(self)
        self._whole: dict = {}
        self._limits = None  # () -> {array name: values}, until first asked; then that dict

    def limit(self, limits) -> None:
        """Check every value read from now on: ``limits()`` gives ``{array name: values}`` (each an
        ``engine.table.Values``: ``low``, ``high``, ``only``, ``first_outside(array)`` and ``words()``). It is
        called when the first array is read, so it may use what the caller sets up after this call. Arrays
        it does not name are not checked."""
        self._limits = limits

    def values_of(self, name: str):
        """What array ``name``'s values may be (an ``engine.table.Values``), or None (not checked)."""
        limits = self._limits
        if limits is None:
            return None
        if callable(limits):
            limits = self._limits = dict(limits())
        return limits.get(name)

    def impossible(self, name: str, index: int, value) -> TableError:
        """The error for a value no table of its game holds: the file is refused."""
        return damaged(self.path, "holds an impossible value: %s[%d] is %r, not %s"
                       % (name, index, value, self.values_of(name).words()), self.fix)

    def __repr__(self):
        return "<TableFile %s: %s>" % (self.path, self.game)

    def whole(self, name: str):
        """The array ``name`` as a typed memoryview, every block verified."""
        try:
            return self._whole[name]
        except KeyError:
            pass
        typecode, _, start, length, _, blocks, size = self._specs[name]
        raw = self._pread(start, length, name, "")
        view = memoryview(raw)
        for block in range(block_count(length, size)):
            self._verify(view[block * size : (block + 1) * size], blocks, block, name)
        typed = _typed(view, typecode)
        values = self.values_of(name)
        if values is not None:
            index = values.first_outside(typed)
            if index is not None:
                raise self.impossible(name, index, typed[index])
        self._whole[name] = typed
        return typed

    def close(self) -> None:
        if self._fd is not None:
            if type(self._fd) is int:  # else a RemoteFile: nothing to close
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
            raw = os.pread(self._fd, length, start) if type(self._fd) is int else self._fd.pread(length, start)
        except OSError as error:
            raise damaged(self.path, "cannot be read (%s)" % (error.strerror or error), self.fix) from None
        if len(raw) != length:
            raise damaged(self.path, "is truncated (array %s%s ends early; was it rewritten while in use?)"
                          % (name, where), self.fix)
        return raw

    def _verify(self, raw, blocks, block, name):
        found = zlib.crc32(raw, self._header_crc)
        expected = blocks[4 * block : 4 * block + 4] if type(blocks) is bytes else self._checksum(blocks, block, name)
        if found != int.from_bytes(expected, "little"):
            raise damaged(self.path, "is damaged or was rewritten while in use (checksum mismatch in array %s, "
                          "block %d)" % (name, block), self.fix)

    def _checksum(self, checksums, block, name) -> bytes:
        """Block ``block``'s stored CRC-32, from a page of a large array's checksums (read once)."""
        page = block >> Checksums.PAGE_SHIFT
        raw = checksums.pages.get(page)
        if raw is None:
            begin = page << (Checksums.PAGE_SHIFT + 2)
            raw = checksums.pages[page] = self._pread(
                checksums.start + begin, min(4 << Checksums.PAGE_SHIFT, checksums.length - begin), name,
                ", its block checksums,")
        at = 4 * (block & ((1 << Checksums.PAGE_SHIFT) - 1))
        return raw[at : at + 4]

    def _block(self, name, block):
        """Block ``block`` of array ``name``, read, verified and typed."""
        typecode, _, start, length, _, blocks, size = self._specs[name]
        if not 0 <= block < block_count(length, size):
            raise IndexError("%s index out of range" % name)
        begin = block * size
        raw = self._pread(start + begin, min(size, length - begin), name, ", block %d," % block)
        self._verify(raw, blocks, block, name)
        return _typed(memoryview(raw), typecode)


class Checksums:
    """Where a large array's block checksums lie in the file (``LATE_CHECKSUMS`` bytes or more). They
    are read a page (1,024 checksums) at a time, when a block of that page is first verified: a table of
    1.8 GB has 0.9 MB of them, which would cost a question milliseconds to read at open. They are the
    file's bytes either way: a checksum read late that does not match refuses the block, as one read at
    open would."""

    PAGE_SHIFT = 10

    __slots__ = ("start", "length", "pages")

    def __init__(self, start: int, end: int):
        self.start, self.length = start, end - start
        self.pages: dict = {}

    def __len__(self):
        return self.length


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
        values = self._owner.values_of(name)
        made = self._made[name] = LazyArray(self._owner, name) if values is None else \
            CheckedArray(self._owner, name, values)
        return made


class LazyArray:
    """One array of a table, read and verified one block at a time."""

    __slots__ = ("_owner", "_name", "_blocks", "_shift", "_mask", "_length", "_keep")

    def __init__(self, owner, name):
        typecode, shape, _, _, _, _, size = owner._specs[name]
        per_block = size // DTYPES_BY_CODE[typecode]
        self._owner, self._name, self._blocks, self._keep = owner, name, {}, max(1, KEPT_BYTES // size)
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
            block, blocks = index >> self._shift, self._blocks
            if len(blocks) >= self._keep:
                try:
                    del blocks[next(iter(blocks))]  # the oldest read
                except (RuntimeError, KeyError):  # another thread changed them meanwhile (the server's)
                    pass
            values = blocks[block] = self._owner._block(self._name, block)
            return values[index & self._mask]

    def tolist(self) -> list:
        return self._owner.whole(self._name).tolist()


class CheckedArray(LazyArray):
    """A :class:`LazyArray` whose every value read is checked against what its table says it may be
    (``values``: from ``low`` to ``high``, and one of ``only`` when that is given): a comparison a lookup."""

    __slots__ = ("_low", "_high", "_only")

    def __init__(self, owner, name, values):
        super().__init__(owner, name)
        self._low, self._high, self._only = values.low, values.high, values.only

    def __getitem__(self, index):
        try:
            value = self._blocks[index >> self._shift][index & self._mask]
        except KeyError:
            value = LazyArray.__getitem__(self, index)
        if self._low <= value <= self._high and (self._only is None or value in self._only):
            return value  # nan fails the comparison
        raise self._owner.impossible(self._name, index, value)


DTYPES_BY_CODE = {code: size for code, size in DTYPES.values()}


def read_table(path: str, *, expect: dict | None = None, describe=None, fix: str = REBUILD) -> TableFile:
    """Open and verify a table file; raise TableError naming the file and the fix.

    ``expect`` maps header fields to the values the question needs (``game``,
    ``rules``, ``players``, ...): a valid table of another game or rule set is
    refused, never used. ``describe(fields)`` words such a dict for the
    message. ``fix`` tells the reader of an error how to get a good file.
    """
    if isinstance(path, str) and path[:8].lower().startswith(("http://", "https://")):
        from .remote import RemoteCursor, RemoteFile

        remote = RemoteFile(path)
        return _expected(_open_verified(path, remote, RemoteCursor(remote, remote.size), remote.size, fix),
                         path, expect, describe, fix)
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
    return _expected(table, path, expect, describe, fix)


def _expected(table, path, expect, describe, fix):
    """``table``, unless a header field is not what ``expect`` asks (then closed, and refused)."""
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
    cursor = Cursor(fd, size)
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
            if field == "data":
                fields[field] = cursor.bin_span()
            elif field == "block_crc32":
                fields[field] = _checksums(cursor)
            else:
                fields[field] = cursor.value()
        try:
            typecode, item_size = DTYPES[fields["dtype"]]
            shape = tuple(fields["shape"])
            if not all(type(dimension) is int and dimension >= 0 for dimension in shape):
                raise ValueError("bad shape")
            start, end = fields["data"]
            blocks, size = fields["block_crc32"], fields["block_size"]
            if type(blocks) is not bytes and type(blocks) is not Checksums:
                raise ValueError("no block checksums")
            if type(fields["crc32"]) is not int:  # every field is required: a key's flipped bit drops one
                raise ValueError("no checksum")
            if not valid_block_size(size):
                raise ValueError("block_size %r is not a power of two from %d to %d"
                                 % (size, MIN_BLOCK_SIZE, MAX_BLOCK_SIZE))
        except (KeyError, TypeError, ValueError) as error:
            raise damaged(path, "has a malformed descriptor for array %s (%s)" % (name, error), fix) from None
        length = end - start
        if length != element_count(shape) * item_size:
            raise damaged(path, "has array %s of %d bytes, expected %d"
                          % (name, length, element_count(shape) * item_size), fix)
        if len(blocks) != 4 * block_count(length, size):
            raise damaged(path, "has %d block checksums for array %s, expected %d"
                          % (len(blocks) // 4, name, block_count(length, size)), fix)
        specs[name] = (typecode, shape, start, length, fields["crc32"], blocks, size)
    return specs


def _checksums(cursor):
    """An array's block checksums: their bytes, or :class:`Checksums` when there are ``LATE_CHECKSUMS``
    bytes or more (anything but a bin is returned as decoded, for the descriptor's check to refuse)."""
    if cursor.window(cursor.position, 1) not in (b"\xc4", b"\xc5", b"\xc6"):
        return cursor.value()
    start, end = cursor.bin_span()
    return Checksums(start, end) if end - start >= LATE_CHECKSUMS else cursor.window(start, end - start)


def _typed(raw: memoryview, typecode: str):
    if sys.byteorder == "little":
        return raw.cast(typecode)  # type: ignore[call-overload]  # a typecode of DTYPES
    from array import array  # only big-endian hosts need a converted copy

    values = array(typecode, bytes(raw))  # pragma: no cover - big-endian hosts only
    values.byteswap()
    return values
