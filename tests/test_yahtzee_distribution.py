"""The exact law of Yahtzee's final score (``ShutTheBox yahtzee distribution``), the report's exact figures and
simulate's interval for the standard deviation.

Independent checks: on late-game cards, the law of the points to come by a brute force with Fractions over
every ordered outcome of the rerolled dice, following the moves the brute force of tests/test_yahtzee.py
chooses by the tie rule (decided exactly); the pass's moves against the table's ``--move`` (turn.py's exact
rationals) on every roll of random states; the mean against the table's value; the figures against the
published ones (Glenn 2006: standard deviation 59.61; Verhoeff: 59.6117 with free jokers; median 248).
"""

import os
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import product

import pytest

from conftest import COMMAND, run
from test_yahtzee import after, brute_move, card_text, placements, table_of


def long_run(*args):
    """The command, given the minutes a forward pass takes on a busy machine (conftest.run allows one)."""
    environment = {key: value for key, value in os.environ.items() if key != "SHUTTHEBOX_TABLE"}
    return subprocess.run([sys.executable, COMMAND, *args], capture_output=True, text=True, env=environment,
                          timeout=3600)


@lru_cache(maxsize=None)
def rolled(kept):
    """{sorted roll: chance} after rolling the dice not ``kept``, over every ordered outcome."""
    count = Counter()
    for outcome in product(range(1, 7), repeat=5 - len(kept)):
        count[tuple(sorted(kept + outcome))] += 1
    return {roll: Fraction(times, 6 ** (5 - len(kept))) for roll, times in count.items()}


@lru_cache(maxsize=None)
def brute_law(rule, state):
    """{points still to come: chance} from the turn-start ``state`` under the tie rule's moves."""
    if not state[0]:
        return {0: Fraction(1)}
    out = Counter()
    for (points, later), chance in turn_outcomes(rule, state).items():
        for rest, more in brute_law(rule, later).items():
            out[points + rest] += chance * more
    return dict(out)


def turn_outcomes(rule, state):
    """{(points of the turn, bonuses included; the state after): chance}."""
    out = Counter()
    for roll, chance in rolled(()).items():
        for outcome, more in from_roll(rule, state, roll, 2).items():
            out[outcome] += chance * more
    return out


@lru_cache(maxsize=None)
def from_roll(rule, state, roll, rerolls):
    """{(points, the state after): chance} from ``roll`` showing with ``rerolls`` left, by the tie rule's moves."""
    kind, _, what = brute_move(rule, state, roll, rerolls).partition(" ")
    if kind == "keep":
        out = Counter()
        kept = () if what == "none" else tuple(map(int, what.split()))
        for nxt, chance in rolled(kept).items():
            for outcome, more in from_roll(rule, state, nxt, rerolls - 1).items():
                out[outcome] += chance * more
        return out
    points, bonus = next((p, b) for name, p, b in placements(rule, state[0], state[2], roll) if name == what)
    later, upper_bonus = after(state, what, points, rule)
    return {(points + bonus + upper_bonus, later): Fraction(1)}


LATE = [("official", ("chance",), 0, 0), ("official", ("yahtzee",), 0, "open"),
        ("official", ("fours", "large-straight"), 60, 50), ("free", ("fours", "large-straight"), 60, 50),
        ("bonus-only", ("full-house",), 12, 50), ("none", ("ones", "twos"), 59, 0),
        ("yatzy", ("two-pairs",), 0, "open"), ("yatzy", ("sixes", "full-house"), 45, "open")]


@pytest.mark.slow
@pytest.mark.parametrize("rule, names, upper, box", LATE, ids=lambda value: "+".join(value) if isinstance(value, tuple)
                         else str(value))
