"""yazy's target mode (``--target X``) and the exact law of the final total (``yazy distribution``).

Checks: a brute force in Fractions on tiny late-game cards (every proper subset of the five dice held,
the rerolled dice over their ordered outcomes, scores from a separate implementation) for the target
table's start values, its mid-turn chances and its moves (the tie rule decided exactly); identities (a
start value is the mean of the first roll's chances; the target moves reach X at least as often as the
expected-score moves do, for every X; the law's mean is 165.757319); a brute force of the law of the
points still to come on a tiny card, following the table's moves; and seeded games."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from conftest import run
from shutthebox.games.yazy import distribution
from shutthebox.games.yazy.rules import ALL, CATEGORIES, categories
from shutthebox.games.yazy.table import load

ROLL_LIST = list(itertools.combinations_with_replacement(range(1, 7), 5))


@pytest.fixture(scope="module")
def target(yazy_target):
    return yazy_target


@pytest.fixture(scope="module")
def table():
    return load()


# -- an independent brute force ---------------------------------------------------------------------------

def points(name, dice):
    counts = sorted((dice.count(face) for face in set(dice)), reverse=True)
    faces = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}
    if name in faces:
        return faces[name] * dice.count(faces[name])
    if name == "three-kind":
        return sum(dice) if counts[0] >= 3 else 0
    if name == "four-kind":
        return sum(dice) if counts[0] >= 4 else 0
    if name == "full-house":
        return 25 if counts == [3, 2] else 0
    if name == "straight":
        return 40 if sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]) else 0
    return 50 if counts == [5] else 0


_LAWS = {}


def reroll_law(kept):
    """{sorted five dice: chance} after rolling 5 - len(kept) dice, over their ordered outcomes."""
    if kept not in _LAWS:
        law = {}
        for faces in itertools.product(range(1, 7), repeat=5 - len(kept)):
            dice = tuple(sorted(kept + faces))
            law[dice] = law.get(dice, 0) + Fraction(1, 6 ** len(faces))
        _LAWS[kept] = law
    return _LAWS[kept]


def holds(roll):
    """The kept dice of every proper subset of the five positions."""
    return {tuple(roll[i] for i in range(5) if bits >> i & 1) for bits in range(31)}


def turn(v0):
    """(V1, V2, start) of a turn whose scoring values are ``v0`` {roll: value}."""
    def step(previous):
        means = {}

        def mean(kept):
            if kept not in means:
                means[kept] = sum(p * previous[r] for r, p in reroll_law(kept).items())
            return means[kept]

        return {roll: max([v0[roll]] + [mean(kept) for kept in holds(roll)]) for roll in ROLL_LIST}, mean

    v1, e1 = step(v0)
    v2, e2 = step(v1)
    return v1, v2, sum(p * v2[r] for r, p in reroll_law(()).items()), (e1, e2)


class Brute:
    """T(open names, x) exactly, with each turn's V0, V1, V2 and keep means kept for the mid-turn checks."""

    def __init__(self):
        self.memo, self.turns = {}, {}

    def v0(self, names, x):
        return {roll: max(self.start(names - {c}, x - points(c, list(roll))) for c in names) for roll in ROLL_LIST}

    def start(self, names, x):
        if x <= 0:
            return Fraction(1)
        if not names:
            return Fraction(0)
        key = (names, x)
        if key not in self.memo:
            v0 = self.v0(names, x)
            pattern = tuple(v0[roll] for roll in ROLL_LIST)
            if pattern not in self.turns:
                self.turns[pattern] = turn(v0)
            self.memo[key] = self.turns[pattern][2]
        return self.memo[key]

    def choices(self, names, x, roll, rerolls):
        """[(exact chance, move text)] in the tie rule's order."""
        v0 = self.v0(names, x)
        out = [(self.start(names - {c}, x - points(c, list(roll))), "score " + c) for c in CATEGORIES if c in names]
        if rerolls:
            _, _, _, means = self.turns[tuple(v0[r] for r in ROLL_LIST)]
            for kept in sorted(holds(roll), key=lambda k: (-len(k), k)):
                out.append((means[rerolls - 1](kept), "keep " + (" ".join(map(str, kept)) or "none")))
        return out


BRUTE = Brute()

CARDS = [({"ones"}, [1, 3, 5]), ({"yazy"}, [50]), ({"twos", "full-house"}, [4, 27]), ({"three-kind"}, [20]),
         ({"fours", "straight"}, [48])]


@pytest.mark.slow
@pytest.mark.parametrize("names, targets", CARDS, ids=lambda v: ",".join(sorted(v)) if isinstance(v, set) else
                         "-".join(map(str, v)))
def test_start_values_agree_with_the_brute_force(target, names, targets):
    cats = ",".join(sorted(names))
    for x in targets:
        exact = BRUTE.start(frozenset(names), x)
        assert abs(target.probe_target(x, cats) - exact) < 1e-13, (cats, x)
        assert "%.6f" % target.probe_target(x, cats) == "%.6f" % exact


