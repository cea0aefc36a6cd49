"""engine/layers.py under faults: a lost Dask worker, Ctrl-C, a forged checkpoint.

The builds are two-player yazy of a few categories (the cluster tests' table, tests/test_yazy_duel.py): a
table built on two workers, whatever was killed, must be byte for byte the one built in this process.
A worker is killed by its pid (SIGKILL), as the machine or the OOM killer would: while the local cluster
starts, or while it holds a block (the block logs its pid, then waits to be killed).
"""

import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from shutthebox.engine.layers import Checkpoint, Job, run_layers
from shutthebox.games.yazy.duel import solver
from shutthebox.games.yazy.duel.build import solve_table
from shutthebox.games.yazy.rules import Rules

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RULES = Rules(categories="ones,twos,threes,yazy")  # layers of 1, 4, 4, 6, 6, 4, 4, 1 blocks
LOG, HOLD = "CLUSTER_FAULTS_LOG", "CLUSTER_FAULTS_HOLD"
SOLVE_BLOCK = solver.solve_block  # the real one: the tests put held_block in its place


def layer_of(key) -> int:
    return next(index for index, layer in enumerate(solver.job_layers(RULES.mask)) if key in layer)


def held_block(key, previous):
    """The solver's block, logged with its process; the first block of layer $CLUSTER_FAULTS_HOLD solved on a
    worker waits to be killed."""
    with open(os.environ[LOG], "a") as handle:
        handle.write("%d %r\n" % (os.getpid(), key))
    marker = os.environ[LOG] + ".held"
    hold = os.environ.get(HOLD)
    if hold and layer_of(key) == int(hold) and os.getpid() != int(os.environ["CLUSTER_FAULTS_PID"]) \
            and not os.path.exists(marker):
        open(marker, "w").close()
        with open(os.environ[LOG], "a") as handle:
            handle.write("held %d\n" % os.getpid())
        time.sleep(120)  # killed long before
    return SOLVE_BLOCK(key, previous)


def log_lines(path):
    try:
        with open(path) as handle:
            return handle.read().splitlines()
    except FileNotFoundError:
        return []


def worker_processes(parent, known=()):
    """The Dask worker processes under ``parent`` (spawned interpreters, not the resource tracker)."""
    psutil = pytest.importorskip("psutil")
    found = []
    for process in psutil.Process(parent).children(recursive=True):
        try:
            command = " ".join(process.cmdline())
        except psutil.Error:
            continue
        if "spawn_main" in command and "resource_tracker" not in command and process.pid not in known:
            found.append(process.pid)
    return found


def killer(until, every=0.005):
    """Run ``until()`` (a pid to kill, or None) on a thread until it gives one; the pid killed is in the list."""
    killed = []

    def watch():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            pid = until()
            if pid is not None:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
                return
            time.sleep(every)

    threading.Thread(target=watch, daemon=True).start()
    return killed


@pytest.fixture
def one_process(tmp_path):
    return solve_table(RULES, workers=1, progress=False, checkpoint=str(tmp_path / "one"))


@pytest.mark.slow
def test_a_worker_killed_while_the_cluster_starts_costs_nothing(tmp_path, monkeypatch, one_process):
    pytest.importorskip("distributed")
    monkeypatch.setenv(LOG, str(tmp_path / "calls.log"))
    monkeypatch.setattr(solver, "solve_block", held_block)
    known = set(worker_processes(os.getpid()))
    killed = killer(lambda: next(iter(worker_processes(os.getpid(), known)), None))
    two = solve_table(RULES, workers=2, progress=False, checkpoint=str(tmp_path / "two"), serial_seconds=0)
    assert len(killed) == 1
    ran = {int(line.split()[0]) for line in log_lines(tmp_path / "calls.log")}
    assert killed[0] not in ran and os.getpid() not in ran  # killed before its first block; none ran here
    assert two == one_process


