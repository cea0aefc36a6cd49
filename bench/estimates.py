#!/usr/bin/env python3
"""A first-use solve's estimated time against its measured time, for the games that solve on first use.

    python3 bench/estimates.py                     # the tables below
    python3 bench/estimates.py goat-g50 toggle-c12-s12   # any table names (without .msgpack)

A solve estimated over a second says so before it starts (engine/store.py ``SAY_AFTER``), and over ten
seconds shows its time while it runs: this checks that the estimates (each family's ``rules.estimate``)
stay on the right side of those lines. Each figure is one solve and encode in this process, the cost a
user waits for on first use, bar starting Python.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from shutthebox import registry  # noqa: E402
from shutthebox.engine.game import Solve  # noqa: E402

TABLES = ("toggle-c10-s6", "toggle-c12-s6", "toggle-c12-s12", "toggle-c14-s8", "pig-pig-g20-s6", "pig-pig-g50-s6",
          "pig-pig-g100-s6", "goat-g20", "goat-g50", "goat-g100", "threes-d6-s8", "threes-d7-s10", "threes-d8-s12",
          "yazy-ones.twos.threes.fours.fives.sixes", "t9-2d6-p2", "t10-2d6-one6-p3", "t12-2d6-one6-p3",
          "solo-t12-2d6-one6", "solo-t12-4d20")


def solve(name: str) -> Solve:
    """The first-use solve of the table file ``name``."""
    for game in registry.declarations():
        for family in game.tables:
            rules = family.parse(name + ".msgpack")
            if rules is not None:
                return Solve(family, rules, {})
    raise SystemExit("bench/estimates.py: no game has a table named %s" % name)


def main(names) -> None:
    print("| table | estimated | measured | measured / estimated |")
    print("|---|---|---|---|")
    for name in names:
        job = solve(name)
        job.prepare()  # the solver's imports are not the solve's time
        estimate = job.estimate()
        started = time.perf_counter()
        job()
        spent = time.perf_counter() - started
        print("| %s | %.2f s | %.2f s | %.2f |" % (name, estimate.seconds, spent, spent / estimate.seconds), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or TABLES)