@pytest.mark.slow
@pytest.mark.parametrize("names, x, rolls", [
    ({"ones"}, 3, ["11234", "12345", "11166", "23456"]), ({"twos", "full-house"}, 27, ["22233", "22345", "12266"]),
    ({"fours", "straight"}, 48, ["12344", "44445", "13456"]), ({"three-kind"}, 20, ["66612", "55123", "11123"]),
])
def test_mid_turn_chances_and_moves_agree_with_the_brute_force(target, names, x, rolls):
    names = frozenset(names)
    BRUTE.start(names, x)
    cats = ",".join(sorted(names))
    for dice in rolls:
        roll = tuple(sorted(int(d) for d in dice))
        for rerolls in (0, 1, 2):
            choices = BRUTE.choices(names, x, roll, rerolls)
            top = max(value for value, _ in choices)
            move = next(text for value, text in choices if value == top)
            assert abs(target.probe_target(x, cats, dice, rerolls) - top) < 1e-13, (dice, rerolls)
            assert target.probe_target_move(x, cats, dice, rerolls) == move, (dice, rerolls)


@pytest.mark.slow
def test_one_category_by_hand(target):
    """Worked out by hand: ones, need 4 with three ones and one reroll: 1 - (5/6)^2; yazy from 12345: 6^-4."""
    assert "%.6f" % target.probe_target(4, "ones", "11123", 1) == "%.6f" % (1 - Fraction(5, 6) ** 2) == "0.305556"
    assert abs(target.probe_target(50, "yazy", "12345", 1) - Fraction(1, 6**4)) < 1e-15
    assert abs(target.probe_target(50, "yazy") - Fraction(2783176, 6**10)) < 1e-15  # five of a kind in 3 rolls


# -- identities on the whole table ------------------------------------------------------------------------

@pytest.mark.slow
def test_the_table_is_a_chance_falling_with_the_target(target):
    whole = np.frombuffer(target.file.whole("target").tobytes(), dtype="<f8").reshape(ALL + 1, 281)
    assert (whole[:, 0] == 1).all() and (whole[0, 1:] == 0).all()
    assert ((whole >= 0) & (whole <= 1)).all()
    assert (np.diff(whole, axis=1) <= 0).all()
    assert whole[ALL, 280] > 0 and whole[ALL, 280] < 1e-12  # every category at its best: possible, barely


@pytest.mark.slow
@pytest.mark.parametrize("cats, x", [("all", 175), ("ones,twos,yazy", 30), ("full-house,straight", 65),
                                     ("threes,three-kind,four-kind,sixes", 60)])
def test_a_start_value_is_the_mean_of_the_first_roll(target, cats, x):
    """The stored T and the turn computed when asked (every first roll, two rerolls left) agree."""
    total = 0.0
    law = reroll_law(())
    for roll in ROLL_LIST:
        total += float(law[roll]) * target.probe_target(x, cats, "".join(map(str, roll)), 2)
    assert abs(total - target.probe_target(x, cats)) < 1e-13


@pytest.fixture(scope="module")
def law(table):
    return distribution.final_law(table)


@pytest.mark.slow
def test_the_law_of_the_final_total_has_the_tables_mean(table, law):
    assert abs(law.sum() - 1) < 1e-13
    assert abs(distribution.mean(law) - table.probe_expect("all")) < 1e-9
    assert "%.6f" % distribution.mean(law) == "165.757319"


@pytest.mark.slow
def test_target_moves_reach_every_target_at_least_as_often(target, law):
    """For every X, the expected-score moves are one way to play: the target moves do at least as well."""
    start = [target.probe_target(x) for x in range(281)]
    reach = [distribution.at_least(law, x) for x in range(281)]
    assert all(s >= r - 1e-12 for s, r in zip(start, reach))
    assert start[175] - reach[175] > 0.07  # and much better in the middle


_LAW_MEMO = {}


def brute_law(table, names):
    """{points still to come: chance} from the start of a turn with ``names`` open, following the table's moves
    (asked one at a time through ``probe_move``); the chance of each roll carried reroll by reroll."""
    if not names:
        return {0: Fraction(1)}
    if names in _LAW_MEMO:
        return _LAW_MEMO[names]
    cats = ",".join(sorted(names))
    now, scored = dict(reroll_law(())), {}
    for rerolls in (2, 1, 0):
        after = {}
        for roll, chance in now.items():
            move = table.probe_move(cats, "".join(map(str, roll)), rerolls)
            if move.startswith("score"):
                key = (move.split()[1], roll)
                scored[key] = scored.get(key, 0) + chance
                continue
            kept = tuple(int(d) for d in move.split()[1:] if d != "none")
            for result, p in reroll_law(kept).items():
                after[result] = after.get(result, 0) + chance * p
        now = after
    assert not now
    out = {}
    for (name, roll), chance in scored.items():
        for rest, p in brute_law(table, names - {name}).items():
            total = rest + points(name, list(roll))
            out[total] = out.get(total, 0) + chance * p
    _LAW_MEMO[names] = out
    return out


