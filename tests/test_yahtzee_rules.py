"""Yahtzee's rule sets people play: ``--joker bonus-only`` (the Yahtzee bonus without jokers) and Scandinavian
Yatzy (``--variant yatzy``), and ``--joker none`` without ``--yahtzee-box``.

Independent checks: the brute force of tests/test_yahtzee.py (Fractions over every ordered dice outcome, the
scoring written again there) covers both rule sets on late-game cards; here the optima, and every rule set
against yatzy-solver (a Rust solver on PyPI, a test-only dependency: these tests are skipped without it), whose
variants map to ours as docs/YAHTZEE.md's table says.
"""

import random

import pytest

from conftest import run
from test_yahtzee import NAMES, SORTED_ROLLS, YATZY_NAMES, table_of, yatzy_printed

# ours -> yatzy-solver's variant (docs/YAHTZEE.md)
THEIRS = {"official": "american+forced-joker", "free": "american", "none": "american+no-bonus",
          "bonus-only": "american+no-joker", "yatzy": "yatzy-scandinavian"}
THEIR_NAMES = {"three-kind": "three_of_a_kind", "four-kind": "four_of_a_kind", "full-house": "full_house",
               "small-straight": "small_straight", "large-straight": "large_straight", "yahtzee": "five_of_a_kind",
               "one-pair": "one_pair", "two-pairs": "two_pairs"}


# -- the optima, as the command prints them -----------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("argv, printed", [(["--joker", "bonus-only"], "253.970241"),
                                           (["--variant", "yatzy"], "248.439989")])
def test_the_optima_of_bonus_only_and_yatzy(argv, printed, tmp_path):
    """Solved on first use into a fresh cache (the estimate said first), then read from it. yatzy-solver's
    optima: american+no-joker 253.9702412, yatzy-scandinavian 248.4399894 (checked below against the package)."""
    env = {"SHUTTHEBOX_CACHE": str(tmp_path)}
    first = run("yahtzee", *argv, "--expect", "all", env=env)
    assert first.returncode == 0 and first.stdout == printed + "\n", first.stderr
    assert "solving yahtzee-%s.msgpack" % ("yatzy" if "yatzy" in argv else "bonus-only") in first.stderr
    again = run("yahtzee", *argv, "--expect", env=env)
    assert again.stdout == printed + "\n" and again.stderr == ""


# -- Yatzy's scoring -------------------------------------------------------------------------------

def test_yatzy_scores_every_roll_as_written_again():
    from shutthebox.games.yahtzee.rules import YATZY_CATEGORIES, yatzy_score
    from shutthebox.games.yahtzee.turn import box_scores, make_scores

    assert YATZY_CATEGORIES == YATZY_NAMES
    for roll in SORTED_ROLLS:
        for c, name in enumerate(YATZY_NAMES):
            assert yatzy_score(c, roll) == yatzy_printed(name, list(roll)), (name, roll)
    assert b"".join(box_scores("yatzy").scores) == make_scores("yatzy")
    # a few by hand: the highest pair, two different pairs, the full house's sum, a Yatzy is no two pairs
    by_name = {name: c for c, name in enumerate(YATZY_NAMES)}
    assert [yatzy_score(by_name[name], (6, 6, 5, 5, 1)) for name in ("one-pair", "two-pairs", "full-house")] == \
        [12, 22, 0]
    assert [yatzy_score(by_name[name], (3, 3, 5, 5, 5)) for name in ("one-pair", "two-pairs", "three-kind",
                                                                       "full-house")] == [10, 16, 15, 21]
    assert [yatzy_score(by_name[name], (4, 4, 4, 4, 4)) for name in ("one-pair", "two-pairs", "four-kind",
                                                                       "full-house", "yatzy")] == [8, 0, 16, 0, 50]
    assert [yatzy_score(by_name[name], (1, 2, 3, 4, 5)) for name in ("small-straight", "large-straight")] == [15, 0]


def test_yatzy_scores_as_yatzy_solver_does():
    ys = pytest.importorskip("yatzy_solver")
    from shutthebox.games.yahtzee.rules import yatzy_score

    variant = ys.Variant("yatzy-scandinavian")
    assert variant.categories == [THEIR_NAMES.get(name, name) for name in YATZY_NAMES]
    for roll in SORTED_ROLLS:
        for c, name in enumerate(YATZY_NAMES):
            assert yatzy_score(c, roll) == variant.score(THEIR_NAMES.get(name, name), list(roll)), (name, roll)


# -- every rule set against yatzy-solver ---------------------------------------------------------------

