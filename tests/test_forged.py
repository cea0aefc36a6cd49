"""Forged tables: every checksum right, one value impossible (nan, an infinity, a chance of 1.5, a negative
expected score, a move the game has not). Each game's table class says what its arrays' values may be
(``VALUES`` / ``value_ranges()``, engine/table.py) and the reader checks every value a question reads: such
a table is refused with exit status 3 naming the file, by a single question, by ``--batch`` (the whole
array is checked when it is read for the batch) and by the Python API (TableError), never printed.

The copies are made by tests/forge.py from the small good tables of tests/data/good/ (yazy and Yahtzee:
their shipped tables; its target mode, not shipped and solved in about 15 s, from a synthetic table of the right shape)."""

import math
import os

import pytest

from conftest import ROOT, run
from forge import forge, resigned, yazy_target_table
from shutthebox.errors import TableError

GOOD = os.path.join(ROOT, "tests", "data", "good")
NAN, INF = float("nan"), float("inf")


def _two(path):
    import shutthebox

    return shutthebox.load(path)


def _solo(path):
    import shutthebox

    return shutthebox.load_solo(path=path)


def _game(name):
    """The game's ``load(rules, path)`` under the file's own rules (as ``--table`` alone asks it)."""
    from shutthebox import registry

    def opened(path):
        family = registry.declaration(name).tables[0]
        return __import__("shutthebox.games.%s.table" % name, fromlist=["load"]).load(family.rules_in(path), path)

    return opened


def _yazy(path):
    from shutthebox.games.yazy.table import load

    return load(path)


def _target(path):
    from shutthebox.games.yazy.table import load_target

    return load_target(path)


# id -> (table, command words before --table, question, array, flat index read, forged value, API: open, ask).
# Index formulas: docs/FORMAT.md section 6 (e1[position], e2[position * S + score], ...).
CASES = {
    "two-player nan": ("two-player-t4.msgpack", [], "--one --expect 1234", "e1", 15, NAN,
                       _two, lambda table: table.expect_one("1234")),
    "two-player 1.5": ("two-player-t4.msgpack", [], "--two --expect 1234 5", "e2", 15 * 11 + 5, 1.5,
                       _two, lambda table: table.expect_two("1234", 5)),
    "two-player move": ("two-player-t4.msgpack", [], "--one --move 1234 7", "m1", 15 * 13 + 7, 60000,
                        _two, lambda table: table.move_one("1234", 7)),
    "multi-player inf": ("multi-player-t4-p3.msgpack", [], "--scores none --expect 1234", "e", 15, INF,
                         _two, lambda table: table.expect("1234", [])),
    "one-player chance": ("one-player-t4.msgpack", [], "--solo --expect 1234", "shut", 15, 1.5,
                          _solo, lambda table: table.shut_probability("1234")),
    "one-player score": ("one-player-t4.msgpack", [], "--solo --expect 1234 --objective score", "score", 15, -5.0,
                         _solo, lambda table: table.expected_score("1234")),
    "toggle": ("toggle-c5-s3.msgpack", ["toggle"], "--expect all", "rolls", 31, -5.0,
               _game("toggle"), lambda table: table.probe_expect("all")),
    "toggle card": ("toggle-c5-s3.msgpack", ["toggle"], "--move all 1 2", "flip", (31 * 3 + 0) * 3 + 1, 200,
                    _game("toggle"), lambda table: table.probe_flip("all", 1, 2)),
    "goat turns": ("goat-g5.msgpack", ["goat"], "--solo --expect 0", "solo", 0, INF,
                   _game("goat"), lambda table: table.probe_solo(0)),
    "goat chance": ("goat-g5.msgpack", ["goat"], "--one --expect 0 0", "one", 0, 1.5,
                    _game("goat"), lambda table: table.probe_win(1, 0, 0)),
    "goat action": ("goat-g5.msgpack", ["goat"], "--solo --move 0 0 0", "solo_move", 0, 200,
                    _game("goat"), lambda table: table.probe_solo_move(0, 0, 0)),
    "pig": ("pig-two-dice-g8.msgpack", ["pig"], "--expect 0 0 0", "win", 0, 1.5,
            _game("pig"), lambda table: table.probe_win(0, 0, 0)),
    "yazy nan": ("yazy", ["yazy"], "--expect all", "turn", 2047, NAN,
                 _yazy, lambda table: table.probe_expect("all")),
    "yazy move": ("yazy", ["yazy"], "--move all 11111 2", "move", (2047 * 3 + 2) * 252, 200,
                  _yazy, lambda table: table.probe_move("all", "11111", 2)),
    "yazy target": ("yazy-target", ["yazy"], "--target 200 --expect", "target", 2047 * 281 + 200, 1.5,
                    _target, lambda table: table.probe_target(200)),
    "yazy target mid-turn": ("yazy-target", ["yazy"], "--target 200 --move all 13366 2", "target",
                             (2047 - 1) * 281 + 5, -0.5, _target, lambda table: table.probe_target_move(200, "all",
                                                                                                      "13366", 2)),
    "yahtzee nan": ("yahtzee-official.msgpack", ["yahtzee"], "--expect all", "turn", 178815, NAN,
                    _game("yahtzee"), lambda table: table.probe_expect("all")),
    # Mid-turn, the question reads the states after each choice: scoring chance leaves (ones, 30, box 50).
    "yahtzee mid-turn": ("yahtzee-official.msgpack", ["yahtzee"],
                         "--move ones,chance --upper 30 --yahtzee-box 50 13366 2", "turn", 357725, 1e6,
                         _game("yahtzee"), lambda table: table.probe_move("ones,chance", "13366", 2, 30, 50)),
}
SLOW = {"yazy nan", "yazy move"}  # a 14 MB table, copied and read whole


