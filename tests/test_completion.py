"""``ShutTheBox --completion bash|zsh``: the shell's completion script, generated from the grammar. bash runs
the script here and completes real command lines; zsh's is checked by zsh itself where it is installed."""

import shutil
import subprocess

import pytest

from conftest import run
from shutthebox import registry
from shutthebox.completion import words_of


def complete(script: str, *words: str) -> list:
    """What bash's completion offers for the command line ``ShutTheBox WORDS`` (the last word being typed)."""
    line = ["ShutTheBox", *words]
    program = "%s\nCOMP_WORDS=(%s); COMP_CWORD=%d; _ShutTheBox; printf '%%s\\n' \"${COMPREPLY[@]}\"" % (
        script, " ".join("'%s'" % word for word in line), len(line) - 1)
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return [word for word in done.stdout.splitlines() if word]


@pytest.fixture(scope="module")
def bash_script():
    done = run("--completion", "bash")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


def test_bash_completes_games_options_and_commands_from_the_grammar(bash_script):
    assert complete(bash_script, "ya") == ["yazy", "yahtzee"]
    assert "serve" in complete(bash_script, "")
    assert complete(bash_script, "yahtzee", "--jo") == ["--joker"]
    assert complete(bash_script, "yahtzee", "rev") == ["review"]
    assert complete(bash_script, "--tw") == ["--two"]  # Shut the Box, named by no word
    assert "--goal" in complete(bash_script, "goat", "--")
    for game in registry.GAMES:  # every game's help options, and nothing else
        words = ([] if game == registry.DEFAULT else [game]) + ["--"]
        assert set(complete(bash_script, *words)) == {w for w in words_of(game) if w.startswith("--")}


def test_bash_completes_file_names_after_table(bash_script, tmp_path):
    (tmp_path / "mine.msgpack").write_bytes(b"")
    assert complete(bash_script, "goat", "--table", str(tmp_path / "mi")) == [str(tmp_path / "mine.msgpack")]


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_zsh_script_parses(tmp_path):
    script = tmp_path / "_ShutTheBox"
    script.write_text(run("--completion", "zsh").stdout)
    done = subprocess.run(["zsh", "-n", str(script)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr


def test_zsh_script_names_every_game_and_option():
    script = run("--completion", "zsh").stdout
    assert script.startswith("#compdef ShutTheBox\n")
    for game in registry.GAMES:
        assert all(word in script for word in words_of(game)), game


@pytest.mark.parametrize("args", [[], ["fish"], ["bash", "zsh"]])
def test_a_shell_we_do_not_write_for_is_refused_in_one_line(args):
    done = run("--completion", *args)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert "bash or zsh" in done.stderr


def test_bash_completes_option_values_and_serve_s_own_options(bash_script):
    """After an option whose values are words, those words (from --help's `a|b|c` or the game's modules);
    after `serve`, the options serve reads."""
    from shutthebox.web.server import FLAGS, OPTIONS

    assert complete(bash_script, "yahtzee", "--joker", "") == ["official", "free", "none", "bonus-only"]
    assert complete(bash_script, "yahtzee", "--variant", "y") == ["yahtzee", "yatzy"]
    assert complete(bash_script, "pig", "--variant", "") == ["pig", "piglet", "two-dice", "big-pig"]
    assert complete(bash_script, "--solo", "--variant", "two") == ["two-dice", "two-tiles"]
    assert complete(bash_script, "--solo", "--objective", "") == ["shut", "score"]
    assert complete(bash_script, "--completion", "") == ["bash", "zsh"]
    assert set(complete(bash_script, "serve", "--")) == {*OPTIONS, *FLAGS, "--help"}
    assert "--allow-large" not in complete(bash_script, "serve", "--")


def test_option_values_are_what_the_command_accepts():
    """Every value offered is taken by the command (a question asked with it is not refused for it)."""
    from shutthebox.completion import values_of

    for game in registry.GAMES:
        for option, words in values_of(game).items():
            assert words and all(word and " " not in word for word in words), (game, option, words)
    assert values_of("yahtzee")["--joker"] == ["official", "free", "none", "bonus-only"]
    for variant in values_of("pig")["--variant"]:
        assert run("pig", "--variant", variant, "--rules").returncode == 0, variant
    for variant in values_of("shutthebox")["--variant"]:
        assert run("--solo", "--expect", "all", "--variant", variant).returncode == 0, variant
