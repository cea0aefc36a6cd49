"""Full Yahtzee: the published optima, a brute force over every ordered dice outcome with Fractions on
late-game cards under each joker rule (jokers and both bonuses included) and under Scandinavian Yatzy, every
stored value checked against its successors (sampled), the command's questions and refusals, simulation,
review, and the golden answers.

Nothing here shares code with the solver or the question-time turn: scoring, the joker rules, the bonuses,
the keeps and their chances are written again below.
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

from bruteforce import SORTED_ROLLS, reroll_levels
from conftest import ROOT, run
from shutthebox.games.yahtzee.table import load

NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house",
         "small-straight", "large-straight", "yahtzee", "chance")
UPPER = NAMES[:6]
LOWER = ("three-kind", "four-kind", "full-house", "small-straight", "large-straight", "chance")  # not yahtzee
JOKER_POINTS = {"full-house": 25, "small-straight": 30, "large-straight": 40}
YATZY_NAMES = ("ones", "twos", "threes", "fours", "fives", "sixes", "one-pair", "two-pairs", "three-kind", "four-kind",
               "small-straight", "large-straight", "full-house", "chance", "yatzy")
COMMAND = [sys.executable, os.path.join(ROOT, "ShutTheBox")]


def printed(name, dice):
    """A box's score as printed on the card (no joker)."""
    counts = sorted(Counter(dice).values())
    faces = set(dice)
    if name in UPPER:
        face = UPPER.index(name) + 1
        return face * dice.count(face)
    if name == "three-kind":
        return sum(dice) if counts[-1] >= 3 else 0
    if name == "four-kind":
        return sum(dice) if counts[-1] >= 4 else 0
    if name == "full-house":
        return 25 if counts == [2, 3] else 0
    if name == "small-straight":
        return 30 if any(set(range(low, low + 4)) <= faces for low in (1, 2, 3)) else 0
    if name == "large-straight":
        return 40 if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    if name == "yahtzee":
        return 50 if counts == [5] else 0
    return sum(dice)


def yatzy_printed(name, dice):
    """A box's score in Scandinavian Yatzy: the matching dice only for a pair, two pairs (two faces), three
    and four of a kind (the highest face that has them); 1-2-3-4-5 15, 2-3-4-5-6 20; a full house (three and
    two of two faces) the sum; yatzy 50."""
    faces = sorted(set(dice), reverse=True)
    many = {face: dice.count(face) for face in faces}
    if name in UPPER:
        return printed(name, dice)
    if name in ("one-pair", "three-kind", "four-kind"):
        need = {"one-pair": 2, "three-kind": 3, "four-kind": 4}[name]
        return next((need * face for face in faces if many[face] >= need), 0)
    if name == "two-pairs":
        pairs = [face for face in faces if many[face] >= 2]
        return 2 * (pairs[0] + pairs[1]) if len(pairs) == 2 else 0
    if name == "small-straight":
        return 15 if sorted(dice) == [1, 2, 3, 4, 5] else 0
    if name == "large-straight":
        return 20 if sorted(dice) == [2, 3, 4, 5, 6] else 0
    if name == "full-house":
        return sum(dice) if sorted(many.values()) == [2, 3] else 0
    if name == "yatzy":
        return 50 if len(faces) == 1 else 0
    return sum(dice)


def names_of(rule):
    return YATZY_NAMES if rule == "yatzy" else NAMES


def placements(rule, open_names, box, dice):
    """[(box name, points, Yahtzee bonus)]: where the dice may be written under the joker rule ``rule``
    (or in Yatzy, ``rule`` "yatzy"); ``box`` is what the yahtzee box holds: "open", 0 or 50."""
    if rule == "yatzy":
        return [(name, yatzy_printed(name, dice), 0) for name in YATZY_NAMES if name in open_names]
    if len(set(dice)) == 1 and box == 50 and rule == "bonus-only":  # the bonus, no joker
        return [(name, printed(name, dice), 100) for name in NAMES if name in open_names]
    if len(set(dice)) == 1 and box != "open" and rule in ("official", "free"):
        face = dice[0]
        bonus = 100 if box == 50 else 0
        upper = UPPER[face - 1]
        lower = [name for name in LOWER if name in open_names]
        if rule == "official":
            if upper in open_names:
                return [(upper, 5 * face, bonus)]
            if lower:
                return [(name, JOKER_POINTS.get(name, 5 * face), bonus) for name in lower]
            return [(name, 0, bonus) for name in UPPER if name in open_names]
        # free: any open box; full house and the straights pay only once the matching upper box is filled
        out = [(name, printed(name, dice), bonus) for name in UPPER if name in open_names]
        for name in lower:
            if name in JOKER_POINTS:
                out.append((name, JOKER_POINTS[name] if upper not in open_names else 0, bonus))
            else:
                out.append((name, 5 * face, bonus))
        return out
    return [(name, printed(name, dice), 0) for name in NAMES if name in open_names]


