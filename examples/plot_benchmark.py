#!/usr/bin/env python3
"""Learning curves from examples/benchmark.py's CSV: one PNG a game, each algorithm's mean loss over seeds
with its 95% Student t-interval shaded (docs/RL.md).

    python examples/plot_benchmark.py bench/rl-benchmark.csv --out docs     # docs/rl-curves-GAME.png
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchmark import ALGORITHMS, GAMES, interval  # noqa: E402 - the one definition of each

UNITS = {"solo": "chance to shut", "pig": "chance to win", "yahtzee": "points"}


def curves(rows) -> dict:
    """game -> algorithm -> [(steps, mean, half-width, seeds)], steps ascending."""
    losses: dict = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for row in rows:
        losses[row["game"]][row["algorithm"]][int(row["steps"])].append(float(row["loss"]))
    return {game: {algorithm: [(steps, *interval(values), len(values)) for steps, values in sorted(points.items())]
                   for algorithm, points in by_algorithm.items()} for game, by_algorithm in losses.items()}


def plot(game: str, by_algorithm: dict, optimum: float, exact: bool, path: str) -> None:
    figure, axes = plt.subplots(figsize=(5.6, 3.4), dpi=90)
    for algorithm, points in by_algorithm.items():
        steps = [p[0] for p in points]
        mean = [p[1] for p in points]
        half = [p[2] if p[3] > 1 else 0.0 for p in points]
        color = "C%d" % ALGORITHMS.index(algorithm)  # an algorithm's colour the same in every plot
        axes.plot(steps, mean, marker=".", label=algorithm, color=color)
        axes.fill_between(steps, [m - h for m, h in zip(mean, half)], [m + h for m, h in zip(mean, half)],
                          color=color, alpha=0.2, linewidth=0)
    seeds = max(p[3] for points in by_algorithm.values() for p in points)
    name = GAMES[game].env_id.split("/")[1] + "".join(" %s %s" % item for item in GAMES[game].options.items())
    how = "exact" if exact else "regrets along seeded episodes"
    axes.set_title("%s: loss per episode (%s), mean and 95%% t, %d seeds" % (name, how, seeds), fontsize=8)
    axes.set_xlabel("env steps", fontsize=8)
    axes.set_ylabel("%s below optimal (%.6g)" % (UNITS.get(game, "loss"), optimum), fontsize=8)
    axes.set_ylim(bottom=0.0)  # a loss is never below 0; an interval may reach under it
    axes.tick_params(labelsize=7)
    axes.grid(alpha=0.3)
    axes.legend(fontsize=7)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", help="examples/benchmark.py's output")
    parser.add_argument("--out", default=".", help="the folder the PNGs go to")
    args = parser.parse_args(argv)
    try:
        with open(args.csv, newline="") as source:
            rows = list(csv.DictReader(source))
    except OSError as error:
        print("plot_benchmark.py: cannot read %s: %s" % (args.csv, error.strerror), file=sys.stderr)
        return 2
    if not rows or "loss" not in rows[0]:
        print("plot_benchmark.py: %s has no rows of examples/benchmark.py" % args.csv, file=sys.stderr)
        return 2
    for game, by_algorithm in curves(rows).items():
        first = next(row for row in rows if row["game"] == game)
        path = os.path.join(args.out, "rl-curves-%s.png" % game)
        plot(game, by_algorithm, float(first["optimum"]), first["loss_exact"] == "1", path)
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
