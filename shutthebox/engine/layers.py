"""A layered exact build (build time): each layer's blocks are independent tasks, run here or on Dask.

Layer k's values depend only on layer k-1's (for the dice games, the layer is the number of open
categories). A ``Job`` lists every layer's block keys and the module-level ``solve(key, previous)`` that
returns one block's numpy array; ``run_layers`` solves the layers in order and returns every block::

    job = Job("yazy-duel-v1-c2047", layers=((0,), (1, 2), ...), solve=solve_block)
    blocks = run_layers(job)            # blocks[k][i]: the array of job.layers[k][i]
    table = run_layers(job, collect=f)  # f(Finished): the layers read back from disk a block at a time

Only the layer being solved and the one it reads are held in memory; the others are in the checkpoint.

Blocks are fixed by the solver, never by the number of workers, so the bytes are the same for 1, 2 or N
workers: one worker runs in this process with no extra package; more run on Dask distributed (the
``cluster`` extra), a ``LocalCluster`` of this machine's cores or an existing cluster's address. The
previous layer reaches the workers through Dask (a task of the graph, fetched by each worker that needs
it), so no shared folder is needed. Each finished layer is written here, atomically, into a checkpoint
folder; a killed build resumes from the last finished layer, and a lost worker's tasks (and any copy of
the previous layer it held) are run again by Dask's scheduler. docs/CLUSTER.md says how to use it,
docs/DECISIONS.md why Dask.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import time
from dataclasses import dataclass
from typing import Any, Callable

from ..errors import InvalidQuery, ShutTheBoxError
from .text import as_whole, shown, whole_in

WORKERS_ENV = "SHUTTHEBOX_WORKERS"
CLUSTER_ENV = "SHUTTHEBOX_CLUSTER"
# The package is not on the public index: its extras install from the checkout, into the Python that runs it.
INSTALL = 'install the cluster extra: `python -m pip install -e ".[cluster]"` in the shutthebox checkout, with the ' \
          'Python that runs shutthebox (inside its virtual environment)'
MAX_WORKERS = 4096
# Starting a local cluster of worker processes costs about 2 s here: a build runs in this process until
# its serial work passes this many seconds, then starts the cluster for the rest. A small job never pays
# for a cluster, and a large one loses at most this much (plus one block) to having started serially.
SERIAL_SECONDS = 2.0
# The local workers' settings (docs/CLUSTER.md says them for a cluster's). Dask's profiler samples the
# solving thread every 10 ms, taking the GIL from it each time: on a busy machine each hand-over waits
# for the OS, and a block took up to 10 times its CPU time. Dask's workers set MALLOC_TRIM_THRESHOLD_=65536,
# which also turns off glibc's adaptive mmap threshold: every large numpy temporary was then mapped and
# faulted in afresh, twice a block's CPU time. These keep freed memory for the next block instead: 25%
# less CPU time than glibc's defaults on the yazy target blocks (bench/layered.py's).
MALLOC = {"MALLOC_TRIM_THRESHOLD_": str(2**30), "MALLOC_MMAP_THRESHOLD_": str(2**25)}
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's malloc.h
CONNECT_TIMEOUT = "20s"  # how long an existing cluster's scheduler is waited for
# A local cluster whose worker dies while it starts fails as a whole (Dask's nannies restart a worker only
# once it has started): it is started again, up to this many times in all.
START_TRIES = 3
# The local cluster's log level: none of it. What matters reaches the build as an exception (a block's
# error, a task given up), and Ctrl-C's close made Dask's scheduler log at CRITICAL about comms it closed.
QUIET = logging.CRITICAL + 1
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,119}")
_LAYER_FILE = re.compile(r"layer-[0-9]{3,6}\.npy")
MANIFEST = "manifest.json"


class LayersError(ShutTheBoxError):
    """The build cannot run where it was asked to: no cluster extra, a cluster out of reach, a bad block."""

    exit_status = 3


@dataclass(frozen=True)
class Job:
    """A layered build: ``name`` (the checkpoint's folder: say the solver's version and rules in it),
    ``layers`` (each layer's block keys, picklable: ints, tuples) and ``solve(key, previous) -> array``, a
    module-level function; ``previous`` is the tuple of the previous layer's arrays (None for layer 0)."""

    name: str
    layers: tuple
    solve: Callable

    def __post_init__(self):
        if not isinstance(self.name, str) or not _NAME.fullmatch(self.name):
            raise ValueError("a job's name is letters, digits, '.', '_' and '-' (a folder name), not %r"
                             % (self.name,))
        layers = tuple(tuple(layer) for layer in self.layers)
        if not layers:
            raise ValueError("job %s has no layers" % self.name)
        object.__setattr__(self, "layers", layers)
        if not callable(self.solve):
            raise ValueError("job %s: solve must be a function solve(key, previous)" % self.name)

    def fingerprint(self) -> str:
        """What a checkpoint must match to be reused: the name, the solve function's name and every key."""
        what = "%s\n%s.%s\n%r" % (self.name, getattr(self.solve, "__module__", ""),
                                  getattr(self.solve, "__qualname__", repr(self.solve)), self.layers)
        return hashlib.sha256(what.encode("utf-8")).hexdigest()


def run_layers(job: Job, workers=None, cluster=None, checkpoint=None, progress=True, *,
               keep: bool = False, serial_seconds: float = SERIAL_SECONDS, collect=None):
    """Solve ``job``; return ``collect(Finished)`` (what is made of the layers, read back from the checkpoint
    a block at a time), by default a tuple over its layers of tuples of block arrays (``job.layers``' order).

    ``workers``: None is ``$SHUTTHEBOX_WORKERS``, else this machine's cores (in this process when the
    cluster extra is absent); 1 runs here, serially. ``cluster``: an existing Dask scheduler's address
    (None: ``$SHUTTHEBOX_CLUSTER``); its own workers run the blocks. ``checkpoint``: the folder of
    finished layers (default: the cache's ``layers/NAME``); removed when the build is done, unless
    ``keep``. ``progress``: a bar on a terminal. ``serial_seconds``: see ``SERIAL_SECONDS`` (0 starts
    the workers at once; a cluster's address always uses the cluster). Each finished layer is in memory
    only until the next one is solved: a table larger than memory is ``collect``'s to read a part at a time.
    """
    count, asked = worker_count(workers)
    address = cluster_address(cluster)
    distribute = address is not None or count > 1
    if distribute and not _have_dask():
        if address is not None or asked:
            what = "the cluster %s" % address if address is not None else "%d workers" % count
            raise LayersError("building on %s needs Dask distributed: %s" % (what, INSTALL))
        distribute = False  # the default count: this process, as without the extra
    keep_freed_memory()
    store = Checkpoint(checkpoint if checkpoint is not None else default_folder(job.name), job)
    kept, previous = store.load()
    total = sum(len(layer) for layer in job.layers)
    runner = _Runner(count, address, serial_seconds if address is None else 0.0, distribute)
    bar = _bar(progress, job, total, sum(len(layer) for layer in job.layers[:kept]))
    stopped = False
    try:
        try:
            for index in range(kept, len(job.layers)):
                blocks = runner.layer(job, index, previous, bar)
                store.save(index, blocks)
                previous = blocks  # the layers before it are on disk only
        finally:
            bar.close()
            runner.close()
        previous = None
        result = (collect or _in_memory)(Finished(store))
    except KeyboardInterrupt:
        stopped = True
        raise Stopped() from None
    finally:
        if stopped:
            _say(stopped_line(store, len(job.layers)))
    if not keep:
        store.remove()
        if checkpoint is None:  # the cache's layers/ too, when no other build keeps layers there
            try:
                os.rmdir(os.path.dirname(store.folder))
            except OSError:
                pass
    return result


class Finished:
    """A build's finished layers, in its checkpoint: ``blocks(k)`` reads layer k's blocks from disk one at a
    time; ``finished[k]`` is the tuple of them, and iterating gives each layer's ``blocks``."""

    def __init__(self, store: "Checkpoint"):
        self.store = store

    def __len__(self) -> int:
        return len(self.store.job.layers)

    def blocks(self, index: int):
        return self.store.blocks(index)

    def __getitem__(self, index: int) -> tuple:
        return tuple(self.blocks(index))

    def __iter__(self):
        return (self.blocks(index) for index in range(len(self)))


def _in_memory(finished: Finished) -> tuple:
    """``run_layers``' result when no ``collect`` is given: every layer's blocks."""
    return tuple(finished[index] for index in range(len(finished)))


class Stopped(KeyboardInterrupt):
    """Ctrl-C during a layered build, whose line (``stopped_line``) is said already."""


def stopped_line(store: "Checkpoint", layers: int) -> str:
    """What Ctrl-C during a build says: where its finished layers are kept, and how to resume or drop them."""
    kept = len(store.finished)
    if not kept:
        return "the build of %s was stopped before its first layer was finished: nothing is kept" % store.job.name
    return ("the build of %s was stopped: %d of its %d layers are kept in %s; run the same command again to "
            "resume from them, or delete that folder to free its space" % (store.job.name, kept, layers, store.folder))


def _say(line: str) -> None:
    """One line on standard error, as the command's announcement of a solve (engine/store.py); nothing if it
    cannot be written."""
    import sys

    try:
        sys.stderr.write("ShutTheBox: %s\n" % line)
        sys.stderr.flush()
    except (OSError, AttributeError, ValueError):
        pass


def keep_freed_memory() -> None:
    """Let this process keep freed memory for the next block, as ``MALLOC`` makes the workers do (the
    blocks run here too). glibc reads those variables only at start, so its ``mallopt`` is called; other C
    libraries keep their defaults."""
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):  # no mallopt: not glibc
        return
    mallopt(M_TRIM_THRESHOLD, int(MALLOC["MALLOC_TRIM_THRESHOLD_"]))
    mallopt(M_MMAP_THRESHOLD, int(MALLOC["MALLOC_MMAP_THRESHOLD_"]))


