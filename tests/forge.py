"""Forged tables for the tests: a table's bytes with values changed and every checksum recomputed, so that
only a check of the values themselves (engine/table.py, ``Table.VALUES``) can refuse it.

    forged = forge(data, "e1", 15, float("nan"))      # e1[15] is nan; the header and CRC-32s are right
"""

from __future__ import annotations

import struct

import msgpack

from shutthebox.engine.format import DTYPES
from shutthebox.engine.writer import encode

# Header keys encode() writes itself; every other key before the checksums is a game field.
_OWN = ("magic", "format", "generator", "game", "rules", "header_crc32", "arrays", "crc32")


def forge(data: bytes, array: str, index: int, value) -> bytes:
    """The table ``data`` with element ``index`` (flat, row-major) of ``array`` set to ``value``, re-encoded
    with every checksum right (engine/writer.py's ``encode``: header, block and whole-file CRC-32s)."""
    return forge_many(data, {array: {index: value}})


def forge_many(data: bytes, changes: dict) -> bytes:
    """``changes``: array name -> {flat index: value}."""
    table = msgpack.unpackb(data, raw=False, strict_map_key=False)
    arrays = {}
    for name, spec in table["arrays"].items():
        raw = bytearray(spec["data"])
        code, size = DTYPES[spec["dtype"]]
        for index, value in changes.get(name, {}).items():
            struct.pack_into("<" + code, raw, index * size, value)
        arrays[name] = {"dtype": spec["dtype"], "shape": spec["shape"], "data": bytes(raw)}
    missing = set(changes) - set(arrays)
    if missing:
        raise KeyError("no array %s in the table" % ", ".join(sorted(missing)))
    fields = {key: value for key, value in table.items() if key not in _OWN}
    return encode(table["game"], table["rules"], arrays, generator=table["generator"], fields=fields)


def yazy_target_table() -> bytes:
    """A table of the shape and header of yazy's target mode (whose real table is not shipped and takes about
    15 s to solve), with plausible chances: 1 for x = 0, 0 with no category open, 0.25 otherwise."""
    from shutthebox.engine.writer import pack_array
    from shutthebox.games.yazy.rules import ALL, RULES
    from shutthebox.games.yazy.target.build import GAME, TARGETS

    values = [1.0 if x == 0 else 0.0 if not mask else 0.25 for mask in range(ALL + 1) for x in range(TARGETS)]
    return encode(GAME, RULES, {"target": pack_array(values, "<f8", (ALL + 1, TARGETS))}, generator="tests/forge.py")