@pytest.mark.slow
@pytest.mark.parametrize("which", ["the worker", "every worker"])
def test_a_worker_killed_during_a_layer_costs_its_blocks_not_the_build(tmp_path, monkeypatch, one_process, which):
    """Killing every worker loses every copy of the previous layer too: Dask must make it again."""
    pytest.importorskip("distributed")
    path = str(tmp_path / "calls.log")
    monkeypatch.setenv(LOG, path)
    monkeypatch.setenv(HOLD, "2")
    monkeypatch.setenv("CLUSTER_FAULTS_PID", str(os.getpid()))
    monkeypatch.setattr(solver, "solve_block", held_block)

    def held():
        pids = [int(line.split()[1]) for line in log_lines(path) if line.startswith("held")]
        if pids and which == "every worker":
            for pid in worker_processes(os.getpid()):
                if pid != pids[0]:
                    os.kill(pid, signal.SIGKILL)
        return pids[0] if pids else None

    killed = killer(held)
    two = solve_table(RULES, workers=2, progress=False, checkpoint=str(tmp_path / "two"), serial_seconds=0)
    lines = log_lines(path)
    held_at = lines.index("held %d" % killed[0])
    lost_key = lines[held_at - 1].split(" ", 1)[1]
    assert lines[held_at - 1].startswith("%d " % killed[0])
    again = [line for line in lines[held_at + 1:] if line.split(" ", 1)[1] == lost_key]
    assert again and not again[0].startswith("%d " % killed[0])  # solved again, by another worker
    assert two == one_process


def test_a_forged_checkpoint_with_its_manifest_is_caught_and_solved_again(tmp_path, one_process, capsys):
    """The forger writes the checkpoint with the engine's own code: files and manifest agree. The kept
    layer's block solved again when resumed does not give the forged bytes."""
    folder = str(tmp_path / "forged")
    assert solve_table(RULES, workers=1, progress=False, checkpoint=folder, keep=True) == one_process
    name = "yazy-duel-v%d-c%d" % (solver.SOLVER_VERSION, RULES.mask)
    job = Job(name, solver.job_layers(RULES.mask), SOLVE_BLOCK)
    store = Checkpoint(folder, job)
    assert store.load()[0] == len(job.layers)
    store.save(2, tuple(np.nextafter(block, np.inf) if block.dtype.kind == "f" else block + 1
                        for block in store.blocks(2)))
    assert solve_table(RULES, workers=1, progress=False, checkpoint=folder) == one_process
    said = capsys.readouterr().err
    assert said == ("ShutTheBox: layer 2 of the checkpoint in %s is not what solving it gives (a forged "
                    "checkpoint?): it is solved again\n" % folder)


def double_block(key, previous):
    return np.array([2 * key], dtype=np.int64)


def single_block(key, previous):
    return np.array([key], dtype=np.int64)


def test_a_layer_file_of_another_job_under_a_manifest_renamed_to_ours_is_not_read(tmp_path):
    """The seal binds a layer file to its job and place: another job's files, under its manifest with the
    job's name and fingerprint changed to ours, fail it (not read, so not even checked by solving)."""
    folder = tmp_path / "checkpoint"
    layers = tuple((layer,) for layer in range(4))
    theirs, ours = Job("doubled-v1", layers, double_block), Job("single-v1", layers, single_block)
    run_layers(theirs, workers=1, checkpoint=str(folder), progress=False, keep=True)
    manifest = (folder / "manifest.json").read_text()
    manifest = manifest.replace(theirs.name, ours.name).replace(theirs.fingerprint(), ours.fingerprint())
    (folder / "manifest.json").write_text(manifest)
    assert Checkpoint(str(folder), ours).load() == (0, None)
    result = run_layers(ours, workers=1, checkpoint=str(folder), progress=False)
    assert [int(layer[0][0]) for layer in result] == [0, 1, 2, 3]


