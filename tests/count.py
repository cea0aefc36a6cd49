#!/usr/bin/env python3
"""Count the tests: all of them, the slow ones and the quick subset (docs/TESTS.md's figures come from here).

    python tests/count.py              # the counts, from pytest's own collection (nothing is run)
    python tests/count.py --time       # and the quick subset run, timed: python -m pytest -m "not slow"
    python tests/count.py --time all   # and the whole suite run, timed: python -m pytest

A test is slow when it carries the ``slow`` marker after tests/conftest.py has marked the browser, Node.js
and server tests (``pytest -m "not slow"`` leaves out exactly these).
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class _Collected:
    """A pytest plugin that keeps the collected items, once conftest.py has marked them."""

    def __init__(self):
        self.items: list = []

    def pytest_collection_finish(self, session):
        self.items = list(session.items)


def counts() -> dict:
    """{"tests": N, "slow": S, "quick": N - S}, from pytest's collection of tests/."""
    import pytest

    collected = _Collected()
    with open(os.devnull, "w") as quiet, contextlib.redirect_stdout(quiet):  # pytest's list of the tests
        status = pytest.main(["--collect-only", "-p", "no:cacheprovider", HERE], plugins=[collected])
    if status not in (0, 5):  # 5: no tests
        raise SystemExit("count.py: pytest could not collect the tests (status %d): run python -m pytest "
                         "--collect-only to see why" % status)
    slow = sum(1 for item in collected.items if item.get_closest_marker("slow") is not None)
    return {"tests": len(collected.items), "slow": slow, "quick": len(collected.items) - slow}


def timed(which: str) -> tuple[float, str]:
    """(seconds, pytest's last line) of running the quick subset (``quick``) or every test (``all``)."""
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider"]
    if which == "quick":
        command += ["-m", "not slow"]
    start = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    lines = [line.strip("= ") for line in done.stdout.splitlines() if " in " in line and ("passed" in line
                                                                                          or "failed" in line)]
    return time.monotonic() - start, lines[-1] if lines else "(no summary: run the command to see why)"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] not in ([], ["--time"]) or len(argv) > 2 or (len(argv) == 2 and argv[1] not in ("quick", "all")):
        print("usage: python tests/count.py [--time [quick|all]]", file=sys.stderr)
        return 2
    found = counts()
    print("tests: %d" % found["tests"])
    print("slow:  %d" % found["slow"])
    print('quick: %d  (python -m pytest -m "not slow")' % found["quick"])
    if argv:
        which = argv[1] if len(argv) == 2 else "quick"
        seconds, last = timed(which)
        print("time:  %d min %02d s for %s: %s" % (seconds // 60, seconds % 60,
                                                  "the quick subset" if which == "quick" else "every test", last))
    return 0


if __name__ == "__main__":
    sys.exit(main())
