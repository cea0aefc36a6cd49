#!/usr/bin/env python3
"""The speed-up of a layered build (engine/layers.py) from 1 to 2 workers, on a real table.

    python3 bench/layered.py                  # workers 1 and 2 (needs the cluster extra for 2)
    python3 bench/layered.py --workers 1,2,4
    python3 bench/layered.py --duel 6        # two-player yazy of the last 6 categories instead

The job is yazy's target table (``yazy --target``: T(set, x) for the 2^11 sets of open categories
and the 281 targets) solved as a layered job: layer k holds the sets of k open categories, in blocks
of SETS sets; a block reads only layer k-1. Its arithmetic is the target solver's, row for row, so
every run's bytes must equal ``games/yazy/target/build.solve()``'s: the script checks it, then prints
the time of each worker count (the cluster's start included) and the speed-up over one worker.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402

from shutthebox.engine.dicekeep_arrays import Tree, turn_start  # noqa: E402
from shutthebox.engine.layers import Job, run_layers  # noqa: E402
from shutthebox.games.yazy.rules import ALL, CATEGORIES  # noqa: E402
from shutthebox.games.yazy.target import build  # noqa: E402

SETS = 32  # sets a block: up to 32 x 281 rows, about the target solver's ROWS


@functools.lru_cache(maxsize=None)
def _fixed():
    """(keep tree, points of each category and roll, the most each set can score): once a process."""
    points = build.scores()
    best = points.max(axis=1)
    most = np.array([sum(int(best[c]) for c in range(len(CATEGORIES)) if m >> c & 1) for m in range(ALL + 1)])
    return Tree(), points, most


@functools.lru_cache(maxsize=None)
def layer_sets(size: int) -> np.ndarray:
    return np.array([m for m in range(ALL + 1) if bin(m).count("1") == size])


def solve_block(key, previous):
    """T of the sets of block ``part`` of layer ``size`` (a row each, every target), from layer size-1."""
    size, part = key
    masks = layer_sets(size)[part * SETS:(part + 1) * SETS]
    out = np.zeros((len(masks), build.TARGETS))
    out[:, 0] = 1.0
    if previous is None:
        return out
    tree, points, most = _fixed()
    below = np.concatenate(previous)
    row = np.zeros(ALL + 1, dtype=np.int64)
    row[layer_sets(size - 1)] = np.arange(len(layer_sets(size - 1)))
    row[masks] = np.arange(len(masks))  # the same index, into out: the two layers' sets differ
    rows_m = np.repeat(masks, most[masks])
    rows_x = np.concatenate([np.arange(1, most[m] + 1) for m in masks])
    for start in range(0, len(rows_m), build.ROWS):
        m, x = rows_m[start:start + build.ROWS], rows_x[start:start + build.ROWS]
        v0 = np.full((len(points[0]), len(m)), -np.inf)
        for c in range(len(CATEGORIES)):
            open_ = np.flatnonzero(m >> c & 1)
            if not open_.size:
                continue
            need = np.maximum(x[None, open_] - points[c][:, None], 0)
            v0[:, open_] = np.maximum(v0[:, open_], below[row[m[open_] & ~(1 << c)][None, :], need])
        out[row[m], x] = turn_start(tree, v0)
    return out


def job(name: str) -> Job:
    layers = tuple(tuple((size, part) for part in range(-(-len(layer_sets(size)) // SETS)))
                   for size in range(len(CATEGORIES) + 1))
    return Job(name, layers, solve_block)


def table_of(result) -> np.ndarray:
    """The layers' rows in the target table's order (sets increasing)."""
    table = np.zeros((ALL + 1, build.TARGETS))
    for size, blocks in enumerate(result):
        table[layer_sets(size)] = np.concatenate(blocks)
    return table


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2", help="worker counts to time, comma-separated (default 1,2)")
    parser.add_argument("--duel", type=int, metavar="N", help="time instead two-player yazy of the last N categories "
                        "(games/yazy/duel/solver.py's job), its bytes compared between the worker counts")
    args = parser.parse_args(argv)
    counts = [int(word) for word in args.workers.split(",")]
    if args.duel:
        return duel(args.duel, counts)
    import layered  # this script by its module name: the workers find solve_block by it, not in __main__

    started = time.perf_counter()
    reference = build.solve(ALL).tobytes()
    print("yazy target solver, in this process: %.1f s" % (time.perf_counter() - started))
    first = None
    for count in counts:
        started = time.perf_counter()
        result = run_layers(layered.job("bench-yazy-target-w%d" % count), workers=count, progress=False, serial_seconds=0)
        seconds = time.perf_counter() - started
        same = table_of(result).tobytes() == reference
        first = first or seconds
        print("layered, %d worker%s: %.1f s, speed-up %.2f, bytes %s" % (
            count, "" if count == 1 else "s", seconds, first / seconds, "equal" if same else "DIFFER"))
        if not same:
            return 1
    print("load average at the end: %.2f %.2f %.2f" % os.getloadavg())
    return 0


def duel(size: int, counts) -> int:
    from shutthebox.games.yazy.duel import solver

    cats = ALL ^ ((1 << (len(CATEGORIES) - size)) - 1)
    first = reference = None
    for count in counts:
        started = time.perf_counter()
        result = solver.solve(cats, workers=count, progress=False, serial_seconds=0, checkpoint=None)
        seconds = time.perf_counter() - started
        data = [block.tobytes() for layer in result for block in layer]
        reference, first = reference or data, first or seconds
        print("two-player yazy, the last %d categories, %d worker%s: %.1f s, speed-up %.2f, bytes %s" % (
            size, count, "" if count == 1 else "s", seconds, first / seconds, "equal" if data == reference
            else "DIFFER"))
        if data != reference:
            return 1
    print("load average at the end: %.2f %.2f %.2f" % os.getloadavg())
    return 0


if __name__ == "__main__":
    sys.exit(main())
