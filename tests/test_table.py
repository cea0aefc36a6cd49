"""The shipped table against the solver, and the reader against bad files."""

import os
import subprocess
import sys

import msgpack
import pytest

import shutthebox
from conftest import ROOT, STANDARD_TABLE, run
from shutthebox import TableError, table as table_format
from shutthebox.rules import Rules
from shutthebox.solver import solve_two_player
from shutthebox.writer import encode, encode_two_player, two_player_arrays, write_atomic


def test_every_entry_matches_the_exact_solution(table, solution):
    rules = solution.rules
    scores, rolls = rules.max_score + 1, rules.max_roll + 1
    for position in range(1 << rules.tiles):
        assert table._e1[position] == solution.e1[position] / solution.d1
        for roll in range(rolls):
            assert table._m1[position * rolls + roll] == solution.move_one(position, roll)
        for score in range(scores):
            assert table._e2[position * scores + score] == solution.e2[score][position] / solution.d2
            for roll in range(rolls):
                assert table._m2[(position * scores + score) * rolls + roll] == solution.move_two(position, score, roll)


def test_the_file_starts_with_magic_and_ends_with_its_checksum():
    with open(STANDARD_TABLE, "rb") as handle:
        data = handle.read()
    assert data[1:8] == b"\xa5magic\xb0" and data[8:24] == b"ShutTheBox table"
    assert data[-11:-4] == b"\xa5crc32\xce"
    assert msgpack.unpackb(data)["crc32"] == int.from_bytes(data[-4:], "big")
    assert len(data) < 1 << 20


def test_the_build_is_deterministic_and_matches_the_shipped_file(solution):
    with open(STANDARD_TABLE, "rb") as handle:
        shipped = handle.read()
    assert encode_two_player(solution) == shipped
    assert encode_two_player(solve_two_player(Rules())) == shipped


def test_check_command_accepts_the_shipped_tables_and_rejects_others(tmp_path):
    check = [sys.executable, os.path.join(ROOT, "build_tables.py"), "--check"]
    assert subprocess.run(check, capture_output=True, timeout=120).returncode == 0
    (tmp_path / "standard.msgpack").write_bytes(b"stale")
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
    import zlib

    return body + zlib.crc32(body).to_bytes(4, "big")


def damaged_files():
    data = shipped_bytes()
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x40
    header_flip = bytearray(data)
    header_flip[data.index(b"one_die_at_most") + 15] ^= 0x01  # 6 -> 7: same shapes, other rules
    small = encode("two-player", Rules(tiles=3), {})
    wrong_game = encode("poker", Rules(), two_player_arrays(solve_two_player(Rules(tiles=2))))
    bad_rules = with_crc(bytes(data[:-4]).replace(b"\xa5tiles\x09", b"\xa5tiles\x00"))
    future = with_crc(bytes(data[:-4]).replace(b"\xa6format\x92\x01\x00", b"\xa6format\x92\x02\x00"))
    return {
        "empty": (b"", "not a ShutTheBox table"),
        "not a table": (b'{"json": true}', "not a ShutTheBox table"),
        "truncated": (bytes(data[: len(data) // 3]), "truncated"),
        "truncated by one byte": (bytes(data[:-1]), "truncated"),
        "one bit flipped in an array": (bytes(flipped), "damaged (checksum mismatch)"),
        "one bit flipped in the rules": (bytes(header_flip), "damaged (checksum mismatch)"),
        "arrays missing": (small, "is not a two-player table"),
        "another game": (wrong_game, "is not a two-player table"),
        "impossible rules": (bad_rules, "malformed header"),
        "future format": (future, "format version 2.0"),
    }


@pytest.mark.parametrize("case", sorted(damaged_files()))
def test_a_bad_table_is_refused_with_the_path_and_the_fix(case, tmp_path):
    data, reason = damaged_files()[case]
    path = tmp_path / "bad.msgpack"
    path.write_bytes(data)
    with pytest.raises(TableError) as error:
        shutthebox.load(str(path))
    message = str(error.value)
    assert str(path) in message and reason in message and "make tables" in message
    result = run("--table", str(path), "--one", "--expect", "123")
    assert result.returncode == 3 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and str(path) in result.stderr and "Traceback" not in result.stderr


def test_a_missing_table_names_the_file(tmp_path):
    missing = str(tmp_path / "nowhere.msgpack")
    result = run("--one", "--expect", "123", env={"SHUTTHEBOX_TABLE": missing})
    assert result.returncode == 3
    assert result.stderr == "ShutTheBox: table file %s does not exist; build it with `make tables`\n" % missing


def test_no_shipped_table_says_where_it_looked(monkeypatch, tmp_path):
    from shutthebox import api

    monkeypatch.setattr(api, "SEARCH_PATH", (str(tmp_path / "a"), str(tmp_path / "b")))
    monkeypatch.delenv("SHUTTHEBOX_TABLE", raising=False)
    with pytest.raises(TableError, match="looked at .*a.standard.msgpack and .*b.standard.msgpack.*make tables"):
        shutthebox.load()


def test_magic_constant_matches_the_document():
    assert table_format.MAGIC == "ShutTheBox table"
    assert (table_format.FORMAT_MAJOR, table_format.FORMAT_MINOR) == (1, 0)
