"""Never a wrong answer, never a traceback: swapped, damaged and rewritten tables, hostile input
and environments (the reliability issue). Each case is one of the probe's reproductions."""

import os
import shutil
import subprocess
import sys

import pytest

import shutthebox
from conftest import COMMAND, ROOT, run
from shutthebox import InvalidQuery, TableError
from shutthebox.engine.format import HEADER_CRC_ENTRY
from shutthebox.engine.reader import read_table
from shutthebox.games.shutthebox.rules import Rules
from shutthebox.games.shutthebox.table import table_name

DATA = os.path.join(ROOT, "data")
HUGE = "9" * 5000


def one_line_error(result, status):
    assert result.returncode == status, (result.returncode, result.stderr)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    return result.stderr


# -- 1. a valid table of another game in the place of the one asked for -----------------------

SMALL_GAMES = [(Rules(tiles=4), 2), (Rules(tiles=4), 3), (Rules(tiles=4), 4), (Rules(tiles=4, one_die_at_most=None), 2),
               (Rules(tiles=5), 2)]


def _question(rules, players):
    options = ["--tiles", str(rules.tiles), "--players", str(players)]
    if rules.one_die_at_most is None:
        options += ["--one-die", "never"]
    return options + ["--scores", "3", "--expect", "1234"]


@pytest.mark.slow
def test_every_cached_table_planted_under_every_other_name_is_refused(tmp_path):
    cache = tmp_path / "cache"
    env = {"SHUTTHEBOX_CACHE": str(cache)}
    for rules, players in SMALL_GAMES:  # solve each once
        assert run(*_question(rules, players), env=env).returncode == 0
    names = [table_name(rules, players) for rules, players in SMALL_GAMES]
    originals = {name: (cache / name).read_bytes() for name in names}
    for (rules, players), name in zip(SMALL_GAMES, names):
        for other in names:
            if other == name:
                continue
            (cache / name).write_bytes(originals[other])
            result = run(*_question(rules, players), env=env)
            # A planted table is refused (never used); the cache solves the right one again.
            assert result.returncode == 0, result.stderr
            assert (cache / name).read_bytes() == originals[name], (name, other)
    # Without a builder (the API with build=False), a planted table is an error naming both games.
    (cache / names[0]).write_bytes(originals[names[1]])
    os.environ["SHUTTHEBOX_CACHE"], previous = str(cache), os.environ.get("SHUTTHEBOX_CACHE")
    try:
        with pytest.raises(TableError, match="holds a 3-player table .* not a two-player table .* delete it"):
            shutthebox.load(rules=Rules(tiles=4), build=False)
    finally:
        os.environ["SHUTTHEBOX_CACHE"] = previous


