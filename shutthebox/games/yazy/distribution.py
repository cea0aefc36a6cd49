"""The final total of yazy under the table's moves (the expected-score policy), exactly (analysis time; numpy).

    ShutTheBox yazy distribution

Two passes. First, every set's turn: from the first roll's chances, the table's
move at each roll and reroll either scores (the category it names) or keeps dice
whose reroll spreads the chance over the rolls (``keep_chances``, of
``engine/dicekeep_arrays.py``); this gives, for every set of open categories, the
chance of scoring each category with each number of points. Then the game: the
chance of each (open set, points so far), from all open with 0 points, pushed set
by set (largest first) through that turn law. At the empty set it is the law of the
final total.

float64 sums of non-negative terms, so each chance is within about 1e-13 (relative)
of the exact rational; the identity the tests hold it to: its mean is the table's
maximum expected score, 165.757319.
"""

import numpy as np

from ...engine.analysis import Parser, run_command
from ...engine.dicekeep_arrays import keep_chances
from ...engine.progress import Progress
from .rules import ALL, CATEGORIES, REROLLS, ROLLS, SCORE, score
from .target.build import MAX_TOTAL, TARGETS
from .table import load

MOST = 50  # the most one category scores


def turn_laws(table) -> np.ndarray:
    """(2^11 sets, 11 categories, 51 points): the chance that the turn of each set scores each category with
    each number of points, under the table's moves."""
    table.preload()
    moves = np.frombuffer(table.file.whole("move").tobytes(), dtype=np.uint8).reshape(ALL + 1, REROLLS + 1,
                                                                                        len(ROLLS))
    chances = keep_chances()
    kept = sorted(chances)
    row_of = {keep: number for number, keep in enumerate(kept)}
    matrix = np.array([chances[keep] for keep in kept])  # (keeps, rolls)
    keep_of = np.zeros((len(ROLLS), SCORE), dtype=np.int64)  # the kept dice of each roll and keep code
    for r, roll in enumerate(ROLLS):
        for code in range(SCORE):
            keep_of[r, code] = row_of[tuple(die for position, die in enumerate(roll) if code >> position & 1)]
    sets = np.arange(1, ALL + 1)
    now = np.tile(chances[()], (len(sets), 1))  # (sets, rolls): the chance of each roll showing
    scored = np.zeros_like(now)
    for rerolls in range(REROLLS, -1, -1):
        codes = moves[sets, rerolls]
        scoring = codes >= SCORE
        if rerolls == 0 and not scoring.all():
            raise AssertionError("yazy: a move keeps dice with no reroll left")
        scored += np.where(scoring, now, 0.0)
        later = np.zeros_like(now)
        for r in range(len(ROLLS)):
            keeping = ~scoring[:, r]
            if keeping.any():
                later[keeping] += now[keeping, r, None] * matrix[keep_of[r, codes[keeping, r]]]
        now = later
    laws = np.zeros((ALL + 1, len(CATEGORIES), MOST + 1))
    category = moves[sets, 0].astype(np.int64) - SCORE  # the category a roll is scored in (the same at every reroll)
    points = np.array([[score(c, roll) for roll in ROLLS] for c in range(len(CATEGORIES))])
    for r in range(len(ROLLS)):
        np.add.at(laws, (sets, category[:, r], points[category[:, r], r]), scored[:, r])
    return laws


def final_law(table, start: int = ALL, progress=False) -> np.ndarray:
    """The chance of each final total 0..280 when every move is the table's; from the start of a turn with the
    open set ``start`` (a bitmask), of each number of points still to come."""
    laws = turn_laws(table)
    reach = np.zeros((ALL + 1, TARGETS))
    reach[start, 0] = 1.0
    order = sorted((m for m in range(1, ALL + 1) if m & start == m), key=lambda m: (-bin(m).count("1"), m))
    with Progress(len(order), "yazy distribution", unit="category sets", enabled=progress) as bar:
        for done, mask in enumerate(order):
            here = reach[mask]
            for c in range(len(CATEGORIES)):
                if mask >> c & 1 and laws[mask, c].any():
                    reach[mask & ~(1 << c)] += np.convolve(here, laws[mask, c])[:TARGETS]
            if done % 64 == 0:
                bar.update(done)
    return reach[0]


def mean(law) -> float:
    return float((np.arange(len(law)) * law).sum())


def at_least(law, x: int) -> float:
    """The chance that the final total is ``x`` or more."""
    return float(law[x:].sum())


def text(law, exact: float) -> str:
    lines = ["yazy: the final total under the expected-score moves (the table's), exactly",
             "%6s %12s %12s" % ("total", "P(exactly)", "P(at least)")]
    tail = np.cumsum(law[::-1])[::-1]
    for total in range(MAX_TOTAL + 1):
        if law[total] > 0:
            lines.append("%6d %12.6f %12.6f" % (total, law[total], tail[total]))
    lines.append("mean %.6f (the maximum expected score: %.6f), standard deviation %.3f"
                 % (mean(law), exact, np.sqrt(max(float((np.arange(len(law)) ** 2 * law).sum()) - mean(law) ** 2,
                                                  0.0))))
    return "\n".join(lines)


def distribution_main(argv) -> int:
    prog = "ShutTheBox yazy distribution"

    def work():
        Parser(prog=prog, description="The exact law of the final total under the expected-score moves.").parse_args(
            argv)
        table = load()
        print(text(final_law(table, progress=None), table.probe_expect("all")))
        return 0

    return run_command(prog, work)
