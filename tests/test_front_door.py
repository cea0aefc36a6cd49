"""The front door, as a newcomer meets it: the README's table of games prints its numbers, every game's docs
page has a Python example that runs, a missing package names the command that installs it from the
checkout and has its own exit status (4), ``serve --help`` into a closed pipe is quiet, two-player yazy's
``--rules`` describes its table, the docs' install commands work inside a virtual environment, and Ctrl-C
during a layered build says where its checkpoints are."""

import contextlib
import doctest
import io
import os
import re
import subprocess
import sys

import pytest

from conftest import COMMAND, ROOT
from shutthebox import registry
from test_newcomer import code_blocks

README = os.path.join(ROOT, "README.md")
GAME_PAGES = ["SHUTTHEBOX.md", "SOLO.md", "TOGGLE.md", "GOAT.md", "YAZY.md", "YAHTZEE.md", "PIG.md", "THREES.md"]


def command(*args, env=None):
    return subprocess.run([sys.executable, COMMAND, *args], capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env=env)


# -- the README's table of games --------------------------------------------------------------------------------


def games_table():
    """(question, answer, docs link) of each row of the README's table of games."""
    with open(README, encoding="utf-8") as handle:
        text = handle.read()
    section = text.split("\n## The games\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1].startswith("`ShutTheBox "):
            question = re.match(r"`ShutTheBox ([^`]*)`", cells[1]).group(1)
            link = re.search(r"\]\((docs/[A-Z]+\.md)\)", cells[3]).group(1)
            rows.append((question, cells[2], link))
    return rows


def test_the_readme_table_names_every_game_and_links_its_docs_page():
    rows = games_table()
    named = {question.split()[0] if question.split()[0] in registry.NAMED_FIRST else registry.DEFAULT
             for question, _, _ in rows}
    assert named == set(registry.GAMES), named
    for _, answer, link in rows:
        assert re.fullmatch(r"\d+\.\d{6}", answer), answer
        assert os.path.exists(os.path.join(ROOT, link)), link


def test_the_readme_table_of_games_prints_its_numbers():
    """Each row's question printed by the command. The full two-player yazy table (1.8 GB, about 90 minutes to
    solve) is asked only where the cache already holds it."""
    from shutthebox.engine.store import cache_dir

    asked = 0
    for question, answer, _ in games_table():
        if "--allow-large" in question and not os.path.exists(os.path.join(cache_dir(), "yazy-duel.msgpack")):
            assert answer == "0.493970"  # docs/YAZY.md's figure, from the build of 2026-11-26
            continue
        done = command(*question.split())
        assert done.returncode == 0 and done.stdout == answer + "\n", (question, done.stdout, done.stderr)
        asked += 1
    assert asked >= 8


# -- every game's docs page has a Python example that runs ----------------------------------------------------------


def python_examples(path):
    return [block for info, block in code_blocks(path) if info == "python" and ">>> " in block]


@pytest.mark.parametrize("page", ["README.md"] + ["docs/" + name for name in GAME_PAGES])
def test_every_game_page_has_a_python_example_that_runs_as_shown(page, monkeypatch, tmp_path):
    """Each ```python block with ``>>>`` lines runs under doctest as the page shows it (on shipped tables:
    a fresh cache stays empty)."""
    monkeypatch.setenv("SHUTTHEBOX_CACHE", str(tmp_path))
    blocks = python_examples(os.path.join(ROOT, page))
    assert blocks, "%s has no Python example (a ```python block of >>> lines)" % page
    for number, block in enumerate(blocks):
        test = doctest.DocTestParser().get_doctest(block, {}, "%s[%d]" % (page, number), page, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        out = io.StringIO()
        runner.run(test, out=out.write)
        assert runner.summarize(verbose=False).failed == 0, out.getvalue()
    assert os.listdir(tmp_path) == []


# -- a missing package ------------------------------------------------------------------------------------------


def guarded_import_error(name):
    from shutthebox.engine.command import guarded

    def fail():
        raise ImportError("No module named %r" % name, name=name)

    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        status = guarded(fail, "ShutTheBox")
    return status, said.getvalue()


@pytest.mark.parametrize("name, extra", [("numpy", "build"), ("msgpack", None), ("distributed", "cluster")])
def test_a_missing_package_names_the_command_that_installs_it_from_the_checkout(name, extra):
    from shutthebox.engine.command import MISSING_PACKAGE

    status, line = guarded_import_error(name)
    assert status == MISSING_PACKAGE == 4
    assert line.count("\n") == 1 and line.startswith("ShutTheBox: the %s package is missing" % name), line
    assert "%s -m pip install %s`" % (sys.executable, name) in line, line
    assert "shutthebox[" not in line, line  # the package is not on the public index
    assert ("'.[%s]'" % extra in line) if extra else ".[" not in line, line


def test_a_missing_numpy_for_a_command_exits_4_with_the_hint():
    hidden = ("import runpy, sys; sys.modules['numpy'] = None; sys.argv = ['ShutTheBox', 'goat', '--duel', "
              "'2,23', 'optimal']; runpy.run_module('shutthebox', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", hidden], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 4 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and "-m pip install numpy" in done.stderr, done.stderr


@pytest.mark.parametrize("args", [["--help"], ["toggle", "--help"], ["yahtzee", "--help"], ["serve", "--help"]])
def test_the_help_lists_exit_status_4(args):
    done = command(*args)
    assert done.returncode == 0, done.stderr
    statuses = " ".join(done.stdout.split("exit status:", 1)[1].split())
    assert "4 a package missing" in statuses or "4 the msgpack package missing" in statuses, statuses


def test_no_source_or_page_names_a_package_index_that_has_none():
    """``pip install shutthebox[...]`` cannot work: the package is not on the public index. (shutthebox/rl/'s
    docstrings are left out: that package is maintained apart.)"""
    found = []
    for folder in ("shutthebox", "docs", "examples"):
        for base, _, names in os.walk(os.path.join(ROOT, folder)):
            if os.path.join("shutthebox", "rl") in base:
                continue
            for name in names:
                if name.endswith((".py", ".md", ".js", ".mjs")):
                    path = os.path.join(base, name)
                    with open(path, encoding="utf-8") as handle:
                        if "shutthebox[" in handle.read():
                            found.append(os.path.relpath(path, ROOT))
    with open(README, encoding="utf-8") as handle:
        if "shutthebox[" in handle.read():
            found.append("README.md")
    assert not found, found


# -- install commands inside a virtual environment --------------------------------------------------------------


def test_every_install_command_of_the_docs_runs_inside_a_virtual_environment():
    """Debian's and Ubuntu's Python refuse ``pip install`` outside a virtual environment: every ``pip install``
    line of a command block is the environment's pip (``.venv/bin/pip``, ``.venv/bin/python -m pip``) or
    follows the block's ``python3 -m venv`` or activation."""
    pages = [README] + [os.path.join(ROOT, "docs", name) for name in sorted(os.listdir(os.path.join(ROOT, "docs")))
                        if name.endswith(".md")]
    bare = []
    for page in pages:
        for info, block in code_blocks(page):
            if info not in ("", "sh", "console", "bash"):
                continue
            inside = False
            for line in block.splitlines():
                if re.search(r"python3? -m venv|\. \.venv/bin/activate|source \.venv/bin/activate", line):
                    inside = True
                for part in re.split(r"&&|;", line.split("#")[0]):
                    if "pip install" in part and not (inside or re.search(r"\.venv/bin/(pip|python3? -m pip)", part)):
                        bare.append((os.path.relpath(page, ROOT), line.strip()))
    assert not bare, bare
    from shutthebox.engine.layers import INSTALL

    assert "virtual environment" in INSTALL and "python3 -m pip" not in INSTALL


# -- serve --help into a closed pipe ----------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["serve", "--help"], ["serve", "-h"], ["--help"]])
def test_help_into_a_closed_pipe_is_not_an_error(args):
    """``ShutTheBox serve --help | head -0``: the reader gone before the help is written: exit 0, nothing on
    standard error."""
    process = subprocess.Popen([sys.executable, COMMAND, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               cwd=ROOT)
    process.stdout.close()  # before the command writes: its first write meets a closed pipe
    stderr = process.stderr.read()
    assert process.wait(timeout=120) == 0 and stderr == b"", stderr


def test_serve_help_piped_to_head_prints_its_usage_line_only():
    done = subprocess.run(["bash", "-c", 'set -o pipefail; "$0" "$1" serve --help | head -1', sys.executable,
                           COMMAND], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.startswith("usage: ShutTheBox serve ") and done.stdout.count("\n") == 1


def test_serve_help_with_standard_output_closed_is_one_line():
    done = subprocess.run(["bash", "-c", '"$0" "$1" serve --help >&-', sys.executable, COMMAND],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr


# -- --rules of two-player yazy ---------------------------------------------------------------------------------


@pytest.fixture
def fresh_cache(tmp_path):
    return dict(os.environ, SHUTTHEBOX_CACHE=str(tmp_path))


@pytest.mark.parametrize("mode, game, file_name", [
    (["--players", "2"], "yazy-duel, 2 players (the mover's chance to win)", "yazy-duel-ones.yazy.msgpack"),
    (["--players=2"], "yazy-duel, 2 players (the mover's chance to win)", "yazy-duel-ones.yazy.msgpack"),
    (["--target", "10"], "yazy, target mode (the chance to reach X more points)", "yazy-target-ones.yazy.msgpack"),
    (["--players", "1"], "yazy", "yazy-ones.yazy.msgpack"),
])
def test_rules_of_two_player_yazy_print_its_table(mode, game, file_name, fresh_cache):
    """``--rules`` with ``--players 2`` (or ``--target X``) describes that mode's table, as every game's
    ``--rules`` does: where it is, its size, its game and rules, its format (solved on first use, as a
    question would)."""
    done = command("yazy", "--categories", "ones,yazy", *mode, "--rules", env=fresh_cache)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":", 1)[0] for line in lines] == ["table", "size", "game", "rules", "format"], lines
    path = lines[0].split(None, 1)[1]
    assert os.path.basename(path) == file_name and os.path.isfile(path)
    assert lines[1] == "size:      %d bytes" % os.path.getsize(path)
    assert lines[2] == "game:      " + game
    assert lines[3] == "rules:     2 turns of five 6-sided dice, 2 rerolls, categories ones, yazy; no bonuses"


@pytest.mark.parametrize("args, words", [
    (["--players", "3", "--rules"], "--players is 1 or 2, not '3'"),
    (["--players", "2", "--target", "10", "--rules"], "--target is a one-player question"),
    (["--players", "2", "--rules", "all"], "--rules takes no question on the command line, got all"),
    (["--target", "999", "--rules"], "the target X is the points still to come"),
])
def test_rules_of_yazy_refuse_what_names_no_table(args, words, fresh_cache):
    done = command("yazy", "--categories", "ones,yazy", *args, env=fresh_cache)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert words in done.stderr, done.stderr


# -- Ctrl-C during a layered build ------------------------------------------------------------------------------


STOP_AT = "FRONT_DOOR_STOP_AT"


def count_block(key, previous):
    """A layer of one block: the layer's number, as an array (the build stops at $FRONT_DOOR_STOP_AT)."""
    import numpy as np

    if os.environ.get(STOP_AT) == str(key):
        raise KeyboardInterrupt
    return np.array([key], dtype=np.int64)


def test_ctrl_c_during_a_layered_build_says_where_its_checkpoints_are_and_how_to_resume(tmp_path, monkeypatch,
                                                                                         capsys):
    pytest.importorskip("numpy")
    from shutthebox.engine.layers import Job, run_layers

    monkeypatch.setenv("SHUTTHEBOX_CACHE", str(tmp_path))
    job = Job("front-door-v1", tuple((layer,) for layer in range(5)), count_block)
    folder = tmp_path / "layers" / "front-door-v1"
    monkeypatch.setenv(STOP_AT, "3")
    with pytest.raises(KeyboardInterrupt):
        run_layers(job, workers=1, progress=False)
    line = capsys.readouterr().err
    assert line == ("ShutTheBox: the build of front-door-v1 was stopped: 3 of its 5 layers are kept in %s; run the "
                    "same command again to resume from them, or delete that folder to free its space\n" % folder)
    assert sorted(os.listdir(folder)) == ["layer-000.npy", "layer-001.npy", "layer-002.npy", "manifest.json"]
    monkeypatch.delenv(STOP_AT)  # a resumed build solves one block of each kept layer again, to check it
    result = run_layers(job, workers=1, progress=False)
    assert [int(layer[0][0]) for layer in result] == [0, 1, 2, 3, 4] and not folder.exists()
    assert capsys.readouterr().err == ""


def test_ctrl_c_before_the_first_layer_says_nothing_is_kept(tmp_path, monkeypatch, capsys):
    pytest.importorskip("numpy")
    from shutthebox.engine.layers import Job, run_layers

    monkeypatch.setenv("SHUTTHEBOX_CACHE", str(tmp_path))
    monkeypatch.setenv(STOP_AT, "0")
    with pytest.raises(KeyboardInterrupt):
        run_layers(Job("front-door-v1", ((0,), (1,)), count_block), workers=1, progress=False)
    assert capsys.readouterr().err == ("ShutTheBox: the build of front-door-v1 was stopped before its first layer "
                                       "was finished: nothing is kept\n")
