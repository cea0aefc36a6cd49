"""Monte Carlo: reproducible, agrees with the exact values, the subcommand's output and errors."""

from __future__ import annotations

import io
import json
import math

import pytest

from conftest import run

from shutthebox.games.shutthebox.rules import Rules
from shutthebox.games.shutthebox.solo.simulate import run as run_table, sampling_table, simulate
from shutthebox.games.shutthebox.solo.solver import evaluate
from shutthebox.games.shutthebox.solo.strategies import STRATEGIES, make
from shutthebox.games.shutthebox.solo.table import VARIANTS, load_solo

SMALL = Rules(tiles=6, sides=4, one_die_at_most=5)


def agrees_with_exact(strategy):
    """40,000 seeded games within 4.5 standard errors of the strategy's exact values: a fixed seed, so this
    never flickers, yet a biased sampler fails."""
    exact = evaluate(strategy)
    sim = simulate(strategy, 40_000, seed=11, progress=False)
    p = float(exact.start_shut)
    assert abs(sim.shut - p) < 4.5 * math.sqrt(p * (1 - p) / sim.games)
    low, high = sim.score_interval
    assert abs(sim.score - float(exact.start_score)) < 4.5 * (high - low) / (2 * 1.96)


@pytest.mark.parametrize("name", list(STRATEGIES))
def test_simulation_agrees_with_exact_values_on_a_small_game(name):
    strategy = make(name, SMALL, seed=2)
    agrees_with_exact(strategy)


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


# -- other rule sets, the bisecting sampler, the game log ------------------------------------------

OPTIONAL = Rules(tiles=6, sides=4, one_die_at_most=6, one_die_optional=True, max_move_tiles=3)


@pytest.mark.parametrize("name", ["random", "greedy", "optimal", "optimal-score"])
def test_the_bisecting_sampler_plays_the_same_games_as_the_flat_table(name, monkeypatch):
    """Rule sets with too many outcomes for a flat table (four 20-sided dice) bisect each position's rolls
    instead: the same draws give the same games."""
    from shutthebox.games.shutthebox.solo import simulate as module

    strategy = make(name, OPTIONAL, seed=4)
    flat = simulate(strategy, 3000, seed=9, progress=False)
    monkeypatch.setattr(module, "FLAT_LIMIT", 0)
    rows = simulate(strategy, 3000, seed=9, progress=False)
    assert (flat.wins, flat.total, flat.squares) == (rows.wins, rows.total, rows.squares)


def test_the_bisecting_sampler_is_the_strategy_as_a_markov_chain():
    from fractions import Fraction

    from shutthebox.games.shutthebox.solo.simulate import sampling_rows

    for name in ("random", "optimal"):
        strategy = make(name, OPTIONAL)
        rows, _ = sampling_rows(strategy)
        shut = [Fraction(1)] + [Fraction(0)] * ((1 << OPTIONAL.tiles) - 1)
        for position in range(1, 1 << OPTIONAL.tiles):
            cumulative, entries, _ = rows[position]
            total, before = Fraction(0), -1
            for last, entry in zip(cumulative, entries):
                entries_of = entry if isinstance(entry, tuple) else (entry,)
                for x in entries_of:
                    total += Fraction((last - before) * (shut[x] if x >= 0 else 0), len(entries_of))
                before = last
            shut[position] = total / OPTIONAL.outcomes
        assert shut[-1] == evaluate(strategy).start_shut


@pytest.mark.parametrize("name", ["random", "greedy", "optimal", "optimal-score", "most-options-reference"])
def test_an_optional_one_die_rule_set_simulates_to_its_exact_values(name):
    strategy = make(name, OPTIONAL, seed=2)
    agrees_with_exact(strategy)