def ignores_sigint(pid: int) -> bool:
    """Whether the process ignores SIGINT now (its SigIgn mask in /proc): the build does while it starts its
    local cluster, so that the workers are born ignoring it."""
    with open("/proc/%d/status" % pid) as status:
        mask = next(int(line.split()[1], 16) for line in status if line.startswith("SigIgn:"))
    return bool(mask >> (signal.SIGINT - 1) & 1)


def ctrl_c_build(tmp_path, ready):
    """A two-worker build stopped by Ctrl-C as a terminal sends it (to the build and its workers: the process
    group) once ``ready(build, workers, layers)`` is true, given the build's pid, the worker pids and the
    finished layer files seen; (exit status, stderr, the worker pids seen)."""
    pytest.importorskip("distributed")
    env = dict(os.environ, SHUTTHEBOX_CACHE=str(tmp_path / "cache"), SHUTTHEBOX_WORKERS="2")
    command = [sys.executable, os.path.join(ROOT, "ShutTheBox"), "yazy", "--categories",
               "ones,twos,threes,fours,fives,sixes,three-kind,full-house,yazy", "--players", "2", "--expect", "all", "all",
               "--scores", "0,0"]
    # A terminal's command takes Ctrl-C; a test run started in the background of a shell ignores SIGINT, and the
    # build would inherit that (and rightly keep ignoring it): its default is set back before it starts.
    build = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True, cwd=ROOT,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    layers = tmp_path / "cache" / "layers"
    workers, deadline = [], time.monotonic() + 120
    try:
        while time.monotonic() < deadline and build.poll() is None:
            workers = sorted(set(workers) | set(worker_processes(build.pid)))
            if ready(build.pid, workers, sorted(path.name for path in layers.rglob("layer-*.npy"))):
                break
            time.sleep(0.02)
        assert build.poll() is None and workers, "the build ended before it could be stopped"
        os.killpg(build.pid, signal.SIGINT)
        _, err = build.communicate(timeout=60)
    finally:
        if build.poll() is None:
            os.killpg(build.pid, signal.SIGKILL)
    return build.returncode, err, workers


def stopped_as_said(status, err, workers):
    """Status 130, no traceback, one line saying what is kept, and no worker left behind."""
    assert status == 130
    assert "Traceback" not in err
    said = [line for line in err.splitlines() if not line.endswith("(Ctrl-C stops it)")]  # the solve's notice
    assert len(said) == 1, err
    assert said[0].startswith("ShutTheBox: the build of yazy-duel-"), said[0]
    assert "run the same command again" in said[0] or "nothing is kept" in said[0], said[0]
    psutil = pytest.importorskip("psutil")
    time.sleep(1)
    assert not [pid for pid in workers if psutil.pid_exists(pid) and psutil.Process(pid).status() != "zombie"]


@pytest.mark.slow
def test_ctrl_c_during_a_two_worker_build_is_one_line_and_status_130(tmp_path):
    """Ctrl-C once the workers have started and solved a layer. Nine categories: the build runs serially for
    its first 2 s and starts the workers only then, and with seven or eight the layers left once they were up
    ended, on some runs, before the test saw a new one."""
    seen = {}

    def ready(build, workers, found):
        if len(workers) < 2 or ignores_sigint(build):  # still starting them
            seen.pop("layers", None)
            return False
        return found != seen.setdefault("layers", found)  # a layer finished since the workers were up

    stopped_as_said(*ctrl_c_build(tmp_path, ready))


@pytest.mark.slow
def test_ctrl_c_while_the_workers_start_stops_the_build_once_they_are_up(tmp_path):
    """Ctrl-C as soon as the first worker process exists, while the cluster starts: the build ignores it then
    (so that the workers are born ignoring it), sees it afterwards, and stops as above."""
    stopped_as_said(*ctrl_c_build(tmp_path, lambda build, workers, found: bool(workers)))
