"""`node web/answer.mjs yahtzee ...` (web/answer-yahtzee.mjs, the page's games/yahtzee-command.js, yahtzee-target.js
and yahtzee-target-turn.js) prints what `ShutTheBox yahtzee` prints, refusals in its words: the expected points
from the shipped table, and `--target X` from a reduced target table built here (about a second), its mid-turn
chances worked out in float64 in the command's order, so the answers agree to the last digit.

Needs `node`; skipped without it, except under CI (as tests/test_web_node.py).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from functools import partial

import pytest

from nodereader import ROOT, command, node

DATA = os.path.join(ROOT, "tests", "data")
pytestmark = pytest.mark.node
LATE = "fours,full-house,large-straight,chance"  # docs/FORMAT.md section 12's worked example: upper 51, box 50


_node, _command = partial(node, "yahtzee"), partial(command, "yahtzee")


def _same(args, stdin=None, env=None):
    """The reader and the command on the same words: the same output, exit status and refusal."""
    got, want = _node(*args, stdin=stdin, env=env), _command(*args, stdin=stdin, env=env)
    assert (got.returncode, got.stdout) == (want.returncode, want.stdout), (args, got.stderr, want.stderr)
    assert got.stderr.removeprefix("answer.mjs: ") == want.stderr.removeprefix("ShutTheBox: "), args
    return got


@pytest.fixture(scope="module")
def late(tmp_path_factory):
    """The reduced target table of the game from fours, full-house, large-straight and chance (upper 51, 50)."""
    out = str(tmp_path_factory.mktemp("target") / "late.msgpack")
    subprocess.run([sys.executable, "-m", "shutthebox.games.yahtzee.target.build", LATE, "--upper", "51",
                    "--yahtzee-box", "50", "--out", out], check=True, cwd=ROOT, timeout=600)
    return out


def _pairs(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    return [line.split("\t", 1)[0] for line in lines if "\t" in line and not line.startswith("#")]


@pytest.mark.parametrize("name", ["yahtzee-golden.txt", os.path.join("questions", "yahtzee.txt")])
def test_node_reader_answers_the_yahtzee_corpus_as_the_command(name, tmp_path):
    """Every golden and notation line in one batch, byte for byte (the target lines there are refusals), and the
    first few and some refusals one by one, with the command's exit status and words."""
    questions = _pairs(os.path.join(DATA, name))
    env = {"SHUTTHEBOX_CACHE": str(tmp_path)}
    batch = _same(["--batch"], stdin="".join(q + "\n" for q in questions), env=env)
    assert len(batch.stdout.splitlines()) == len(questions) >= 40 and batch.returncode == 1
    refusals = [q for q, a in zip(questions, batch.stdout.splitlines()) if a.startswith("error:")]
    for question in questions[:4] + refusals[:: max(1, len(refusals) // 8)]:
        _same(question.split(), env=env)


def _target_lines(rng, count):
    """--target questions on cards of the late game (and a few it does not hold), mostly answerable."""
    boxes = LATE.split(",")
    lines = []
    for _ in range(count):
        open_boxes = [b for b in boxes if rng.random() < 0.6] or [rng.choice(boxes)]
        upper = rng.choice(["51", "55", "59", "63", "51", "0"]) if "fours" in open_boxes else rng.choice(["63", "67", "71", "55"])
        words = ["--target", str(rng.choice([rng.randrange(0, 80), rng.randrange(0, 600)])),
                 rng.choice(["--expect", "--expect", "--move"]), ",".join(open_boxes), "--upper", upper,
                 "--yahtzee-box", rng.choice(["50"] * 9 + ["0"])]
        if words[2] == "--move" or rng.random() < 0.6:
            words += ["".join(str(rng.randint(1, 6)) for _ in range(5)), str(rng.randrange(3))]
        lines.append(" ".join(words))
    return lines + ["--target 67 --expect %s --upper 51 --yahtzee-box 50" % LATE, "--target 1576 --expect chance",
                    "--target x --move chance 11111 0", "--target 5 --expect chance,bogus --yahtzee-box 50",
                    "--target 5 --expect all", "--target 5 --expect none --yahtzee-box 50", "--expect all",
                    "--target 5 --options chance --yahtzee-box 50 11111 1", ""]


def test_node_reader_answers_target_questions_as_the_command(late):
    """Some hundreds of --target questions on the reduced table (turn start, mid-turn, moves; states it does not
    hold; bad targets and cards): one batch byte for byte, then a few one by one."""
    lines = _target_lines(random.Random(12), 400)
    batch = _same(["--table", late, "--batch"], stdin="".join(line + "\n" for line in lines))
    answers = batch.stdout.splitlines()
    chances = [a for a in answers if a[:2] in ("0.", "1.")]
    moves = [a for a in answers if a.startswith(("score ", "keep "))]
    assert len(chances) >= 150 and len(moves) >= 50 and any("holds only the game from" in a for a in answers)
    assert any(a not in ("0.000000", "1.000000") for a in chances)
    assert answers[-9] == "0.854901"  # FORMAT.md section 12's worked example
    for line in lines[:6] + lines[-8:-1]:
        _same(["--table", late, *line.split()])


def test_node_reader_finds_the_reduced_table_where_the_command_caches_it(late, tmp_path):
    """Without --table: the card's reduced table in the cache under the command's name, else one line naming the
    command that solves it (exit status 3)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    asked = ["--target", "67", "--expect", LATE, "--upper", "51", "--yahtzee-box", "50"]
    missing = _node(*asked, env={"SHUTTHEBOX_CACHE": str(cache)})
    assert missing.returncode == 3 and missing.stdout == "" and len(missing.stderr.splitlines()) == 1
    assert "yahtzee-target.official.4hlc-u51-y50.msgpack" in missing.stderr
    assert "`ShutTheBox yahtzee --target 0 --expect %s --upper 51 --yahtzee-box 50`" % LATE in missing.stderr
    shutil.copy(late, cache / "yahtzee-target.official.4hlc-u51-y50.msgpack")
    env = {"SHUTTHEBOX_CACHE": str(cache)}
    for words in (asked, ["--target", "20", "--move", "4HLC", "--upper", "51", "--yahtzee-box", "50", "44456", "1"],
                  ["--target", "40", "--expect", LATE, "--upper", "51", "--yahtzee-box", "50", "12345", "2"]):
        assert _same(words, env=env).returncode == 0
    whole = _node("--target", "5", "--expect", "all", env=env)
    assert whole.returncode == 3 and "`ShutTheBox yahtzee --target 0 --expect all --allow-large`" in whole.stderr


def test_node_reader_refuses_target_tables_it_cannot_vouch_for(late, tmp_path):
    """A damaged copy, another game's table, the expected points' table given for --target and the target table
    for the expected points: exit status 3, one line, in the command's words where the command's check comes first."""
    damaged = tmp_path / "damaged.msgpack"
    damaged.write_bytes(open(late, "rb").read()[:-100])  # truncated: both refuse it at once
    asked = ["--target", "67", "--expect", LATE, "--upper", "51", "--yahtzee-box", "50"]
    got = _node("--table", str(damaged), *asked)
    assert got.returncode == _command("--table", str(damaged), *asked).returncode == 3
    assert got.stdout == "" and len(got.stderr.splitlines()) == 1 and "truncated" in got.stderr
    for table, words in ((os.path.join(ROOT, "data", "goat-g100.msgpack"), asked),
                         (os.path.join(ROOT, "data", "yahtzee-official.msgpack"), asked),
                         (late, ["--expect", "all"]), (late, ["--joker", "free", *asked])):
        assert _same(["--table", table, *words]).returncode == 3, table
