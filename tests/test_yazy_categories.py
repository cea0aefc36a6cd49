"""yazy played with some categories only (``--categories``): one- and two-category games against a brute force
written here, exact in fractions over every ordered roll, for the values at a turn's start, mid-turn values,
moves and the target mode; the full game unchanged; bad category lists refused.

The brute force shares nothing with the project: scoring, keeps and rerolls are enumerated again below (every
ordered outcome of the rerolled dice, never a table of keep chances).
"""

import os
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product

import pytest

import shutthebox
from conftest import ROOT, run
from shutthebox.errors import InvalidQuery
from shutthebox.games.yazy.grammar import open_game

NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house", "straight",
         "yazy")
FACES = range(1, 7)
ROLLS = sorted({tuple(sorted(dice)) for dice in product(FACES, repeat=5)})
GOLDEN = os.path.join(ROOT, "tests", "data", "good", "yazy-ones.yazy-golden.txt")


def points(name: str, dice) -> int:
    counts = sorted(Counter(dice).values())
    if name in NAMES[:6]:
        face = NAMES.index(name) + 1
        return face * list(dice).count(face)
    if name == "three-kind":
        return sum(dice) if counts[-1] >= 3 else 0
    if name == "four-kind":
        return sum(dice) if counts[-1] >= 4 else 0
    if name == "full-house":
        return 25 if counts == [2, 3] else 0
    if name == "straight":
        return 40 if set(dice) in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    return 50 if counts == [5] else 0


def keeps(roll) -> list:
    """The distinct proper sub-multisets of ``roll`` (0 to 4 dice), in the tie rule's order: more dice first,
    then the lowest dice."""
    found = {kept for size in range(5) for kept in combinations(roll, size)}
    return sorted(found, key=lambda kept: (-len(kept), kept))


class Turn:
    """One turn of the open categories ``names``, whose scoring of ``name`` on ``roll`` is worth
    ``after(name, roll)`` (exact): V[R][roll] with R rerolls left, and each choice's value in the tie rule's
    order (score first, categories in their order; then keeps)."""

    def __init__(self, names, after):
        self.names = [name for name in NAMES if name in names]
        self.scoring = {roll: [(after(name, roll), "score " + name) for name in self.names] for roll in ROLLS}
        self.values = [{roll: max(value for value, _ in self.scoring[roll]) for roll in ROLLS}]
        self.held = [None]
        for _ in (1, 2):
            before, held = self.values[-1], {}
            for roll in ROLLS:
                for kept in keeps(roll):
                    if kept not in held:
                        rolled = 5 - len(kept)
                        held[kept] = sum(before[tuple(sorted(kept + outcome))]
                                         for outcome in product(FACES, repeat=rolled)) / Fraction(6**rolled)
            self.held.append(held)
            self.values.append({roll: max(self.values[0][roll], max(held[kept] for kept in keeps(roll)))
                                for roll in ROLLS})

    def start(self) -> Fraction:
        return sum(self.values[2][tuple(sorted(dice))] for dice in product(FACES, repeat=5)) / Fraction(6**5)

    def choices(self, roll, rerolls: int) -> list:
        out = list(self.scoring[roll])
        if rerolls:
            out += [(self.held[rerolls][kept], "keep " + (" ".join(map(str, kept)) or "none")) for kept in keeps(roll)]
        return out

    def move(self, roll, rerolls: int) -> str:
        best = self.values[rerolls][roll]
        return next(move for value, move in self.choices(roll, rerolls) if value == best)


@lru_cache(maxsize=None)
def expected_turn(names: frozenset) -> Turn:
    return Turn(names, lambda name, roll: points(name, roll) + expected_start(names - {name}))


@lru_cache(maxsize=None)
def expected_start(names: frozenset) -> Fraction:
    return expected_turn(names).start() if names else Fraction(0)


@lru_cache(maxsize=None)
def target_turn(names: frozenset, x: int) -> Turn:
    return Turn(names, lambda name, roll: target_start(names - {name}, x - points(name, roll)))


