"""``shutthebox.open(game, **rules)``: every registered game's table, under any rule set its command takes,
opened, refused and solved on first use as the command does."""

import os

import pytest

import shutthebox
from shutthebox import registry
from shutthebox.engine.table import Table

from conftest import run


@pytest.mark.parametrize("game", list(registry.GAMES))
def test_every_registered_game_opens_its_shipped_table(game):
    with shutthebox.open(game) as table:
        assert isinstance(table, Table)
        assert os.path.dirname(table.path).endswith("data")
        probes = [name for name in dir(table) if name.startswith("probe_")]
        assert probes and all(hasattr(table, "get_" + name[len("probe_"):]) for name in probes)


@pytest.mark.parametrize("game, rules", [
    ("toggle", {"cards": 4, "sides": 2}), ("shutthebox", {"tiles": 12}), ("goat", {"goal": 100}),
    ("yahtzee", {"joker": "official"}), ("yazy", {"categories": "yazy,ones"}),
])
def test_open_takes_the_command_s_game_options_and_opens_its_table(game, rules):
    table = shutthebox.open(game, **rules)
    flags = [word for name, value in rules.items() for word in ("--" + name.replace("_", "-"), str(value))]
    named = [] if game == registry.DEFAULT else [game]
    result = run(*named, *flags, "--rules")
    assert result.returncode == 0, result.stderr
    assert os.path.abspath(table.path) in result.stdout


@pytest.mark.parametrize("rules, message", [
    ({"goal": 500}, "--goal must be a whole number from 2 to 150, not '500'"),
    ({"goal": "x"}, "--goal must be a whole number from 2 to 150, not 'x'"),
])
def test_a_rule_the_command_refuses_is_refused_in_its_words(rules, message):
    with pytest.raises(shutthebox.InvalidQuery) as refused:
        shutthebox.open("goat", **rules)
    assert str(refused.value) == message
    result = run("goat", "--goal", str(rules["goal"]), "--one", "--expect", "0", "0")
    assert result.returncode == 2 and result.stderr.strip() == "ShutTheBox: " + message


@pytest.mark.parametrize("game, rules, words", [
    ("goat", {"gaol": 5}, "goat has no rule gaol (its rules: goal, choose)"),
    ("goat", {"goal": True}, "goal must be a whole number or a word, not True"),
    ("goat", {"goal": 5.0}, "goal must be a whole number or a word, not 5.0"),
    ("yazy", {"goal": 5}, "yazy has no rule goal (its rules: categories)"),
    ("yahtze", {}, "no game 'yahtze': the games are"),
])
def test_unknown_games_rules_and_odd_values_are_refused(game, rules, words):
    with pytest.raises(shutthebox.InvalidQuery, match="^" + words.replace("(", r"\(").replace(")", r"\)")):
        shutthebox.open(game, **rules)


def test_a_numpy_integer_is_a_whole_number():
    numpy = pytest.importorskip("numpy")
    assert shutthebox.open("toggle", cards=numpy.int64(4), sides=numpy.int8(2)).rules.cards == 4


@pytest.mark.slow
def test_a_table_not_shipped_is_solved_on_first_use(private_cache):
    with shutthebox.open("goat", goal=7) as table:
        assert table.path == os.path.join(private_cache, "goat-g7.msgpack")
        assert 0 < table.probe_win(1, 0, 0) < 1
    result = run("goat", "--goal", "7", "--one", "--expect", "0", "0")
    assert result.stdout.strip() == "%.6f" % shutthebox.open("goat", goal=7).probe_win(1, 0, 0)
