"""Goat: the fixed strategies' chains against an independent Fraction solve and Monte Carlo, the shipped table
checked by a Bellman sweep and its actions optimal, optimal play against a fixed strategy by Monte Carlo, the
command's answers and errors (Pig's published value on the same engine: tests/test_pig_solver.py)."""

import functools
import itertools
import math
import os
import random
from fractions import Fraction

import numpy as np
import pytest

from conftest import ROOT, run
from shutthebox.games.goat import analysis, optimal
from shutthebox.games.goat.rules import Rules, slot
from shutthebox.games.goat.solver import TIE, goat_turn, play_turn
from shutthebox.games.goat.table import load

GOAL = 100


# -- an independent exact solve of a fixed strategy: ordered throws, Fractions, no shared code ------------

def throw(k):
    """{sum: chance} of a throw of k dice with no match (the rest is a match)."""
    law = {}
    for faces in itertools.product(range(1, 7), repeat=k):
        if len(set(faces)) == k:
            law[sum(faces)] = law.get(sum(faces), 0) + Fraction(1, 6**k)
    return law


def strategy_turns(k, t, goal):
    """E(s) for s = 0..goal-1 of the strategy (k, t): expected turns, this one counted, as Fractions."""
    law = throw(k)
    values = {}
    for s in range(goal - 1, -1, -1):
        gains = {}
        frontier = {0: Fraction(1)}
        for rolls in range(1, 4):
            nxt = {}
            for turn, chance in frontier.items():
                for total, share in law.items():
                    nxt[turn + total] = nxt.get(turn + total, 0) + chance * share
            frontier = {}
            for turn, chance in nxt.items():
                if turn >= t or s + turn >= goal or rolls == 3:
                    gains[turn] = gains.get(turn, 0) + chance
                else:
                    frontier[turn] = chance
        scored = sum(gains.values())
        rest = sum((chance * values[s + gain] for gain, chance in gains.items() if s + gain < goal), Fraction(0))
        values[s] = (1 + rest) / scored  # E = 1 + (1 - scored) E + rest
    return [values[s] for s in range(goal)]


@pytest.mark.parametrize("k, t", [(2, 23), (1, 13), (3, 14), (4, 1), (6, 22), (5, 41)])
def test_fixed_strategies_agree_with_fractions(k, t):
    table = load()
    exact = strategy_turns(k, t, GOAL)
    for s in range(GOAL):
        assert "%.6f" % table.probe_fixed(s, k, t) == "%.6f" % exact[s], (s, exact[s])
        assert abs(table.probe_fixed(s, k, t) - float(exact[s])) <= float(exact[s]) * 2.0**-52


@pytest.mark.slow
def test_every_strategy_on_a_small_goal_is_exact():
    """Every stored value is the float that prints the independent Fraction correctly rounded."""
    from shutthebox.engine.writer import printed_float
    from shutthebox.games.goat.build import fixed_values

    values = fixed_values(12)
    for k, t, _ in analysis.strategies():
        exact = strategy_turns(k, t, 12)
        assert values[k - 1][t - 1] == [printed_float(v.numerator, v.denominator) for v in exact], (k, t)


def dice_game(k, t, goal, rng):
    """Turns to the goal rolling real dice with the strategy (k, t)."""
    score = turns = 0
    while score < goal:
        turns += 1
        turn = 0
        for rolls in range(1, 4):
            faces = [rng.randint(1, 6) for _ in range(k)]
            if len(set(faces)) < k:
                turn = 0
                break
            turn += sum(faces)
            if turn >= t or score + turn >= goal:
                break
        score += turn
    return turns


@pytest.mark.parametrize("k, t", [(2, 23), (1, 13), (3, 10)])
def test_monte_carlo_agrees_with_the_exact_values(k, t):
    exact = load().probe_fixed(0, k, t)
    mean, half = analysis.simulate(k, t, GOAL, 20_000, seed=7)
    assert abs(mean - exact) <= half
    rng = random.Random(11)
    games = [dice_game(k, t, GOAL, rng) for _ in range(3000)]  # real dice, no shared law
    average = sum(games) / len(games)
    sd = math.sqrt(sum((g - average) ** 2 for g in games) / (len(games) - 1))
    assert abs(average - exact) <= 1.96 * sd / math.sqrt(len(games))


