"""Two-player yazy (--players 2): the table's chances, mid-turn chances and moves equal an independent exact
solver's on games of one and two categories; refusals; the query path; the same bytes on 1 and 2 workers.

The independent solver below is written from the rules alone: Fractions, a direct recursion over (A, B, d)
and the dice (every throw of the dice not kept, every keep), sharing no code with the project's turn.
"""

import ast
import os
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product

import pytest

from conftest import ROOT, run
from shutthebox.errors import InvalidQuery, TableError
from shutthebox.games.yazy.duel.table import load_duel
from shutthebox.games.yazy.rules import Rules

NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house", "straight",
         "yazy")
BOUND = 2e-13  # the table's absolute error bound (solver.py)


def points(name, dice):
    counts = Counter(dice)
    if name in NAMES[:6]:
        face = NAMES.index(name) + 1
        return face * counts[face]
    top = max(counts.values())
    if name == "three-kind":
        return sum(dice) if top >= 3 else 0
    if name == "four-kind":
        return sum(dice) if top >= 4 else 0
    if name == "full-house":
        return 25 if sorted(counts.values()) == [2, 3] else 0
    if name == "straight":
        return 40 if set(dice) >= {2, 3, 4, 5} and (1 in dice or 6 in dice) else 0
    return 50 if top == 5 else 0


@lru_cache(maxsize=None)
def throws(k):
    """((sorted dice, chance), ...) of throwing k dice."""
    found = Counter(tuple(sorted(t)) for t in product(range(1, 7), repeat=k))
    return tuple((dice, Fraction(n, 6**k)) for dice, n in found.items())


@lru_cache(maxsize=None)
def kept(dice):
    """The proper sub-multisets of the sorted dice."""
    return sorted({tuple(dice[i] for i in where) for n in range(5) for where in combinations(range(5), n)})


class Duel:
    """W(mine, theirs, d) exactly: mine and theirs are frozensets of category names."""

    def __init__(self, names):
        self.names = tuple(names)
        self.memo = {}

    def win(self, mine, theirs, d):
        if not mine and not theirs:
            return Fraction(1) if d > 0 else Fraction(1, 2) if d == 0 else Fraction(0)
        key = (mine, theirs, d)
        if key not in self.memo:
            turn = {}
            self.memo[key] = sum(p * self.value(mine, theirs, d, dice, 2, turn) for dice, p in throws(5))
        return self.memo[key]

    def options(self, mine, theirs, d, dice, rerolls, turn=None):
        """[(exact chance, move words)] of every choice with ``dice`` showing and ``rerolls`` left."""
        turn = {} if turn is None else turn
        out = [(1 - self.win(theirs, mine - {c}, -(d + points(c, dice))), "score " + c)
               for c in self.names if c in mine]
        if rerolls:
            for keep in kept(dice):
                out.append((self.mean(mine, theirs, d, keep, rerolls - 1, turn),
                            "keep " + (" ".join(map(str, keep)) or "none")))
        return out

    def value(self, mine, theirs, d, dice, rerolls, turn):
        key = (dice, rerolls)
        if key not in turn:
            turn[key] = max(chance for chance, _ in self.options(mine, theirs, d, dice, rerolls, turn))
        return turn[key]

    def mean(self, mine, theirs, d, keep, rerolls, turn):
        key = ("keep", keep, rerolls)
        if key not in turn:
            turn[key] = sum(p * self.value(mine, theirs, d, tuple(sorted(keep + t)), rerolls, turn)
                            for t, p in throws(5 - len(keep)))
        return turn[key]


def mask(names) -> int:
    return sum(1 << NAMES.index(name) for name in names)


def text(names) -> str:
    return ",".join(names) or "none"


def totals(table, mine, theirs, d) -> str:
    """"S1,S2": totals the closed categories can make, the mover's ahead by ``d``."""
    mover, other = (table.cats & ~mask(names) for names in (mine, theirs))
    return next("%d,%d" % (s1, s1 - d) for s1 in range(300)
                if table.reachable(mover) >> s1 & 1 and s1 - d >= 0 and table.reachable(other) >> (s1 - d) & 1)


GAMES = [("ones",), pytest.param(("full-house", "yazy"), marks=pytest.mark.slow)]


@lru_cache(maxsize=None)
def solved(names):
    """(the table, the exact solver with every state reached from the start solved)."""
    duel = Duel(names)
    duel.win(frozenset(names), frozenset(names), 0)
    return load_duel(Rules(categories=",".join(names))), duel


