"""Goat head to head (``goat --duel``) and the distribution of the number of turns (``goat turns``).

Every value is checked by another route: a brute force in Fractions over ordered dice on small goals
(the optimal player's moves asked one at a time through the table's API), the shipped table itself
(optimal against optimal is the table's win chance at every pair of scores; the laws of optimal solo
play give back its expected turns), the independence of two fixed strategies (their duel from their
distributions of turns and final totals), the engine's policy evaluation, and games with real dice."""

import itertools
import math
import os
import random
from fractions import Fraction

import numpy as np
import pytest

from conftest import ROOT, run
from shutthebox.games.goat import analysis, chains, duel, turns
from shutthebox.games.goat.rules import Rules
from shutthebox.games.goat.table import load

GOAL = 100


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """Tables of small goals are solved into a fresh cache, never the user's."""
    monkeypatch.setenv("SHUTTHEBOX_CACHE", str(tmp_path))
    return tmp_path


# -- an independent brute force: ordered dice, Fractions, moves asked one at a time ---------------------------

def ordered_throws(k):
    """(chance of a match, {sum: chance}) of k dice, from the 6^k ordered outcomes."""
    law = {}
    for faces in itertools.product(range(1, 7), repeat=k):
        if len(set(faces)) == k:
            law[sum(faces)] = law.get(sum(faces), 0) + Fraction(1, 6**k)
    return 1 - sum(law.values()), law


THROWS = {k: ordered_throws(k) for k in range(1, 7)}


def turn_law(choose):
    """{gain: chance} of one turn whose action at (turn total, rolls taken) is ``choose(turn, rolls)``."""
    gains = {}

    def play(turn, rolls, chance):
        k = choose(turn, rolls) if rolls < 3 else 0
        if k == 0:
            gains[turn] = gains.get(turn, 0) + chance
            return
        bust, law = THROWS[k]
        gains[0] = gains.get(0, 0) + chance * bust
        for total, share in law.items():
            play(turn + total, rolls + 1, chance * share)

    play(0, 0, Fraction(1))
    return gains


def fixed_rule(k, t, score, goal):
    return lambda turn, rolls: k if rolls == 0 or (turn < t and score + turn < goal) else 0


def brute_duel(goal, first, second, table=None):
    """The chance that ``first`` (moving first) beats ``second`` from 0 to 0, as a Fraction. A side is
    (k, t) or "optimal" (the table's moves, asked through ``probe_move``)."""
    laws = {}

    def law(side, player, my, opp):
        key = (side, player, my, opp if side == "optimal" else None)
        if key not in laws:
            if side == "optimal":
                laws[key] = turn_law(lambda turn, rolls: table.probe_move(player, my, opp, turn, rolls))
            else:
                laws[key] = turn_law(fixed_rule(*side, my, goal))
        return laws[key]

    w_memo, x_memo = {}, {}

    def end(a, b):
        return Fraction(1) if a > b else Fraction(1, 2) if a == b else Fraction(0)

    def x(a, b):  # A has banked a, B (at b < goal) to move
        if a < goal:
            return x_loop(a, b)[1]
        if (a, b) not in x_memo:
            x_memo[a, b] = sum(p * end(a, b + h) for h, p in law(second, 2, b, a).items())
        return x_memo[a, b]

    def v(a, b):
        return w(a, b) if b < goal else Fraction(0)

    def x_loop(a, b):  # both below the goal: W(a, b) and X(a, b) solve a pair of equations
        if (a, b) not in w_memo:
            pa, pb = law(first, 1, a, b), law(second, 2, b, a)
            c1 = sum((p * x(a + g, b) for g, p in pa.items() if g), Fraction(0))
            c2 = sum((p * v(a, b + h) for h, p in pb.items() if h), Fraction(0))
            pa0, pb0 = pa.get(0, 0), pb.get(0, 0)
            value = (c1 + pa0 * c2) / (1 - pa0 * pb0)  # W = c1 + pa0 X, X = c2 + pb0 W
            w_memo[a, b] = (value, c2 + pb0 * value)
        return w_memo[a, b]

    def w(a, b):
        return x_loop(a, b)[0]

    for total in range(2 * goal - 2, -1, -1):  # deepest first: no deep recursion
        for a in range(max(0, total - goal + 1), min(total, goal - 1) + 1):
            w(a, total - a)
    return w(0, 0)