@pytest.mark.slow
@pytest.mark.parametrize("names", [{"yazy"}, {"twos", "full-house"}])
def test_the_law_on_a_tiny_card_agrees_with_a_brute_force(table, names):
    exact = brute_law(table, frozenset(names))
    found = distribution.final_law(table, start=categories(",".join(sorted(names))))
    for total in range(281):
        assert abs(found[total] - exact.get(total, 0)) < 1e-15, total
    assert abs(distribution.mean(found) - table.probe_expect(",".join(sorted(names)))) < 1e-12


@pytest.mark.slow
def test_seeded_games_agree_with_the_law(table, law):
    from shutthebox.games.yazy.analysis import play

    totals = play(table, 4000, seed=5)
    for x in (150, 175, 200):
        share = sum(t >= x for t in totals) / len(totals)
        p = distribution.at_least(law, x)
        assert abs(share - p) <= 2.58 * (p * (1 - p) / len(totals)) ** 0.5, x


# -- the command ------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_target_questions(yazy_target):
    result = run("yazy", "--batch", stdin="--target 200 --expect\n--target 4 --expect ones 11123 1\n"
                 "--target=50 --move yazy 12345 1\n--expect\n--target 281 --expect\n")
    assert result.stdout.splitlines()[:4] == ["0.219134", "0.305556", "keep 1", "165.757319"]
    assert result.stdout.splitlines()[4].startswith("error: the target X is the points still to come, 0 to 280")
    assert run("yazy", "--target", "5", "--move", "none", "12345", "1").stderr.count("no category is open") == 1


@pytest.mark.parametrize("argv, words", [
    (["--target", "x", "--expect"], "whole number"), (["--target", "--expect"], "needs a value"),
    (["--target", "5", "--target", "6", "--expect"], "twice"), (["--target", "5", "--move", "all"], "takes CATS"),
    (["--target", "281", "--expect"], "0 to 280"), (["--target", "5"], "no question"),
    (["--target", "5", "--expect", "all", "12345"], "takes [CATS] or CATS DICE REROLLS"),
])
def test_bad_target_questions_are_one_line_and_status_2(argv, words):  # refused before any table is opened
    result = run("yazy", *argv)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


@pytest.mark.slow
def test_the_query_time_target_count_is_the_builds():
    from shutthebox.games.yazy import rules
    from shutthebox.games.yazy.target import build

    assert rules.TARGETS == build.TARGETS == build.MAX_TOTAL + 1


def test_a_mid_turn_chance_near_a_rounding_midpoint_refuses_the_question(target, monkeypatch, capsys):
    from shutthebox.cli import main
    from shutthebox.errors import InvalidQuery
    from shutthebox.games.yazy import turn

    monkeypatch.setattr(turn, "ERROR_BOUND", 1.0)  # every chance is then that close to a midpoint
    with pytest.raises(InvalidQuery, match="cannot be vouched for"):
        target.probe_target(150, "all", "13366", 2)
    assert main(["yazy", "--target", "150", "--expect", "all", "13366", "2"]) == 2  # refused, not status 3
    err = capsys.readouterr().err
    assert "cannot be vouched for" in err and err.count("\n") == 1, err


def test_distribution_command_and_report(tmp_path, yazy_target):
    result = run("yazy", "distribution")
    assert result.returncode == 0, result.stderr
    assert "mean 165.757319 (the maximum expected score: 165.757319)" in result.stdout
    report = run("yazy", "report", "--games", "200", "--out", str(tmp_path))
    assert report.returncode == 0, report.stderr
    text = (tmp_path / "report.md").read_text()
    assert "| 175 | 0.327746 | 0.406686 | +0.078940 |" in text


def test_a_batch_on_a_target_table_answers_its_target_questions_as_single_ones(tmp_path):
    """``yazy --batch --table TARGET-TABLE``: the target questions are answered as single ones are (the whole run
    was refused: the batch opened the expected-score table first); any other line is refused in its line."""
    from forge import yazy_target_table
    from shutthebox import registry

    path = tmp_path / "yazy-target.msgpack"
    path.write_bytes(yazy_target_table())
    questions = ["--target 200 --expect", "--target 4 --expect ones 11123 1", "--target 200 --move all 13366 2"]
    singles = [registry.grammar("yazy").open_game({}, str(path)).answer(question.split()) for question in questions]
    done = run("yazy", "--table", str(path), "--batch", stdin="\n".join(questions + ["--expect all", ""]))
    assert done.returncode == 1 and done.stderr == "", done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == singles
    assert lines[3] == "error: table file %s is a target-mode table: it answers --target questions only" % path
