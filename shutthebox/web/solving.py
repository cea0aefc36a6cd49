"""Tables solved on first use for the page: ``POST /solve/NAME.msgpack`` starts one, ``GET`` follows it.

NAME is a table file's name; each registry game's declaration (``Game.opener``)
says whether the name is one of its tables and gives the call that opens it as
the command line does (solving and caching it when missing, with the same
limits and messages). One worker thread solves one table at a time; at most
``WAITING`` more wait their turn, beyond that the answer is "busy" (503). The
request threads only read and change the status: they never wait for a solve.
Progress comes from the solver's ``engine.progress.Progress`` bars
(``observed``); a solver that reports none leaves ``done`` and ``total`` at 0.
"""

from __future__ import annotations

import collections
import sys
import threading

from .tables import PROG

WAITING = 4  # names queued behind the one being solved
KEPT = 64  # finished statuses remembered for the page to read (failures, the last progress)
READY, QUEUED, SOLVING, FAILED = "ready", "queued", "solving", "failed"
ABSENT = "absent"  # not solved, not asked for


def find_solver(name: str):
    """The registry game's call that opens (solving on first use) the table file ``name``; None for a
    name no game has. Raises ``InvalidQuery`` for rules the command line refuses."""
    from .. import registry

    for game in registry.declarations():
        solve = game.opener(name)
        if solve is not None:
            return solve
    return None


class Solves:
    """The statuses of the tables asked for, and the worker that solves them in turn.

    ``routes`` (a ``tables.Routes``) says whether a table is already there to serve.
    """

    def __init__(self, routes, find=find_solver):
        self.routes = routes
        self.find = find
        self._status: dict = {}  # name -> {"state", "progress": (done, total), "error"}
        self._queue: collections.deque = collections.deque()  # (name, solve), first in, first out
        self._finished: collections.deque = collections.deque()  # names finished, oldest first
        self._lock = threading.Condition()
        self._worker = None

    def status(self, name: str) -> tuple[int, dict]:
        """(HTTP status, JSON object) for ``GET /solve/NAME``."""
        with self._lock:
            known = self._status.get(name)
            if known is not None and known["state"] in (QUEUED, SOLVING):
                return 200, self._shown(name, known)
        if self.routes.path("/" + name):  # shipped, cached, or solved here (with its last progress)
            return 200, self._shown(name, {"state": READY, "progress": (known or {}).get("progress", (0, 0))})
        with self._lock:
            known = self._status.get(name)
            if known is not None and known["state"] == FAILED:
                return 200, self._shown(name, known)
        refused = self._solver(name)[1]
        if refused:
            return refused
        return 404, self._shown(name, {"state": ABSENT})

    def start(self, name: str) -> tuple[int, dict]:
        """(HTTP status, JSON object) for ``POST /solve/NAME``: queue the solve unless the table is there
        or on its way."""
        with self._lock:
            known = self._status.get(name)
            if known is not None and known["state"] in (QUEUED, SOLVING):
                return 200, self._shown(name, known)
        if self.routes.path("/" + name):
            return 200, self._shown(name, {"state": READY})
        solve, refused = self._solver(name)
        if refused:
            return refused
        with self._lock:
            known = self._status.get(name)
            if known is not None and known["state"] in (QUEUED, SOLVING):
                return 200, self._shown(name, known)  # another request queued it meanwhile
            if len(self._queue) >= WAITING:
                return 503, self._shown(name, {"state": FAILED, "error": "busy: %d tables are waiting to be "
                                               "solved; try again when one is ready" % len(self._queue)})
            known = self._status[name] = {"state": QUEUED}
            self._queue.append((name, solve))
            if self._worker is None:  # started on first use: a server never asked to solve runs no extra thread
                self._worker = threading.Thread(target=self._work, name="solve", daemon=True)
                self._worker.start()
            self._lock.notify()
            return 202, self._shown(name, known)

    def _solver(self, name):
        """(the call that solves ``name``, None), or (None, (status, JSON)) when no game has a table
        ``name`` (404) or the command line refuses its rules (400)."""
        from ..errors import ShutTheBoxError

        try:
            solve = self.find(name)
        except ShutTheBoxError as error:
            return None, (400, self._shown(name, {"state": FAILED, "error": _named(name, error)}))
        if solve is None:
            return None, (404, self._shown(name, {"state": FAILED, "error": "%s is not the name of a table of any "
                                                  "game (ShutTheBox --help lists them)" % name}))
        return solve, None

    @staticmethod
    def _shown(name, status) -> dict:
        done, total = status.get("progress", (0, 0))
        shown = {"name": name, "state": status["state"], "done": done, "total": total}
        if status["state"] == FAILED:
            shown["error"] = status["error"]
        return shown

    def _work(self):
        from ..engine.progress import observed

        while True:
            with self._lock:
                while not self._queue:
                    self._lock.wait()
                name, solve = self._queue.popleft()
                status = self._status[name]
                status["state"] = SOLVING

            def report(done, total, status=status):
                status["progress"] = (done, total)  # one tuple: a reader never sees one part new, one old

            error = None
            try:
                with observed(report):
                    solve().close()
            except Exception as failure:  # noqa: BLE001 - a failed solve is the page's message, never the server's end
                error = _named(name, failure)
                sys.stderr.write("%s: %s\n" % (PROG, error.encode("ascii", "backslashreplace").decode()))
            with self._lock:
                if error is None:
                    status["state"] = READY  # Routes serves the table now
                else:
                    status.update(state=FAILED, error=error)
                self._finished.append(name)
                while len(self._finished) > KEPT:
                    old = self._finished.popleft()
                    if self._status.get(old, {}).get("state") in (READY, FAILED) and old not in self._finished:
                        del self._status[old]


def _named(name, error) -> str:
    """One line saying why ``name`` cannot be had, in the command line's words."""
    from ..errors import ShutTheBoxError

    text = str(error) if isinstance(error, ShutTheBoxError) else "cannot solve table %s: %s" % (
        name, str(error) or type(error).__name__)
    text = " ".join(text.split())
    return text if name in text else "%s: %s" % (name, text)
