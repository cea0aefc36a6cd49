"""A failing server test says what the server said and what state it was in (tests/serving.py, conftest.py):
its command, whether it was running or had exited (with its status), its standard output and error. Checked
on a pytest run of two failing tests written here: one whose server is its own, one using the fixture's."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT

FAILING = '''
import urllib.request

from serving import running_server


def test_its_own_server():
    with running_server() as (url, proc):
        urllib.request.urlopen(url + "no-such-file.json").read()


def test_the_fixture_s_server(server):
    assert False, "boom"


def test_a_server_that_died():
    with running_server() as (url, proc):
        proc.kill()
        proc.wait()
        assert False, "it died"
'''


@pytest.mark.slow
def test_a_failing_server_test_reports_the_server_s_state_and_output(tmp_path):
    (tmp_path / "test_failing.py").write_text(FAILING)
    tests = os.path.join(ROOT, "tests")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "conftest", "-p", "no:cacheprovider",
                           str(tmp_path / "test_failing.py")], capture_output=True, text=True, timeout=300,
                          cwd=str(tmp_path), env=dict(os.environ, PYTHONPATH=tests))
    assert "3 failed" in done.stdout, done.stdout[-3000:]
    sections = done.stdout.split("ShutTheBox serve: state and output")[1:]
    assert len(sections) == 3, done.stdout[-3000:]
    own, fixture, died = sections
    assert "serve --port 0" in own and "state: was running; stopped at the end of its test" in own
    assert "GET /no-such-file.json HTTP/1.1\" 404" in own and "Shut the Box assistant at http://" in own
    assert "state: running (pid " in fixture and "stderr: (empty)" in fixture
    assert "state: exited with status -9 before the test stopped it" in died
