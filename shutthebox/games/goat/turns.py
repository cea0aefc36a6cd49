"""How many turns a solo game lasts: the distribution, not only the mean (analysis time; numpy; docs/GOAT.md).

    ShutTheBox goat turns [--goal G] [--choose each|once] [--dice K --stop-at T] [--max N]

From banked 0, a strategy (fixed, or the table's fewest-expected-turns play) is
played turn after turn; ``mass[s]`` is the chance of standing at banked s < goal
after n turns. One turn moves it by the strategy's turn law from each score
(``duel.policy_laws``: whole counts out of 6^18, exact), and the mass that
reaches the goal at turn n is P(N = n). The sums are float64 (each value within
about 1e-15 of the exact rational; the tests compare with Fractions).

The identity that ties the distribution to the expected turns: after M turns,

    E[N] = sum_{n <= M} n P(N = n) + sum_s mass_M(s) (M + E(s))

with E(s) the expected turns from s (the table's). The standard deviation comes
from the chain of second moments F(s) = E[N_s^2]:
F(s) (1 - P_s(0)) = 1 + 2 sum_g P_s(g) E(s + g) + sum_{g > 0} P_s(g) F(s + g).
"""

import numpy as np

from ...engine.analysis import Parser, run_command
from ...engine.progress import Progress
from ...engine.text import whole_in
from ...errors import InvalidQuery
from .duel import DEN, GAINS, Optimal, fixed_laws
from .rules import DICE, THRESHOLDS, Rules
from .table import load

MAX_ROWS = 100_000
DEFAULT_ROWS = 10_000
TAIL = 1e-6


class Distribution:
    """The number of turns N from banked 0: ``chances[n - 1]`` = P(N = n) for n = 1..len(chances),
    ``rest`` = P(N > len(chances)), ``mean`` (by the identity above, from ``expected``: E(s) for every s)
    and ``sd``."""

    def __init__(self, chances, rest, mean, sd, left):
        self.chances, self.rest, self.mean, self.sd, self.left = chances, rest, mean, sd, left

    def cumulative(self):
        return np.cumsum(self.chances)

    def quantile(self, q: float) -> int:
        """The smallest n with P(N <= n) >= q (0 when beyond the rows computed)."""
        above = np.flatnonzero(self.cumulative() >= q)
        return int(above[0]) + 1 if above.size else 0


def distribution(counts, expected, turns: int = 0, tail: float = TAIL, progress=False) -> Distribution:
    """``counts``: (goal, 64) turn laws out of DEN from each score; ``expected``: E(s) for s < goal.
    Rows up to ``turns`` (0: until P(N > n) <= ``tail``, at most DEFAULT_ROWS)."""
    law = np.asarray(counts, dtype=np.float64) / DEN
    goal = len(law)
    expected = np.asarray(expected, dtype=np.float64)
    used = [gain for gain in range(GAINS) if law[:, gain].any()]
    mass = np.zeros(goal)
    mass[0] = 1.0
    chances = []
    limit = turns or DEFAULT_ROWS
    with Progress(limit, "turns", unit="turns", enabled=progress) as bar:
        while len(chances) < limit:
            after = np.zeros(goal + GAINS)
            for gain in used:
                after[gain:gain + goal] += mass * law[:, gain]
            chances.append(float(after[goal:].sum()))
            mass = after[:goal]
            if len(chances) % 256 == 0:
                bar.update(len(chances))
            if not turns and mass.sum() <= tail:
                break
    done = len(chances)
    mean = float(sum((n + 1) * p for n, p in enumerate(chances)) + (mass * (done + expected)).sum())
    return Distribution(np.array(chances), float(mass.sum()), mean, standard_deviation(law, expected), mass)


def standard_deviation(law, expected) -> float:
    """The standard deviation of N from 0, by the chain of second moments."""
    goal = len(law)
    e = np.concatenate([expected, np.zeros(GAINS)])
    f = np.zeros(goal + GAINS)
    for s in range(goal - 1, -1, -1):
        p = law[s]
        gains = np.arange(1, GAINS)
        f[s] = (1 + 2 * (p * e[s:s + GAINS]).sum() + (p[1:] * f[s + gains]).sum()) / (1 - p[0])
    return float(np.sqrt(max(f[0] - expected[0] ** 2, 0.0)))


def of_fixed(table, k: int, t: int, turns: int = 0, progress=False) -> Distribution:
    goal = table.rules.goal
    expected = [table.probe_fixed(s, k, t) for s in range(goal)]
    return distribution(fixed_laws(k, min(t, THRESHOLDS), goal), expected, turns, progress=progress)


def of_optimal(table, turns: int = 0, optimal: Optimal | None = None, progress=False) -> Distribution:
    goal = table.rules.goal
    optimal = optimal or Optimal(table)
    expected = [table.probe_solo(s) for s in range(goal)]
    return distribution(optimal.solo, expected, turns, progress=progress)


def text(rules, what: str, dist: Distribution, exact: float) -> str:
    lines = ["goat: %s; %s: the number of turns to reach %d from 0" % (rules.describe(), what, rules.goal),
             "%6s %12s %12s" % ("turns", "P(exactly)", "P(at most)")]
    for n, (p, c) in enumerate(zip(dist.chances, dist.cumulative()), 1):
        if p > 0:
            lines.append("%6d %12.6f %12.6f" % (n, p, c))
    lines.append("more than %d turns: %.3g" % (len(dist.chances), dist.rest))
    lines.append("mean %.6f (the exact expected turns: %.6f), standard deviation %.3f, median %d"
                 % (dist.mean, exact, dist.sd, dist.quantile(0.5)))
    return "\n".join(lines)


def turns_main(argv) -> int:
    prog = "ShutTheBox goat turns"

    def work():
        parser = Parser(prog=prog, description="The distribution of the number of turns of a solo game: a fixed "
                        "strategy (--dice K --stop-at T) or optimal play (neither).")
        parser.add_argument("--goal", default=None)
        parser.add_argument("--choose", default=None, help="each (the default) or once: when the dice are chosen")
        parser.add_argument("--dice", default=None, help="K: dice every roll, 1 to %d" % DICE)
        parser.add_argument("--stop-at", default=None, help="T: stop once the turn total reaches T")
        parser.add_argument("--max", default=None, help="turns to count, 1 to %d (default: until P(more) "
                            "<= %g, at most %d)" % (MAX_ROWS, TAIL, DEFAULT_ROWS))
        args = parser.parse_args(argv)
        given = {"--goal": args.goal, "--choose": args.choose}
        rules = Rules.from_options({option: value for option, value in given.items() if value})
        rows = whole_in("--max", args.max, 1, MAX_ROWS) if args.max is not None else 0
        table = load(rules)
        if (args.dice is None) != (args.stop_at is None):
            raise InvalidQuery("a fixed strategy takes both --dice K and --stop-at T (neither: optimal play)")
        if args.dice is None:
            dist = of_optimal(table, rows, progress=None)
            print(text(rules, "optimal play (fewest expected turns)", dist, table.probe_solo(0)))
            return 0
        k = whole_in("--dice", args.dice, 1, DICE)
        t = whole_in("--stop-at", args.stop_at, 1, 10**9)
        dist = of_fixed(table, k, t, rows, progress=None)
        print(text(rules, "%d %s, stop at %d" % (k, "die" if k == 1 else "dice", t), dist,
                   table.probe_fixed(0, k, t)))
        return 0

    return run_command(prog, work)
