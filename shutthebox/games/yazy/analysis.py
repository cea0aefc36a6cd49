"""yazy under optimal play (analysis time): seeded games, and exactly what each category brings.

    ShutTheBox yazy simulate [--games N] [--seed S]
    ShutTheBox yazy report [--out DIR] [--games N] [--seed S]

``simulate`` plays the table's moves and reports the mean final score with a
95% interval (which must contain the exact 165.757319) and the distribution.
``report`` adds, exactly (a forward pass of the probabilities of every state
under the table's moves, numpy), each category's expected score and how often
it scores zero, the exact law of the final total (``distribution``) and how it
compares with the target mode's moves (the highest chance of reaching 150, 175,
200: ``target``), and writes report.md and an SVG histogram of the final scores.

The moves maximise the expected score. That is not maximising the chance to
beat an opponent: a player who needs 20 points in the last turn plays
differently.
"""

import math
import random

import numpy as np

from ...engine.analysis import histogram as engine_histogram
from ...engine.analysis import analysis_commands, write_report
from ...engine.analysis import svg_histogram as engine_svg_histogram
from ...engine.progress import Progress
from .rules import ALL, CATEGORIES, DICE, REROLLS, ROLLS, SCORE, SIDES, score
from .distribution import at_least, final_law, keep_chances, mean
from .distribution import distribution_main  # noqa: F401 - the `distribution` command
from .table import load, load_target

TARGETS_SHOWN = (150, 175, 200)  # the report's comparison of the two policies

BIN = 10  # points per bar of the distribution


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
    return engine_histogram(totals, BIN)


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
    return engine_svg_histogram(totals, exact, "yazy: final scores of %d games under optimal play" % len(totals),
                                BIN, 2)


def policies(table, target, law) -> list:
    """[(X, chance of a final total of X or more under the expected-score moves, under the target mode's
    moves for X)]."""
    return [(x, at_least(law, x), target.probe_target(x)) for x in TARGETS_SHOWN]


def policies_markdown(compared, law, exact: float) -> list:
    lines = ["## Expected score or a target: how much the two policies differ", "",
             "The table's moves maximise the expected total. The target mode (`ShutTheBox yazy --target X ...`) "
             "maximises instead the chance that the total reaches X, with moves that change with the points still "
             "needed. Both exactly: under the expected-score moves, the law of the final total (`ShutTheBox yazy "
             "distribution`: mean %.6f, the maximum expected score %.6f); under the target moves, the start of the "
             "target table." % (mean(law), exact), "",
             "| final total of at least | expected-score moves | moves for that target | gain |",
             "| ---: | ---: | ---: | ---: |"]
    for x, expected_moves, target_moves in compared:
        lines.append("| %d | %.6f | %.6f | %+.6f |" % (x, expected_moves, target_moves, target_moves - expected_moves))
    return lines


def markdown(totals, exact: float, seed: int, expected, zero, compared=None, law=None) -> str:
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
    if compared is not None:
        lines += [""] + policies_markdown(compared, law, exact)
    return "\n".join(lines) + "\n"


def _work(args, report: bool) -> int:
    table = load()
    exact = table.probe_expect("all")
    totals = play(table, args.games, args.seed)
    if not report:
        print(summary(totals, exact, args.seed))
        return 0
    expected, zero = breakdown(table)
    law = final_law(table)
    compared = policies(table, load_target(), law)
    write_report(args.out, (("report.md", markdown(totals, exact, args.seed, expected, zero, compared, law)),
                            ("histogram.svg", svg_histogram(totals, exact))))
    return 0


simulate_main, report_main = analysis_commands(
    "yazy", "simulate", "yazy under optimal play: seeded games.", _work, games=(1, 10**8), per="games to play")