def worker_count(workers=None) -> tuple[int, bool]:
    """(how many workers, whether they were asked for) from ``workers`` or ``$SHUTTHEBOX_WORKERS``."""
    if workers is not None:
        count = as_whole(workers)
        if count is None or not 1 <= count <= MAX_WORKERS:
            raise InvalidQuery("workers must be a whole number from 1 to %d, not %s" % (MAX_WORKERS, shown(workers)))
        return count, True
    text = os.environ.get(WORKERS_ENV, "").strip()
    if text:
        return whole_in(WORKERS_ENV, text, 1, MAX_WORKERS), True
    if hasattr(os, "sched_getaffinity"):
        return max(len(os.sched_getaffinity(0)), 1), False
    return max(os.cpu_count() or 1, 1), False


def cluster_address(cluster=None) -> str | None:
    """The Dask scheduler's address from ``cluster`` or ``$SHUTTHEBOX_CLUSTER``; None: none given."""
    text = cluster if cluster is not None else os.environ.get(CLUSTER_ENV, "")
    if not isinstance(text, str):
        raise InvalidQuery("a cluster is named by its address (tcp://HOST:8786), not %s" % shown(text))
    text = text.strip()
    if text and (any(character.isspace() for character in text) or not text.isprintable()):
        raise InvalidQuery("%s is not a cluster's address (tcp://HOST:8786)" % shown(text))
    return text or None


