"""Yahtzee's target tables (build time): solve (``solver.py``), list the values too near a rounding
midpoint to print, encode. ``solve_table(joker, start=...)`` solves the game from a turn-start state only
(the states it reaches): a reduced table, for tests and late-game questions."""

import os

import numpy as np

from ....engine.printing import check_printing
from ....engine.writer import Spool, encode_to
from ..rules import ALL, OPEN, rules_dict, states
from .solver import ABSOLUTE_BOUND, CUT, ERROR_BOUND, SOLVER_VERSION, TIE, game_of, solve

GAME = "yahtzee-target"
GENERATOR = "shutthebox yahtzee target solver %d" % SOLVER_VERSION
MAX_UNSURE = 10_000  # more values this near a rounding midpoint means something is wrong, not bad luck
FULL = (ALL, 0, OPEN)  # the whole game's start: every box open, nothing scored
NOWHERE = 2**32 - 1  # the position of a state a reduced table does not hold


def unsure_indexes(values, chunk: int = 1 << 22, first: int = 0) -> list:
    """The indexes (from ``first``) of the stored chances within their error bound of a 6-decimal rounding
    midpoint (refused when asked); the build fails if there are many, if any other could print wrong, or if
    a chance lies outside [CUT, 1]. A chunk at a time: the whole table's temporaries would double its memory."""
    unsure = []
    for start in range(0, len(values), chunk):
        part = values[start:start + chunk]
        if not ((part >= CUT) & (part <= 1)).all():
            raise AssertionError("yahtzee target: a stored chance outside [CUT, 1]")
        scaled = part * 1e6
        distance = np.abs(scaled - np.floor(scaled) - 0.5) * 1e-6
        near = np.flatnonzero(distance <= part * ERROR_BOUND + ABSOLUTE_BOUND)
        unsure.extend((near + first + start).tolist())
        if len(unsure) > MAX_UNSURE:
            raise AssertionError("yahtzee target: over %d chances lie within their error bound of a rounding "
                                 "midpoint" % MAX_UNSURE)
        rest = np.delete(part, near)
        check_printing(rest, rest * ERROR_BOUND + ABSOLUTE_BOUND, "yahtzee target")
    return unsure


def solve_table(joker: str, start: tuple = FULL, progress=True, workers=None, cluster=None, out=None,
                **options) -> bytes | None:
    """Solve, check and encode the target table of the joker rule ``joker`` for the game from ``start``
    (card, upper total capped at 63, yahtzee box: rules.OPEN, ZERO, FIFTY): its bytes, or with ``out`` (a
    path) written there a part at a time, the chances spooled beside it (the full game's are 1.7 GB).
    ``workers``, ``cluster``: where its blocks run (engine/layers.py; ``SHUTTHEBOX_WORKERS``,
    ``SHUTTHEBOX_CLUSTER``), the same bytes; ``options`` (``checkpoint``, ``serial_seconds``) go to
    ``run_layers``."""
    start = tuple(int(part) for part in start)

    def take(ids, blocks):
        with Spool(None if out is None else os.path.dirname(os.path.abspath(out))) as chances:
            return _table(joker, start, ids, blocks, chances, out)

    return solve(joker, start, take, progress, workers, cluster, **options)


def _table(joker: str, start: tuple, ids, blocks, chances: Spool, out):
    """The table from the solved ``blocks`` ((n, values) of each, in order), the chances gathered in
    ``chances`` and their unsure indexes listed on the way."""
    counts, unsure, total = [], [], 0
    for n, values in blocks:
        unsure.extend(unsure_indexes(values, first=total))
        if len(unsure) > MAX_UNSURE:
            raise AssertionError("yahtzee target: over %d chances lie within their error bound of a rounding "
                                 "midpoint" % MAX_UNSURE)
        chances.append(np.ascontiguousarray(values, dtype="<f8"))
        counts.append(n)
        total += len(values)
    n = np.concatenate(counts)
    offsets = np.zeros(len(ids) + 1, dtype=np.int64)
    np.cumsum(n, out=offsets[1:])
    if offsets[-1] >= 1 << 32:
        raise AssertionError("yahtzee target: too many values for 32-bit offsets")
    position = np.full(states(joker), NOWHERE, dtype="<u4")
    position[ids] = np.arange(len(ids))
    canon = game_of(joker, start)[1]
    shared = np.flatnonzero(canon >= 0)
    position[shared] = position[canon[shared]]  # a state whose upper total no longer matters: its stand-in's
    arrays = {"position": {"dtype": "<u4", "shape": (len(position),), "data": position},
              "offsets": {"dtype": "<u4", "shape": (len(offsets),), "data": offsets.astype("<u4")},
              "chance": {"dtype": "<f8", "shape": (total,), "data": chances}}
    # Text, not floats: the header stays free of types a question would need struct for.
    fields = {"error_bound": "%g" % ERROR_BOUND, "absolute_bound": "%g" % ABSOLUTE_BOUND, "cut": "%r" % CUT,
              "tie": "%g" % TIE, "start": "%d,%d,%d" % start, "unsure": ",".join(map(str, unsure))}
    return encode_to(out, GAME, rules_dict(joker), arrays, generator=GENERATOR, fields=fields)


def main(argv=None) -> int:
    """``python -m shutthebox.games.yahtzee.target.build [--joker RULE] CARD [--upper N] [--yahtzee-box 50|0]
    --out FILE``: the reduced target table of the game from that turn-start state, for ``--table FILE``."""
    import argparse

    from ....engine.command import guarded
    from ..rules import categories, upper_total, yahtzee_box
    from .rules import rules_of

    parser = argparse.ArgumentParser(prog="python -m shutthebox.games.yahtzee.target.build",
                                     description="Solve Yahtzee's target table of the game from one card.")
    parser.add_argument("card", help="the open boxes, as the questions write them")
    parser.add_argument("--joker", default="official")
    parser.add_argument("--upper", default="0", help="points scored in ones..sixes")
    parser.add_argument("--yahtzee-box", default=None, help="50 or 0, when yahtzee is closed")
    parser.add_argument("--workers", default=None, help="engine/layers.py: 1 runs here")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)

    def work():
        joker = rules_of({"joker": args.joker})
        card = categories(args.card, joker)
        start = (card, min(upper_total(args.upper, card), 63), yahtzee_box(args.yahtzee_box, card, joker))
        solve_table(joker, start, workers=args.workers, out=args.out)
        return 0

    return guarded(work)


if __name__ == "__main__":
    raise SystemExit(main())