def after(state, name, points, rule="official"):
    """(the state after writing ``points`` in ``name``, the upper bonus paid now: 35, 50 in Yatzy)."""
    open_names, upper, box = state
    bonus = 0
    if name in UPPER:
        bonus = (50 if rule == "yatzy" else 35) if upper < 63 <= upper + points else 0
        upper += points
    if name == "yahtzee":
        box = 50 if points == 50 else 0
    return (open_names - {name}, upper, box), bonus


@lru_cache(maxsize=None)
def brute_start(rule, state) -> Fraction:
    """The maximum expected points to come at the start of a turn, over all 6**5 ordered first rolls."""
    if not state[0]:
        return Fraction(0)
    later = brute_turn(rule, state)[2]
    return sum(later[tuple(sorted(dice))] for dice in product(range(1, 7), repeat=5)) / 6**5


def score_options(rule, state, roll, start=None):
    """[(name, exact value of writing the roll there)] in the order of the card; ``start(rule, state)`` values
    the state after it (default: the brute force)."""
    start = start or brute_start
    out = []
    for name, points, bonus in placements(rule, state[0], state[2], roll):
        nxt, upper_bonus = after(state, name, points, rule)
        out.append((name, points + bonus + upper_bonus + start(rule, nxt)))
    return sorted(out, key=lambda option: names_of(rule).index(option[0]))


def turn_values(rule, state, start):
    """[V0, V1, V2]: sorted roll -> value with 0, 1, 2 rerolls left; holding any subset of the dice (all five:
    not rerolling), the others rerolled over every ordered outcome; V1 and V2 carry "held"."""
    now = {roll: max(value for _, value in score_options(rule, state, roll, start)) for roll in SORTED_ROLLS}
    return reroll_levels(now)


@lru_cache(maxsize=None)
def brute_turn(rule, state):
    return turn_values(rule, state, brute_start)


def brute_move(rule, state, roll, rerolls, values=None, start=None, tie=0) -> str:
    """The best move by the tie rule, decided exactly (or within ``tie``): score (boxes in the card's order)
    before keeping, more dice kept before fewer, then the lowest dice."""
    values = values or brute_turn(rule, state)
    best = values[rerolls][roll]
    for name, value in score_options(rule, state, roll, start):
        if value >= best - tie:
            return "score " + name
    held = values[rerolls]["held"]
    keeps = {tuple(d for p, d in enumerate(roll) if m >> p & 1) for m in range(31)}
    for keep in sorted(keeps, key=lambda keep: (-len(keep), keep)):
        if held[keep] >= best - tie:
            return "keep " + (" ".join(map(str, keep)) or "none")
    raise AssertionError("no move reaches the best value")


def card_text(open_names, rule="official"):
    return ",".join(name for name in names_of(rule) if name in open_names) or "none"


def box_text(box):
    return None if box == "open" else str(box)


@lru_cache(maxsize=None)
def table_of(rule):
    table = load(rule)
    table.preload()
    return table


