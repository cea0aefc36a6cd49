"""`node web/answer.mjs yazy ...` (the page's games/yazy-command.js, yazy-table.js, yazy-duel.js and yazy-turn.js
run by Node.js) answers yazy's questions, one player, the target mode and two players, exactly as `ShutTheBox yazy`
does: the golden files and the notation corpus, hundreds of random two-player questions on a small game solved
into a temporary cache, and the refusals (bad options and words, damaged tables, another game's table, a table not
solved yet) in the same words and exit statuses.

Needs `node`; skipped without it, except under CI (CI=... set), where it fails.
"""

from __future__ import annotations

import os
import random
from functools import partial

import pytest

from nodereader import ROOT, command, golden, node

CORPUS = os.path.join(ROOT, "tests", "data")
SMALL = "ones,twos,yazy"  # the two-player game of the random questions: solved in seconds
pytestmark = pytest.mark.node  # conftest.py skips these without Node.js before any table is solved


_node, _command, _golden = partial(node, "yazy"), partial(command, "yazy"), partial(golden, "yazy")


def _same(args, stdin=None, env=None):
    """The Node reader and the command on the same words: the same output, message and exit status."""
    got, want = _node(*args, stdin=stdin, env=env), _command(*args, stdin=stdin, env=env)
    assert got.stdout == want.stdout, (args, got.stderr)
    assert got.stderr.removeprefix("answer.mjs: ") == want.stderr.removeprefix("ShutTheBox: "), args
    assert got.returncode == want.returncode, (args, got.stderr)
    return got


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """A cache holding the small game's two-player and target tables and ones,yazy's, solved by the command."""
    folder = str(tmp_path_factory.mktemp("yazy-cache"))
    env = {"SHUTTHEBOX_CACHE": folder}
    for args in (["--categories", SMALL, "--players", "2", "--expect", "all", "all", "--scores", "0,0"],
                 ["--categories", "ones,yazy", "--target", "0", "--expect"], ["--categories", SMALL, "--expect"],
                 ["--categories", SMALL, "--target", "0", "--expect"]):
        assert _command(*args, env=env).returncode == 0, args
    return env


GOLDEN = [os.path.join(CORPUS, "yazy-golden.txt"), os.path.join(CORPUS, "good", "yazy-ones.yazy-golden.txt"),
          os.path.join(CORPUS, "good", "yazy-duel-ones.yazy-golden.txt")]


@pytest.mark.parametrize("path", GOLDEN, ids=os.path.basename)
def test_node_reader_answers_yazy_s_golden_lines(path, cache):
    """Every golden line, answers and refusals, word for word: in one batch as the command's batch prints them, and
    the first few and the refusals one by one, with the command's exit status and message."""
    options, pairs = _golden(path)
    assert len(pairs) >= 15
    stdin = "".join(question + "\n" for question, _ in pairs)
    done = _same([*options, "--batch"], stdin=stdin, env=cache)
    assert done.stdout.splitlines() == [answer for _, answer in pairs]
    for question, answer in pairs[:4] + [pair for pair in pairs if pair[1].startswith("error:")][:4]:
        single = _same([*options, *question.split()], env=cache)
        assert single.returncode == (2 if answer.startswith("error: ") else 0), question


def test_node_reader_reads_yazy_s_notation_corpus_as_the_command_line_does():
    """tests/data/questions/yazy.txt: each line as the command answers it, its "= QUESTION" twin's answer, or its
    refusal; one batch and each line alone."""
    options, pairs = _golden(os.path.join(CORPUS, "questions", "yazy.txt"))
    stdin = "".join(question + "\n" for question, _ in pairs)
    lines = _same([*options, "--batch"], stdin=stdin).stdout.splitlines()
    assert len(lines) == len(pairs) >= 15
    answers = dict(zip((question for question, _ in pairs), lines))
    for (question, expected), line in zip(pairs, lines):
        if expected.startswith("= "):
            assert line == answers.get(expected[2:], line) and not line.startswith("error:"), question
        elif expected.startswith("error: "):
            assert line.startswith(expected), (question, line)
        else:
            assert line == expected, question
        _same([*options, *question.split()])


