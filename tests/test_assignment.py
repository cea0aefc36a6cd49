"""The assignment's seven examples, verbatim, through the real command."""

import sys

import pytest

from conftest import ROOT, run

# (arguments, expected stdout) exactly as the assignment shows them (docs/SHUTTHEBOX.md)
EXAMPLES = [
    ("--one --expect 123456789", "0.502810"),
    ("--one --expect 146789", "0.256254"),
    ("--one --move 146789 9", "[9]"),
    ("--two --expect 123456789 8", "0.381212"),
    ("--two --expect 12345689 41", "1.000000"),
    ("--two --expect 13456789 43", "0.986111"),
    ("--two --move 13456789 17 12", "[3, 9]"),
]


@pytest.mark.parametrize("args, expected", EXAMPLES)
def test_example_through_the_command(args, expected):
    result = run(*args.split())
    assert (result.returncode, result.stdout, result.stderr) == (0, expected + "\n", "")


@pytest.mark.parametrize("args, expected", EXAMPLES[:1] + EXAMPLES[-1:])
def test_example_as_python_module(args, expected):
    result = run("-m", "shutthebox", *args.split(), command=(sys.executable,), env={"PYTHONPATH": ROOT})
    assert (result.returncode, result.stdout) == (0, expected + "\n")


def test_examples_in_one_batch():
    lines = "".join(args + "\n" for args, _ in EXAMPLES)
    result = run("--batch", stdin=lines)
    assert result.returncode == 0
    assert result.stdout == "".join(expected + "\n" for _, expected in EXAMPLES)
