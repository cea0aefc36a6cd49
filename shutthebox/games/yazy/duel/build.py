"""Two-player yazy's table (build time; numpy): solve the layers, then lay the rows out for questions.

The file's arrays (docs/YAZY.md, "Two players"), for a game of n categories: a pair of sets ``(A, B)`` is
numbered ``A' * 2^n + B'``, where ``A'`` keeps the bits of ``A`` at the game's categories (in their
order); ``start``, ``first`` and ``count`` (4^n each) say where the pair's row is in the chances and
which leads it holds: ``W(A, B, d)`` is chance ``start + d - first`` for ``first <= d < first + count``,
0 below, 1 above. Pairs that are not states (sizes other than equal or one more for the mover) have
``count`` 0. A chance is stored in 48-bit fixed point, ``round(W * 2^48)`` (1 kept as ``2^48 - 1``),
split into ``win_high`` (its high 32 bits) and ``win_low`` (its low 16): six bytes a chance instead of
float64's eight puts the full game under 2 GB, and the rounding (at most 2^-48, 3.6e-15) stays inside
the error bound (solver.py). ``unsure`` lists, in
increasing order, the positions of the chances lying within the error bound of a 6-decimal rounding
midpoint: questions on them are refused (as Pig's are).
"""

import os

import numpy as np

from ....engine.printing import check_printing
from ....engine.writer import Spool, encode_to
from .rules import GAME, header_rules
from .solver import ERROR_BOUND, SOLVER_VERSION, job_layers, plan, solve, split

# More values this near a rounding midpoint than this means something is wrong, not bad luck (about
# 4e-7 of the full game's 3e8 values are expected there).
MAX_UNSURE = 10_000
SCALE = float(1 << 48)  # a stored chance is round(W * 2^48), 1 kept as 2^48 - 1: a step of 3.6e-15
CHUNK = 1 << 22  # values a step of the fixed-point pass and the printing check handles: the full game's are 2 GB


def compress(mask: int, opened: list) -> int:
    """``mask``'s bits at the categories ``opened``, packed in their order."""
    return sum(1 << j for j, c in enumerate(opened) if mask >> c & 1)


def fixed_point(win, chunk: int = CHUNK) -> tuple:
    """(high, low): the chances ``win`` (float64) in 48-bit fixed point, split into uint32 and uint16."""
    high, low = np.empty(len(win), dtype="<u4"), np.empty(len(win), dtype="<u2")
    for start in range(0, len(win), chunk):
        # W * 2^48 is exact, and so is its rounding to an integer (below 2^53)
        fixed = np.minimum(np.rint(win[start:start + chunk] * SCALE), SCALE - 1).astype(np.int64)
        high[start:start + chunk] = fixed >> 16
        low[start:start + chunk] = fixed & 0xFFFF
    return high, low


def stored(high, low) -> np.ndarray:
    """The chances a reader gets from ``high`` and ``low``: ``(high * 2^16 + low) / 2^48``, exactly."""
    return (high.astype(np.int64) << 16 | low) / SCALE


def unsure_indexes(high, low, chunk: int = CHUNK, first: int = 0) -> np.ndarray:
    """The positions (from ``first``) of the stored chances within the error bound of a 6-decimal rounding
    midpoint (the printing check's distance); the rest are checked to print right. A chunk at a time: the
    full game's are gigabytes."""
    found = []
    for start in range(0, len(high), chunk):
        part = stored(high[start:start + chunk], low[start:start + chunk])
        scaled = part * 1e6
        near = np.flatnonzero(np.abs(scaled - np.floor(scaled) - 0.5) * 1e-6 <= ERROR_BOUND)
        check_printing(np.delete(part, near), ERROR_BOUND, "yazy duel")  # the rest: proven to print right
        found.append(first + start + near)
    return too_many(np.concatenate(found) if found else np.zeros(0, dtype=np.int64))


def too_many(unsure):
    """``unsure``, unless it is too long to be bad luck (the build fails)."""
    if len(unsure) > MAX_UNSURE:
        raise AssertionError("yazy duel: %d values lie within the error bound %.3g of a rounding midpoint"
                             % (len(unsure), ERROR_BOUND))
    return unsure


