"""The page's JavaScript reader (the ES module shutthebox/web/static/shutthebox/table.js,
built on lib/format.js, run by Node.js through web/answer.mjs with the vendored msgpack
decoder) answers exactly as the Python API does, for two-player, multi-player and
single-player tables, and refuses damaged tables; the pages' notation of sets
(lib/notation.js) reads and writes them as shutthebox.engine.notation does.

Needs `node`; skipped without it, except under CI (CI=... set), where it fails.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import zlib
from functools import partial

import pytest

import shutthebox
from shutthebox.errors import InvalidQuery
from shutthebox.engine.notation import format_set as format_position, numbers_of as tiles_of

from forge import resigned, rewritten  # a table's header changed, every checksum made right
from nodereader import ANSWER_JS, NODE, command, golden, need_node, node

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATIC = os.path.join(ROOT, "shutthebox", "web", "static")  # the page: shutthebox/table.js, lib/, vendor/
CORPUS = os.path.join(ROOT, "tests", "data")
pytestmark = pytest.mark.node  # conftest.py skips these without Node.js before any table is solved


@pytest.fixture(scope="module")
def table():
    return shutthebox.load()


def _run(table_path, questions, timeout=60):
    need_node()
    stdin = "".join(json.dumps(q) + "\n" for q in questions)
    return subprocess.run(
        [NODE, ANSWER_JS, table_path], input=stdin, capture_output=True, text=True, timeout=timeout
    )


def random_questions(rules, count, seed):
    """Random questions of every kind, mostly valid, some impossible or malformed."""
    rng = random.Random(seed)
    questions = []
    for _ in range(count):
        mask = rng.randrange(1, 1 << rules.tiles)
        position = format_position(mask, rules.tiles)
        open_sum = sum(i + 1 for i in range(rules.tiles) if mask >> i & 1)
        low, high = rules.roll_range(rules.dice_for(open_sum))
        roll = rng.randint(low, high) if rng.random() < 0.9 else rng.randint(0, rules.max_roll + 2)
        score = rng.randint(1, rules.max_score) if rng.random() < 0.95 else rng.choice([0, rules.max_score + 1])
        kind = rng.choice(["e1", "m1", "e2", "m2"])
        questions.append({"e1": [kind, position], "m1": [kind, position, roll],
                          "e2": [kind, position, score], "m2": [kind, position, score, roll]}[kind])
    # Malformed positions: the readers must refuse them alike.
    questions += [["e1", ""], ["e1", "0"], ["m1", "1x3", 4], ["e2", "11", 5], ["m2", "12345678910", 5, 7]]
    return questions


def python_answer(table, question):
    kind, args = question[0], question[1:]
    ask = {"e1": table.expect_one, "m1": table.move_one, "e2": table.expect_two, "m2": table.move_two}[kind]
    try:
        result = ask(*args)
    except InvalidQuery:
        return "error"
    return {"value": result} if kind[0] == "e" else {"move": list(result)}


def node_against_python(table, questions, python_answer_of, label):
    """Ask the Node.js reader every question; each answer must equal the Python API's.

    Returns the answers and how many of each kind (value, move, error) came back.
    """
    done = _run(table.path, questions)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(questions)
    kinds = {"value": 0, "move": 0, "error": 0}
    if any(q[0] == "dice" for q in questions):
        kinds["dice"] = 0
    for number, (question, answer) in enumerate(zip(questions, answers), 1):
        expected = python_answer_of(table, question)
        got = "error" if "error" in answer else answer
        # Values are the very float64 of the file: compared exactly, not with a tolerance.
        assert got == expected, "%squestion %d %s: node %r, python %r" % (label, number, question, answer, expected)
        kinds[next(iter(answer))] += 1
    return answers, kinds


def test_node_reader_answers_like_the_python_api(table):
    questions = random_questions(table.rules, 600, seed=20240605)
    questions += [["e1", "123456789"], ["m1", "146789", 9], ["e2", "123456789", 8], ["m2", "13456789", 17, 12]]
    answers, kinds = node_against_python(table, questions, python_answer, "")
    assert min(kinds.values()) >= 30, kinds  # every kind of answer was exercised
    assert answers[-1] == {"move": [3, 9]}
    assert "%.6f" % answers[-4]["value"] == "0.502810"


def _damaged_copies(path, folder):
    data = open(path, "rb").read()
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x01
    future = bytearray(data)
    at = data.index(b"\xa6format\x92") + 8
    future[at : at + 2] = b"\x02\x00"  # format [2, 0]: an unknown major version
    return {
        "truncated": (data[: len(data) // 3], "truncated"),
        "flipped": (bytes(flipped), "checksum mismatch"),
        "not a table": (b"\x89hello, this is not a table" * 10, "not a ShutTheBox table"),
        "empty": (b"", "empty"),
        "future": (bytes(future), "format version 2.0"),
    }


def test_node_reader_refuses_damaged_tables(table, tmp_path):
    for name, (data, reason) in _damaged_copies(table.path, tmp_path).items():
        path = tmp_path / ("%s.msgpack" % name.replace(" ", "-"))
        path.write_bytes(data)
        done = _run(str(path), [["e1", "123456789"]])
        assert done.returncode == 3, (name, done.stdout, done.stderr)
        assert reason in done.stderr and done.stdout == "", (name, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1


def test_node_reader_reports_a_missing_table(tmp_path):
    done = _run(str(tmp_path / "nothing.msgpack"), [])
    assert done.returncode == 3
    assert "cannot be read" in done.stderr


def test_vendored_decoder_is_the_pinned_library():
    """The shipped bundle is @msgpack/msgpack at the version package-lock.json pins."""
    lock = json.load(open(os.path.join(ROOT, "web", "package-lock.json")))
    pinned = lock["packages"]["node_modules/@msgpack/msgpack"]["version"]
    stamp = open(os.path.join(STATIC, "vendor", "VERSION")).read()
    assert stamp.startswith("@msgpack/msgpack %s " % pinned)
    installed = os.path.join(ROOT, "web", "node_modules", "@msgpack", "msgpack", "dist.umd", "msgpack.min.js")
    if os.path.exists(installed):  # after `make web`: the shipped file is the library's, byte for byte
        shipped = os.path.join(STATIC, "vendor", "msgpack.min.js")
        assert open(installed, "rb").read() == open(shipped, "rb").read()


# -- single-player tables (FORMAT.md section 6.2) --------------------------------

SOLO_VARIANTS = ("standard", "two-dice", "two-tiles")


def random_solo_questions(rules, count, seed):
    """Random single-player questions, both objectives, mostly valid, some impossible or malformed."""
    rng = random.Random(seed)
    questions = []
    for _ in range(count):
        mask = rng.randrange(1, 1 << rules.tiles)
        position = format_position(mask, rules.tiles)
        low, high = rules.roll_range(rules.dice_for(sum(tiles_of(mask))))
        roll = rng.randint(low, high) if rng.random() < 0.9 else rng.randint(0, rules.max_roll + 2)
        objective = rng.choice(["shut", "score"]) if rng.random() < 0.97 else "fastest"
        kind = rng.choice(["shut", "score", "expect", "move", "move"])
        questions.append({"shut": [kind, position], "score": [kind, position], "expect": [kind, position, objective],
                          "move": [kind, position, roll, objective]}[kind])
    questions += [["shut", ""], ["score", "0"], ["move", "1x3", 4, "shut"], ["expect", "11", "score"],
                  ["move", "12345678910", 7, "score"], ["move", "12", 1, "shut"]]
    return questions


def python_solo_answer(table, question):
    kind, args = question[0], question[1:]
    ask = {"shut": table.shut_probability, "score": table.expected_score, "expect": table.expect,
           "move": table.move}[kind]
    try:
        result = ask(*args)
    except InvalidQuery:
        return "error"
    return {"move": list(result)} if kind == "move" else {"value": result}


@pytest.mark.parametrize("variant", SOLO_VARIANTS)
def test_node_reader_answers_solo_like_the_python_api(variant):
    table = shutthebox.load_solo(variant)
    questions = random_solo_questions(table.rules, 300, seed=20240605 + SOLO_VARIANTS.index(variant))
    questions += [["move", "12345", 7, "shut"], ["move", "12345", 7, "score"], ["shut", "124"], ["score", "123456789"]]
    answers, kinds = node_against_python(table, questions, python_solo_answer, variant + " ")
    assert min(kinds.values()) >= 15, kinds
    # The objectives differ somewhere: each has its own moves.
    assert answers[-1]["value"] == table.expected_score("123456789")
    if variant == "two-dice":  # FORMAT.md section 6.2's worked example
        assert answers[-4] == {"move": [3, 4]} and answers[-2] == {"value": 59 / 324}
    if variant == "two-tiles":  # at most two tiles: 1234 cannot make 10
        assert "2 or fewer" in _run(table.path, [["move", "1234", 10, "shut"]]).stdout


def test_node_reader_refuses_damaged_solo_tables(tmp_path):
    path = shutthebox.load_solo("two-tiles").path
    for name, (data, reason) in _damaged_copies(path, tmp_path).items():
        damaged = tmp_path / ("solo-%s.msgpack" % name.replace(" ", "-"))
        damaged.write_bytes(data)
        done = _run(str(damaged), [["shut", "123456789"]])
        assert done.returncode == 3, (name, done.stdout, done.stderr)
        assert reason in done.stderr and done.stdout == "", (name, done.stderr)


def _with_trailing_crc(data):
    """``data`` with its trailing CRC-32 made right: only the header or array checksums can tell."""
    return bytes(data[:-4]) + zlib.crc32(bytes(data[:-4])).to_bytes(4, "big")


def test_node_reader_refuses_unknown_rules_and_the_wrong_game(tmp_path):
    solo = shutthebox.load_solo("standard").path
    strange = tmp_path / "strange.msgpack"
    strange.write_bytes(rewritten(solo, lambda fields: fields["rules"].update(jokers=2)))
    done = _run(str(strange), [["shut", "123456789"]])
    assert done.returncode == 3 and "the rule 'jokers'" in done.stderr, done.stderr
    same = tmp_path / "same.msgpack"  # the rewriting itself keeps a readable table: the very same bytes
    same.write_bytes(rewritten(solo, lambda fields: None))
    assert same.read_bytes() == open(solo, "rb").read()
    assert json.loads(_run(str(same), [["shut", "123456789"]]).stdout)["value"] == \
        shutthebox.load_solo("standard").shut_probability("123456789")
    # The page asks for a game: a solo table is refused where the two-player one is wanted, and back.
    script = (
        "import { createRequire } from 'node:module'; import fs from 'node:fs';"
        "const [static_, solo, two] = process.argv.slice(1);"
        "globalThis.MessagePack = createRequire(static_ + '/')(static_ + '/vendor/msgpack.min.js');"
        "const { parseTable } = await import(static_ + '/shutthebox/table.js');"
        "for (const [file, game] of [[solo, 'players'], [two, 'one-player']]) {"
        "  try { parseTable(fs.readFileSync(file), { name: file, game }); console.log('read'); }"
        "  catch (e) { console.log(e.name + ': ' + e.message); } }"
    )
    need_node()
    done = subprocess.run([NODE, "--input-type=module", "-e", script, "--", STATIC, solo, shutthebox.load().path],
                          capture_output=True, text=True, timeout=30)
    lines = done.stdout.splitlines()
    assert len(lines) == 2, done.stderr
    assert lines[0].startswith("TableError") and "'one-player', not 'two-player'" in lines[0]
    assert lines[1].startswith("TableError") and "'two-player', not 'one-player'" in lines[1]


# -- format 1.1: the header checksum and the seeded array checksums (FORMAT.md section 4)


def test_node_reader_verifies_the_header_checksum_itself(table, tmp_path):
    """A header changed, the trailing CRC-32 made right again: header_crc32 still tells."""
    data = bytearray(open(table.path, "rb").read())
    at = data.index(b"\xafone_die_at_most") + 16
    assert data[at] == 6
    data[at] = 5  # one die once the open tiles sum to 5 or less: the same shapes, other answers
    changed = tmp_path / "header.msgpack"
    changed.write_bytes(_with_trailing_crc(data))
    done = _run(str(changed), [["e1", "12345678"]])
    assert done.returncode == 3 and done.stdout == "", done.stdout
    assert "is damaged (header checksum mismatch)" in done.stderr, done.stderr
    # The same change with header_crc32 made right too: now the arrays' checksums, seeded
    # with the CRC-32 of the header they are read with, refuse it.
    header_crc = data.index(b"\xacheader_crc32\xce")
    data[header_crc + 14 : header_crc + 18] = zlib.crc32(bytes(data[:header_crc])).to_bytes(4, "big")
    changed.write_bytes(_with_trailing_crc(data))
    done = _run(str(changed), [["e1", "12345678"]])
    assert done.returncode == 3 and "is damaged (checksum mismatch in array" in done.stderr, done.stderr


def test_node_reader_reads_format_1_0_files(tmp_path):
    """A 1.1 reader reads 1.0 files: no header_crc32, the whole file verified before the header is used."""
    solo = shutthebox.load_solo("two-dice")
    old = rewritten(solo.path, lambda fields: fields.update(format=[1, 0]), header_crc=False)
    assert b"header_crc32" not in old and old[:2] == b"\x89\xa5"  # 9 keys
    path = tmp_path / "old.msgpack"
    path.write_bytes(old)
    questions = [["shut", "123456789"], ["score", "1245"], ["move", "12345", 7, "shut"], ["move", "12", 1, "shut"]]
    done = _run(str(path), questions)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    got = ["error" if "error" in answer else answer for answer in answers]
    assert got == [python_solo_answer(solo, question) for question in questions]
    assert got[-1] == "error" and got[-2] == {"move": [3, 4]}
    damaged = bytearray(old)
    damaged[old.index(b"\xa5tiles") + 6] ^= 0x01  # a header byte: only the whole-file CRC-32 can tell
    path.write_bytes(bytes(damaged))
    done = _run(str(path), questions)
    assert done.returncode == 3 and "is damaged (checksum mismatch)" in done.stderr, done.stderr


@pytest.mark.parametrize("array, offset", [("e1", 100), ("m2", 70000), ("m2", -3)])
def test_node_reader_verifies_the_array_checksums(table, tmp_path, array, offset):
    """A byte of an array changed, the trailing CRC-32 made right again: the array's block checksum tells."""
    import msgpack

    data = bytearray(open(table.path, "rb").read())
    key = data.index(msgpack.packb(array), data.index(b"\xa6arrays"))
    start = data.index(b"\xa4data", key) + 5
    start += {0xC4: 2, 0xC5: 3, 0xC6: 5}[data[start]]  # the bin header
    descriptor = msgpack.unpackb(bytes(data), raw=False)["arrays"][array]
    length = len(descriptor["data"])
    at = start + (offset if offset >= 0 else length + offset)
    data[at] ^= 0x40
    changed = tmp_path / "array.msgpack"
    changed.write_bytes(_with_trailing_crc(data))
    done = _run(str(changed), [["e1", "123456789"]])
    assert done.returncode == 3 and done.stdout == "", done.stdout
    block = (at - start) // descriptor["block_size"]
    assert "is damaged (checksum mismatch in array %s, block %d)" % (array, block) in done.stderr, done.stderr