@pytest.mark.parametrize("names", GAMES)
def test_every_reached_state_equals_the_exact_chance(names):
    table, duel = solved(names)
    firsts = seconds = 0
    for (mine, theirs, d), exact in duel.memo.items():
        assert abs(table.chance(mask(mine), mask(theirs), d) - exact) <= BOUND, (mine, theirs, d)
        if len(mine) == len(theirs):
            firsts += 1
        else:
            seconds += 1
        scores = totals(table, mine, theirs, d)
        assert abs(table.probe_win(text(sorted(mine)), text(sorted(theirs)), scores) - exact) <= BOUND
    assert firsts and seconds


def test_the_second_mover_ties_at_the_edge():
    """yazy alone, the opponent 50 ahead: only a yazy of one's own ties (half a win); 47 ahead (no game's
    total, so only the exact solver is asked), it wins. The
    chance of a yazy in three rolls is 2783176 / 6^10 (keep the most of one face)."""
    table, duel = solved(("yazy",))
    yazy = Fraction(2783176, 6**10)
    assert duel.win(frozenset({"yazy"}), frozenset(), -50) == yazy / 2
    assert duel.win(frozenset({"yazy"}), frozenset(), -47) == yazy
    assert "%.6f" % table.probe_win("yazy", "none", "0,50") == "%.6f" % (yazy / 2)
    with pytest.raises(InvalidQuery, match="not a sum"):  # no game of yazy alone reaches a total of 47
        table.probe_win("yazy", "none", "0,47")
    # level: a miss ties, a yazy wins
    assert abs(table.probe_win("yazy", "none", "0,0") - (Fraction(1, 2) + yazy / 2)) <= BOUND
    assert abs(table.probe_win("yazy", "yazy", "0,0") - 0.5) <= BOUND  # the same chances: a fair game


# (A, B, d) of the two-category game: the first mover at the start, the second after a full house, after a yazy,
# a first mover behind, the last turn.
MID_TURN = [(("full-house", "yazy"), ("full-house", "yazy"), 0), (("full-house", "yazy"), ("yazy",), -25),
            (("full-house", "yazy"), ("full-house",), -50), (("yazy",), ("yazy",), -25), (("yazy",), (), -25)]
DICE = ("11111", "22333", "12345", "66653", "22456")


@pytest.mark.slow
@pytest.mark.parametrize("state", MID_TURN, ids=str)
def test_mid_turn_chances_moves_and_options_equal_the_exact_solver(state):
    table, duel = solved(("full-house", "yazy"))
    mine, theirs, d = state
    scores = totals(table, mine, theirs, d)
    for dice in DICE:
        for rerolls in (0, 1, 2):
            exact = duel.options(frozenset(mine), frozenset(theirs), d, tuple(sorted(map(int, dice))), rerolls)
            top = max(chance for chance, _ in exact)
            args = (text(mine), text(theirs), scores, dice, rerolls)
            assert abs(table.probe_win(*args) - top) <= BOUND, (args, float(top))
            options, want = {words: chance for chance, words in table.probe_options(*args)}, {
                words: chance for chance, words in exact}
            assert sorted(options) == sorted(want)
            assert all(abs(options[words] - want[words]) <= BOUND for words in want)
            move = table.probe_move(*args)
            chosen = want[move]
            assert chosen >= top - Fraction(1, 10**11), (args, move)
            runner_up = sorted((chance for chance, _ in exact), reverse=True)[1:2]
            if not runner_up or top - runner_up[0] > Fraction(1, 10**10):
                assert chosen == top  # a clear best move is the exact solver's