# (open boxes, upper total, yahtzee box): late-game cards with jokers, the upper bonus and the Yahtzee bonus
LATE_CARDS = [
    (("yahtzee",), 0, "open"),
    (("full-house",), 12, 50),
    (("fours", "large-straight"), 60, 50),  # a four earns the upper bonus; a Yahtzee of fours is forced up
    (("ones", "twos"), 59, 0),  # a Yahtzee of threes: a zero above (official), anywhere (free)
    (("three-kind", "sixes"), 45, 50),
    (("yahtzee", "small-straight"), 62, "open"),
    (("chance",), 70, 0),
]
QUICK = {("yahtzee",), ("full-house",), ("chance",)}
# Scandinavian Yatzy's late-game cards: the upper bonus (50), pairs, the straights, the full house's sum
YATZY_CARDS = [
    (("two-pairs",), 0, "open"),
    (("fours", "full-house"), 60, "open"),
    (("one-pair", "yatzy"), 62, "open"),
    (("small-straight", "large-straight"), 63, "open"),
    (("three-kind", "four-kind"), 20, "open"),
]


def cases():
    for rule in ("official", "free", "none", "bonus-only"):
        for names, upper, box in LATE_CARDS:
            marks = [] if names in QUICK and rule == "official" else [pytest.mark.slow]
            yield pytest.param(rule, names, upper, box, marks=marks, id="%s-%s-%s-%s" % (rule, "+".join(names),
                                                                                        upper, box))
    for names, upper, box in YATZY_CARDS:
        yield pytest.param("yatzy", names, upper, box, marks=[pytest.mark.slow],
                           id="yatzy-%s-%s" % ("+".join(names), upper))


@pytest.mark.parametrize("rule, names, upper, box", list(cases()))
def test_the_table_and_the_turn_agree_with_a_brute_force_over_ordered_dice(rule, names, upper, box):
    table = table_of(rule)
    state = (frozenset(names), upper, box)
    cats, holds = card_text(names, rule), box_text(box)
    exact = brute_start(rule, state)
    stored = table.probe_expect(cats, upper=upper, box=holds)
    assert abs(stored - exact) < 1e-12 and "%.6f" % stored == "%.6f" % exact
    values = brute_turn(rule, state)
    for roll in SORTED_ROLLS:
        dice = "".join(map(str, roll))
        for rerolls in (0, 1, 2):
            numerator, denominator = table.expect_fraction(cats, dice, rerolls, upper=upper, box=holds)
            assert abs(Fraction(numerator, denominator) - values[rerolls][roll]) < Fraction(1, 10**11), (dice, rerolls)
            assert table.probe_move(cats, dice, rerolls, upper=upper, box=holds) == \
                brute_move(rule, state, roll, rerolls), (dice, rerolls)
    # every choice of a few rolls, valued exactly
    held = values[2]["held"]
    for roll in ((1, 1, 1, 1, 1), (4, 4, 4, 4, 4), (1, 2, 3, 4, 6), (2, 2, 3, 3, 3)):
        options = table.probe_options(cats, "".join(map(str, roll)), 2, upper=upper, box=holds)
        scores = dict(score_options(rule, state, roll))
        for text, value, loss in options:
            kind, _, what = text.partition(" ")
            if kind == "score":
                expected = scores[what]
            else:
                expected = held[() if what == "none" else tuple(map(int, what.split()))]
            assert abs(value - expected) < 1e-11 and abs(loss - (values[2][roll] - expected)) < 1e-11, text
        assert {text.split(" ", 1)[1] for text, _, _ in options if text.startswith("score")} == set(scores)


