"""The Python API: load() and one method per question."""

import pytest

import shutthebox
from shutthebox import InvalidQuery
from shutthebox.games.shutthebox.rules import Rules


def test_answers_match_the_assignment(table):
    assert "%.6f" % table.expect_one("123456789") == "0.502810"
    assert table.move_one("146789", 9) == (9,)
    assert "%.6f" % table.expect_two("123456789", 8) == "0.381212"
    assert table.move_two("13456789", 17, 12) == (3, 9)


@pytest.mark.parametrize("position", ["146789", "987641", "1,4,6,7,8,9", (1, 4, 6, 7, 8, 9), [9, 8, 7, 6, 4, 1],
                                      {1, 4, 6, 7, 8, 9}, frozenset({1, 4, 6, 7, 8, 9}), (t for t in (1, 4, 6, 7, 8, 9))])
def test_positions_as_text_or_tiles(table, position):
    assert table.expect_one(position) == table.expect_one("146789")


def test_a_range_is_a_collection_of_tiles(table):
    assert table.expect_one(range(1, 10)) == table.expect_one("123456789")
    assert table.move_two(range(3, 10), 17, 12) == table.move_two("3456789", 17, 12)


@pytest.mark.parametrize("call, message", [
    (lambda t: t.expect_one(""), "empty"),
    (lambda t: t.expect_one([]), "empty"),
    (lambda t: t.expect_one(146789), "a position is a string like .146789. or a collection of tiles"),
    (lambda t: t.expect_one([1, 1]), "listed twice"),
    (lambda t: t.expect_one([0]), "no tile 0"),
    (lambda t: t.expect_one(["1"]), "is not a tile number"),
    (lambda t: t.expect_two("123", 0), "score 0"),
    (lambda t: t.expect_two("123", "8"), "not '8'"),
    (lambda t: t.expect_two("123", 8.0), "not 8.0"),
    (lambda t: t.expect_two("123", True), "not True"),
    (lambda t: t.move_one("123", 7), "roll 7 is impossible"),
    (lambda t: t.move_one("123", "3"), "roll must be a whole number"),
    (lambda t: t.move_two("89", 3, 3), "the turn ends there, scoring 17"),
    (lambda t: t.move_two("89", 46, 8), "from 1 to 45"),
])
def test_bad_questions_raise_invalid_query(table, call, message):
    with pytest.raises(InvalidQuery, match=message) as error:
        call(table)
    assert isinstance(error.value, ValueError)  # InvalidQuery is a ValueError


def test_table_knows_its_rules_and_file(table):
    assert table.rules == Rules()
    assert table.path.endswith("standard.msgpack")
    assert "tiles 1-9" in repr(table)


def test_load_finds_the_shipped_table_without_arguments(monkeypatch):
    monkeypatch.delenv("SHUTTHEBOX_TABLE", raising=False)
    assert shutthebox.load().move_two("13456789", 17, 12) == (3, 9)


def test_invalid_rules_are_refused():
    from shutthebox import InvalidRules

    for fields in [dict(tiles=0), dict(sides=1), dict(dice=1), dict(tiles=17), dict(max_move_tiles=0)]:
        with pytest.raises(InvalidRules):
            Rules(**fields)
    assert Rules(dice=1, one_die_at_most=None).dice_for(40) == 1