def source(name) -> bytes:
    if name in ("yazy", "yahtzee-official.msgpack"):  # shipped tables
        path = os.path.join(ROOT, "data", name if name.endswith(".msgpack") else name + ".msgpack")
    elif name == "yazy-target":
        return yazy_target_table()
    else:
        path = os.path.join(GOOD, name)
    with open(path, "rb") as handle:
        return handle.read()


@pytest.fixture(scope="module")
def sources():
    return {}


@pytest.mark.parametrize("case", [pytest.param(case, marks=pytest.mark.slow) if case in SLOW else case
                                  for case in CASES])
def test_a_forged_value_is_refused_on_every_surface(case, tmp_path, sources):
    name, words, question, array, index, value, opened, ask = CASES[case]
    if name not in sources:
        sources[name] = source(name)
    good = tmp_path / ("good-" + name + ("" if name.endswith(".msgpack") else ".msgpack"))
    good.write_bytes(sources[name])
    forged = tmp_path / ("forged-" + good.name[len("good-"):])
    forged.write_bytes(forge(sources[name], array, index, value))

    answered = run(*words, "--table", str(good), *question.split())
    assert answered.returncode == 0 and answered.stdout.strip(), answered.stderr  # the question reads a value
    for done in (run(*words, "--table", str(forged), *question.split()),
                 run(*words, "--table", str(forged), "--batch", stdin=question + "\n")):
        assert done.returncode == 3 and done.stdout == "", (done.stdout, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
        assert str(forged) in done.stderr and "impossible value" in done.stderr, done.stderr
        assert "%s[" % array in done.stderr, done.stderr
    with pytest.raises(TableError, match="impossible value"):
        ask(opened(str(forged)))
    table = opened(str(forged))  # a batch's preload reads every array whole: refused before any answer
    with pytest.raises(TableError, match=r"%s\[%d\] is %s" % (array, index, "nan" if value != value else
                                                            "inf" if math.isinf(value) else value)):
        table.preload()


def test_values_are_refused_by_range_by_nan_and_by_set():
    """The engine's check (engine/table.py Values) on whole arrays and one value at a time."""
    from array import array

    from shutthebox.engine.table import CHANCE, Values

    assert CHANCE.first_outside(array("d", [0.0, 0.5, 1.0, 1.0 + 1e-15])) is None  # a solver's rounding
    assert CHANCE.first_outside(array("d", [0.0, 0.5, NAN, 1.0])) == 2
    assert CHANCE.first_outside(array("d", [0.0, -INF])) == 1
    assert CHANCE.first_outside(memoryview(array("d", [0.2, 1.5]).tobytes()).cast("d")) == 1
    moves = Values("a move", 0, 511)
    assert moves.first_outside(memoryview(array("H", [0, 511, 260]).tobytes()).cast("H")) is None
    assert moves.first_outside(memoryview(array("H", [0, 512, 260]).tobytes()).cast("H")) == 1
    odd = Values("a number", 0, 300)  # not 2^k - 1: the high bytes are not enough
    assert odd.first_outside(memoryview(array("H", [300, 301]).tobytes()).cast("H")) == 1
    codes = Values("a move code", 0, 255, only=(*range(31), *range(32, 43), 255))
    assert codes.first_outside(memoryview(bytes([0, 30, 32, 42, 255]))) is None
    assert codes.first_outside(memoryview(bytes([0, 30, 31, 42, 255]))) == 2
    assert codes.words() == "a move code: 0 to 30, 32 to 42 or 255"
    assert not codes.holds(43) and codes.holds(255) and not CHANCE.holds(NAN)


# -- a header field missing or malformed, every checksum right (or a file cut short): TableError naming the file,
# exit status 3, never a KeyError, an IndexError or a ValueError

DUEL = "yazy-duel-ones.yazy.msgpack"
DUEL_QUESTION = ["yazy", "--players", "2", "--expect", "all", "all", "--scores", "0,0"]


def _fields(data: bytes) -> dict:
    import msgpack

    return msgpack.unpackb(data, raw=False)


def _renamed(data: bytes, old: str, new: str) -> bytes:
    """The table with array ``old`` named ``new`` (a flipped bit in its name), re-signed."""
    fields = _fields(data)
    fields["arrays"] = {new if name == old else name: spec for name, spec in fields["arrays"].items()}
    return resigned(fields)


def _duel(path):
    from shutthebox.games.yazy.duel.table import load_duel
    from shutthebox.games.yazy.rules import Rules

    return load_duel(Rules(categories="ones,yazy"), path).probe_win("all", "all", "0,0")


def _yahtzee_target_table() -> bytes:
    """A Yahtzee target table of the game from a late card (the whole game's is 1.7 GB: not shipped)."""
    from shutthebox.games.yahtzee.rules import FIFTY, categories
    from shutthebox.games.yahtzee.target.build import solve_table

    return solve_table("official", (categories("fours,chance"), 51, FIFTY), progress=False)


# the question the late card's table answers (its start)
YAHTZEE_TARGET_QUESTION = ["yahtzee", "--target", "20", "--expect", "fours,chance", "--upper", "51", "--yahtzee-box", "50"]


def _with_start(start):
    return lambda data: resigned(_fields(data), lambda fields: fields.update(start=start))


def _yahtzee_target(path):
    from shutthebox.games.yahtzee.target.table import load_target

    return load_target("official", path).probe_target(20, "fours,chance", upper=51, box=50)


# id -> (the good table's bytes, how it is damaged, the command's questions (the first answered from the good
# table), how the API asks it)
HEADER_CASES = {
    "duel: a flipped bit in the unsure array's name": (
        lambda: source(DUEL), lambda data: _renamed(data, "unsure", "unsurg"), [DUEL_QUESTION], _duel),
    "duel: cut by 12 bytes": (lambda: source(DUEL), lambda data: data[:-12], [DUEL_QUESTION], _duel),
    # a state the table does not hold reads its start to say so
    **{"yahtzee target: start %r" % (start,): (
        _yahtzee_target_table, _with_start(start),
        [YAHTZEE_TARGET_QUESTION, ["yahtzee", "--target", "20", "--expect", "all"]], _yahtzee_target)
       for start in ("1,2", "1,2,3,4", "8200,51,9", "99999999,0,0", "-1,0,0", "4104,99,2")},
}


@pytest.mark.parametrize("case", HEADER_CASES)
def test_a_malformed_header_field_is_a_table_error(case, tmp_path):
    good_bytes, damage, questions, ask = HEADER_CASES[case]
    data = good_bytes()
    good, damaged = tmp_path / "good.msgpack", tmp_path / "damaged.msgpack"
    good.write_bytes(data)
    damaged.write_bytes(damage(data))
    words = questions[0]
    assert run(words[0], "--table", str(good), *words[1:]).returncode == 0  # the question is answered from it
    for words in questions:
        done = run(words[0], "--table", str(damaged), *words[1:])
        assert done.returncode == 3 and done.stdout == "", (words, done.returncode, done.stdout, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
        assert str(damaged) in done.stderr, done.stderr
    with pytest.raises(TableError, match=str(damaged)):
        ask(str(damaged))


# -- Yahtzee's turn-start values are 0 or 1 and more (games/yahtzee/turn.py): a value between is refused

YAHTZEE_START = ("--expect all", 178815)  # the question and the index of turn it reads
YAHTZEE_MID_TURN = ("--move ones,chance --upper 30 --yahtzee-box 50 13366 2", 357725)


@pytest.mark.parametrize("question, index", [YAHTZEE_START, YAHTZEE_MID_TURN], ids=["start", "mid-turn"])
def test_a_yahtzee_value_between_0_and_1_is_refused(question, index, tmp_path, sources):
    from shutthebox.games.yahtzee.table import load as load_yahtzee

    name = "yahtzee-official.msgpack"
    if name not in sources:
        sources[name] = source(name)
    forged = tmp_path / name
    forged.write_bytes(forge(sources[name], "turn", index, 0.1))
    for done in (run("yahtzee", "--table", str(forged), *question.split()),
                 run("yahtzee", "--table", str(forged), "--batch", stdin=question + "\n")):
        assert done.returncode == 3 and done.stdout == "", (done.returncode, done.stdout, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
        assert str(forged) in done.stderr and "turn[%d] is 0.1" % index in done.stderr, done.stderr
    table = load_yahtzee("official", str(forged))
    with pytest.raises(TableError, match=r"turn\[%d\] is 0.1" % index):
        if question == YAHTZEE_START[0]:
            table.probe_expect("all")
        else:
            table.probe_move("ones,chance", "13366", 2, 30, 50)
