"""Goat's fixed strategies (analysis time): every (k, t) exactly and by seeded Monte Carlo, the recommendation,
the head-to-head table of the ten best (``duel``) and their distributions of turns (``turns``).

    ShutTheBox goat strategies [--games N] [--seed N] [--goal G] [--choose each|once]
    ShutTheBox goat report [--out DIR] [--games N] [--seed N] [--goal G] [--choose each|once]

Exact values are the rational chains of ``chains`` (read from the table).
The Monte Carlo plays each strategy's games turn by turn: a turn's outcome is
drawn from its law over ordered dice, counted here in floating point by
enumerating the 6^k throws (apart from the exact code's subset counting); a
run of matched turns is drawn at once as a geometric number, as the worst
strategies need hundreds of thousands of turns a game.
"""

import functools
import itertools
import math

import numpy as np

from ...engine.analysis import analysis_commands, write_report
from ...engine.progress import Progress
from .rules import DICE, MAX_GAIN, MAX_SUM, ROLLS, Rules
from .table import load
from .duel import OPTIMAL, Optimal, chances, checked
from .turns import of_fixed, of_optimal
from .turns import turns_main  # noqa: F401 - the `turns` command

HEAD_TO_HEAD = 10  # the strategies of the head-to-head table

def strategies():
    """[(k, t, last)]: every strategy worth listing; ``last``: every higher t plays the same."""
    return [(k, t, t == 2 * MAX_SUM[k] + 1) for k in range(1, DICE + 1) for t in range(1, 2 * MAX_SUM[k] + 2)]


@functools.lru_cache(maxsize=None)
def throw_law(k: int):
    """(chance of a match, chance of each sum 0..21) of one throw of k dice, by enumerating the throws."""
    sums = np.zeros(MAX_SUM[DICE] + 1)
    for throw in itertools.product(range(1, 7), repeat=k):
        if len(set(throw)) == k:
            sums[sum(throw)] += 1
    sums /= 6.0**k
    return 1.0 - sums.sum(), sums


@functools.lru_cache(maxsize=None)
def turn_law(k: int, stop: int):
    """Chance of each turn gain 0..63 (0: a match) rolling k dice until the turn total reaches ``stop``."""
    bust, sums = throw_law(k)
    law = np.zeros(MAX_GAIN + 1)
    now = {0: 1.0}
    for rolls in range(1, ROLLS + 1):
        after: dict = {}
        for turn, chance in now.items():
            law[0] += chance * bust
            for total in np.flatnonzero(sums):
                after[turn + total] = after.get(turn + total, 0.0) + chance * sums[total]
        now = {}
        for turn, chance in after.items():
            if turn >= stop or rolls == ROLLS:
                law[turn] += chance
            else:
                now[turn] = chance
    return law


def simulate(k: int, t: int, goal: int, games: int, seed: int):
    """(mean turns from 0, half-width of the 95% interval) over ``games`` seeded games."""
    rng = np.random.default_rng([seed, k, t])
    laws = np.array([turn_law(k, cap) for cap in range(1, t + 1)])  # row cap - 1
    success = 1.0 - laws[:, 0]
    cumulative = np.cumsum(laws[:, 1:], axis=1) / success[:, None]
    score, turns = np.zeros(games, dtype=np.int64), np.zeros(games)
    active = np.arange(games)
    while active.size:
        cap = np.minimum(t, goal - score[active]) - 1
        turns[active] += rng.geometric(success[cap])  # matched turns, then the one that scores
        draw = rng.random(active.size)
        score[active] += 1 + (draw[:, None] > cumulative[cap]).sum(axis=1)
        active = active[score[active] < goal]
    mean = turns.mean()
    return mean, 1.96 * turns.std(ddof=1) / math.sqrt(games) if games > 1 else math.inf


