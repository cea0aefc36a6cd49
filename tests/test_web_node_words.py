"""The shared question corpus (tests/data: GAME-golden.txt, good/*-golden.txt, questions/*.txt) asked of the Node
reader in the command line's words, for the games its one runner answers (web/runner.mjs): Shut the Box (two
players, more players, its variants and one player), toggle and Goat. Each file's lines, grouped by the game
options a line carries, go to one ``--batch`` of the command and one of ``node web/answer.mjs``: the same bytes and
exit status; then lines one by one: the batch's line, or its refusal as one line on stderr with exit status 2.

Needs `node`; skipped without it, except under CI (CI=... set), where it fails.
"""

from __future__ import annotations

import glob
import os

import pytest

from nodereader import ROOT, command, node
from shutthebox import registry
from shutthebox.engine.command import split_options

CORPUS = os.path.join(ROOT, "tests", "data")
pytestmark = pytest.mark.node  # conftest.py skips these without Node.js before any table is solved

# The games the runner answers in the command's words here (the others have their own tests: test_web_node.py,
# test_web_node_yazy.py, test_web_node_yahtzee.py).
GAMES = ("shutthebox", "toggle", "goat")


def corpus_file(path):
    """(game, the options of the file's ``# ShutTheBox ... QUESTION`` line, [(question, expected)])."""
    lines = open(path, encoding="utf-8").read().splitlines()
    prefix = []
    if lines[0].startswith("# ShutTheBox ") and "QUESTION" in lines[0]:
        prefix = lines[0][len("# ShutTheBox ") : lines[0].index("QUESTION")].split()
    game = prefix[0] if prefix[:1] and prefix[0] in registry.NAMED_FIRST else registry.DEFAULT
    pairs = [tuple(line.split("\t", 1)) for line in lines if "\t" in line and not line.startswith("#")]
    return game, prefix[1:] if game != registry.DEFAULT else prefix, pairs


def corpus_files():
    paths = sorted(glob.glob(os.path.join(CORPUS, "*-golden.txt")) + glob.glob(os.path.join(CORPUS, "good", "*-golden.txt"))
                   + glob.glob(os.path.join(CORPUS, "questions", "*.txt")))
    return [path for path in paths if corpus_file(path)[0] in GAMES]


def test_every_game_of_the_runner_has_its_corpus():
    assert {corpus_file(path)[0] for path in corpus_files()} == set(GAMES)


def _named(game):
    """The command line's first words for ``game``: none for Shut the Box, the game named first by both."""
    return [] if game == registry.DEFAULT else [game]


@pytest.mark.parametrize("path", corpus_files(), ids=lambda path: os.path.relpath(path, CORPUS))
def test_node_reader_answers_the_corpus_in_the_command_s_words(path):
    game, prefix, pairs = corpus_file(path)
    assert len(pairs) >= 4
    grammar = registry.grammar(game)
    groups: dict = {}  # the game options a line carries -> its questions (a batch takes options on its command line)
    for question, expected in pairs:
        options, tokens = split_options(question.split(), grammar.GAME_OPTIONS)
        given = tuple(word for name, value in sorted(options["game"].items()) for word in (name, value))
        groups.setdefault(given, []).append((" ".join(tokens), question, expected))
    said = {}
    for given, lines in groups.items():
        argv = [*_named(game), *prefix, *given, "--batch"]
        stdin = "".join(line + "\n" for line, _, _ in lines)
        want, got = command(*argv, stdin=stdin), node(*argv, stdin=stdin)
        assert got.stderr == "", (given, got.stderr)  # the command may say it solves a table first
        assert (got.returncode, got.stdout) == (want.returncode, want.stdout), given
        for (line, question, expected), answer in zip(lines, want.stdout.splitlines(), strict=True):
            said[question] = answer
            if expected.startswith("error: ") or not expected.startswith("= "):
                assert answer.startswith(expected), (question, answer)  # the corpus's own answer or refusal's words
    singles = [question for question, _ in pairs] if "questions" in path else (
        [question for question, _ in pairs[:4]] + [question for question, _ in pairs if said[question].startswith("error:")][:4]
        + [lines[0][1] for given, lines in groups.items() if given])
    for question in singles:
        single = node(*_named(game), *prefix, *question.split())
        answer = said[question]
        if answer.startswith("error: "):
            assert (single.returncode, single.stdout, single.stderr) == (2, "", "answer.mjs: %s\n" % answer[7:]), question
        else:
            assert (single.returncode, single.stdout, single.stderr) == (0, answer + "\n", ""), question


# -- refusals: the game options, damaged and missing tables ----------------------------------------------------

