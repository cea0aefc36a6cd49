"""Shared fixtures: the shipped table, the exact standard solution, the command."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The script, run by the interpreter running the tests (never its shebang's python3, which may
# lack msgpack when the virtual environment is not activated).
COMMAND = os.path.join(ROOT, "ShutTheBox")
STANDARD_TABLE = os.path.join(ROOT, "data", "standard.msgpack")

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


# The quick subset is `python -m pytest -m "not slow"` (docs/TESTS.md). Slow: every test of the browser
# and Node.js modules (test_web_*), every test using chromium, a module's server or yazy's target table
# (the fixtures below: a solve of about 15 s), and the tests marked @pytest.mark.slow in their modules
# (each over about a second here).
SLOW_FIXTURES = {"browser", "server", "yazy_target"}


def slow_when(values, slow, unpack: bool = False) -> list:
    """``values`` for ``pytest.mark.parametrize``, those in ``slow`` marked slow (each over about a second
    here: ``python -m pytest --durations=30``); ``unpack``: each value is a tuple of several arguments."""
    unknown = [value for value in slow if value not in values]
    assert not unknown, "no such parameter: %s" % ", ".join(map(str, unknown))
    return [pytest.param(*(value if unpack else (value,)), marks=pytest.mark.slow) if value in slow else value
            for value in values]


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name.startswith("test_web_") or SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    if item.get_closest_marker("node") is not None and not shutil.which("node"):
        # before the test's fixtures: a test that needs Node.js solves nothing first without it
        if os.environ.get("CI"):
            pytest.fail("node is not installed, but CI must run the Node.js tests (see .ci/run)")
        pytest.skip("node is not installed: this test needs Node.js (apt-get install nodejs)")
    serving = sys.modules.get("serving")
    if serving is not None:
        serving.MARK = time.monotonic()  # servers stopped before now are not this test's


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing test that used ``ShutTheBox serve`` (tests/serving.py) shows each server's state and output."""
    outcome = yield
    report = outcome.get_result()
    serving = sys.modules.get("serving")
    if report.failed and serving is not None:
        text = serving.servers_report(serving.MARK)
        if text:
            report.sections.append(("ShutTheBox serve: state and output", text))


@pytest.fixture(scope="session")
def table():
    import shutthebox

    return shutthebox.load(STANDARD_TABLE)


@pytest.fixture(scope="session")
def yazy_target():
    """yazy's target table (not shipped), solved once into the tests' cache (about 15 s), untimed, before
    a command with a timeout needs it: ``yazy report`` and ``--target`` questions then only read it."""
    from shutthebox.games.yazy.table import load_target

    return load_target()


@pytest.fixture(scope="session")
def browser():
    """Headless chromium for the browser tests (tests/serving.py), started once."""
    from serving import launched_browser

    with launched_browser() as launched:
        yield launched


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``ShutTheBox serve`` on a free port: its base URL. Tables it solves on first use go to a fresh
    cache, never the user's. A module may override it (other options)."""
    from serving import running_server

    with running_server(env={"SHUTTHEBOX_CACHE": str(tmp_path_factory.mktemp("cache"))}) as (url, proc):
        yield url


@pytest.fixture
def open_page(browser, server):
    """Opens ``games.html?QUERY`` of ``server`` in ``browser`` (tests/serving.py's page_opener); the modules of
    the Shut the Box page (index.html) define their own."""
    from serving import page_opener

    with page_opener(browser, server, "games.html") as opener:
        yield opener


@pytest.fixture(scope="session")
def solution():
    from shutthebox.games.shutthebox.rules import STANDARD
    from shutthebox.games.shutthebox.solver import solve_two_player

    return solve_two_player(STANDARD)


def run(*args, stdin: str | bytes | None = None, env: dict | None = None, command=(sys.executable, COMMAND)):
    """Run the real command; return the CompletedProcess (text mode)."""
    environment = dict(os.environ)
    environment.pop("SHUTTHEBOX_TABLE", None)
    environment.update(env or {})
    return subprocess.run(
        [*command, *args],
        input=stdin,
        capture_output=True,
        text=not isinstance(stdin, bytes),
        env=environment,
        timeout=60,
    )


@pytest.fixture
def fresh_cache(tmp_path_factory, monkeypatch):
    """The tests of shutthebox.rl (tests/test_rl*.py, each using it for every test: ``pytestmark``): tables
    solved on first use go to one cache of the test session, ``rl-cache``, never the user's, shared by those
    modules so that each table is solved once; the folder's path (for a command run with it)."""
    folder = tmp_path_factory.getbasetemp() / "rl-cache"
    folder.mkdir(mode=0o700, exist_ok=True)
    monkeypatch.setenv("SHUTTHEBOX_CACHE", str(folder))
    return str(folder)


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory):
    """Tables built on demand go to a private folder, never the user's cache."""
    folder = str(tmp_path_factory.mktemp("cache"))
    previous = os.environ.get("SHUTTHEBOX_CACHE")
    os.environ["SHUTTHEBOX_CACHE"] = folder
    yield folder
    if previous is None:
        os.environ.pop("SHUTTHEBOX_CACHE", None)
    else:
        os.environ["SHUTTHEBOX_CACHE"] = previous
