"""yazy: the published 165.76, a brute force over every ordered dice outcome with Fractions on small category
sets, single categories worked out by hand, every stored value and move checked against the table itself,
the command's questions and errors, simulation, and the golden answers.

Nothing here shares code with the solver: scoring, the keeps and their chances are written again below.
"""

import os
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import comb

import numpy as np
import pytest

from bruteforce import SORTED_ROLLS, reroll_levels
from conftest import ROOT, run
from shutthebox.games.yazy.table import load

NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house", "straight",
         "yazy")
SCORE = 32


def points(name, dice):
    counts = sorted(Counter(dice).values())
    if name in NAMES[:6]:
        face = NAMES.index(name) + 1
        return face * dice.count(face)
    if name == "three-kind":
        return sum(dice) if counts[-1] >= 3 else 0
    if name == "four-kind":
        return sum(dice) if counts[-1] >= 4 else 0
    if name == "full-house":
        return 25 if counts == [2, 3] else 0
    if name == "straight":
        return 40 if set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    return 50 if counts == [5] else 0


def bits(names):
    return sum(1 << NAMES.index(name) for name in names)


# -- the brute force: every ordered outcome of every roll, exact ---------------------------

@lru_cache(maxsize=None)
def brute_start(open_names: frozenset) -> Fraction:
    """The maximum expected sum of the scores to come at the start of a turn, over all 6**5 ordered rolls."""
    if not open_names:
        return Fraction(0)
    later = brute_turn(open_names)[2]
    return sum(later[tuple(sorted(dice))] for dice in product(range(1, 7), repeat=5)) / 6**5


@lru_cache(maxsize=None)
def brute_turn(open_names: frozenset):
    """[V0, V1, V2]: sorted roll -> exact value with 0, 1, 2 rerolls left; holding is any subset of the five
    dice (holding all five passes), the others are rerolled over every ordered outcome."""
    now = {roll: max(points(name, roll) + brute_start(open_names - {name}) for name in open_names)
           for roll in SORTED_ROLLS}
    return reroll_levels(now)


def brute_move(open_names: frozenset, roll, rerolls) -> str:
    """The best move by the tie rule, decided exactly: score (categories in order) before keeping, more dice
    kept before fewer, then the lowest dice."""
    values = brute_turn(open_names)
    best = values[rerolls][roll]
    for name in NAMES:
        if name in open_names and points(name, roll) + brute_start(open_names - {name}) == best:
            return "score " + name
    held = values[rerolls]["held"]
    keeps = {tuple(die for p, die in enumerate(roll) if m >> p & 1) for m in range(31)}
    for keep in sorted(keeps, key=lambda keep: (-len(keep), keep)):
        if held[keep] == best:
            return "keep " + (" ".join(map(str, keep)) or "none")
    raise AssertionError("no move reaches the best value")


SMALL_SETS = [frozenset(names) for names in (
    ("ones",), ("yazy",), ("straight",), ("full-house",), ("four-kind",), ("three-kind",), ("sixes",),
    ("ones", "yazy"), ("full-house", "sixes"), ("three-kind", "four-kind"), ("fours", "straight", "yazy"),
    ("twos", "three-kind", "full-house", "straight"))]


@pytest.fixture(scope="module")
def table():
    table = load()
    table.preload()
    return table


@pytest.mark.parametrize("open_names", [pytest.param(names, marks=pytest.mark.slow if len(names) >= 4 else ())
                                        for names in SMALL_SETS], ids=lambda s: ",".join(sorted(s)))
def test_the_table_agrees_with_a_brute_force_over_ordered_dice(table, open_names):
    mask = bits(open_names)
    exact = brute_start(open_names)
    assert abs(table.probe_expect(mask) - exact) < 1e-12
    assert "%.6f" % table.probe_expect(mask) == "%.6f" % exact
    values = brute_turn(open_names)
    for roll in SORTED_ROLLS:
        dice = "".join(map(str, roll))
        for rerolls in (0, 1, 2):
            value = values[rerolls][roll]
            assert abs(table.probe_expect(mask, dice, rerolls) - value) < 1e-12, (dice, rerolls)
            assert table.probe_move(mask, dice, rerolls) == brute_move(open_names, roll, rerolls), (dice, rerolls)


