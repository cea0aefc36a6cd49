"""An array keeps at most ``KEPT_BYTES`` of verified blocks (engine/reader.py): a long run over a large
table holds a bounded part of it; a dropped block read again is verified again."""

import pytest

from shutthebox.engine import reader
from shutthebox.engine.writer import encode, pack_array
from shutthebox.errors import TableError

BLOCK = 4096
PER_BLOCK = BLOCK // 4
BLOCKS = 20
VALUES = [(i * 2654435761) % (1 << 32) for i in range(BLOCKS * PER_BLOCK)]


@pytest.fixture
def path(tmp_path, monkeypatch):
    monkeypatch.setattr(reader, "KEPT_BYTES", 4 * BLOCK)  # four blocks an array
    data = encode("test", {}, {"v": pack_array(VALUES, "<u4", (len(VALUES),))}, generator="test",
                  block_size=BLOCK)
    path = tmp_path / "kept.msgpack"
    path.write_bytes(data)
    return path


def test_an_array_keeps_at_most_its_share_of_blocks_and_answers_alike(path):
    with reader.read_table(str(path)) as table:
        array = table.arrays["v"]
        for round_ in range(2):  # the second round reads every block again, each dropped meanwhile
            for block in range(BLOCKS):
                for index in (block * PER_BLOCK, block * PER_BLOCK + PER_BLOCK - 1):
                    assert array[index] == VALUES[index]
                assert len(array._blocks) <= 4
        assert sorted(array._blocks) == list(range(BLOCKS - 4, BLOCKS))  # the latest four


def test_a_dropped_block_read_again_is_verified_again(path):
    with reader.read_table(str(path)) as table:
        array = table.arrays["v"]
        assert array[0] == VALUES[0]
        data = bytearray(path.read_bytes())
        at = data.index(VALUES[0].to_bytes(4, "little") + VALUES[1].to_bytes(4, "little"))
        data[at] ^= 1  # block 0 damaged while the table is open
        path.write_bytes(bytes(data))
        assert array[1] == VALUES[1]  # still kept: the bytes verified at first read
        for block in range(1, 5):
            assert array[block * PER_BLOCK] == VALUES[block * PER_BLOCK]
        with pytest.raises(TableError, match="checksum mismatch in array v, block 0"):
            array[0]