def their_state(rules, card, upper, box):
    """yatzy-solver's notation of a turn-start state: ``upper U | filled a,b | five_of_a_kind 50``."""
    names = YATZY_NAMES if rules == "yatzy" else NAMES
    filled = [THEIR_NAMES.get(name, name) for c, name in enumerate(names) if not card >> c & 1]
    text = "upper %d | filled %s" % (upper, ",".join(filled) or "-")
    if box is not None and rules != "none":  # theirs says what it holds only where that matters
        text += " | five_of_a_kind %s" % box
    return text


def their_choice(text):
    """``score full-house`` -> ``score full_house``, ``keep none`` -> ``keep -``."""
    kind, _, what = text.partition(" ")
    return "%s %s" % (kind, "-" if what == "none" else THEIR_NAMES.get(what, what))


def random_positions(rules, count, seed):
    """(card, upper, box or None, dice, rerolls): random mid-turn positions, every kind of card."""
    from shutthebox.games.yahtzee.rules import reach

    names = YATZY_NAMES if rules == "yatzy" else NAMES
    rng = random.Random(seed)
    for _ in range(count):
        card = rng.randrange(1, 1 << len(names))
        totals = [t for t in range(106) if reach()[63 & ~card] >> t & 1]
        box = None if rules == "yatzy" or card >> 11 & 1 else rng.choice(["0", "50"])
        roll = rng.choice(SORTED_ROLLS) if rng.random() < 0.8 else (rng.randint(1, 6),) * 5
        yield card, rng.choice(totals), box, "".join(map(str, roll)), rng.randrange(3)


@pytest.mark.slow
@pytest.mark.parametrize("rules", list(THEIRS))
def test_every_rule_set_agrees_with_yatzy_solver(rules):
    """The start, 400 random turn-start states and every choice of 150 random mid-turn positions: the same
    values (within 1e-9: theirs are float64 sums) and our best choice among their best options."""
    ys = pytest.importorskip("yatzy_solver")
    solver = ys.Solver.build(ys.Variant(THEIRS[rules]))
    table = table_of(rules)
    start = solver.state_value(their_state(rules, table.sheet.all, 0, None))
    assert "%.6f" % start == "%.6f" % table.probe_expect("all") and abs(start - table.probe_expect("all")) < 1e-9
    for card, upper, box, _, _ in random_positions(rules, 400, 1):
        ours = table.probe_expect(card, upper=upper, box=box)
        assert abs(solver.state_value(their_state(rules, card, upper, box)) - ours) < 1e-9, (card, upper, box)
    for card, upper, box, dice, rerolls in random_positions(rules, 150, 2):
        situation = "dice %s | rolls %d | %s" % (" ".join(dice), rerolls, their_state(rules, card, upper, box))
        theirs = dict(solver.option_values(situation))
        ours = table.probe_options(card, dice, rerolls, upper=upper, box=box)
        # theirs leave out keeping all five dice (never better than the best other choice)
        listed = {their_choice(text): value for text, value, _ in ours if len(text.split()) != 6}
        assert set(listed) == set(theirs), situation
        for text, value in listed.items():
            assert abs(theirs[text] - value) < 1e-9, (situation, text)
        assert their_choice(ours[0][0]) in dict(solver.best_options(situation)), (situation, ours[0])


# -- the command under the new rule sets ----------------------------------------------------------------

@pytest.mark.slow
def test_joker_none_does_not_ask_what_the_yahtzee_box_holds():
    for question in (["--expect", "ones,chance"], ["--move", "ones,chance", "11112", "1"],
                     ["--options", "chance", "66666", "0"]):
        without = run("yahtzee", "--joker", "none", *question)
        assert without.returncode == 0, without.stderr
        for holds in ("0", "50"):
            assert run("yahtzee", "--joker", "none", *question, "--yahtzee-box", holds).stdout == without.stdout
    refused = run("yahtzee", "--expect", "ones,chance")  # official: it matters, so it is asked for
    assert refused.returncode == 2 and "say what it holds" in refused.stderr


YATZY_BAD = [
    (["--variant", "yatzy", "--joker", "free", "--expect", "all"], "--joker is a rule of Yahtzee"),
    (["--variant", "yatzee", "--expect", "all"], "--variant must be yahtzee or yatzy"),
    (["--variant", "yatzy", "--expect", "ones", "--yahtzee-box", "0"], "--yahtzee-box is for Yahtzee"),
    (["--variant", "yatzy", "--expect", "yahtzee"], "unknown category 'yahtzee'"),
    (["--joker", "bonus", "--expect", "all"], "--joker must be official, free, none or bonus-only"),
]