def analyse(rules: Rules, games: int, seed: int, progress=None) -> list:
    """[(k, t, last, exact turns from 0, (mean, half-width) or None)]."""
    table = load(rules)
    rows = []
    listed = strategies()
    with Progress(len(listed), "strategies", unit="strategies", enabled=progress) as bar:
        for done, (k, t, last) in enumerate(listed):
            exact = table.probe_fixed(0, k, t)
            rows.append((k, t, last, exact, simulate(k, t, rules.goal, games, seed) if games else None))
            bar.update(done + 1)
    return rows


def recommendation(rules: Rules, rows) -> list:
    """Lines: the best strategy and why."""
    ranked = sorted(rows, key=lambda row: (row[3], row[0], row[1]))
    best = ranked[0]
    second = next(row for row in ranked if row[3] != best[3])
    same = [row[1] for row in rows if row[0] == best[0] and row[3] == best[3]]
    optimal = load(rules).probe_solo(0)
    stopping = ("take all three rolls of every turn (t = %d or more: a turn never reaches t before the third "
                "roll), stopping early only on reaching the goal" % best[1]) if best[2] else \
        "stop once the turn total reaches %s" % _threshold(best[1], same)
    lines = ["recommended: roll %d dice every roll and %s: %.6f expected turns from 0 to %d, exactly."
             % (best[0], stopping, best[3], rules.goal),
             "why: it has the fewest expected turns of all %d strategies; the next best, %d dice to %s, needs "
             "%.6f (%.3f more)." % (len(rows), second[0], second[1], second[3], second[3] - best[3])]
    if best[4] is not None and second[4] is not None:
        (m1, h1), (m2, h2) = best[4], second[4]
        overlap = m1 + h1 >= m2 - h2
        lines.append("the Monte Carlo agrees (%.3f +- %.3f against %.3f +- %.3f)%s; the exact values decide."
                     % (m1, h1, m2, h2, ", though at this many games the two intervals overlap" if overlap else ""))
    lines.append("for comparison, optimal play that may change dice and stopping with the score needs %.6f "
                 "(`ShutTheBox goat --solo --expect 0`)." % optimal)
    return lines


def _threshold(t, same):
    return "%d" % t if len(same) == 1 else "any of %d-%d" % (min(same), max(same))


def label(k: int, t: int, last: bool) -> str:
    return "%d,%d%s" % (k, t, "+" if last else "")


