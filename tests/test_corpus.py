"""The shared corpus of tests/data (docs/FORMAT.md section 8): good tables answer their golden
questions (as single commands, in the Python session and in a batch), every damaged one is refused in one
line with exit status 3."""

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


def in_process(command):
    """``answer(question) -> text`` of the Python session the golden file's command opens (its game's grammar,
    in this process): the answer, or ``error: ...`` for a refusal, as the command prints them."""
    from shutthebox.engine.command import split_options
    from shutthebox.errors import InvalidQuery

    game = command[0] if command[0] in registry.NAMED_FIRST else registry.DEFAULT
    grammar = registry.grammar(game)
    options, rest = split_options(command[1:] if game == command[0] else command, grammar.GAME_OPTIONS)
    assert rest == [], rest
    session = grammar.open_game(options["game"], options["table"])

    def answer(question):
        try:
            return session.answer(question.split())
        except InvalidQuery as error:
            return "error: %s" % error

    return answer


@pytest.mark.parametrize("name", slow_when(GOLDEN, {"goat-g5-golden.txt", "pig-two-dice-g8-golden.txt",
                                                    "yazy-duel-ones.yazy-golden.txt"}))
def test_golden_answers_of_a_good_table_one_by_one_and_in_a_batch(name):
    """Each golden line asked as a single command, in the Python session and in one batch."""
    path = os.path.join(DATA, "good", name)
    command = golden_command(path)
    pairs = golden(path)
    assert len(pairs) >= 10
    session = in_process(command)
    for question, answer in pairs:
        result = run(*command, *question.split())
        printed = result.stdout.strip() or result.stderr.strip().replace("ShutTheBox: ", "error: ", 1)
        assert printed == answer, question
        assert session(question) == answer, question
    batch = run(*command, "--batch", stdin="\n".join(question for question, _ in pairs) + "\n")
    assert batch.stdout.splitlines() == [answer for _, answer in pairs]
    assert batch.returncode == 1  # some golden questions are errors


@pytest.mark.slow  # the exact solver in fractions: seconds
def test_the_two_player_golden_answers_are_the_exact_solver_s():
    """Every chance of yazy-duel-ones.yazy-golden.txt is the exact one (tests/test_yazy_duel.py's solver, in
    fractions) rounded half to even, and every move is worth the exact best chance."""
    from fractions import Fraction

    from test_yazy_duel import Duel

    game = ("ones", "yazy")
    duel = Duel(game)
    checked = 0
    for question, answer in golden(os.path.join(DATA, "good", "yazy-duel-ones.yazy-golden.txt")):
        if answer.startswith("error:"):
            continue
        words = question.split()  # --players 2 --expect|--move A B --scores S1,S2 [DICE REROLLS]
        assert words[:2] == ["--players", "2"] and words[5] == "--scores", question
        mine, theirs = (frozenset(game if text == "all" else () if text == "none" else text.split(","))
                        for text in words[3:5])
        mover, opponent = map(int, words[6].split(","))
        if len(words) == 7:
            exact = duel.win(mine, theirs, mover - opponent)
        else:
            options = duel.options(mine, theirs, mover - opponent, tuple(sorted(map(int, words[7]))), int(words[8]))
            exact = max(chance for chance, _ in options)
        if words[2] == "--expect":
            assert answer == "%d.%06d" % divmod(round(exact * 10**6), 10**6), (question, float(exact))
        else:
            assert {move: chance for chance, move in options}[answer] >= exact - Fraction(1, 10**11), question
        checked += 1
    assert checked >= 15


def test_a_batch_on_the_two_player_table_refuses_other_questions_by_the_line():
    """Its two-player questions answered from it, a one-player line refused in one line (a single command
    refuses the file itself: it is no one-player table)."""
    path = os.path.join(DATA, "good", "yazy-duel-ones.yazy.msgpack")
    batch = run("yazy", "--table", path, "--batch", stdin="--players 2 --expect all all --scores 0,0\n--expect all\n"
                "--target 5 --expect all\n")
    assert batch.returncode == 1 and batch.stdout.splitlines()[0] == "0.498983", batch.stderr
    assert all(line == "error: table file %s is a two-player table: it answers --players 2 questions only" % path
               for line in batch.stdout.splitlines()[1:]), batch.stdout


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
