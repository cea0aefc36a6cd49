"""Writing table files (build time only): header and arrays -> deterministic bytes -> atomic file."""

from __future__ import annotations

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
    count = 1
    for dimension in shape:
        count *= dimension
    if len(data) != count * DTYPES[dtype][1]:
        raise ValueError("array of %d bytes does not fit shape %s of %s" % (len(data), list(shape), dtype))
    return {"dtype": dtype, "shape": list(shape), "data": data}


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
    # Each array's checksums cover the header before "arrays" and its data
    # (whole, and in blocks), so a reader can verify just what it uses.
    header_crc = zlib.crc32(b"".join(parts))
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
    """Write ``data`` to ``path`` via a temporary file and a rename.

    An interrupted write never leaves a partial file. Every call first removes
    the folder's stale temporary files of writes that were killed (see
    ``TEMPORARY``: those whose writer is gone, or an hour old). Returns False
    (and leaves the file alone) when it already holds exactly these bytes.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    folder = os.path.dirname(os.path.abspath(path))
    remove_stale(folder)
    try:
        with open(path, "rb") as handle:
            if os.fstat(handle.fileno()).st_size == len(data) and handle.read() == data:
                return False
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        pass
    os.makedirs(folder, exist_ok=True)
    handle, temporary = _create_temporary(folder, os.path.splitext(path)[1])
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
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
    return True


def _create_temporary(folder: str, suffix: str):
    """(descriptor, path) of a new temporary file named as ``TEMPORARY`` says, created exclusively (0600)."""
    if not re.fullmatch(r"(?:\.[A-Za-z0-9]{1,16})?", suffix):
        suffix = ""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
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
