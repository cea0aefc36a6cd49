"""A table solved on first use is solved once, however many processes ask for it at the same time: one
solves it, the others wait for its lock and read what it wrote. A lock left by a killed solve blocks
nobody, and Ctrl-C while waiting is the command's quiet exit (status 130)."""

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import COMMAND, ROOT
from test_toggle import exact_solve

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the lock is flock's (POSIX)")

QUESTION = ["toggle", "--cards", "5", "--sides", "3", "--expect", "all"]
TABLE = "toggle-c5-s3.msgpack"
# A child asking QUESTION through the real command line, whose solver first logs its process id and sleeps
# (the test's own counter, in the child only: the overlap of the solves is then certain, not luck). It
# waits for the go file, so that every child asks at the same moment.
CHILD = r"""
import os, sys, time
sys.path.insert(0, %(root)r)
from shutthebox.cli import main
from shutthebox.games.toggle import build

solve_table = build.solve_table
log, pause, go = sys.argv[1], float(sys.argv[2]), sys.argv[3]

def logged(rules):
    with open(log, "a") as handle:
        handle.write("%%d\n" %% os.getpid())
    time.sleep(pause)
    return solve_table(rules)

build.solve_table = logged
if go != "-":
    open("%%s.%%d" %% (go, os.getpid()), "w").close()
    while not os.path.exists(go):
        time.sleep(0.01)
sys.exit(main(%(question)r))
""" % {"root": ROOT, "question": QUESTION}


def child(cache, log, pause, go="-"):
    # SIGINT as a terminal leaves it: a suite started in the background has it ignored
    return subprocess.Popen([sys.executable, "-c", CHILD, str(log), str(pause), str(go)], cwd=ROOT,
                            env=dict(os.environ, SHUTTHEBOX_CACHE=str(cache)), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def solves(log):
    return log.read_text().split() if log.exists() else []


def wait_until(condition, what, limit=60.0):
    """A guard against a hang, not a timing assertion: fail after ``limit`` seconds."""
    end = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < end, "gave up waiting: " + what
        time.sleep(0.02)


def answer():
    return "%.6f\n" % exact_solve(5, 3)[31]


def test_processes_asking_the_same_first_use_table_solve_it_once(tmp_path):
    cache, log, go, count = tmp_path / "cache", tmp_path / "solves", tmp_path / "go", 4
    children = [child(cache, log, 2.0, go) for _ in range(count)]
    try:
        wait_until(lambda: len([name for name in os.listdir(tmp_path) if name.startswith("go.")]) == count,
                   "the children to start")
        go.touch()
        done = [process.communicate(timeout=120) for process in children]
    finally:
        for process in children:
            process.kill()
    waiting = "ShutTheBox: waiting for another process solving %s (Ctrl-C stops waiting)\n" % TABLE
    assert [process.returncode for process in children] == [0] * count, [err for _, err in done]
    assert [out for out, _ in done] == [answer()] * count
    assert len(solves(log)) == 1, "each process solved the table: %s" % solves(log)
    # The solver alone may say its cost (when its estimate is long enough); the others may say they wait: the
    # solve sleeps 2 s, the line is said after 1 s of waiting, so some say it (a slow start may miss it).
    lines = [line for _, err in done for line in err.splitlines(True)]
    said = [line for line in lines if line.startswith("ShutTheBox: solving %s: " % TABLE)]
    assert len(said) <= 1 and waiting in lines and all(line == waiting for line in lines if line not in said), lines
    assert sorted(os.listdir(cache)) == [TABLE]  # the lock file is gone with its solve


def test_a_lock_left_by_a_killed_solve_blocks_nobody(tmp_path):
    cache, log = tmp_path / "cache", tmp_path / "solves"
    holder = child(cache, log, 600)
    try:
        wait_until(lambda: solves(log), "the solve to start")
        assert os.path.exists(cache / (TABLE + ".lock"))
    finally:
        holder.kill()
        holder.communicate()
    assert os.path.exists(cache / (TABLE + ".lock")) and not os.path.exists(cache / TABLE)  # left behind
    after = subprocess.run([sys.executable, COMMAND, *QUESTION], capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, SHUTTHEBOX_CACHE=str(cache)))
    assert (after.returncode, after.stdout) == (0, answer()) and "waiting" not in after.stderr, after.stderr
    assert sorted(os.listdir(cache)) == [TABLE]


def test_ctrl_c_while_waiting_for_another_solve_exits_130_after_one_line(tmp_path):
    cache, log = tmp_path / "cache", tmp_path / "solves"
    holder = child(cache, log, 600)
    waiter = None
    try:
        wait_until(lambda: solves(log), "the solve to start")
        waiter = subprocess.Popen([sys.executable, COMMAND, *QUESTION], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=dict(os.environ, SHUTTHEBOX_CACHE=str(cache)),
                                  preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        said = waiter.stderr.readline()  # said after a second of waiting
        assert said == "ShutTheBox: waiting for another process solving %s (Ctrl-C stops waiting)\n" % TABLE
        waiter.send_signal(signal.SIGINT)
        out, err = waiter.communicate(timeout=60)
        assert (waiter.returncode, out, err) == (130, "", "")
        assert solves(log) == [str(holder.pid)] and holder.poll() is None  # the holder goes on solving
    finally:
        for process in (holder, waiter):
            if process is not None:
                process.kill()
                process.communicate()


def test_a_stale_lock_file_is_dropped_and_a_held_one_kept(tmp_path):
    import fcntl

    from shutthebox.engine.solvelock import LOCK_SUFFIX, drop_stale

    cached = str(tmp_path / "toggle-c5-s3.msgpack")
    held = os.open(cached + LOCK_SUFFIX, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(held, fcntl.LOCK_EX)  # a solve holding it (another open file: flock does not let it in)
    drop_stale(cached)
    assert os.path.exists(cached + LOCK_SUFFIX)
    os.close(held)  # the solve was killed: its lock file stays behind, held by nobody
    drop_stale(cached)
    assert os.listdir(tmp_path) == []