def default_folder(name: str) -> str:
    from .store import cache_dir

    return os.path.join(cache_dir(), "layers", name)


def _layer(previous: tuple) -> tuple:
    """The previous layer, as the result of a task (see ``_Runner._remote``)."""
    return previous


def dask_setup(worker) -> None:
    """Run by each local worker process as it starts (Dask's preload hook): Ctrl-C on a terminal reaches
    every process of its group, and is for the build, which stops the workers itself; a worker it killed
    would be restarted by its nanny while the cluster closes, and print tracebacks."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _have_dask() -> bool:
    try:
        import distributed  # noqa: F401 - only whether it is there
    except ImportError:
        return False
    return True


def _checked(job: Job, key, block):
    """``block`` if it is a numpy array of numbers (what a checkpoint can hold); LayersError otherwise."""
    import numpy as np

    if not isinstance(block, np.ndarray) or block.dtype.hasobject:
        raise LayersError("job %s: solve(%s) returned %s, not a numpy array of numbers"
                          % (job.name, shown(repr(key)), shown(type(block).__name__)))
    return block


# A process that Ctrl-C ends: it takes the default action of SIGINT (ending it) and waits.
_SENTINEL = "import signal; signal.signal(signal.SIGINT, signal.SIG_DFL); signal.pause()"


@contextlib.contextmanager
def _ctrl_c_held():
    """Ignore Ctrl-C (SIGINT) while the local cluster starts, in the main thread, and raise KeyboardInterrupt
    after it when one came meanwhile. The worker processes spawned meanwhile are born ignoring it (an ignored
    signal stays ignored through exec, a handler does not), as ``dask_setup`` later makes them: interrupted
    while it starts, Dask left a half-started cluster whose workers and exit printed tracebacks. An ignored
    signal leaves no trace, so a sentinel process started before, in the same process group, is what a
    terminal's Ctrl-C ends; its end is the Ctrl-C seen. A SIGINT sent to this process alone is still lost
    in these seconds."""
    import signal
    import subprocess
    import sys
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:  # not this process's to take (started ignoring it)
        yield
        return
    try:
        sentinel: subprocess.Popen | None = subprocess.Popen(
            [sys.executable, "-S", "-c", _SENTINEL], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
    except OSError:  # no process to spare: Ctrl-C is lost in these seconds, as it was
        sentinel = None
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        if handler is not None:  # None: set outside Python, nothing to put back
            signal.signal(signal.SIGINT, handler)
        if sentinel is not None:
            pressed = sentinel.poll() == -signal.SIGINT
            if not pressed:
                sentinel.kill()
            sentinel.wait()
            if pressed:
                raise KeyboardInterrupt


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return shown(text.splitlines()[0] if text else type(error).__name__)


class _Runner:
    """Runs a layer's blocks: here, one after another, until ``serial_seconds`` of work have passed (and
    only here without ``distribute``); then on the Dask workers, started once and kept for every layer."""

    def __init__(self, workers: int, address, serial_seconds: float, distribute: bool):
        self.workers, self.address, self.distribute = workers, address, distribute
        self.serial_seconds, self.serial = serial_seconds, 0.0
        self.client: Any = None  # distributed's Client and LocalCluster, once started
        self.cluster: Any = None

    def layer(self, job: Job, index: int, previous, bar) -> tuple:
        keys = job.layers[index]
        blocks = [None] * len(keys)
        pending = list(range(len(keys)))
        while pending and self.client is None and not (self.distribute and self.serial >= self.serial_seconds):
            position = pending.pop(0)
            started = time.perf_counter()
            blocks[position] = _checked(job, keys[position], job.solve(keys[position], previous))
            self.serial += time.perf_counter() - started
            bar.step()
        if pending:
            self._start()
            self._remote(job, keys, pending, previous, blocks, bar)
        return tuple(blocks)

    def _remote(self, job, keys, pending, previous, blocks, bar) -> None:
        import dask
        from distributed import as_completed

        client = self.client
        # The previous layer goes in as a task's argument, not as scattered data: a worker that runs a
        # block fetches it from one that has it, and if every copy is lost with its workers, the
        # scheduler runs the task again (it keeps the task); scattered data would be lost for good, and
        # its broadcast waits forever on a worker that died. The graph is large by design.
        with dask.config.set({"distributed.admin.large-graph-warning-threshold": "1 PiB"}):
            shared = client.submit(_layer, previous, pure=False) if previous is not None else None
        futures = {client.submit(job.solve, keys[position], shared, pure=False): position for position in pending}
        try:
            for future in as_completed(futures, loop=client.loop):
                position = futures[future]
                blocks[position] = _checked(job, keys[position], future.result())
                bar.step()
        finally:
            client.cancel([future for future in futures if not future.done()])
            if shared is not None:
                shared.release()

    def _start(self) -> None:
        if self.client is not None:
            return
        import dask
        from distributed import Client, LocalCluster

        if self.address is not None:
            try:
                self.client = Client(self.address, timeout=CONNECT_TIMEOUT, set_as_default=False)
            except (OSError, ValueError, TypeError) as error:
                raise LayersError("cannot reach the cluster at %s (%s): is its scheduler running?"
                                  % (shown(self.address), _first_line(error))) from None
            return
        # One single-threaded process a worker: the solvers are numpy, and processes keep them apart. The
        # workers' logs stay quiet: a block's error is raised here, and a lost worker's block is run again.
        settings: dict[str, Any] = {"distributed.worker.profile.enabled": False}
        settings.update(("distributed.nanny.pre-spawn-environ." + name, value) for name, value in MALLOC.items())
        with _ctrl_c_held():
            for tries in range(1, START_TRIES + 1):
                try:
                    with dask.config.set(settings):
                        self.cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                                    dashboard_address="127.0.0.1:0", silence_logs=QUIET,
                                                    preload=[__name__])
                    break
                except Exception as error:  # noqa: BLE001 - a worker lost while starting (Dask: RuntimeError)
                    if tries == START_TRIES:
                        raise LayersError("cannot start %d local workers (%s, %d times): run with %s=1 to build in "
                                          "this process" % (self.workers, _first_line(error), tries, WORKERS_ENV)) \
                            from None
        self.client = Client(self.cluster, set_as_default=False)

    def close(self) -> None:
        for part in (self.client, self.cluster):
            if part is not None:
                try:
                    part.close()
                except Exception:  # noqa: BLE001 - a cluster already gone: nothing left to close
                    pass
        self.client = self.cluster = None


class Checkpoint:
    """A job's finished layers in ``folder``: ``layer-NNN.npy`` (the layer's blocks, one ``.npy`` record
    after another) and ``manifest.json`` (the job's name and fingerprint, and each layer file's seal).
    A manifest of another job, or a file that does not pass ``load``'s checks, is never used: the build
    goes on from before it."""

    def __init__(self, folder: str, job: Job):
        self.folder, self.job = folder, job
        self.fingerprint = job.fingerprint()
        self.finished: list = []  # manifest entries of the layers written

    def _path(self, index: int) -> str:
        return os.path.join(self.folder, "layer-%03d.npy" % index)

    def _digest(self, index: int):
        """The sha256 of layer ``index``'s file bound to its place (its seal, once the file's bytes are added):
        the job's fingerprint, the layer's number and the file's bytes. A file copied from another job or
        layer fails it, even with its manifest."""
        return hashlib.sha256(("%s\n%d\n" % (self.fingerprint, index)).encode("ascii"))

    def _seal(self, index: int) -> str:
        """Layer ``index``'s file's seal, read a part at a time."""
        from .writer import CHUNK

        digest = self._digest(index)
        with open(self._path(index), "rb") as handle:
            for piece in iter(lambda: handle.read(CHUNK), b""):
                digest.update(piece)
        return digest.hexdigest()

    def blocks(self, index: int):
        """Layer ``index``'s blocks, read from its file one at a time (ValueError: not the layer's blocks)."""
        import numpy as np

        with open(self._path(index), "rb") as handle:
            for _ in self.job.layers[index]:
                yield np.lib.format.read_array(handle, allow_pickle=False)
            if handle.read(1):
                raise ValueError("layer %d's file holds more than its blocks" % index)

    def load(self) -> tuple:
        """(how many finished layers the checkpoint holds, maybe none; the last one's blocks, or None). Each
        layer must match its seal in the manifest, and one of its blocks, chosen at random, solved again here
        from the layer before it, must give its bytes: a seal anyone can recompute, a block only by solving
        it. Layers are read one after another: two are in memory at a time."""
        try:
            with open(os.path.join(self.folder, MANIFEST), "rb") as handle:
                manifest = json.loads(handle.read().decode("utf-8"))
            ours = manifest.get("job") == self.job.name and manifest.get("fingerprint") == self.fingerprint
            entries = manifest.get("layers") if ours else None
        except (OSError, ValueError, AttributeError):
            entries = None
        if not isinstance(entries, list):
            self._clear()  # another job's, or none: start afresh
            return 0, None
        previous = None
        for index, entry in enumerate(entries[:len(self.job.layers)]):
            try:
                if not isinstance(entry, dict) or self._seal(index) != entry.get("sha256"):
                    break
                blocks = tuple(self.blocks(index))
            except (OSError, ValueError, EOFError):
                break
            if not self._solves_again(index, blocks, previous):
                _say("layer %d of the checkpoint in %s is not what solving it gives (a forged checkpoint?): it is "
                     "solved again" % (index, self.folder))
                break
            previous = blocks
            self.finished.append(entry)
        return len(self.finished), previous

    def _solves_again(self, index: int, blocks: tuple, previous) -> bool:
        """Whether one block of kept layer ``index``, chosen at random, solved again from ``previous`` (the
        kept layer before it) gives the kept block's bytes."""
        import secrets

        keys = self.job.layers[index]
        position = secrets.randbelow(len(keys))
        block = _checked(self.job, keys[position], self.job.solve(keys[position], previous))
        kept = blocks[position]
        return block.dtype == kept.dtype and block.shape == kept.shape and block.tobytes() == kept.tobytes()

    def save(self, index: int, blocks: tuple) -> None:
        """Write layer ``index`` (the layers before it are written), then the manifest naming it."""
        import numpy as np

        from .writer import atomic_file, write_atomic

        digest = self._digest(index)
        try:
            with atomic_file(self._path(index)) as handle:
                sealed = _Sealed(handle, digest)
                for block in blocks:  # numpy writes a block to a file-like object 16 MiB at a time
                    np.lib.format.write_array(sealed, block, allow_pickle=False)
            self.finished = self.finished[:index] + [{"sha256": digest.hexdigest(), "blocks": len(blocks)}]
            manifest = {"job": self.job.name, "fingerprint": self.fingerprint,
                        "layers_in_job": len(self.job.layers), "layers": self.finished}
            write_atomic(os.path.join(self.folder, MANIFEST), json.dumps(manifest, indent=1) + "\n")
        except OSError as error:
            raise LayersError("cannot write the checkpoint of %s in %s (%s)"
                              % (self.job.name, self.folder, error.strerror or error)) from None

    def _clear(self) -> None:
        """Remove the layer files and manifest (only those names) of whatever job was here before."""
        try:
            names = os.listdir(self.folder)
        except OSError:
            return
        for name in names:
            if name == MANIFEST or _LAYER_FILE.fullmatch(name):
                try:
                    os.unlink(os.path.join(self.folder, name))
                except OSError:
                    pass

    def remove(self) -> None:
        """The build is done: its checkpoint files go, and the folder if nothing else is in it."""
        self._clear()
        try:
            os.rmdir(self.folder)
        except OSError:
            pass


class _Sealed:
    """A file being written that adds what it is given to a digest too (a layer's seal)."""

    def __init__(self, handle, digest):
        self.handle, self.digest = handle, digest

    def write(self, data) -> int:
        self.digest.update(data)
        return self.handle.write(data)


class _Bar:
    """The progress bar over every block of the job, labelled with the layer being solved."""

    def __init__(self, bar, job: Job, done: int):
        self.bar, self.job, self.done = bar, job, done
        self.ends: list = []  # the number of blocks done when each layer is finished
        for layer in job.layers:
            self.ends.append((self.ends[-1] if self.ends else 0) + len(layer))

    def step(self) -> None:
        self.done += 1
        if self.bar is not None:
            layer = next((index for index, end in enumerate(self.ends) if self.done <= end), len(self.ends) - 1)
            self.bar.label = "layer %d/%d" % (layer + 1, len(self.ends))
            self.bar.update(self.done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _bar(progress: bool, job: Job, total: int, done: int) -> _Bar:
    if not progress:
        return _Bar(None, job, done)
    from .progress import Progress

    return _Bar(Progress(total, "layer 1/%d" % len(job.layers), unit="blocks", begun=done), job, done)