@pytest.mark.slow
def test_jokers_worked_out_by_hand():
    """A Yahtzee rolled with 0 rerolls on a filled yahtzee box, the points each rule gives."""
    official, free, none = table_of("official"), table_of("free"), table_of("none")
    # fours open, the upper section at 60: the Yahtzee of fours must go there: 20 + 35 + 100, then the rest
    later = official.probe_expect("large-straight", upper=80, box="50")
    assert official.probe_options("fours,large-straight", "44444", 0, upper=60, box="50")[0][0] == "score fours"
    assert abs(official.probe_expect("fours,large-straight", "44444", 0, upper=60, box="50") - (155 + later)) < 1e-9
    assert len(official.probe_options("fours,large-straight", "44444", 0, upper=60, box="50")) == 1
    # a Yahtzee of twos there: fours open but not the twos box: the large straight pays 40 as a joker
    fours = official.probe_expect("fours", upper=60, box="50")
    assert abs(official.probe_expect("fours,large-straight", "22222", 0, upper=60, box="50") - (140 + fours)) < 1e-9
    # free: the large straight pays only once the matching upper box is filled (fours is open: 0)
    options = {text: value for text, value, _ in free.probe_options("fours,large-straight", "44444", 0, upper=60,
                                                                      box="50")}
    assert abs(options["score large-straight"] - (100 + free.probe_expect("fours", upper=60, box="50"))) < 1e-9
    # none: no bonus, no joker: five fours are 20 in fours, 0 as a straight
    options = {text: value for text, value, _ in none.probe_options("fours,large-straight", "44444", 0, upper=60,
                                                                      box="50")}
    assert abs(options["score fours"] - (20 + 35 + none.probe_expect("large-straight", upper=80, box="50"))) < 1e-9
    assert abs(options["score large-straight"] - none.probe_expect("fours", upper=60, box="50")) < 1e-9
    # official, no lower box open, the matching upper box closed: a zero in an open upper box
    assert official.probe_options("ones,twos", "33333", 0, upper=59, box="0") == [
        ("score ones", official.probe_expect("twos", upper=59, box="0"), 0.0),
        ("score twos", official.probe_expect("ones", upper=59, box="0"),
         official.probe_expect("twos", upper=59, box="0") - official.probe_expect("ones", upper=59, box="0"))]


def test_single_boxes_worked_out_by_hand():
    table = table_of("official")
    # a face alone, upper bonus out of reach: each die shows it within 3 rolls with chance 1 - (5/6)**3
    for face, name in enumerate(UPPER, 1):
        value = table.probe_expect(name, upper=0, box="0")  # the other upper boxes hold zeros
        assert abs(value - face * 5 * (1 - Fraction(5, 6) ** 3)) < 1e-12, name
    # yahtzee alone: five of a kind within three rolls keeping the most common face, 2783176 / 6**10
    assert abs(table.probe_expect("yahtzee") - 50 * Fraction(2783176, 6**10)) < 1e-12
    assert "%.6f" % table.probe_expect("none", box="50") == "0.000000"


# -- the published optima -------------------------------------------------------------------

def test_the_official_optimum_is_printed():
    assert "%.6f" % table_of("official").probe_expect("all") == "254.587729"
    assert run("yahtzee", "--expect", "all").stdout == "254.587729\n"


@pytest.mark.slow
@pytest.mark.parametrize("rule, published", [("free", "254.5896"), ("none", "245.8708")])
def test_the_other_optima_are_the_published_ones(rule, published, tmp_path):
    """Solved on first use (into a fresh cache) by the command, then read from the cache; the published
    optima have 4 decimals (254.5896 prints 254.589609; 245.8708 prints 245.870775)."""
    env = {"SHUTTHEBOX_CACHE": str(tmp_path)}
    first = run("yahtzee", "--joker", rule, "--expect", "all", env=env)
    assert first.returncode == 0, first.stderr
    assert "%.4f" % float(first.stdout) == published and len(first.stdout.strip()) == len("254.589609")
    assert os.path.exists(tmp_path / ("yahtzee-%s.msgpack" % rule))
    assert run("yahtzee", "--joker", rule, "--expect", "all", env=env).stdout == first.stdout


# -- every stored value against its successors ------------------------------------------------

def random_states(count, seed):
    from shutthebox.games.yahtzee import rules

    rng = random.Random(seed)
    for _ in range(count):
        card = rng.randrange(1, 1 << 13)
        closed = 63 & ~card
        totals = [t for t in range(106) if rules.reach()[closed] >> t & 1]
        box = None if card >> 11 & 1 else rng.choice(["0", "50"])
        yield card, rng.choice(totals), box


@pytest.mark.parametrize("rule", ["official"])
def test_stored_values_agree_with_their_successors(rule):
    """The turn computed from the stored values of the states one box later gives the stored value back
    (within the documented error bound), on sampled states."""
    table = table_of(rule)
    bound = float(table.file.header["error_bound"])
    assert 0 < bound < 1e-12
    for card, upper, box in random_states(150, 3):
        state = table.state(card, upper, box)
        numerator, denominator = table.turn(*state).start()
        assert abs(numerator / denominator - table.value(*state)) <= 2 * bound, (card, upper, box)


