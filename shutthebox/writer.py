"""Table writer (build time): solution -> deterministic bytes -> atomic file."""

from __future__ import annotations

import os
import sys
import tempfile
import zlib
from array import array

import msgpack

from .solver import SOLVER_VERSION, TwoPlayerSolution
from .table import CRC_TAIL, DTYPES, FORMAT_MAJOR, FORMAT_MINOR, MAGIC

GENERATOR = "shutthebox solver %d" % SOLVER_VERSION


def _blob(values, dtype: str) -> bytes:
    packed = array(DTYPES[dtype][0], values)
    if sys.byteorder != "little":  # pragma: no cover - big-endian hosts only
        packed.byteswap()
    return packed.tobytes()


def _array(values, dtype, shape):
    return {"dtype": dtype, "shape": list(shape), "data": _blob(values, dtype)}


def two_player_arrays(solution: TwoPlayerSolution) -> dict:
    """The four arrays of a two-player table, in the layout of docs/FORMAT.md."""
    rules = solution.rules
    positions = 1 << rules.tiles
    scores = rules.max_score + 1
    rolls = rules.max_roll + 1
    d1, d2 = solution.d1, solution.d2
    e1 = [numerator / d1 for numerator in solution.e1]  # int / int is correctly rounded
    e2 = [solution.e2[score][position] / d2 for position in range(positions) for score in range(scores)]
    m1 = [move for row in solution.m1 for move in row]
    m2 = [move for position in range(positions) for score in range(scores) for move in solution.m2[score][position]]
    return {
        "e1": _array(e1, "<f8", (positions,)),
        "m1": _array(m1, "<u2", (positions, rolls)),
        "e2": _array(e2, "<f8", (positions, scores)),
        "m2": _array(m2, "<u2", (positions, scores, rolls)),
    }


def encode(game: str, rules, arrays: dict) -> bytes:
    """The whole file: header fields, arrays, and the trailing CRC-32."""
    fields = {
        "magic": MAGIC,
        "format": [FORMAT_MAJOR, FORMAT_MINOR],
        "generator": GENERATOR,
        "game": game,
        "rules": rules.as_dict(),
        "max_score": rules.max_score,
        "max_roll": rules.max_roll,
        "arrays": arrays,
    }
    packer = msgpack.Packer(use_bin_type=True)
    parts = [packer.pack_map_header(len(fields) + 1)]
    for key, value in fields.items():
        parts.append(packer.pack(key))
        parts.append(packer.pack(value))
    # crc32 is always a 5-byte uint32 so that readers find it at a fixed place.
    parts.append(CRC_TAIL)
    body = b"".join(parts)
    return body + zlib.crc32(body).to_bytes(4, "big")


def encode_two_player(solution: TwoPlayerSolution) -> bytes:
    return encode("two-player", solution.rules, two_player_arrays(solution))


def write_atomic(path: str, data: bytes) -> bool:
    """Write ``data`` to ``path`` via a temporary file and a rename.

    An interrupted build never leaves a partial table. Returns False (and
    leaves the file alone) when it already holds exactly these bytes.
    """
    try:
        with open(path, "rb") as handle:
            if handle.read() == data:
                return False
    except FileNotFoundError:
        pass
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".msgpack")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    return True