def assert_close(value, bound, exact):
    assert abs(value - float(exact)) <= bound + 1e-17, (value, float(exact), bound)
    assert "%.6f" % value == "%.6f" % exact


# -- the turn laws -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("k, t", [(1, 5), (2, 23), (3, 14), (6, 43), (4, 1)])
def test_fixed_laws_are_the_exact_turns_of_the_chains(k, t):
    laws = duel.fixed_laws(k, t, GOAL)
    for score in (0, 37, 80, 95, 99):
        exact = {g: p for g, p in chains.turn_gains(k, min(t, GOAL - score)).items() if p}
        assert {g: Fraction(int(c), duel.DEN) for g, c in enumerate(laws[score]) if c} == exact


def test_optimal_solo_laws_give_back_the_tables_expected_turns():
    table = load()
    law = duel.Optimal(table).solo / duel.DEN
    e = np.zeros(GOAL + 64)
    for s in range(GOAL - 1, -1, -1):
        e[s] = (1 + (law[s, 1:] * e[s + 1:s + 64]).sum()) / (1 - law[s, 0])
        assert abs(e[s] - table.probe_solo(s)) < 1e-11, s


# -- small goals against the brute force ----------------------------------------------------------------------

@pytest.mark.parametrize("goal, first, second", [
    (10, (1, 5), (2, 7)), (10, (2, 7), (1, 5)), (12, (3, 4), (1, 13)), (9, (1, 3), (1, 3)), (8, (6, 43), (2, 2)),
])
def test_fixed_duels_agree_with_fractions(goal, first, second):
    value, bound = duel.chance(goal, first, second)
    assert_close(value, bound, brute_duel(goal, first, second))


@pytest.mark.slow
@pytest.mark.parametrize("goal, first, second", [(8, (2, 6), "optimal"), (8, "optimal", (1, 4)),
                                                  (7, "optimal", "optimal")])
def test_duels_with_the_optimal_player_agree_with_fractions(cache, goal, first, second):
    table = load(Rules(goal))
    value, bound = duel.chance(goal, first, second, duel.Optimal(table))
    assert_close(value, bound, brute_duel(goal, first, second, table))


def test_a_fixed_strategy_ignores_the_seat():
    """Two fixed strategies: whoever moves first, the same chances (their games are independent)."""
    pairs = [((2, 23), (2, 22)), ((1, 13), (3, 14)), ((2, 23), (2, 23)), ((6, 43), (1, 1))]
    found = duel.chances(GOAL, pairs + [(b, a) for a, b in pairs])
    for (ab, e1), (ba, e2) in zip(found[:len(pairs)], found[len(pairs):]):
        assert abs(ab + ba - 1) <= e1 + e2
    assert "%.6f" % found[2][0] == "0.500000"


def test_optimal_against_optimal_is_the_table_at_every_pair_of_scores():
    table = load()
    table.preload()
    laws = duel.Laws(GOAL, [duel.OPTIMAL], [duel.OPTIMAL], duel.Optimal(table))
    w, err = duel.duel(laws)
    stored = np.frombuffer(table.file.whole("one").tobytes(), dtype="<f8").reshape(GOAL, GOAL, 63)[:, :, 0]
    # The table holds the best action's value; its move is the first within TIE = 1e-11 of it (docs/GOAT.md),
    # so playing the moves may give up a few TIEs over a game, no more.
    assert np.abs(w[0] - stored).max() <= 1e-10
    far = np.abs(stored * 1e6 - np.floor(stored * 1e6) - 0.5) > 1e-4
    assert (np.round(w[0][far] * 1e6) == np.round(stored[far] * 1e6)).all()
    assert "%.6f" % w[0, 0, 0] == "%.6f" % table.probe_win(1, 0, 0) == "0.454979"


