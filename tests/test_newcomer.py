"""A newcomer's first hour: every registered game is named in the top-level help and in the corpus script,
a mistyped game, word or option is answered in one line with the nearest, Shut the Box's positions take
``all`` and ``none``, Ctrl-C while the command starts is quiet, and the README's examples print what it
shows."""

import importlib.util
import os
import re
import subprocess
import sys

import pytest

from conftest import COMMAND, ROOT
from shutthebox import registry
from shutthebox.errors import InvalidQuery

MAKE_CORPUS = os.path.join(ROOT, "tests", "data", "make_corpus.py")


def command(*args, stdin=None, env=None):
    return subprocess.run([sys.executable, COMMAND, *args], input=stdin, capture_output=True, text=True,
                          timeout=120, cwd=ROOT, env=env)


def python(code, env=None):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env=env)


def make_corpus():
    spec = importlib.util.spec_from_file_location("make_corpus", MAKE_CORPUS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def refused(done, words):
    """One line on standard error, exit status 2, nothing on standard output, the line holding ``words``."""
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("ShutTheBox: ") and "Traceback" not in done.stderr, done.stderr
    assert words in done.stderr, done.stderr
    return done.stderr


# -- every registered game named ------------------------------------------------------------------------------


def test_every_registered_game_is_in_the_top_level_help_and_in_make_corpus():
    """Walks registry.GAMES: Shut the Box's help is the top level's (the game a command line names none of);
    every other game is in its usage line and in its list of the other games; make_corpus.py gives every game
    its small tables or says why it has none."""
    shown = command("--help")
    assert shown.returncode == 0 and shown.stdout.startswith("usage: ShutTheBox --one --expect POSITION")
    usage = next(line for line in shown.stdout.splitlines() if line.endswith("(the other games)"))
    listed = shown.stdout.split("\nother games, named first")[1].split("\n\n")[0].split(":", 1)[1]
    corpus = make_corpus()
    for name in registry.GAMES:
        assert name in corpus.SMALL or name in corpus.WITHOUT, "%s is not in tests/data/make_corpus.py" % name
        if name == registry.DEFAULT:
            continue
        assert name in usage.split()[1].split("|"), (name, usage)
        assert name in [word.strip() for word in listed.split(",")], (name, listed)
    assert set(corpus.SMALL) | set(corpus.WITHOUT) == set(registry.GAMES) and not corpus.unlisted()


def test_a_game_registered_later_is_in_the_help_and_refused_by_make_corpus_until_listed():
    code = """
import sys
sys.path.insert(0, %r)
from shutthebox import registry
registry.GAMES["dicegame"] = "shutthebox.games.dicegame"
registry.NAMED_FIRST += ("dicegame",)
from shutthebox.games.shutthebox import grammar
usage = [line for line in grammar.HELP.splitlines() if line.endswith("(the other games)")][0]
assert "|dicegame --help" in usage, usage
assert "dicegame" in grammar.HELP.split("other games, named first")[1], grammar.HELP
import importlib.util
spec = importlib.util.spec_from_file_location("make_corpus", %r)
corpus = importlib.util.module_from_spec(spec)
spec.loader.exec_module(corpus)
sys.exit(corpus.main(["--check"]))
""" % (ROOT, MAKE_CORPUS)
    done = python(code)
    assert done.returncode == 1 and "dicegame" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_every_small_table_of_make_corpus_is_named_as_its_game_names_it():
    corpus = make_corpus()
    for game, tables in corpus.SMALL.items():
        for file_name, table_name in tables.items():
            family, rules = registry.declaration(game).family(table_name)
            assert family is not None and family.name(rules) == table_name, (game, table_name)
            assert os.path.exists(os.path.join(ROOT, "tests", "data", "good", file_name)), file_name


# -- a mistyped game or word -----------------------------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (["yahtze"], "'yahtze' is not a game or a command: did you mean yahtzee?"),
    (["Yahtzee"], "did you mean yahtzee?"),
    (["togle", "--expect", "all"], "did you mean toggle?"),
    (["yahtze", "--one", "--expect", "123456789"], "did you mean yahtzee?"),
    (["serv"], "did you mean serve?"),
    (["simulat", "--variant", "all"], "did you mean simulate?"),
    (["qqqqq"], "'qqqqq' is not a game or a command (the games: "),
    (["foo", "--batch"], "'foo' is not a game or a command"),
])
def test_a_mistyped_game_is_answered_with_the_games_and_the_nearest(args, words):
    line = refused(command(*args, stdin=""), words)
    assert "say which player" not in line
    for name in registry.NAMED_FIRST:
        assert name in line, (name, line)