def test_the_command_answers_and_refuses_in_one_line():
    game = ("--categories", "yazy")
    answered = run("yazy", *game, "--players", "2", "--expect", "all", "none", "--scores", "0,50")
    assert (answered.returncode, answered.stdout) == (0, "%.6f\n" % (Fraction(2783176, 6**10) / 2))
    moved = run("yazy", *game, "--players", "2", "--move", "all", "all", "--scores=0,0", "66653", "1")
    assert (moved.returncode, moved.stdout) == (0, "keep 6 6 6\n")
    batch = run("yazy", *game, "--batch", stdin="--players 2 --expect all none --scores 0,50\n"
                "--players 2 --move all all --scores 0,0 66653 1\n--expect all\n")
    assert batch.stdout.splitlines()[:2] == [answered.stdout.strip(), "keep 6 6 6"]
    for args, words in [
            (("--expect", "all", "all", "--scores", "0,0", "--players", "3"), "--players is 1 or 2"),
            (("--players", "2", "--expect", "all", "all"), "--scores S1,S2"),
            (("--expect", "all", "--scores", "0,0"), "add --players 2"),
            (("--players", "2", "--expect", "all", "none", "--scores", "0,0", "--target", "5"), "one-player"),
            (("--players", "2", "--expect", "none", "all", "--scores", "0,0"), "first in the round"),
            (("--players", "2", "--expect", "all", "all", "--scores", "0,x"), "S1,S2"),
            (("--players", "2", "--expect", "all", "all", "--scores", "1,0"), "more than its closed categories"),
            (("--players", "2", "--expect", "all", "none", "--scores", "0,7"), "not a sum its closed categories"),
            (("--players", "2", "--options", "all", "all", "--scores", "0,0"), "takes A B DICE REROLLS"),
            (("--players", "2", "--expect", "ones", "all", "--scores", "0,0"), "not played in this game"),
            (("--players", "2", "--move", "all", "all", "--scores", "0,0"), "takes A B DICE REROLLS"),
            (("--players", "2", "--expect", "all", "all", "--scores", "0,0", "66653", "3"), "rerolls")]:
        refused = run("yazy", *game, *args)
        assert refused.returncode == 2 and refused.stdout == "", args
        assert words in refused.stderr and refused.stderr.count("\n") == 1, (args, refused.stderr)


def test_a_stored_chance_near_a_rounding_midpoint_is_refused():
    table, _ = solved(("ones",))
    code = table.pair(mask(("ones",)), mask(("ones",)))
    table._unsure_positions = {table._start[code] + 0 - table._first[code]}  # the start's chance, at lead 0
    try:
        with pytest.raises(InvalidQuery, match="cannot be vouched for"):
            table.probe_win("all", "all", "0,0")
    finally:
        table._unsure_positions = None


def test_a_mid_turn_chance_near_a_rounding_midpoint_refuses_the_question(monkeypatch, capsys):
    from shutthebox.cli import main
    from shutthebox.games.yazy.duel import turn

    table, _ = solved(("ones",))
    monkeypatch.setattr(turn, "ERROR_BOUND", 1.0)  # every chance is then that close to a midpoint
    with pytest.raises(InvalidQuery, match="cannot be vouched for"):
        table.probe_win("all", "all", "0,0", "11166", 1)
    assert table.get_win("all", "all", "0,0", "11166", 1) is None
    # a refused question (exit status 2), not a damaged table (3)
    assert main(["yazy", "--categories", "ones", "--players", "2", "--options", "all", "all", "--scores", "0,0",
                 "11166", "1"]) == 2
    err = capsys.readouterr().err
    assert "cannot be vouched for" in err and err.count("\n") == 1, err


def test_a_table_of_other_categories_is_refused(tmp_path):
    path = load_duel(Rules(categories="ones")).path
    with pytest.raises(TableError):
        load_duel(Rules(categories="yazy"), path=path)


def test_table_names_a_two_player_table_with_its_own_rules():
    path = load_duel(Rules(categories="yazy")).path
    answered = run("yazy", "--table", path, "--players", "2", "--expect", "all", "none", "--scores", "0,50")
    assert (answered.returncode, answered.stdout) == (0, "%.6f\n" % (Fraction(2783176, 6**10) / 2))
    other = run("yazy", "--categories", "ones", "--table", path, "--players", "2", "--expect", "all", "all",
                "--scores", "0,0")
    assert other.returncode == 3 and "not a yazy-duel table" in other.stderr


# Nothing imported before ``before`` is taken (as tests/test_query_path.py probes).
PROBE = """
import sys
before = set(sys.modules)
from shutthebox.cli import main
status = main(%r)
print(repr({"status": status, "new": sorted(set(sys.modules) - before)}))
"""


@pytest.mark.parametrize("question", [["--expect", "all", "yazy", "--scores", "0,0"],
                                      ["--move", "all", "yazy", "--scores", "0,0", "12345", "2"]])
def test_a_question_imports_no_numpy_once_the_table_is_solved(question):
    from test_query_path import query_time

    load_duel(Rules(categories="ones,yazy"))  # solved into this session's cache
    argv = ["yazy", "--categories", "ones,yazy", "--players", "2", *question]
    result = subprocess.run([sys.executable, "-c", PROBE % (argv,)], capture_output=True, text=True, cwd=ROOT,
                            timeout=120, env=dict(os.environ))
    probe = ast.literal_eval(result.stdout.splitlines()[-1])
    assert probe["status"] == 0, result.stderr
    assert "numpy" not in probe["new"]
    ours = [name for name in probe["new"] if name.startswith("shutthebox")]
    assert all(query_time(name) for name in ours), sorted(name for name in ours if not query_time(name))


