"""Single-player solver and tables: brute force on tiny games, the reference's numbers, the files."""

from __future__ import annotations

import math
import os

import pytest

from bruteforce import Naive, mask, tiles_of
from conftest import ROOT

import shutthebox
from shutthebox.games.shutthebox.rules import Rules
from shutthebox.games.shutthebox.solo.solver import Throws, evaluate, solve_solo
from shutthebox.games.shutthebox.solo.table import VARIANTS, load_solo


TINY = [
    dict(tiles=4, sides=3, dice=2, one_die_at_most=None, max_move_tiles=None),
    dict(tiles=5, sides=3, dice=2, one_die_at_most=3, max_move_tiles=None),
    dict(tiles=5, sides=4, dice=2, one_die_at_most=4, max_move_tiles=2),
    dict(tiles=6, sides=3, dice=2, one_die_at_most=None, max_move_tiles=2),
    dict(tiles=6, sides=4, dice=2, one_die_at_most=5, max_move_tiles=None),
    dict(tiles=5, sides=2, dice=3, one_die_at_most=4, max_move_tiles=None),
]


@pytest.mark.parametrize("fields", TINY, ids=lambda f: "-".join(str(v) for v in f.values()))
def test_tiny_games_match_brute_force_for_both_objectives(fields):
    rules = Rules(**fields)
    naive = Naive(**fields)
    solution = solve_solo(rules)
    for position in range(1 << rules.tiles):
        open_tiles = tiles_of(position)
        assert solution.shut_probability(position) == naive.shut(open_tiles), open_tiles
        assert solution.expected_score(position) == naive.score(open_tiles), open_tiles
        if not position:
            continue
        for roll in range(rules.max_roll + 1):
            for objective, value, better in (("shut", naive.shut, lambda a, b: a > b),
                                             ("score", naive.score, lambda a, b: a < b)):
                found = naive.best(open_tiles, roll, value, better)
                expected = mask(found[1]) if found and roll in naive.chances(open_tiles) else 0
                assert solution.move(position, roll, objective) == expected, (open_tiles, roll, objective)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_shipped_variants_match_brute_force_from_a_few_positions(variant):
    rules = VARIANTS[variant]
    naive = Naive(**rules.as_dict())
    solution = solve_solo(rules)
    for tiles in [(1,), (1, 2), (1, 2, 4), (2, 3, 4), (1, 2, 3, 4, 5), (3, 4, 5, 6), (1, 5, 7, 8)]:
        assert solution.shut_probability(mask(tiles)) == naive.shut(tiles)
        assert solution.expected_score(mask(tiles)) == naive.score(tiles)


# -- the reference project's printed numbers (its rules: always two dice) ------------

REFERENCE_STATES = [
    ((1, 2, 4), 0.18209876543209874), ((3, 4), 0.1759259259259259), ((2, 5), 0.1728395061728395),
    ((7,), 0.16666666666666666), ((1, 6), 0.16666666666666666), ((1, 2, 5), 0.15895061728395063),
    ((1, 3, 4), 0.15817901234567902), ((2, 3, 4), 0.1550925925925926), ((3, 5), 0.15123456790123457),
    ((1, 2, 3, 4), 0.14744084362139914),
]
REFERENCE_OPENINGS = [
    (9, 0.10150185360563307), (8, 0.0843992883264558), (12, 0.0797040646327626), (11, 0.0727007112207658),
    (7, 0.07125306992568319), (10, 0.06943424590523688), (6, 0.06499269203919156), (5, 0.06108456955064155),
    (4, 0.05532663847072549), (3, 0.05106821208604296), (2, 0.045189824620113055),
]


@pytest.fixture(scope="module")
def two_dice():
    return shutthebox.load_solo("two-dice")


def same(ours, theirs):
    # The reference sums floats; ours are exact rationals rounded once: equal to the last bit or two.
    return math.isclose(ours, theirs, rel_tol=1e-14)


def test_reference_start_probability_is_7_143_percent(two_dice):
    assert "%.3f%%" % (100 * two_dice.shut_probability("123456789")) == "7.143%"
    assert "%.6f" % two_dice.shut_probability("123456789") == "0.071432"


@pytest.mark.parametrize("tiles, value", REFERENCE_STATES)
def test_reference_state_values(two_dice, tiles, value):
    assert same(two_dice.shut_probability(tiles), value)


