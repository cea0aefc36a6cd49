"""Two-player yazy's table family (query time): its name's slot, its header's rules and what a solve costs.

Two players play a game of yazy's categories (``--categories``, all eleven by default), one turn each;
the rules are yazy's (``Rules``), the table ``yazy-duel-CATEGORIES.msgpack`` (``yazy-duel.msgpack``: the
full game's).
"""

from ....engine.text import as_whole, shown, shown_value
from ....errors import InvalidQuery
from ..rules import CATEGORIES, Sets, fields_of, format_categories  # noqa: F401 - fields_of: yazy's name slot
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
# Memory at the peak, in the process that builds the table: the layer being solved and the one it reads,
# float64 (the two largest together hold 35 to 42% of a game's columns), with Dask workers the scheduler's
# copy of the one read (each worker holds a layer of its own), and 32 bytes a pair of sets (their rows'
# places, int64 then stored); the chances go to disk a block at a time. Measured in one process: 86 MB for
# eight categories, 138 MB for nine, so about 1.1 GB for the full game (it took 10.2 GB when every layer and
# the table's bytes were held; bench/README.md, "Big builds within 4 GB").
MEMORY_PER_COLUMN = 4
MEMORY_PER_PAIR = 32


def rules_of(fields: dict):
    """yazy's rules of a table name's slots, or of a header's rules (yazy's and ``players: 2``)."""
    fields = dict(fields)
    if fields.pop("players", "2") != "2":
        raise InvalidQuery("a two-player yazy table is of two players")
    return yazy_rules_of(fields)


def header_rules(rules) -> dict:
    """The table header's rules: yazy's, and two players."""
    return dict(rules.as_dict(), players=2)


def over(d: int) -> float:
    """The mover's chance to win once no category is open for either player: the higher total wins, a tie is half."""
    return 1.0 if d > 0 else 0.5 if d == 0 else 0.0


class Positions:
    """A two-player question's words (query time, no table): the open sets and the totals, checked."""

    def __init__(self, rules):
        self.rules = rules
        self.cats = cats = rules.mask
        self.opened = [c for c in range(len(CATEGORIES)) if cats >> c & 1]
        self.sets = Sets(rules)  # yazy's words for a set of categories
        self._open: dict = {}
        self._totals: dict = {}  # closed set -> the totals it can make, as the bits of an int

    def open_set(self, cats, whose: str) -> int:
        """The bitmask of the categories ``cats`` (``all``: every category of the game)."""
        mask = self._open.get((cats, whose)) if isinstance(cats, str) else None
        if mask is not None:
            return mask
        mask = self.sets.categories(cats)
        if isinstance(cats, str) and len(self._open) < 1 << 12:
            self._open[cats, whose] = mask
        return mask

    def state(self, mine, theirs, scores) -> tuple:
        """(A, B, d), checked: the sizes of a mover first or second in the round (or both none: the game is
        over), totals the closed categories can make."""
        mover, other = self.open_set(mine, "the mover's"), self.open_set(theirs, "the opponent's")
        a, b = bin(mover).count("1"), bin(other).count("1")
        if not (a == b or a == b + 1):
            raise InvalidQuery("the mover has %d categor%s open and the opponent %d: the mover is first in the "
                               "round (as many open) or second (one more)" % (a, "y" if a == 1 else "ies", b))
        totals = self.totals(scores)
        for total, mask, whose in ((totals[0], mover, "the mover's"), (totals[1], other, "the opponent's")):
            closed = self.cats & ~mask
            most = sum(BEST[c] for c in self.opened if closed >> c & 1)
            if total > most:
                raise InvalidQuery("%s total %d is more than its closed categories can score (%d)"
                                   % (whose, total, most))
            if not self.reachable(closed) >> total & 1:
                raise InvalidQuery("%s total %d is not a sum its closed categories (%s) can score"
                                   % (whose, total, format_categories(closed)))
        return mover, other, totals[0] - totals[1]

    def reachable(self, closed: int) -> int:
        """The totals the categories ``closed`` can score together, as the bits of an int."""
        bits = self._totals.get(closed)
        if bits is None:
            bits = 1
            for c in self.opened:
                if closed >> c & 1:
                    sums = 0
                    for points in POINTS[c]:
                        sums |= bits << points
                    bits = sums
            self._totals[closed] = bits
        return bits

    @staticmethod
    def totals(scores) -> tuple:
        if isinstance(scores, str):
            parts = scores.split(",")
            if len(parts) != 2 or not all(part.isascii() and part.isdigit() and len(part) <= 6 for part in parts):
                raise InvalidQuery("scores '%s': write the two totals, the mover's then the opponent's, as S1,S2 "
                                   "(whole numbers, 0 or more), such as 120,95" % shown(scores))
            return int(parts[0]), int(parts[1])
        try:
            pair = tuple(as_whole(score) for score in scores)
        except TypeError:
            pair = ()
        if len(pair) != 2 or None in pair or min(pair) < 0:
            raise InvalidQuery("scores must be two whole numbers, 0 or more, not %s" % shown_value(scores))
        return pair


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
    trimmed aside, and 8 a pair of sets), memory (``MEMORY_PER_COLUMN``, ``MEMORY_PER_PAIR``) and time on
    one core (``SECONDS_PER_COLUMN``). The layers' checkpoints take 8 bytes a column on disk while it is
    solved, and the chances as many again as the table while it is written."""
    from ....engine.game import Estimate

    n = bin(rules.mask).count("1")
    size = columns(rules.mask) * 6 + 8 * 4**n + 10**4
    return Estimate(size, columns(rules.mask) * MEMORY_PER_COLUMN + MEMORY_PER_PAIR * 4**n + 200 * 10**6,
                    columns(rules.mask) * SECONDS_PER_COLUMN + 0.2, scratch=8 * columns(rules.mask) + size)