OPTION_CASES = {
    "shutthebox": [["--tiles", "13"], ["--tiles"], ["--dice", "0"], ["--one-die", "x"], ["--players", "9"],
                   ["--tiles", "5", "--tiles", "6"], ["--table"], ["--batch", "--rules"], ["--players", "3", "--solo"],
                   ["--sides=1"], ["--max-move-tiles", "0"]],
    "toggle": [["--cards", "17"], ["--cards", "9", "--sides", "3"], ["--sides", "x"], ["--cards"], ["--cards", "1e1"],
               ["--table="], ["--batch", "--expect", "all"], ["--cards=-4"]],
    "goat": [["--goal", "1"], ["--goal", "x"], ["--choose", "twice"], ["--goal"], ["--choose", "ONCE"], ["--table="],
             ["--goal", "5", "--goal", "6"], ["--duel", "optimal", "--solo"]],
}
QUESTION = {"shutthebox": ["--one", "--expect", "1"], "toggle": ["--expect", "all"], "goat": ["--solo", "--expect", "0"]}


@pytest.mark.parametrize("game, case", [(game, case) for game, cases in OPTION_CASES.items() for case in cases],
                         ids=lambda value: " ".join(value) if isinstance(value, list) else value)
def test_node_reader_refuses_bad_options_as_the_command_does(game, case):
    """Exit status 2 and the command's one line, word for word, never a stack trace."""
    question = [] if {"--batch", "--solo", "--duel"} & set(case) else QUESTION[game]
    want, got = command(*_named(game), *case, *question), node(*_named(game), *case, *question)
    assert want.returncode == got.returncode == 2, (want.stderr, got.stderr)
    assert got.stderr.removeprefix("answer.mjs: ") == want.stderr.removeprefix("ShutTheBox: ") and got.stdout == ""


@pytest.mark.parametrize("game", GAMES)
def test_node_reader_refuses_damaged_tables_in_one_line(game):
    """Every damaged table of the corpus: exit status 3 and one line naming the file, as the command's."""
    folder = os.path.join(CORPUS, "bad")
    for name in sorted(os.listdir(folder)):
        path = os.path.join(folder, name)
        got, want = node(*_named(game), "--table", path, *QUESTION[game]), command(*_named(game), "--table", path, *QUESTION[game])
        assert got.returncode == want.returncode == 3, (name, got.stderr)
        assert got.stdout == "" and got.stderr.count("\n") == 1 and path in got.stderr, (name, got.stderr)


@pytest.mark.parametrize("game, options, name", [
    ("shutthebox", ["--tiles", "5"], "t5-2d6-one6-p2.msgpack"), ("shutthebox", ["--dice", "3", "--players", "3"], "t9-3d6-one6-p3.msgpack"),
    ("toggle", ["--cards", "7"], "toggle-c7-s6.msgpack"), ("goat", ["--goal", "7", "--choose", "once"], "goat-g7-once.msgpack"),
])
def test_node_reader_names_a_missing_table_and_the_command_that_solves_it(game, options, name, tmp_path):
    """A table not solved yet: exit status 3, one line naming the file looked for and the command that solves it
    (the reader solves nothing)."""
    done = node(*_named(game), *options, *QUESTION[game], env={"SHUTTHEBOX_CACHE": str(tmp_path / "empty")})
    assert done.returncode == 3 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    solve = "ShutTheBox %s" % " ".join([*_named(game), *options])
    assert name in done.stderr and solve in done.stderr, done.stderr


@pytest.mark.parametrize("game", GAMES)
def test_node_reader_answers_users_lines_as_the_command_does(game):
    """2,000 lines of bench's generators (the lines users send), each changed as test_surfaces.py changes them (a
    number short or too many, leading zeros, out of range, any order, a bad option, capitals); Shut the Box's also
    as --solo and --scores questions: one batch of the command and of the reader, the same bytes."""
    import random
    import sys

    from test_surfaces import MUTATIONS

    sys.path.insert(0, os.path.join(ROOT, "bench"))
    try:
        from bench import BATCH_LINES
    finally:
        sys.path.pop(0)
    rng = random.Random(640)
    lines = [" ".join(MUTATIONS[n % len(MUTATIONS)](BATCH_LINES[game](rng).split(), rng)) for n in range(2000)]
    if game == registry.DEFAULT:
        asked = [" ".join(word for word in line.split() if word not in ("--one", "--two")) for line in lines[:400]]
        lines += ["--solo " + line for line in asked[:200]]
        lines += ["--scores %d,%d %s" % (rng.randrange(50), rng.randrange(1, 46), line) for line in asked[200:]]
    stdin = "".join(line + "\n" for line in lines)
    want, got = command(*_named(game), "--batch", stdin=stdin), node(*_named(game), "--batch", stdin=stdin)
    assert got.stderr == "" and (got.returncode, got.stdout) == (want.returncode, want.stdout)
    answered = [line for line in got.stdout.splitlines() if not line.startswith("error:")]
    assert len(answered) > 200  # not only refusals
