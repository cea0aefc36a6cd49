"""The shipped standard table against the exact solution, the build's determinism,
atomic writes, and the reader against bad files (the shared corpus is in test_corpus)."""

import os
import re
import subprocess
import sys
import zlib

import msgpack
import pytest

import shutthebox
from conftest import ROOT, STANDARD_TABLE, run
from shutthebox import TableError
from shutthebox.engine import format as table_format, store
from shutthebox.engine.writer import encode, write_atomic
from shutthebox.games.shutthebox.build import encode as encode_solution, two_player_arrays
from shutthebox.games.shutthebox.rules import Rules
from shutthebox.games.shutthebox.solver import solve_two_player


def test_every_entry_matches_the_exact_solution(table, solution):
    """The one full comparison of the shipped standard table with the solver."""
    rules = solution.rules
    scores, rolls = rules.max_score + 1, rules.max_roll + 1
    e1, m1, e2, m2 = (table.file.whole(name) for name in ("e1", "m1", "e2", "m2"))
    for position in range(1 << rules.tiles):
        assert e1[position] == solution.e1[position] / solution.d1
        for roll in range(rolls):
            assert m1[position * rolls + roll] == solution.move_one(position, roll)
        for score in range(scores):
            assert e2[position * scores + score] == solution.e2[score][position] / solution.d2
            for roll in range(rolls):
                assert m2[(position * scores + score) * rolls + roll] == solution.move_two(position, score, roll)


def test_the_file_starts_with_magic_and_ends_with_its_checksum():
    with open(STANDARD_TABLE, "rb") as handle:
        data = handle.read()
    assert data[1:8] == b"\xa5magic\xb0" and data[8:24] == b"ShutTheBox table"
    assert data[-11:-4] == b"\xa5crc32\xce"
    assert msgpack.unpackb(data)["crc32"] == int.from_bytes(data[-4:], "big")
    assert len(data) < 1 << 20


def test_the_build_is_deterministic():
    small = solve_two_player(Rules(tiles=5))
    assert encode_solution(small) == encode_solution(solve_two_player(Rules(tiles=5)))