SHIPPED_CODE = """
import sys
from shutthebox.engine import store
store.SEARCH_PATH = (sys.argv[1],)
from shutthebox.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.slow
def test_every_shipped_table_swapped_for_another_is_refused(tmp_path):
    shipped = {"standard.msgpack": ["--one", "--expect", "123456789"],
               "t10-2d6-one6-p2.msgpack": ["--tiles", "10", "--one", "--expect", "1,2,3"],
               "solo-standard.msgpack": ["--solo", "--expect", "123"],
               "solo-two-dice.msgpack": ["--solo", "--expect", "123", "--variant", "two-dice"]}
    small = os.path.join(ROOT, "tests", "data", "good")
    extra = [os.path.join(small, name) for name in sorted(os.listdir(small)) if name.endswith(".msgpack")]
    for name, question in shipped.items():
        for other in list(shipped) + extra:
            if other == name:
                continue
            folder = tmp_path / ("%s-%s" % (name, os.path.basename(other)))
            folder.mkdir()
            os.symlink(other if os.path.isabs(other) else os.path.join(DATA, other), folder / name)
            result = subprocess.run([sys.executable, "-c", SHIPPED_CODE, str(folder), *question], capture_output=True,
                                    text=True, cwd=ROOT, timeout=60)
            message = one_line_error(result, 3)
            assert "holds" in message and name in message, message


def test_table_option_with_game_options_must_match(tmp_path):
    result = run("--table", os.path.join(DATA, "standard.msgpack"), "--tiles", "10", "--one", "--expect", "1,2,10")
    assert "holds a two-player table (tiles 1-9" in one_line_error(result, 3)


# -- 2. header damage is caught before the header is used --------------------------------------

def test_every_header_bit_of_a_large_table_is_caught(tmp_path):
    path = str(tmp_path / "t12.msgpack")
    shutil.copyfile(os.path.join(DATA, "t12-2d6-one6-p2.msgpack"), path)
    with open(path, "rb") as handle:
        head = handle.read(4096)
    end = head.index(HEADER_CRC_ENTRY) + len(HEADER_CRC_ENTRY) + 4
    with open(path, "r+b") as handle:
        for offset in range(end):
            for bit in range(8):
                handle.seek(offset)
                handle.write(bytes([head[offset] ^ (1 << bit)]))
                handle.flush()
                with pytest.raises(TableError):
                    table = read_table(path)
                    shutthebox.load(path).move_one("1,6", 7)
                    table.close()
                handle.seek(offset)
                handle.write(head[offset : offset + 1])
    assert shutthebox.load(path).move_one("1,6", 7) == (1, 6)


# -- 3. a table rewritten under a running batch -----------------------------------------------

@pytest.mark.parametrize("how", ["copy", "truncate"])
def test_a_table_rewritten_in_place_under_a_batch_never_gives_a_wrong_answer(tmp_path, how):
    path = str(tmp_path / "t10.msgpack")
    shutil.copyfile(os.path.join(DATA, "t10-2d6-one6-p2.msgpack"), path)
    truth = shutthebox.load(os.path.join(DATA, "t10-2d6-one6-p2.msgpack"))
    questions = ["--two --expect 1,2,3,10 %d" % score for score in range(1, 56)]
    expected = ["%.6f" % truth.expect_two("1,2,3,10", score) for score in range(1, 56)]
    process = subprocess.Popen([sys.executable, COMMAND, "--table", path, "--batch"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    process.stdin.write(questions[0] + "\n")
    process.stdin.flush()
    assert process.stdout.readline().strip() == expected[0]
    with open(path, "r+b") as handle:  # in place, as cp or truncate do
        if how == "copy":
            with open(os.path.join(DATA, "standard.msgpack"), "rb") as other:
                handle.write(other.read())
        else:
            handle.truncate(4096)
    out, err = process.communicate("\n".join(questions[1:]) + "\n", timeout=60)
    answers = out.split()
    # Either answered from the verified snapshot (right), or refused: never a wrong answer, never a crash.
    assert answers == expected[1 : 1 + len(answers)]
    assert process.returncode in (0, 3), err
    if process.returncode == 3:
        assert err.count("\n") == 1 and "Traceback" not in err


# -- 4. runs of digits with more than 9 tiles --------------------------------------------------

def test_a_run_of_digits_with_more_than_nine_tiles_is_refused():
    message = one_line_error(run("--tiles", "12", "--one", "--expect", "12"), 2)
    assert "ambiguous" in message and "1,2" in message and "12," in message
    # "12," is tile 12 alone. Player one then shuts the box only on a double six (two dice: 12 > 6), and
    # otherwise posts 12 for player two to beat from all twelve tiles (a tie counts half for each player).
    truth = shutthebox.load(os.path.join(DATA, "t12-2d6-one6-p2.msgpack"))
    alone = 1 / 36 + 35 / 36 * (1 - truth.expect_two(tuple(range(1, 13)), 12))
    assert run("--tiles", "12", "--one", "--expect", "12,").stdout == "%.6f\n" % alone
    # "1,2" is tiles 1 and 2: another position, with another answer.
    assert run("--tiles", "12", "--one", "--expect", "1,2").stdout == "%.6f\n" % truth.expect_one((1, 2))
    assert truth.expect_one((1, 2)) != alone


# -- 5 to 11. tracebacks, hangs, statuses ------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["--tiles", HUGE, "--one", "--expect", "1"], ["--one", "--expect", HUGE], ["--two", "--expect", "123", HUGE],
    ["--one", "--move", "123", HUGE], ["--players", "3", "--scores", HUGE, "--expect", "123"],
    ["serve", "--port", HUGE], ["--solo", "--move", "123", HUGE],
])
def test_huge_numbers_are_one_line(argv):
    message = one_line_error(run(*argv), 2)
    assert len(message) < 300


def test_huge_numbers_in_a_batch_do_not_stop_it():
    result = run("--batch", stdin="--one --expect %s\n--one --expect 123456789\n" % HUGE)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("error:") and len(lines[0]) < 300 and lines[1] == "0.502810"
    assert result.returncode == 1


def test_api_refuses_huge_and_wrong_arguments():
    table = shutthebox.load()
    for call in (lambda: table.move_one("123", 10**5000), lambda: table.expect_two("123", 10**5000),
                 lambda: table.expect_one(iter(range(1, 10**9))), lambda: table.expect_one("9" * 10**6),
                 lambda: shutthebox.load(players=2.0), lambda: shutthebox.load(1.5), lambda: shutthebox.load(True),
                 lambda: shutthebox.load(rules="x")):
        with pytest.raises(InvalidQuery):
            call()
    with pytest.raises(TableError, match="not a two-player table \\(tiles 1-10"):
        shutthebox.load(os.path.join(DATA, "standard.msgpack"), rules=Rules(tiles=10))
    with pytest.raises(TableError, match="3-player"):
        shutthebox.load(os.path.join(DATA, "standard.msgpack"), players=3)


def _shell(command):
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]))


def test_closed_or_full_output_is_one_line():
    cmd = "'%s' '%s'" % (sys.executable, COMMAND)
    assert "No space left" in one_line_error(_shell(cmd + " --one --expect 123 > /dev/full"), 1)
    assert "closed" in one_line_error(_shell(cmd + " --one --expect 123 >&-"), 1)
    assert "closed" in one_line_error(_shell(cmd + " --batch <&-"), 2)
    assert _shell(cmd + " --one --expect 1x 2>&-").returncode == 2


def test_special_files_are_refused(tmp_path):
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    assert "not a regular file" in one_line_error(run("--table", fifo, "--one", "--expect", "1"), 3)
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    os.symlink("/dev/zero", cache / table_name(Rules(tiles=4), 2))
    result = run("--tiles", "4", "--one", "--expect", "1234", env={"SHUTTHEBOX_CACHE": str(cache)})
    assert result.returncode == 0, result.stderr  # the link is replaced by a solved table
    assert not os.path.islink(cache / table_name(Rules(tiles=4), 2))


def test_a_damaged_cached_table_is_solved_again_whatever_the_folder_spelling(tmp_path):
    cache = tmp_path / "cache"
    env = {"SHUTTHEBOX_CACHE": str(cache) + "/"}
    question = ["--tiles", "5", "--one", "--expect", "12345"]
    answer = run(*question, env=env).stdout
    path = cache / table_name(Rules(tiles=5), 2)
    data = bytearray(path.read_bytes())
    data[data.index(b"tiles") + 5] ^= 1  # found when the table is opened (a damaged block: when it is read)
    path.write_bytes(bytes(data))
    assert run(*question, env=env).stdout == answer
    assert path.read_bytes() != bytes(data)


@pytest.mark.slow
def test_build_tables_says_what_is_wrong_in_one_line(tmp_path):
    script = os.path.join(ROOT, "build_tables.py")
    a_file = tmp_path / "file"
    a_file.write_text("x")
    result = subprocess.run([sys.executable, script, "--game", "toggle", "--out", str(a_file)], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 2 and "Traceback" not in result.stderr and "not a folder" in result.stderr
    out = tmp_path / "out"
    (out / "solo-standard.msgpack").mkdir(parents=True)
    result = subprocess.run([sys.executable, script, "--game", "toggle", "--out", str(out), "--check"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0 and "Traceback" not in result.stderr


@pytest.mark.parametrize("argv", [["--batch", "--rules"], ["--rules", "--solo", "--objective", "bogus"],
                                  ["--rules", "--objective=shut,score"], ["--table=", "--one", "--expect", "1"],
                                  ["--table", "", "--one", "--expect", "1"]])
def test_nonsense_options_are_refused(argv):
    one_line_error(run(*argv), 2)


# -- 13. housekeeping --------------------------------------------------------------------------

def test_a_long_unterminated_batch_line_is_refused_quickly():
    result = run("--batch", stdin=b"1" * (20 << 20))
    assert result.returncode == 1 and result.stdout.startswith(b"error: the line is longer than")


def test_an_error_line_does_not_echo_a_huge_input():
    message = one_line_error(run("--one", "--expect", "x" * 100_000), 2)
    assert len(message) < 300


def test_a_cache_folder_others_can_write_is_refused(tmp_path):
    cache = tmp_path / "shared"
    cache.mkdir()
    os.chmod(cache, 0o777)
    message = one_line_error(run("--tiles", "4", "--one", "--expect", "1", env={"SHUTTHEBOX_CACHE": str(cache)}), 3)
    assert "other users" in message


def test_no_home_means_no_cache_in_the_root_folder():
    env = {"HOME": "", "XDG_CACHE_HOME": "", "SHUTTHEBOX_CACHE": ""}
    assert "HOME" in one_line_error(run("--tiles", "4", "--one", "--expect", "1", env=env), 3)


# -- fuzz: API arguments (command lines and batch lines: tests/test_properties.py) ----------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(st.one_of(st.text(max_size=30), st.lists(st.integers(-3, 20), max_size=12), st.integers(), st.none(),
                 st.floats(allow_nan=False)),
       st.one_of(st.integers(-10, 10**30), st.text(max_size=5), st.none(), st.floats(allow_nan=False)))
@settings(max_examples=300, deadline=None)
def test_fuzz_api_arguments_raise_only_invalid_query(position, number):
    table = shutthebox.load()
    for call in (lambda: table.expect_one(position), lambda: table.move_one(position, number),
                 lambda: table.expect_two(position, number), lambda: table.expect(position, [number])):
        try:
            call()
        except InvalidQuery:
            pass
