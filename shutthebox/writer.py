"""Table writer (build time): solution -> deterministic bytes -> atomic file."""

from __future__ import annotations

import os
import sys
import tempfile
import zlib
from array import array

import msgpack

from .solver import SOLVER_VERSION, PlayersSolution, TwoPlayerSolution
from .table import BLOCK_SIZE, CRC_TAIL, DTYPES, FORMAT_MAJOR, FORMAT_MINOR, MAGIC

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
    arrays = {
        "e1": _array(e1, "<f8", (positions,)),
        "m1": _array(m1, "<u2", (positions, rolls)),
        "e2": _array(e2, "<f8", (positions, scores)),
        "m2": _array(m2, "<u2", (positions, scores, rolls)),
    }
    if rules.one_die_optional:  # the dice thrown is a decision only then
        c2 = [solution.c2[score][position] for position in range(positions) for score in range(scores)]
        arrays["c1"] = _array(solution.c1, "|u1", (positions,))
        arrays["c2"] = _array(c2, "|u1", (positions, scores))
    return arrays


def players_arrays(solution: PlayersSolution) -> dict:
    """The arrays of an N-player table: one row per turn state (docs/FORMAT.md)."""
    rules = solution.rules
    states, positions, rolls = len(solution.values), 1 << rules.tiles, rules.max_roll + 1
    values = [numerator / unit for row, unit in zip(solution.values, solution.units) for numerator in row]
    moves = [move for rows in solution.moves for row in rows for move in row]
    arrays = {
        "e": _array(values, "<f8", (states, positions)),
        "m": _array(moves, "<u2", (states, positions, rolls)),
    }
    if rules.one_die_optional:
        arrays["c"] = _array([dice for row in solution.thrown for dice in row], "|u1", (states, positions))
    return arrays


def encode(game: str, rules, arrays: dict, players: int | None = None) -> bytes:
    """The whole file: header fields, arrays, and the trailing CRC-32."""
    fields = {
        "magic": MAGIC,
        "format": [FORMAT_MAJOR, FORMAT_MINOR],
        "generator": GENERATOR,
        "game": game,
    }
    if players is not None:
        fields["players"] = players
    fields.update({
        "rules": rules.as_dict(),
        "max_score": rules.max_score,
        "max_roll": rules.max_roll,
        "arrays": arrays,
    })
    packer = msgpack.Packer(use_bin_type=True)
    parts = [packer.pack_map_header(len(fields) + 1)]
    for key, value in fields.items():
        if key == "arrays":
            break
        parts.append(packer.pack(key))
        parts.append(packer.pack(value))
    # Each array's checksums cover the header before "arrays" and its data
    # (whole, and in blocks), so a reader can verify just what it uses.
    header_crc = zlib.crc32(b"".join(parts))
    checked = {}
    for name, spec in arrays.items():
        data = spec["data"]
        blocks = b"".join(
            zlib.crc32(data[start : start + BLOCK_SIZE], header_crc).to_bytes(4, "little")
            for start in range(0, len(data), BLOCK_SIZE)
        )
        checked[name] = {"dtype": spec["dtype"], "shape": spec["shape"], "crc32": zlib.crc32(data, header_crc),
                         "block_size": BLOCK_SIZE, "block_crc32": blocks, "data": data}
    parts.append(packer.pack("arrays"))
    parts.append(packer.pack(checked))
    # crc32 is always a 5-byte uint32 so that readers find it at a fixed place.
    parts.append(CRC_TAIL)
    body = b"".join(parts)
    return body + zlib.crc32(body).to_bytes(4, "big")


def encode_two_player(solution: TwoPlayerSolution) -> bytes:
    return encode("two-player", solution.rules, two_player_arrays(solution))


def encode_players(solution: PlayersSolution) -> bytes:
    return encode("multi-player", solution.rules, players_arrays(solution), players=solution.players)


def build_table(rules, players: int = 2, progress=None) -> bytes:
    """Solve and encode the table for ``rules`` and ``players`` (2: the two-player format)."""
    from .solver import solve_players, solve_two_player

    if players == 2:
        return encode_two_player(solve_two_player(rules, progress))
    return encode_players(solve_players(rules, players, progress))


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