def test_the_same_bytes_on_one_and_two_workers(tmp_path):
    pytest.importorskip("distributed", reason="the cluster extra is not installed")
    from shutthebox.games.yazy.duel.build import solve_table

    rules = Rules(categories="ones,twos,yazy")
    one = solve_table(rules, workers=1, checkpoint=str(tmp_path / "one"))
    # the workers start at once (a small build would otherwise finish before they are worth starting)
    assert solve_table(rules, workers=2, checkpoint=str(tmp_path / "two"), serial_seconds=0) == one


@pytest.mark.slow
def test_the_policies_played_against_each_other():
    """The win-chance moves against themselves give the table's chance; the expected-score moves against
    themselves, blind to the lead, give each player the same chance (1/2); each policy does at least as well
    against the other as the other does against it, on the game ones,yazy."""
    from shutthebox.games.yazy.duel.compare import Duel as Played

    rules = Rules(categories="ones,yazy")
    played = Played(rules)
    played.solve()
    start = (rules.mask, rules.mask, 0)
    assert abs(played.chance("win", "win", *start) - load_duel(rules).probe_win("all", "all", "0,0")) <= 1e-10
    assert abs(played.chance("score", "score", *start) - 0.5) <= BOUND
    assert played.chance("win", "score", *start) > 0.5 > played.chance("score", "win", *start)
    assert 0 < played.differ() < 3 * 252



def test_the_build_lists_the_values_near_a_rounding_midpoint():
    """A value within 2e-13 of x.xxxxxx5 is listed (its 6th decimal cannot be vouched for), one just outside
    is not; the list is the same read in chunks or whole."""
    import numpy as np

    from shutthebox.games.yazy.duel.build import fixed_point, unsure_indexes

    win = np.array([0.1234565, 0.1234565 + 1e-13, 0.1234565 + 5e-13, 0.5, 0.0000005, 1.0, 0.25])
    high, low = fixed_point(win)
    assert unsure_indexes(high, low).tolist() == [0, 1, 4]
    assert unsure_indexes(high, low, chunk=2).tolist() == [0, 1, 4]


def test_a_stored_chance_is_within_2_to_the_minus_48_of_the_solved_one():
    """48-bit fixed point: 0 and 1/2 exactly, 1 as 1 - 2^-48, every chance within 2^-48 (below 1 - 2^-49:
    within 2^-49), the same in chunks or whole."""
    import numpy as np

    from shutthebox.games.yazy.duel.build import fixed_point, stored

    win = np.concatenate(([0.0, 0.5, 1.0, 1 - 2**-53, 2**-60], np.random.default_rng(5).random(10_000)))
    high, low = fixed_point(win)
    back = stored(high, low)
    assert back[:3].tolist() == [0.0, 0.5, 1 - 2**-48]
    assert np.abs(back - win).max() <= 2**-48
    assert np.abs(back - win)[4:].max() <= 2**-49
    assert high.dtype == np.dtype("<u4") and low.dtype == np.dtype("<u2")
    assert [a.tolist() for a in fixed_point(win, chunk=7)] == [high.tolist(), low.tolist()]


@pytest.mark.slow
def test_played_out_games_agree_with_the_exact_policy_chances():
    """simulate.py's estimates (seeded, so the same every run) lie within four standard errors of
    compare.py's exact chances on ones,yazy; runs side by side merge into the run of all their games."""
    from shutthebox.games.yazy.duel.compare import Duel as Exact
    from shutthebox.games.yazy.duel.simulate import merged, play, summary

    rules = Rules(categories="ones,yazy")
    exact = Exact(rules)
    exact.solve()
    tally = play(rules, 1500, seed=3)
    for first, second in (("win", "score"), ("score", "win")):
        n, gain, squares = tally["games"], tally[first + "-" + second], tally[first + "-" + second + " gain^2"]
        error = ((squares / n - (gain / n) ** 2) / (n - 1)) ** 0.5
        assert abs(0.5 + gain / n - exact.chance(first, second, rules.mask, rules.mask, 0)) <= 4 * error
    assert 0 < tally["differ"] < tally["decisions"]
    halves = merged([play(rules, 700, seed=3), play(rules, 800, seed=3, start=700)])
    assert summary(halves) == summary(tally)


def test_each_category_s_points_are_what_it_can_score():
    """duel/rules.py's POINTS, written out for the query path, are rules.score over every roll."""
    from shutthebox.games.yazy.duel.rules import BEST, POINTS
    from shutthebox.games.yazy.rules import CATEGORIES, ROLLS, score

    assert POINTS == tuple(tuple(sorted({score(c, roll) for roll in ROLLS})) for c in range(len(CATEGORIES)))
    assert BEST == tuple(max(score(c, roll) for roll in ROLLS) for c in range(len(CATEGORIES)))