@lru_cache(maxsize=None)
def target_start(names: frozenset, x: int) -> Fraction:
    if x <= 0:
        return Fraction(1)
    return target_turn(names, x).start() if names else Fraction(0)


def printed(value: Fraction) -> str:
    """The exact value rounded to 6 decimals (never a midpoint: the denominators are powers of 6)."""
    return "%.6f" % round(value, 6)


def sets_of(game) -> list:
    """The non-empty subsets of the game's categories, as CATS texts."""
    return [",".join(names) for size in range(1, len(game) + 1) for names in combinations(game, size)]


GAMES = [("ones",), ("sixes",), ("full-house",), ("straight",), ("yazy",), ("ones", "yazy"),
         ("full-house", "straight"), ("sixes", "three-kind")]


@pytest.mark.parametrize("game", GAMES, ids=",".join)
def test_values_mid_turn_values_and_moves_match_the_brute_force(game):
    session = open_game({"--categories": ",".join(reversed(game))}, None)  # any order names the same game
    assert session.answer(["--expect"]) == printed(expected_start(frozenset(game)))
    table = session.table()
    for cats in sets_of(game):
        names = frozenset(cats.split(","))
        turn = expected_turn(names)
        assert session.answer(["--expect", cats]) == printed(expected_start(names)), cats
        for roll in ROLLS:
            dice = "".join(map(str, roll))
            for rerolls in range(3):
                exact = turn.values[rerolls][roll]
                value = table.probe_expect(cats, dice, rerolls)
                assert abs(value - exact) < 1e-12 * max(1, exact), (cats, dice, rerolls)
                assert session.answer(["--expect", cats, dice, str(rerolls)]) == printed(exact), (cats, dice)
                assert session.answer(["--move", cats, dice, str(rerolls)]) == turn.move(roll, rerolls), (
                    cats, dice, rerolls)


@pytest.mark.parametrize("game, targets", [
    (("ones",), (3,)),
    pytest.param(("yazy",), (1, 50, 51), marks=pytest.mark.slow),  # 5 to 15 s each: a brute force a target
    pytest.param(("ones", "yazy"), (3, 5, 51, 55), marks=pytest.mark.slow),
    pytest.param(("full-house", "straight"), (25, 40, 65), marks=pytest.mark.slow)], ids=lambda v: str(v))
def test_the_target_mode_matches_the_brute_force(game, targets):
    session = open_game({"--categories": ",".join(game)}, None)
    for x in targets:
        assert session.answer(["--target", str(x), "--expect"]) == printed(target_start(frozenset(game), x))
        for cats in sets_of(game):
            names = frozenset(cats.split(","))
            turn = target_turn(names, x)
            assert session.answer(["--target", str(x), "--expect", cats]) == printed(target_start(names, x))
            for roll in ROLLS[::7]:
                dice = "".join(map(str, roll))
                for rerolls in range(3):
                    state = [cats, dice, str(rerolls)]
                    best = turn.values[rerolls][roll]
                    assert session.answer(["--target", str(x), "--expect", *state]) == printed(best), (x, state)
                    # choices within the target mode's tie width (1e-11) are tied: the tie rule picks the first
                    tied = [move for value, move in turn.choices(roll, rerolls) if best - value <= Fraction(1, 10**11)]
                    assert session.answer(["--target", str(x), "--move", *state]) == tied[0], (x, state)


def test_the_command_line_and_a_batch_ask_the_game_of_the_option():
    done = run("yazy", "--categories", "yazy,ones", "--expect")
    assert (done.returncode, done.stdout, done.stderr) == (0, printed(expected_start(frozenset(("ones", "yazy"))))
                                                           + "\n", "")
    lines = ["--expect", "--expect all 11126 2", "--move ones,yazy 11126 2", "--expect twos", "--move yazy 66666 0"]
    batch = run("yazy", "--categories", "ones,yazy", "--batch", stdin="".join(line + "\n" for line in lines))
    turn = expected_turn(frozenset(("ones", "yazy")))
    assert batch.stdout.splitlines() == [
        printed(expected_start(frozenset(("ones", "yazy")))), printed(turn.values[2][(1, 1, 1, 2, 6)]),
        turn.move((1, 1, 1, 2, 6), 2), "error: category twos is not played in this game (--categories ones,yazy)",
        "score yazy"]
    assert batch.returncode == 1