@pytest.mark.parametrize("word", ["help", "HELP", "usage"])
def test_help_as_a_word_points_to_the_help_option(word):
    line = refused(command(word), "for help, ask ShutTheBox --help")
    assert "say which player" not in line and "yahtzee" in line


def test_the_default_game_may_be_named_first_as_the_api_names_it():
    """``ShutTheBox shutthebox ...`` is ``ShutTheBox ...``: every game has one name, on the command line and in
    ``shutthebox.open(NAME)``; a near miss is still pointed to asking without a name."""
    done = command("shutthebox", "--one", "--expect", "123456789")
    assert done.returncode == 0 and done.stdout == "0.502810\n" and done.stderr == "", done.stderr
    refused(command("shutbox", "--one", "--expect", "123456789"), "Shut the Box is the game of a command line "
                                                                  "that names none")


@pytest.mark.parametrize("args, out", [
    (["123456789", "--one", "--expect"], "0.502810\n"),  # a position first: Shut the Box reads it
    (["all", "--one", "--expect"], "0.502810\n"),
    (["yahtze", "--help"], None),  # Shut the Box answers --help: its help, not a refusal
])
def test_a_first_word_shut_the_box_reads_keeps_its_answer(args, out):
    done = command(*args)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout == out if out is not None else done.stdout.startswith("usage: ShutTheBox")


@pytest.mark.parametrize("args, words", [
    (["none", "--one", "--expect"], "already shut"),
    (["1a", "--one", "--expect"], "position '1a'"),
    (["simulate", "--bogus"], "--bogus"),  # a command's own refusal
])
def test_a_first_word_shut_the_box_refuses_in_its_own_words_keeps_them(args, words):
    assert "is not a game" not in refused(command(*args), words)


def test_the_nearest_is_looked_for_only_once_a_mistake_is_found():
    code = """
import sys
from shutthebox.cli import main
assert main(["--one", "--expect", "123456789"]) == 0
assert "difflib" not in sys.modules, "difflib on a question's path"
assert main(["yahtze"]) == 2
assert "difflib" in sys.modules
"""
    done = python(code)
    assert done.returncode == 0, done.stderr


# -- an unknown option ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("args, words", [
    (["toggle", "--expct", "all"], "unknown option '--expct': did you mean --expect?"),
    (["toggle", "--cads", "4", "--expect", "all"], "did you mean --cards?"),  # a game option
    (["toggle", "--tabel", "x", "--expect", "all"], "did you mean --table?"),  # a shared option
    (["yazy", "--targt", "100", "--expect"], "did you mean --target?"),  # an option its question names
    (["yahtzee", "--uper", "3", "--expect", "all"], "did you mean --upper?"),
    (["yahtzee", "--Expect", "all"], "did you mean --expect?"),
    (["--one", "--expct", "123456789"], "unknown option '--expct': did you mean --expect?"),
    (["--on", "--expect", "123456789"], "did you mean --one?"),
    (["--one", "--expect", "123456789", "--tile", "9"], "did you mean --tiles?"),
])
def test_an_unknown_option_is_answered_with_the_nearest(args, words):
    refused(command(*args), words)


@pytest.mark.parametrize("args", [["toggle", "--bogus"], ["--bogus"], ["yahtzee", "--zzzzzz", "all"]])
def test_an_unknown_option_near_none_gets_no_guess(args):
    assert "did you mean" not in refused(command(*args), "unknown option")


def test_nearest():
    from shutthebox.engine.command import did_you_mean, nearest

    assert nearest("--expct", ["--expect", "--move"]) == "--expect"
    assert nearest("--EXPECT=3", ["--expect", "--move"]) == "--expect"
    assert nearest("Yahtzee", ["toggle", "yahtzee"]) == "yahtzee"
    assert nearest("--bogus", ["--expect", "--move", "--batch"]) is None
    assert did_you_mean("--mov", ["--move"]) == ": did you mean --move?" and did_you_mean("x", ["--move"]) == ""


# -- all and none --------------------------------------------------------------------------------------------

TWELVE = ",".join(map(str, range(1, 13)))
TEN = ",".join(map(str, range(1, 11)))


