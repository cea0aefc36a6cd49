"""The command line: help, options, batch mode, and every kind of bad input."""

import io
import os
import shlex
import subprocess
import sys

import pytest

from conftest import COMMAND, STANDARD_TABLE, run
from shutthebox.engine.command import run_batch
from shutthebox.games.shutthebox.grammar import open_game

# (arguments, words the one-line message must contain)
BAD_QUERIES = [
    ("", "no question asked"),
    ("--three --expect 123", "unknown option '--three'"),
    ("-x --one --expect 123", "unknown option '-x'"),
    ("--one", "say which question"),
    ("--expect 123", "say which player"),
    ("--one --two --expect 123", "not both"),
    ("--one --expect --move 123", "not both"),
    ("--one --expect 123 --expect", "--expect is given twice"),
    ("--one --expect", "takes POSITION, but got no arguments"),
    ("--one --expect 123 4", "takes POSITION, but got 2"),
    ("--one --move 123", "takes POSITION ROLL"),
    ("--two --expect 123", "takes POSITION SCORE"),
    ("--two --move 13456789 17", "takes POSITION SCORE ROLL"),
    ("--two --move 13456789 17 12 1", "takes POSITION SCORE ROLL, but got 4"),
    ("--one --expect 12a4", "'a' is not a tile"),
    ("--one --expect 1.2", "'.' is not a tile"),
    ("--one --expect 1224", "tile 2 is listed twice"),
    ("--one --expect 0123", "no tile 0"),
    ("--one --expect 1,2,10", "no tile 10"),
    ("--two --expect 123 0", "score 0 means player one shut the box"),
    ("--two --expect 123 46", "from 1 to 45"),
    ("--two --expect 123 -3", "from 1 to 45"),
    ("--two --expect 123 x", "score must be a whole number, not 'x'"),
    ("--two --expect 123 4.5", "score must be a whole number, not '4.5'"),
    ("--two --expect 123 99999999999999999999", "far out of range"),
    ("--one --move 123 seven", "roll must be a whole number, not 'seven'"),
    ("--one --move 123 0", "roll 0 is impossible"),
    ("--one --move 123 8", "sum to 6, so one die is thrown (1 to 6)"),
    ("--one --move 1234 1", "sum to 10, so two dice are thrown (2 to 12)"),
    ("--two --move 1234 5 13", "two dice are thrown (2 to 12)"),
    ("--one --move 89 3", "no open tiles of 89 add up to 3: the turn ends there, scoring 17"),
    ("--two --move 89 5 3", "the turn ends there, scoring 17"),
    ("--batch --one --expect 123", "--batch takes no question"),
    ("--table", "--table needs the path"),
]


@pytest.mark.parametrize("args, message", BAD_QUERIES)
def test_bad_input_is_one_line_on_stderr_and_exit_2(args, message):
    result = run(*args.split())
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("ShutTheBox: ") and result.stderr.count("\n") == 1
    assert message in result.stderr


def test_empty_position_argument():
    result = run("--one", "--expect", "")
    assert result.returncode == 2 and "lists no tile" in result.stderr
    result = run("--one", "--expect", "none")
    assert result.returncode == 2 and "position is empty" in result.stderr


def test_help_shows_the_four_forms_with_examples():
    result = run("--help")
    assert result.returncode == 0 and result.stderr == ""
    for form in ["--one --expect POSITION", "--one --move POSITION ROLL", "--two --expect POSITION SCORE",
                 "--two --move POSITION SCORE ROLL", "--batch", "--table PATH"]:
        assert form in result.stdout
    for example in ["0.502810", "[9]", "0.381212", "[3, 9]"]:
        assert example in result.stdout
    assert run("-h").stdout == result.stdout


def test_flags_may_come_in_any_order():
    assert run("--move", "--two", "13456789", "17", "12").stdout == "[3, 9]\n"


def test_positions_may_be_unordered_or_comma_separated():
    assert run("--one", "--expect", "987641").stdout == "0.256254\n"
    assert run("--one", "--expect", "1,4,6,7,8,9").stdout == "0.256254\n"