def test_the_dice_tables_are_made_from_the_rules():
    from itertools import combinations_with_replacement

    from shutthebox.engine import dice, dicekeep, dicescores
    from shutthebox.games.yahtzee import turn
    from shutthebox.games.yahtzee.rules import sheet

    assert dice.ROLLS == tuple(combinations_with_replacement(range(1, 7), 5))  # written out in engine/dice.py
    assert dicekeep.make_tree().hex() == dicekeep._TREE
    assert turn.make_scores().hex() == dicescores.SCORES and dicescores.BOXES == sheet("official").categories


def test_the_state_numbering_of_the_docs():
    """docs/FORMAT.md: index = (y * 64 + L) * P + base[U] + rank of u; P = 2794, 536448 states."""
    from shutthebox.games.yahtzee import rules

    reachable = {}
    for upper_open in range(64):
        closed = [j for j in range(1, 7) if not upper_open >> (j - 1) & 1]
        sums = {0}
        for j in closed:
            sums = {s + j * k for s in sums for k in range(6)}
        reachable[upper_open] = sorted({min(s, 63) for s in sums})
    pairs = sum(len(totals) for totals in reachable.values())
    assert pairs == rules.pairs() == 2794 and rules.states() == 192 * 2794 == 536448
    seen = set()
    for card in range(1 << 13):
        upper_open = card & 63
        lower = sum(1 << i for i, name in enumerate(LOWER) if card >> NAMES.index(name) & 1)
        base = sum(len(reachable[u]) for u in range(upper_open))
        for y in ((0,) if card >> 11 & 1 else (1, 2)):
            for rank, total in enumerate(reachable[upper_open]):
                index = rules.state_index(card, total, y)
                assert index == (y * 64 + lower) * pairs + base + rank
                seen.add(index)
    assert seen == set(range(536448))
    assert rules.state_index(rules.ALL, 0, 0) == 63 * 2794 + 2793  # the last pair: all upper boxes open, 0


# -- the command ----------------------------------------------------------------------------

def test_the_command_answers_each_form():
    assert run("yahtzee", "--move", "all", "66666", "2").stdout == "score yahtzee\n"
    assert run("yahtzee", "--move", "yahtzee", "61111", "2").stdout == "keep 1 1 1 1\n"
    assert run("yahtzee", "--move", "all", "12345", "0").stdout == "score large-straight\n"
    assert run("yahtzee", "--expect", "yahtzee", "54321", "1").stdout == "%.6f\n" % (50 / 6**4)
    assert run("yahtzee", "--expect", "ones,twos", "--upper=4", "--yahtzee-box=50").returncode == 0
    options = run("yahtzee", "--options", "all", "13366", "2").stdout.strip().split("; ")
    assert options[0].startswith("keep 6 6 ") and options[0].endswith(" 0.000000")
    assert len(options) == 1 + 13 + 17  # keep all five, 13 boxes, 17 proper sub-keeps of 1 3 3 6 6
    help_text = run("yahtzee", "--help").stdout
    assert "--options CARD DICE REROLLS" in help_text and "chance to beat" in help_text
    rules = run("yahtzee", "--rules")
    assert rules.returncode == 0 and "yahtzee-official.msgpack" in rules.stdout and "official jokers" in rules.stdout


BAD = [
    (["--expect", "bogus"], "unknown category 'bogus'"),
    (["--expect", "ones,ones"], "listed twice"),
    (["--expect", "ones,twos,threes,fours,fives,chance", "--upper", "7"], "cannot hold 7 points"),
    (["--expect", "all", "--upper", "3"], "no upper box is closed"),
    (["--expect", "ones", "--upper", "106", "--yahtzee-box", "0"], "cannot hold 106"),
    (["--expect", "ones,chance"], "say what it holds"),
    (["--expect", "all", "--yahtzee-box", "50"], "yahtzee is open"),
    (["--expect", "chance", "--yahtzee-box", "25"], "must be 50 or 0"),
    (["--expect", "chance", "--yahtzee-box"], "needs a value"),
    (["--expect", "all", "--upper", "x"], "whole number"),
    (["--expect", "all", "--upper", "0", "--upper", "0"], "given twice"),
    (["--move", "all", "1234", "2"], "five dice, not 4"),
    (["--move", "all", "123456", "2"], "five dice, not 6"),
    (["--move", "all", "12347", "2"], "1 to 6, not 7"),
    (["--options", "all", "02345", "1"], "1 to 6, not 0"),
    (["--move", "all", "12345", "3"], "0, 1 or 2, not 3"),
    (["--move", "all", "12345", "-1"], "0, 1 or 2"),
    (["--move", "none", "12345", "1", "--yahtzee-box", "0"], "no box is open"),
    (["--move", "all", "12345"], "takes CARD DICE REROLLS"),
    (["--expect", "all", "12345"], "takes CARD or CARD DICE REROLLS"),
    (["--joker", "house", "--expect", "all"], "--joker must be official, free, none or bonus-only"),
    (["--bogus"], "unknown option"),
    ([], "no question"),
]


