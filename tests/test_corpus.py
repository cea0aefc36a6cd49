"""The shared corpus of tests/data (docs/FORMAT.md section 8): good tables answer their golden
questions, every damaged one is refused in one line with exit status 3."""

import os
import subprocess
import sys

import pytest

import shutthebox
from conftest import ROOT, run, slow_when
from shutthebox import TableError, registry

DATA = os.path.join(ROOT, "tests", "data")
BAD = sorted(os.listdir(os.path.join(DATA, "bad")))
GOLDEN = sorted(name for name in os.listdir(os.path.join(DATA, "good")) if name.endswith("-golden.txt"))


def golden(path):
    """(question, answer) pairs of a golden file."""
    with open(path, encoding="utf-8") as handle:
        return [tuple(line.rstrip("\n").split("\t", 1)) for line in handle if "\t" in line and line[0] != "#"]


@pytest.mark.slow
def test_the_corpus_is_what_its_script_makes():
    result = subprocess.run([sys.executable, os.path.join(DATA, "make_corpus.py"), "--check"], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def golden_command(path):
    """The arguments before each question, from the golden file's first line
    (``# ShutTheBox ARGUMENTS QUESTION<TAB>answer``), paths made absolute."""
    with open(path, encoding="utf-8") as handle:
        first = handle.readline()
    assert first.startswith("# ShutTheBox ") and first.rstrip("\n").endswith(" QUESTION<TAB>answer"), first
    words = first[len("# ShutTheBox "):].rstrip("\n")[: -len(" QUESTION<TAB>answer")].split()
    return [os.path.join(ROOT, word) if word.startswith("tests/") else word for word in words]


def test_every_registered_game_has_golden_answers_on_a_small_table_or_its_shipped_one():
    """Walks the registry: a game with small good tables (tests/data/good, by their header's game) has golden
    answers asked of one of them, by a golden file whose command names it; a game without one (its solver knows
    no small rule set: make_corpus.py's WITHOUT) is asked on its shipped table by tests/data/GAME-golden.txt.
    Every golden file of tests/data/good has its table beside it."""
    from shutthebox.engine.reader import read_table

    good = os.path.join(DATA, "good")
    tables = sorted(name for name in os.listdir(good) if name.endswith(".msgpack"))
    games = {}
    for table in tables:
        with read_table(os.path.join(good, table)) as tablefile:
            games[table] = tablefile.game
    for name in registry.GAMES:
        headers = registry.declaration(name).headers()
        own = [table for table in tables if games[table] in headers]
        if own:
            assert any(table.replace(".msgpack", "-golden.txt") in GOLDEN for table in own), (name, own)
        else:
            assert os.path.exists(os.path.join(DATA, "%s-golden.txt" % name)), name
    for name in GOLDEN:
        assert name.replace("-golden.txt", ".msgpack") in tables
        assert os.path.join(good, name.replace("-golden.txt", ".msgpack")) in golden_command(os.path.join(good, name))


@pytest.mark.parametrize("name", slow_when(GOLDEN, {"goat-g5-golden.txt", "pig-two-dice-g8-golden.txt"}))
def test_golden_answers_of_a_good_table_one_by_one_and_in_a_batch(name):
    path = os.path.join(DATA, "good", name)
    command = golden_command(path)
    pairs = golden(path)
    assert len(pairs) >= 10
    for question, answer in pairs:
        result = run(*command, *question.split())
        printed = result.stdout.strip() or result.stderr.strip().replace("ShutTheBox: ", "error: ", 1)
        assert printed == answer, question
    batch = run(*command, "--batch", stdin="\n".join(question for question, _ in pairs) + "\n")
    assert batch.stdout.splitlines() == [answer for _, answer in pairs]
    assert batch.returncode == 1  # some golden questions are errors


def test_good_tables_hold_the_exact_solution():
    from shutthebox.games.shutthebox.rules import Rules
    from shutthebox.games.shutthebox.solver import solve_players, solve_two_player

    rules = Rules(tiles=4)
    two = shutthebox.load(os.path.join(DATA, "good", "two-player-t4.msgpack"))
    exact = solve_two_player(rules)
    assert [two.file.whole("e1")[mask] for mask in range(16)] == [n / exact.d1 for n in exact.e1]
    three = shutthebox.load(os.path.join(DATA, "good", "multi-player-t4-p3.msgpack"))
    exact3 = solve_players(rules, 3)
    assert three.players == 3
    assert three.expect("1234") == exact3.values[0][15] / exact3.units[0]


def test_the_good_toggle_table_is_optimal():
    """One sweep of the optimality equation in plain Python, from the stored values, gives them back
    (expected rolls = 1 + the mean over the dice of the best card's value); every stored card reaches
    the best successor and is the highest of the equally good cards (docs/TOGGLE.md)."""
    from shutthebox.games.toggle.rules import Rules
    from shutthebox.games.toggle.table import load

    rules = Rules(cards=5, sides=3)
    table = load(rules, path=os.path.join(DATA, "good", "toggle-c5-s3.msgpack"))
    values, flips = table.file.whole("rolls").tolist(), table.file.whole("flip")
    tie = float(table.file.header["tie"])
    dice = [(x, y) for x in range(1, rules.sides + 1) for y in range(1, rules.sides + 1)]
    assert values[0] == 0 and len(values) == 1 << rules.cards
    for state in range(1, 1 << rules.cards):
        total = 0.0
        for x, y in dice:
            cards = {card for card in (x, y, x + y) if card <= rules.cards}
            options = {card: values[state ^ (1 << (card - 1))] for card in cards}
            best = min(options.values())
            total += best
            card = flips[(state * rules.sides + x - 1) * rules.sides + y - 1]
            assert card == max(c for c, value in options.items() if value <= best + tie), (state, x, y)
        assert abs(1 + total / len(dice) - values[state]) < 1e-12, state


@pytest.mark.parametrize("name", BAD)
def test_a_damaged_table_is_refused_in_one_line(name):
    path = os.path.join(DATA, "bad", name)
    result = run("--table", path, "--one", "--expect", "1234")
    assert result.returncode == 3 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and path in result.stderr, result.stderr
    with pytest.raises(TableError):
        shutthebox.load(path).expect_one("1234")
