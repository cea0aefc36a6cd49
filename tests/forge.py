"""Forged tables for the tests: a table's bytes with values changed and every checksum recomputed, so that
only a check of the values themselves (engine/table.py, ``Table.VALUES``) can refuse it.

    forged = forge(data, "e1", 15, float("nan"))      # e1[15] is nan; the header and CRC-32s are right
    copy = rewritten(path, lambda fields: fields.update(unsure="0"))  # a header changed, re-signed

``forge`` re-encodes through engine/writer.py; ``resigned`` and ``rewritten`` write the checksums over the
fields as they are, following docs/FORMAT.md section 4 on their own (the Node.js reader's tests: a header the
writer would refuse, a format 1.0 table without ``header_crc32``).
"""

from __future__ import annotations

import struct
import zlib

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


def resigned(fields: dict, change=None, header_crc: bool = True) -> bytes:
    """A table's decoded ``fields`` (``msgpack.unpackb(data, raw=False)``, arrays included) with its header
    changed by ``change(fields)`` (the header's fields only: no arrays, no checksums), encoded again with
    every checksum made right as docs/FORMAT.md section 4 says: ``header_crc32`` of the bytes before it (none
    with ``header_crc=False``, as in format 1.0), each array's ``crc32`` and ``block_crc32`` seeded with the
    CRC-32 H of the bytes before "arrays", and the trailing CRC-32. ``fields`` itself is left as it was."""
    fields = dict(fields)
    arrays = {name: dict(descriptor) for name, descriptor in fields.pop("arrays").items()}
    fields.pop("header_crc32", None)
    fields.pop("crc32", None)
    if change is not None:
        change(fields)
    packer = msgpack.Packer(use_bin_type=True)
    body = packer.pack_map_header(len(fields) + 2 + header_crc)
    body += b"".join(packer.pack(k) + packer.pack(v) for k, v in fields.items())
    if header_crc:
        body += b"\xacheader_crc32\xce" + zlib.crc32(body).to_bytes(4, "big")
    seed = zlib.crc32(body)  # H
    for descriptor in arrays.values():
        data = descriptor["data"]
        descriptor["crc32"] = zlib.crc32(data, seed)
        size = descriptor["block_size"]
        descriptor["block_crc32"] = b"".join(zlib.crc32(data[start : start + size], seed).to_bytes(4, "little")
                                             for start in range(0, len(data), size))
    body += packer.pack("arrays") + packer.pack(arrays) + b"\xa5crc32\xce"
    return body + zlib.crc32(body).to_bytes(4, "big")


def rewritten(path, change=None, header_crc: bool = True) -> bytes:
    """The bytes of a copy of the table file ``path`` (format 1.1) with its header changed by
    ``change(fields)``, every checksum made right again (``resigned``); unchanged, the very same bytes."""
    with open(path, "rb") as handle:
        fields = msgpack.unpackb(handle.read(), raw=False)
    assert list(fields)[-3:] == ["header_crc32", "arrays", "crc32"], list(fields)
    return resigned(fields, change, header_crc)


def yazy_target_table() -> bytes:
    """A table of the shape and header of yazy's target mode (whose real table is not shipped and takes about
    15 s to solve), with plausible chances: 1 for x = 0, 0 with no category open, 0.25 otherwise."""
    from shutthebox.engine.writer import pack_array
    from shutthebox.games.yazy.rules import ALL, RULES
    from shutthebox.games.yazy.target.build import GAME, TARGETS

    values = [1.0 if x == 0 else 0.0 if not mask else 0.25 for mask in range(ALL + 1) for x in range(TARGETS)]
    return encode(GAME, RULES, {"target": pack_array(values, "<f8", (ALL + 1, TARGETS))}, generator="tests/forge.py")