# -- two players: random questions on a small game ----------------------------------------------------------------

def _duel_lines(rng, names, count):
    """Batch lines of every two-player question on the game of ``names``: mostly states some game reaches (sets of a
    mover first or second in the round, totals their closed categories can make), at turn start and mid-turn,
    finished games, and some refused."""
    from shutthebox.games.yazy.duel.rules import POINTS
    from shutthebox.games.yazy.rules import CATEGORIES

    def cats(chosen):
        return ",".join(chosen) or "none"

    def total(closed):
        return sum(rng.choice(POINTS[CATEGORIES.index(name)]) for name in closed)

    lines = []
    for _ in range(count):
        b = rng.randrange(len(names) + 1)
        a = b if b == len(names) or rng.random() < 0.5 else b + 1
        mine, theirs = rng.sample(names, a), rng.sample(names, b)
        s1 = total([name for name in names if name not in mine])
        s2 = total([name for name in names if name not in theirs])
        dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
        form = rng.choice(["--expect", "--expect", "--move", "--options"])
        turn = [] if form == "--expect" and rng.random() < 0.4 else [dice, str(rng.randrange(3))]
        words = ["--players", "2", form, cats(mine), cats(theirs), "--scores", "%d,%d" % (s1, s2), *turn]
        if rng.random() < 0.08:  # refused: a wrong size, a total no game makes, bad dice or rerolls, words missing
            at = rng.randrange(4)
            if at == 0:
                words[3] = "all" if a < len(names) else "none"
            elif at == 1:
                words[6] = "%d,%d" % (s1 + rng.choice([1, 7, 300]), s2)
            elif turn:
                words[-2 if at == 2 else -1] = rng.choice(["1234", "12347", "x", "3", "-1"])
            else:
                words = words[:-2]
        lines.append(" ".join(words))
    return lines + ["", "--players 2 --expect all all --scores 0,0", "--players 2 --expect none none --scores 5,5",
                    "--players 2 --move none none --scores 0,0 11111 0", "--expect all"]


def test_node_reader_answers_two_players_as_the_command_line(cache):
    """Hundreds of two-player questions on the game ones,twos,yazy (the table solved into the cache), and a few on
    ones,yazy's corpus table: the same lines, byte for byte, and the same exit status."""
    names = SMALL.split(",")
    lines = _duel_lines(random.Random(2), names, 400)
    done = _same(["--categories", SMALL, "--batch"], stdin="".join(line + "\n" for line in lines), env=cache)
    answered = [line for line in done.stdout.splitlines() if line and not line.startswith("error:")]
    assert len(answered) >= 300 and any("; keep " in line for line in answered)
    assert {"1.000000", "0.500000", "0.000000"} & set(answered)
    for line in lines[:6] + lines[-4:]:
        _same(["--categories", SMALL, *line.split()], env=cache)
    table = os.path.join(CORPUS, "good", "yazy-duel-ones.yazy.msgpack")
    lines = _duel_lines(random.Random(3), ["ones", "yazy"], 120)
    _same(["--table", table, "--batch"], stdin="".join(line + "\n" for line in lines))


def test_node_reader_answers_the_target_mode_as_the_command_line(cache):
    """--target X at the start of a turn and mid-turn, moves included, on two small games."""
    rng = random.Random(4)
    for game, names in (("ones,yazy", ["ones", "yazy"]), (SMALL, SMALL.split(","))):
        lines = []
        for _ in range(150):
            cats = ",".join(rng.sample(names, rng.randint(1, len(names))))
            dice = "".join(str(rng.randint(1, 6)) for _ in range(5))
            x = rng.choice([0, 1, 3, 5, 10, 20, 50, 60, rng.randrange(281)])
            form = rng.choice(["--expect", "--move"])
            tail = [cats] if form == "--expect" and rng.random() < 0.3 else [cats, dice, str(rng.randrange(3))]
            lines.append(" ".join(["--target", str(x), form, *tail]))
        _same(["--categories", game, "--batch"], stdin="".join(line + "\n" for line in lines), env=cache)


# -- refusals -----------------------------------------------------------------------------------------------------

