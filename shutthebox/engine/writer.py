"""Writing table files (build time only): header and arrays -> deterministic bytes -> atomic file (a large
table a part at a time: ``write_table``, ``Spool``)."""

from __future__ import annotations

import contextlib
import math
import os
import re
import secrets
import socket
import stat
import sys
import time
import zlib
from array import array

import msgpack

from .format import (
    ARRAYS_KEY,
    BLOCK_SIZE,
    CRC_TAIL,
    DTYPES,
    FORMAT_KEY,
    FORMAT_MAJOR,
    FORMAT_MINOR,
    GAME_KEY,
    GENERATOR_KEY,
    HEADER_CRC_ENTRY,
    MAGIC,
    MAGIC_KEY,
    MAX_BLOCK_SIZE,
    MIN_BLOCK_SIZE,
    RULES_KEY,
    valid_block_size,
)


def pack_array(values, dtype: str, shape) -> dict:
    """An array for :func:`encode`: ``values`` (numbers, flat and row-major, or
    the little-endian bytes themselves, e.g. numpy's ``tobytes()``) of ``dtype``."""
    if isinstance(values, (bytes, bytearray, memoryview)):
        data = bytes(values)
    else:
        packed = array(DTYPES[dtype][0], values)
        if sys.byteorder != "little":  # pragma: no cover - big-endian hosts only
            packed.byteswap()
        data = packed.tobytes()
    if len(data) != _elements(shape) * DTYPES[dtype][1]:
        raise ValueError("array of %d bytes does not fit shape %s of %s" % (len(data), list(shape), dtype))
    return {"dtype": dtype, "shape": list(shape), "data": data}


def _elements(shape) -> int:
    count = 1
    for dimension in shape:
        count *= dimension
    return count


def printed_float(numerator: int, denominator: int) -> float:
    """The float64 to store for the exact value ``numerator / denominator``.

    It is the nearest float64, unless ``%.6f`` of that float would differ from
    the exact value rounded to 6 decimals, half to even: then it is the
    neighbouring float64 (1 ulp away) that prints right. No stored float is
    itself halfway between two 6-decimal numbers (1/128 is stored 1 ulp below),
    so a reader prints the same digits whatever its own tie rule. So every
    reader that prints ``%.6f`` of a stored value prints the exact value
    correctly rounded, half to even (8459/80000 = 0.1057375 prints 0.105738,
    although the float nearest to it lies below). Fails the build otherwise.
    """
    value = numerator / denominator  # int / int is correctly rounded
    whole, rest = divmod(numerator * 1_000_000, denominator)
    if 2 * rest > denominator or (2 * rest == denominator and whole % 2):
        whole += 1
    for candidate in (value, math.nextafter(value, math.inf), math.nextafter(value, -math.inf)):
        if round(float("%.6f" % candidate) * 1_000_000) == whole and not _midpoint(candidate):
            return candidate
    raise AssertionError("no float64 near %d/%d prints its 6-decimal rounding" % (numerator, denominator))


def _midpoint(value: float) -> bool:
    """True when ``value`` is exactly halfway between two 6-decimal numbers."""
    numerator, denominator = value.as_integer_ratio()
    twice, rest = divmod(numerator * 2_000_000, denominator)
    return rest == 0 and twice % 2 == 1


def printed_floats(numerators, denominator: int) -> list[float]:
    return [printed_float(numerator, denominator) for numerator in numerators]


def encode(game: str, rules: dict, arrays: dict, *, generator: str, fields: dict | None = None,
           block_size: int = BLOCK_SIZE) -> bytes:
    """The whole file (docs/FORMAT.md): the header, ``fields`` (the game's own
    header fields, in order), the header checksum, the arrays with their
    checksums (one per ``block_size`` bytes), and the trailing CRC-32.
    ``arrays`` maps names to :func:`pack_array` results."""
    packer = msgpack.Packer(use_bin_type=True)
    parts = [_head(game, rules, fields, generator, block_size)]
    # Each array's checksums cover the header before "arrays" and its data
    # (whole, and in blocks), so a reader can verify just what it uses.
    header_crc = zlib.crc32(parts[0])
    checked = {}
    for name, spec in arrays.items():
        data = spec["data"]
        blocks = b"".join(
            zlib.crc32(data[start : start + block_size], header_crc).to_bytes(4, "little")
            for start in range(0, len(data), block_size)
        )
        checked[name] = {"dtype": spec["dtype"], "shape": spec["shape"], "crc32": zlib.crc32(data, header_crc),
                         "block_size": block_size, "block_crc32": blocks, "data": data}
    parts.append(packer.pack(ARRAYS_KEY))
    parts.append(packer.pack(checked))
    parts.append(CRC_TAIL)
    body = b"".join(parts)
    return body + zlib.crc32(body).to_bytes(4, "big")