@pytest.mark.parametrize("argv, words", BAD, ids=lambda value: " ".join(value) if isinstance(value, list) else None)
def test_bad_questions_are_one_line_and_status_2(argv, words):
    result = subprocess.run([*COMMAND, "yahtzee", *argv], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


def test_a_batch_shares_one_turn_per_card_and_answers_like_single_questions():
    questions = ["--move all 13366 2", "--expect all 13366 2", "--options all 13366 2", "--move all 13366 1",
                 "--move ones,fours --upper 9 --yahtzee-box 50 44444 0", "--expect bogus", "--expect all"]
    batch = run("yahtzee", "--batch", stdin="".join(q + "\n" for q in questions))
    assert batch.returncode == 1
    lines = batch.stdout.splitlines()
    assert lines[5].startswith("error: unknown category") and lines[6] == "254.587729"
    for question, answer in zip(questions[:5], lines):
        assert run("yahtzee", *question.split()).stdout == answer + "\n"


# -- simulation and review ---------------------------------------------------------------------

@pytest.mark.slow
def test_a_simulation_interval_contains_the_exact_value(tmp_path):
    from shutthebox.games.yahtzee import analysis

    table = table_of("official")
    exact = table.probe_expect("all")
    results = analysis.play(table, 1500, 11, progress=False)
    mean, half, deviation = analysis.interval([result[0] for result in results])
    assert abs(mean - exact) <= half and 1 < half < 5 and 50 < deviation < 70
    log = tmp_path / "game.txt"
    simulate = run("yahtzee", "simulate", "--games", "40", "--seed", "3", "--log", str(log))
    assert simulate.returncode == 0 and "contains the exact value" in simulate.stdout
    assert "standard deviation" in simulate.stdout and "upper bonus in" in simulate.stdout
    reviewed = run("yahtzee", "review", stdin=log.read_text())
    assert reviewed.returncode == 0, reviewed.stderr
    assert "total loss 0.000000 expected points" in reviewed.stdout and "(40 games)" in reviewed.stdout
    # report runs the exact forward pass too (minutes): tests/test_yahtzee_distribution.py


def test_review_values_each_decision_and_lists_the_costliest(tmp_path):
    from shutthebox.games.yahtzee import analysis

    table = table_of("official")
    log = tmp_path / "game.txt"
    with open(log, "w", encoding="utf-8") as handle:
        handle.write("# ShutTheBox yahtzee --joker official simulate --games 1 --seed 5\n")
        results = analysis.play(table, 1, 5, log=handle)
    lines = log.read_text().splitlines()
    decisions = [line for line in lines if not line.startswith("#")]
    scored = analysis.review(table, lines)
    assert analysis.game_score("official", scored[1][0]) == results[0][0]
    assert "total loss 0.000000" in analysis.review_text(table, lines)
    # the first decision made the worst way: its loss is the --options line's, and it is the costliest
    words = decisions[0].split()
    at = words.index("keep") if "keep" in words else words.index("score")
    options = run("yahtzee", "--options", *words[:at]).stdout.strip().split("; ")
    worst = options[-1].rsplit(" ", 2)
    alone = run("yahtzee", "review", stdin="%s %s\n" % (" ".join(words[:at]), worst[0]))
    assert alone.returncode == 0, alone.stderr
    assert "total loss %s expected points in 1 decision (1 game)" % worst[2] in alone.stdout
    assert "costliest decisions:\n  line 1: " in alone.stdout
    assert "(best: %s)" % options[0].rsplit(" ", 2)[0] in alone.stdout


@pytest.mark.parametrize("text, words", [
    ("all 13366 2\n", "a decision is CARD"),
    ("all 13366 2 keep 4\n", "cannot keep 4"),
    ("all 13366 0 keep 6 6\n", "no reroll is left"),
    ("ones 11111 0 score twos\n", "say what it holds"),
    ("ones,twos --upper 59 --yahtzee-box 0 22222 0 score ones\n", "not a legal choice"),
    ("all 13366 2 score bogus\n", "score takes one box name"),
    ("all 13366 2 keep 6 6\nall 16666 0 score sixes\n", "does not follow line 1"),
    ("# game\n", "no decision to review"),
])
def test_review_refuses_what_cannot_have_been_played(text, words):
    result = run("yahtzee", "review", stdin=text)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


# -- golden answers ------------------------------------------------------------------------

def golden_pairs():
    with open(os.path.join(ROOT, "tests", "data", "yahtzee-golden.txt"), encoding="utf-8") as handle:
        return [line.rstrip("\n").split("\t") for line in handle if "\t" in line and not line.startswith("#")]


def test_golden_answers():
    pairs = golden_pairs()
    batch = run("yahtzee", "--batch", stdin="".join(question + "\n" for question, _ in pairs))
    assert batch.stdout.splitlines() == [answer for _, answer in pairs]


@pytest.mark.slow
def test_golden_answers_are_independently_true():
    """Each golden answer on a late-game card by the brute force; on a larger card by the turn worked out
    again over ordered dice (floats) from the table's stored values of the states one box later."""
    table = table_of("official")

    def stored(rule, state):
        names, upper, box = state
        card = sum(1 << NAMES.index(name) for name in names)
        return table.value(*table.state(card, upper, box_text(box)))

    for question, answer in golden_pairs():
        words = question.split()
        if answer.startswith("error:"):
            continue
        asked, options = [], {}
        it = iter(words[1:])
        for word in it:
            if word in ("--upper", "--yahtzee-box"):
                options[word] = next(it)
            else:
                asked.append(word)
        asked = asked or ["all"]
        names = frozenset() if asked[0] == "none" else frozenset(NAMES) if asked[0] == "all" else \
            frozenset(asked[0].split(","))
        box = options.get("--yahtzee-box")
        state = (names, int(options.get("--upper", 0)), "open" if box is None else int(box))
        small = len(names) <= 2
        if len(asked) == 1:
            assert answer == ("%.6f" % brute_start("official", state) if small else "254.587729"), question
            continue
        roll, rerolls = tuple(sorted(map(int, asked[1]))), int(asked[2])
        if small:
            values, start, tie = brute_turn("official", state), None, 0
        else:
            values, start, tie = turn_values("official", state, stored), stored, 1e-9
        if words[0] == "--expect":
            assert answer == "%.6f" % values[rerolls][roll], question
        elif words[0] == "--move":
            assert answer == brute_move("official", state, roll, rerolls, values, start, tie), question
        else:
            best = values[rerolls][roll]
            for item in answer.split("; "):
                text, value, loss = item.rsplit(" ", 2)
                kind, _, what = text.partition(" ")
                if kind == "score":
                    expected = dict(score_options("official", state, roll, start))[what]
                elif len(what.split()) == 5:
                    expected = values[rerolls - 1][roll]
                else:
                    expected = values[rerolls]["held"][() if what == "none" else tuple(map(int, what.split()))]
                assert abs(float(value) - expected) < 2e-6 and abs(float(loss) - (best - expected)) < 2e-6, item


@pytest.mark.slow
def test_the_shipped_table_is_rebuilt_byte_for_byte():
    """Integer arithmetic in a fixed order: the same bytes on every machine (build_tables.py --check)."""
    from shutthebox.games.yahtzee.build import solve_table

    with open(os.path.join(ROOT, "data", "yahtzee-official.msgpack"), "rb") as handle:
        assert solve_table("official") == handle.read()