def test_most_intervals_of_the_strategies_table_contain_the_exact_values():
    rows = analysis.analyse(Rules(), 2000, seed=1, progress=False)
    inside = [abs(mean - exact) <= half for _, _, _, exact, (mean, half) in rows]
    assert sum(inside) >= 0.9 * len(rows)
    assert all(abs(mean - exact) <= 2.5 * half for _, _, _, exact, (mean, half) in rows)
    lines = analysis.recommendation(Rules(), rows)
    assert lines[0].startswith("recommended: roll 2 dice every roll and take all three rolls of every turn")


# -- the shipped table: a fixed point, every action optimal -----------------------------------------------

def stored(name, table):
    return np.frombuffer(table.file.whole(name).tobytes(), dtype="<f8" if "move" not in name else "u1")


def check_part(turn, payoff, values, actions, starts_of):
    """One Bellman step from the stored values: the start values come back, and each stored action is
    within TIE of the best and the first such of stop, roll 1, ..., roll 6."""
    gains = payoff
    columns = np.concatenate([gains, values], axis=1)
    for slots, stop, moves in turn.levels:
        allowed = stop >= 0
        options = np.stack([np.where(allowed, columns[:, np.maximum(stop, 0)], -np.inf)]
                           + [columns @ weights for _, weights in moves])
        best = options.max(axis=0)
        assert np.abs(best - values[:, slots]).max() < 1e-12
        chosen = actions[:, slots].astype(int)
        value = np.take_along_axis(options, chosen[None], 0)[0]
        assert (value >= best - TIE).all()
        first = np.argmax(options >= best - TIE, axis=0)
        assert (first == chosen).all()
    assert np.abs(values[:, 0] - starts_of).max() < 1e-12


def test_the_shipped_table_is_a_fixed_point_and_its_actions_are_optimal():
    table = load()
    table.preload()
    turn = goat_turn()
    g, slots = GOAL, 63
    size = g * g
    # solo: stored as expected turns; the engine maximises minus them
    solo = -stored("solo", table).reshape(g, slots)
    solo_move = stored("solo_move", table).reshape(g, slots)
    total = np.arange(g)[:, None] + np.arange(64)[None, :]
    gains = np.where(total < g, -1.0 + solo[np.minimum(total, g - 1), 0], -1.0)
    gains[:, 0] = -1.0 + solo[:, 0]
    check_part(turn, gains, solo, solo_move, solo[:, 0])
    # the last turn
    last = stored("last", table).reshape(64, slots)
    needs = np.arange(1, 65)[:, None]
    gains = np.where(np.arange(64)[None, :] > needs, 1.0, np.where(np.arange(64)[None, :] == needs, 0.5, 0.0))
    check_part(turn, gains, last, stored("last_move", table).reshape(64, slots), last[:, 0])
    # two players: positions as in optimal.py
    values = np.concatenate([stored("one", table).reshape(size, slots), stored("two", table).reshape(size, slots)])
    actions = np.concatenate([stored("one_move", table).reshape(size, slots),
                              stored("two_move", table).reshape(size, slots)])
    starts = values[:, 0]
    gains = optimal.two_player_payoff(g, last[:, 0])(np.arange(2 * size), starts)
    gains[:, 0] = 1.0 - starts[optimal.two_player_partners(g)]
    check_part(turn, gains, values, actions, starts)


@functools.lru_cache(maxsize=2)
def solved(goal):
    """The build's parts of ``goal`` (goat.build.solve_parts), shared by the tests of the error bound."""
    from shutthebox.games.goat.build import solve_parts

    return solve_parts(goal)


@pytest.mark.slow
def test_the_header_error_bound_covers_the_engine_theorem():
    """The shipped header's error_bound is at least the Theorem's figure (engine/pushluck.py), computed here
    from the build's parts: each verifying sweep's residual, the turns counted free among the tied actions
    (the build's count), and Lemma 1's rounding with C the largest payoff in size: 1 + the most expected
    turns for solo (a payoff is -1 + V(next)), 1 for chances; the last turn, acyclic from exact payoffs,
    within its rounding only. The Theorem's hypothesis holds for the tie width each count was made with."""
    from shutthebox.engine import pushluck
    from shutthebox.games.goat.build import error_bounds

    turn, solo, two, _ = solved(GOAL)
    bounds = error_bounds(GOAL, turn, solo, two)
    most = float(-solo.starts.min())
    assert bounds["solo"].turns >= most  # free among ties: at least the optimal player's own count
    assert bounds["two-player"].turns >= 2 and two.width <= TIE
    rho = {"solo": pushluck.rounding(turn, 1.0 + most), "two-player": pushluck.rounding(turn, 1.0)}
    figures = {"last-turn": pushluck.rounding(turn, 1.0)}
    for name, part in (("solo", solo), ("two-player", two)):
        pushluck.check_tie(part.residual, bounds[name].turns, rho[name], part.width)
        figures[name] = pushluck.error_bound(part.residual, bounds[name].turns, rho[name])
    assert {name: bound.value for name, bound in bounds.items()} == figures
    assert float(load().file.header["error_bound"]) >= max(figures.values())


