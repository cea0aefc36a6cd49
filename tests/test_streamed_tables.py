"""The largest tables are built without holding them whole: a layered build keeps one finished layer in
memory (the others in its checkpoint), and a table is written a part at a time, in the same bytes.

- ``write_table`` (the streamed writer) writes ``encode``'s bytes, for arrays in memory and spooled on
  disk, across block, chunk and msgpack ``bin`` header sizes.
- Two-player yazy and Yahtzee's target tables written a part at a time (``out=``) are the bytes of the
  tables returned whole, and those are the bytes the code gave before streaming (their sha256, below).
- ``run_layers`` holds about two layers at its peak, not all of them; ``write_table`` about one chunk.
"""

import hashlib
import os
import tracemalloc

import numpy as np
import pytest

from shutthebox.engine import writer
from shutthebox.engine.layers import Job, run_layers
from shutthebox.engine.writer import Spool, encode, encode_to, pack_array, write_table

RULES = {"sides": 6}
FIELDS = {"start": "1,2,3", "unsure": "4,5"}


def arrays_of(sizes: dict) -> dict:
    """Arrays of counted numbers, each ``{"dtype", "shape", "data"}`` with its data a numpy array."""
    found = {}
    for name, (dtype, count) in sizes.items():
        found[name] = {"dtype": dtype, "shape": (count,), "data": (np.arange(count) * 7919 % 65521).astype(dtype)}
    return found


def encoded(arrays: dict) -> bytes:
    """The in-memory encoder's bytes of ``arrays``."""
    packed = {name: pack_array(spec["data"].tobytes(), spec["dtype"], spec["shape"]) for name, spec in arrays.items()}
    return encode("yazy-duel", RULES, packed, generator="test 1", fields=FIELDS)


# Sizes around the msgpack bin headers (256, 65536 bytes), the 8 KiB blocks and the 1 MiB chunks.
SIZES = {"empty": ("<u4", 0), "small": ("|u1", 255), "bin16": ("<u2", 128), "edge": ("<u2", 32768),
         "blocks": ("<f8", 8193), "chunks": ("<u4", (1 << 18) + 5), "last": ("<i2", 3)}


def test_the_streamed_writer_writes_the_encoders_bytes(tmp_path):
    arrays = arrays_of(SIZES)
    path = str(tmp_path / "streamed.msgpack")
    write_table(path, "yazy-duel", RULES, arrays, generator="test 1", fields=FIELDS)
    assert open(path, "rb").read() == encoded(arrays)


def test_arrays_spooled_on_disk_are_written_as_in_memory(tmp_path, monkeypatch):
    monkeypatch.setattr(writer, "CHUNK", 1 << 13)  # many chunks, each a block
    arrays = arrays_of(SIZES)
    spools = []
    for spec in arrays.values():
        spool = Spool(str(tmp_path))
        for part in np.array_split(spec["data"], 3):
            spool.append(part)
        spools.append(spool)
        spec["data"] = spool
    path = str(tmp_path / "spooled.msgpack")
    assert encode_to(path, "yazy-duel", RULES, arrays, generator="test 1", fields=FIELDS) is None
    whole = encode_to(None, "yazy-duel", RULES, arrays, generator="test 1", fields=FIELDS)
    assert open(path, "rb").read() == whole == encoded(arrays_of(SIZES))
    for spool in spools:
        spool.close()
    assert os.listdir(tmp_path) == ["spooled.msgpack"]  # the spools' files are gone


def test_an_array_that_does_not_fit_its_shape_is_refused(tmp_path):
    arrays = {"bad": {"dtype": "<u4", "shape": (3,), "data": np.zeros(2, dtype="<u4")}}
    with pytest.raises(ValueError, match="does not fit shape"):
        write_table(str(tmp_path / "bad.msgpack"), "yazy-duel", RULES, arrays, generator="test 1")
    assert os.listdir(tmp_path) == []


def test_the_streamed_writer_holds_a_chunk_not_the_table(tmp_path):
    spool = Spool(str(tmp_path))
    for _ in range(16):
        spool.append(np.ones(1 << 17))  # 16 MiB on disk
    arrays = {"chance": {"dtype": "<f8", "shape": (16 << 17,), "data": spool}}
    tracemalloc.start()
    try:
        write_table(str(tmp_path / "big.msgpack"), "yazy-duel", RULES, arrays, generator="test 1")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        spool.close()
    assert peak < 4 << 20, peak  # a chunk (1 MiB) and its checksums, not the 16 MiB