def test_the_golden_answers_of_the_small_table_are_the_brute_force_s():
    with open(GOLDEN, encoding="utf-8") as handle:
        pairs = [line.rstrip("\n").split("\t") for line in handle if "\t" in line and not line.startswith("#")]
    game = frozenset(("ones", "yazy"))
    checked = 0
    for question, answer in pairs:
        words = question.split()
        if answer.startswith("error:"):
            continue
        cats = game if len(words) < 2 or words[1] == "all" else frozenset(words[1].split(",")) - {"none"}
        if words[0] == "--expect" and len(words) <= 2:
            assert answer == printed(expected_start(cats)), question
        elif words[0] == "--expect":
            assert answer == printed(expected_turn(cats).values[int(words[3])][tuple(sorted(map(int, words[2])))])
        else:
            assert answer == expected_turn(cats).move(tuple(sorted(map(int, words[2]))), int(words[3])), question
        checked += 1
    assert checked >= 10


def test_the_full_game_is_all_eleven_and_unchanged():
    # the published 165.76 (the shipped table), whichever way all eleven are named
    for options in ({}, {"--categories": "all"}, {"--categories": ",".join(reversed(NAMES))}):
        session = open_game(options, None)
        assert session.answer(["--expect"]) == "165.757319"
        assert os.path.basename(session.table().path) == "yazy.msgpack"
    assert shutthebox.open("yazy", categories="all").path == shutthebox.open("yazy").path


@pytest.mark.parametrize("categories, words", [
    ("ones,chance", "--categories: unknown category 'chance'"),
    ("", "--categories lists no category"),
    ("none", "--categories lists no category"),
    ("ones,yazy,ones", "--categories: category ones is listed twice"),
    ("ones,,yazy", "--categories: unknown category ''"),
])
def test_a_bad_category_list_is_refused_in_one_line(categories, words):
    done = run("yazy", "--categories", categories, "--expect")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("ShutTheBox: " + words), done.stderr
    with pytest.raises(InvalidQuery, match="^" + words):
        shutthebox.open("yazy", categories=categories)


@pytest.mark.parametrize("question, words", [
    (["--expect", "twos"], "category twos is not played in this game (--categories ones,yazy)"),
    (["--move", "ones,twos,sixes", "11126", "1"], "categories twos,sixes are not played in this game"),
    (["--target", "5", "--expect", "full-house"], "category full-house is not played in this game"),
])
def test_cats_outside_the_game_are_refused_in_one_line(question, words):
    done = run("yazy", "--categories", "ones,yazy", *question)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr == "ShutTheBox: %s%s\n" % (words, "" if words.endswith(")") else " (--categories ones,yazy)")
    table = shutthebox.open("yazy", categories="ones,yazy")
    with pytest.raises(InvalidQuery):
        table.probe_expect(0b10)  # a bitmask of the full game's numbering: twos
    assert table.probe_expect(0b1) == table.probe_expect("ones")


def test_a_subset_s_table_is_named_by_its_categories_and_asked_under_its_own_rules(private_cache):
    table = shutthebox.open("yazy", categories="yazy,ones")
    assert table.path == os.path.join(private_cache, "yazy-ones.yazy.msgpack")
    alone = run("yazy", "--table", table.path, "--expect", "ones")  # the file's own rules, read from it
    assert alone.stdout == printed(expected_start(frozenset(["ones"]))) + "\n", alone.stderr
    other = run("yazy", "--categories", "ones", "--table", table.path, "--expect")
    assert other.returncode == 3 and table.path in other.stderr
