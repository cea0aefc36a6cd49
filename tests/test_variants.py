"""Rule variants and several players: options, tables built on demand, the cache."""

import os

import pytest

import shutthebox
from conftest import ROOT, STANDARD_TABLE, run
from shutthebox import InvalidQuery, TableError
from shutthebox.engine.writer import printed_float
from shutthebox.games.shutthebox import build
from shutthebox.games.shutthebox.table import table_name
from shutthebox.games.shutthebox.rules import STANDARD, Rules
from shutthebox.games.shutthebox.solver import solve_players, solve_two_player

SMALL = Rules(tiles=5, sides=4, dice=2, one_die_at_most=4)


def stored(value) -> float:
    """The float64 a table stores for an exact value (docs/FORMAT.md, printing values)."""
    return printed_float(value.numerator, value.denominator)


def test_two_players_under_standard_rules_is_the_shipped_table():
    assert shutthebox.load(rules=STANDARD, players=2).path == shutthebox.load().path


@pytest.mark.parametrize("tiles", [10, 12])
def test_shipped_variants_are_found_without_building(tiles, monkeypatch):
    monkeypatch.setattr(build, "solve_table", lambda *a, **k: pytest.fail("should not build"))
    table = shutthebox.load(rules=Rules(tiles=tiles))
    assert os.path.dirname(table.path) == os.path.join(ROOT, "data")
    assert table.rules.tiles == tiles


def test_shipped_10_tile_table_matches_the_solver():
    table = shutthebox.load(rules=Rules(tiles=10))
    solution = solve_two_player(Rules(tiles=10))
    for position in range(1, 1 << 10, 7):
        tiles = [tile for tile in range(1, 11) if position >> (tile - 1) & 1]
        assert table.get_expect(tiles) == stored(solution.expect_one(position))
        assert table.get_expect(tiles, [30]) == stored(solution.expect_two(position, 30))


def test_a_variant_is_solved_once_then_read_from_the_cache(private_cache, monkeypatch):
    rules = Rules(tiles=5, one_die_at_most=None, one_die_high_shut=True, one_die_optional=True)
    path = os.path.join(private_cache, table_name(rules, 3))
    assert not os.path.exists(path)
    first = shutthebox.load(rules=rules, players=3)
    assert first.path == path and os.path.exists(path)
    monkeypatch.setattr(build, "solve_table", lambda *a, **k: pytest.fail("should not build again"))
    again = shutthebox.load(rules=rules, players=3)
    assert again.expect("12345", [7]) == first.expect("12345", [7])
    assert not [name for name in os.listdir(private_cache) if name.startswith(".tmp")]


def test_a_damaged_block_of_a_cached_table_says_how_to_repair_it(private_cache):
    """Header damage is caught at open and the table solved again (test_reliability); a damaged
    array block is caught when a lookup reads it, and the message says to delete the file."""
    rules = Rules(tiles=4)
    path = shutthebox.load(rules=rules).path
    good = open(path, "rb").read()
    damaged = bytearray(good)
    damaged[len(good) - 100] ^= 1  # in m2, the last array
    open(path, "wb").write(bytes(damaged))
    with pytest.raises(TableError, match="checksum mismatch in array m2.*delete it: it is solved again"):
        shutthebox.load(rules=rules).move_two("1234", 8, 4)
    os.unlink(path)
    assert shutthebox.load(rules=rules).move_two("1234", 8, 4) == shutthebox.load(rules=rules).move_two([4, 3, 2, 1], 8, 4)
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
            assert table.expect(position, posted) == stored(solution.expect(mask, state))
        assert table.move("12345", 7, posted) == tuple(t for t in range(1, 6) if solution.move(31, state, 7) >> (t - 1) & 1)


def test_the_first_player_of_many_has_less_than_half():
    table = shutthebox.load(rules=SMALL, players=4)
    assert 0 < table.expect("12345") < 0.5


# -- the command line -----------------------------------------------------------

def test_variant_options_answer_from_the_matching_table():
    expected = "%.6f" % shutthebox.load(rules=Rules(tiles=10)).expect_one("1,2,3,4,5,6,7,8,9")
    assert run("--tiles", "10", "--one", "--expect", "1,2,3,4,5,6,7,8,9").stdout == expected + "\n"
    assert run("--tiles=10", "--one", "--expect", "9,8,7,6,5,4,3,2,1").stdout == expected + "\n"


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
    ("--tiles 10 --solo --expect 123", "position '123' is ambiguous"),  # the options choose the one-player rules too
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
    assert result.returncode == 3 and "holds a two-player table (tiles 1-9" in result.stderr
    assert "not a two-player table (tiles 1-10" in result.stderr
