"""Every surface answers alike: a batch line, a single question and the API give the same answer or the
same refusal, in one notation; malformed questions are refused, never read as something else."""

import os
import subprocess
import sys

import pytest

from conftest import COMMAND, ROOT, slow_when
from shutthebox import registry
from shutthebox.engine.notation import format_set, parse_set
from shutthebox.errors import InvalidQuery, TableError


def command(*args, stdin=None, **kwargs):
    return subprocess.run([sys.executable, COMMAND, *args], input=stdin, capture_output=True, text=True,
                          timeout=120, cwd=ROOT, **kwargs)


@pytest.mark.parametrize("tiles", [9, 10, 11, 12, 16])
def test_a_set_is_printed_so_that_it_reads_back_the_same(tiles):
    for mask in range(1 << tiles):
        text = format_set(mask, tiles)
        assert parse_set(text, tiles) == mask, (tiles, mask, text)
        if tiles > 9 and mask.bit_count() > 1:
            assert "," in text


@pytest.mark.parametrize("tiles, lines", [
    (12, ["--two --expect 3,4,7,9,11,12 42", "--one --expect 12,", "--one --expect 1,2", "--one --expect 12",
          "--one --move 12, 12", "--two --move 1,2,10 20 3"]),
    (10, ["--one --expect 79", "--one --expect 7,9", "--one --expect 10,", "--two --expect 10 5"]),
])
def test_a_batch_on_more_than_nine_tiles_answers_as_single_questions_do(tiles, lines):
    batch = command("--tiles", str(tiles), "--batch", stdin="".join(line + "\n" for line in lines))
    assert "Traceback" not in batch.stderr and len(batch.stdout.splitlines()) == len(lines), batch.stderr
    for line, answered in zip(lines, batch.stdout.splitlines()):
        single = command("--tiles", str(tiles), *line.split())
        expected = single.stdout.strip() if single.returncode == 0 else "error: " + single.stderr.split(": ", 1)[1].strip()
        assert answered == expected, line


@pytest.mark.parametrize("args, words", [
    (["toggle", "--expect", ""], "write none"),
    (["toggle", "--expect", ","], "write none"),
    (["toggle", "--expect", " "], "write none"),
    (["--players", "3", "--scores", "", "--expect", "1"], "write none"),
    (["--players", "3", "--scores", ",", "--expect", "1"], "write none"),
])
def test_empty_text_is_refused_and_the_empty_set_is_none(args, words):
    done = command(*args)
    assert done.returncode == 2 and words in done.stderr and done.stderr.count("\n") == 1, done.stderr


def test_none_is_the_empty_set():
    assert command("toggle", "--expect", "none").stdout == "0.000000\n"
    first = command("--players", "3", "--expect", "123456789", "--scores", "none")
    assert first.returncode == 0 and first.stdout == command("--players", "3", "--one", "--expect", "123456789").stdout


def test_an_explicit_variant_must_be_the_table_s():
    asked = command("--solo", "--variant", "standard", "--expect", "123456789", "--table",
                    os.path.join(ROOT, "data", "solo-two-dice.msgpack"))
    assert asked.returncode == 3 and "as asked" in asked.stderr
    own = command("--solo", "--expect", "123456789", "--table", os.path.join(ROOT, "data", "solo-two-dice.msgpack"))
    assert own.stdout == command("--solo", "--variant", "two-dice", "--expect", "123456789").stdout == "0.071432\n"


