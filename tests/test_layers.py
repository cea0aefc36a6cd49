"""engine/layers.py: a layered build gives the same arrays serially, on 2 workers and after a resume.

The toy job counts monotone lattice paths: layer k holds paths(k, j) for j < WIDTH, in blocks of columns,
and paths(k, j) = paths(k-1, 0) + ... + paths(k-1, j), so a block reads the whole previous layer. The
answer, C(k + j, k), is known independently. Every call of ``solve`` is logged to a file (named by
$LAYERS_TEST_LOG, which Dask's worker processes inherit), so the tests see what ran where.
"""

import math
import os

import numpy as np
import pytest

from shutthebox.engine import layers as layers_module
from shutthebox.engine.layers import CLUSTER_ENV, WORKERS_ENV, Job, LayersError, run_layers
from shutthebox.errors import InvalidQuery

WIDTH, DEPTH = 23, 6
COLUMNS = ((0, 5), (5, 10), (10, 20), (20, 23))  # uneven blocks, fixed by the job, not by the workers
LOG, FAIL, EXIT = "LAYERS_TEST_LOG", "LAYERS_TEST_FAIL", "LAYERS_TEST_EXIT"


def solve(key, previous):
    """paths(layer, j) for the columns of block ``part``; raises or ends its process where the test says."""
    layer, part = key
    _log("%d %d %d" % (layer, part, os.getpid()))
    if os.environ.get(FAIL) == "%d %d" % key:
        raise RuntimeError("simulated failure in block %d of layer %d" % (part, layer))
    marker = os.environ.get(EXIT)
    if marker and key == (2, 0) and not os.path.exists(marker) and os.getpid() != int(os.environ["TEST_PID"]):
        open(marker, "w").close()
        os._exit(1)  # a worker lost mid-task: the scheduler must run the block again elsewhere
    low, high = COLUMNS[part]
    if previous is None:
        return np.ones(high - low, dtype=np.int64)
    row = np.concatenate(previous)
    sums = np.zeros(WIDTH, dtype=np.int64)
    total = 0
    for column in range(WIDTH):  # a running sum in a fixed order
        total += int(row[column])
        sums[column] = total
    return sums[low:high]


def _log(line):
    path = os.environ.get(LOG)
    if path:
        with open(path, "a") as handle:
            handle.write(line + "\n")


def calls():
    """[(layer, block, pid)] of every solve logged so far."""
    try:
        with open(os.environ[LOG]) as handle:
            return [tuple(int(word) for word in line.split()) for line in handle]
    except FileNotFoundError:
        return []


def job(name="paths-v1", depth=DEPTH):
    return Job(name, tuple(tuple((layer, part) for part in range(len(COLUMNS))) for layer in range(depth)), solve)


def expected(depth=DEPTH):
    return [[math.comb(layer + column, layer) for column in range(WIDTH)] for layer in range(depth)]


def rows(result):
    return [np.concatenate(layer).tolist() for layer in result]


def same_bytes(a, b):
    return [[block.tobytes() for block in layer] for layer in a] == [[block.tobytes() for block in layer] for layer in b]


