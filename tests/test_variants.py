"""Rule variants and several players: options, tables built on demand, the cache."""

import os
from fractions import Fraction

import pytest

import shutthebox
from conftest import ROOT, STANDARD_TABLE, run
from shutthebox import InvalidQuery, TableError, api, table as table_format
from shutthebox.rules import STANDARD, Rules
from shutthebox.solver import solve_players, solve_two_player

SMALL = Rules(tiles=5, sides=4, dice=2, one_die_at_most=4)


def test_two_players_under_standard_rules_is_the_shipped_table():
    assert shutthebox.load(rules=STANDARD, players=2).path == shutthebox.load().path


@pytest.mark.parametrize("tiles", [10, 12])
def test_shipped_variants_are_found_without_building(tiles, monkeypatch):
    monkeypatch.setattr(api, "build_cached", lambda *a, **k: pytest.fail("should not build"))
    table = shutthebox.load(rules=Rules(tiles=tiles))
    assert os.path.dirname(table.path) == os.path.join(ROOT, "data")
    assert table.rules.tiles == tiles


def test_shipped_10_tile_table_matches_the_solver():
    table = shutthebox.load(rules=Rules(tiles=10))
    solution = solve_two_player(Rules(tiles=10))
    for position in range(1, 1 << 10, 7):
        assert table._e1[position] == float(solution.expect_one(position))
        assert table._e2[position * 56 + 30] == float(solution.expect_two(position, 30))


def test_a_variant_is_solved_once_then_read_from_the_cache(private_cache, monkeypatch):
    rules = Rules(tiles=5, one_die_at_most=None, one_die_high_shut=True, one_die_optional=True)
    path = os.path.join(private_cache, api.table_name(rules, 3))
    assert not os.path.exists(path)
    first = shutthebox.load(rules=rules, players=3)
    assert first.path == path and os.path.exists(path)
    monkeypatch.setattr(api, "build_cached", lambda *a, **k: pytest.fail("should not build again"))
    again = shutthebox.load(rules=rules, players=3)
    assert again.expect("12345", [7]) == first.expect("12345", [7])
    assert not [name for name in os.listdir(private_cache) if name.startswith(".tmp")]


