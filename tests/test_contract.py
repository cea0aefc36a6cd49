"""The game contract (docs/ARCHITECTURE.md), checked for every game of the registry.

A game passes when its declaration is complete, its table names round-trip, its golden questions
get the same answer (or the same refusal) from the single command, one ``--batch`` process and the
Python session, bad questions are one line and exit status 2, damaged copies of a small good table
of the game are refused with exit status 3, and its modules import no other game's. A new game is
checked here as soon as it has its registry line.
"""

import ast
import os
import re
import subprocess
import sys

import pytest

from conftest import COMMAND, ROOT, slow_when
from shutthebox import registry
from shutthebox.errors import InvalidQuery

GAMES = list(registry.GAMES)
DATA = os.path.join(ROOT, "tests", "data")
STATIC = os.path.join(ROOT, "shutthebox", "web", "static")
PACKAGE = os.path.join(ROOT, "shutthebox")


def command(game, *args, stdin=None):
    prefix = [] if game == registry.DEFAULT else [game]
    return subprocess.run([sys.executable, COMMAND, *prefix, *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


def golden(path):
    """(command-line prefix from the ``# ShutTheBox ...`` first line, [(question, answer)])."""
    prefix, pairs = [], []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle):
            if number == 0 and line.startswith("# ShutTheBox ") and "QUESTION" in line:
                prefix = line[len("# ShutTheBox ") : line.index("QUESTION")].split()
            if "\t" in line and not line.startswith("#"):
                question, answer = line.rstrip("\n").split("\t", 1)
                pairs.append((question, answer))
    return prefix, pairs


def golden_pairs(game):
    prefix, pairs = golden(os.path.join(DATA, "%s-golden.txt" % game))
    if prefix[:1] == [game]:
        prefix = prefix[1:]
    return prefix, pairs


# -- the declaration ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_the_declaration_is_complete(name):
    game = registry.declaration(name)
    assert game.id == name and game.title and game.about and "\n" not in game.about
    grammar = registry.grammar(name)
    assert grammar.HELP.startswith("usage: ") and callable(grammar.open_game)
    assert all(option.startswith("--") for option in grammar.GAME_OPTIONS)
    assert isinstance(grammar.COMMANDS, tuple)
    if grammar.COMMANDS:  # each WORD runs analysis.WORD_main(argv), found by its fixed name
        analysis = __import__(game.package + ".analysis", fromlist=["_"])
        for word in grammar.COMMANDS:
            assert callable(getattr(analysis, word.replace("-", "_") + "_main")), word
    assert game.tables, "a game has at least one family of tables"
    for family in game.tables:
        assert family.headers and set(family.slots()) >= set(family.fields)
        # the family's hooks, found by fixed names in its package
        assert callable(family.rules().fields_of) and callable(family.rules().rules_of), family.package
        assert callable(family.table().open_rules), family.package
        assert callable(family.build().solve_table), family.package
    if game.page is not None:
        path = os.path.join(STATIC, game.page)
        assert os.path.isfile(path), path
        if game.page.endswith(".js"):  # a module of the games page: what games.js calls
            with open(path, encoding="utf-8") as handle:
                source = handle.read()
            for export in ("tableSpec", "answer", "mount"):
                declared = r"export\s+(?:async\s+)?(?:function|const|let|class)\s+%s\b" % export
                listed = r"export\s*\{[^}]*\b%s\b[^}]*\}" % export
                assert re.search(declared, source) or re.search(listed, source), export


def test_each_table_header_belongs_to_one_game():
    owners = {}
    for game in registry.declarations():
        for header in game.headers():
            assert header not in owners, (header, owners.get(header), game.id)
            owners[header] = game.id


@pytest.mark.parametrize("name", GAMES)
def test_table_names_round_trip_and_shipped_tables_are_there(name):
    from shutthebox.engine.reader import read_table

    for family in registry.declaration(name).tables:
        for rules in family.shipped_rules():
            file_name = family.name(rules)
            assert family.parse(file_name) == rules, file_name
            assert family.parse("x" + file_name) is None and family.parse(file_name + ".tmp") is None
            with read_table(os.path.join(ROOT, "data", file_name)) as tablefile:
                assert tablefile.game in family.headers, file_name
                if hasattr(family.rules(), "estimate"):  # what a first-use solve says it will write, before it starts
                    size = family.builder(rules).estimate().size
                    assert size <= tablefile.size <= size * 1.01 + 8192, (file_name, size, tablefile.size)


# -- one answer on every surface ----------------------------------------------------------------


@pytest.mark.parametrize("name", slow_when(GAMES, {"shutthebox", "goat"}))
def test_golden_questions_answer_alike_on_every_surface(name):
    """The Python session (the grammar in this process), one --batch process, and the single command.
    A line with game options (``--tiles 12 ...``) is its own run: a batch takes them on its command line."""
    from shutthebox.engine.command import split_options

    prefix, pairs = golden_pairs(name)
    assert pairs
    grammar = registry.grammar(name)
    sessions: dict = {}
    plain = []
    for question, answer in pairs:
        options, tokens = split_options(question.split(), grammar.GAME_OPTIONS)
        key = tuple(sorted(options["game"].items()))
        if not key:
            plain.append((question, answer))
        try:
            if key not in sessions:
                sessions[key] = grammar.open_game(options["game"], None)
            said = sessions[key].answer(tokens)
        except InvalidQuery as error:
            said = "error: %s" % error
        assert said == answer, question
    batch = command(name, *prefix, "--batch", stdin="".join(question + "\n" for question, _ in plain))
    assert batch.stdout.splitlines() == [answer for _, answer in plain]
    assert batch.returncode == (1 if any(answer.startswith("error:") for _, answer in plain) else 0)
    for question, answer in pairs[:3] + [pair for pair in pairs if pair[1].startswith("error:")][:3]:
        single = command(name, *prefix, *question.split())
        if answer.startswith("error:"):
            assert (single.returncode, single.stdout) == (2, ""), question
            assert single.stderr == "ShutTheBox: %s\n" % answer[len("error: "):], question
        else:
            assert (single.returncode, single.stdout, single.stderr) == (0, answer + "\n", ""), question


BAD_QUESTIONS = [
    [],
    ["--bogus"],
    ["--expect", "--move"],
    ["--expect", "x" * 5000],
    ["--expect", "\x1b[31m"],
    ["--expect", "9" * 5000],
    ["--rules", "--batch"],
]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("args", BAD_QUESTIONS, ids=lambda args: " ".join(args)[:20] or "nothing")
def test_a_bad_question_is_one_line_and_exit_2(name, args):
    done = command(name, *args)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert done.stderr.startswith("ShutTheBox: ") and done.stderr.count("\n") == 1, done.stderr
    assert len(done.stderr) < 400 and "\x1b" not in done.stderr


# -- damaged tables -----------------------------------------------------------------------------


def good_table(name):
    """(path of a small good table of the game, command-line prefix, an answered question): one of its first
    family (its main tables: yazy's expected-score table before its two-player one) when the corpus has one."""
    from shutthebox.engine.reader import read_table

    headers, first = registry.declaration(name).headers(), registry.declaration(name).tables[0].headers
    good = os.path.join(DATA, "good")
    games = {}
    for file_name in os.listdir(good):
        if file_name.endswith("-golden.txt"):
            with read_table(os.path.join(good, file_name[: -len("-golden.txt")] + ".msgpack")) as tablefile:
                games[file_name] = tablefile.game
    for file_name in sorted(games, key=lambda file_name: (games[file_name] not in first, file_name)):
        if games[file_name] not in headers:
            continue
        prefix, pairs = golden(os.path.join(good, file_name))
        path = os.path.join(good, file_name[: -len("-golden.txt")] + ".msgpack")
        if prefix[:1] == [name]:
            prefix = prefix[1:]
        prefix = [word for word in prefix if word != "--table" and not word.endswith(".msgpack")]
        question = next(question for question, answer in pairs if not answer.startswith("error:"))
        return path, prefix, question
    # A game whose solver knows one rule set only (yazy): its shipped table.
    prefix, pairs = golden_pairs(name)
    family = registry.declaration(name).tables[0]
    path = os.path.join(ROOT, "data", family.name(family.shipped_rules()[0]))
    return path, prefix, next(question for question, answer in pairs if not answer.startswith("error:"))


DAMAGE = {
    "a header bit": lambda data: data[:40] + bytes([data[40] ^ 1]) + data[41:],
    "an array bit": lambda data: data[:-200] + bytes([data[-200] ^ 0x10]) + data[-199:],
    "a truncated tail": lambda data: data[:-3],
    "half the file": lambda data: data[: len(data) // 2],
    "not a table": lambda data: b"\x81\xa3key\xa5value",
    "empty": lambda data: b"",
}


@pytest.mark.parametrize("name", slow_when(GAMES, {"yazy"}))
def test_damaged_copies_of_a_good_table_are_refused_with_exit_3(name, tmp_path):
    """A single question verifies the header and the blocks it reads; a batch reads the table whole
    first, so a flipped bit anywhere is refused before any answer."""
    path, prefix, question = good_table(name)
    answered = command(name, *prefix, "--table", path, *question.split())
    assert answered.returncode == 0, answered.stderr
    with open(path, "rb") as handle:
        data = handle.read()
    for damage, make in DAMAGE.items():
        damaged = tmp_path / ("damaged-" + os.path.basename(path))
        damaged.write_bytes(make(data))
        if damage == "an array bit":
            done = command(name, *prefix, "--table", str(damaged), "--batch", stdin=question + "\n")
        else:
            done = command(name, *prefix, "--table", str(damaged), *question.split())
        assert done.returncode == 3 and done.stdout == "", (damage, done.stderr)
        assert done.stderr.count("\n") == 1 and str(damaged) in done.stderr, (damage, done.stderr)


@pytest.mark.parametrize("name", GAMES)
def test_a_table_file_is_asked_under_its_own_rules(name):
    """``--table`` alone answers under the file's rules; with game options, they must be the file's."""
    path, prefix, question = good_table(name)
    with_options = command(name, *prefix, "--table", path, *question.split())
    alone = command(name, "--table", path, *question.split())
    assert with_options.returncode == alone.returncode == 0, (with_options.stderr, alone.stderr)
    assert alone.stdout == with_options.stdout


def other_rules_options(name, path):
    """Game options naming rules other than those of the table file at ``path``: the first of the game's shipped
    rule sets (of the file's family) that differs from the file's header rules in a slot of the table names that
    is also a game option (``--tiles`` for ``{tiles}``), as those options, like ``["--tiles", "9"]``; [] when
    none does."""
    from shutthebox.engine.reader import read_table

    with read_table(path) as tablefile:
        header, own = tablefile.game, {key: str(value) for key, value in tablefile.header["rules"].items()}
    family = next(family for family in registry.declaration(name).tables if header in family.headers)
    options = registry.grammar(name).GAME_OPTIONS
    for rules in family.shipped_rules():
        fields = family.rules().fields_of(rules)
        other = [word for slot, text in fields.items() if "--" + slot in options and slot in own
                 and text != own[slot] for word in ("--" + slot, text)]
        if other:
            return other
    return []


@pytest.mark.parametrize("name", GAMES)
def test_game_options_naming_other_rules_than_the_table_file_s_are_refused(name):
    """Walks the registry: a game's small good table (else its shipped one) asked with game options naming
    other rules is refused with exit status 3, naming the file. A game whose options name no other rules of
    that table (no game option; a single shipped rule set, the table's own) is skipped."""
    path, _, question = good_table(name)
    other = other_rules_options(name, path)
    if not other:
        pytest.skip("%s: no game option names rules other than %s's" % (name, os.path.basename(path)))
    done = command(name, *other, "--table", path, *question.split())
    assert done.returncode == 3 and done.stdout == "" and path in done.stderr, (other, done.stderr)


# -- imports --------------------------------------------------------------------------------------


def module_imports():
    """module name -> the modules of ours it imports (at the top or inside a function)."""
    paths = {}
    for base, dirs, files in os.walk(PACKAGE):
        dirs[:] = [folder for folder in dirs if folder != "__pycache__"]
        for file_name in files:
            if file_name.endswith(".py"):
                path = os.path.join(base, file_name)
                dotted = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                paths[dotted.removesuffix(".__init__")] = path
    graph = {}
    for module, path in paths.items():
        package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
                for alias in node.names:
                    found.add(base + "." + alias.name if base + "." + alias.name in paths else base)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[module] = {name for name in found if name in paths and name != module}
    return graph


def test_no_module_imports_one_that_imports_it_back():
    graph = module_imports()
    cycles = []

    def visit(module, trail):
        for name in sorted(graph[module]):
            if name in trail:
                cycles.append(trail[trail.index(name):] + [name])
            elif name not in done:
                visit(name, trail + [name])
        done.add(module)

    done: set = set()
    for module in sorted(graph):
        if module not in done:
            visit(module, [module])
    assert not cycles, cycles[:5]


def test_no_game_imports_another_game():
    prefix = "shutthebox.games."
    for module, imported in module_imports().items():
        if module.startswith(prefix) and module.count(".") >= 2:
            own = module.split(".")[2]
            others = {name for name in imported if name.startswith(prefix) and name.split(".")[2] != own}
            assert not others, (module, others)


# -- the notation corpus: every surface reads a question alike -------------------------------------

FIRST_USE_ON_THREADS = r"""
import threading
from shutthebox import registry

failures = []


def use():
    try:
        for game in registry.declarations():
            registry.grammar(game.id)
            for tables in game.tables:
                tables.rules().rules_of
    except Exception as error:  # noqa: BLE001 - counted below
        failures.append(repr(error))


threads = [threading.Thread(target=use) for _ in range(12)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(failures[:1] or "ok")
"""


def test_games_are_found_from_many_threads_at_once():
    # The server answers on 16 threads: a game first used by several at once must be found by each, never
    # seen half imported (a module is in sys.modules while another thread still runs it).
    for _ in range(3):  # each run a fresh interpreter: the first use is what is tested
        done = subprocess.run([sys.executable, "-c", FIRST_USE_ON_THREADS], cwd=ROOT, capture_output=True,
                              text=True, timeout=120)
        assert done.stdout.strip() == "ok", done.stdout + done.stderr


QUESTIONS = os.path.join(DATA, "questions")
CORPUS = sorted(name for name in os.listdir(QUESTIONS) if name.endswith(".txt"))


def test_every_game_has_a_notation_corpus():
    asked = set()
    for name in CORPUS:
        prefix = golden(os.path.join(QUESTIONS, name))[0]
        asked.add(prefix[0] if prefix[:1] and prefix[0] in registry.NAMED_FIRST else registry.DEFAULT)
    assert set(GAMES) <= asked, set(GAMES) - asked


# Each over about a second: a process per line.
SLOW_CORPUS = {"yahtzee.txt", "toggle.txt", "shutthebox.txt", "yazy.txt", "toggle-c9-s6.txt", "pig.txt"}


@pytest.mark.parametrize("name", slow_when(CORPUS, SLOW_CORPUS))
def test_the_notation_corpus_reads_alike_on_every_surface(name):
    """Each line's question, asked as a single command, as one line of a batch and of the in-process
    session, gets the expected answer, the answer of its "= QUESTION" twin, or the expected refusal
    (exit status 2 and the message's first words)."""
    from shutthebox.engine.command import split_options

    prefix, pairs = golden(os.path.join(QUESTIONS, name))
    game = prefix[0] if prefix[:1] and prefix[0] in registry.NAMED_FIRST else registry.DEFAULT
    options = prefix[1:] if game != registry.DEFAULT else prefix
    grammar = registry.grammar(game)
    game_options, _ = split_options(options, grammar.GAME_OPTIONS)
    session = grammar.open_game(game_options["game"], None)

    def in_process(question):
        try:
            return session.answer(question.split())
        except InvalidQuery as error:
            return "error: %s" % error

    def single(question):
        done = command(game, *options, *question.split())
        if done.returncode == 0:
            assert done.stderr == "", question
            return done.stdout.rstrip("\n")
        assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, (question, done.stderr)
        return "error: " + done.stderr.rstrip("\n").removeprefix("ShutTheBox: ")

    batch = command(game, *options, "--batch", stdin="".join(question + "\n" for question, _ in pairs))
    answered = batch.stdout.splitlines()
    assert len(answered) == len(pairs), batch.stderr
    for (question, expected), from_batch in zip(pairs, answered):
        said = single(question)
        assert from_batch == said == in_process(question), question
        if expected.startswith("= "):
            twin = single(expected[2:])
            assert said == twin and not twin.startswith("error:"), (question, expected, twin)
        elif expected.startswith("error: "):
            assert said.startswith(expected), (question, said)
        else:
            assert said == expected, question