def test_version_and_rules():
    from shutthebox.engine.format import FORMAT_MAJOR, FORMAT_MINOR

    assert "table format %d.%d" % (FORMAT_MAJOR, FORMAT_MINOR) in run("--version").stdout
    described = run("--rules").stdout
    assert "tiles 1-9, 2 dice with 6 sides, one die once the open tiles sum to 6 or less" in described
    assert os.path.realpath(STANDARD_TABLE) in described or STANDARD_TABLE in described


def test_table_option_and_environment_choose_the_file(tmp_path):
    copy = tmp_path / "copy.msgpack"
    copy.write_bytes(open(STANDARD_TABLE, "rb").read())
    assert run("--table", str(copy), "--one", "--expect", "146789").stdout == "0.256254\n"
    assert run("--one", "--expect", "146789", "--table=%s" % copy).stdout == "0.256254\n"
    assert run("--one", "--expect", "146789", env={"SHUTTHEBOX_TABLE": str(copy)}).stdout == "0.256254\n"
    missing = run("--table", str(tmp_path / "none"), "--one", "--expect", "1")
    assert missing.returncode == 3 and "does not exist" in missing.stderr


def test_command_works_from_another_directory(tmp_path):
    result = subprocess.run([sys.executable, COMMAND, "--one", "--expect", "146789"], cwd=tmp_path, capture_output=True,
                            text=True)
    assert result.stdout == "0.256254\n"


# -- batch mode ----------------------------------------------------------------


def test_batch_answers_in_order_and_reports_bad_lines():
    queries = "--one --expect 146789\n--one --move 123 8\n\n  --two   --move 13456789 17 12  \r\nhello\n--one --move 146789 9"
    result = run("--batch", stdin=queries)
    assert result.returncode == 1
    assert result.stdout.split("\n") == [
        "0.256254",
        "error: roll 8 is impossible: the open tiles 123 sum to 6, so one die is thrown (1 to 6)",
        "",
        "[3, 9]",
        "error: say which player: --one or --two",
        "[9]",
        "",
    ]
    assert result.stderr == ""


def test_batch_all_good_exits_0_and_empty_input_is_fine():
    assert run("--batch", stdin="--one --expect 1\n").returncode == 0
    empty = run("--batch", stdin="")
    assert (empty.returncode, empty.stdout) == (0, "")


def test_batch_rejects_command_line_options_inside_lines():
    result = run("--batch", stdin="--table x --one --expect 1\n--batch\n")
    lines = result.stdout.splitlines()
    assert result.returncode == 1 and len(lines) == 2
    assert all("option of the command line" in line for line in lines)


def test_batch_survives_invalid_utf8(table):
    result = run("--batch", stdin=b"--one --expect 12\xff3\n--one --expect 1\n")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith(b"error: position '12\xef\xbf\xbd3'")
    assert lines[1] == b"%.6f" % table.expect_one("1")


def test_batch_answers_each_line_before_reading_the_next():
    """A tool may talk to --batch one query at a time over a pipe."""
    process = subprocess.Popen([sys.executable, COMMAND, "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True)
    try:
        for query, expected in [("--one --expect 146789", "0.256254"), ("--one --move 146789 9", "[9]")]:
            process.stdin.write(query + "\n")
            process.stdin.flush()
            assert process.stdout.readline() == expected + "\n"
    finally:
        process.stdin.close()
        assert process.wait(timeout=30) == 0


def test_batch_in_process_matches_single_queries(table):
    queries = ["--one --expect 123456789", "--two --expect 12345689 41", "--two --move 13456789 17 12"]
    out = io.StringIO()
    status = run_batch(open_game({}, table.path), io.BufferedReader(io.BytesIO("\n".join(queries).encode())), out)
    assert status == 0
    assert out.getvalue().splitlines() == [run(*q.split()).stdout.strip() for q in queries]


def test_closed_pipe_is_not_an_error(table):
    queries = "--one --expect 1\n" * 200000
    shell = "%s %s --batch | head -n 1" % (shlex.quote(sys.executable), shlex.quote(COMMAND))
    result = subprocess.run(["bash", "-o", "pipefail", "-c", shell], input=queries, capture_output=True, text=True)
    assert result.stdout == "%.6f\n" % table.expect_one("1")
    assert (result.returncode, result.stderr) == (0, "")