def test_a_damaged_cached_table_is_solved_again(private_cache):
    rules = Rules(tiles=4)
    path = shutthebox.load(rules=rules).path
    good = open(path, "rb").read()
    damaged = bytearray(good)
    damaged[len(good) // 2] ^= 1
    open(path, "wb").write(bytes(damaged))
    assert shutthebox.load(rules=rules).expect_one("1234") == shutthebox.load(rules=rules).expect_one([1, 2, 3, 4])
    assert open(path, "rb").read() == good


def test_build_false_refuses_to_solve():
    with pytest.raises(TableError, match="no table file t3-2d6-one6-p5.msgpack"):
        shutthebox.load(rules=Rules(tiles=3), players=5, build=False)


def test_player_count_is_checked():
    for players in (1, 9, "3"):
        with pytest.raises(InvalidQuery, match="players must be"):
            shutthebox.load(rules=SMALL, players=players)


def test_several_players_answer_like_the_solver():
    table = shutthebox.load(rules=SMALL, players=4)
    solution = solve_players(SMALL, 4)
    for posted in [(), (3,), (3, 3), (2, 9, 2), (15,)]:
        best = min(posted) if posted else 0
        state = solution.state(len(posted) + 1, best, posted.count(best))
        for position in ["12345", "135", "5"]:
            mask = sum(1 << (int(t) - 1) for t in position)
            assert table.expect(position, posted) == float(solution.expect(mask, state))
        assert table.move("12345", 7, posted) == tuple(t for t in range(1, 6) if solution.move(31, state, 7) >> (t - 1) & 1)


def test_the_first_player_of_many_has_less_than_half():
    table = shutthebox.load(rules=SMALL, players=4)
    first = table.expect("12345")
    assert 0 < first < 0.5
    # Everyone's chances together make one win, for any game (a spot check):
    solution = solve_players(SMALL, 2)
    assert solution.expect(31, 0) + (1 - solution.expect(31, 0)) == Fraction(1)


# -- the command line -----------------------------------------------------------

def test_variant_options_answer_from_the_matching_table():
    expected = "%.6f" % shutthebox.load(rules=Rules(tiles=10)).expect_one("123456789")
    assert run("--tiles", "10", "--one", "--expect", "123456789").stdout == expected + "\n"
    assert run("--tiles=10", "--one", "--expect", "123456789").stdout == expected + "\n"


def test_players_and_scores_on_the_command_line():
    table = shutthebox.load(rules=SMALL, players=3)
    args = ["--tiles", "5", "--sides", "4", "--one-die", "4", "--players", "3"]
    assert run(*args, "--scores", "6,4", "--expect", "135").stdout == "%.6f\n" % table.expect("135", [6, 4])
    assert run(*args, "--scores", "6", "--move", "12345", "7").stdout == "[%s]\n" % ", ".join(
        map(str, table.move("12345", 7, [6])))
    assert run(*args, "--two", "--expect", "135", "6").stdout == "%.6f\n" % table.expect("135", [6])
    assert run(*args, "--one", "--expect", "135").stdout == "%.6f\n" % table.expect("135")


def test_scores_form_in_the_standard_game_matches_the_assignment():
    assert run("--scores", "8", "--expect", "123456789").stdout == "0.381212\n"
    assert run("--scores", "17", "--move", "13456789", "12").stdout == "[3, 9]\n"


def test_batch_uses_the_chosen_game():
    table = shutthebox.load(rules=SMALL, players=3)
    result = run("--tiles", "5", "--sides", "4", "--one-die", "4", "--players", "3", "--batch",
                 stdin="--scores 6,4 --expect 135\n--one --expect 12345\n--tiles 4 --one --expect 1\n")
    assert result.stdout.splitlines() == ["%.6f" % table.expect("135", [6, 4]), "%.6f" % table.expect("12345"),
                                          "error: --tiles is an option of the command line, not of a query"]


@pytest.mark.parametrize("args, message", [
    ("--tiles 0", "--tiles must be a whole number from 1 to 12, not '0'"),
    ("--tiles 13", "from 1 to 12"),
    ("--tiles x", "not 'x'"),
    ("--sides 1", "--sides must be a whole number from 2 to 20"),
    ("--dice 0", "--dice must be"),
    ("--dice 1 --one-die 6", "a one-die rule needs a game of more than one die"),
    ("--dice 1 --one-die high", "a one-die rule needs a game of more than one die"),
    ("--one-die optional:never", "is not a one-die rule"),
    ("--one-die sometimes", "is not a one-die rule"),
    ("--one-die 6,6", "is not a one-die rule"),
    ("--max-move-tiles 0", "--max-move-tiles must be"),
    ("--tiles 4 --max-move-tiles 5", "max_move_tiles must be a whole number from 1 to 4"),
    ("--players 1", "--players must be a whole number from 2 to 8"),
    ("--players 9", "from 2 to 8"),
    ("--players", "--players needs a value"),
])
def test_impossible_rules_are_refused_in_one_line(args, message):
    result = run(*args.split(), "--one", "--expect", "1")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.count("\n") == 1 and message in result.stderr


@pytest.mark.parametrize("args, message", [
    ("--players 3 --scores 4,5,6 --expect 1", "3 scores posted, but in a game of 3 players at most 2"),
    ("--players 3 --scores 0 --expect 1", "score 0 means that player shut the box"),
    ("--players 3 --scores 4,x --expect 1", "posted score must be a whole number, not 'x'"),
    ("--players 3 --scores 4,46 --expect 1", "from 1 to 45"),
    ("--players 3 --scores 4 --one --expect 1", "leave out --one"),
    ("--players 3 --scores 4 --expect", "takes POSITION"),
    ("--players 3 --scores", "--scores needs the scores"),
    ("--one-die high --one --move 123 8", "every tile above 6 is shut, so one die is thrown (1 to 6)"),
    ("--one-die high --one --move 1237 1", "a tile above 6 is open, so two dice are thrown (2 to 12)"),
    ("--one-die optional:6 --one --move 123 13", "two dice or one die may be thrown (1 to 12)"),
    ("--one-die never --one --move 123 1", "roll 1 is impossible: two dice are thrown (2 to 12)"),
    ("--tiles 10 --solo --expect 123", "single-player questions choose their rules with --variant, not with --tiles"),
])
def test_bad_questions_in_variants(args, message):
    result = run(*args.split())
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.count("\n") == 1 and message in result.stderr


def test_rules_flag_tells_what_and_where(private_cache):
    shown = run("--tiles", "12", "--rules").stdout
    assert "t12-2d6-one6-p2.msgpack" in shown and "tiles 1-12" in shown and "two-player, 2 players" in shown
    shown = run("--tiles", "4", "--players", "3", "--one-die", "optional:high", "--rules").stdout
    assert private_cache in shown and "multi-player, 3 players" in shown
    assert "one die allowed once every tile above 6 is shut" in shown


def test_a_table_file_for_other_rules_is_refused(tmp_path):
    result = run("--table", STANDARD_TABLE, "--tiles", "10", "--one", "--expect", "1")
    assert result.returncode == 2 and "not for the game asked for" in result.stderr


# -- large tables are verified array by array ----------------------------------

def lazily_read(tmp_path, monkeypatch, damage):
    monkeypatch.setattr(table_format, "EAGER_LIMIT", 0)
    data = bytearray(open(STANDARD_TABLE, "rb").read())
    damage(data)
    path = tmp_path / "lazy.msgpack"
    path.write_bytes(bytes(data))
    return shutthebox.load(str(path))


def test_lazy_reading_answers_from_intact_arrays_and_refuses_damaged_ones(tmp_path, monkeypatch):
    def flip_in_m2(data):
        data[len(data) - 1000] ^= 1  # m2 is the last array

    table = lazily_read(tmp_path, monkeypatch, flip_in_m2)
    assert "%.6f" % table.expect_one("123456789") == "0.502810"
    with pytest.raises(TableError, match="checksum mismatch in array m2.*make tables"):
        table.move_two("13456789", 17, 12)


def test_lazy_reading_notices_a_damaged_header(tmp_path, monkeypatch):
    def flip_rules(data):
        data[data.index(b"one_die_at_most") + 15] ^= 1  # 6 -> 7

    table = lazily_read(tmp_path, monkeypatch, flip_rules)
    with pytest.raises(TableError, match="checksum mismatch in array e1"):
        table.expect_one("123")


def test_lazy_reading_checks_only_the_block_a_lookup_reads(tmp_path, monkeypatch):
    def flip_first_block_of_m2(data):
        data[len(data) - 11 - 612352 + 10] ^= 1  # m2's data ends 11 bytes before the file's end

    table = lazily_read(tmp_path, monkeypatch, flip_first_block_of_m2)
    assert table.move_two("13456789", 17, 12) == (3, 9)  # in m2's last block
    with pytest.raises(TableError, match="checksum mismatch in array m2, block 0"):
        table.move_two("1", 3, 1)  # position 1 lies in block 0