def _head(game: str, rules: dict, fields, generator: str, block_size: int) -> bytes:
    """The file's bytes before the key "arrays": the map's header, the header fields, the header checksum."""
    if not valid_block_size(block_size):
        raise ValueError("block_size %r: not a power of two from %d to %d" % (block_size, MIN_BLOCK_SIZE,
                                                                                MAX_BLOCK_SIZE))
    header = {MAGIC_KEY: MAGIC, FORMAT_KEY: [FORMAT_MAJOR, FORMAT_MINOR], GENERATOR_KEY: generator,
              GAME_KEY: game, RULES_KEY: rules}
    header.update(fields or {})
    packer = msgpack.Packer(use_bin_type=True)
    parts = [packer.pack_map_header(len(header) + 3)]
    for key, value in header.items():
        parts.append(packer.pack(key))
        parts.append(packer.pack(value))
    # The header checksum is always a 5-byte uint32, like the trailing one.
    parts.append(HEADER_CRC_ENTRY + zlib.crc32(b"".join(parts)).to_bytes(4, "big"))
    return b"".join(parts)


# Bytes a streamed array is read and written by: a multiple of every block size, small beside a table.
CHUNK = 1 << 20


class Spool:
    """An array's bytes gathered a part at a time, in a temporary file in ``folder`` (a large table's: its
    arrays need not fit in memory) or, with no folder, in memory; ``close`` removes the file."""

    def __init__(self, folder: str | None = None):
        self.size = 0
        self._parts: list = []
        self._file = None
        if folder is not None:
            remove_stale(folder)
            handle, self._path = _create_temporary(folder, ".part", readable=True)
            self._file = os.fdopen(handle, "w+b")

    def append(self, values) -> None:
        """Add ``values``' bytes (a contiguous numpy array, or bytes)."""
        view = memoryview(values).cast("B")
        self.size += len(view)
        if self._file is None:
            self._parts.append(bytes(view))
        else:
            self._file.write(view)

    def getvalue(self) -> bytes:
        if self._file is None:
            return b"".join(self._parts)
        return b"".join(self.chunks(CHUNK))

    def chunks(self, size: int):
        """The bytes, ``size`` at a time (the last part shorter)."""
        if self._file is None:
            yield from _pieces(self.getvalue(), size)
            return
        self._file.flush()
        self._file.seek(0)
        while True:
            piece = self._file.read(size)
            if not piece:
                return
            yield piece

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
            try:
                os.unlink(self._path)
            except OSError:
                pass
        self._parts = []

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _pieces(data, size: int):
    """``data`` (bytes, a contiguous numpy array, a Spool) ``size`` bytes at a time, none copied from memory."""
    if isinstance(data, Spool):
        yield from data.chunks(size)
        return
    view = memoryview(data).cast("B")
    for start in range(0, len(view), size):
        yield view[start:start + size]


def _length(data) -> int:
    return data.size if isinstance(data, Spool) else memoryview(data).nbytes


def _bin_header(size: int) -> bytes:
    """The msgpack ``bin`` header of ``size`` bytes, as ``msgpack.Packer`` writes it (the smallest)."""
    if size < 1 << 8:
        return b"\xc4" + size.to_bytes(1, "big")
    if size < 1 << 16:
        return b"\xc5" + size.to_bytes(2, "big")
    return b"\xc6" + size.to_bytes(4, "big")


def write_table(path: str, game: str, rules: dict, arrays: dict, *, generator: str, fields: dict | None = None,
                block_size: int = BLOCK_SIZE) -> None:
    """Write :func:`encode`'s bytes to ``path`` (atomically, as :func:`write_atomic`) a part at a time: an
    array's ``data`` may be bytes, a contiguous numpy array or a :class:`Spool` on disk, read twice (its
    checksums come before it in the file), never held whole. ``arrays`` maps names to dicts of ``dtype``,
    ``shape`` and ``data``."""
    head = _head(game, rules, fields, generator, block_size)
    header_crc = zlib.crc32(head)
    packer = msgpack.Packer(use_bin_type=True)
    described = []
    for name, spec in arrays.items():
        size = _length(spec["data"])
        if size != _elements(spec["shape"]) * DTYPES[spec["dtype"]][1]:
            raise ValueError("array %s of %d bytes does not fit shape %s of %s"
                             % (name, size, list(spec["shape"]), spec["dtype"]))
        whole, blocks = header_crc, bytearray()  # the whole array's checksum, each block's
        for piece in _pieces(spec["data"], CHUNK):
            whole = zlib.crc32(piece, whole)
            for start in range(0, len(piece), block_size):
                blocks += zlib.crc32(piece[start:start + block_size], header_crc).to_bytes(4, "little")
        descriptor = {"dtype": spec["dtype"], "shape": list(spec["shape"]), "crc32": whole,
                      "block_size": block_size, "block_crc32": bytes(blocks)}
        described.append((name, descriptor, spec["data"], size))
    with atomic_file(path) as out:
        crc = 0

        def put(data) -> None:
            nonlocal crc
            out.write(data)
            crc = zlib.crc32(data, crc)

        put(head)
        put(packer.pack(ARRAYS_KEY))
        put(packer.pack_map_header(len(described)))
        for name, descriptor, data, size in described:
            put(packer.pack(name))
            put(packer.pack_map_header(len(descriptor) + 1))
            for key, value in descriptor.items():
                put(packer.pack(key))
                put(packer.pack(value))
            put(packer.pack("data"))
            put(_bin_header(size))
            for piece in _pieces(data, CHUNK):
                put(piece)
        put(CRC_TAIL)
        out.write(crc.to_bytes(4, "big"))