# -- the shared corpus (FORMAT.md section 8) ---------------------------------------

GOLDEN_KINDS = {("--one", "--expect"): "e1", ("--one", "--move"): "m1",
                ("--two", "--expect"): "e2", ("--two", "--move"): "m2"}


def test_node_reader_answers_the_corpus_golden_lines():
    path = os.path.join(CORPUS, "good", "two-player-t4.msgpack")
    questions, expected = [], []
    for line in open(os.path.join(CORPUS, "good", "two-player-t4-golden.txt")):
        if not line.strip() or line.startswith("#"):
            continue
        question, answer = line.rstrip("\n").split("\t")
        words = question.split()
        questions.append([GOLDEN_KINDS[tuple(words[:2])], words[2]] + [int(word) for word in words[3:]])
        expected.append(answer)
    done = _run(path, questions)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(expected) >= 8
    for question, answer, want in zip(questions, answers, expected):
        got = ("%.6f" % answer["value"] if "value" in answer else
               "[%s]" % ", ".join(map(str, answer["move"])) if "move" in answer else "error: " + answer["error"])
        assert got.startswith("error: ") == want.startswith("error: "), (question, got, want)
        if not want.startswith("error: "):
            assert got == want, (question, got, want)


def test_node_reader_answers_the_corpus_solo_table_like_the_python_api():
    path = os.path.join(CORPUS, "good", "one-player-t4.msgpack")
    solo = shutthebox.load_solo(path=path)
    questions = random_solo_questions(solo.rules, 200, seed=8)
    _, kinds = node_against_python(solo, questions, python_solo_answer, "corpus ")
    assert min(kinds.values()) >= 10, kinds


