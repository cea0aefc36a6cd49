"""The query path imports the standard library, msgpack and the query-time modules, nothing else.

One rule for every game of the registry (docs/ARCHITECTURE.md): of ``shutthebox``,
only the package, ``cli``, ``errors``, ``registry``, the engine's query-time
modules and, of a game (or of the family engine it is declared on), its packages, ``grammar``, ``table``
and ``rules``.
The questions come from each game's golden file in tests/data/.
"""

import ast
import os
import subprocess
import sys

import pytest

from conftest import ROOT
from shutthebox import registry

ENGINE_QUERY_TIME = {"format", "reader", "decode", "store", "command", "notation", "game", "table", "text", "rules", "printing",
                     "dice", "dicekeep", "dicescores", "throws"}
GAME_QUERY_TIME = {"grammar", "table", "rules", "boxtable", "turn"}
HEAVY_STDLIB = {"fractions", "argparse", "dataclasses", "typing", "http", "importlib.util", "random", "decimal", "re",
                "statistics"}


def query_time(module: str) -> bool:
    """Whether a module of ours may be imported to answer a question."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in ("cli", "errors", "registry"):
        return True
    if parts[1] == "engine" and parts[2:3] == ["families"]:  # a family engine: as a game's package
        return len(parts) <= 4 or parts[-1] in GAME_QUERY_TIME
    if parts[1] == "engine":
        return len(parts) == 2 or parts[2] in ENGINE_QUERY_TIME
    if parts[1] == "games":  # a game's package or sub-package (light), or its query-time modules
        return len(parts) <= 3 or parts[-1] in GAME_QUERY_TIME or _is_package(module)
    return False


def _is_package(module: str) -> bool:
    from importlib.util import find_spec

    spec = find_spec(module)
    return spec is not None and spec.submodule_search_locations is not None


def golden_questions(game: str, count: int = 4) -> list:
    """The first ``count`` answered questions of a game's golden file, as argv."""
    path = os.path.join(ROOT, "tests", "data", "%s-golden.txt" % game)
    if not os.path.exists(path):
        return []
    questions = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if line.startswith("#") or "\t" not in line:
                continue
            args, answer = line.rstrip("\n").split("\t", 1)
            if answer.startswith("error:"):
                continue
            argv = args.split()
            if game != registry.DEFAULT and argv[:1] != [game]:
                argv = [game] + argv
            questions.append(argv)
            if len(questions) == count:
                break
    return questions


# Nothing imported before ``before`` is taken: json, say, would hide ``re``.
PROBE = """
import sys
before = set(sys.modules)
from shutthebox.cli import main
status = main(%r)
print(repr({"status": status, "new": sorted(set(sys.modules) - before)}))
"""

QUESTIONS = [argv for game in registry.GAMES for argv in golden_questions(game)] + [
    ["--tiles", "12", "--two", "--move", "1,3,4,5,6,7,8,9,10", "17", "12"],
    ["--solo", "--expect", "123456789", "--variant", "two-dice"],
]


def test_the_rule_knows_build_time_modules():
    assert query_time("shutthebox.games.toggle.table") and query_time("shutthebox.engine.reader")
    for module in ("shutthebox.engine.writer", "shutthebox.engine.progress", "shutthebox.games.shutthebox.solver",
                   "shutthebox.games.shutthebox.solo.build", "shutthebox.games.goat.analysis", "shutthebox.web.server"):
        assert not query_time(module), module


def test_every_game_has_golden_questions():
    assert all(golden_questions(game) for game in registry.GAMES), list(registry.GAMES)


@pytest.mark.parametrize("argv", QUESTIONS, ids=" ".join)
def test_a_question_imports_only_query_time_modules(argv, capfd):
    result = subprocess.run([sys.executable, "-c", PROBE % (argv,)], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    probe = ast.literal_eval(result.stdout.splitlines()[-1])
    assert probe["status"] == 0, result.stderr
    ours = {name for name in probe["new"] if name.split(".")[0] == "shutthebox"}
    assert all(query_time(name) for name in ours), sorted(name for name in ours if not query_time(name))
    foreign = {name.split(".")[0] for name in probe["new"]} - set(sys.stdlib_module_names)
    # msgpack's compiled extension registers Cython's runtime modules.
    foreign = {name for name in foreign if not name.startswith(("_cython_", "cython_runtime"))}
    # The reader decodes the small header itself: importing msgpack would cost more than the question.
    assert foreign <= {"shutthebox"}, foreign
    assert not HEAVY_STDLIB & set(probe["new"]), HEAVY_STDLIB & set(probe["new"])


# A question at the start of a yazy turn is a lookup: the modules of a turn (the keep tree, the turn's
# choices) are imported only by a question inside one. Each module costs a question a fraction of a ms.
TURN_MODULES = {"shutthebox.engine.dicekeep", "shutthebox.engine.printing", "shutthebox.games.yazy.turn",
                "shutthebox.games.yazy.duel.turn"}


@pytest.mark.parametrize("argv, turn", [
    (["yazy", "--expect", "ones,twos,yazy"], False),
    (["yazy", "--move", "ones,twos,yazy", "13366", "2"], False),  # a lookup too, in the one-player table
    (["yazy", "--categories", "ones,yazy", "--players", "2", "--expect", "all", "yazy", "--scores", "0,3"], False),
    (["yazy", "--categories", "ones,yazy", "--players", "2", "--move", "all", "yazy", "--scores", "0,3", "11166",
      "1"], True),
], ids=lambda value: " ".join(value) if isinstance(value, list) else "turn" if value else "start")
def test_a_yazy_question_at_a_turn_start_imports_no_turn_module(argv, turn):
    from shutthebox.games.yazy.duel.table import load_duel
    from shutthebox.games.yazy.rules import Rules

    load_duel(Rules(categories="ones,yazy"))  # solved, if it is not yet, before the question is probed
    result = subprocess.run([sys.executable, "-c", PROBE % (argv,)], capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    probe = ast.literal_eval(result.stdout.splitlines()[-1])
    assert probe["status"] == 0, result.stderr
    imported = TURN_MODULES & set(probe["new"])
    if turn:  # the probe sees them when they are needed
        assert {"shutthebox.engine.dicekeep", "shutthebox.games.yazy.duel.turn"} <= imported, sorted(imported)
    else:
        assert not imported, sorted(imported)


def test_package_import_alone_does_not_load_a_reader():
    code = "import sys, shutthebox; print(sorted(m for m in sys.modules if m.startswith('shutthebox.')))"
    probe = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert probe.stdout.strip() == "['shutthebox.errors']"


def test_a_table_solved_on_first_use_is_the_one_crossing(tmp_path):
    """A missing table is solved by the game's build module, imported only then."""
    code = PROBE % (["--tiles", "4", "--one", "--expect", "1234"],)
    env = dict(os.environ, SHUTTHEBOX_CACHE=str(tmp_path / "cache"))
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                            env=env)
    probe = ast.literal_eval(result.stdout.splitlines()[-1])
    assert probe["status"] == 0, result.stderr
    crossed = sorted(name for name in probe["new"] if name.startswith("shutthebox") and not query_time(name))
    assert crossed == ["shutthebox.engine.progress", "shutthebox.engine.solvelock", "shutthebox.engine.writer",
                       "shutthebox.games.shutthebox.build", "shutthebox.games.shutthebox.solver"]
    # Asked again, the cached table answers with no build-time module.
    probe = ast.literal_eval(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                                      timeout=120, env=env).stdout.splitlines()[-1])
    assert all(query_time(name) for name in probe["new"] if name.startswith("shutthebox"))