def test_single_categories_worked_out_by_hand(table):
    # A face category: keep every die showing it; each die shows it within 3 rolls with chance 1 - (5/6)**3.
    for face, name in enumerate(NAMES[:6], 1):
        assert abs(table.probe_expect(name) - face * 5 * (1 - Fraction(5, 6) ** 3)) < 1e-12
    # yazy alone: the chance of five of a kind in three rolls, keeping the most common face, 2783176 / 6**10.
    assert abs(table.probe_expect("yazy") - 50 * Fraction(2783176, 6**10)) < 1e-12
    # With one roll left, five dice of which k already agree make five of a kind with chance (1/6)**(5 - k).
    assert abs(table.probe_expect("yazy", "11112", 0) - 0) < 1e-15
    assert abs(table.probe_expect("yazy", "11112", 1) - Fraction(50, 6)) < 1e-12
    assert abs(table.probe_expect("yazy", "12345", 1) - Fraction(50, 6**4)) < 1e-12
    assert "%.6f" % table.probe_expect("none") == "0.000000"


def test_the_published_maximum_expected_score():
    value = load().probe_expect("all")
    assert round(value, 2) == 165.76 and "%.6f" % value == "165.757319"
    assert run("yazy", "--expect").stdout == "165.757319\n"
    assert run("yazy", "--expect", "all").stdout == "165.757319\n"


# -- every stored value and move, checked against the table itself ---------------------

def keep_chances():
    """(chance[keep, roll] of each final roll after keeping ``keep``, the keeps), by counting ordered outcomes."""
    keeps = sorted({keep for roll in SORTED_ROLLS for m in range(32)
                    for keep in [tuple(d for p, d in enumerate(roll) if m >> p & 1)]},
                   key=lambda keep: (-len(keep), keep))
    where = {roll: number for number, roll in enumerate(SORTED_ROLLS)}
    chance = np.zeros((len(keeps), len(SORTED_ROLLS)))
    for k, keep in enumerate(keeps):
        rolled = 5 - len(keep)
        for outcome in product(range(1, 7), repeat=rolled):
            chance[k, where[tuple(sorted(keep + outcome))]] += 1 / 6**rolled
    return chance, keeps


@pytest.mark.slow
def test_every_stored_value_and_move_is_optimal(table):
    """A Bellman sweep from the stored values gives them back, and each stored move reaches the best value
    and is the first such move in the tie order."""
    turn = np.array(table.file.whole("turn"))
    expect = np.array(table.file.whole("expect")).reshape(2048, 3, 252)
    move = np.array(table.file.whole("move")).reshape(2048, 3, 252)
    chance, keeps = keep_chances()
    keep_index = {keep: k for k, keep in enumerate(keeps)}
    sub_keeps = [[keep_index[keep] for keep in sorted({tuple(d for p, d in enumerate(roll) if m >> p & 1)
                                                       for m in range(31)}, key=lambda keep: (-len(keep), keep))]
                 for roll in SORTED_ROLLS]
    scores = np.array([[points(name, roll) for roll in SORTED_ROLLS] for name in NAMES], dtype=float)
    masks = np.arange(1, 2048)
    options = np.full((2047, 11, 252), -np.inf)
    for c in range(11):
        open_ = (masks >> c & 1).astype(bool)
        options[open_, c] = scores[c] + turn[masks[open_] & ~(1 << c)][:, None]
    best = options.max(axis=1)
    assert np.abs(expect[1:, 0] - best).max() < 1e-9
    tol = 1e-9  # far below the smallest real gap between moves (1.7e-5), far above float noise
    first = np.argmax(options >= best[:, None] - tol, axis=1)
    assert (move[1:, 0] == SCORE + first).all()
    for rerolls in (1, 2):
        after = expect[1:, rerolls - 1] @ chance.T  # (2047, keeps)
        for r, roll in enumerate(SORTED_ROLLS):
            values = after[:, sub_keeps[r]]
            top = np.maximum(best[:, r], values.max(axis=1))
            assert np.abs(expect[1:, rerolls, r] - top).max() < 1e-9
            scoring = best[:, r] >= top - tol
            assert (move[1:, rerolls, r][scoring] == move[1:, 0, r][scoring]).all()
            chosen = np.argmax(values >= top[:, None] - tol, axis=1)
            kept = [keeps[sub_keeps[r][j]] for j in chosen[~scoring]]
            stored = move[1:, rerolls, r][~scoring]
            assert all(tuple(d for p, d in enumerate(roll) if code >> p & 1) == keep for code, keep in zip(stored, kept))
            # of equal dice the first are kept: one code per keep
            assert all(code < 31 and all(not code >> p & 1 or p == 0 or roll[p - 1] != roll[p] or code >> p - 1 & 1
                                         for p in range(5)) for code in stored)
    assert np.abs(turn[1:] - expect[1:, 2] @ chance[keep_index[()]]).max() < 1e-9
    assert turn[0] == 0 and (move[0] == 255).all()