@pytest.mark.parametrize("asked, same", [
    ("--one --expect all", "--one --expect 123456789"),
    ("--one --move all 7", "--one --move 123456789 7"),
    ("--two --expect all 8", "--two --expect 123456789 8"),
    ("--two --move all 20 7", "--two --move 123456789 20 7"),
    ("--tiles 12 --one --expect all", "--tiles 12 --one --expect " + TWELVE),
    ("--tiles 10 --two --move all 20 11", "--tiles 10 --two --move %s 20 11" % TEN),
    ("--solo --expect all --variant two-dice", "--solo --expect 123456789 --variant two-dice"),
    ("--tiles 10 --solo --expect all --objective score", "--tiles 10 --solo --expect %s --objective score" % TEN),
])
def test_all_is_the_full_board_of_the_rules_in_force(asked, same):
    done, twin = command(*asked.split()), command(*same.split())
    assert done.returncode == twin.returncode == 0 and done.stdout == twin.stdout != "", done.stderr


def test_all_in_a_batch_and_in_the_api():
    import shutthebox

    lines = ["--one --expect all", "--two --expect all 8", "--one --move all 9", "--two --move all 17 12"]
    asked = command("--batch", stdin="".join(line + "\n" for line in lines))
    same = command("--batch", stdin="".join(line.replace("all", "123456789") + "\n" for line in lines))
    assert asked.returncode == 0 and asked.stdout == same.stdout and len(asked.stdout.splitlines()) == 4
    twelve = command("--tiles", "12", "--batch", stdin="--one --expect all\n")
    assert twelve.stdout == command("--tiles", "12", "--one", "--expect", TWELVE).stdout != ""
    table = shutthebox.load()
    assert table.expect_one("all") == table.expect_one("123456789")
    assert table.move_two("all", 17, 12) == table.move_two("123456789", 17, 12)
    assert shutthebox.load_solo("two-dice").move("all", 7) == shutthebox.load_solo("two-dice").move("123456789", 7)


def test_all_and_none_are_the_ends_of_every_set():
    from shutthebox.engine.notation import parse_set

    for highest in range(1, 17):
        assert parse_set("all", highest) == (1 << highest) - 1
        assert parse_set("none", highest) == 0
    with pytest.raises(InvalidQuery):
        parse_set("all,", 9)  # the word alone, as toggle's states and the pages read it


def test_none_is_the_shut_box_everywhere_a_position_is_read():
    import shutthebox

    refused(command("--one", "--expect", "none"), "the box is already shut")
    refused(command("--two", "--move", "none", "8", "7"), "the box is already shut")
    batch = command("--batch", stdin="--one --expect none\n")
    assert batch.returncode == 1 and "already shut" in batch.stdout
    with pytest.raises(InvalidQuery, match="already shut"):
        shutthebox.load().expect_one("none")


# -- Ctrl-C while starting -------------------------------------------------------------------------------------

# A real SIGINT, sent by the child itself when a module of the command is about to be imported: the
# interrupt falls inside that import every time (no race with the clock). Ctrl-C's own handler first: a
# suite started in the background (`cmd &` in a script) hands its children SIGINT ignored.
INTERRUPT = """
import os, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == %r:
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, Interrupt())
"""


@pytest.mark.parametrize("module", ["shutthebox.cli", "shutthebox.engine.command", "shutthebox.games.shutthebox",
                                    "shutthebox.games.shutthebox.grammar", "shutthebox.engine.reader"])
@pytest.mark.parametrize("how", ["script", "module"])
def test_ctrl_c_while_the_command_starts_exits_130_quietly(module, how):
    if how == "script":
        run = "import runpy; sys.argv = [%r, '--one', '--expect', '123456789']; runpy.run_path(%r, run_name='__main__')" \
              % (COMMAND, COMMAND)
    else:
        run = "import runpy; sys.argv = ['shutthebox', '--one', '--expect', '123456789']; " \
              "runpy.run_module('shutthebox', run_name='__main__', alter_sys=True)"
    done = python("import sys; sys.path.insert(0, %r)\n" % ROOT + INTERRUPT % module + run)
    assert done.returncode == 130 and done.stderr == "" and done.stdout == "", (done.returncode, done.stderr)


def test_an_uninterrupted_start_still_answers():
    done = python("import sys; sys.path.insert(0, %r)\n" % ROOT + INTERRUPT % "no.such.module"
                  + "import runpy; sys.argv = [%r, '--one', '--expect', '123456789']; runpy.run_path(%r, "
                    "run_name='__main__')" % (COMMAND, COMMAND))
    assert done.returncode == 0 and done.stdout == "0.502810\n", done.stderr


# -- the README and the docs show what the commands print ------------------------------------------------------


