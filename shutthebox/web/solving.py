"""Tables solved on first use for the page: ``POST /solve/NAME.msgpack`` starts one, ``GET`` follows it,
``DELETE`` stops it.

NAME is a table file's name; each registry game's declaration (``Game.family``)
says whether the name is one of its tables, with what rules, and what solving
it will cost (``Solve.estimate()``). ``GET`` of a table neither there nor asked
for answers that estimate, so that the page can show it before anyone clicks
"Solve". A solve whose estimated memory is above the server's limit
(``--solve-limit``, default ``engine.store.MEMORY_LIMIT``), or whose cost the
game cannot say beforehand, is refused.

One table is solved at a time, in a child process running this package's own
code (``python -m shutthebox.web.solving NAME``: the game's opener, as the
command line solves it, into the same cache), so that a solve can be stopped
and its memory given back at once: ``DELETE``, the page's Cancel, kills it, and
so does a solve nobody has asked about for ``idle`` seconds (the page asks every
250 ms while it waits). Several pages (tabs) may wait for one solve: each names
itself in every request (``X-ShutTheBox-Page``, a random word of its own), and
a ``DELETE`` (Cancel, or a page closed or reloaded) stops the solve only when no
other page has asked about it within ``idle`` seconds; otherwise it only says
that page no longer waits. The child passes its progress back as JSON lines on its
standard output; the server's progress reaches 100% only once the table is
written and every byte of it verified. At most ``WAITING`` more tables wait
their turn, beyond that the answer is "busy" (503). The request threads only
read and change the statuses: they never wait for a solve.
"""

from __future__ import annotations

import collections
import json
import os
import sys
import threading
import time

from .tables import PROG

WAITING = 4  # names queued behind the one being solved
KEPT = 64  # finished statuses remembered for the page to read (failures, cancels, the last progress)
PAGES = 32  # pages remembered as waiting for one solve (the most recent)
READY, QUEUED, SOLVING, FAILED, CANCELLED = "ready", "queued", "solving", "failed", "cancelled"
ABSENT = "absent"  # not there, not asked for
IDLE_ENV = "SHUTTHEBOX_SOLVE_IDLE"
DEFAULT_IDLE = 120.0  # seconds: a solve nobody asked about for this long is stopped
# The share of the progress bar kept for encoding, writing and verifying the table: the solver's own
# steps end at 90%; 100% is the table written and checked.
WRITE_SHARE = 9


def find_solver(name: str):
    """The registry game's call that opens (solving on first use) the table file ``name``; None for a
    name no game has. Raises ``InvalidQuery`` for rules the command line refuses."""
    from .. import registry

    for game in registry.declarations():
        solve = game.opener(name)
        if solve is not None:
            return solve
    return None


def find_cost(name: str):
    """``(known, estimate, solvable)`` for the table file ``name``: ``known`` is False when no game has that
    name; ``estimate`` is the game's ``Estimate`` of solving it, or None when the game gives none or never
    solves it on first use (``solvable`` False: the table must be shipped). Raises ``InvalidQuery`` for
    rules the command line refuses."""
    from .. import registry

    for game in registry.declarations():
        family, rules = game.family(name)
        if family is not None:
            solve = family.solver(rules)
            return True, (solve.estimate() if solve is not None else None), solve is not None
    return False, None, False


def memory_words(count: int) -> str:
    """``2 GB``, ``500 MB``: a memory limit as the estimates write sizes."""
    for unit, size in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if count >= size:
            return "%.3g %s" % (count / size, unit)
    return "%d bytes" % count


