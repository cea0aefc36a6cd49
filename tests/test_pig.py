"""The Pig family on the command line and in Python: the published value, the questions, the refusals, the
small corpus table against an exact solve in fractions, the variants solved on first use, and the practical
policies' duels (the solver itself: tests/test_pig_solver.py)."""

import os
from fractions import Fraction

import pytest

import shutthebox
from conftest import ROOT, run
from shutthebox.errors import InvalidQuery
from shutthebox.games.pig.rules import Rules
from shutthebox.games.pig.table import load
from test_pig_solver import Exact

SMALL = os.path.join(ROOT, "tests", "data", "good", "pig-two-dice-g8.msgpack")


def test_neller_and_presser_s_published_chance():
    assert run("pig", "--expect").stdout == "0.530593\n"  # Neller and Presser (2004): 0.530593
    assert "%.6f" % shutthebox.open("pig").probe_win(0, 0, 0) == "0.530593"


def test_a_turn_starts_with_a_roll_and_ties_hold():
    table = load()
    assert all(table.probe_move(i, j, 0) == "roll" for i in range(0, 100, 7) for j in range(0, 100, 9))
    assert [choice for choice, _ in table.probe_options(10, 20, 0)] == ["roll"]
    options = table.probe_options(0, 0, 25)
    assert [choice for choice, _ in options] == ["hold", "roll"] and options[0][1] > options[1][1]


def test_options_agree_with_expect_and_move():
    table = load()
    for i, j, k in [(0, 0, 25), (50, 60, 10), (90, 95, 5), (10, 99, 30), (0, 0, 1)]:
        options = table.probe_options(i, j, k)
        assert options[0][0] == table.probe_move(i, j, k)
        assert options[0][1] == pytest.approx(table.probe_win(i, j, k), abs=1e-12)
        if k:
            hold = dict(options)["hold"]
            assert hold == 1.0 - table.probe_win(j, i + k, 0)


def test_the_small_corpus_table_is_the_exact_solution():
    """Every value and move of tests/data/good/pig-two-dice-g8.msgpack against policy iteration in fractions
    (the double 1s' reset included); both choices' chances of --options too."""
    table = load(Rules(variant="two-dice", goal=8), path=SMALL)
    game = Exact("two-dice", 8)
    starts = game.optimal()
    bound = Fraction(table.bound)
    for i in range(8):
        for j in range(8):
            for k, (value, q_hold, q_roll) in game.values(starts, 0, i, j).items():
                assert abs(Fraction(table.probe_win(i, j, k)) - value) <= bound, (i, j, k)
                chances = dict(table.probe_options(i, j, k))
                assert abs(Fraction(chances["roll"]) - q_roll) <= 2 * bound + Fraction(1, 2**50), (i, j, k)
                if q_hold is not None:
                    assert abs(Fraction(chances["hold"]) - q_hold) <= bound + Fraction(1, 2**50), (i, j, k)
                    if abs(q_roll - q_hold) > 1e-9:
                        assert table.probe_move(i, j, k) == ("roll" if q_roll > q_hold else "hold"), (i, j, k)


@pytest.mark.parametrize("argv, words", [
    (["--expect", "100", "0", "0"], "I 100 has reached the goal 100"),
    (["--expect", "0", "100", "0"], "J 100 has reached the goal 100"),
    (["--move", "60", "0", "40"], "I + K = 100 has reached the goal 100"),
    (["--expect", "-1", "0", "0"], "I is a score, 0 or more, not -1"),
    (["--expect", "a", "0", "0"], "the score I must be a whole number, not 'a'"),
    (["--goal", "1", "--expect"], "--goal must be a whole number from 2 to 200, not '1'"),
    (["--goal", "201", "--expect"], "--goal must be a whole number from 2 to 200, not '201'"),
    (["--variant", "piglet", "--goal", "60", "--expect"], "--goal of piglet must be a whole number from 2 to 50"),
    (["--variant", "piglet", "--sides", "2", "--expect"], "--sides is pig's die size; piglet flips a coin"),
    (["--variant", "big-pig", "--sides", "6", "--expect"], "--sides is pig's die size; big-pig rolls two"),
    (["--variant", "pig-latin", "--expect"], "--variant must be one of pig, piglet, two-dice, big-pig"),
    (["--sides", "1", "--expect"], "--sides must be a whole number from 2 to 20, not '1'"),
    (["--sides", "2", "--goal", "150", "--expect"], "--goal of pig with a 2-sided die must be a whole number"),
    (["--expect", "1", "2"], "--expect takes I J K, but got 2"),
])
def test_bad_questions_are_one_line_and_status_2(argv, words):
    done = run("pig", *argv)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("ShutTheBox: " + words), done.stderr