def code_blocks(path):
    """(info string, text) of every fenced code block of a Markdown page, in order."""
    blocks, info, lines = [], None, []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("```"):
                if info is None:
                    info, lines = line[3:].strip(), []
                else:
                    blocks.append((info, "".join(lines)))
                    info = None
            elif info is not None:
                lines.append(line)
    return blocks


def console_examples(path):
    """(command, the lines the page shows after it) of every ``$ `` line of the page's console blocks (and
    of its plain ones)."""
    examples = []
    for info, block in code_blocks(path):
        if info not in ("", "console"):
            continue
        for part in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command_line, _, shown = part.partition("\n")
            examples.append((command_line, shown.splitlines()))
    return examples


def shows(shown, printed):
    """The page's lines are the printed ones: a line ``...`` stands for any number of lines, and ``...``
    inside a line for any text (a long message the page cuts)."""
    def line_pattern(line):
        return "[^\n]*?".join(map(re.escape, line.split("..."))) + "\n"

    pattern = "".join(".*?" if line.strip() == "..." else line_pattern(line) for line in shown)
    return re.fullmatch(pattern, "".join(line + "\n" for line in printed), re.S) is not None


@pytest.fixture(scope="module")
def shell_env(tmp_path_factory):
    """A PATH whose ShutTheBox is the checkout's, run by the tests' interpreter, and a cache of its own (tables
    solved on first use are solved here, as on a new machine)."""
    folder = tmp_path_factory.mktemp("bin")
    script = folder / "ShutTheBox"
    script.write_text('#!/bin/sh\nexec "%s" "%s" "$@"\n' % (sys.executable, COMMAND))
    script.chmod(0o755)
    return dict(os.environ, PATH="%s%s%s" % (folder, os.pathsep, os.environ.get("PATH", "")),
                SHUTTHEBOX_CACHE=str(tmp_path_factory.mktemp("cache")))


# The cache folder as the docs print it.
DOCS_CACHE = "/home/me/.cache/shutthebox"
# A first-use solve's announcement: printed only when the cache does not hold the table yet, so not shown.
SOLVING = re.compile(r"^ShutTheBox: solving .*\(Ctrl-C stops it\)$")
# Console examples the docs test does not run, and why.
FULL_DUEL = "it needs the full two-player yazy table: 1.87 GB, about 100 minutes to solve"
NOT_RUN = {"python3 tests/count.py --time": "it runs the whole test suite, this test among them",
           "ShutTheBox yazy --players 2 --expect all all --scores 0,0 13366 2": FULL_DUEL,
           "ShutTheBox yazy --players 2 --options all all --scores 0,0 13366 2": FULL_DUEL}


def doc_pages():
    """README.md and every page of docs/ that shows console examples."""
    pages = ["README.md"] + ["docs/" + name for name in sorted(os.listdir(os.path.join(ROOT, "docs")))
                             if name.endswith(".md")]
    return [page for page in pages if console_examples(os.path.join(ROOT, page))]


@pytest.mark.slow
@pytest.mark.parametrize("page", doc_pages())
def test_every_console_example_of_the_docs_prints_what_it_shows(page, shell_env):
    """Each ``$ `` line of a console block is run by bash from the checkout; what it prints, standard output
    and standard error together as a terminal shows them, is the page's lines (the cache folder printed as
    the docs write it; a first-use solve's announcement left out). An example that should fail shows its
    message, so exit statuses are not compared."""
    examples = console_examples(os.path.join(ROOT, page))
    if page == "README.md":  # a few first questions: each game's own are on its docs page, run here too
        assert len(examples) >= 5
    for command_line, shown in examples:
        if command_line.split("#")[0].strip() in NOT_RUN:
            continue
        done = subprocess.run(["bash", "-c", "exec 2>&1\n" + command_line], stdout=subprocess.PIPE, text=True,
                              timeout=900, cwd=ROOT, env=shell_env)
        printed = [line for line in done.stdout.replace(shell_env["SHUTTHEBOX_CACHE"], DOCS_CACHE).splitlines()
                   if not SOLVING.match(line)]
        assert shown and shows(shown, printed), (page, command_line, shown, printed)


def test_goat_turns_in_its_docs_shows_its_title_and_rows(shell_env):
    [(command_line, shown)] = [example for example in console_examples(os.path.join(ROOT, "docs", "GOAT.md"))
                               if example[0].startswith("ShutTheBox goat turns")]
    done = subprocess.run(["bash", "-c", command_line], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env=shell_env)
    assert done.returncode == 0 and shows(shown, done.stdout.splitlines()), (shown, done.stdout)


