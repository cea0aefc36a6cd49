"""The --solo questions of the command, batch mode, errors, the light query path, Ctrl-C."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest

from conftest import COMMAND, ROOT, run


@pytest.mark.parametrize("args, answer", [
    (["--solo", "--expect", "123456789", "--variant", "two-dice"], "0.071432"),
    (["--solo", "--expect", "123456789"], "0.097614"),
    (["--solo", "--expect", "124", "--variant=two-dice"], "0.182099"),
    (["--solo", "--expect", "123456789", "--objective", "score"], "11.021121"),
    (["--solo", "--expect", "123456789", "--variant", "two-tiles", "--objective", "score"], "11.839351"),
    (["--solo", "--move", "12345", "7", "--variant", "two-dice"], "[3, 4]"),
    (["--variant", "two-dice", "--move", "12345", "7", "--solo"], "[3, 4]"),
    (["--solo", "--move", "123456789", "12"], "[3, 9]"),
    (["--solo", "--move", "12", "1"], "[1]"),
    (["--solo", "--move", "123456789", "12", "--variant", "two-tiles", "--objective", "score"], "[3, 9]"),
])
def test_solo_answers(args, answer):
    result = run(*args)
    assert (result.returncode, result.stdout, result.stderr) == (0, answer + "\n", "")


@pytest.mark.parametrize("args, message", [
    (["--solo", "--move", "12", "1", "--variant", "two-dice"], "roll 1 is impossible under the two-dice rules"),
    (["--solo", "--move", "1234", "10", "--variant", "two-tiles"], "no 2 or fewer open tiles of 1234 add up to 10"),
    (["--solo", "--expect", "12", "--variant", "three-dice"], "unknown variant 'three-dice'"),
    (["--solo", "--expect", "12", "--objective", "win"], "unknown objective 'win'"),
    (["--solo", "--expect", "12", "--objective"], "--objective needs a value"),
    (["--solo", "--expect"], "--solo --expect takes POSITION, but got no arguments"),
    (["--solo", "--move", "12"], "--solo --move takes POSITION ROLL"),
    (["--solo", "--expect", "12", "--variant", "two-dice", "--variant", "standard"], "--variant is given twice"),
    (["--solo", "--one", "--expect", "12"], "drop --one"),
    (["--one", "--expect", "12", "--variant", "two-dice"], "add --solo"),
    (["--solo", "12"], "say which question"),
    (["--solo", "--expect", "--move", "12", "3"], "ask one question only"),
    (["--solo", "--expect", "1a"], "'a' is not a tile"),
    (["--solo", "--move", "12", "x"], "the roll must be a whole number"),
    (["--solo", "--expect", "12", "--fast"], "unknown option '--fast'"),
])
def test_solo_errors_are_one_line_and_exit_2(args, message):
    result = run(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("ShutTheBox: ") and message in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1


def test_solo_table_problems_exit_3_and_name_the_file(tmp_path):
    result = run("--solo", "--expect", "12", "--table", str(tmp_path / "none.msgpack"))
    assert result.returncode == 3 and "none.msgpack does not exist" in result.stderr
    result = run("--solo", "--expect", "12", "--table", f"{ROOT}/data/standard.msgpack")
    assert result.returncode == 3 and "not a one-player table" in result.stderr


def test_batch_mixes_two_player_and_solo_lines():
    queries = ("--one --expect 123456789\n--solo --expect 124 --variant two-dice\n"
               "--solo --move 12 1 --variant two-dice\n--two --move 13456789 17 12\n"
               "--solo --move 12345 7 --variant two-dice --objective score\n")
    result = run("--batch", stdin=queries)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "0.502810" and lines[1] == "0.182099" and lines[3] == "[3, 9]" and lines[4] == "[3, 4]"
    assert lines[2].startswith("error: roll 1 is impossible under the two-dice rules")


def test_rules_describes_a_solo_table():
    result = run("--rules", "--solo", "--variant", "two-tiles")
    assert result.returncode == 0
    assert "solo-two-tiles.msgpack" in result.stdout and "one-player" in result.stdout
    assert "at most 2 tiles closed per roll" in result.stdout


def test_two_player_forms_are_unchanged():
    assert run("--one", "--expect", "123456789").stdout == "0.502810\n"
    assert run("--two", "--move", "13456789", "17", "12").stdout == "[3, 9]\n"


def test_help_lists_the_solo_forms():
    text = run("--help").stdout
    assert "--solo --expect POSITION" in text and "--solo --move POSITION ROLL" in text
    assert "two-dice" in text and "simulate" in text and "report" in text


def test_solo_query_path_stays_light():
    code = (
        "import sys; sys.argv = ['ShutTheBox'] + %r\n"
        "from shutthebox.cli import main\n"
        "import io, contextlib\n"
        "with contextlib.redirect_stdout(io.StringIO()): status = main()\n"
        "heavy = [m for m in ('shutthebox.solver', 'shutthebox.solo', 'shutthebox.writer', 'shutthebox.strategies',"
        " 'shutthebox.simulate', 'shutthebox.report', 'fractions', 'argparse', 'dataclasses')"
        " if m in sys.modules]\n"
        "print(status, heavy)\n"
    )
    for args in (["--solo", "--move", "12345", "7", "--variant", "two-dice"], ["--solo", "--expect", "12"]):
        result = subprocess.run([sys.executable, "-c", code % args], cwd=ROOT, capture_output=True, text=True)
        assert result.stdout.strip() == "0 []", result.stdout + result.stderr


@pytest.mark.slow
def test_ctrl_c_stops_a_simulation_without_a_traceback():
    # SIGINT as a terminal leaves it: a suite started in the background (`cmd &` in a script) has it ignored
    process = subprocess.Popen([sys.executable, COMMAND, "simulate", "--games", "100000000", "--strategy", "greedy"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(1.0)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130
    assert "Traceback" not in err and "interrupted" in err