def arrays(cats: int, layers, high: Spool, low: Spool) -> dict:
    """The table's arrays from the solved layers (``layers``: each layer's blocks, in order, as
    ``run_layers`` gives them or reads them back a block at a time); the chances' two parts are gathered
    in ``high`` and ``low``, a block at a time."""
    p = plan(cats)
    n = len(p.opened)
    start = np.zeros(4**n, dtype=np.int64)
    first = np.zeros(4**n, dtype=np.int64)
    count = np.zeros(4**n, dtype=np.int64)
    unsure, at = [], 0
    for keys, blocks in zip(job_layers(cats), layers):
        for (_, a, b, key), block in zip(keys, blocks):
            rows = p.rows(a, b, key)
            firsts, counts, values = split(block, len(rows))
            codes = np.array([compress(mover, p.opened) << n | compress(other, p.opened) for mover, other in rows])
            start[codes] = at + np.concatenate(([0], np.cumsum(counts)[:-1]))
            first[codes], count[codes] = firsts, counts
            if not ((values >= 0) & (values <= 1)).all():
                raise AssertionError("yazy duel: a chance outside [0, 1]")
            high_part, low_part = fixed_point(values)
            unsure.append(unsure_indexes(high_part, low_part, first=at))
            high.append(high_part)
            low.append(low_part)
            at += len(values)
    if at >= 1 << 32:
        raise AssertionError("yazy duel: %d values do not fit 32-bit positions" % at)
    return {"start": start.astype("<u4"), "first": first.astype("<i2"), "count": count.astype("<u2"),
            "win_high": high, "win_low": low, "unsure": too_many(np.concatenate(unsure)).astype("<u4")}


# The file's arrays, in their order, and their types.
ARRAYS = {"start": "<u4", "first": "<i2", "count": "<u2", "win_high": "<u4", "win_low": "<u2", "unsure": "<u4"}


def solve_table(rules, workers=None, out=None, **options) -> bytes | None:
    """Solve, check and encode the table of ``rules`` (yazy's: the categories played): its bytes, or with
    ``out`` (a path) written there a part at a time, the chances spooled beside it (the full game's are 1.8
    GB); ``workers`` and ``options`` go to the layered engine (``solver.solve``)."""
    cats = rules.mask
    folder = None if out is None else os.path.dirname(os.path.abspath(out))

    def take(layers):
        with Spool(folder) as high, Spool(folder) as low:
            found = arrays(cats, layers, high, low)
            chances = high.size // 4  # uint32s
            packed = {name: {"dtype": dtype, "data": found[name],
                             "shape": (chances,) if name.startswith("win_") else found[name].shape}
                      for name, dtype in ARRAYS.items()}
            return encode_to(out, GAME, header_rules(rules), packed, fields={"error_bound": "%g" % ERROR_BOUND},
                             generator="shutthebox yazy duel solver %d" % SOLVER_VERSION)

    return solve(cats, workers=workers, collect=take, **options)


def main(argv=None) -> int:
    """``python -m shutthebox.games.yazy.duel.build CATEGORIES [WORKERS]``: solve the table of a game (not
    written anywhere) and print what it cost: the measurement behind ``rules.SECONDS_PER_COLUMN``."""
    import resource
    import sys
    import time

    from ..rules import Rules
    from .rules import columns

    argv = sys.argv[1:] if argv is None else argv
    rules = Rules(categories=argv[0] if argv else "sixes,three-kind,four-kind,full-house,straight,yazy")
    workers = int(argv[1]) if len(argv) > 1 else 1
    started, cpu = time.perf_counter(), time.process_time()
    layers = solve(rules.mask, workers=workers, progress=True)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    with Spool() as high, Spool() as low:
        found = arrays(rules.mask, layers, high, low)
    count = columns(rules.mask)
    first, _, values = split(layers[-1][0], 1)
    print("%s, %d worker(s): %.1f s, %.1f s of this process's CPU (%.1f us a column of %d), %d chances stored, "
          "%d unsure, peak %.0f MB; the first player's chance %.6f"
          % (rules.categories, workers, wall, cpu, cpu / count * 1e6, count, high.size // 4, len(found["unsure"]),
             resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3, values[-int(first[0])]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
