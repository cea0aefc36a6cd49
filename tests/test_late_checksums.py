"""A large array's block checksums are read when a block needs them, not at open (engine/reader.py's
``Checksums``): the same values as checksums read at open, and a damaged, or since truncated, checksum
refuses its block in one line while the other blocks still answer."""

import os

import pytest

from shutthebox.engine import reader
from shutthebox.engine.writer import encode, pack_array
from shutthebox.errors import TableError

BLOCK = 4096
BLOCKS = 1100  # two pages of checksums: 1,024 in the first, 76 in the second
COUNT = BLOCKS * BLOCK // 4
LAST = BLOCKS - 1


@pytest.fixture
def path(tmp_path):
    values = [(i * 2654435761) % (1 << 32) for i in range(COUNT)]
    data = encode("test", {}, {"v": pack_array(values, "<u4", (COUNT,))}, generator="test", block_size=BLOCK)
    path = tmp_path / "late.msgpack"
    path.write_bytes(data)
    return str(path)


@pytest.fixture
def late(monkeypatch):
    monkeypatch.setattr(reader, "LATE_CHECKSUMS", 1024)  # 256 blocks or more: read late


def checksums(table):
    return table._specs["v"][5]


def test_late_checksums_give_the_values_read_at_open(path, monkeypatch):
    early = reader.read_table(path)
    assert type(checksums(early)) is bytes  # 4,400 bytes: under the default limit
    monkeypatch.setattr(reader, "LATE_CHECKSUMS", 1024)
    with early, _late(path) as table:
        assert not checksums(table).pages  # nothing read at open
        probes = [0, 1, 1023, 1024 * 1024 - 1, 1024 * 1024, COUNT - 1]
        assert [table.arrays["v"][i] for i in probes] == [early.arrays["v"][i] for i in probes]
        assert sorted(checksums(table).pages) == [0, 1]
        assert table.whole("v").tobytes() == early.whole("v").tobytes()


def _late(path):
    table = reader.read_table(path)
    assert type(checksums(table)) is reader.Checksums
    return table


def test_a_damaged_late_checksum_refuses_its_block(path, late):
    with _late(path) as table:
        at = checksums(table).start + 4 * LAST
    with open(path, "r+b") as file:
        file.seek(at)
        byte = file.read(1)
        file.seek(at)
        file.write(bytes([byte[0] ^ 1]))
    with _late(path) as table:
        assert table.arrays["v"][0] is not None  # another page's blocks still answer
        with pytest.raises(TableError, match=r"checksum mismatch in array v, block %d\)" % LAST):
            table.arrays["v"][COUNT - 1]
        with pytest.raises(TableError, match="checksum mismatch"):
            table.whole("v")


def test_a_file_cut_inside_its_late_checksums_after_open_is_refused(path, late):
    with _late(path) as table:
        table.arrays["v"][0]  # the first page read
        os.truncate(path, checksums(table).start + 4 * 1024 + 8)  # the second page cut, and the data after it
        with pytest.raises(TableError, match=r"late\.msgpack is truncated \(array v, block %d, ends early" % LAST):
            table.arrays["v"][COUNT - 1]