class HeadToHead:
    """The ten best fixed strategies against each other and against optimal play, exactly (``duel``).

    ``best``: their rows (k, t, last, exact turns, ...), fewest expected turns first; ``beats[i][j]``: the
    chance that i beats j (a tie counts half). A fixed strategy ignores the score, so its duels do not
    depend on who moves first: j moving first beats i with 1 - beats[i][j] (the tests check it).
    ``first[i]`` / ``second[i]``: i's chance against optimal play, i moving first / second."""

    def __init__(self, rules: Rules, rows, count: int = HEAD_TO_HEAD):
        self.rules = rules
        self.best = sorted(rows, key=lambda row: (row[3], row[0], row[1]))[:count]
        sides = [(k, t) for k, t, *_ in self.best]
        n = len(sides)
        pairs = [(sides[i], sides[j]) for i in range(n) for j in range(i + 1, n)]
        optimal = Optimal(load(rules))
        found = chances(rules.goal, pairs + [(side, OPTIMAL) for side in sides] + [(OPTIMAL, side) for side in sides],
                        optimal)
        names = [label(*row[:3]) for row in self.best]
        values = [checked(value, bound, "a duel") for value, bound in found]
        self.beats = [[0.5] * n for _ in range(n)]
        for (a, b), value in zip(pairs, values):
            i, j = sides.index(a), sides.index(b)
            self.beats[i][j], self.beats[j][i] = value, 1.0 - value
        self.first = values[len(pairs):len(pairs) + n]
        self.second = [1.0 - value for value in values[len(pairs) + n:]]
        self.names = names

    def premise(self) -> list:
        """Lines: whether fewer expected turns means more wins, pair by pair, with the numbers."""
        n = len(self.best)
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        held = [(i, j) for i, j in pairs if self.beats[i][j] > 0.5]
        closest = min(pairs, key=lambda pair: self.beats[pair[0]][pair[1]])
        i, j = closest
        lines = ['premise "fewer expected turns means more wins": %s for %d of the %d pairs of the ten best: in each '
                 "pair %s wins more than half of the games." % (
                     "holds" if len(held) == len(pairs) else "fails", len(held), len(pairs),
                     "the strategy with fewer expected turns" if len(held) == len(pairs) else "mostly the one with "
                     "fewer expected turns")]
        lines.append("closest pair: %s (%.6f turns) beats %s (%.6f turns) with %.6f; widest: %s beats %s with %.6f."
                     % (self.names[i], self.best[i][3], self.names[j], self.best[j][3], self.beats[i][j],
                        self.names[0], self.names[-1], self.beats[0][n - 1]))
        for i, j in pairs:
            if (i, j) not in held:
                lines.append("exception: %s (%.6f turns) wins only %.6f against %s (%.6f turns)."
                             % (self.names[i], self.best[i][3], self.beats[i][j], self.names[j], self.best[j][3]))
        ordered = all(self.first[i] > self.first[i + 1] and self.second[i] > self.second[i + 1] for i in range(n - 1))
        lines.append("against optimal play the order by expected turns %s the order by wins (moving first: %.6f for "
                     "%s down to %.6f for %s; second: %.6f down to %.6f); optimal play wins %.6f moving second "
                     "against %s." % ("is" if ordered else "is not", self.first[0], self.names[0], self.first[-1],
                                      self.names[-1], self.second[0], self.second[-1], 1 - self.first[0],
                                      self.names[0]))
        return lines

    def text(self) -> str:
        width = max(len(name) for name in self.names) + 1
        lines = ["head to head (exact): the chance that the row beats the column, a tie counting half; the seat "
                 "does not matter between fixed strategies", " " * width + "".join("%9s" % name for name in self.names)]
        for i, name in enumerate(self.names):
            lines.append("%-*s" % (width, name) + "".join("%9s" % ("-" if i == j else "%.6f" % value)
                                                          for j, value in enumerate(self.beats[i])))
        lines.append("against optimal play (the --one/--two --move answers), the row's chance:")
        lines.append("%-*s%9s%9s%12s" % (width, "", "first", "second", "exp. turns"))
        for i, name in enumerate(self.names):
            lines.append("%-*s%9.6f%9.6f%12.6f" % (width, name, self.first[i], self.second[i], self.best[i][3]))
        return "\n".join(lines + [""] + self.premise())

    def markdown(self) -> list:
        lines = ["| row beats column | " + " | ".join(self.names) + " |",
                 "| --- |" + " ---: |" * len(self.names)]
        for i, name in enumerate(self.names):
            lines.append("| **%s** | " % name + " | ".join("" if i == j else "%.6f" % value
                                                         for j, value in enumerate(self.beats[i])) + " |")
        lines += ["", "Against optimal play (the answers of `--one`/`--two --move`):", "",
                  "| strategy | expected turns | wins moving first | wins moving second |",
                  "| --- | ---: | ---: | ---: |"]
        for i, name in enumerate(self.names):
            lines.append("| %s | %.6f | %.6f | %.6f |" % (name, self.best[i][3], self.first[i], self.second[i]))
        return lines + [""] + self.premise()


def turn_distributions(rules: Rules, best) -> list:
    """[(name, exact expected turns, Distribution)] of the given rows and of optimal play."""
    table = load(rules)
    out = [(label(k, t, last), exact, of_fixed(table, k, t)) for k, t, last, exact, _ in best]
    return out + [("optimal", table.probe_solo(0), of_optimal(table))]


