"""Monte Carlo benchmark of single-player strategies, checked against exact values.

``ShutTheBox simulate [--variant NAME|all] [--strategy NAME ...] [--games N] [--seed N]``

Fast because nothing is decided while playing: each strategy's choices are
compiled once into a *sampling table*. For every position there are
``outcomes`` entries (36 for two dice; one die's rolls are weighted to the
same 36), one per equally likely throw, holding what happens next: the next
position (premultiplied by ``outcomes``, so it is also the row's offset), or
``~score`` (negative) when no move fits. A game is then::

    x = start * outcomes
    while x > 0:
        x = table[int(x + random() * outcomes)]

one ``random()`` call and one list index per throw. A random strategy's
entries are tuples of equally likely successors, drawn with a second call.
Seeded (``random.Random("SEED/STRATEGY/RULES")``, stable across Python
versions), so a run is reproducible; each strategy and rule set draws from its
own stream.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from fractions import Fraction

from ....errors import InvalidQuery, ShutTheBoxError
from ....engine.analysis import Parser, check_games_and_seed
from ....engine.progress import Progress
from .solver import Throws, evaluate
from .table import DEFAULT_VARIANT, VARIANTS, variant_rules
from .strategies import STRATEGIES, make

PROG = "ShutTheBox simulate"
Z95 = 1.959963984540054  # two-sided 95% normal quantile
REFERENCE_SECONDS_PER_MILLION = 2.0  # the Scala reference project, JVM, per strategy
CHUNK = 25_000


def sampling_table(strategy, throws: Throws | None = None) -> tuple[list, bool]:
    """(flat table, deterministic): see the module docstring."""
    rules = strategy.rules
    throws = throws or Throws(rules)
    outcomes = rules.outcomes
    table = [0] * (throws.size * outcomes)
    deterministic = True
    for position in range(1, throws.size):
        stuck = ~throws.sums[position]
        base = position * outcomes
        offset = base
        playable = {roll: moves for roll, _, moves in throws.options[position][1]}
        for roll, weight in throws.rolls(position).items():
            if roll not in playable:
                entry = stuck
            else:
                picks = strategy.choices(position, roll)
                if len(picks) == 1:
                    entry = (position ^ picks[0][0]) * outcomes
                else:
                    # Equally likely successors, repeated by weight when the choice is not uniform.
                    common = math.lcm(*(chance.denominator for _, chance in picks))
                    entry = tuple(
                        (position ^ move) * outcomes for move, chance in picks for _ in range(int(chance * common))
                    )
                    deterministic = False
            table[offset : offset + weight] = [entry] * weight
            offset += weight
        if offset != base + outcomes:
            raise ArithmeticError("roll weights at %s do not add up to %d" % (bin(position), outcomes))
    return table, deterministic


def _play(table, deterministic, start, games, rand, outcomes):
    """(wins, sum of scores, sum of squared scores) of ``games`` games."""
    wins = total = squares = 0
    if deterministic:
        for _ in range(games):
            x = start
            while x > 0:
                x = table[int(x + rand() * outcomes)]
            if x:
                total -= x + 1
                squares += (x + 1) * (x + 1)
            else:
                wins += 1
    else:
        for _ in range(games):
            x = start
            while x > 0:
                x = table[int(x + rand() * outcomes)]
                if x.__class__ is tuple:
                    x = x[int(rand() * len(x))]
            if x:
                total -= x + 1
                squares += (x + 1) * (x + 1)
            else:
                wins += 1
    return wins, total, squares


class Simulation:
    """The outcome of ``games`` simulated games of one strategy."""

    def __init__(self, name, games, wins, total, squares, seconds, seed):
        self.name, self.games, self.wins = name, games, wins
        self.total, self.squares = total, squares
        self.seconds, self.seed = seconds, seed

    @property
    def shut(self) -> float:
        return self.wins / self.games

    @property
    def shut_interval(self) -> tuple[float, float]:
        """Wilson 95% confidence interval of the probability of shutting the box."""
        n, p, z2 = self.games, self.shut, Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return centre - half, centre + half

    @property
    def score(self) -> float:
        return self.total / self.games

    @property
    def score_interval(self) -> tuple[float, float]:
        """Normal 95% confidence interval of the expected final score."""
        n, mean = self.games, self.score
        variance = max(self.squares - n * mean * mean, 0.0) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(variance / n)
        return mean - half, mean + half

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def agrees(self, shut: Fraction, score: Fraction) -> bool:
        """Both exact values inside their 95% intervals (fails 1 run in ~10 by chance)."""
        low, high = self.shut_interval
        s_low, s_high = self.score_interval
        return low <= shut <= high and s_low <= score <= s_high


def simulate(strategy, games: int, seed=1, throws=None, label=None, progress=True) -> Simulation:
    """Play ``games`` games of ``strategy`` from all tiles open; seeded, reproducible."""
    rules = strategy.rules
    table, deterministic = sampling_table(strategy, throws)
    outcomes = rules.outcomes
    # Each strategy its own stream, so one unlucky stretch does not shift them all alike.
    rand = random.Random("%s/%s/%s" % (seed, strategy.name, rules.describe())).random
    start = rules.all_open * outcomes
    wins = total = squares = 0
    done = 0
    started = time.perf_counter()
    with Progress(games, label or strategy.name, enabled=None if progress else False) as bar:
        while done < games:
            step = min(CHUNK, games - done)
            w, t, s = _play(table, deterministic, start, step, rand, outcomes)
            wins, total, squares, done = wins + w, total + t, squares + s, done + step
            bar.update(done)
    return Simulation(strategy.name, games, wins, total, squares, time.perf_counter() - started, seed)


# -- the subcommand ----------------------------------------------------------------


# Beyond this a run takes hours: refused, like every game's --games.
MAX_GAMES = 100_000_000


def _parser():
    parser = Parser(
        prog=PROG,
        description="Simulate single-player strategies and check them against their exact values.",
    )
    parser.add_argument("--variant", default=DEFAULT_VARIANT,
                        help="dice rules: %s, or all (default %s)" % (", ".join(VARIANTS), DEFAULT_VARIANT))
    parser.add_argument("--strategy", action="append", metavar="NAME",
                        help="strategy to simulate (repeatable; default all: %s)" % ", ".join(STRATEGIES))
    parser.add_argument("--games", type=_positive, default=1_000_000, help="games per strategy (default 1000000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    return parser


def _positive(text):
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError("must be a whole number, not '%s'" % text) from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1, not %d" % value)
    return value


def _pct(value) -> str:
    return "%.4f%%" % (100 * float(value))


def run(variants, names, games, seed, out=None) -> list:
    """Simulate and print one table per variant; returns [(variant, name, exact, simulation)]."""
    out = out or sys.stdout
    rows = []
    for variant in variants:
        rules = variant_rules(variant)
        throws = Throws(rules)
        out.write("%s rules (%s): %s games per strategy, seed %d\n" % (variant, rules.describe(), format(games, ","), seed))
        out.write("%-14s %10s  %-31s %9s  %-21s %-5s %s\n" % (
            "strategy", "shut exact", "simulated (95% CI)", "score", "simulated (95% CI)", "check", "s/1M games"))
        for name in names:
            strategy = make(name, rules, seed=seed)
            exact = evaluate(strategy, throws)
            sim = simulate(strategy, games, seed, throws, label="%s %s" % (variant, name))
            low, high = sim.shut_interval
            s_low, s_high = sim.score_interval
            out.write("%-14s %10s  %-31s %9.4f  %-21s %-5s %.3f\n" % (
                name, _pct(exact.start_shut), "%s (%s-%s)" % (_pct(sim.shut), _pct(low), _pct(high)),
                float(exact.start_score), "%.4f (%.3f-%.3f)" % (sim.score, s_low, s_high),
                "ok" if sim.agrees(exact.start_shut, exact.start_score) else "OUT",
                1e6 / sim.games_per_second))
            out.flush()
            rows.append((variant, name, exact, sim))
        out.write("\n")
    played = sum(sim.games for *_, sim in rows)
    seconds = sum(sim.seconds for *_, sim in rows)
    if seconds > 0:
        per_million = seconds / played * 1e6
        out.write(
            "speed: %s games in %.2f s on one core = %.1f million games per minute; %.3f s per million games,"
            " %.1fx the reference's ~%.0f s per million on the JVM\n"
            % (format(played, ","), seconds, played / seconds * 60 / 1e6, per_million,
               REFERENCE_SECONDS_PER_MILLION / per_million, REFERENCE_SECONDS_PER_MILLION)
        )
        out.write("check: ok = both exact values inside the simulation's 95% intervals (expect an OUT now and then)\n")
    return rows


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = _parser().parse_args(argv)
        check_games_and_seed(args, (1, MAX_GAMES))
        variants = list(VARIANTS) if args.variant == "all" else [args.variant]
        for variant in variants:
            variant_rules(variant)
        names = args.strategy or list(STRATEGIES)
        for name in names:
            if name not in STRATEGIES:
                raise InvalidQuery("unknown strategy '%s' (choose %s)" % (name, ", ".join(STRATEGIES)))
        run(variants, names, args.games, args.seed)
        return 0
    except ShutTheBoxError as error:
        sys.stderr.write("ShutTheBox: %s\n" % error)
        return error.exit_status
    except KeyboardInterrupt:
        sys.stderr.write("\nShutTheBox: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