def test_totals_the_closed_categories_cannot_make_are_refused():
    """A total is a sum of what each closed category can score: yazy alone makes 0 or 50, ones and yazy 0 to
    5 and 50 to 55; the rest is refused (the command's refusals are in the test above)."""
    table, _ = solved(("ones",))
    big = load_duel(Rules(categories="ones,yazy"))
    for scores in ("0,0", "0,50", "50,55", "50,3"):  # the mover has yazy closed, the opponent both
        big.probe_win("ones", "none", scores)
    for scores, whose in (("6,0", "mover's"), ("0,6", "opponent's"), ("49,0", "mover's"), ("0,49", "opponent's")):
        with pytest.raises(InvalidQuery, match="the %s total .* is not a sum its closed categories" % whose):
            big.probe_win("ones", "none", scores)
    assert table.reachable(0) == 1 and big.reachable(mask(("yazy",)) << 0) == 1 | 1 << 50


def test_options_list_every_choice_best_first_as_the_move_and_the_chance_say():
    """--options: the first choice is --move's, its chance --expect's mid-turn, each loss the gap to the
    best; the command, --batch and Python give the same line."""
    table = load_duel(Rules(categories="ones,yazy"))
    args = ("all", "all", "0,0", "13366", 2)
    line = table.options_line(*args)
    listed = [part.rsplit(" ", 2) for part in line.split("; ")]
    assert listed[0][0] == table.probe_move(*args)
    assert listed[0][1:] == ["%.6f" % table.probe_win(*args), "0.000000"]
    chances = {move: chance for chance, move in table.probe_options(*args)}
    assert sorted(move for move, _, _ in listed) == sorted(chances)
    assert [float(chance) for _, chance, _ in listed] == sorted((float(chance) for _, chance, _ in listed), reverse=True)
    for move, chance, loss in listed:
        assert chance == "%.6f" % chances[move]
        assert loss == "%.6f" % (max(chances.values()) - chances[move])
    game = ("yazy", "--categories", "ones,yazy", "--players", "2")
    assert run(*game, "--options", "all", "all", "--scores", "0,0", "13366", "2").stdout == line + "\n"
    batch = run("yazy", "--categories", "ones,yazy", "--batch",
                stdin="--players 2 --options all all --scores 0,0 13366 2\n")
    assert batch.stdout == line + "\n"


def test_a_forged_start_is_refused_in_one_line(tmp_path):
    """Checksums right, a row pointing past the chances: exit status 3 and one line (the command), TableError
    (Python), never an index error."""
    from forge import forge

    table, _ = solved(("ones",))
    with open(table.path, "rb") as handle:
        data = handle.read()
    code = table.pair(mask(("ones",)), mask(("ones",)))
    forged = tmp_path / "forged.msgpack"
    forged.write_bytes(forge(data, "start", code, 100_000))
    done = run("yazy", "--categories", "ones", "--players", "2", "--expect", "all", "all", "--scores", "0,0",
               "--table", str(forged))
    assert done.returncode == 3 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert "impossible value: start[" in done.stderr
    with pytest.raises(TableError, match="impossible value"):
        load_duel(Rules(categories="ones"), str(forged)).probe_win("all", "all", "0,0")


@pytest.mark.parametrize("other", ["goat-g5.msgpack", "yazy-ones.yazy.msgpack"])
@pytest.mark.parametrize("question", [["--players", "2", "--expect", "all", "all", "--scores", "0,0"],
                                      ["--players", "2", "--move", "all", "all", "--scores", "0,0", "13366", "2"],
                                      ["--target", "20", "--expect"]], ids=["players 2", "players 2 move", "target"])
@pytest.mark.parametrize("categories", [[], ["--categories", "ones,yazy"]], ids=["file's rules", "categories"])
def test_a_table_of_another_game_or_mode_is_refused_in_every_mode(other, question, categories):
    """``--table`` names the table every question is answered from: another game's, or a one-player yazy table
    for a two-player question, is refused in one line naming the file and what it holds, never passed over
    for the cache's."""
    path = os.path.join(ROOT, "tests", "data", "good", other)
    done = run("yazy", *categories, "--table", path, *question)
    assert done.returncode == 3 and done.stdout == "", (done.returncode, done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and path in done.stderr, done.stderr
    assert "holds a %s table" % other.split("-")[0].split(".")[0] in done.stderr, done.stderr