@pytest.mark.slow
def test_the_known_values_are_sure_and_stored_exactly():
    """A position of known value ends the game for the two-player count (engine/pushluck.py): at goal 20 the
    known values are the second player's sure wins, 3 or fewer short of the goal (one die never matches);
    at goal 100 there are sure losses too, and every known value is stored exactly."""
    for goal in (20, GOAL):
        turn, _, two, _ = solved(goal)
        wins, losses = optimal.known_values(goal, two, turn)
        positions = np.arange(2 * goal * goal)
        sure = (positions >= goal * goal) & ((positions % (goal * goal)) // goal >= goal - 3)
        assert wins[sure].all() and (two.starts[wins] == 1.0).all() and (two.starts[losses] == 0.0).all()
        assert not (wins & losses).any()
        if goal == 20:
            assert (wins == sure).all() and not losses.any()
        else:
            assert wins.sum() > sure.sum() and losses.any()


# -- optimal play against a fixed strategy: exact and by Monte Carlo ----------------------------------------

def fixed_policy(k, t, goal, my):
    """Actions (positions x slots) of the strategy (k, t) for a player with banked ``my``."""
    policy = np.full((len(my), 63), k, dtype=np.uint8)
    for rolls in (1, 2):
        for turn in range(rolls, 21 * rolls + 1):
            policy[:, slot(rolls, turn)] = np.where((turn >= t) | (my + turn >= goal), 0, k)
    return policy


@pytest.mark.slow
def test_optimal_against_a_fixed_strategy_agrees_with_monte_carlo():
    """The first player plays the table's actions, the second rolls 2 dice until the turn total reaches 23
    (whatever the scores): the exact win chance (policy evaluation on the engine) against 4000 games."""
    from shutthebox.games.goat.solver import solve_groups

    g, k, t = 30, 2, 23
    table = load(Rules(g))
    table.preload()
    turn, size = goat_turn(), g * g
    one_move = np.frombuffer(table.file.whole("one_move").tobytes(), dtype="u1").reshape(size, 63)
    # the fixed player's last turn
    needs = np.arange(1, 65)
    payoff = np.where(np.arange(64)[None, :] > needs[:, None], 1.0,
                      np.where(np.arange(64)[None, :] == needs[:, None], 0.5, 0.0))
    last = play_turn(turn, payoff, fixed_policy(k, t, g, np.zeros(64, dtype=int)))[0][:, turn.gains]
    policy = np.concatenate([one_move, fixed_policy(k, t, g, np.zeros(2 * size, dtype=int))[size:]])
    partners = optimal.two_player_partners(g)
    groups = []
    for total in range(2 * g - 2, -1, -1):
        mine = np.arange(max(0, total - g + 1), min(total, g - 1) + 1)
        ones = mine * g + (total - mine)
        n = len(mine)
        groups.append((np.concatenate([ones, partners[ones]]), np.concatenate([np.arange(n, 2 * n), np.arange(n)])))
    starts = solve_groups(turn, groups, optimal.two_player_payoff(g, last), 1.0, -1.0, 2 * size, 0.5, policy)
    exact = starts[0]
    rng = random.Random(5)
    results = [play_game(table, g, k, t, rng) for _ in range(4000)]
    mean = sum(results) / len(results)
    sd = math.sqrt(sum((r - mean) ** 2 for r in results) / (len(results) - 1))
    assert abs(mean - exact) <= 1.96 * sd / math.sqrt(len(results)), (mean, exact)
    assert exact > 0.5  # optimal play beats the best fixed strategy even moving first


def play_game(table, goal, k, t, rng):
    """1, 0.5 or 0 for the first player (the table's moves) against (k, t) rolled with real dice."""
    scores = [0, 0]
    while True:
        for player in (0, 1):
            my, opp = scores[player], scores[1 - player]
            turn = 0
            for rolls in range(3):
                if player == 0:
                    dice = table.probe_move(1, my, opp, turn, rolls)
                else:
                    dice = k if rolls == 0 or turn < t else 0
                if dice == 0:
                    break
                faces = [rng.randint(1, 6) for _ in range(dice)]
                if len(set(faces)) < dice:
                    turn = 0
                    break
                turn += sum(faces)
            scores[player] += turn
        if max(scores) >= goal:
            return 1.0 if scores[0] > scores[1] else 0.5 if scores[0] == scores[1] else 0.0


# -- the command ---------------------------------------------------------------------------------------------

def test_golden_fixed_strategies_are_independently_true():
    """The golden file's answers (the same on every surface: tests/test_contract.py) against exact Fractions."""
    with open(os.path.join(ROOT, "tests", "data", "goat-golden.txt"), encoding="utf-8") as handle:
        pairs = [line.rstrip("\n").split("\t") for line in handle if "\t" in line and not line.startswith("#")]
    assert any("--dice" in question for question, _ in pairs)
    for question, answer in pairs:  # the fixed strategies, against the independent Fractions
        words = question.split()
        if "--dice" in words and not answer.startswith("error"):
            s, k, t = int(words[2]), int(words[4]), int(words[6])
            assert answer == "%.6f" % strategy_turns(k, min(t, 43), GOAL)[s]


@pytest.mark.parametrize("argv, words", [
    (["--solo", "--expect", "0", "22", "1"], "cannot make"), (["--solo", "--move", "0", "5", "0"], "turn total is 0"),
    (["--solo", "--expect", "0", "0", "3"], "0 to 2"), (["--one", "--expect", "0", "0", "3", "-1"], "0 to 2"),
    (["--one", "--expect", "10", "100"], "reached the goal"), (["--solo", "--expect", "0", "--dice", "0",
                                                                 "--stop-at", "5"], "1 to 6"),
    (["--solo", "--expect", "0", "--dice", "7", "--stop-at", "5"], "1 to 6"),
    (["--solo", "--expect", "0", "--dice", "2", "--stop-at", "0"], "1 or more"),
    (["--solo", "--expect", "-3"], "0 or more"), (["--two", "--expect", "1", "-2"], "0 or more"),
    (["--solo", "--expect", "abc"], "whole number"), (["--one", "--move", "0", "0", "x", "1"], "whole number"),
    (["--solo", "--expect", "100"], "reached the goal"), (["--two", "--expect", "0", "200"], "out of reach"),
    (["--one", "--move", "0", "0"], "takes MY OPP TURN ROLLS"), (["--expect", "0"], "ask one question"),
    (["--one", "--expect", "0", "0", "--dice", "2", "--stop-at", "3"], "fixed strategy"),
    (["--goal", "1", "--solo", "--expect", "0"], "--goal"), (["--goal", "x", "--solo", "--expect", "0"], "--goal"),
    (["--bogus"], "unknown option"), (["--solo", "--expect", "9" * 5000], "far out of range"),
])
def test_bad_questions_are_one_line_and_status_2(argv, words):
    result = run("goat", *argv)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


@pytest.mark.slow
def test_other_goals_are_solved_on_first_use_and_cached(tmp_path):
    env = {"SHUTTHEBOX_CACHE": str(tmp_path)}
    first = run("goat", "--goal", "20", "--solo", "--expect", "3", "--dice", "3", "--stop-at", "9", env=env)
    assert first.returncode == 0 and os.path.exists(tmp_path / "goat-g20.msgpack")
    assert first.stdout.strip() == "%.6f" % strategy_turns(3, 9, 20)[3]


@pytest.mark.slow
def test_help_rules_and_report(tmp_path):
    assert "--stop-at" in run("goat", "--help").stdout
    assert "first to 100" in run("goat", "--rules").stdout
    result = run("goat", "report", "--out", str(tmp_path), "--games", "200")
    assert result.returncode == 0, result.stderr
    assert {"report.md", "strategies.svg", "strategies.csv"} <= set(os.listdir(tmp_path))
    assert (tmp_path / "strategies.csv").read_text().count("\n") == 189
