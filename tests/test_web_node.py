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
import shutil
import subprocess
import zlib

import pytest

import shutthebox
from shutthebox.errors import InvalidQuery
from shutthebox.engine.notation import format_set as format_position, numbers_of as tiles_of

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANSWER_JS = os.path.join(ROOT, "web", "answer.mjs")
STATIC = os.path.join(ROOT, "shutthebox", "web", "static")  # the page: shutthebox/table.js, lib/, vendor/
CORPUS = os.path.join(ROOT, "tests", "data")
NODE = shutil.which("node")


def _need_node():
    if NODE:
        return
    if os.environ.get("CI"):
        pytest.fail("node is not installed, but CI must run the Node.js reader test (see .ci/run)")
    pytest.skip("node is not installed: the Node.js reader test needs it (apt-get install nodejs)")


@pytest.fixture(scope="module")
def table():
    return shutthebox.load()


def _run(table_path, questions, timeout=60):
    _need_node()
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


BLOCK_SIZE = 65536


def _rewritten(path, change, header_crc=True):
    """A copy of a format 1.1 table with its header changed by ``change(fields)``, every
    checksum made right again as FORMAT.md section 4 says: ``header_crc32`` of the bytes
    before it (none with ``header_crc=False``, as in format 1.0), each array's ``crc32``
    and ``block_crc32`` seeded with the CRC-32 H of the bytes before "arrays", and the
    trailing CRC-32."""
    import msgpack

    fields = msgpack.unpackb(open(path, "rb").read(), raw=False)
    assert list(fields)[-3:] == ["header_crc32", "arrays", "crc32"], list(fields)
    arrays = fields.pop("arrays")
    del fields["header_crc32"], fields["crc32"]
    change(fields)
    packer = msgpack.Packer(use_bin_type=True)
    body = packer.pack_map_header(len(fields) + 2 + header_crc)
    body += b"".join(packer.pack(k) + packer.pack(v) for k, v in fields.items())
    if header_crc:
        body += b"\xacheader_crc32\xce" + zlib.crc32(body).to_bytes(4, "big")
    seed = zlib.crc32(body)  # H
    for descriptor in arrays.values():
        data = descriptor["data"]
        descriptor["crc32"] = zlib.crc32(data, seed)
        descriptor["block_crc32"] = b"".join(zlib.crc32(data[start : start + BLOCK_SIZE], seed).to_bytes(4, "little")
                                             for start in range(0, len(data), BLOCK_SIZE))
    body += packer.pack("arrays") + packer.pack(arrays) + b"\xa5crc32\xce"
    return body + zlib.crc32(body).to_bytes(4, "big")


def _with_trailing_crc(data):
    """``data`` with its trailing CRC-32 made right: only the header or array checksums can tell."""
    return bytes(data[:-4]) + zlib.crc32(bytes(data[:-4])).to_bytes(4, "big")


def test_node_reader_refuses_unknown_rules_and_the_wrong_game(tmp_path):
    solo = shutthebox.load_solo("standard").path
    strange = tmp_path / "strange.msgpack"
    strange.write_bytes(_rewritten(solo, lambda fields: fields["rules"].update(jokers=2)))
    done = _run(str(strange), [["shut", "123456789"]])
    assert done.returncode == 3 and "the rule 'jokers'" in done.stderr, done.stderr
    same = tmp_path / "same.msgpack"  # the rewriting itself keeps a readable table: the very same bytes
    same.write_bytes(_rewritten(solo, lambda fields: None))
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
    _need_node()
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
    old = _rewritten(solo.path, lambda fields: fields.update(format=[1, 0]), header_crc=False)
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
    length = len(msgpack.unpackb(bytes(data), raw=False)["arrays"][array]["data"])
    at = start + (offset if offset >= 0 else length + offset)
    data[at] ^= 0x40
    changed = tmp_path / "array.msgpack"
    changed.write_bytes(_with_trailing_crc(data))
    done = _run(str(changed), [["e1", "123456789"]])
    assert done.returncode == 3 and done.stdout == "", done.stdout
    block = (at - start) // BLOCK_SIZE
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
    _need_node()
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

    _need_node()
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