def test_the_law_of_the_points_to_come_agrees_with_a_brute_force(rule, names, upper, box):
    from shutthebox.games.yahtzee.distribution import Pass
    from shutthebox.games.yahtzee.rules import FIFTY, OPEN, ZERO

    table = table_of(rule)
    card = table.card(card_text(names, rule))
    holds = {"open": OPEN, 0: ZERO, 50: FIFTY}[box]
    found = Pass(table).run(progress=False, start=(card, upper, holds))
    exact = brute_law(rule, (frozenset(names), upper, box))
    assert {total for total, chance in enumerate(found.law.chances) if chance} == set(exact)
    for total, chance in exact.items():
        assert abs(found.law.chances[total] - chance) < 1e-14 * max(1, float(chance) * 100), total
    assert abs(found.law.mean - table.value(card, upper, holds)) < 1e-11


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["official", "yatzy"])
def test_the_pass_moves_are_the_tables(rule):
    """Every roll and reroll count of 24 random reachable states: the pass's move is ``--move``'s."""
    import numpy as np

    from shutthebox.engine.dicekeep import ROLLS, levels
    from shutthebox.games.yahtzee.distribution import Pass
    from shutthebox.games.yahtzee.rules import OPEN

    table = table_of(rule)
    found = Pass(table)
    keeps = [keep for level in levels()[:5] for keep in level]
    rng = random.Random(7)
    st = found.st
    ids = np.array(sorted(rng.sample(range(len(st.upper)), 24)))
    box, kept = found.policy(ids)
    for column, state in enumerate(ids):
        card = found.sheet.card_of(int(st.lower[state]), int(st.upper[state]), int(st.box[state]))
        if not card:
            continue
        turn = table.turn(card, int(st.total[state]), int(st.box[state]) if found.sheet.yahtzee is not None else OPEN)
        for left in range(3):
            for r, roll in enumerate(ROLLS):
                move = turn.best(roll, left)[2]
                ours = ("score", int(box[left][r, column])) if box[left][r, column] >= 0 else \
                    ("keep", keeps[kept[left][r, column]])
                assert ours == move, (state, roll, left)


# -- the whole game -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def official():
    from shutthebox.games.yahtzee.distribution import Pass

    return Pass(table_of("official")).run(progress=False)


@pytest.mark.slow
def test_the_official_law(official):
    """Mean 254.587729 (the table's value), standard deviation 59.607586 (Glenn 2006: 59.61), median 248; the
    exact per-box means add up to the mean."""
    from shutthebox.games.yahtzee.distribution import text

    law = official.law
    assert "%.6f" % law.mean == "254.587729" and "%.6f" % law.sd == "59.607586" and "%.2f" % law.sd == "59.61"
    assert law.median == 248 and abs(law.total - 1) < 1e-12
    assert law.lowest == 12 and law.highest == 1575  # 13 Yahtzees: 50 + 12 x 100 + 325 more, the upper bonus
    parts = sum(mean for mean, _ in official.boxes.values()) + 35 * official.upper_bonus + 100 * official.bonuses
    assert abs(parts - law.mean) < 1e-9
    assert official.boxes["chance"][1] == 0  # chance is never 0
    printed = text(official)
    assert "mean 254.587729 (the law's 254.58772" in printed and "standard deviation 59.607586, median 248" in printed


@pytest.mark.slow
def test_the_command_prints_the_law():
    done = long_run("yahtzee", "distribution", "--variant", "yatzy")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Yatzy: the final score under the table's moves")
    assert lines[1].split() == ["total", "P(exactly)", "P(at", "least)"]
    rows = [line.split() for line in lines[2:] if line.split()[0].isdigit()]
    assert float(rows[0][2]) == 1.0 and all(float(a[2]) >= float(b[2]) for a, b in zip(rows, rows[1:]))
    assert "mean 248.439989 (the law's 248.43998" in done.stdout
    refused = run("yahtzee", "distribution", "--variant", "yatzy", "--joker", "free")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "--joker is a rule of Yahtzee" in \
        refused.stderr


@pytest.mark.slow
def test_the_free_joker_law_and_the_tie_rule():
    """Free jokers, --move's tie rule: standard deviation 59.611436; the other tie rule (the last tied box, the
    last tied keep) gives Verhoeff's 59.6117: equally good moves, another spread; the same mean and median."""
    from shutthebox.games.yahtzee.distribution import Pass

    first = Pass(table_of("free")).run(progress=False).law
    last = Pass(table_of("free"), last=True).run(progress=False).law
    assert "%.6f" % first.mean == "%.6f" % last.mean == "254.589609" and first.median == last.median == 248
    assert "%.6f" % first.sd == "59.611436" and "%.4f" % last.sd == "59.6117"


@pytest.mark.slow
def test_simulate_gives_an_interval_for_the_standard_deviation(official):
    from shutthebox.games.yahtzee import analysis

    results = analysis.play(table_of("official"), 1500, 11, progress=False)
    low, high = analysis.sd_interval([result[0] for result in results])
    assert low < official.law.sd < high and high - low < 12  # wide: the Yahtzee bonuses make the tails heavy
    done = run("yahtzee", "simulate", "--games", "200", "--seed", "2")
    assert "standard deviation" in done.stdout and "95% interval" in done.stdout.split("standard deviation")[1]


@pytest.mark.slow
def test_the_report_has_the_exact_figures(official, tmp_path):
    done = long_run("yahtzee", "report", "--games", "50", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "report.md").read_text()
    assert "## Exactly" in report and "## Simulated: 50 seeded games" in report
    for name, (mean, zero) in official.boxes.items():
        assert "| %s | %.6f | %.6f |" % (name, mean, zero) in report, name
    assert "mean 254.587729, standard deviation 59.607586, median 248" in report
