"""The shared corpus of tests/data (docs/FORMAT.md section 8): good tables answer their golden
questions, every damaged one is refused in one line with exit status 3."""

import os
import subprocess
import sys

import pytest

import shutthebox
from conftest import ROOT, run
from shutthebox import TableError

DATA = os.path.join(ROOT, "tests", "data")
BAD = sorted(os.listdir(os.path.join(DATA, "bad")))


def golden(path):
    """(question, answer) pairs of a golden file."""
    with open(path, encoding="utf-8") as handle:
        return [tuple(line.rstrip("\n").split("\t", 1)) for line in handle if "\t" in line and line[0] != "#"]


def test_the_corpus_is_what_its_script_makes():
    result = subprocess.run([sys.executable, os.path.join(DATA, "make_corpus.py"), "--check"], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_golden_answers_of_a_good_table_one_by_one_and_in_a_batch():
    table = os.path.join(DATA, "good", "two-player-t4.msgpack")
    pairs = golden(os.path.join(DATA, "good", "two-player-t4-golden.txt"))
    assert len(pairs) >= 10
    for question, answer in pairs:
        result = run("--table", table, *question.split())
        printed = result.stdout.strip() or result.stderr.strip().replace("ShutTheBox: ", "error: ", 1)
        assert printed == answer, question
    batch = run("--table", table, "--batch", stdin="\n".join(question for question, _ in pairs) + "\n")
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


@pytest.mark.parametrize("name", BAD)
def test_a_damaged_table_is_refused_in_one_line(name):
    path = os.path.join(DATA, "bad", name)
    result = run("--table", path, "--one", "--expect", "1234")
    assert result.returncode == 3 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and path in result.stderr, result.stderr
    with pytest.raises(TableError):
        shutthebox.load(path).expect_one("1234")