def turns_text(dists) -> str:
    lines = ["the number of turns to the goal from 0 (exact distributions: `ShutTheBox goat turns`)",
             "%-9s %10s %7s %7s %9s %9s" % ("strategy", "mean", "sd", "median", "90% in", "99% in")]
    for name, exact, dist in dists:
        lines.append("%-9s %10.6f %7.3f %7d %9d %9d" % (name, dist.mean, dist.sd, dist.quantile(0.5),
                                                         dist.quantile(0.9), dist.quantile(0.99)))
    return "\n".join(lines)


def turns_csv(dists) -> str:
    longest = max(len(dist.chances) for _, _, dist in dists)
    lines = ["turns," + ",".join(name for name, _, _ in dists)]
    for n in range(longest):
        lines.append("%d," % (n + 1) + ",".join("%.9f" % (dist.chances[n] if n < len(dist.chances) else 0.0)
                                                for _, _, dist in dists))
    return "\n".join(lines) + "\n"


def text_table(rules: Rules, rows, games: int, seed: int) -> str:
    lines = ["goat: %s; fixed strategies, expected turns from 0" % rules.describe(),
             "%2s %4s %16s %28s %7s" % ("k", "t", "exact", "Monte Carlo (95% interval)", "z")]
    inside = 0
    for k, t, last, exact, simulated in rows:
        label = ("%d+" % t) if last else str(t)
        if simulated is None:
            lines.append("%2d %4s %16.6f" % (k, label, exact))
            continue
        mean, half = simulated
        inside += abs(mean - exact) <= half
        lines.append("%2d %4s %16.6f %16.3f +- %-9.3f %+7.2f" % (k, label, exact, mean, half,
                                                             (mean - exact) / (half / 1.96)))
    if games:
        lines.append("%d of %d intervals contain the exact value (about 95%% expected); %d games per strategy, "
                     "seed %d" % (inside, len(rows), games, seed))
    return "\n".join(lines + [""] + recommendation(rules, rows))


def csv_text(rows) -> str:
    lines = ["dice,stop_at,every_higher_stop_at_same,exact_expected_turns,monte_carlo_mean,interval_low,interval_high"]
    for k, t, last, exact, simulated in rows:
        mean, half = simulated if simulated else (math.nan, math.nan)
        lines.append("%d,%d,%s,%.6f,%.4f,%.4f,%.4f" % (k, t, "yes" if last else "no", exact, mean, mean - half,
                                                       mean + half))
    return "\n".join(lines) + "\n"


COLOURS = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2")