def joint_law(k, t, goal, turns_):
    """P(N = n, final total = s) of a fixed strategy, n = 1..turns_, by its own forward pass over ordered dice."""
    law = {}
    for score in range(goal):
        law[score] = {g: float(p) for g, p in turn_law(fixed_rule(k, t, score, goal)).items()}
    mass = {0: 1.0}
    joint = []
    for _ in range(turns_):
        after, done = {}, {}
        for score, chance in mass.items():
            for gain, p in law[score].items():
                total = score + gain
                target = done if total >= goal else after
                target[total] = target.get(total, 0.0) + chance * p
        joint.append(done)
        mass = after
    return joint, sum(mass.values())


@pytest.mark.slow
def test_fixed_duels_from_the_distributions_of_turns():
    """Independent games: A wins if it reaches the goal in fewer turns, or in as many with a higher total."""
    count = 70
    laws = {side: joint_law(*side, GOAL, count) for side in [(2, 23), (2, 22), (2, 14), (1, 13)]}
    for a, b in [((2, 23), (2, 22)), ((2, 14), (2, 23)), ((1, 13), (2, 23))]:
        (ja, rest_a), (jb, rest_b) = laws[a], laws[b]
        assert rest_a < 1e-13 and rest_b < 1e-13
        before_a = 0.0  # P(N_A < n)
        total = 0.0
        for n in range(count):
            for s_b, p_b in jb[n].items():
                at = sum(p for s_a, p in ja[n].items() if s_a > s_b) + 0.5 * ja[n].get(s_b, 0.0)
                total += p_b * (before_a + at)
            before_a += sum(ja[n].values())
        value, bound = duel.chance(GOAL, a, b)
        assert abs(total - value) < 1e-12, (a, b, total, value)


@pytest.mark.slow
def test_a_fixed_first_player_against_optimal_by_the_engines_policy_evaluation():
    """The solver's own engine evaluates the mixed policy (the fixed player's actions, the table's for the
    optimal one): the same chance."""
    from shutthebox.games.goat import optimal
    from shutthebox.games.goat.solver import goat_turn, solve_groups

    table = load()
    table.preload()
    k, t, size = 2, 23, GOAL * GOAL
    two_move = np.frombuffer(table.file.whole("two_move").tobytes(), dtype="u1").reshape(size, 63)
    mine = np.repeat(np.arange(GOAL), GOAL)  # the first player's score at each position my * G + opp
    policy = np.concatenate([duel.fixed_policy(k, t, mine, GOAL), two_move])
    last = np.frombuffer(table.file.whole("last").tobytes(), dtype="<f8").reshape(64, 63)[:, 0]
    starts = solve_groups(goat_turn(), optimal.two_player_groups(GOAL), optimal.two_player_payoff(GOAL, last),
                          1.0, -1.0, 2 * size, 0.5, policy)
    value, bound = duel.chance(GOAL, (k, t), duel.OPTIMAL, duel.Optimal(table))
    assert abs(starts[0] - value) < 1e-12
    assert "%.6f" % value == "0.398872"


def real_game(goal, sides, table, rng):
    """1, 0.5 or 0 for the first player, rolling real dice; a side is (k, t) or "optimal"."""
    scores = [0, 0]
    while True:
        for player in (0, 1):
            my, opp = scores[player], scores[1 - player]
            turn = 0
            for rolls in range(3):
                side = sides[player]
                if side == "optimal":
                    dice = table.probe_move(player + 1, my, opp, turn, rolls)
                else:
                    dice = side[0] if rolls == 0 or (turn < side[1] and my + turn < goal) else 0
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