class Solves:
    """The statuses of the tables asked for, and the worker that solves them in turn, each in a child process.

    ``routes`` (a ``tables.Routes``) says whether a table is there to serve (every byte verified);
    ``limit`` is the most memory a solve may be estimated to take; ``idle`` the seconds after which a
    solve nobody asked about is stopped; ``command`` the child's command line before the table's name.
    """

    def __init__(self, routes, limit=None, idle=DEFAULT_IDLE, command=None, find=find_cost):
        from ..engine.store import MEMORY_LIMIT

        self.routes = routes
        self.limit = MEMORY_LIMIT if limit is None else limit
        self.idle = idle
        self.command = command or [sys.executable, "-m", "shutthebox.web.solving"]
        self.find = find
        self._status: dict = {}  # name -> {"state", "progress": (done, total), "error", "asked", "child", "stop"}
        self._queue: collections.deque = collections.deque()  # names, first in, first out
        self._finished: collections.deque = collections.deque()  # names finished, oldest first
        self._lock = threading.Condition()
        self._worker = None
        self._closed = False

    # -- the requests' side: read and change statuses, never wait for a solve ------------------------------

    def status(self, name: str, page=None) -> tuple[int, dict]:
        """(HTTP status, JSON object) for ``GET /solve/NAME``: asking keeps a solve going, and ``page`` (the page's
        own word, or None) waiting for it."""
        with self._lock:
            known = self._status.get(name)
            if known is not None and known["state"] in (QUEUED, SOLVING):
                _asked(known, page)
                return 200, self._shown(name, known)
        if self.routes.path("/" + name):  # shipped, cached, or solved here: every byte verified
            return 200, self._shown(name, {"state": READY, "progress": _full((known or {}).get("progress"))})
        with self._lock:
            known = self._status.get(name)
            ended = self._shown(name, known) if known is not None and known["state"] in (FAILED, CANCELLED) else None
        plan = self._plan(name)
        if "error" in plan:
            return plan["code"], self._shown(name, {"state": FAILED, "error": plan["error"]})
        if ended is not None:  # with what asking again would cost
            ended.update(plan["cost"])
            return 200, ended
        absent = self._shown(name, {"state": ABSENT})
        absent.update(plan["cost"])
        damaged = self.routes.damaged("/" + name)
        if damaged:
            absent["damaged"] = damaged
        return 200, absent  # an expected answer, not an error: the page asks before every first use

    def start(self, name: str, page=None) -> tuple[int, dict]:
        """(HTTP status, JSON object) for ``POST /solve/NAME``: queue the solve unless the table is there,
        on its way, or refused (above the limit, or of a cost nobody can say); ``page`` waits for it."""
        with self._lock:
            known = self._status.get(name)
            if known is not None and known["state"] in (QUEUED, SOLVING):
                _asked(known, page)
                return 200, self._shown(name, known)
        if self.routes.path("/" + name):
            return 200, self._shown(name, {"state": READY})
        plan = self._plan(name)
        if "error" in plan:
            return plan["code"], self._shown(name, {"state": FAILED, "error": plan["error"]})
        if "refused" in plan["cost"]:
            return 403, self._shown(name, {"state": FAILED, "error": plan["cost"]["refused"]})
        with self._lock:
            if self._closed:
                return 503, self._shown(name, {"state": FAILED, "error": "the server is stopping"})
            known = self._status.get(name)
            if known is not None and known["state"] in (QUEUED, SOLVING):
                _asked(known, page)
                return 200, self._shown(name, known)  # another request queued it meanwhile
            if len(self._queue) >= WAITING:
                return 503, self._shown(name, {"state": FAILED, "error": "busy: %d tables are waiting to be "
                                               "solved; try again when one is ready" % len(self._queue)})
            known = self._status[name] = {"state": QUEUED}
            _asked(known, page)
            self._queue.append(name)
            if self._worker is None:  # started on first use: a server never asked to solve runs no extra thread
                self._worker = threading.Thread(target=self._work, name="solve", daemon=True)
                self._worker.start()
            self._lock.notify_all()
            return 202, self._shown(name, known)

    def cancel(self, name: str, page=None) -> tuple[int, dict]:
        """(HTTP status, JSON object) for ``DELETE /solve/NAME``: ``page`` no longer waits; when no other page
        does, a queued solve is dropped, a running one is killed (its memory is given back when this
        returns); any other table is left as it is. A solve others still wait for goes on: its status says
        how many pages (``waiting``)."""
        with self._lock:
            known = self._status.get(name)
            if known is not None and known["state"] in (QUEUED, SOLVING):
                pages = known.setdefault("pages", {})
                pages.pop(page, None)
                now = time.monotonic()
                waiting = sum(1 for when in pages.values() if now - when <= self.idle)
                if waiting:
                    return 200, {**self._shown(name, known), "waiting": waiting}
            if known is not None and known["state"] == QUEUED:
                self._queue.remove(name)
                self._end(name, known, CANCELLED, "the solve of %s was cancelled" % name)
                return 200, self._shown(name, known)
            if known is not None and known["state"] == SOLVING:
                known["stop"] = "the solve of %s was cancelled" % name
                if known.get("child") is not None:
                    _kill(known["child"])
                # the worker reaps the child and ends the solve (a child not started yet is killed as it starts)
                self._lock.wait_for(lambda: known["state"] != SOLVING, timeout=30)
                return 200, self._shown(name, known)
        return self.status(name)

    def close(self) -> None:
        """The server stops: nothing more is solved, the child being solved is killed."""
        with self._lock:
            self._closed = True
            children = [status.get("child") for status in self._status.values() if status["state"] == SOLVING]
            self._lock.notify_all()
        for child in children:
            if child is not None:
                _kill(child)

    def _plan(self, name) -> dict:
        """``{"cost": {...}}``: the estimate's fields and words, the limit, and ``refused`` when the server
        will not solve it; or ``{"code", "error"}`` when no game has a table ``name`` (404) or the command
        line refuses its rules (400)."""
        from ..errors import ShutTheBoxError

        try:
            known, estimate, solvable = self.find(name)
        except ShutTheBoxError as error:
            return {"code": 400, "error": _named(name, error)}
        if not known:
            return {"code": 404, "error": "%s is not the name of a table of any game (ShutTheBox --help lists them)"
                    % name}
        cost = {"limit": self.limit}
        if estimate is not None:
            cost.update(size=estimate.size, memory=estimate.memory, seconds=round(estimate.seconds, 1),
                        words=estimate.words())
            if estimate.memory > self.limit:
                cost["refused"] = ("solving %s would make %s, above this server's limit of %s of memory; start "
                                   "ShutTheBox serve --solve-limit %s to allow it, or solve it with the command line"
                                   % (name, estimate.words(), memory_words(self.limit),
                                      _raised(estimate.memory)))
        elif solvable:
            cost["refused"] = ("the cost of solving %s cannot be said beforehand, so this server does not solve "
                               "it; solve it with the command line" % name)
        return {"cost": cost}

    def _shown(self, name, status) -> dict:
        done, total = status.get("progress") or (0, 0)
        shown = {"name": name, "state": status["state"], "done": done, "total": total}
        if status["state"] in (FAILED, CANCELLED):
            shown["error"] = status["error"]
        if status["state"] == QUEUED:  # (under the lock) the solves before it: 0 when it is next, about to start
            solving = sum(1 for other in self._status.values() if other["state"] == SOLVING)
            shown["ahead"] = solving + (self._queue.index(name) if name in self._queue else 0)
        return shown

    # -- the worker: one child process at a time --------------------------------------------------------------

    def _work(self):
        while True:
            with self._lock:
                while not self._queue and not self._closed:
                    self._lock.wait()
                if self._closed:
                    return
                name = self._queue.popleft()
                status = self._status[name]
                if time.monotonic() - status["asked"] > self.idle:
                    self._end(name, status, CANCELLED, _idle_words(name, self.idle))
                    continue
                status.update(state=SOLVING, progress=(0, 0))
            try:
                error, stopped = self._solve(name, status)
                if error is None and stopped is None and not self.routes.path("/" + name):
                    error = "%s: the table was solved but is not sound: %s" % (
                        name, self.routes.damaged("/" + name) or "it cannot be read back")
            except Exception as failure:  # noqa: BLE001 - the worker goes on with the next table
                error, stopped = _named(name, failure), None
            if error is not None:
                sys.stderr.write("%s: %s\n" % (PROG, error.encode("ascii", "backslashreplace").decode()))
            with self._lock:
                if stopped is not None:
                    self._end(name, status, CANCELLED, stopped)
                elif error is not None:
                    self._end(name, status, FAILED, error)
                else:
                    status["progress"] = _full(status.get("progress"))
                    self._end(name, status, READY)

    def _solve(self, name, status):
        """Run the child that solves ``name`` and follow it: (error or None, why it was stopped or None)."""
        import selectors
        import subprocess

        package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        path = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": package + (os.pathsep + path if path else "")}
        try:
            child = subprocess.Popen(self.command + [name], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, close_fds=True)
        except OSError as error:
            return "%s: cannot start the solver (%s)" % (name, error.strerror or error), None
        with self._lock:
            status["child"] = child
            if self._closed:
                status.setdefault("stop", "the server is stopping")
            if status.get("stop"):
                _kill(child)
        said, buffer = {}, b""
        selector = selectors.DefaultSelector()
        selector.register(child.stdout, selectors.EVENT_READ)
        try:
            while True:
                if selector.select(timeout=0.25):
                    chunk = os.read(child.stdout.fileno(), 1 << 16)
                    if not chunk:
                        break
                    *lines, buffer = (buffer + chunk).split(b"\n")
                    for line in lines:
                        said.update(self._heard(status, line))
                with self._lock:
                    if "stop" not in status and time.monotonic() - status["asked"] > self.idle:
                        status["stop"] = _idle_words(name, self.idle)
                        _kill(child)
        finally:
            selector.close()
            child.stdout.close()
            try:
                child.stdin.close()
            except OSError:
                pass
            code = child.wait()
            with self._lock:
                status.pop("child", None)
        if status.get("stop"):
            from ..engine import store
            from ..engine.solvelock import drop_stale

            drop_stale(os.path.join(store.cache_dir(), name))  # the killed child's lock file
            return None, status["stop"]
        if code == 0 and "ready" in said:
            return None, None
        if "error" in said:
            return said["error"], None
        return "%s: the solver stopped before the table was written (exit status %d%s)" % (
            name, code, ": out of memory?" if code == -9 else ""), None

    @staticmethod
    def _heard(status, line) -> dict:
        """One JSON line of the child: progress is kept in the status (its share before writing), the rest
        returned."""
        try:
            said = json.loads(line)
        except ValueError:
            return {}
        if not isinstance(said, dict):
            return {}
        if "done" in said and "total" in said:
            done, total = int(said["done"]), int(said["total"])
            if total > 0:
                share = total + max(1, total // WRITE_SHARE)
                status["progress"] = (min(done, total), share)  # one tuple: a reader never sees one part new, one old
            return {}
        return {key: str(value) for key, value in said.items() if key in ("ready", "error")}

    def _end(self, name, status, state, error=None):
        """Under the lock: ``name`` is finished (ready, failed or cancelled); the oldest finished are forgotten."""
        status["state"] = state
        status.pop("stop", None)
        if error is not None:
            status["error"] = error
        self._finished.append(name)
        while len(self._finished) > KEPT:
            old = self._finished.popleft()
            if self._status.get(old, {}).get("state") in (READY, FAILED, CANCELLED) and old not in self._finished:
                del self._status[old]
        self._lock.notify_all()


def _asked(status, page) -> None:
    """Under the lock: someone asked about a solve now, ``page`` (its word, or None) among those waiting."""
    now = status["asked"] = time.monotonic()
    if page is not None:
        pages = status.setdefault("pages", {})
        pages.pop(page, None)  # the most recent last
        pages[page] = now
        while len(pages) > PAGES:
            del pages[next(iter(pages))]


def _full(progress):
    """The progress of a table written and verified: all done (0 of 0 for a solver that reports none)."""
    done, total = progress or (0, 0)
    return (total, total)


def _raised(memory: int) -> str:
    """A --solve-limit value just above ``memory``: ``5GB``, ``700MB``."""
    for unit, size in (("GB", 10**9), ("MB", 10**6)):
        if memory >= size:
            return "%d%s" % (-(-memory // size), unit)
    return "1MB"


def _idle_words(name, idle) -> str:
    return "the solve of %s was stopped: nobody asked about it for %g second%s" % (name, idle, "" if idle == 1 else "s")


def _kill(child) -> None:
    """Stop a child at once (its memory goes back to the system); one already gone is no error."""
    try:
        child.kill()
    except OSError:
        pass


def _named(name, error) -> str:
    """One line saying why ``name`` cannot be had, in the command line's words."""
    from ..engine.text import one_line
    from ..errors import ShutTheBoxError

    text = str(error) if isinstance(error, ShutTheBoxError) else "cannot solve table %s: %s" % (
        name, str(error) or type(error).__name__)
    text = one_line(" ".join(text.split()))
    return text if name in text else "%s: %s" % (name, text)


# -- the child: ``python -m shutthebox.web.solving NAME`` -------------------------------------------------------


def child_main(argv) -> int:
    """Solve the table file ``argv[0]`` as the command line would (into the cache), verify every byte, and say
    so on standard output, one JSON object a line: ``{"done", "total"}`` (at most ten a second),
    then ``{"ready": path}`` or ``{"error": "one line"}``. Stops when standard input closes (the server is gone).
    The server checked the estimate against its own limit: the command line's is lifted here."""
    name = argv[0] if len(argv) == 1 else ""
    lock = threading.Lock()

    def say(what):
        with lock:
            sys.stdout.write(json.dumps(what) + "\n")
            sys.stdout.flush()

    def watch():  # the server holds the other end of standard input: end of file, it is gone
        try:  # os.read, not sys.stdin: no lock of a buffered file held at the interpreter's exit
            while os.read(0, 1 << 12):
                pass
        except OSError:
            pass
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()
    last = [0.0]

    def report(done, total):
        now = time.monotonic()
        if done >= total or now - last[0] >= 0.1:
            last[0] = now
            say({"done": done, "total": total})

    try:
        say({"ready": _solve_here(name, report)})
        return 0
    except Exception as error:  # noqa: BLE001 - every failure is the page's one line
        say({"error": _named(name or "?", error)})
        return 1


def _solve_here(name, report) -> str:
    from ..engine import store
    from ..engine.progress import observed
    from ..errors import TableError
    from .tables import check_every_byte

    opener = find_solver(name)
    if opener is None:
        raise TableError("%s is not the name of a table of any game" % name)
    store.ALLOW_LARGE = True
    for attempt in (1, 2):
        with observed(report):
            table = opener()
        try:
            check_every_byte(table.file)
            return table.path
        except TableError:
            cached = os.path.abspath(os.path.dirname(table.path)) == os.path.abspath(store.cache_dir())
            if attempt == 2 or not cached:
                raise
            os.unlink(table.path)  # a damaged table in the cache: solved again
        finally:
            table.close()
    raise AssertionError("unreachable")


if __name__ == "__main__":
    status = child_main(sys.argv[1:])
    sys.stdout.flush()
    os._exit(status)  # at once: the watching thread still reads standard input