@pytest.mark.parametrize("game", [[], ["toggle"], ["goat"], ["yazy"]])
def test_a_batch_with_standard_output_closed_is_one_line(game):
    done = subprocess.run([sys.executable, COMMAND, *game, "--batch"], input="--expect all\n", stdout=None,
                          stderr=subprocess.PIPE, text=True, timeout=120, close_fds=True,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 1 and done.stderr.count("\n") == 1 and "cannot write" in done.stderr, done.stderr


def analysis_words():
    """(game words, analysis word) for every analysis command of every game of the registry."""
    return [([] if game == registry.DEFAULT else [game], word) for game in registry.GAMES
            for word in registry.grammar(game).COMMANDS]


@pytest.mark.parametrize("game, word", analysis_words())
def test_an_analysis_command_with_standard_output_closed_says_so(game, word):
    """``ShutTheBox [GAME] WORD >&-`` printed nothing and exited 0 (Shut the Box's simulate: a traceback): it
    says so in one line, exit 1, before any work (engine/analysis.py run_command)."""
    done = subprocess.run([sys.executable, COMMAND, *game, word], stdout=None, stderr=subprocess.PIPE, text=True,
                          timeout=120, close_fds=True, preexec_fn=lambda: os.close(1), cwd=ROOT)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "cannot write the output (standard output is closed)" in done.stderr, done.stderr


@pytest.mark.parametrize("args", [["simulate", "--games", "10"], ["report", "--published"], ["goat", "turns"]])
def test_an_analysis_command_whose_output_cannot_be_written_says_so(args):
    with open(os.devnull if not os.path.exists("/dev/full") else "/dev/full", "w") as full:
        done = subprocess.run([sys.executable, COMMAND, *args], stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=120, cwd=ROOT)
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr
    assert "cannot write the output (No space left on device)" in done.stderr, done.stderr


def test_a_table_that_cannot_be_read_is_a_table_problem():
    done = command("--table", "/proc/self/mem", "--one", "--expect", "1")
    assert done.returncode == 3 and "cannot read table file" in done.stderr


def test_a_nul_byte_in_a_table_path_is_a_table_error():
    import shutthebox
    from shutthebox.games.goat.table import load as load_goat
    from shutthebox.games.toggle.table import load as load_toggle
    from shutthebox.games.yazy.table import load as load_yazy

    for load in (shutthebox.load, lambda path: shutthebox.load_solo(path=path), lambda path: load_goat(path=path),
                 lambda path: load_toggle(path=path), load_yazy):
        with pytest.raises(TableError):
            load("data/standard\0.msgpack")


@pytest.mark.parametrize("args", [(3, 50, 60), ("one", 50, 60), (True, 50, 60), (1, 50.0, 60), (1, "50", 60),
                                  (1, 50, 60, 2.5, 1), (1, 50, 60, 2, 2.5), (2, 50, None), (1, 50, 60, True, 1)])
def test_goat_s_api_refuses_malformed_arguments(args):
    from shutthebox.games.goat.table import load

    table = load()
    with pytest.raises(InvalidQuery):
        table.probe_win(*args)
    assert table.get_win(*args, default="none") == "none"


@pytest.mark.parametrize("args", [(5000, "13366", 2), (True, "13366", 2), ("all", 13366, 2), ("all", "13366", 2.0), ("all", None, 1),
                                  ("all", [1, 3, 3, 6, "6"], 1), ("all", "13366", "x"), (["ones"], "13366", 2)])
def test_yazy_s_api_refuses_malformed_arguments(args):
    from shutthebox.games.yazy.table import load

    table = load()
    with pytest.raises(InvalidQuery):
        table.probe_move(*args)
    assert table.get_move(*args, default="none") == "none"


def test_a_batch_on_a_one_player_table_answers_its_solo_questions():
    lines = "--solo --expect 123456789\n--solo --move 12345 7\n--one --expect 1\n"
    batch = command("--batch", "--table", os.path.join(ROOT, "data", "solo-standard.msgpack"), stdin=lines)
    single = command("--solo", "--expect", "123456789", "--table", os.path.join(ROOT, "data", "solo-standard.msgpack"))
    out = batch.stdout.splitlines()
    assert out[0] == single.stdout.strip() and out[1] == command("--solo", "--move", "12345", "7").stdout.strip()
    assert out[2].startswith("error: ") and "one-player table" in out[2] and batch.returncode == 1


@pytest.mark.parametrize("length, refused", [(65536, False), (65537, True), (100 * 1024, True)])
def test_a_batch_line_longer_than_64_kib_is_refused_wherever_the_reads_cut_it(length, refused):
    question = "--one --expect 1"
    lines = "--one --expect 123456789\n" * 3000 + question + " " * (length - len(question)) + "\n--one --expect 12\n"
    out = command("--batch", stdin=lines).stdout.splitlines()
    assert len(out) == 3002 and out[-1] == "0.874117"
    assert out[-2].startswith("error: the line is longer") == refused, out[-2][:60]


def test_a_relative_home_is_named_as_such(tmp_path):
    env = {key: value for key, value in os.environ.items() if key not in ("SHUTTHEBOX_CACHE", "XDG_CACHE_HOME")}
    done = command("--tiles", "5", "--one", "--expect", "1", env=dict(env, HOME="relative"))
    assert done.returncode == 3 and "HOME is not an absolute path ('relative')" in done.stderr
    done = command("--tiles", "5", "--one", "--expect", "1", env={k: v for k, v in env.items() if k != "HOME"})
    assert done.returncode == 3 and "HOME is not set" in done.stderr


def test_a_solve_too_big_for_the_limit_is_refused_before_it_starts(tmp_path):
    args = ["--tiles", "12", "--players", "8", "--scores", "1,1,1,1,1,1,1", "--expect", "1,2"]
    env = dict(os.environ, SHUTTHEBOX_CACHE=str(tmp_path))
    env.pop("SHUTTHEBOX_ALLOW_LARGE", None)
    done = command(*args, env=env)
    assert done.returncode == 2 and "304 MB table" in done.stderr and "--allow-large" in done.stderr, done.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.slow
def test_a_long_solve_says_its_cost_first(tmp_path):
    done = command("toggle", "--cards", "14", "--sides", "8", "--expect", "all",
                   env=dict(os.environ, SHUTTHEBOX_CACHE=str(tmp_path)))
    assert done.returncode == 0 and done.stdout == "45.600730\n"
    assert done.stderr.startswith("ShutTheBox: solving toggle-c14-s8.msgpack: a 1.18 MB table, about ")


def test_a_missing_numpy_is_said_before_a_solve_s_cost(tmp_path):
    """A first use whose solver needs numpy, without numpy (hidden by a package of that name that fails to
    import): the one line says numpy is missing, not the solve's cost first; nothing is solved or written."""
    hidden = tmp_path / "hidden" / "numpy"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text('raise ImportError("numpy is hidden by a test", name="numpy")\n')
    env = dict(os.environ, SHUTTHEBOX_CACHE=str(tmp_path / "cache"), PYTHONPATH=str(hidden.parent))
    done = command("yazy", "--target", "200", "--expect", env=env)  # a 20 s solve: its cost would be said
    assert done.returncode == 4 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and "numpy package is missing" in done.stderr, done.stderr
    assert not (tmp_path / "cache").exists()


# -0 is 0 wherever a whole number is read, in every game, as the pages and web/answer.mjs read it:
# (game, a question with -0, the same question with 0).
MINUS_ZERO = [
    ("shutthebox", "--two --expect 123 -0", "--two --expect 123 0"),
    ("shutthebox", "--one --move 123 -0", "--one --move 123 0"),
    ("goat", "--solo --expect -0", "--solo --expect 0"), ("pig", "--expect -0 0 -0", "--expect 0 0 0"),
    ("toggle", "--move all -0 1", "--move all 0 1"), ("yazy", "--expect all 13366 -0", "--expect all 13366 0"),
    ("yazy", "--target -0 --expect ones", "--target 0 --expect ones"),
    ("yahtzee", "--expect all --upper -0", "--expect all --upper 0"),
]


# yazy's target question solves its table on first use (about 10 s here): slow.
@pytest.mark.parametrize("game, minus, plain", slow_when(MINUS_ZERO, [MINUS_ZERO[6]], unpack=True))
def test_minus_zero_is_zero_in_every_game(game, minus, plain):
    def answer(question):
        try:
            return registry.grammar(game).open_game({}, None).answer(question.split())
        except InvalidQuery as error:
            return "error: %s" % error

    assert answer(minus) == answer(plain)


def test_a_solve_that_cannot_fit_in_the_cache_is_refused(monkeypatch, tmp_path):
    import shutil

    from shutthebox.engine import store
    from shutthebox.engine.game import Estimate

    monkeypatch.setattr(shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(10**9, 10**9 - 10**5, 10**5))
    with pytest.raises(TableError, match="MB free"):
        store.check_estimate("t.msgpack", Estimate(10**7, 10**8, 1), str(tmp_path / "cache"))


def test_a_layered_solve_counts_its_checkpoints_on_disk(monkeypatch, tmp_path):
    """A 30 MB table whose layers keep 60 MB on disk while it solves needs 90 MB free, not 30."""
    import shutil

    from shutthebox.engine import store
    from shutthebox.engine.game import Estimate

    monkeypatch.setattr(shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(10**9, 10**9 - 5 * 10**7, 5 * 10**7))
    store.check_estimate("t.msgpack", Estimate(3 * 10**7, 10**8, 0.1), str(tmp_path))  # fits without scratch
    with pytest.raises(TableError, match=r"needs 90 MB .*60 MB of working files.*50 MB free"):
        store.check_estimate("t.msgpack", Estimate(3 * 10**7, 10**8, 0.1, scratch=6 * 10**7), str(tmp_path))
    from shutthebox.games.yazy.duel.rules import estimate as duel_estimate, rules_of

    whole = duel_estimate(rules_of({"categories": "all"}))
    assert whole.scratch > whole.size > 10**9  # the whole duel: its checkpoints and the table's chances on disk


def api_tables():
    """Every game's table classes as a program meets them: (name, table, its probe_* methods)."""
    import shutthebox
    from shutthebox.games.goat.table import load as load_goat
    from shutthebox.games.toggle.table import load as load_toggle
    from shutthebox.games.yazy.table import load as load_yazy

    tables = {"two-player": shutthebox.load(), "one-player": shutthebox.load_solo(), "toggle": load_toggle(),
              "goat": load_goat(), "yazy": load_yazy()}
    questions = {"two-player": ["expect_one", "move_one", "expect_two", "move_two", "expect", "move", "dice"],
                 "one-player": ["shut_probability", "expected_score", "expect", "move"]}
    return {name: (table, sorted(attr for attr in dir(table) if attr.startswith("probe_")) + questions.get(name, []))
            for name, table in tables.items()}


ODD_VALUES = [0, 1, 2, 3, -1, 5, 12, 13, 100, 10**30, -10**30, True, False, 2.5, float("nan"), None, "", " ",
              "none", "all", "1,2", "12,", "146789", "abc", "\0", "9" * 5000, b"12", [1, 2], [], (3,), {"a": 1},
              {1, 2}, object()]


@pytest.mark.parametrize("name", ["two-player", "one-player", "toggle", "goat", "yazy"])
def test_the_api_answers_or_refuses_any_arguments_never_crashes(name):
    """probe_* returns a value or raises InvalidQuery; get_* returns its default there (seeded draws of
    odd values for every argument, several thousand calls per table)."""
    import inspect
    import random

    table, probes = api_tables()[name]
    rng = random.Random(name)
    calls = 0
    for probe in probes:
        method = getattr(table, probe)
        required = [p for p in inspect.signature(method).parameters.values() if p.default is inspect.Parameter.empty]
        optional = len(inspect.signature(method).parameters) - len(required)
        for _ in range(600):
            args = [rng.choice(ODD_VALUES) for _ in range(len(required) + rng.randint(0, optional))]
            calls += 1
            try:
                method(*args)
            except InvalidQuery:
                if probe.startswith("probe_"):
                    getter = getattr(table, "get_" + probe[len("probe_"):])
                    assert getter(*args, default="refused") == "refused", (probe, args)
    assert calls >= 600


# -- a batch's quick paths answer exactly as the reference path ---------------------------------------------------

MUTATIONS = (
    lambda words, rng: words,  # canonical: the quick path's own
    lambda words, rng: words[:-1],  # a number short
    lambda words, rng: words + [words[-1]],  # a number too many
    lambda words, rng: [("0" + w if w.isdigit() else w) for w in words],  # leading zeros: not canonical
    lambda words, rng: [(str(int(w) + rng.choice((-99, -1, 1, 63, 99))) if w.isdigit() else w) for w in words],
    lambda words, rng: _shift_one(words, rng),
    lambda words, rng: rng.sample(words, len(words)),  # any order
    lambda words, rng: words[:1] + ["--bogus"] + words[1:],
    lambda words, rng: [w.upper() for w in words],
)


def _shift_one(words, rng):
    """One number moved, maybe out of its range (a Goat total past the goal, a roll the dice cannot show)."""
    numbers = [n for n, word in enumerate(words) if word.isdigit()]
    if numbers:
        n = rng.choice(numbers)
        words = words[:n] + [str(max(0, int(words[n]) + rng.randint(-3, 70)))] + words[n + 1:]
    return words


@pytest.mark.parametrize("game", list(registry.GAMES))
def test_a_batch_answers_every_line_as_the_reference_path_does(game):
    """The batch's inline paths (canonical lines straight from the arrays) against ``remembered_lines``
    (each line through ``session.answer``): the lines users send (bench's generators) and lines near them."""
    import random

    sys.path.insert(0, os.path.join(ROOT, "bench"))
    try:
        from bench import BATCH_LINES
    finally:
        sys.path.pop(0)
    from shutthebox.engine.command import Memo, remembered_lines

    rng = random.Random(640)
    count = 300 if game == "yahtzee" else 6000
    assert game in BATCH_LINES, "bench/bench.py has no generator of %s's questions (BATCH_LINES)" % game
    lines = []
    for n in range(count):
        words = BATCH_LINES[game](rng).split()
        lines.append(" ".join(MUTATIONS[n % len(MUTATIONS)](words, rng)))
    if game == "goat":  # the fixed strategies' question, which users ask too
        lines += ["--solo --expect %d --dice %d --stop-at %d" % (rng.randrange(-1, 101), rng.randrange(8),
                                                                 rng.randrange(70)) for _ in range(500)]
    lines += ["", "   ", "--rules", "--expect"]
    grammar = registry.grammar(game)
    quick, _ = grammar.open_game({}, None).answer_lines(lines)
    reference, _ = remembered_lines(grammar.open_game({}, None), lines, Memo())
    for line, got, wanted in zip(lines, quick, reference):
        assert got == wanted, line
    assert sum(not text.startswith("error:") for text in reference) > count // 10  # not only refusals


def test_a_batch_remembers_answers_within_a_bounded_number_of_characters(monkeypatch):
    """Long answers (a Yahtzee --options line is ~0.5 kB) stop being remembered when the memo's characters run
    out; every line is still answered, and a remembered line is not asked again."""
    from shutthebox.engine import command

    monkeypatch.setattr(command, "MEMO_CHARACTERS", 1000)

    class Session:
        asked = 0

        def answer(self, tokens):
            Session.asked += 1
            return tokens[0] * 100

    memo = command.Memo()
    lines = ["q%d" % number for number in range(20)]
    out, ok = command.remembered_lines(Session(), lines + lines, memo)
    assert ok and out == [line * 100 for line in lines + lines]
    kept = len(memo)
    assert 0 < kept < 20 and memo.room >= 0
    assert sum(len(line) + len(answer) for line, (answer, _) in memo.items()) <= 1000
    assert Session.asked == 40 - kept  # the remembered lines were answered once