@pytest.mark.slow
@pytest.mark.parametrize("sides", [((1, 6), (2, 9)), ((2, 9), "optimal"), ("optimal", (3, 5))])
def test_real_dice_agree(cache, sides):
    goal = 20
    table = load(Rules(goal))
    value, _ = duel.chance(goal, *sides, duel.Optimal(table))
    rng = random.Random(3)
    games = [real_game(goal, sides, table, rng) for _ in range(3000)]
    mean = sum(games) / len(games)
    sd = math.sqrt(sum((g - mean) ** 2 for g in games) / (len(games) - 1))
    assert abs(mean - value) <= 2.58 * sd / math.sqrt(len(games)), (mean, value)


# -- the distribution of turns ------------------------------------------------------------------------------

def fraction_turns(k, t, goal, count):
    """P(N = n) for n = 1..count, exactly."""
    law = {s: turn_law(fixed_rule(k, t, s, goal)) for s in range(goal)}
    mass, out = {0: Fraction(1)}, []
    for _ in range(count):
        after, done = {}, Fraction(0)
        for s, chance in mass.items():
            for g, p in law[s].items():
                if s + g >= goal:
                    done += chance * p
                else:
                    after[s + g] = after.get(s + g, 0) + chance * p
        out.append(done)
        mass = after
    return out


@pytest.mark.slow
@pytest.mark.parametrize("k, t, goal", [(2, 9, 15), (1, 4, 12), (3, 30, 20)])
def test_turns_agree_with_fractions(cache, k, t, goal):
    table = load(Rules(goal))
    dist = turns.of_fixed(table, k, t, turns=12)
    for n, exact in enumerate(fraction_turns(k, t, goal, 12)):
        assert abs(dist.chances[n] - float(exact)) <= 1e-15
    assert abs(dist.rest - float(1 - sum(fraction_turns(k, t, goal, 12)))) <= 1e-14


@pytest.mark.parametrize("k, t", [(2, 23), (1, 13), (3, 14), (2, 1), (5, 41)])
def test_the_mean_of_the_distribution_is_the_expected_turns(k, t):
    table = load()
    dist = turns.of_fixed(table, k, t)
    assert abs(dist.mean - table.probe_fixed(0, k, t)) <= 1e-9 * table.probe_fixed(0, k, t)
    assert abs(dist.chances.sum() + dist.rest - 1) < 1e-12


def test_optimal_play_distribution_mean_and_spread():
    table = load()
    dist = turns.of_optimal(table, turns=120)
    assert dist.rest < 1e-15
    n = np.arange(1, 121)
    assert abs((n * dist.chances).sum() - table.probe_solo(0)) < 1e-9
    assert abs(math.sqrt((n * n * dist.chances).sum() - table.probe_solo(0) ** 2) - dist.sd) < 1e-8
    fixed = turns.of_fixed(table, 2, 23, turns=120)
    assert abs(math.sqrt((n * n * fixed.chances).sum() - table.probe_fixed(0, 2, 23) ** 2) - fixed.sd) < 1e-8


# -- the command ---------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_duel_questions():
    assert run("goat", "--duel", "2,23", "2,22").stdout == "0.500475\n"
    assert run("goat", "--duel", "optimal", "optimal").stdout == "0.454979\n"
    assert run("goat", "--duel", "2,99", "2,23").stdout == "0.500000\n"  # t above 43 plays as 43
    batch = run("goat", "--batch", stdin="--duel 2,23 optimal\n--duel optimal 2,23\n--one --expect 0 0\n")
    assert batch.stdout.split() == ["0.398872", "0.554205", "0.454979"]


