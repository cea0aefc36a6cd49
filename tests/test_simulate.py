"""Monte Carlo: reproducible, agrees with the exact values, the subcommand's output and errors."""

from __future__ import annotations

import io
import math

import pytest

from conftest import run

from shutthebox.games.shutthebox.rules import Rules
from shutthebox.games.shutthebox.solo.simulate import run as run_table, sampling_table, simulate
from shutthebox.games.shutthebox.solo.solver import evaluate
from shutthebox.games.shutthebox.solo.strategies import STRATEGIES, make
from shutthebox.games.shutthebox.solo.table import VARIANTS, load_solo

SMALL = Rules(tiles=6, sides=4, one_die_at_most=5)


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_simulation_agrees_with_exact_values_on_a_small_game(name):
    strategy = make(name, SMALL, seed=2)
    exact = evaluate(strategy)
    sim = simulate(strategy, 40_000, seed=11, progress=False)
    # 4.5 standard errors: a fixed seed, so this never flickers, yet a biased sampler fails
    p = float(exact.start_shut)
    assert abs(sim.shut - p) < 4.5 * math.sqrt(p * (1 - p) / sim.games)
    low, high = sim.score_interval
    assert abs(sim.score - float(exact.start_score)) < 4.5 * (high - low) / (2 * 1.96)


def test_sampling_table_is_the_strategy_as_a_markov_chain():
    """The table's chain, evaluated exactly, gives the strategy's exact values."""
    from fractions import Fraction

    for name in ("random", "greedy", "optimal"):
        strategy = make(name, SMALL)
        table, deterministic = sampling_table(strategy)
        assert deterministic == (name != "random")
        n = SMALL.outcomes
        shut = [Fraction(1)] + [Fraction(0)] * ((1 << SMALL.tiles) - 1)
        for position in range(1, 1 << SMALL.tiles):
            total = Fraction(0)
            for entry in table[position * n : (position + 1) * n]:
                entries = entry if isinstance(entry, tuple) else (entry,)
                for x in entries:
                    total += Fraction(shut[x // n] if x >= 0 else 0, len(entries))
            shut[position] = total / n
        assert shut[-1] == evaluate(strategy).start_shut


def test_seeded_runs_are_reproducible():
    strategy = make("random", SMALL, seed=1)
    a = simulate(strategy, 5000, seed=3, progress=False)
    b = simulate(strategy, 5000, seed=3, progress=False)
    c = simulate(strategy, 5000, seed=4, progress=False)
    assert (a.wins, a.total, a.squares) == (b.wins, b.total, b.squares)
    assert (a.wins, a.total) != (c.wins, c.total)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_intervals_contain_the_exact_values_of_the_shipped_table(variant):
    """Optimal play, simulated: the 95% intervals hold the shipped table's exact values (solved, not
    sampled), and are narrow enough for that to mean something. Seeded, so it never flickers."""
    rules, table, games = VARIANTS[variant], load_solo(variant), 20_000
    low, high = simulate(make("optimal", rules), games, seed=1, progress=False).shut_interval
    assert 0 <= low <= table.shut_probability("123456789") <= high <= 1
    assert high - low < 4 * math.sqrt(0.25 / games)
    low, high = simulate(make("optimal-score", rules), games, seed=1, progress=False).score_interval
    assert low <= table.expected_score("123456789") <= high
    assert high - low < 0.5


def test_table_output_names_every_strategy_and_the_speed():
    out = io.StringIO()
    rows = run_table(["two-dice"], ["greedy", "optimal"], 2000, 1, out)
    text = out.getvalue()
    assert "greedy" in text and "optimal" in text and "7.1432%" in text
    assert "reference" in text and "million games per minute" in text
    assert len(rows) == 2


def test_subcommand_runs_quietly_when_not_a_terminal():
    result = run("simulate", "--variant", "two-dice", "--strategy", "greedy", "--games", "3000")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # no progress bar into a pipe
    assert "6.9583%" in result.stdout


@pytest.mark.parametrize("args, message", [
    (["--variant", "four-dice"], "unknown variant 'four-dice'"),
    (["--strategy", "best"], "unknown strategy 'best'"),
    (["--games", "0"], "at least 1"),
    (["--games", "many"], "whole number"),
    (["--bogus"], "unrecognized arguments"),
])
def test_subcommand_errors_are_one_line_and_exit_2(args, message):
    result = run("simulate", *args)
    assert result.returncode == 2
    assert result.stderr.startswith("ShutTheBox: ") and message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