def test_the_roll_index_formula_of_the_docs():
    """docs/YAZY.md: the rank of d1 <= ... <= d5 among the sorted rolls in lexicographic order."""
    for index, roll in enumerate(SORTED_ROLLS):
        rank, low = 0, 1
        for i, die in enumerate(roll):
            rank += sum(comb(6 - v + 4 - i, 4 - i) for v in range(low, die))
            low = die
        assert rank == index
    assert SORTED_ROLLS.index((1, 2, 3, 4, 5)) == 76 and SORTED_ROLLS.index((6, 6, 6, 6, 6)) == 251


def test_the_shared_score_constant_is_yazy_s_scoring():
    from shutthebox.games.yazy import turn
    from shutthebox.games.yazy.rules import CATEGORIES, score

    assert [list(turn.score_row(c)) for c in range(len(CATEGORIES))] == [
        [score(c, roll) for roll in SORTED_ROLLS] for c in range(len(CATEGORIES))]


# -- the command ---------------------------------------------------------------------

def test_the_command_answers_each_form():
    assert run("yazy", "--move", "yazy", "61111", "2").stdout == "keep 1 1 1 1\n"
    assert run("yazy", "--move", "all", "66666", "2").stdout == "score yazy\n"  # keeping all five: scoring
    assert run("yazy", "--move", "yazy", "12345", "2").stdout == "keep 1\n"
    assert run("yazy", "--move", "straight", "12346", "0").stdout == "score straight\n"
    assert run("yazy", "--expect", "yazy", "54321", "1").stdout == "%.6f\n" % (50 / 6**4)
    assert run("yazy", "--move", "yazy", "12345", "1").stdout == "keep 1\n"
    help_text = run("yazy", "--help").stdout
    assert "--move CATS DICE REROLLS" in help_text and "chance to beat" in help_text
    rules = run("yazy", "--rules")
    assert rules.returncode == 0 and "yazy.msgpack" in rules.stdout and "full-house" in rules.stdout


@pytest.mark.parametrize("argv, words", [
    (["--expect", "chance"], "unknown category 'chance'"), (["--expect", "ones,ones"], "listed twice"),
    (["--move", "all", "1234", "2"], "five dice, not 4"), (["--move", "all", "123456", "2"], "five dice, not 6"),
    (["--move", "all", "12347", "2"], "1 to 6, not 7"), (["--expect", "all", "02345", "1"], "1 to 6, not 0"),
    (["--move", "all", "12345", "3"], "0, 1 or 2, not 3"), (["--move", "all", "12345", "-1"], "0, 1 or 2"),
    (["--move", "none", "12345", "1"], "no category is open"), (["--move", "all", "1 2 3 4 5", "1"], "digits"),
    (["--move", "all", "12345"], "takes CATS DICE REROLLS"), (["--expect", "all", "12345"], "takes [CATS]"),
    (["--move", "all", "12345", "x"], "whole number"), (["--bogus"], "unknown option"), ([], "no question"),
    (["--rules", "all"], "takes no question"),
])
def test_bad_questions_are_one_line_and_status_2(argv, words):
    result = run("yazy", *argv)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