@pytest.fixture(autouse=True)
def setting(tmp_path, monkeypatch):
    monkeypatch.setenv("SHUTTHEBOX_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv(LOG, str(tmp_path / "calls.log"))
    monkeypatch.setenv("TEST_PID", str(os.getpid()))
    for name in (WORKERS_ENV, CLUSTER_ENV, FAIL, EXIT):
        monkeypatch.delenv(name, raising=False)


def test_one_worker_solves_each_block_once_in_order_and_leaves_no_checkpoint(tmp_path):
    result = run_layers(job(), workers=1, progress=False)
    assert [len(layer) for layer in result] == [len(COLUMNS)] * DEPTH
    assert rows(result) == expected()
    assert [call[:2] for call in calls()] == [(layer, part) for layer in range(DEPTH) for part in range(len(COLUMNS))]
    assert {call[2] for call in calls()} == {os.getpid()}
    assert not os.path.exists(tmp_path / "cache" / "layers" / "paths-v1")


def test_a_killed_build_resumes_from_the_last_finished_layer(tmp_path, monkeypatch):
    folder = tmp_path / "checkpoint"
    monkeypatch.setenv(FAIL, "2 1")
    with pytest.raises(RuntimeError, match="block 1 of layer 2"):
        run_layers(job(), workers=1, checkpoint=str(folder), progress=False)
    assert sorted(os.listdir(folder)) == ["layer-000.npy", "layer-001.npy", "manifest.json"]
    first = len(calls())
    monkeypatch.delenv(FAIL)
    result = run_layers(job(), workers=1, checkpoint=str(folder), progress=False)
    assert rows(result) == expected()
    again = [call[:2] for call in calls()[first:]]
    # one block of each kept layer is solved again, to check it (tests/test_cluster_faults.py), then the rest
    assert [layer for layer, _ in again[:2]] == [0, 1]
    assert again[2:] == [(layer, part) for layer in range(2, DEPTH) for part in range(len(COLUMNS))]
    assert not folder.exists()


def test_a_checkpoint_of_another_job_or_a_damaged_layer_is_not_used(tmp_path):
    folder = str(tmp_path / "checkpoint")
    run_layers(job("paths-v1", depth=4), workers=1, checkpoint=folder, progress=False, keep=True)
    # The same name, other keys (a deeper job): its fingerprint differs, nothing is read.
    before = len(calls())
    result = run_layers(job("paths-v1", depth=DEPTH), workers=1, checkpoint=folder, progress=False, keep=True)
    assert rows(result) == expected() and len(calls()) - before == DEPTH * len(COLUMNS)
    # Another name in the same folder: nothing is read either.
    before = len(calls())
    run_layers(job("paths-v2"), workers=1, checkpoint=folder, progress=False, keep=True)
    assert len(calls()) - before == DEPTH * len(COLUMNS)
    # One damaged byte in layer 1: layer 0 is read (one block of it solved again, to check it), the others
    # solved again.
    path = os.path.join(folder, "layer-001.npy")
    data = bytearray(open(path, "rb").read())
    data[-1] ^= 1
    open(path, "wb").write(bytes(data))
    before = len(calls())
    result = run_layers(job("paths-v2"), workers=1, checkpoint=folder, progress=False)
    assert rows(result) == expected()
    again = [call[:2] for call in calls()[before:]]
    assert again[0][0] == 0 and again[1] == (1, 0) and len(again) == 1 + (DEPTH - 1) * len(COLUMNS)
    # A finished checkpoint is read whole: one block a layer solved again, to check it.
    run_layers(job("paths-v3"), workers=1, checkpoint=folder, progress=False, keep=True)
    before = len(calls())
    assert rows(run_layers(job("paths-v3"), workers=1, checkpoint=folder, progress=False)) == expected()
    assert [call[0] for call in calls()[before:]] == list(range(DEPTH))


def _one_line(error):
    message = str(error.value)
    assert message and "\n" not in message
    return message


@pytest.mark.parametrize("workers", [0, -1, 5000, 2.0, "2", True])
def test_a_bad_number_of_workers_is_one_line(workers):
    with pytest.raises(InvalidQuery) as error:
        run_layers(job(), workers=workers, progress=False)
    assert "workers must be a whole number from 1 to 4096" in _one_line(error)


@pytest.mark.parametrize("text", ["x", "0", "-2", "2.5", "99999"])
def test_a_bad_workers_variable_is_one_line(monkeypatch, text):
    monkeypatch.setenv(WORKERS_ENV, text)
    with pytest.raises(InvalidQuery) as error:
        run_layers(job(), progress=False)
    assert _one_line(error).startswith(WORKERS_ENV + " must be a whole number from 1 to 4096")
    assert calls() == []


def test_without_the_extra_more_workers_or_a_cluster_is_one_line_and_the_default_runs_here(monkeypatch):
    monkeypatch.setattr(layers_module, "_have_dask", lambda: False)
    for asked in ({"workers": 2}, {"cluster": "tcp://127.0.0.1:8786"}):
        with pytest.raises(LayersError) as error:
            run_layers(job(), progress=False, **asked)
        assert 'pip install -e ".[cluster]"' in _one_line(error)
    monkeypatch.setenv(WORKERS_ENV, "3")
    with pytest.raises(LayersError, match="3 workers needs Dask"):
        run_layers(job(), progress=False)
    monkeypatch.delenv(WORKERS_ENV)
    assert rows(run_layers(job(), progress=False)) == expected()  # this machine's cores, but no extra: here
    assert {call[2] for call in calls()} == {os.getpid()}


def test_a_block_that_is_not_an_array_and_a_bad_job_are_refused():
    with pytest.raises(LayersError) as error:
        run_layers(Job("lists", ((1, 2),), list_block), workers=1, progress=False)
    assert "solve(1) returned list, not a numpy array" in _one_line(error)
    for name in ("", "../up", "a b", None):
        with pytest.raises(ValueError):
            Job(name, ((1,),), solve)
    with pytest.raises(ValueError):
        Job("none", (), solve)
    with pytest.raises(ValueError):
        Job("uncallable", ((1,),), 3)


def list_block(key, previous):
    return [key]


def test_a_bad_cluster_address_is_one_line():
    with pytest.raises(InvalidQuery) as error:
        run_layers(job(), cluster="tcp://host 8786", progress=False)
    assert "not a cluster's address" in _one_line(error)


def test_the_command_does_nothing_when_a_worker_process_re_imports_it(capsys):
    # Dask's local workers are spawned: each runs the parent's main script again, as __mp_main__.
    import runpy

    runpy.run_path(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ShutTheBox"),
                   run_name="__mp_main__")
    assert capsys.readouterr() == ("", "")


# -- on Dask distributed (the cluster extra) ------------------------------------------------------------


@pytest.mark.slow
def test_two_workers_give_the_bytes_of_one_and_run_elsewhere():
    pytest.importorskip("distributed")
    serial = run_layers(job(), workers=1, progress=False)
    before = len(calls())
    parallel = run_layers(job(), workers=2, progress=False, serial_seconds=0)
    assert same_bytes(serial, parallel) and rows(parallel) == expected()
    remote = calls()[before:]
    assert len(remote) == DEPTH * len(COLUMNS)  # each block once
    assert os.getpid() not in {call[2] for call in remote}


@pytest.mark.slow
def test_two_workers_resume_and_survive_a_lost_worker(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    folder = str(tmp_path / "checkpoint")
    monkeypatch.setenv(FAIL, "3 2")
    with pytest.raises(RuntimeError, match="block 2 of layer 3"):
        run_layers(job(), workers=2, checkpoint=folder, progress=False, serial_seconds=0)
    assert sorted(os.listdir(folder))[-2:] == ["layer-002.npy", "manifest.json"]
    monkeypatch.delenv(FAIL)
    before = len(calls())
    result = run_layers(job(), workers=2, checkpoint=folder, progress=False, serial_seconds=0)
    assert rows(result) == expected()
    assert {call[0] for call in calls()[before:] if call[2] != os.getpid()} == set(range(3, DEPTH))  # not checks
    # A worker process that dies in a block of layer 2: Dask runs the block again on a live worker.
    marker = tmp_path / "died"
    monkeypatch.setenv(EXIT, str(marker))
    result = run_layers(job("paths-lost"), workers=2, progress=False, serial_seconds=0)
    assert marker.exists() and same_bytes(result, run_layers(job("paths-again"), workers=1, progress=False))


@pytest.mark.slow
def test_an_unreachable_cluster_is_one_line(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr(layers_module, "CONNECT_TIMEOUT", "1s")
    monkeypatch.setenv(CLUSTER_ENV, "tcp://127.0.0.1:9")
    with pytest.raises(LayersError) as error:
        run_layers(job(), progress=False)
    assert _one_line(error).startswith("cannot reach the cluster at tcp://127.0.0.1:9")