@pytest.mark.slow
def test_check_command_accepts_the_shipped_tables_and_rejects_others(tmp_path):
    check = [sys.executable, os.path.join(ROOT, "build_tables.py"), "--check", "--game", "toggle"]
    assert subprocess.run(check, capture_output=True, timeout=120).returncode == 0
    # By policy iteration too: the same bytes (docs/TOGGLE.md); a game whose solver offers no method refuses.
    assert subprocess.run(check + ["--method", "policy"], capture_output=True, timeout=300).returncode == 0
    refused = subprocess.run(check[:-1] + ["pig", "--method", "policy"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and refused.stderr.endswith("no solver of pig offers a choice of method\n")
    (tmp_path / "toggle-c4-s2.msgpack").write_bytes(b"stale")
    stale = subprocess.run(check + ["--out", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert stale.returncode == 1 and "DIFFERS" in stale.stdout


def test_write_atomic_replaces_whole_files_and_skips_identical_ones(tmp_path):
    path = str(tmp_path / "t.msgpack")
    assert write_atomic(path, b"one") is True
    assert write_atomic(path, b"one") is False
    assert write_atomic(path, b"two") is True
    assert open(path, "rb").read() == b"two"
    assert os.listdir(tmp_path) == ["t.msgpack"]


def test_an_interrupted_write_leaves_the_old_file(tmp_path, monkeypatch):
    path = str(tmp_path / "t.msgpack")
    write_atomic(path, b"old")

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, b"new")
    assert open(path, "rb").read() == b"old"
    assert os.listdir(tmp_path) == ["t.msgpack"]


# -- damaged files -----------------------------------------------------------


def shipped_bytes():
    with open(STANDARD_TABLE, "rb") as handle:
        return bytearray(handle.read())


def with_crc(body: bytes) -> bytes:
    return body + zlib.crc32(body).to_bytes(4, "big")


def damaged_files():
    data = shipped_bytes()
    flipped = bytearray(data)
    e1 = data.index(b"\xa4data\xc5", data.index(b"\xa2e1")) + 8  # "data", a bin 16 marker and its length
    flipped[e1 + 8 * 0b11 + 3] ^= 0x40  # the value of position 12
    header_flip = bytearray(data)
    header_flip[data.index(b"one_die_at_most") + 15] ^= 0x01  # 6 -> 7: same shapes, other rules
    no_arrays = encode("two-player", Rules(tiles=3).as_dict(), {}, generator="test")
    wrong_game = encode("poker", Rules().as_dict(), two_player_arrays(solve_two_player(Rules(tiles=2))),
                        generator="test")
    version = msgpack.packb("format") + msgpack.packb([table_format.FORMAT_MAJOR, table_format.FORMAT_MINOR])
    assert data.count(version) == 1
    future = with_crc(bytes(data[:-4]).replace(version, msgpack.packb("format") + msgpack.packb([2, 0])))
    return {
        "empty": (b"", "not a ShutTheBox table"),
        "not a table": (b'{"json": true}', "not a ShutTheBox table"),
        "truncated": (bytes(data[: len(data) // 3]), "runs past the end of the file"),
        "truncated by one byte": (bytes(data[:-1]), "truncated"),
        "one bit flipped in an array": (bytes(flipped), "checksum mismatch"),
        "one bit flipped in the rules": (bytes(header_flip), "checksum mismatch"),
        "arrays missing": (no_arrays, "is not a two-player table"),
        "another game": (wrong_game, "not a two-player or multi-player table"),
        "future format": (future, "format version 2.0"),
    }


@pytest.mark.parametrize("case", sorted(damaged_files()))
def test_a_bad_table_is_refused_with_the_path_and_the_fix(case, tmp_path):
    data, reason = damaged_files()[case]
    path = tmp_path / "bad.msgpack"
    path.write_bytes(data)
    with pytest.raises(TableError) as error:
        shutthebox.load(str(path)).expect_one("12")
    message = str(error.value)
    assert str(path) in message and reason in message
    result = run("--table", str(path), "--one", "--expect", "12")
    assert result.returncode == 3 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and str(path) in result.stderr and "Traceback" not in result.stderr


def _reencoded(block_size):
    """The shipped standard table written again with blocks of ``block_size`` bytes."""
    fields = msgpack.unpackb(bytes(shipped_bytes()), raw=False)
    keys = list(fields)
    own = {key: fields[key] for key in keys[keys.index("rules") + 1 : keys.index("header_crc32")]}
    arrays = {name: {key: d[key] for key in ("dtype", "shape", "data")} for name, d in fields["arrays"].items()}
    return encode(fields["game"], fields["rules"], arrays, generator=fields["generator"], fields=own,
                  block_size=block_size), arrays


@pytest.mark.parametrize("block_size", [4096, 8192, 65536])
def test_every_allowed_block_size_reads_the_same_elements(block_size, tmp_path):
    """Format 1.2: the reader takes each array's block size from its descriptor (65536: a 1.1 file's), and
    every element read block by block is the one msgpack decodes at its place."""
    from array import array

    from shutthebox.engine.reader import read_table

    data, arrays = _reencoded(block_size)
    path = tmp_path / "standard.msgpack"
    path.write_bytes(data)
    assert {d["block_size"] for d in msgpack.unpackb(data)["arrays"].values()} == {block_size}
    with read_table(str(path)) as table:
        for name, spec in arrays.items():
            expected = array(table_format.DTYPES[spec["dtype"]][0], spec["data"])
            lazy = table.arrays[name]
            step = max(1, len(expected) // 5000)  # every block's first and last elements, and many between
            indices = sorted(set(range(0, len(expected), step)) | {
                i for b in range(0, len(spec["data"]), block_size)
                for i in (b // expected.itemsize, (b + block_size) // expected.itemsize - 1) if i < len(expected)})
            assert [lazy[i] for i in indices] == [expected[i] for i in indices], name
            assert table.whole(name).tolist() == expected.tolist(), name
    assert shutthebox.load(str(path)).expect_one("123456789") == shutthebox.load().expect_one("123456789")


@pytest.mark.parametrize("block_size", [2048, 12288, 65535])
def test_a_block_size_out_of_the_format_is_refused(block_size, tmp_path):
    why = "not a power of two from 4096 to 65536"
    for written in (block_size, 2 * 65536):
        with pytest.raises(ValueError, match=why):
            _reencoded(written)
    old = msgpack.packb("block_size") + msgpack.packb(4096)
    data, _ = _reencoded(4096)
    assert data.count(old) == 4 and len(msgpack.packb(block_size)) == len(msgpack.packb(4096))
    path = tmp_path / "forged.msgpack"
    path.write_bytes(with_crc(data[:-4].replace(old, msgpack.packb("block_size") + msgpack.packb(block_size))))
    with pytest.raises(TableError, match="malformed descriptor for array e1 .block_size %d is %s" % (block_size, why)):
        shutthebox.load(str(path)).expect_one("12")


def test_a_damaged_array_is_refused_only_when_a_lookup_reads_it(tmp_path):
    """Arrays are verified block by block as lookups read them (docs/FORMAT.md, reader's choices)."""
    data = shipped_bytes()
    data[len(data) - 1000] ^= 1  # m2 is the last array
    path = tmp_path / "late-damage.msgpack"
    path.write_bytes(bytes(data))
    table = shutthebox.load(str(path))
    assert "%.6f" % table.expect_one("123456789") == "0.502810"
    with pytest.raises(TableError, match="checksum mismatch in array m2"):
        table.move_two("13456789", 17, 12)


def test_a_missing_table_names_the_file(tmp_path):
    missing = str(tmp_path / "nowhere.msgpack")
    result = run("--one", "--expect", "123", env={"SHUTTHEBOX_TABLE": missing})
    assert result.returncode == 3
    assert result.stderr == "ShutTheBox: table file %s does not exist; give a valid table file\n" % missing


def test_no_shipped_table_says_where_it_looked(monkeypatch, tmp_path):
    monkeypatch.setattr(store, "SEARCH_PATH", (str(tmp_path / "a"), str(tmp_path / "b")))
    monkeypatch.delenv("SHUTTHEBOX_TABLE", raising=False)
    with pytest.raises(TableError, match="looked at .*a.standard.msgpack and .*b.standard.msgpack.*make tables"):
        shutthebox.load(build=False)


def test_magic_and_version_constants_match_the_document():
    with open(os.path.join(ROOT, "docs", "FORMAT.md"), encoding="utf-8") as handle:
        document = handle.read()
    assert '"%s"' % table_format.MAGIC in document
    title = re.match(r"# The ShutTheBox table format, version (\d+)\.(\d+)\n", document)
    assert title and tuple(map(int, title.groups())) == (table_format.FORMAT_MAJOR, table_format.FORMAT_MINOR)
    assert "a power of two from %d to %d" % (table_format.MIN_BLOCK_SIZE, table_format.MAX_BLOCK_SIZE) in document
    assert "our writer writes %d" % table_format.BLOCK_SIZE in document