CORPUS_BAD = {
    "empty.msgpack": "is empty",
    "not-a-table.msgpack": "not a ShutTheBox table",
    "truncated.msgpack": "truncated",
    "truncated-tail.msgpack": "truncated",
    "header-bit.msgpack": "header checksum mismatch",
    "array-bit.msgpack": "checksum mismatch",
    "future-version.msgpack": "format version 2.0",
    "block-size.msgpack": "block_size is not a power of two",
    "unknown-rules-key.msgpack": "the rule 'jokers'",
    "other-game.msgpack": "answers the game 'poker'",
}


def test_node_reader_refuses_every_damaged_table_of_the_corpus():
    folder = os.path.join(CORPUS, "bad")
    assert sorted(os.listdir(folder)) == sorted(CORPUS_BAD)  # a new damaged table needs its reason here
    for name, reason in CORPUS_BAD.items():
        done = _run(os.path.join(folder, name), [["e1", "1234"]])
        assert done.returncode == 3 and done.stdout == "", (name, done.stdout, done.stderr)
        assert reason in done.stderr and len(done.stderr.strip().splitlines()) == 1, (name, done.stderr)


# -- multi-player tables (FORMAT.md section 6.3) and every rules key ---------------------------


def random_players_questions(table, count, seed):
    """Random questions for any player of a game: scores posted before, position, roll; some invalid."""
    rules, players = table.rules, table.players
    rng = random.Random(seed)
    questions = []
    for _ in range(count):
        mask = rng.randrange(1, 1 << rules.tiles)
        position = format_position(mask, rules.tiles)
        rolls = sorted(rules.possible_rolls(mask, sum(tiles_of(mask))))
        roll = rng.choice(rolls) if rng.random() < 0.9 else rng.randint(0, rules.max_roll + 2)
        scores = [rng.randint(1, rules.max_score) for _ in range(rng.randrange(players))]
        if rng.random() < 0.04:
            scores = rng.choice([[0], [rules.max_score + 1], [1] * players])
        kind = rng.choice(["expect", "move", "move", "dice"])
        questions.append({"expect": [kind, position, scores], "move": [kind, position, roll, scores],
                          "dice": [kind, position, scores]}[kind])
    return questions


def python_players_answer(table, question):
    kind, args = question[0], question[1:]
    try:
        if kind == "expect":
            return {"value": table.expect(args[0], args[1])}
        if kind == "move":
            return {"move": list(table.move(args[0], args[1], args[2]))}
        return {"dice": table.dice(args[0], args[1])}
    except InvalidQuery:
        return "error"


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """Tables solved on first use go to a fresh cache (never the user's)."""
    folder = tmp_path_factory.mktemp("cache")
    old = os.environ.get("SHUTTHEBOX_CACHE")
    os.environ["SHUTTHEBOX_CACHE"] = str(folder)
    yield folder
    if old is None:
        del os.environ["SHUTTHEBOX_CACHE"]
    else:
        os.environ["SHUTTHEBOX_CACHE"] = old


@pytest.mark.parametrize("tiles, players, one_die", [(9, 3, "6"), (6, 4, "6"), (6, 3, "optional:6,high"),
                                                      (7, 2, "optional:5"), (5, 5, "high")])
def test_node_reader_answers_multi_player_like_the_python_api(cache, tiles, players, one_die):
    from shutthebox.games.shutthebox.rules import rules_from_options

    rules, players = rules_from_options({"--tiles": str(tiles), "--players": str(players), "--one-die": one_die})
    table = shutthebox.load(rules=rules, players=players)
    questions = random_players_questions(table, 400, seed=tiles * 10 + players)
    answers, kinds = node_against_python(table, questions, python_players_answer, "%s " % os.path.basename(table.path))
    assert min(kinds.values()) >= 20, kinds
    if rules.one_die_optional:  # the dice arrays c1/c2 (two players) or c are read: both choices occur
        assert {a["dice"] for a in answers if "dice" in a} == {1, 2}


def test_node_reader_answers_the_corpus_multi_player_table():
    table = shutthebox.load(os.path.join(CORPUS, "good", "multi-player-t4-p3.msgpack"))
    questions = random_players_questions(table, 200, seed=3)
    _, kinds = node_against_python(table, questions, python_players_answer, "corpus ")
    assert min(kinds.values()) >= 10, kinds


# -- the page's one registry of rule sets (shutthebox/rules.js) -----------------------------------