OPTION_CASES = [
    ["--categories", "ones,ones"], ["--categories", "one"], ["--categories", "none"], ["--categories="],
    ["--categories"], ["--categories", "ones", "--categories", "yazy"], ["--players", "3"], ["--players"],
    ["--scores", "0,0"], ["--players", "2", "--scores", "0,0", "--players", "2"], ["--target", "281"],
    ["--target", "x"], ["--target", "3", "--target", "4"], ["--batch", "--rules"], ["--expct"], ["--categories", "yazy,twos,ones"],
]


@pytest.mark.parametrize("case", OPTION_CASES, ids=" ".join)
def test_node_reader_refuses_yazy_s_options_as_the_command_line_does(case, cache):
    """Options the command refuses: its exit status and message, word for word (yazy,twos,ones is a game: answered)."""
    question = [] if "--batch" in case else ["--expect"]
    done = _same([*case, *question], env=cache)
    assert done.returncode == (0 if case == ["--categories", "yazy,twos,ones"] else 2)


DUEL_REFUSALS = [
    "--expect all none --scores 0,0", "--expect all all --scores 1,0", "--expect yazy ones --scores 0,7",
    "--expect all all --scores 0,0,1", "--expect all all --scores -1,0", "--expect all all --scores x",
    "--expect fives all --scores 0,0", "--move all all --scores 0,0 1234 1", "--move all all --scores 0,0 11111 7",
    "--options all all --scores 0,0", "--expect none none --scores 0,0 11111 1", "--move none none --scores 2,50 11111 0",
    "--target 3 --expect all all --scores 0,0", "--expect all all --scores 0,0 --scores 1,1", "--hold all all --scores 0,0",
]


@pytest.mark.parametrize("question", DUEL_REFUSALS)
def test_node_reader_refuses_two_player_questions_as_the_command_line_does(question, cache):
    done = _same(["--categories", SMALL, "--players", "2", *question.split()], env=cache)
    assert done.returncode == 2


def test_node_reader_refuses_yazy_tables_it_cannot_vouch_for(tmp_path, cache):
    """Damaged copies of the two-player table (exit status 3, one line), another game's or kind's table given with
    --table (the command's very words), and a table not solved yet (the command that solves it)."""
    from test_web_node import _damaged_copies

    good = os.path.join(CORPUS, "good", "yazy-duel-ones.yazy.msgpack")
    question = ["--players", "2", "--expect", "all", "all", "--scores", "0,0"]
    for name, (data, reason) in _damaged_copies(good, tmp_path).items():
        damaged = tmp_path / ("yazy-duel-%s.msgpack" % name.replace(" ", "-"))
        damaged.write_bytes(data)
        done = _node("--table", str(damaged), *question)
        assert done.returncode == _command("--table", str(damaged), *question).returncode == 3, (name, done.stderr)
        assert reason in done.stderr and done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, name
    for table, args in ((os.path.join(ROOT, "data", "goat-g100.msgpack"), question),
                        (os.path.join(CORPUS, "good", "yazy-ones.yazy.msgpack"), question),
                        (good, ["--expect"]), (good, ["--target", "3", "--expect"]),
                        (good, ["--categories", "ones", *question]), (os.path.join(ROOT, "data", "yazy.msgpack"), question)):
        assert _same(["--table", os.path.relpath(table, ROOT), *args]).returncode == 3
    batch = _same(["--table", os.path.relpath(good, ROOT), "--batch"], stdin="--expect all\n" + " ".join(question) + "\n")
    assert batch.returncode == 1 and batch.stdout.splitlines()[1] == "0.498983"
    empty = {"SHUTTHEBOX_CACHE": str(tmp_path / "empty")}
    missing = _node("--categories", "twos,fives", *question, env=empty)
    assert missing.returncode == 3 and missing.stdout == "" and "yazy-duel-twos.fives.msgpack" in missing.stderr
    assert "ShutTheBox yazy --categories twos,fives --players 2 --expect all all --scores 0,0" in missing.stderr
    assert _node("--categories", "twos,fives", *question[:-2], "--scores", "0,1", env=empty).returncode == 2  # words first