@pytest.mark.slow
def test_simulation_interval_contains_the_exact_value_and_categories_add_up(table, tmp_path, yazy_target):
    from shutthebox.games.yazy import analysis

    exact = table.probe_expect("all")
    totals = analysis.play(table, 4000, 7, progress=False)
    mean, half = analysis.interval(totals)
    assert abs(mean - exact) <= half and 0 < half < 3
    expected, zero = analysis.breakdown(table)
    assert abs(expected.sum() - exact) < 1e-9  # the stored moves, played exactly, earn the optimum
    assert (0 < zero).all() and (zero < 1).all()
    simulate = run("yazy", "simulate", "--games", "500", "--seed", "3")
    assert simulate.returncode == 0 and "contains the exact value" in simulate.stdout
    report = run("yazy", "report", "--games", "300", "--out", str(tmp_path))
    assert report.returncode == 0 and "165.757319" in (tmp_path / "report.md").read_text()
    assert (tmp_path / "histogram.svg").read_text().startswith("<svg")


# -- golden answers, each checked by the brute force or the Bellman check above ----------

def golden_pairs():
    with open(os.path.join(ROOT, "tests", "data", "yazy-golden.txt"), encoding="utf-8") as handle:
        return [line.rstrip("\n").split("\t") for line in handle if "\t" in line and not line.startswith("#")]


def test_golden_answers_are_independently_true(table):
    chance, keeps = keep_chances()
    for question, answer in golden_pairs():
        words = question.split()
        if answer.startswith("error:"):
            continue
        cats = words[1] if len(words) > 1 else "all"
        if cats == "all":
            if len(words) <= 2:
                assert answer == "165.757319"
                continue
            dice, rerolls = tuple(sorted(map(int, words[2]))), int(words[3])
            assert answer == bellman_answer(table, words[0], dice, rerolls, chance, keeps), question
            continue
        names = frozenset() if cats == "none" else frozenset(cats.split(","))
        if len(words) <= 2:
            assert answer == "%.6f" % brute_start(names), question
            continue
        roll, rerolls = tuple(sorted(map(int, words[2]))), int(words[3])
        exact = brute_turn(names)[rerolls][roll]
        assert answer == ("%.6f" % exact if words[0] == "--expect" else brute_move(names, roll, rerolls)), question


def bellman_answer(table, question, roll, rerolls, chance, keeps):
    """A question about all categories open, answered from the table's values one step later."""
    turn = table.file.whole("turn")
    later = np.array(table.file.whole("expect")).reshape(2048, 3, 252)[2047]
    r = SORTED_ROLLS.index(roll)
    now = [(points(name, roll) + turn[2047 & ~(1 << c)], "score " + name) for c, name in enumerate(NAMES)]
    top = max(value for value, _ in now)
    options = [next(option for option in now if option[0] >= top - 1e-9)]
    if rerolls:
        values = chance @ later[rerolls - 1]
        subs = {tuple(d for p, d in enumerate(roll) if m >> p & 1) for m in range(31)}
        options += [(values[k], "keep " + (" ".join(map(str, keep)) or "none")) for k, keep in enumerate(keeps)
                    if keep in subs]
    best = max(value for value, _ in options)
    if question == "--expect":
        assert abs(best - later[rerolls][r]) < 1e-9
        return "%.6f" % best
    return next(text for value, text in options if value >= best - 1e-9)


def test_a_value_near_a_rounding_midpoint_is_stored_to_print_right():
    from shutthebox.games.yazy.build import printed

    # 1/128 = 0.0078125 is a midpoint: a hair above it must print 0.007813, which %.6f of 1/128 does not.
    stored = printed(np.array([1 / 128, 0.25]), np.array([1e-18, 0.0]))
    assert "%.6f" % stored[0] == "0.007813" and stored[1] == 0.25
    with pytest.raises(AssertionError, match="rounding midpoint"):
        printed(np.array([1 / 128]), np.array([0.0]))
