"""yazy under optimal play (analysis time): seeded games, and exactly what each category brings.

    ShutTheBox yazy simulate [--games N] [--seed S]
    ShutTheBox yazy report [--out DIR] [--games N] [--seed S]

``simulate`` plays the table's moves and reports the mean final score with a
95% interval (which must contain the exact 165.757319) and the distribution.
``report`` adds, exactly (a forward pass of the probabilities of every state
under the table's moves, numpy), each category's expected score and how often
it scores zero, and writes report.md and an SVG histogram of the final scores.

The moves maximise the expected score. That is not maximising the chance to
beat an opponent: a player who needs 20 points in the last turn plays
differently.
"""

import math
import random

import numpy as np

from ...engine.analysis import parse_options, run_command, write_report
from ...engine.progress import Progress
from .rules import ALL, CATEGORIES, DICE, REROLLS, ROLLS, SCORE, SIDES, score
from .table import load

BIN = 10  # points per bar of the distribution


def keep_chances():
    """{kept dice (sorted tuple): array over ROLLS of the chance of each final roll}."""
    index = {roll: number for number, roll in enumerate(ROLLS)}
    chances = {}
    for roll in ROLLS:
        for bits in range(1 << DICE):
            kept = tuple(die for position, die in enumerate(roll) if bits >> position & 1)
            if kept in chances:
                continue
            row = np.zeros(len(ROLLS))
            rolled = DICE - len(kept)
            for number in range(SIDES**rolled):
                dice = list(kept)
                for _ in range(rolled):
                    number, face = divmod(number, SIDES)
                    dice.append(face + 1)
                row[index[tuple(sorted(dice))]] += 1
            chances[kept] = row / SIDES**rolled
    return chances


def breakdown(table):
    """(expected score of each category, chance it scores zero), exactly under the table's moves."""
    table.preload()
    moves = np.frombuffer(table.file.whole("move"), dtype=np.uint8).reshape(ALL + 1, REROLLS + 1, len(ROLLS))
    chances = keep_chances()
    points = np.array([[score(c, roll) for roll in ROLLS] for c in range(len(CATEGORIES))], dtype=float)
    reach = np.zeros(ALL + 1)
    reach[ALL] = 1.0
    expected, zero = np.zeros(len(CATEGORIES)), np.zeros(len(CATEGORIES))
    for mask in sorted(range(1, ALL + 1), key=lambda m: -bin(m).count("1")):
        if not reach[mask]:
            continue
        now = reach[mask] * chances[()]
        scored = np.zeros(len(ROLLS))
        for rerolls in range(REROLLS, -1, -1):
            later = np.zeros(len(ROLLS))
            for r in np.flatnonzero(now):
                code = int(moves[mask, rerolls, r])
                if code >= SCORE:
                    scored[r] += now[r]
                else:
                    kept = tuple(die for position, die in enumerate(ROLLS[r]) if code >> position & 1)
                    later += now[r] * chances[kept]
            now = later
        for r in np.flatnonzero(scored):
            c = int(moves[mask, 0, r]) - SCORE
            expected[c] += scored[r] * points[c, r]
            zero[c] += scored[r] * (points[c, r] == 0)
            reach[mask & ~(1 << c)] += scored[r]
    return expected, zero


def play(table, games: int, seed: int, progress=None) -> list:
    """The final scores of ``games`` seeded games played by the table's moves."""
    table.preload()
    turn_moves = table.file.whole("move")
    index = {roll: number for number, roll in enumerate(ROLLS)}
    rng = random.Random(seed)
    die = rng.random
    stride = len(ROLLS)
    totals = []
    with Progress(games, "yazy", enabled=progress) as bar:
        for game in range(games):
            mask, total = ALL, 0
            while mask:
                dice = [int(die() * SIDES) + 1 for _ in range(DICE)]
                for rerolls in range(REROLLS, -1, -1):
                    roll = tuple(sorted(dice))
                    code = turn_moves[(mask * 3 + rerolls) * stride + index[roll]]
                    if code >= SCORE:
                        break
                    dice = [d for position, d in enumerate(roll) if code >> position & 1]
                    dice += [int(die() * SIDES) + 1 for _ in range(DICE - len(dice))]
                category = code - SCORE
                total += score(category, roll)
                mask &= ~(1 << category)
            totals.append(total)
            if game % 500 == 0:
                bar.update(game)
        bar.update(games)
    return totals