@pytest.mark.slow
def test_a_log_replays_against_the_rules_and_holds_the_same_games(tmp_path):
    from shutthebox.games.shutthebox.solo.simulate import replay

    log = tmp_path / "games.jsonl"
    result = run("simulate", "--variant", "two-dice", "--strategy", "greedy", "--strategy", "random",
                 "--games", "1000", "--log", str(log))
    assert result.returncode == 0 and result.stderr == "", result.stderr
    with open(log, encoding="utf-8") as handle:
        lines = handle.readlines()
    assert len(lines) == 2 * 1001
    blocks = replay(lines)
    for block in blocks:  # the logged games are the simulated ones: the same draws
        sim = simulate(make(block["header"]["strategy"], VARIANTS["two-dice"], seed=1), 1000, seed=1, progress=False)
        assert (block["games"], block["wins"], block["total"]) == (1000, sim.wins, sim.total)
        assert "%.4f%%" % (100 * sim.shut) in result.stdout
    first = json.loads(lines[1])
    assert first["throws"][0][0] == "123456789" and first["throws"][-1][3] in (None, first["throws"][-1][0])


@pytest.mark.parametrize("change, message", [
    (lambda game: game["throws"][0].__setitem__(2, 13), "2 dice cannot show 13"),
    (lambda game: game["throws"][0].__setitem__(3, "1"), "is not a move for"),
    (lambda game: game["throws"][1].__setitem__(0, "12345678"), "but the previous move left"),
    (lambda game: game.__setitem__("score", game["score"] + 1), "but the open tiles sum to"),
    (lambda game: game["throws"].pop(), "no throw ending it"),
])
def test_a_log_that_breaks_the_rules_is_refused(tmp_path, change, message):
    from shutthebox.games.shutthebox.solo.simulate import replay

    out = io.StringIO()
    simulate(make("greedy", VARIANTS["standard"]), 50, seed=2, progress=False, log=out)
    lines = out.getvalue().splitlines()
    number = next(i for i, line in enumerate(lines) if i and len(json.loads(line)["throws"]) > 2)
    game = json.loads(lines[number])
    change(game)
    lines[number] = json.dumps(game)
    with pytest.raises(ValueError, match=message):
        replay(lines)


def test_a_log_of_an_optional_rule_set_names_the_dice_thrown(tmp_path):
    from shutthebox.games.shutthebox.solo.simulate import replay

    out = io.StringIO()
    simulate(make("optimal", OPTIONAL), 3000, seed=3, progress=False, log=out)
    lines = out.getvalue().splitlines()
    assert replay(lines)[0]["games"] == 3000
    dice = {throw[1] for line in lines[1:] for throw in json.loads(line)["throws"]}
    assert dice == {1, 2}
    move = next(json.loads(line) for line in lines[1:] if json.loads(line)["throws"][0][1] == 2)
    move["throws"][0][1] = 1  # one die where the rules throw two
    with pytest.raises(ValueError, match="one die cannot be thrown at"):
        replay([lines[0], json.dumps(move)])


def test_game_options_choose_the_rules_of_a_simulation():
    result = run("simulate", "--tiles", "5", "--sides", "4", "--one-die", "never", "--strategy", "optimal",
                 "--games", "2000")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("t5-2d4 rules (tiles 1-5, 2 dice with 4 sides): 2,000 games")
    same = run("simulate", "--one-die", "never", "--variant", "two-dice", "--strategy", "greedy", "--games", "3000")
    assert same.returncode == 0 and "6.9583%" in same.stdout and same.stdout.startswith("two-dice rules")


@pytest.mark.parametrize("args, message", [
    (["--variant", "two-dice", "--tiles", "10"], "--variant two-dice is tiles 1-9, 2 dice with 6 sides, but the game"),
    (["--variant", "all", "--tiles", "10"], "--variant all and --tiles do not go together"),
    (["--players", "3"], "unrecognized arguments: --players"),
    (["--tiles", "0"], "--tiles"),
    (["--one-die", "sometimes"], "--one-die 'sometimes' is not a one-die rule"),
    (["--log", "/nonexistent/dir/log.jsonl", "--games", "10", "--strategy", "greedy"], "cannot write the log"),
])
def test_rule_option_errors_are_one_line(args, message):
    result = run("simulate", *args)
    assert result.returncode in (1, 2) and result.stdout == ""
    assert result.stderr.startswith("ShutTheBox: ") and message in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
