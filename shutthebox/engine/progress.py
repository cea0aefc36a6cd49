"""A progress bar on standard error, drawn only when it is a terminal; and who else is told.

``observed(callback)`` lets a caller follow every bar made inside it (in this
thread or task: a context variable), whatever the terminal shows: ``serve``
reports a table's solving to the page this way.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
import threading
import time

# callback(done, total) of the bars made in this context, or None.
_OBSERVER: contextvars.ContextVar = contextvars.ContextVar("shutthebox_progress_observer", default=None)
# Bars drawing on a terminal now, in any thread: a ticker (``ticking``) keeps quiet while one draws.
_DRAWING = [0]


@contextlib.contextmanager
def observed(callback):
    """``with observed(callback): ...``: every ``Progress`` made inside calls ``callback(done, total)``
    on each update, drawn or not."""
    token = _OBSERVER.set(callback)
    try:
        yield
    finally:
        _OBSERVER.reset(token)


class Progress:
    """``with Progress(total, "greedy") as bar: bar.update(done)``.

    Silent when the stream is not a terminal (pipes, files, CI logs); redraws
    at most ten times a second; clears its line when closed.
    """

    def __init__(self, total: int, label: str = "", stream=None, unit: str = "games", enabled=None, begun: int = 0):
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            try:
                enabled = self.stream.isatty()
            except (AttributeError, ValueError):
                enabled = False
        self.enabled = enabled
        if enabled:
            _DRAWING[0] += 1
        self.total = max(total, 1)
        self.label = label
        self.unit = unit
        self.started = time.perf_counter()
        self.begun = begun  # done before this run started (a resumed build): not in the rate
        self._drawn = 0.0
        self.observer = _OBSERVER.get()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def update(self, done: int) -> None:
        if self.observer is not None:
            self.observer(done, self.total)
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self._drawn < 0.1 and done < self.total:
            return
        self._drawn = now
        fraction = min(done / self.total, 1.0)
        width = 30
        filled = int(fraction * width)
        rate = (done - self.begun) / (now - self.started) if now > self.started else 0.0
        left = " %s left" % _duration((self.total - done) / rate) if rate > 0 and done < self.total else ""
        self.stream.write(
            "\r%-14s [%s%s] %3d%%  %s %s/s%s " % (
                self.label[:14], "#" * filled, "." * (width - filled), fraction * 100, _short(rate), self.unit, left)
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.enabled = False
            _DRAWING[0] -= 1


# A solve estimated longer than this shows its time while it runs (``ticking``).
TICK_AFTER = 10.0


@contextlib.contextmanager
def ticking(label: str, seconds: float, stream=None):
    """``with ticking("goat-g150.msgpack", 30): solve()``: while the body runs, a line on a terminal with
    the time spent and the time estimated (``seconds``; nothing under ``TICK_AFTER``), for a long solve that
    reports no progress of its own. It redraws once a second, keeps quiet while a :class:`Progress` bar
    draws, and clears its line at the end."""
    stream = stream if stream is not None else sys.stderr
    try:
        shown = seconds > TICK_AFTER and stream.isatty()
    except (AttributeError, ValueError):
        shown = False
    if not shown:
        yield
        return
    stop = threading.Event()
    started = time.perf_counter()

    def tick():
        drawn = False
        while not stop.wait(1.0):
            if _DRAWING[0]:
                continue
            spent = time.perf_counter() - started
            stream.write("\rsolving %s: %s of about %s " % (label, _duration(spent), _duration(seconds)))
            stream.flush()
            drawn = True
        if drawn:
            stream.write("\r\033[K")
            stream.flush()

    ticker = threading.Thread(target=tick, name="shutthebox-ticker", daemon=True)
    ticker.start()
    try:
        yield
    finally:
        stop.set()
        ticker.join()


def _short(number: float) -> str:
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if number >= limit:
            return "%.1f%s" % (number / limit, suffix)
    return "%.0f" % number


def _duration(seconds: float) -> str:
    if seconds >= 3600:
        return "%dh%02dm" % divmod(int(seconds) // 60, 60)
    return "%dm%02ds" % divmod(int(seconds), 60) if seconds >= 60 else "%ds" % seconds