def interval(totals) -> tuple[float, float]:
    """(mean, half-width of the 95% interval)."""
    count = len(totals)
    mean = sum(totals) / count
    variance = sum((t - mean) ** 2 for t in totals) / max(count - 1, 1)
    return mean, 1.96 * math.sqrt(variance / count)


def histogram(totals) -> list:
    """[(low score of the bin, games)] for bins of BIN points, from the lowest to the highest total."""
    counts: dict = {}
    for total in totals:
        counts[total // BIN * BIN] = counts.get(total // BIN * BIN, 0) + 1
    return [(low, counts.get(low, 0)) for low in range(min(counts), max(counts) + 1, BIN)]


def summary(totals, exact: float, seed: int) -> str:
    mean, half = interval(totals)
    ordered = sorted(totals)
    lines = ["yazy, optimal play (maximum expected score %.6f): %d games, seed %d" % (exact, len(totals), seed),
             "mean %.3f +- %.3f (95%% interval %.3f to %.3f; %s the exact value)"
             % (mean, half, mean - half, mean + half, "contains" if abs(mean - exact) <= half else "MISSES"),
             "min %d, median %d, max %d" % (ordered[0], ordered[len(ordered) // 2], ordered[-1]),
             "final score   games"]
    top = max(count for _, count in histogram(totals))
    for low, count in histogram(totals):
        lines.append("%3d-%-3d %9d  %s" % (low, low + BIN - 1, count, "#" * round(40 * count / top)))
    return "\n".join(lines)


def svg_histogram(totals, exact: float) -> str:
    bins = histogram(totals)
    top = max(count for _, count in bins)
    width, height, left, bottom = 560, 260, 50, 40
    bar = width / len(bins)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
             'font-size="11">' % (left + width + 20, height + bottom + 30),
             '<text x="%d" y="16" font-weight="bold">yazy: final scores of %d games under optimal play</text>'
             % (left, len(totals))]
    for number, (low, count) in enumerate(bins):
        tall = height * count / top
        x = left + number * bar
        parts.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#4c78a8"/>'
                     % (x + 1, 25 + height - tall, bar - 2, tall))
        if number % 2 == 0:
            parts.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (x + bar / 2, 25 + height + 15,
                                                                                 low))
    mark = left + width * (exact - bins[0][0]) / (len(bins) * BIN)
    parts.append('<line x1="%.1f" x2="%.1f" y1="25" y2="%d" stroke="#e45756" stroke-width="2"/>'
                 % (mark, mark, 25 + height))
    parts.append('<text x="%.1f" y="%d" fill="#e45756">exact mean %.2f</text>' % (mark + 4, 38, exact))
    parts.append('<text x="%d" y="%d" text-anchor="middle">final score (bins of %d points)</text>'
                 % (left + width // 2, 25 + height + 32, BIN))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def markdown(totals, exact: float, seed: int, expected, zero) -> str:
    mean, half = interval(totals)
    lines = ["# yazy under optimal play", "",
             "The moves of the table maximise the expected final score: %.6f from the start. Maximising the "
             "expected score is not maximising the chance to beat an opponent (a player behind late in the "
             "game should gamble more)." % exact, "",
             "![final scores](histogram.svg)", "",
             "%d seeded games (seed %d): mean %.3f, 95%% interval %.3f to %.3f." % (len(totals), seed, mean,
                                                                                   mean - half, mean + half), "",
             "Each category under optimal play, exactly (the probabilities of every state under the table's moves):",
             "", "| category | expected score | scores zero |", "| --- | ---: | ---: |"]
    for c, name in enumerate(CATEGORIES):
        lines.append("| %s | %.6f | %.4f%% |" % (name, expected[c], 100 * zero[c]))
    lines.append("| total | %.6f | |" % sum(expected))
    return "\n".join(lines) + "\n"


def _run(argv, report: bool) -> int:
    prog = "ShutTheBox yazy " + ("report" if report else "simulate")

    def work():
        args = parse_options(argv, prog, "yazy under optimal play: seeded games.", games=(1, 10**8),
                             per="games to play", out="yazy-report" if report else None)
        table = load()
        exact = table.probe_expect("all")
        totals = play(table, args.games, args.seed)
        if not report:
            print(summary(totals, exact, args.seed))
            return 0
        expected, zero = breakdown(table)
        write_report(args.out, (("report.md", markdown(totals, exact, args.seed, expected, zero)),
                                ("histogram.svg", svg_histogram(totals, exact))))
        return 0

    return run_command(prog, work)


def simulate_main(argv) -> int:
    return _run(argv, report=False)


def report_main(argv) -> int:
    return _run(argv, report=True)
