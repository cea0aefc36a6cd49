"""The C reader (readers/c/, docs/FORMAT.md section 7): built with its Makefile, warning-free and also as
C++, it answers the golden questions and every question sampled here exactly as the command does, and it
refuses every damaged table (the corpus of tests/data/bad, random bit flips and truncations) with exit
status 3 and no sanitizer report. Skipped without a C compiler and make (under CI, a failure: .ci/run
installs them)."""

from __future__ import annotations

import ctypes
import glob
import os
import random
import shutil
import struct
import subprocess

import pytest

from conftest import ROOT, run

C_DIR = os.path.join(ROOT, "readers", "c")
DATA = os.path.join(ROOT, "data")
CORPUS = os.path.join(ROOT, "tests", "data")
GOOD, BAD = os.path.join(CORPUS, "good"), os.path.join(CORPUS, "bad")
T4 = os.path.join(GOOD, "two-player-t4.msgpack")
PIG8 = os.path.join(GOOD, "pig-two-dice-g8.msgpack")
STANDARD = os.path.join(DATA, "standard.msgpack")
PIG100 = os.path.join(DATA, "pig-pig-g100-s6.msgpack")
SANITIZER_WORDS = ("runtime error", "AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer")


def _compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    return None


# Every test here needs the builds (the module's fixtures: about 7 s of compiling): slow (docs/TESTS.md).
pytestmark = pytest.mark.slow

CC = _compiler()
CXX = next((name for name in (os.environ.get("CXX"), "c++", "g++", "clang++") if name and shutil.which(name)), None)


@pytest.fixture(scope="module", autouse=True)
def _tools():
    missing = [tool for tool, found in (("a C compiler (cc, gcc or clang)", CC), ("make", shutil.which("make")))
               if not found]
    if missing:
        if os.environ.get("CI"):
            pytest.fail("%s not installed, but CI must run the C reader's tests (see .ci/run)" % " and ".join(missing))
        pytest.skip("%s not installed: the C reader's tests need them (apt-get install gcc libc6-dev make)"
                    % " and ".join(missing))


def _make(out: str, *targets: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "-C", C_DIR, "OUT=" + out, "CC=" + CC, *targets], capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> str:
    """The normal build (-O2, -Werror): its folder."""
    out = str(tmp_path_factory.mktemp("reader-c"))
    made = _make(out, "all")
    assert made.returncode == 0, made.stdout + made.stderr
    return out