def test_the_api_refuses_odd_arguments_as_invalid_queries():
    table = load()
    numpy = pytest.importorskip("numpy")
    assert table.probe_win(numpy.int64(0), 0, numpy.int32(0)) == table.probe_win(0, 0, 0)
    for args in [(1.0, 0, 0), (True, 0, 0), ("0", 0, 0), (None, 0, 0), (10**5000, 0, 0)]:
        with pytest.raises(InvalidQuery):
            table.probe_win(*args)
        assert table.get_win(*args) is None
    with pytest.raises(InvalidQuery, match="rules must be a pig Rules object"):
        load("pig")
    with pytest.raises(InvalidQuery, match="pig has no rule dice"):
        Rules(dice=2)


def test_rules_are_values():
    rules = Rules(variant="piglet")
    assert rules == Rules(variant="piglet", goal=10, sides=2) and hash(rules) == hash(Rules(variant="piglet"))
    assert rules.as_dict() == {"variant": "piglet", "goal": 10, "sides": 2}
    assert Rules.from_fields(rules.fields()) == rules
    with pytest.raises(AttributeError):
        rules.goal = 20


def test_a_batch_answers_as_single_questions():
    lines = ["--expect", "--move 0 0 21", "--options 50 60 10", "--expect 99 0 1", "", "--expect 5 6 7"]
    batch = run("pig", "--batch", stdin="".join(line + "\n" for line in lines))
    singles = []
    for line in lines:
        if not line:
            singles.append("")
            continue
        done = run("pig", *line.split())
        singles.append(done.stdout.strip() or "error: " + done.stderr.strip().removeprefix("ShutTheBox: "))
    assert batch.stdout.splitlines() == singles and batch.returncode == 1


def test_rules_names_the_table():
    done = run("pig", "--rules")
    assert done.returncode == 0 and "pig-pig-g100-s6.msgpack" in done.stdout
    assert "pig: first to 100; one 6-sided die; a 1 ends the turn" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("variant, goal, published", [
    ("piglet", 10, "0.522479"), ("two-dice", 100, "0.519559"), ("big-pig", 100, "0.535963")])
def test_the_variants_are_solved_on_first_use(variant, goal, published, private_cache):
    """The three figures the solver gave before these tests: tests/test_pig_solver.py confirms them by plain
    value iteration, and every variant on small goals in fractions."""
    done = run("pig", "--variant", variant, "--expect", env={"SHUTTHEBOX_CACHE": private_cache})
    assert done.returncode == 0 and done.stdout == published + "\n", done.stderr
    assert os.path.exists(os.path.join(private_cache, "pig-%s-g%d-s%d.msgpack" % (variant, goal, 2 if variant ==
                                                                                  "piglet" else 6)))


@pytest.mark.slow
def test_strategies_prints_every_policy_against_optimal_play():
    done = run("pig", "strategies", "--goal", "30")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("pig: first to 30") and "solving 16 exact duels" in done.stderr
    rows = {line[:22].strip(): line[22:].split() for line in lines[3:7]}
    assert set(rows) == {"optimal", "hold at 20", "hold at 25", "keep pace, end race"}
    assert rows["optimal"][2] == "0.000000" and all(float(row[2]) >= 0 for row in rows.values())


@pytest.mark.slow
def test_a_value_too_near_a_rounding_midpoint_is_refused_not_guessed(private_cache):
    """Two-Dice Pig to 100 at (0, 19, 9) is 0.44897050000000693 in float64, 6.9e-15 from the midpoint
    0.4489705 and under its bound 1.2e-13: its 6th decimal is not proven, so the question is refused (exit 3) on
    every path (exit 2, a batch line's error); its move is still answered."""
    env = {"SHUTTHEBOX_CACHE": private_cache}
    for argv in (["--expect", "0", "19", "9"], ["--options", "0", "19", "9"]):
        done = run("pig", "--variant", "two-dice", *argv, env=env)
        assert done.returncode == 2 and "cannot be vouched for" in done.stderr, done.stderr
    batch = run("pig", "--variant", "two-dice", "--batch", stdin="--expect 0 19 9\n--expect 0 19 8\n", env=env)
    lines = batch.stdout.splitlines()
    assert batch.returncode == 1 and lines[0].startswith("error: this chance") and "vouched" in lines[0]
    assert lines[1] == run("pig", "--variant", "two-dice", "--expect", "0", "19", "8", env=env).stdout.strip()
    assert run("pig", "--variant", "two-dice", "--move", "0", "19", "9", env=env).stdout == "roll\n"
