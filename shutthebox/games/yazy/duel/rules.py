"""Two-player yazy's table family (query time): its name's slot, its header's rules and what a solve costs.

Two players play a game of yazy's categories (``--categories``, all eleven by default), one turn each;
the rules are yazy's (``Rules``), the table ``yazy-duel-CATEGORIES.msgpack`` (``yazy-duel.msgpack``: the
full game's).
"""

from ....errors import InvalidQuery
from ..rules import CATEGORIES, fields_of  # noqa: F401 - the family's name slot: yazy's own
from ..rules import rules_of as yazy_rules_of

GAME = "yazy-duel"
# The points each category can score (rules.score over every roll; a test checks them): written out, since
# working them out at query time would cost milliseconds.
POINTS = tuple(tuple(range(0, 6 * face, face)) for face in range(1, 7)) + (
    (0,) + tuple(range(5, 31)), (0,) + tuple(range(5, 31)), (0, 25), (0, 40), (0, 50))
BEST = tuple(max(points) for points in POINTS)  # the most each category scores
# CPU seconds a (state, lead) column costs on one core of the build machine, rounded up (measured: 12.9
# microseconds on the nine-category game threes..yazy, 19 to 26 on six- to eight-category games while the
# machine was loaded).
SECONDS_PER_COLUMN = 20e-6
# Bytes of memory a column costs at the peak, in the process that writes the table: the layers' float64
# values, their concatenation, the fixed-point arrays, then the writer's copies (the full game measured
# 10.18 GB, 33.2 bytes a column; each worker holds a few blocks more, under 1 GB).
MEMORY_PER_COLUMN = 34


def rules_of(fields: dict):
    """yazy's rules of a table name's slots, or of a header's rules (yazy's and ``players: 2``)."""
    fields = dict(fields)
    if fields.pop("players", "2") != "2":
        raise InvalidQuery("a two-player yazy table is of two players")
    return yazy_rules_of(fields)


def header_rules(rules) -> dict:
    """The table header's rules: yazy's, and two players."""
    return dict(rules.as_dict(), players=2)


def columns(cats: int) -> int:
    """The (state, lead) pairs the solver works out (solver.py): each pair of sets ``(A, B)`` with
    ``|A| = |B|`` or ``|A| = |B| + 1``, leads from ``-min(most(A), most(S - B))`` to ``min(most(B),
    most(S - A))``."""
    from bisect import bisect_left

    opened = [c for c in range(len(CATEGORIES)) if cats >> c & 1]
    most_of = {0: 0}
    for c in opened:  # every subset's most, one category at a time
        most_of.update({mask | 1 << c: most + BEST[c] for mask, most in most_of.items()})
    total = most_of[cats]
    by_size: dict = {}
    for mask, most in most_of.items():
        by_size.setdefault(bin(mask).count("1"), []).append(most)

    def sum_min(xs, ys) -> int:  # the sum of min(x, y) over every pair
        ys = sorted(ys)
        below = [0]
        for y in ys:
            below.append(below[-1] + y)
        out = 0
        for x in xs:
            k = bisect_left(ys, x)
            out += below[k] + x * (len(ys) - k)
        return out

    n, out = len(opened), 0
    for a, b in [(b + 1, b) for b in range(n)] + [(b, b) for b in range(1, n + 1)]:
        movers, others = by_size[a], by_size[b]
        out += sum_min(movers, [total - most for most in others]) + sum_min(others, [total - most for most in movers])
        out += len(movers) * len(others)
    return out


def estimate(rules):
    """What solving the table costs: its bytes (at most 6 a column, the few chances within 1e-15 of 0 or 1
    trimmed aside, and 8 a pair of sets), memory (``MEMORY_PER_COLUMN``) and time on one core
    (``SECONDS_PER_COLUMN``). The layers' checkpoints take 8 bytes a column on disk while it is solved."""
    from ....engine.game import Estimate

    n = bin(rules.mask).count("1")
    size = columns(rules.mask) * 6 + 8 * 4**n + 10**4
    return Estimate(size, columns(rules.mask) * MEMORY_PER_COLUMN + 200 * 10**6,
                    columns(rules.mask) * SECONDS_PER_COLUMN + 0.2)