def test_reference_top_ten_states_in_order(two_dice):
    values = sorted(((two_dice.shut_probability(tiles_of(m)), m) for m in range(1, 512)), key=lambda v: -v[0])
    below_one = [v for v in values if v[0] < 1][:10]
    assert [round(v, 15) for v, _ in below_one] == [round(v, 15) for _, v in REFERENCE_STATES]


@pytest.mark.parametrize("roll, value", REFERENCE_OPENINGS)
def test_reference_opening_rolls(two_dice, roll, value):
    move = two_dice.move("123456789", roll)
    after = tuple(t for t in range(1, 10) if t not in move)
    assert same(two_dice.shut_probability(after), value)


def test_reference_example_close_3_4_not_2_5(two_dice):
    assert two_dice.move("12345", 7) == (3, 4)
    assert shutthebox.load_solo("two-dice").shut_probability("125") > two_dice.shut_probability("134")


# -- the shipped tables ---------------------------------------------------------------


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_shipped_tables_hold_the_solver_values(variant):
    rules = VARIANTS[variant]
    table = load_solo(variant)
    assert table.rules == rules and table.variant == variant
    solution = solve_solo(rules)
    d = solution.denominator
    for position in range(1, 1 << rules.tiles):
        assert table.shut_probability(tiles_of(position)) == solution.shut[position] / d
        assert table.expected_score(tiles_of(position)) == solution.score[position] / d
        for roll in range(rules.max_roll + 1):
            assert table.move_mask(position, roll, "shut") == solution.shut_moves[position][roll]
            assert table.move_mask(position, roll, "score") == solution.score_moves[position][roll]


def test_optimal_strategy_evaluates_to_the_table_value():
    from shutthebox.games.shutthebox.solo.strategies import make

    for variant, rules in VARIANTS.items():
        solution = solve_solo(rules)
        throws = Throws(rules)
        shut = evaluate(make("optimal", rules), throws)
        score = evaluate(make("optimal-score", rules), throws)
        assert shut.start_shut == solution.shut_probability(rules.all_open)
        assert score.start_score == solution.expected_score(rules.all_open)
        assert shut.start_score >= score.start_score and score.start_shut <= shut.start_shut


def test_api_questions_and_errors():
    table = shutthebox.load_solo()
    assert table.expect("123456789") == table.shut_probability("123456789")
    assert table.expect("123456789", "score") == table.expected_score("123456789")
    assert table.move("12", 1) == (1,)  # one die under the standard rules
    with pytest.raises(shutthebox.InvalidQuery, match="roll 1 is impossible under the two-dice rules"):
        shutthebox.load_solo("two-dice").move("12", 1)
    with pytest.raises(shutthebox.InvalidQuery, match="no 2 or fewer open tiles of 1234 add up to 10"):
        shutthebox.load_solo("two-tiles").move("1234", 10)
    with pytest.raises(shutthebox.InvalidQuery, match="unknown variant"):
        shutthebox.load_solo("three-dice")
    with pytest.raises(shutthebox.InvalidQuery, match="unknown objective"):
        table.expect("12", "win")
    with pytest.raises(shutthebox.InvalidQuery, match="no tile 0"):
        table.shut_probability("10")


def test_table_files_are_verified(tmp_path):
    bad = tmp_path / "solo.msgpack"
    data = bytearray(open(os.path.join(ROOT, "data", "solo-standard.msgpack"), "rb").read())
    data[1000] ^= 1
    bad.write_bytes(bytes(data))
    with pytest.raises(shutthebox.TableError, match="checksum"):
        solo = shutthebox.load_solo(path=str(bad))  # arrays are verified as lookups read them
        for name in solo.file.arrays:
            solo.file.whole(name)
    with pytest.raises(shutthebox.TableError, match="not a one-player table"):
        shutthebox.load_solo(path=os.path.join(ROOT, "data", "standard.msgpack"))
    with pytest.raises(shutthebox.TableError, match=r"holds a one-player table \(.*one die once.*\), not a one-player "
                       r"table \(tiles 1-9, 2 dice with 6 sides\) as asked"):
        shutthebox.load_solo("two-dice", path=os.path.join(ROOT, "data", "solo-standard.msgpack"))