def svg_chart(rows) -> str:
    """Expected turns by threshold, one line per number of dice; values far above the best are off the chart."""
    best = min(row[3] for row in rows)
    low, high = math.floor(best) - 1, math.ceil(best * 2)
    width, height, left, top = 560, 320, 60, 40
    right = max(row[1] for row in rows)

    def x(t):
        return left + width * (t - 1) / (right - 1)

    def y(value):
        return top + height * (high - min(value, high)) / (high - low)

    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" '
             'font-size="12">' % (left + width + 150, top + height + 50),
             '<text x="%d" y="20" font-weight="bold">Goat: expected turns to %s by dice k and stop-at t '
             '(lower is better)</text>' % (left, "the goal"),
             '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#222"/>' % (left, top + height, left + width, top + height),
             '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#222"/>' % (left, top, left, top + height)]
    for value in range(low, high + 1, max(1, (high - low) // 8)):
        parts.append('<text x="%d" y="%.1f" text-anchor="end">%d</text>' % (left - 6, y(value) + 4, value))
    for t in range(1, right + 1, 6):
        parts.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (x(t), top + height + 16, t))
    parts.append('<text x="%d" y="%d" text-anchor="middle">stop at turn total t</text>'
                 % (left + width // 2, top + height + 34))
    for k in range(1, DICE + 1):
        points = [(t, exact) for kk, t, _, exact, _ in rows if kk == k]
        colour = COLOURS[k - 1]
        legend = "%d %s" % (k, "die" if k == 1 else "dice")
        if min(value for _, value in points) > high:
            legend += " (above %d)" % high
        else:
            parts.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                         % (colour, " ".join("%.1f,%.1f" % (x(t), y(v)) for t, v in points)))
        parts.append('<text x="%d" y="%d" fill="%s">%s</text>' % (left + width + 12, top + 16 * k, colour, legend))
    for k, t, _, exact, _ in rows:
        if exact == best:
            parts.append('<circle cx="%.1f" cy="%.1f" r="5" fill="none" stroke="#000" stroke-width="2"/>'
                         % (x(t), y(exact)))
            parts.append('<text x="%.1f" y="%.1f">best: %d dice, t=%d (%.3f)</text>' % (x(t) + 8, y(exact) + 16, k, t,
                                                                                       exact))
            break
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def markdown(rules: Rules, rows, games: int, seed: int, duels=None, dists=None) -> str:
    lines = ["# Goat: the best fixed strategy", "",
             "Goat (%s). A fixed strategy (k, t) rolls k dice every roll and stops once the turn total reaches t "
             "or the goal, or after the third roll. Exact values solve each strategy's Markov chain in rationals; "
             "the Monte Carlo plays %d seeded games per strategy (seed %d) with a 95%% interval." %
             (rules.describe(), games, seed), "", "## Recommendation", ""]
    lines += recommendation(rules, rows)
    lines += ["", "![expected turns by k and t](strategies.svg)", "", "Data: [strategies.csv](strategies.csv).", "",
              "| k | t | exact expected turns | Monte Carlo mean | 95% interval |", "| ---: | ---: | ---: | ---: | ---: |"]
    for k, t, last, exact, simulated in rows:
        label = "%d or more" % t if last else str(t)
        if simulated is None:
            lines.append("| %d | %s | %.6f | | |" % (k, label, exact))
        else:
            mean, half = simulated
            lines.append("| %d | %s | %.6f | %.3f | %.3f to %.3f |" % (k, label, exact, mean, mean - half, mean + half))
    if duels is not None:
        lines += ["", "## Head to head: the ten best", "",
                  "Two fixed strategies playing each other (the two-player rules: rounds, the game ends after a round "
                  "in which a player reached %d, the higher total winning, a tie counting half). Exact chances "
                  "(`ShutTheBox goat --duel A B`). A fixed strategy ignores the score, so the seat does not matter "
                  "between two of them." % rules.goal, ""]
        lines += duels.markdown()
    if dists is not None:
        lines += ["", "## How many turns", "",
                  "Exact distributions of the number of turns from 0 (`ShutTheBox goat turns`; all of them in "
                  "[turns.csv](turns.csv)); the mean is the expected turns.", "",
                  "| strategy | mean | sd | median | 90% within | 99% within |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
        for name, exact, dist in dists:
            lines.append("| %s | %.6f | %.3f | %d | %d | %d |" % (name, dist.mean, dist.sd, dist.quantile(0.5),
                                                                 dist.quantile(0.9), dist.quantile(0.99)))
    return "\n".join(lines) + "\n"


def _work(args, report: bool) -> int:
    rules = Rules.from_options(args.rules)
    rows = analyse(rules, args.games, args.seed)
    duels = HeadToHead(rules, rows)
    dists = turn_distributions(rules, duels.best)
    if report:
        write_report(args.out, (("report.md", markdown(rules, rows, args.games, args.seed, duels, dists)),
                                ("strategies.svg", svg_chart(rows)), ("strategies.csv", csv_text(rows)),
                                ("turns.csv", turns_csv(dists))))
    else:
        print(text_table(rules, rows, args.games, args.seed))
        print()
        print(duels.text())
        print()
        print(turns_text(dists))
    return 0


strategies_main, report_main = analysis_commands(
    "goat", "strategies", "Goat's fixed strategies, exactly and by Monte Carlo.", _work, games=(0, 10**7),
    per="games per strategy", rules=("--goal", "--choose"))