@pytest.mark.slow
def test_toggle_strategies_in_its_docs_shows_its_title_and_header():
    """The Monte Carlo run of 10,000 games takes a minute: the title, the columns' header and the closing line
    of the docs' block are checked against a run of a few games (its exact values still take seconds)."""
    with open(os.path.join(ROOT, "docs", "TOGGLE.md"), encoding="utf-8") as handle:
        text = handle.read()
    block = text.split("With the defaults (seed 1):\n\n```\n", 1)[1].split("```", 1)[0].splitlines()
    done = command("toggle", "strategies", "--games", "20")
    printed = done.stdout.splitlines()
    assert done.returncode == 0 and block[:2] == printed[:2], (block, printed)
    assert block[-1] == printed[-1].replace("(20 games", "(10000 games"), (block[-1], printed[-1])


@pytest.mark.slow
def test_the_players_example_of_docs_shutthebox_runs(tmp_path):
    """docs/SHUTTHEBOX.md's Python example on 12 tiles and three players (solved into a fresh cache)."""
    [code] = [block for info, block in code_blocks(os.path.join(ROOT, "docs", "SHUTTHEBOX.md"))
              if info == "python" and "players=3" in block]
    lines = code.splitlines()
    program = "\n".join(lines[:-2] + ["print(%s)" % line.split("#")[0].strip() for line in lines[-2:]])
    done = python("import sys; sys.path.insert(0, %r)\n" % ROOT + program,
                  env=dict(os.environ, SHUTTHEBOX_CACHE=str(tmp_path)))
    assert done.returncode == 0, done.stderr
    shown = [line.split("# ", 1)[1] for line in lines[-2:]]
    printed = done.stdout.splitlines()
    assert ["%.6f" % float(printed[0]), printed[1]] == shown, (printed, shown)


@pytest.mark.slow
def test_an_analysis_command_whose_reader_went_away_ends_quietly():
    """``ShutTheBox toggle strategies | head -0``: the reader going away before the answer is written is not an
    error (exit 0, no words on standard error)."""
    import subprocess
    import sys

    from conftest import COMMAND

    process = subprocess.Popen([sys.executable, COMMAND, "toggle", "strategies", "--games", "2000"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # before the command writes: its first write meets a closed pipe
    stderr = process.stderr.read()
    assert process.wait(timeout=120) == 0, stderr
    assert stderr == b"", stderr


@pytest.mark.parametrize("cards, sides, said", [(12, 10, True), (6, 4, False)])
def test_a_solve_over_a_second_says_so_in_one_line_and_a_short_one_says_nothing(tmp_path, cards, sides, said):
    """12 cards and 10-sided dice solve in about 1.5 s, 6 cards and 4-sided dice in 0.02 s."""
    done = subprocess.run([sys.executable, COMMAND, "toggle", "--cards", str(cards), "--sides", str(sides),
                           "--expect", "all"], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, SHUTTHEBOX_CACHE=str(tmp_path)))
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert (len(lines) == 1 and SOLVING.match(lines[0]) is not None) if said else lines == [], done.stderr
    assert "toggle-c%d-s%d.msgpack" % (cards, sides) in done.stderr or not said


class Terminal:
    """What a solve writes to a terminal, kept."""

    def __init__(self):
        self.text = ""

    def isatty(self):
        return True

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def test_a_long_solve_shows_its_time_on_a_terminal_unless_a_bar_draws():
    import time

    from shutthebox.engine.progress import Progress, ticking

    terminal = Terminal()
    with ticking("goat-g150.msgpack", 34.0, stream=terminal):
        time.sleep(2.3)
    assert "\rsolving goat-g150.msgpack: 1s of about 34s " in terminal.text, terminal.text
    assert "2s of about 34s" in terminal.text and terminal.text.endswith("\r\033[K"), terminal.text
    quiet, bar = Terminal(), Terminal()
    with ticking("t12-2d6-one6-p3.msgpack", 20.0, stream=quiet), Progress(10, "solving", stream=bar, enabled=True):
        time.sleep(1.5)
    assert quiet.text == "", quiet.text  # the solver's own bar draws: the time is not drawn over it
    short, pipe = Terminal(), Terminal()
    pipe.isatty = lambda: False
    for stream, seconds in ((short, 5.0), (pipe, 34.0)):  # a solve under ten seconds; no terminal
        with ticking("pig-pig-g100-s6.msgpack", seconds, stream=stream):
            time.sleep(1.2)
        assert stream.text == ""