# -- the games' tables: streamed or whole, the bytes of the code before streaming ----------------------------

# sha256 of the tables as built before the builds streamed (the same bytes on every machine: no BLAS).
DUEL_SHA256 = "6e9eecda1b085340"  # yazy duel of ones,twos,yazy
TARGET_SHA256 = "a36691527811951c"  # Yahtzee target, official, from sixes,chance with 45 up and 50 in yahtzee


def test_a_duel_table_streamed_is_the_table_returned_whole(tmp_path):
    from shutthebox.games.yazy.duel.build import solve_table
    from shutthebox.games.yazy.rules import Rules

    rules = Rules(categories="ones,twos,yazy")
    whole = solve_table(rules, workers=1, progress=False, checkpoint=str(tmp_path / "a"))
    path = str(tmp_path / "duel.msgpack")
    assert solve_table(rules, workers=1, progress=False, checkpoint=str(tmp_path / "b"), out=path) is None
    assert open(path, "rb").read() == whole
    assert hashlib.sha256(whole).hexdigest()[:16] == DUEL_SHA256
    assert sorted(os.listdir(tmp_path)) == ["duel.msgpack"]  # checkpoints and spools removed


def test_a_target_table_streamed_is_the_table_returned_whole(tmp_path):
    from shutthebox.games.yahtzee.rules import FIFTY, categories
    from shutthebox.games.yahtzee.target.build import solve_table

    start = (categories("sixes,chance", "official"), 45, FIFTY)
    whole = solve_table("official", start, progress=False, workers=1, checkpoint=str(tmp_path / "a"))
    path = str(tmp_path / "target.msgpack")
    solve_table("official", start, progress=False, workers=1, checkpoint=str(tmp_path / "b"), out=path)
    assert open(path, "rb").read() == whole
    assert hashlib.sha256(whole).hexdigest()[:16] == TARGET_SHA256
    assert sorted(os.listdir(tmp_path)) == ["target.msgpack"]


# -- a layered build holds the layer it solves and the one it reads, not every layer --------------------------

LAYER_VALUES = 1 << 19  # 4 MiB of float64 a layer, in two blocks
LAYERS = 10


def big_block(key, previous):
    """Half a layer: its values follow from the previous layer's (so it is read)."""
    layer, half = key
    before = 0.0 if previous is None else float(previous[half][-1])
    return np.full(LAYER_VALUES // 2, before + 1.0)


def test_a_layered_build_holds_two_layers_not_all(tmp_path):
    job = Job("big-layers-v1", tuple(((k, 0), (k, 1)) for k in range(LAYERS)), big_block)
    layer_bytes = LAYER_VALUES * 8

    def last_values(finished):
        return [float(block[-1]) for blocks in finished for block in blocks]  # a block at a time

    tracemalloc.start()
    try:
        result = run_layers(job, workers=1, checkpoint=str(tmp_path / "layers"), progress=False,
                            collect=last_values)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result == [float(k + 1) for k in range(LAYERS) for _ in range(2)]
    # the layer being solved and the one it reads, and a block read back: not the 10 layers (40 MiB)
    assert peak < 3 * layer_bytes, peak / layer_bytes
    assert not os.path.exists(tmp_path / "layers")


# -- a long solve still asks for --allow-large, now that little memory does not -------------------------------

def test_a_solve_of_little_memory_but_most_of_an_hour_needs_allow_large(tmp_path, monkeypatch):
    from shutthebox.engine import store
    from shutthebox.engine.game import Estimate
    from shutthebox.errors import InvalidQuery

    monkeypatch.delenv(store.LARGE_ENV, raising=False)
    monkeypatch.setattr(store, "ALLOW_LARGE", False)
    long = Estimate(10**6, 10**9, 1800)
    with pytest.raises(InvalidQuery, match="about 1 GB of memory and 30 minutes; give --allow-large"):
        store.check_estimate("big.msgpack", long, str(tmp_path))
    store.check_estimate("short.msgpack", Estimate(10**6, 10**9, 60), str(tmp_path))  # a minute: no question
    monkeypatch.setattr(store, "ALLOW_LARGE", True)
    store.check_estimate("big.msgpack", long, str(tmp_path))