@pytest.fixture(scope="module")
def sanitized(tmp_path_factory) -> tuple[str, dict]:
    """The AddressSanitizer and UBSan build: (its folder, the environment to run it in)."""
    out = str(tmp_path_factory.mktemp("reader-c-san"))
    made = _make(out, "sanitize")
    if made.returncode != 0:
        probe = os.path.join(out, "probe.c")
        with open(probe, "w") as handle:
            handle.write("int main(void) { return 0; }\n")
        can = subprocess.run([CC, "-fsanitize=address,undefined", probe, "-o", probe + ".out"], capture_output=True)
        if can.returncode != 0 and not os.environ.get("CI"):
            pytest.skip("%s cannot build with -fsanitize=address,undefined (no libasan/libubsan)" % CC)
        raise AssertionError(made.stdout + made.stderr)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=1",
               UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
    probe = subprocess.run([os.path.join(out, "stb_selftest-san"), "open", T4], capture_output=True, text=True, env=env)
    if "LeakSanitizer has encountered a fatal error" in probe.stderr:  # no ptrace here: leaks cannot be looked for
        env["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=1"
    return out, env


def _clean(stderr: str) -> None:
    found = [word for word in SANITIZER_WORDS if word in stderr]
    assert not found, stderr


def _answer(program: str, table: str, *question: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([program, table, *question], capture_output=True, text=True, env=env, timeout=60)


def _batch(program: str, table: str, questions: list[str], env=None) -> list[str]:
    done = subprocess.run([program, "--batch", table], input="".join(q + "\n" for q in questions),
                          capture_output=True, text=True, env=env, timeout=300)
    _clean(done.stderr)
    assert done.returncode in (0, 1), done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(questions), done.stderr
    return lines


def _command_batch(prefix: list[str], table: str, questions: list[str]) -> list[str]:
    done = run(*prefix, "--table", table, "--batch", stdin="".join(q + "\n" for q in questions))
    assert done.returncode in (0, 1), done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == len(questions), done.stderr
    return lines


def _same(questions: list[str], found: list[str], wanted: list[str]) -> None:
    """Answers byte-identical; a refused question refused by both (the texts of errors may differ)."""
    for question, mine, theirs in zip(questions, found, wanted):
        if theirs.startswith("error: "):
            assert mine.startswith("error: "), (question, mine, theirs)
        else:
            assert mine == theirs, (question, mine, theirs)


# -- the build -------------------------------------------------------------------------------------------


def test_builds_without_warnings(build):
    for name in ("stb_answer", "stb_selftest", "libshutthebox.a", "libshutthebox.so"):
        assert os.path.exists(os.path.join(build, name)), name


@pytest.mark.skipif(CXX is None, reason="no C++ compiler (c++, g++ or clang++) found")
def test_compiles_as_cxx(tmp_path):
    made = subprocess.run(["make", "-C", C_DIR, "OUT=" + str(tmp_path), "CXX=" + str(CXX), "cxx-check"],
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr


def test_ffi_through_ctypes(build):
    """The shared library from another language: an opaque handle, caller-owned buffers."""
    lib = ctypes.CDLL(os.path.join(build, "libshutthebox.so"))
    lib.stb_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_char_p, ctypes.c_size_t]
    lib.stb_answer.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p), ctypes.c_char_p,
                               ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
    lib.stb_close.argtypes = [ctypes.c_void_p]
    lib.stb_game.argtypes = [ctypes.c_void_p]
    lib.stb_game.restype = ctypes.c_char_p
    handle, err, out = ctypes.c_void_p(), ctypes.create_string_buffer(512), ctypes.create_string_buffer(256)
    assert lib.stb_open(STANDARD.encode(), ctypes.byref(handle), err, len(err)) == 0, err.value
    try:
        assert lib.stb_game(handle) == b"two-player"
        words = [b"--two", b"--move", b"13456789", b"17", b"12"]
        argv = (ctypes.c_char_p * len(words))(*words)
        assert lib.stb_answer(handle, len(words), argv, out, len(out), err, len(err)) == 0, err.value
        assert out.value == b"[3, 9]"
        words = [b"--two", b"--move", b"24", b"12", b"1"]
        argv = (ctypes.c_char_p * len(words))(*words)
        assert lib.stb_answer(handle, len(words), argv, out, len(out), err, len(err)) == 6  # STB_ERR_QUERY
        assert err.value.startswith(b"no open tiles of 24 add up to 1")
    finally:
        lib.stb_close(handle)
    assert lib.stb_open(os.path.join(BAD, "header-bit.msgpack").encode(), ctypes.byref(handle), err, len(err)) == 3


def test_selftest_api(sanitized):
    out, env = sanitized
    done = subprocess.run([os.path.join(out, "stb_selftest-san"), "api", T4, PIG8], capture_output=True, text=True,
                          env=env, timeout=120)
    _clean(done.stderr)
    assert done.returncode == 0 and done.stdout.startswith("ok: "), done.stdout + done.stderr


@pytest.mark.parametrize("table, seed", [(T4, 1), (PIG8, 2)], ids=["t4", "pig-g8"])
def test_selftest_fuzz(sanitized, table, seed):
    """In memory, under the sanitizers: every truncation and a bit flip in every byte refused; mutations with their
    header and trailing CRC-32s made right again (malformed msgpack the checksums pass) decoded without a fault."""
    out, env = sanitized
    done = subprocess.run([os.path.join(out, "stb_selftest-san"), "fuzz", table, "4000", str(seed)],
                          capture_output=True, text=True, env=env, timeout=600)
    _clean(done.stderr)
    assert done.returncode == 0 and "ok: " in done.stdout, done.stdout + done.stderr
    assert "STB_ERR_FORMAT" in done.stdout and "STB_ERR_CHECKSUM" in done.stdout


# -- the golden questions --------------------------------------------------------------------------------


def _golden(path: str) -> list[tuple[str, str]]:
    with open(path, encoding="utf-8") as handle:
        return [tuple(line.rstrip("\n").split("\t", 1)) for line in handle if line.strip() and not line.startswith("#")]


_GAME_WORDS = ("--tiles", "--players", "--solo", "--dice", "--sides", "--one-die", "--max-move-tiles", "--variant",
               "--objective")


def _box_golden() -> dict:
    """Golden lines of the shipped two-player tables, by table: the assignment's, and --tiles 10 and 12 alone."""
    tables: dict = {STANDARD: [], os.path.join(DATA, "t10-2d6-one6-p2.msgpack"): [],
                    os.path.join(DATA, "t12-2d6-one6-p2.msgpack"): []}
    for question, answer in _golden(os.path.join(CORPUS, "shutthebox-golden.txt")):
        words = question.split()
        if words[:2] in (["--tiles", "10"], ["--tiles", "12"]) and not any(w.startswith(_GAME_WORDS) for w in words[2:]):
            tables[os.path.join(DATA, "t%s-2d6-one6-p2.msgpack" % words[1])].append((" ".join(words[2:]), answer))
        elif not any(word.startswith(_GAME_WORDS) for word in words):
            tables[STANDARD].append((question, answer))
    return tables


GOLDEN = {**_box_golden(), T4: _golden(os.path.join(GOOD, "two-player-t4-golden.txt")),
          PIG100: _golden(os.path.join(CORPUS, "pig-golden.txt")),
          PIG8: _golden(os.path.join(GOOD, "pig-two-dice-g8-golden.txt"))}


@pytest.mark.parametrize("table", list(GOLDEN), ids=os.path.basename)
def test_golden_batch(sanitized, table):
    out, env = sanitized
    lines = GOLDEN[table]
    assert len(lines) >= 2
    found = _batch(os.path.join(out, "stb_answer-san"), table, [question for question, _ in lines], env)
    _same([question for question, _ in lines], found, [answer for _, answer in lines])


@pytest.mark.parametrize("table", [T4, PIG8, STANDARD], ids=os.path.basename)
def test_golden_one_question(build, table):
    """One question on the command line: the answer on standard output and exit status 0, or "error: ..." on
    standard error and exit status 2."""
    for question, answer in GOLDEN[table]:
        done = _answer(os.path.join(build, "stb_answer"), table, *question.split())
        if answer.startswith("error: "):
            assert (done.returncode, done.stdout) == (2, ""), (question, done)
            assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, (question, done.stderr)
        else:
            assert (done.returncode, done.stdout, done.stderr) == (0, answer + "\n", ""), question


# -- the same answers as the command ----------------------------------------------------------------------


def _position(mask: int, tiles: int) -> str:
    numbers = [tile for tile in range(1, tiles + 1) if mask >> (tile - 1) & 1]
    if tiles <= 9:
        return "".join(map(str, numbers))
    if len(numbers) == 1 and numbers[0] > 9:
        return "%d," % numbers[0]
    return ",".join(map(str, numbers))


def _box_questions(tiles: int, max_roll: int, sample: int | None = None, seed: int = 0) -> list[str]:
    """Every question of the four forms and the --scores forms (rolls and scores one past each end), or ``sample``
    of them drawn at random."""
    max_score = tiles * (tiles + 1) // 2
    rolls, scores = range(max_roll + 2), range(max_score + 2)
    forms = [
        lambda p, s, r: "--one --expect %s" % p,
        lambda p, s, r: "--one --move %s %d" % (p, r),
        lambda p, s, r: "--two --expect %s %d" % (p, s),
        lambda p, s, r: "--two --move %s %d %d" % (p, s, r),
        lambda p, s, r: "--scores %d --expect %s" % (s, p),
        lambda p, s, r: "--scores %d --move %s %d" % (s, p, r),
    ]
    if sample is None:
        questions = sorted({form(_position(mask, tiles), score, roll) for form in forms
                            for mask in range(1, 1 << tiles) for score in scores for roll in rolls})
    else:
        rng = random.Random(seed)
        questions = [rng.choice(forms)(_position(rng.randrange(1, 1 << tiles), tiles), rng.choice(scores),
                                       rng.choice(rolls)) for _ in range(sample)]
    return questions + ["--one --expect all", "--one --expect none", "--scores none --expect all",
                        "--scores 1,2 --expect all", "--two --move all 0 2", "--one --move all 1"]


def _pig_questions(goal: int, sample: int | None = None, seed: int = 0) -> list[str]:
    """Every question of states 0 to the goal (those at the goal refused), or ``sample`` of them drawn at random."""
    forms = ("--expect", "--move", "--options")
    if sample is None:
        questions = ["%s %d %d %d" % (form, i, j, k) for form in forms for i in range(goal + 1)
                     for j in range(goal + 1) for k in range(goal + 1)]
    else:
        rng = random.Random(seed)
        questions = ["%s %d %d %d" % (rng.choice(forms), rng.randrange(goal + 1), rng.randrange(goal + 1),
                                      rng.randrange(goal + 1)) for _ in range(sample)]
    return questions + ["--expect", "--options 0 0 0", "--move 0 0 -1"]


SHIPPED = [
    ("t4 every question", T4, [], lambda: _box_questions(4, 12)),
    ("standard sample", STANDARD, [], lambda: _box_questions(9, 12, 3000, seed=9)),
    ("t10 sample", os.path.join(DATA, "t10-2d6-one6-p2.msgpack"), [], lambda: _box_questions(10, 12, 1500, seed=10)),
    ("pig g8 every question", PIG8, ["pig"], lambda: _pig_questions(8)),
    ("pig g100 sample", PIG100, ["pig"], lambda: _pig_questions(100, 3000, seed=100)),
]


@pytest.mark.parametrize("name, table, prefix, questions", SHIPPED, ids=[entry[0] for entry in SHIPPED])
def test_matches_command(build, name, table, prefix, questions):
    asked = questions()
    _same(asked, _batch(os.path.join(build, "stb_answer"), table, asked), _command_batch(prefix, table, asked))


# Rule sets the shipped tables do not cover, solved first into a private cache: the optional one die (c1, c2),
# the high-tiles rule, a move limit, three dice and 11 tiles, rolls with a gap (4 two-sided dice or one), and
# the pig variants' outcomes (a coin, big pig's doubles, a 3-sided die).
SOLVED = [
    ("box t5 optional:3,high max2", ["--tiles", "5", "--one-die", "optional:3,high", "--max-move-tiles", "2"], 5, 12),
    ("box t11 3d4 never", ["--tiles", "11", "--dice", "3", "--sides", "4", "--one-die", "never"], 11, 12),
    ("box t6 4d2 optional:5", ["--tiles", "6", "--dice", "4", "--sides", "2", "--one-die", "optional:5"], 6, 8),
    ("pig big-pig g12", ["pig", "--variant", "big-pig", "--goal", "12"], 12, None),
    ("pig piglet g10", ["pig", "--variant", "piglet", "--goal", "10"], 10, None),
    ("pig d3 g10", ["pig", "--sides", "3", "--goal", "10"], 10, None),
]


@pytest.mark.parametrize("name, options, size, max_roll", SOLVED, ids=[entry[0] for entry in SOLVED])
def test_matches_command_other_rules(build, sanitized, tmp_path, name, options, size, max_roll):
    pig = options[0] == "pig"
    solve = run(*options, *(["--expect"] if pig else ["--one", "--expect", "all"]),
                env={"SHUTTHEBOX_CACHE": str(tmp_path)})
    assert solve.returncode == 0, solve.stderr
    (table,) = glob.glob(str(tmp_path / "*.msgpack"))
    asked = _pig_questions(size) if pig else _box_questions(size, max_roll, None if size <= 6 else 4000, seed=size)
    wanted = _command_batch(["pig"] if pig else [], table, asked)
    _same(asked, _batch(os.path.join(build, "stb_answer"), table, asked), wanted)
    out, env = sanitized
    some = asked[:: max(1, len(asked) // 400)]
    _same(some, _batch(os.path.join(out, "stb_answer-san"), table, some, env), wanted[:: max(1, len(asked) // 400)])


def _descriptors(change):
    """A ``rewritten`` change of every array descriptor (``change(descriptor)``), the header as it was."""
    def changed(fields):
        for descriptor in fields["arrays"].values():
            change(descriptor)
    return changed


def _forged() -> list:
    """(name, table bytes, the command's prefix, questions): tables re-signed with every checksum right."""
    from forge import forge, resigned

    msgpack = _msgpack()
    with open(T4, "rb") as handle:
        box = handle.read()
    with open(PIG8, "rb") as handle:
        pig = handle.read()

    def header(data, **fields):
        decoded = msgpack.unpackb(data, raw=False)
        return resigned(decoded, lambda header: header.update(fields))

    def blocks(data, size):
        decoded = msgpack.unpackb(data, raw=False)
        for descriptor in decoded["arrays"].values():
            descriptor["block_size"] = size
        return resigned(decoded)

    box_questions = ["--one --expect 1234", "--one --move 1234 5", "--two --expect 234 9", "--two --move 123 10 6"]
    pig_questions = ["--expect 0 0 0", "--move 0 0 0", "--options 0 0 0", "--options 0 0 4", "--expect 0 0 4",
                     "--move 0 0 4", "--options 2 6 4", "--expect 4 6 0"]
    return [
        # unsure chances (0, 0, 0) and (0, 0, 4): --expect and --options refused, --move answered
        ("pig unsure", header(pig, unsure="0,32"), ["pig"], pig_questions),
        ("pig unsure spaced", header(pig, unsure=" 32 , 0"), ["pig"], pig_questions),
        # an error bound so wide that no derived chance is printed
        ("pig wide bound", header(pig, error_bound="0.5"), ["pig"], pig_questions),
        ("pig bound 1e-3", header(pig, error_bound="1e-3"), ["pig"], pig_questions),
        ("box format 1.0", resigned(msgpack.unpackb(box, raw=False), lambda h: h.update(format=[1, 0]),
                                    header_crc=False), [], box_questions),
        ("box format 1.9", header(box, format=[1, 9]), [], box_questions),
        ("box blocks 4096", blocks(box, 4096), [], box_questions),
        ("box blocks 65536", blocks(box, 65536), [], box_questions),
        ("pig blocks 4096", blocks(pig, 4096), ["pig"], pig_questions),
        ("box a later field", header(box, later={"x": [1, 2.5, None, True]}), [], box_questions),
        # impossible values, checksums right: refused by both (exit status 3)
        ("box e1 1.5", forge(box, "e1", 15, 1.5), [], box_questions[:1]),
        ("box e2 nan", forge(box, "e2", 14 * 11 + 9, float("nan")), [], box_questions[2:3]),
        ("box m1 tile 5", forge(box, "m1", 15 * 13 + 5, 16), [], box_questions[1:2]),
        ("pig win -0.5", forge(pig, "win", 0, -0.5), ["pig"], pig_questions[:1]),
        ("pig move 2", forge(pig, "move", 4 * 8, 2), ["pig"], pig_questions[5:6]),
        ("box tiles 5", header(box, rules={"tiles": 5, "sides": 6, "dice": 2, "one_die_at_most": 6,
                                           "max_move_tiles": None}), [], box_questions[:1]),
        ("pig goal 9", header(pig, rules={"variant": "two-dice", "goal": 9, "sides": 6}), ["pig"], pig_questions[:1]),
        ("pig no bound", header(pig, error_bound=None), ["pig"], pig_questions[:1]),
        ("pig unsure not numbers", header(pig, unsure="0,x"), ["pig"], pig_questions[:1]),
    ]


def test_forged_tables(sanitized, tmp_path):
    """Tables the checksums vouch for (tests/forge.py): the command's answers, refusals and exit statuses."""
    out, env = sanitized
    for number, (name, data, prefix, questions) in enumerate(_forged()):
        path = tmp_path / ("forged-%d.msgpack" % number)
        path.write_bytes(data)
        for question in questions:
            mine = _answer(os.path.join(out, "stb_answer-san"), str(path), *question.split(), env=env)
            theirs = run(*prefix, "--table", str(path), *question.split())
            _clean(mine.stderr)
            assert (mine.returncode, mine.stdout) == (theirs.returncode, theirs.stdout), (name, question, mine.stderr,
                                                                                         theirs.stderr)


def test_stricter_than_the_command(sanitized, tmp_path):
    """Where the C reader refuses what the Python reader prints: a move that does not add up to the roll (the
    checksums vouch for the bytes, not the numbers: docs/FORMAT.md 7), a pig roll stored as hold at turn total 0,
    game fields that are not the rules' (exit status 3)."""
    from forge import forge, resigned

    msgpack = _msgpack()
    out, env = sanitized
    with open(T4, "rb") as handle:
        box = handle.read()
    with open(PIG8, "rb") as handle:
        pig = handle.read()
    cases = [(forge(box, "m1", 15 * 13 + 5, 1), ["--one", "--move", "1234", "5"]),  # closes [1] for a roll of 5
             (forge(box, "m2", (15 * 11 + 4) * 13 + 5, 8 + 4), ["--two", "--move", "1234", "4", "5"]),  # [3, 4]
             (forge(pig, "move", 0, 0), ["--move", "0", "0", "0"]),
             (resigned(msgpack.unpackb(box, raw=False), lambda h: h.update(max_score=11)), ["--one", "--expect", "1"])]
    for number, (data, question) in enumerate(cases):
        path = tmp_path / ("strict-%d.msgpack" % number)
        path.write_bytes(data)
        done = _answer(os.path.join(out, "stb_answer-san"), str(path), *question, env=env)
        _clean(done.stderr)
        assert (done.returncode, done.stdout) == (3, ""), (number, done.stderr)


# -- any table: the envelope ------------------------------------------------------------------------------


def _msgpack():
    return pytest.importorskip("msgpack")


DTYPE_FORMATS = {"<f8": "<d", "<f4": "<f", "<u4": "<I", "<i4": "<i", "<u2": "<H", "<i2": "<h", "|u1": "<B"}


@pytest.mark.parametrize("table", sorted(glob.glob(os.path.join(GOOD, "*.msgpack"))), ids=os.path.basename)
def test_every_array_of_any_game(build, table):
    """Tables of every game open (the envelope is the same); --info lists the arrays msgpack decodes, and every
    element read through the getters is the one Python reads."""
    msgpack = _msgpack()
    with open(table, "rb") as handle:
        decoded = msgpack.unpackb(handle.read(), raw=False)
    info = subprocess.run([os.path.join(build, "stb_answer"), "--info", table], capture_output=True, text=True)
    assert info.returncode == 0, info.stderr
    listed = [line.split(" ", 3)[1:] for line in info.stdout.splitlines() if line.startswith("array ")]
    assert [(name, dtype) for name, dtype, _ in listed] == [(name, spec["dtype"]) for name, spec in
                                                           decoded["arrays"].items()]
    assert "game %s" % ('"%s"' % decoded["game"]) in info.stdout
    for name, spec in decoded["arrays"].items():
        dumped = subprocess.run([os.path.join(build, "stb_selftest"), "dump", table, name], capture_output=True,
                                text=True)
        assert dumped.returncode == 0, dumped.stdout
        values = [value for (value,) in struct.iter_unpack(DTYPE_FORMATS[spec["dtype"]], spec["data"])]
        if spec["dtype"][1] == "f":
            assert [float(text) for text in dumped.stdout.split()] == values, name
        else:
            assert [int(text) for text in dumped.stdout.split()] == values, name


def test_every_shipped_table_opens(build):
    """Every table of data/ opens and verifies (yazy's 14 MB, goat's 12 MB included)."""
    msgpack = _msgpack()
    for table in sorted(glob.glob(os.path.join(DATA, "*.msgpack"))):
        info = subprocess.run([os.path.join(build, "stb_answer"), "--info", table], capture_output=True, text=True)
        assert info.returncode == 0, (table, info.stderr)
        with open(table, "rb") as handle:
            arrays = msgpack.unpackb(handle.read(), raw=False)["arrays"]
        shapes = [line.split(" ", 3)[3].split("]")[0] + "]" for line in info.stdout.splitlines()
                  if line.startswith("array ")]
        assert shapes == ["[%s]" % ", ".join(map(str, spec["shape"])) for spec in arrays.values()], table


# -- damaged tables ----------------------------------------------------------------------------------------

# What stb_open says of each file of tests/data/bad (other-game.msgpack is a sound table of a game this reader
# does not answer: it opens, and every question of it is refused, exit status 3).
BAD_STATUS = {
    "array-bit.msgpack": "STB_ERR_CHECKSUM",
    "block-size.msgpack": "STB_ERR_FORMAT",
    "empty.msgpack": "STB_ERR_FORMAT",
    "future-version.msgpack": "STB_ERR_VERSION",
    "header-bit.msgpack": "STB_ERR_CHECKSUM",
    "not-a-table.msgpack": "STB_ERR_FORMAT",
    "other-game.msgpack": "STB_OK",
    "truncated-tail.msgpack": "STB_ERR_FORMAT",
    "truncated.msgpack": "STB_ERR_FORMAT",
    "unknown-rules-key.msgpack": "STB_ERR_GAME",
}


def test_bad_corpus_is_the_one_known():
    assert sorted(os.listdir(BAD)) == sorted(BAD_STATUS)


def test_bad_corpus_status(sanitized):
    out, env = sanitized
    files = [os.path.join(BAD, name) for name in sorted(BAD_STATUS)]
    done = subprocess.run([os.path.join(out, "stb_selftest-san"), "open", *files], capture_output=True, text=True,
                          env=env, timeout=60)
    _clean(done.stderr)
    assert done.returncode == 0, done.stdout
    found = {os.path.basename(line.split("\t")[0]): line.split("\t")[1] for line in done.stdout.splitlines()}
    assert found == BAD_STATUS


@pytest.mark.parametrize("name", sorted(BAD_STATUS))
@pytest.mark.parametrize("question", [["--one", "--expect", "1"], ["--expect", "0", "0", "0"]], ids=["box", "pig"])
def test_bad_corpus_refused(sanitized, name, question):
    out, env = sanitized
    done = _answer(os.path.join(out, "stb_answer-san"), os.path.join(BAD, name), *question, env=env)
    _clean(done.stderr)
    assert (done.returncode, done.stdout) == (3, ""), done.stderr
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr


def _damaged(data: bytes, rng: random.Random, truncate: bool) -> bytes:
    if truncate:
        return data[: rng.randrange(len(data))]
    at = rng.randrange(len(data))
    return data[:at] + bytes([data[at] ^ 1 << rng.randrange(8)]) + data[at + 1:]


@pytest.mark.parametrize("table, flips, cuts", [(T4, 40, 20), (PIG8, 30, 15), (STANDARD, 8, 4)],
                         ids=lambda value: os.path.basename(value) if isinstance(value, str) else str(value))
def test_random_damage_refused(sanitized, tmp_path, table, flips, cuts):
    """Seeded bit flips and truncations of good tables: exit status 3 every time, no crash, no sanitizer report."""
    out, env = sanitized
    with open(table, "rb") as handle:
        data = handle.read()
    rng = random.Random(os.path.basename(table))
    question = ["--expect", "1", "2", "3"] if "pig" in table else ["--two", "--move", "all", "3", "7"]
    for number in range(flips + cuts):
        path = tmp_path / ("damaged-%d.msgpack" % number)
        path.write_bytes(_damaged(data, rng, truncate=number >= flips))
        done = _answer(os.path.join(out, "stb_answer-san"), str(path), *question, env=env)
        _clean(done.stderr)
        assert (done.returncode, done.stdout) == (3, ""), (number, done.stderr)
        assert done.stderr.startswith("error: table file "), done.stderr


def test_usage_and_missing_table(build):
    program = os.path.join(build, "stb_answer")
    assert subprocess.run([program], capture_output=True).returncode == 2
    assert subprocess.run([program, T4], capture_output=True).returncode == 2
    assert subprocess.run([program, "--batch"], capture_output=True).returncode == 2
    missing = subprocess.run([program, os.path.join(BAD, "no-such.msgpack"), "--one", "--expect", "1"],
                             capture_output=True, text=True)
    assert missing.returncode == 3 and missing.stderr.startswith("error: cannot read table file")
    folder = subprocess.run([program, GOOD, "--one", "--expect", "1"], capture_output=True, text=True)
    assert folder.returncode == 3 and folder.stderr.startswith("error: ")
    other = subprocess.run([program, os.path.join(GOOD, "goat-g5.msgpack"), "--one", "--expect", "1"],
                           capture_output=True, text=True)
    assert other.returncode == 3 and "not a 'goat' table" in other.stderr
    batch = subprocess.run([program, "--batch", T4], input="--one --expect 1234\n\nnonsense\n" + "1" * 70000 + "\n",
                           capture_output=True, text=True)
    assert batch.returncode == 1
    assert batch.stdout.splitlines() == ["0.533412", "", batch.stdout.splitlines()[2],
                                         "error: the line is longer than 65536 bytes"]
    assert batch.stdout.splitlines()[2].startswith("error: ")