def encode_to(out: str | None, game: str, rules: dict, arrays: dict, *, generator: str,
              fields: dict | None = None) -> bytes | None:
    """The table of ``arrays`` (names to dicts of ``dtype``, ``shape`` and ``data``, as :func:`write_table`
    takes them): its bytes (:func:`encode`) when ``out`` is None, else written to the path ``out`` a part
    at a time (:func:`write_table`; None returned). The same bytes either way."""
    if out is not None:
        write_table(out, game, rules, arrays, generator=generator, fields=fields)
        return None
    packed = {name: pack_array(spec["data"].getvalue() if isinstance(spec["data"], Spool)
                               else memoryview(spec["data"]).cast("B").tobytes(), spec["dtype"], spec["shape"])
              for name, spec in arrays.items()}
    return encode(game, rules, packed, generator=generator, fields=fields)


# A write's temporary file, next to the file it becomes: ".tmp-shutthebox-HOST-PID-RANDOM.msgpack", HOST a
# hash of the host name and PID the writing process, so that a later write can tell a file whose writer
# was killed (its process is gone) from one being written now. Only names of exactly this form are
# ever removed.
TEMPORARY = re.compile(r"\.tmp-shutthebox-(?P<host>[0-9a-f]{8})-(?P<pid>[0-9]{1,10})-[0-9a-f]{16}"
                       r"(?:\.[A-Za-z0-9]{1,16})?")
# A temporary file is stale when its writer (on this host) is gone and nothing has been written to it for
# GONE_AGE seconds (a write lasts well under that: the margin covers a process whose number this host
# does not see), or, whatever its writer, when it is STALE_AGE seconds old (no write takes that long).
GONE_AGE = 60.0
STALE_AGE = 3600.0


def _host() -> str:
    return "%08x" % zlib.crc32(socket.gethostname().encode("utf-8", "replace"))


def write_atomic(path: str, data: bytes | str) -> bool:
    """Write ``data`` to ``path`` via a temporary file and a rename (:func:`atomic_file`).

    Returns False (and leaves the file alone) when it already holds exactly these bytes.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    remove_stale(os.path.dirname(os.path.abspath(path)))
    try:
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size == len(data) and handle.read() == data:
                return False
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        pass
    with atomic_file(path) as out:
        out.write(data)
    return True


@contextlib.contextmanager
def atomic_file(path: str):
    """A new binary file to write, which becomes ``path`` (by a rename) once the block ends without error.

    An interrupted write never leaves a partial file. Every call first removes
    the folder's stale temporary files of writes that were killed (see
    ``TEMPORARY``: those whose writer is gone, or an hour old).
    """
    folder = os.path.dirname(os.path.abspath(path))
    remove_stale(folder)
    os.makedirs(folder, exist_ok=True)
    handle, temporary = _create_temporary(folder, os.path.splitext(path)[1])
    try:
        with os.fdopen(handle, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _create_temporary(folder: str, suffix: str, readable: bool = False):
    """(descriptor, path) of a new temporary file named as ``TEMPORARY`` says, created exclusively (0600)."""
    if not re.fullmatch(r"(?:\.[A-Za-z0-9]{1,16})?", suffix):
        suffix = ""
    flags = (os.O_RDWR if readable else os.O_WRONLY) | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    prefix = ".tmp-shutthebox-%s-%d-" % (_host(), os.getpid())
    for _ in range(100):
        path = os.path.join(folder, prefix + secrets.token_hex(8) + suffix)
        try:
            return os.open(path, flags, 0o600), path
        except FileExistsError:
            continue
    raise FileExistsError("no free temporary file name in %s" % folder)


def remove_stale(folder: str) -> list:
    """Remove the temporary files that killed writes left in ``folder``; return their names.

    Only regular files of this user whose names are exactly ``TEMPORARY``'s are
    considered, and of those only the stale ones: written on this host by a
    process that is gone and untouched for ``GONE_AGE`` seconds, or untouched for
    ``STALE_AGE`` seconds. Nothing else is ever removed; errors are ignored.
    """
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    host, now, removed = None, time.time(), []
    getuid = getattr(os, "getuid", None)
    for name in names:
        found = TEMPORARY.fullmatch(name)
        if found is None:
            continue
        path = os.path.join(folder, name)
        try:
            info = os.lstat(path)
            if not stat.S_ISREG(info.st_mode) or (getuid is not None and info.st_uid != getuid()):
                continue
            age = now - info.st_mtime
            if age <= GONE_AGE:
                continue
            if age <= STALE_AGE:
                host = host or _host()
                if found["host"] != host or _running(int(found["pid"])):
                    continue
            os.unlink(path)
            removed.append(name)
        except OSError:
            pass
    return removed


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists on this host (True when it cannot be told)."""
    if pid <= 0 or pid == os.getpid():
        return True
    if os.name != "posix":  # os.kill(pid, 0) would end the process on Windows
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process, or no right to ask: it exists
        return True
    return True
