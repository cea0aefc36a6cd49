"""The test harness itself: what a missing tool skips, and when."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT

# A Node.js test that solves tables first (five rule sets, solved on first use into the tests' cache).
NODE_TEST = "tests/test_web_node.py::test_node_reader_answers_multi_player_like_the_python_api"


@pytest.mark.slow
def test_a_node_test_without_node_is_skipped_before_it_solves_anything():
    """Without node (a PATH holding only Python's folder), a test marked ``node`` is skipped before any of its
    fixtures is set up (conftest.py pytest_runtest_setup): it solves nothing first."""
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    env["PATH"] = os.path.dirname(sys.executable)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--setup-show", "-rs",
                           NODE_TEST], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert " skipped" in done.stdout and "passed" not in done.stdout and "node is not installed" in done.stdout, done.stdout[-2000:]
    assert "SETUP" not in done.stdout, done.stdout[-2000:]  # no fixture: no cache, no table solved