def test_rules_js_names_and_refuses_rule_sets_as_the_command_line_does():
    """rules.js: the game options as typed give the very rules key, table file name, words and
    refusals that the command line's rules_from_options, Rules.key(), table_name and describe give."""
    from shutthebox.errors import InvalidQuery as Refused
    from shutthebox.games.shutthebox.rules import rules_from_options
    from shutthebox.games.shutthebox.table import table_name

    rng = random.Random(42)
    cases = [{}, {"--tiles": "12"}, {"--one-die": "never"}, {"--dice": "1"}, {"--dice": "1", "--one-die": "6"},
             {"--one-die": "optional:6,high", "--max-move-tiles": "2"}, {"--tiles": "13"}, {"--players": "9"},
             {"--one-die": "optional:never"}, {"--max-move-tiles": "10"}, {"--tiles": "6x"}, {"--sides": "1"}]
    for _ in range(300):
        case = {}
        for option, values in (("--tiles", ["1", "4", "9", "10", "12", "0", "13", "x"]), ("--dice", ["1", "2", "3", "4", "5"]),
                               ("--sides", ["2", "6", "20", "21"]), ("--players", ["2", "3", "8", "1"]),
                               ("--max-move-tiles", ["1", "2", "3", "12"]),
                               ("--one-die", ["never", "6", "high", "6,high", "optional:6", "optional:high", "0", "optional:3,high",
                                              "high,high", "x"])):
            if rng.random() < 0.4:
                case[option] = rng.choice(values)
        cases.append(case)
    script = (
        "const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "import(process.argv[1] + '/shutthebox/rules.js').then((R) => { for (const c of cases) {"
        "  const o = { tiles: c['--tiles'], dice: c['--dice'], sides: c['--sides'], oneDie: c['--one-die'],"
        "              maxMoveTiles: c['--max-move-tiles'], players: c['--players'] };"
        "  try { const { rules, players } = R.rulesFromOptions(o);"
        "        console.log(JSON.stringify([R.ruleKey(rules), R.tableName(rules, players), R.describeRules(rules), R.fileRules(rules)])); }"
        "  catch (e) { console.log(JSON.stringify(['error', e.message])); } } });"
    )
    need_node()
    done = subprocess.run([NODE, "-e", script, STATIC], input=json.dumps(cases), capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    refused = 0
    for case, line in zip(cases, done.stdout.splitlines(), strict=True):
        got = json.loads(line)
        try:
            rules, players = rules_from_options(case)
        except Refused as error:
            assert got == ["error", str(error)], case
            refused += 1
            continue
        assert got == [rules.key(), table_name(rules, players), rules.describe(), rules.as_dict()], case
    assert 20 <= refused <= len(cases) - 100, refused


# -- the players' notation of sets (lib/notation.js against shutthebox.engine.notation) ---------------

NOTATION_JS = """
import fs from 'node:fs';
const [static_] = process.argv.slice(1);
const N = await import(static_ + '/lib/notation.js');
const T = await import(static_ + '/games/toggle-table.js');
const { texts, sizes, masks } = JSON.parse(fs.readFileSync(0, 'utf8'));
const ask = (f) => {
  try { return f(); } catch (e) { if (e.name !== 'InvalidQuestion') throw e; return ['error', e.message]; }
};
const cards = { noun: 'card', what: 'state', plural: 'face-up cards' };
console.log(JSON.stringify({
  tiles: sizes.map((n) => texts.map((t) => ask(() => N.parseSet(t, n)))),
  cards: sizes.map((n) => texts.map((t) => ask(() => N.parseSet(t, n, cards)))),
  states: [4, 12].map((n) => texts.map((t) => ask(() => T.parseState(t, n)))),
  formats: sizes.map((n, i) => masks[i].map((m) => N.formatSet(m, n))),
}));
"""
NOTATION_SIZES = list(range(1, 17))


def notation_texts(count=320, seed=640):
    """Sets as players might type them, right and wrong: runs of digits, commas, lone numbers above 9,
    spaces of every kind, signs, empty text, the words, repeats, numbers out of range, too long."""
    rng = random.Random(seed)
    texts = ["", " ", ",", ",,", " , ", "none", "all", "None", "ALL", " all", "all,", "none ", "0", "00", "000",
             "0001", "007", "7,", ",7", "12", "12,", ",12", " 12 ", "12 ", "1,2", "1 2", "10", "16", "16,", "17,",
             "99", "100,", "1000", "1234", "+1", "-1", "+12,", "1,-2", "1,+2", "\u22121", "1.5", "1;2", "1,,2",
             "1, 2", "1 ,2", "\t1\t", "1\t2", "1\n", "\u00a012", "1\u20002", "\ufeff12", "\x1c1", "1\x852",
             "\u0661\u0662", "\uff11\uff12", "\u00b2", "\U0001f600", "1\U0001f600", "a", "abc", "1x3",
             "12345678910", "123456789", "146", "1,1", "1 1", "11", "12,12", "1,4,10,12", "12,1,4",
             ",".join(map(str, range(1, 13))), ",".join(map(str, range(1, 17))), "1," * 100, "1," * 101,
             "1" * 200, "1" * 201, "9" * 45, "x" * 45, "9" * 65, "1," * 40, "1," + "x" * 13, "1,1234567890123",
             "\U0001f600" * 41, "\U0001f600" * 70, "1\x00", "\x7f", "1,\u200b", "none,", " none ", "NONE",
             "none none", "\tnone", "all all"]
    for _ in range(count):
        kind = rng.choice(["run", "commas", "spaces", "lone", "noise"])
        if kind == "run":
            text = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 6)))
        elif kind in ("commas", "spaces"):
            numbers = [str(rng.randint(0, 18)) for _ in range(rng.randint(1, 5))]
            text = (rng.choice([",", ", ", " ,", ",,"]) if kind == "commas" else rng.choice([" ", "  ", "\t "])).join(numbers)
            text += rng.choice(["", "", ",", " "])
        elif kind == "lone":
            text = str(rng.randint(1, 17)) + rng.choice([",", ",", "", " ", ", "])
        else:
            text = "".join(rng.choice("0123456789,, +-x\t") for _ in range(rng.randint(1, 8)))
        texts.append(rng.choice(["", "", "", " "]) + text + rng.choice(["", "", "", " "]))
    return list(dict.fromkeys(texts))


def _parsed(parse, text):
    try:
        return parse(text)
    except InvalidQuery as error:
        return ["error", str(error)]


def test_notation_js_reads_and_writes_sets_as_the_python_does():
    """lib/notation.js, the one port of the notation both pages use: on several hundred texts and
    every size from 1 to 16, parseSet accepts what parse_set accepts, as the same set, and refuses
    the rest in the same words; toggle's states (the words all and none) as its table reads them;
    and formatSet writes every set as format_set does (commas when the game has numbers above 9)."""
    from shutthebox.engine.notation import format_set, parse_set
    from shutthebox.games.toggle.rules import Rules as ToggleRules
    from shutthebox.games.toggle.table import load as load_toggle

    need_node()
    rng = random.Random(9)
    texts = notation_texts()
    masks = [sorted({0, (1 << n) - 1, 1 << (n - 1), 1} | {rng.randrange(1 << n) for _ in range(30)})
             for n in NOTATION_SIZES]
    done = subprocess.run([NODE, "--input-type=module", "-e", NOTATION_JS, "--", STATIC],
                          input=json.dumps({"texts": texts, "sizes": NOTATION_SIZES, "masks": masks}),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    accepted = refused = 0
    for i, n in enumerate(NOTATION_SIZES):
        for text, tiles, cards in zip(texts, got["tiles"][i], got["cards"][i], strict=True):
            assert tiles == _parsed(lambda t, n=n: parse_set(t, n), text), (n, text)
            assert cards == _parsed(lambda t, n=n: parse_set(t, n, noun="card", what="state", plural="face-up cards"),
                                    text), (n, text)
            refused += isinstance(tiles, list)
            accepted += isinstance(tiles, int)
    assert len(texts) >= 300 and accepted >= 1000 and refused >= 1000, (len(texts), accepted, refused)
    for cards, states in zip([4, 12], got["states"], strict=True):
        table = load_toggle(ToggleRules(cards=cards, sides=2 if cards == 4 else 6), build=False)
        for text, state in zip(texts, states, strict=True):
            assert state == _parsed(table.state, text), (cards, text)
    for n, mask_list, formats in zip(NOTATION_SIZES, masks, got["formats"], strict=True):
        for mask, text in zip(mask_list, formats, strict=True):
            assert text == format_set(mask, n), (n, mask, text)
            assert parse_set(text, n) == mask, (n, mask, text)
            assert n > 9 or "," not in text, (n, text)
    assert got["formats"][11][-1] == "1,2,3,4,5,6,7,8,9,10,11,12" and got["formats"][8][-1] == "123456789"
    assert got["formats"][11][masks[11].index(1 << 11)] == "12," and got["formats"][11][0] == "none"


@pytest.mark.parametrize("name", ["standard.msgpack", "t10-2d6-one6-p2.msgpack", "t12-2d6-one6-p2.msgpack"])
def test_the_shut_the_box_reader_reads_positions_as_the_python_api_does(name):
    """table.js reads a position's text through lib/notation.js: with 9, 10 and 12 tiles the same
    positions as the Python API (`12` refused as ambiguous with more than 9 tiles, `12,` tile 12, an
    empty position refused), the same values, and the same messages."""
    table = shutthebox.load(os.path.join(ROOT, "data", name))
    texts = notation_texts(count=160, seed=table.rules.tiles)
    done = _run(table.path, [["e1", text] for text in texts])
    assert done.returncode == 0, done.stderr
    # One answer a line: split at "\n" only (splitlines() would also split a message quoting U+0085 or U+2028).
    answers = [json.loads(line) for line in done.stdout.split("\n")[:-1]]
    values = 0
    for text, answer in zip(texts, answers, strict=True):
        try:
            want = {"value": table.expect_one(text)}
            values += 1
        except InvalidQuery as error:
            want = {"error": str(error)}
        assert answer == want, (name, text)
    assert values >= 30 and len(texts) - values >= 100, (len(texts), values)


# -- Pig (FORMAT.md section 10): the command line's own words, through `node web/answer.mjs pig ...` ------------

PIG_GOLDEN = [os.path.join(CORPUS, "pig-golden.txt"), os.path.join(CORPUS, "good", "pig-two-dice-g8-golden.txt")]


_pig, _command, _golden = partial(node, "pig"), partial(command, "pig"), partial(golden, "pig")


@pytest.mark.parametrize("path", PIG_GOLDEN, ids=os.path.basename)
def test_node_reader_answers_pig_s_golden_lines(path):
    """Every golden line, answers and refusals, word for word: in one batch, and the first few one by one."""
    options, pairs = _golden(path)
    assert len(pairs) >= 15
    done = _pig(*options, "--batch", stdin="".join(question + "\n" for question, _ in pairs))
    assert done.returncode == 1 and done.stderr == "", done.stderr  # the golden files hold refusals
    assert done.stdout.splitlines() == [answer for _, answer in pairs]
    for question, answer in pairs[:4] + [pair for pair in pairs if pair[1].startswith("error:")][:3]:
        single = _pig(*options, *question.split())
        if answer.startswith("error: "):
            assert (single.returncode, single.stdout, single.stderr) == (2, "", "answer.mjs: %s\n" % answer[7:]), question
        else:
            assert (single.returncode, single.stdout, single.stderr) == (0, answer + "\n", ""), question


def test_node_reader_reads_pig_s_notation_corpus_as_the_command_line_does():
    """tests/data/questions/pig.txt: each line as the command answers it (in process, the command's session),
    its "= QUESTION" twin's answer, or its refusal; one batch and each line alone."""
    from shutthebox import registry

    options, pairs = _golden(os.path.join(CORPUS, "questions", "pig.txt"))
    session = registry.grammar("pig").open_game({}, None)

    def said(question):
        try:
            return session.answer(question.split())
        except InvalidQuery as error:
            return "error: %s" % error

    done = _pig(*options, "--batch", stdin="".join(question + "\n" for question, _ in pairs))
    lines = done.stdout.splitlines()
    assert len(lines) == len(pairs) >= 20, done.stderr
    for (question, expected), line in zip(pairs, lines):
        assert line == said(question), question
        if expected.startswith("= "):
            assert line == said(expected[2:]) and not line.startswith("error:"), question
        elif expected.startswith("error: "):
            assert line.startswith(expected), (question, line)
        else:
            assert line == expected, question
        single = _pig(*options, *question.split())
        if line.startswith("error: "):
            assert (single.returncode, single.stderr) == (2, "answer.mjs: %s\n" % line[7:]), question
        else:
            assert (single.returncode, single.stdout) == (0, line + "\n"), question


def _pig_lines(rng, goal, count):
    """Batch lines of every question, mostly valid states, some out of range, malformed or mistyped."""
    lines = []
    for _ in range(count):
        i, j = rng.randrange(goal), rng.randrange(goal)
        k = rng.randrange(goal - i) if rng.random() < 0.95 else rng.randrange(goal + 3)
        if rng.random() < 0.05:
            i = rng.choice([-1, goal, 10**13, "x", "+1", "1.0", "\u0663", "\u00b2", "-0", "00"])
        words = [rng.choice(["--expect", "--move", "--options"]), str(i), str(j), str(k)]
        if rng.random() < 0.03:
            words = words[: rng.randrange(4)]
        elif rng.random() < 0.04:
            words.insert(rng.randrange(5), rng.choice(["--expct", "--hold", "-", "--goal", "--optoins", "-x", "--Move",
                                                        "-5", "-\u00b2", "--table", "--variant=3", "--expect", "x" * 300]))
        lines.append(" ".join(words))
    return lines + ["", "   ", "--expect", "--options 0 0 0", "\t--move 0 0 1 \r"]


PIG_RULES = [[], ["--variant", "piglet"], ["--variant", "big-pig", "--goal", "30"], ["--sides", "2", "--goal", "20"],
             ["--variant", "two-dice", "--goal", "40"], ["--sides", "11", "--goal", "37"]]


@pytest.mark.parametrize("options", PIG_RULES, ids=lambda options: " ".join(options) or "pig")
def test_node_reader_answers_pig_as_the_command_line_on_every_variant(options):
    """1,500 lines a rule set (tables not shipped are solved by the command into the tests' cache, then read by
    the Node reader from there): the same lines, byte for byte, and the same exit status."""
    goal = int(options[options.index("--goal") + 1]) if "--goal" in options else 10 if "piglet" in options else 100
    lines = _pig_lines(random.Random(goal), goal, 1500)
    stdin = "".join(line + "\n" for line in lines)
    want = _command(*options, "--batch", stdin=stdin)
    got = _pig(*options, "--batch", stdin=stdin)
    assert want.returncode == got.returncode == 1 and got.stderr == "", got.stderr
    assert got.stdout == want.stdout
    answered = [line for line in got.stdout.splitlines() if line and not line.startswith("error:")]
    assert len(answered) >= 1200 and any("; hold " in line or "; roll " in line for line in answered)


PIG_OPTION_CASES = [
    ["--goal", "300"], ["--variant", "piglet", "--sides", "3"], ["--variant", "piglet", "--goal", "60"],
    ["--sides", "2", "--goal", "150"], ["--goal"], ["--goal", "5", "--goal", "6"], ["--variant", "x"],
    ["--variant", "PIG"], ["--variant", "two-dice", "--sides", "6"], ["--variant", "two-dice", "--sides", "7"],
    ["--sides", "1"], ["--sides", "21"], ["--goal", "1e2"], ["--goal", "-5"], ["--goal=abc"], ["--table"],
    ["--table="], ["--batch", "--rules"], ["--goal", "0050", "--move", "1", "2"], ["--variant=big-pig", "--sides=6"],
]


@pytest.mark.parametrize("case", PIG_OPTION_CASES, ids=" ".join)
def test_node_reader_refuses_pig_s_options_as_the_command_line_does(case):
    """Game options the command refuses: exit status 2 and its message, word for word."""
    question = [] if "--move" in case or "--batch" in case else ["--expect"]
    want, got = _command(*case, *question), _pig(*case, *question)
    assert want.returncode == got.returncode == 2, (want.stderr, got.stderr)
    assert got.stderr.removeprefix("answer.mjs: ") == want.stderr.removeprefix("ShutTheBox: ") and got.stdout == ""


def test_node_reader_reads_pig_s_rules_and_table_names_as_the_command_line_does():
    """games/pig-table.js's rulesFromOptions against Rules.from_options on 300 option sets: the same rules, table
    file name and words (Rules.describe), or the same refusal."""
    from shutthebox.games.pig.rules import Rules

    rng = random.Random(10)
    cases = []
    for _ in range(300):
        case = {}
        for option, values in (("--variant", ["pig", "piglet", "two-dice", "big-pig", "x"]),
                               ("--goal", ["2", "10", "50", "51", "100", "101", "200", "201", "1", "x", "007"]),
                               ("--sides", ["2", "6", "20", "21", "1", "x"])):
            if rng.random() < 0.5:
                case[option] = rng.choice(values)
        cases.append(case)
    script = (
        "const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "globalThis.MessagePack = require(process.argv[1] + '/vendor/msgpack.min.js');"
        "import(process.argv[1] + '/games/pig-table.js').then((P) => { for (const c of cases) {"
        "  try { const r = P.rulesFromOptions(c);"
        "        console.log(JSON.stringify([r, P.tableName(r), P.describeRules(r), P.tableSpec(r).command])); }"
        "  catch (e) { console.log(JSON.stringify(['error', e.message])); } } });"
    )
    need_node()
    done = subprocess.run([NODE, "-e", script, STATIC], input=json.dumps(cases), capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    refused = 0
    for case, line in zip(cases, done.stdout.splitlines(), strict=True):
        got = json.loads(line)
        try:
            rules = Rules.from_options(case)
        except InvalidQuery as error:
            assert got == ["error", str(error)], case
            refused += 1
            continue
        command = "ShutTheBox pig %s--expect" % "".join(
            "%s %s " % (flag, value) for flag, value, default in (
                ("--variant", rules.variant, "pig"), ("--goal", rules.goal, {"piglet": 10}.get(rules.variant, 100)),
                ("--sides", rules.sides, 6 if rules.variant == "pig" else rules.sides)) if value != default)
        assert got == [rules.as_dict(), "pig-%s-g%d-s%d.msgpack" % (rules.variant, rules.goal, rules.sides),
                       rules.describe(), command], case
        assert Rules.from_options({"--" + key: str(value) for key, value in got[0].items()
                                   if not (key == "sides" and rules.variant != "pig")}) == rules
    assert 60 <= refused <= 240, refused


def _pig_forged(tmp_path, change_header, change_win=None):
    """The small good Two-Dice Pig table (goal 8) with its header changed by ``change_header(fields)`` and
    its ``win`` array by ``change_win(values)`` (a list of floats), every checksum made right again."""
    import struct

    import msgpack

    path = os.path.join(CORPUS, "good", "pig-two-dice-g8.msgpack")
    fields = msgpack.unpackb(open(path, "rb").read(), raw=False)
    if change_win is not None:
        data = fields["arrays"]["win"]["data"]
        values = list(struct.unpack("<%dd" % (len(data) // 8), data))
        change_win(values)
        fields["arrays"]["win"]["data"] = struct.pack("<%dd" % len(values), *values)
    forged = tmp_path / ("pig-forged-%d.msgpack" % len(os.listdir(tmp_path)))
    forged.write_bytes(resigned(fields, change_header))
    return str(forged)


def test_node_reader_refuses_pig_s_unproven_chances_as_the_command_line_does(tmp_path):
    """A chance the header lists in `unsure` is refused, never printed (its move is answered); a chance worked
    out one step ahead that lies within its error bound of a 6-decimal rounding midpoint is refused too, in the
    command line's words: on every state of a forged table, the Node reader's lines are the command's."""
    goal = 8
    row = lambda i, k: i * goal - i * (i - 1) // 2 + k  # noqa: E731 - FORMAT.md section 10
    unsure = [(row(0, 0)) * goal + 0, row(4, 2) * goal + 6]  # (0, 0, 0) and (4, 6, 2)

    def plant(values):  # the hold at (2, 3, 2) is worth 1 - win(3, 4, 0): put it on a rounding midpoint
        values[row(3, 0) * goal + 4] = 1 - 0.4000005

    path = _pig_forged(tmp_path, lambda fields: fields.__setitem__("unsure", ",".join(map(str, unsure))), plant)
    lines = ["--%s %d %d %d" % (kind, i, j, k) for i in range(goal) for j in range(goal) for k in range(goal - i)
             for kind in ("expect", "move", "options")]
    stdin = "".join(line + "\n" for line in lines)
    want, got = _command("--table", path, "--batch", stdin=stdin), _pig("--table", path, "--batch", stdin=stdin)
    assert got.stderr == "" and got.returncode == want.returncode == 1
    assert got.stdout == want.stdout
    said = dict(zip(lines, got.stdout.splitlines()))
    assert said["--expect 0 0 0"].startswith("error: this chance lies within the table's error bound")
    assert said["--move 0 0 0"] == "roll" and said["--options 4 6 2"].startswith("error: this chance")
    assert said["--options 2 3 2"].startswith("error: the chance to win after a hold = 0.400000500000000 lies within")
    single = _pig("--table", path, "--expect", "4", "6", "2")
    assert single.returncode == 2 and single.stderr.startswith("answer.mjs: this chance lies within")


def test_node_reader_refuses_pig_tables_it_cannot_vouch_for(tmp_path):
    """Damaged copies, another game's table, a table holding an impossible chance, and one not solved: exit
    status 3 and one line, as the command line's."""
    good = os.path.join(CORPUS, "good", "pig-two-dice-g8.msgpack")
    for name, (data, reason) in _damaged_copies(good, tmp_path).items():
        damaged = tmp_path / ("pig-%s.msgpack" % name.replace(" ", "-"))
        damaged.write_bytes(data)
        done = _pig("--table", str(damaged), "--expect")
        assert done.returncode == _command("--table", str(damaged), "--expect").returncode == 3, (name, done.stderr)
        assert reason in done.stderr and done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, name
    other = _pig("--table", os.path.join(ROOT, "data", "goat-g100.msgpack"), "--expect")
    assert other.returncode == 3 and "goat" in other.stderr
    wrong = _pig("--table", good, "--goal", "9", "--expect")
    assert wrong.returncode == _command("--table", good, "--goal", "9", "--expect").returncode == 3
    impossible = _pig_forged(tmp_path, lambda fields: None, lambda values: values.__setitem__(7, 1.5))
    done = _pig("--table", impossible, "--expect")
    assert done.returncode == 3 and "impossible value: win[7] is 1.5" in done.stderr, done.stderr
    missing = _pig("--goal", "57", "--sides", "13", "--expect", env={"SHUTTHEBOX_CACHE": str(tmp_path / "empty")})
    assert missing.returncode == 3 and missing.stdout == ""
    assert "pig-pig-g57-s13.msgpack" in missing.stderr and "ShutTheBox pig --goal 57 --sides 13 --expect" in missing.stderr


# -- the set-aside dice family (FORMAT.md section 13): `node web/answer.mjs GAME ...`, every game of the family ----

def _set_aside_games():
    """The registry's games whose tables' header rules hold ``points`` and ``best``: the family the Node reader
    finds by its shipped table (web/answer.mjs), whatever the game's name."""
    from shutthebox import registry

    found = []
    for game in registry.declarations():
        if game.hooks is not None and {"points", "best"} <= set(game.tables[0].rules().Rules().as_dict()):
            found.append(game.id)
    return found


SET_ASIDE = _set_aside_games()


def _set_aside_golden():
    import glob

    return [(game, path) for game in SET_ASIDE for path in [os.path.join(CORPUS, "%s-golden.txt" % game),
                                                              *sorted(glob.glob(os.path.join(CORPUS, "good", "%s-*-golden.txt" % game)))]]


def test_the_set_aside_family_has_games():
    assert SET_ASIDE and len(_set_aside_golden()) >= 2 * len(SET_ASIDE)


@pytest.mark.parametrize("game, path", _set_aside_golden(), ids=lambda value: os.path.basename(value))
def test_node_reader_answers_set_aside_golden_lines(game, path):
    """Every golden line, answers and refusals, word for word: in one batch as the command's batch prints them,
    and the first few and the refusals one by one, with the command's exit status and message."""
    options, pairs = golden(game, path)
    assert len(pairs) >= 10
    stdin = "".join(question + "\n" for question, _ in pairs)
    done, want = node(game, *options, "--batch", stdin=stdin), command(game, *options, "--batch", stdin=stdin)
    assert done.returncode == want.returncode == 1 and done.stderr == "", done.stderr  # the golden files hold refusals
    assert done.stdout == want.stdout and done.stdout.splitlines() == [answer for _, answer in pairs]
    for question, answer in pairs[:4] + [pair for pair in pairs if pair[1].startswith("error:")][:4]:
        single = node(game, *options, *question.split())
        if answer.startswith("error: "):
            assert (single.returncode, single.stdout, single.stderr) == (2, "", "answer.mjs: %s\n" % answer[7:]), question
        else:
            assert (single.returncode, single.stdout, single.stderr) == (0, answer + "\n", ""), question


@pytest.mark.parametrize("game", SET_ASIDE)
def test_node_reader_reads_set_aside_notation_corpus_as_the_command_line_does(game):
    """tests/data/questions/GAME.txt: each line as the command answers it (in process, the command's session), its
    "= QUESTION" twin's answer, or its refusal; one batch and each line alone."""
    from shutthebox import registry

    options, pairs = golden(game, os.path.join(CORPUS, "questions", "%s.txt" % game))
    session = registry.grammar(game).open_game({}, None)

    def said(question):
        try:
            return session.answer(question.split())
        except InvalidQuery as error:
            return "error: %s" % error

    done = node(game, *options, "--batch", stdin="".join(question + "\n" for question, _ in pairs))
    lines = done.stdout.splitlines()
    assert len(lines) == len(pairs) >= 20, done.stderr
    for (question, expected), line in zip(pairs, lines):
        assert line == said(question), question
        if expected.startswith("= "):
            assert line == said(expected[2:]) and not line.startswith("error:"), question
        elif expected.startswith("error: "):
            assert line.startswith(expected), (question, line)
        else:
            assert line == expected, question
        single = node(game, *options, *question.split())
        if line.startswith("error: "):
            assert (single.returncode, single.stderr) == (2, "answer.mjs: %s\n" % line[7:]), question
        else:
            assert (single.returncode, single.stdout) == (0, line + "\n"), question


def _set_aside_lines(rng, dice, sides, count):
    """Batch lines of every question: mostly rolls of 1 to ``dice`` dice in any order (digits, or commas where a
    face is above 9), some with too many dice, faces out of range, malformed or mistyped words."""
    lines = []
    for _ in range(count):
        roll = [rng.randint(1, sides) for _ in range(rng.randint(1, dice))]
        if rng.random() < 0.05:
            roll += [rng.randint(1, sides)] * (dice + 1 - len(roll))
        text = ("" if sides <= 9 and rng.random() < 0.8 else ",").join(map(str, roll)) + ("," if rng.random() < 0.05 else "")
        if rng.random() < 0.06:
            text = rng.choice(["0", str(sides + 1), "x", "+1", "1.0", "\u0663", "\u00b2", "-3", ",", "12", "112", "3,", "0,1"])
        words = [rng.choice(["--expect", "--move", "--options"]), *text.split()]
        if rng.random() < 0.03:
            words = words[:1]
        elif rng.random() < 0.04:
            words.insert(rng.randrange(len(words) + 1), rng.choice(["--expct", "--keep", "-", "--dice", "--optoins", "-x",
                                                                     "--Move", "-5", "--table", "--sides=3", "--expect", "x" * 300]))
        lines.append(" ".join(words))
    return lines + ["", "   ", "--expect", "\t--move 1 \r"]


SET_ASIDE_RULES = [[], ["--dice", "3", "--sides", "4"], ["--dice", "1"], ["--dice", "8", "--sides", "3"],
                   ["--dice", "4", "--sides", "12"], ["--sides=10", "--dice=3"]]


@pytest.mark.parametrize("game", SET_ASIDE)
@pytest.mark.parametrize("options", SET_ASIDE_RULES, ids=lambda options: " ".join(options) or "default")
def test_node_reader_answers_set_aside_games_as_the_command_line_on_other_dice(game, options):
    """600 lines a rule set (tables not shipped are solved by the command into the tests' cache, then read by the
    Node reader from there): the same lines, byte for byte, and the same exit status."""
    from shutthebox import registry

    flags, words = {}, iter(options)
    for word in words:
        name, equals, value = word.partition("=")
        flags[name] = value if equals else next(words)

    spec = registry.declaration(game).hooks
    dice, sides = int(flags.get("--dice", spec.dice)), int(flags.get("--sides", spec.sides))
    lines = _set_aside_lines(random.Random(dice * 100 + sides), dice, sides, 600)
    stdin = "".join(line + "\n" for line in lines)
    want = command(game, *options, "--batch", stdin=stdin)
    got = node(game, *options, "--batch", stdin=stdin)
    assert want.returncode == got.returncode == 1 and got.stderr == "", got.stderr
    assert got.stdout == want.stdout
    answered = [line for line in got.stdout.splitlines() if line and not line.startswith("error:")]
    assert len(answered) >= 400 and any("; set aside " in line for line in answered) == (dice > 1)


SET_ASIDE_OPTION_CASES = [
    ["--dice", "9"], ["--dice", "0"], ["--sides", "1"], ["--sides", "13"], ["--dice"], ["--dice", "4", "--dice", "5"],
    ["--dice", "x"], ["--dice=-1"], ["--sides", "1e1"], ["--dice", "0004"], ["--table"], ["--table="], ["--batch", "--rules"],
    ["--batch", "--move", "1"], ["--sides=6", "--sides", "6"],
]


@pytest.mark.parametrize("game", SET_ASIDE)
@pytest.mark.parametrize("case", SET_ASIDE_OPTION_CASES, ids=" ".join)
def test_node_reader_refuses_set_aside_options_as_the_command_line_does(game, case):
    """Game options the command refuses: exit status 2 and its message, word for word (--dice 0004 is 4: answered)."""
    question = [] if "--move" in case or "--batch" in case else ["--expect"]
    want, got = command(game, *question, *case), node(game, *question, *case)  # options after the question
    assert want.returncode == got.returncode, (want.stderr, got.stderr)
    assert got.stderr.removeprefix("answer.mjs: ") == want.stderr.removeprefix("ShutTheBox: ") and got.stdout == want.stdout
    assert want.returncode == (0 if case == ["--dice", "0004"] else 2)


@pytest.mark.parametrize("game", SET_ASIDE)
def test_node_reader_refuses_set_aside_tables_it_cannot_vouch_for(game, tmp_path):
    """Damaged copies, another game's table, a table of other rules, one whose exact values are not its floats, and
    one not solved: exit status 3 and one line, as the command line's."""
    import glob

    good = sorted(glob.glob(os.path.join(CORPUS, "good", "%s-*.msgpack" % game)))[0]
    for name, (data, reason) in _damaged_copies(good, tmp_path).items():
        damaged = tmp_path / ("%s-%s.msgpack" % (game, name.replace(" ", "-")))
        damaged.write_bytes(data)
        done = node(game, "--table", str(damaged), "--expect")
        assert done.returncode == command(game, "--table", str(damaged), "--expect").returncode == 3, (name, done.stderr)
        assert reason in done.stderr and done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, name
    other = node(game, "--table", os.path.join(ROOT, "data", "goat-g100.msgpack"), "--expect")
    assert other.returncode == 3 and "goat" in other.stderr
    wrong = node(game, "--table", good, "--dice", "2", "--expect")
    assert wrong.returncode == command(game, "--table", good, "--dice", "2", "--expect").returncode == 3
    forged = tmp_path / ("%s-forged.msgpack" % game)
    forged.write_bytes(rewritten(good, lambda fields: fields.__setitem__(
        "numerators", ",".join(str(2 * int(n)) for n in fields["numerators"].split(",")))))  # twice the floats
    done, want = node(game, "--table", str(forged), "--expect"), command(game, "--table", str(forged), "--expect")
    assert done.returncode == want.returncode == 3 and "exact values" in done.stderr and "exact values" in want.stderr
    missing = node(game, "--dice", "7", "--sides", "11", "--expect", env={"SHUTTHEBOX_CACHE": str(tmp_path / "empty")})
    assert missing.returncode == 3 and missing.stdout == ""
    assert "%s-d7-s11.msgpack" % game in missing.stderr and "ShutTheBox %s --dice 7 --sides 11 --expect" % game in missing.stderr


def test_node_reader_finds_set_aside_games_by_their_tables_not_their_names(tmp_path):
    """A name that is no game of the family is no question for it: the reader's usage (exit status 2)."""
    for name in ("fours", "pigs", "../data/threes"):
        done = node(name, "--expect")
        assert done.returncode == 2 and done.stderr.startswith("usage: node answer.mjs TABLE"), (name, done.stderr)


@pytest.mark.parametrize("game", SET_ASIDE)
def test_setaside_table_js_numbers_rolls_and_parses_dice_as_the_rules_do(game):
    """families/setaside-table.js's limits, row numbers (offset and rank) and reading of the dice against the
    family's Python (engine/families/setaside: LIMITS, Rules.row, parse_dice) on every roll of a few rule sets."""
    from itertools import combinations_with_replacement

    from shutthebox import registry
    from shutthebox.engine.families.setaside import LIMITS

    Rules = registry.declaration(game).tables[0].rules().Rules
    cases = []
    for dice, sides in [(5, 6), (3, 4), (4, 12), (8, 2), (1, 9), (2, 10)]:
        rules = Rules(dice=dice, sides=sides)
        rolls = [list(roll) for n in range(1, dice + 1) for roll in combinations_with_replacement(range(1, sides + 1), n)]
        texts = ["13356", "1,12,3", "12", "112", "\u0663\u0663", "\u0661\u0662", "\uff11", "0", "", ",", "1 2", "3" * 9, "12,",
                 "99999999999999999999", "1,99999999999999999999", "\t1", "1\u00852", "1,,2", " 1,2 "]
        cases.append([dice, sides, [rules.row(tuple(roll)) for roll in rolls], rolls, texts])
        parsed = []
        for text in texts:
            try:
                parsed.append(list(rules.parse_dice(text)))
            except InvalidQuery as error:
                parsed.append(str(error))
        cases[-1].append(parsed)
    script = (
        "const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "globalThis.MessagePack = require(process.argv[1] + '/vendor/msgpack.min.js');"
        "import(process.argv[1] + '/families/setaside-table.js').then((S) => {"
        "  const out = { limits: S.LIMITS, cases: [] };"
        "  for (const [dice, sides, , rolls, texts] of cases) {"
        "    out.cases.push([rolls.map((r) => S.row(sides, r)), texts.map((t) => {"
        "      try { return S.parseDice({ dice, sides }, t); } catch (e) { return e.message; } })]); }"
        "  console.log(JSON.stringify(out)); });"
    )
    need_node()
    done = subprocess.run([NODE, "-e", script, STATIC], input=json.dumps(cases), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["limits"] == {name: list(limits) for name, limits in LIMITS.items()}
    for (dice, sides, rows, _, texts, parsed), (js_rows, js_parsed) in zip(cases, got["cases"], strict=True):
        assert js_rows == rows == list(range(len(rows))), (dice, sides)
        assert js_parsed == parsed, (dice, sides, texts)


def test_a_large_local_table_is_read_by_blocks_as_the_command_reads_it(tmp_path):
    """Over ``SHUTTHEBOX_READ_WHOLE`` bytes (32 MiB; 0 here, so that the shipped yazy table is over it) a local
    table is read as a URL's is, a block at a time: a byte flipped in a block the question does not read leaves
    the answer the command gives, where reading the file whole refuses it for its checksum."""
    need_node()
    damaged = tmp_path / "yazy.msgpack"
    data = bytearray(open(os.path.join(ROOT, "data", "yazy.msgpack"), "rb").read())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    ask = ["yazy", "--table", str(damaged), "--expect"]
    command = subprocess.run([os.path.join(ROOT, "ShutTheBox"), *ask], capture_output=True, text=True, timeout=60)
    assert command.returncode == 0 and command.stdout == "165.757319\n", command.stderr

    def node(**env):
        return subprocess.run([NODE, ANSWER_JS, *ask], capture_output=True, text=True, timeout=60,
                              env={**os.environ, **env})

    by_blocks, whole = node(SHUTTHEBOX_READ_WHOLE="0"), node()
    assert (by_blocks.returncode, by_blocks.stdout) == (0, command.stdout), by_blocks.stderr
    assert whole.returncode == 3 and "checksum" in whole.stderr and not whole.stdout