@pytest.mark.parametrize("argv, words", YATZY_BAD, ids=lambda value: " ".join(value) if isinstance(value, list) else None)
def test_refusals_of_the_rule_options(argv, words):
    result = run("yahtzee", *argv)
    assert result.returncode == 2 and result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert words in result.stderr, result.stderr


@pytest.mark.slow
def test_yatzy_questions_batch_rules_and_review(tmp_path):
    """Yatzy's questions as Yahtzee's: --expect, --move, --options, --batch, --rules, simulate --log and review."""
    table = table_of("yatzy")
    assert run("yahtzee", "--variant", "yatzy", "--move", "all", "13366", "2").stdout == "keep 6 6\n"
    options = run("yahtzee", "--variant", "yatzy", "--options", "one-pair,yatzy", "66666", "0").stdout.strip()
    assert options.split("; ")[0].startswith("score yatzy ") and "score one-pair" in options
    questions = ["--expect all", "--move all 13366 2", "--options two-pairs 11223 1", "--expect chance 12345 0",
                 "--expect yahtzee", "--expect fours,full-house --upper 60"]
    batch = run("yahtzee", "--variant", "yatzy", "--batch", stdin="".join(q + "\n" for q in questions))
    lines = batch.stdout.splitlines()
    assert batch.returncode == 1 and lines[0] == "248.439989" and lines[4].startswith("error: unknown category")
    assert lines[3] == "%.6f" % 15.0  # chance with no reroll left: the dice's sum
    assert lines[5] == "%.6f" % table.probe_expect("fours,full-house", upper=60)
    described = run("yahtzee", "--variant", "yatzy", "--rules").stdout
    assert "yahtzee-yatzy.msgpack" in described and "Scandinavian Yatzy" in described and "one-pair" in described
    log = tmp_path / "yatzy.txt"
    simulate = run("yahtzee", "simulate", "--variant", "yatzy", "--games", "20", "--seed", "4", "--log", str(log))
    assert simulate.returncode == 0 and "yatzy, optimal play (maximum expected score 248.439989)" in simulate.stdout
    assert log.read_text().startswith("# ShutTheBox yahtzee --variant yatzy simulate")
    reviewed = run("yahtzee", "review", str(log))
    assert reviewed.returncode == 0 and "total loss 0.000000 expected points" in reviewed.stdout, reviewed.stderr
    wrong = run("yahtzee", "review", "--joker", "official", str(log))
    assert wrong.returncode == 2 and "played with --variant yatzy, not --joker official" in wrong.stderr


@pytest.mark.slow
def test_bonus_only_pays_the_bonus_without_the_joker():
    """Five fours on a filled yahtzee box (50): 100 wherever they go, the printed score there (0 as a straight)."""
    table, none = table_of("bonus-only"), table_of("none")
    options = {text: value for text, value, _ in table.probe_options("fours,large-straight", "44444", 0, upper=60,
                                                                       box="50")}
    later = table.probe_expect("large-straight", upper=80, box="50")
    assert abs(options["score fours"] - (20 + 35 + 100 + later)) < 1e-9
    assert abs(options["score large-straight"] - (100 + table.probe_expect("fours", upper=60, box="50"))) < 1e-9
    # with 0 in the yahtzee box no bonus: as without it
    assert table.probe_options("fours,large-straight", "44444", 0, upper=60, box="0") == \
        none.probe_options("fours,large-straight", "44444", 0, upper=60, box="0")


def test_every_rule_set_names_its_table_and_reads_it_back():
    from shutthebox.games.yahtzee import DECLARATION
    from shutthebox.games.yahtzee.rules import RULES

    family = DECLARATION.tables[0]
    for rules in RULES:
        assert family.parse(family.name(rules)) == rules
    assert family.name("bonus-only") == "yahtzee-bonus-only.msgpack" and family.name("yatzy") == "yahtzee-yatzy.msgpack"


@pytest.mark.slow
def test_a_yatzy_table_file_is_asked_under_its_own_rules():
    """--table FILE with no rule option: the file's own rules (its header names the variant)."""
    table = table_of("yatzy")
    done = run("yahtzee", "--table", table.path, "--expect", "pair,yatzy")
    assert done.returncode == 0 and done.stdout == "%.6f\n" % table.probe_expect("one-pair,yatzy"), done.stderr
    wrong = run("yahtzee", "--joker", "free", "--table", table.path, "--expect", "all")
    assert wrong.returncode == 3 and wrong.stderr.count("\n") == 1, wrong.stderr