@pytest.mark.parametrize("argv, words", [
    (["--duel", "2,23"], "takes A B"), (["--duel", "2,23", "x"], "K,T"), (["--duel", "7,3", "optimal"], "1 to 6"),
    (["--duel", "2,0", "optimal"], "1 or more"), (["--duel", "2,y", "optimal"], "whole number"),
    (["--duel", "2,23", "optimal", "--one"], "ask one question"), (["--duel", "1,2", "1,2", "1,2"], "takes A B"),
    (["--goal", "1", "--duel", "1,2", "1,2"], "--goal"),
])
def test_bad_duels_are_one_line_and_status_2(argv, words):
    result = run("goat", *argv)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


@pytest.mark.slow
def test_turns_command():
    result = run("goat", "turns", "--dice", "2", "--stop-at", "23")
    assert result.returncode == 0, result.stderr
    assert "mean 8.783638 (the exact expected turns: 8.783638)" in result.stdout
    optimal = run("goat", "turns", "--max", "5")
    assert "more than 5 turns" in optimal.stdout and "8.497837" in optimal.stdout
    for argv, words in [(["--dice", "2"], "both"), (["--max", "0"], "--max"), (["--dice", "9", "--stop-at", "3"],
                                                                             "--dice"), (["--bogus"], "unrecognized")]:
        bad = run("goat", "turns", *argv)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and words in bad.stderr, bad.stderr


@pytest.mark.slow
def test_strategies_show_the_head_to_head_and_the_premise(tmp_path):
    result = run("goat", "strategies", "--games", "0")
    assert result.returncode == 0, result.stderr
    assert 'premise "fewer expected turns means more wins": holds for 45 of the 45 pairs' in result.stdout
    assert "2,23+ (8.783638 turns) beats 2,22 (8.787015 turns) with 0.500475" in result.stdout
    report = run("goat", "report", "--games", "0", "--out", str(tmp_path))
    assert report.returncode == 0
    text = (tmp_path / "report.md").read_text()
    assert "## Head to head: the ten best" in text and "| 2,23+ | 8.783638 | 0.398872 | 0.445795 |" in text
    assert (tmp_path / "turns.csv").read_text().startswith("turns,2,23+,2,22,")


def test_head_to_head_values_are_duels():
    rows = analysis.analyse(Rules(), 0, 1, progress=False)
    h = analysis.HeadToHead(Rules(), rows, count=3)
    assert h.names == ["2,23+", "2,22", "2,21"]
    assert "%.6f" % h.beats[0][1] == "0.500475" and abs(h.beats[1][0] + h.beats[0][1] - 1) < 1e-15
    table = load()
    opt = duel.Optimal(table)
    assert abs(h.second[2] - (1 - duel.chance(GOAL, duel.OPTIMAL, (2, 21), opt)[0])) < 1e-15


def test_golden_duels_are_the_checked_values():
    """The golden file's duels are the values the tests above check independently."""
    with open(os.path.join(ROOT, "tests", "data", "goat-golden.txt"), encoding="utf-8") as handle:
        lines = dict(line.rstrip("\n").split("\t") for line in handle if "\t" in line and not line.startswith("#"))
    assert lines["--duel optimal optimal"] == "0.454979"  # the table's --one --expect 0 0
    assert lines["--duel 2,23 optimal"] == "0.398872"  # the engine's policy evaluation
    assert lines["--duel 2,23 2,22"] == "0.500475"  # the distributions of turns


def test_a_duel_without_numpy_says_what_to_install():
    import subprocess
    import sys

    blocked = ("import runpy, sys; sys.modules['numpy'] = None; sys.argv = ['ShutTheBox', 'goat', '--duel', "
               "'2,23', 'optimal']; runpy.run_module('shutthebox', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", blocked], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 4 and done.stdout == "", done  # a package missing: its own exit status
    assert done.stderr.count("\n") == 1 and "numpy package is missing" in done.stderr, done.stderr
    assert "-m pip install numpy" in done.stderr and "shutthebox[build]" not in done.stderr, done.stderr
