"""The Node reader (``node web/answer.mjs``) and the command side by side, for the tests that compare them: each
run from the checkout's root (golden files name tables from there), with the environment given added."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANSWER_JS = os.path.join(ROOT, "web", "answer.mjs")
NODE = shutil.which("node")


def need_node():
    """Skip without Node.js, except under CI, which must run these tests."""
    if NODE:
        return
    if os.environ.get("CI"):
        pytest.fail("node is not installed, but CI must run the Node.js reader test (see .ci/run)")
    pytest.skip("node is not installed: the Node.js reader test needs it (apt-get install nodejs)")


def _run(argv, stdin, env, timeout):
    return subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env={**os.environ, **(env or {})})


def node(game, *args, stdin=None, env=None, timeout=300):
    """``node web/answer.mjs GAME ARGS``."""
    need_node()
    return _run([NODE, ANSWER_JS, game, *args], stdin, env, timeout)


def command(game, *args, stdin=None, env=None, timeout=600):
    """``ShutTheBox GAME ARGS``."""
    return _run([sys.executable, os.path.join(ROOT, "ShutTheBox"), game, *args], stdin, env, timeout)


def golden(game, path):
    """(the options of the file's ``# ShutTheBox GAME ... QUESTION`` line, [(question, answer)])."""
    lines = open(path, encoding="utf-8").read().splitlines()
    first, prefix = lines[0], "# ShutTheBox %s" % game
    assert first.startswith(prefix), first
    options = first[len(prefix) : first.index("QUESTION")].split()
    pairs = [tuple(line.split("\t", 1)) for line in lines if "\t" in line and not line.startswith("#")]
    return options, pairs
