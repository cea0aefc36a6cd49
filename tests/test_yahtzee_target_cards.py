"""Yahtzee's ``--target X`` without the whole game's table: the game from the asked card, solved on first use
and cached by its normalised card (``target/reduced/``), against the independent recursion of
tests/test_yahtzee_target.py (the rules written again, in floats, within 1e-10).

The normalisation is what can go wrong: the upper total matters exactly while the upper bonus can still be
earned, so cards with the same open boxes and different totals are asked on both sides of that line, and the
ones that are the same game must share one cached file."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT

pytest.importorskip("numpy")

from test_yahtzee_target import TOLERANCE, card_set, options, reference  # noqa: E402

from shutthebox import errors  # noqa: E402
from shutthebox.games.yahtzee import DECLARATION  # noqa: E402
from shutthebox.games.yahtzee.target.table import load_target  # noqa: E402

# (joker, card, upper, yahtzee box): sixes open, 33 in the upper section: five sixes earn the bonus; 32 and 20:
# out of reach, the same game as 0. fours open: 47 can still reach 63 (four 4s), 60 needs one.
ONE_BOX = [("official", "sixes", 33, 50), ("official", "sixes", 32, 50), ("official", "sixes", 20, 50),
           ("free", "fours", 47, 0), ("free", "fours", 60, 0), ("none", "fours", 60, 50)]
TWO_BOXES = [("bonus-only", "fives,sixes", 38, 50), ("bonus-only", "fives,sixes", 8, 50),
             ("official", "threes,yahtzee", 54, None)]


def cached(folder) -> list:
    return sorted(name for name in os.listdir(folder) if name.startswith("yahtzee-target."))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    monkeypatch.setenv("SHUTTHEBOX_CACHE", str(folder))
    return folder


def check_against_reference(case, targets):
    joker, card, upper, box = case
    ref, cards = reference(case), card_set(card)
    for x in (0, 1, 12, 20, 30, 51, 55, 65, 90, 140):
        got = targets.probe_target(x, card, upper=upper, **options(box))
        assert abs(got - ref.T(cards, upper, box, x)) <= TOLERANCE, (case, x, got)
    for dice, rerolls, x in (("66612", 1, 53), ("44412", 2, 20), ("11111", 0, 100), ("66666", 2, 65),
                             ("23456", 1, 30)):
        roll = tuple(sorted(map(int, dice)))
        want = ref.V(cards, upper, box, x, roll, rerolls)
        got = targets.probe_target(x, card, dice, rerolls, upper=upper, **options(box))
        assert abs(got - want) <= TOLERANCE, (case, dice, rerolls, x, got, want)
        move = targets.probe_target_move(x, card, dice, rerolls, upper=upper, **options(box))
        assert abs(ref.move_value(cards, upper, box, x, roll, rerolls, move) - want) <= 1e-9, (case, dice, x, move)


def test_one_box_cards_equal_the_reference_and_share_tables(cache):
    targets = load_target("official")
    for case in ONE_BOX:
        check_against_reference(case, load_target(case[0]))
    # sixes at 32 and at 20 are the game from 0; under none the yahtzee box's 50 is its 0
    assert cached(cache) == ["yahtzee-target.free.4-u47-y0.msgpack", "yahtzee-target.free.4-u60-y0.msgpack",
                             "yahtzee-target.none.4-u60-y0.msgpack", "yahtzee-target.official.6-u0-y50.msgpack",
                             "yahtzee-target.official.6-u33-y50.msgpack"]
    # the bonus line itself, by hand: the last box, no Yahtzee bonus (the yahtzee box holds 0): five sixes make
    # 30 points, and 35 more from 33 (to 63), not from 32
    assert targets.probe_target(65, "sixes", "66666", 0, upper=33, box=0) == 1.0
    assert targets.probe_target(65, "sixes", "66666", 0, upper=32, box=0) == 0.0


@pytest.mark.slow
@pytest.mark.parametrize("case", TWO_BOXES, ids=lambda case: "-".join(map(str, case)))
def test_two_box_cards_equal_the_reference(cache, case):
    check_against_reference(case, load_target(case[0]))


def test_a_cached_table_of_another_card_is_solved_again(cache):
    """The header names the start it was solved for: a file under another card's name is not believed."""
    targets = load_target("official")
    right = targets.probe_target(20, "fours", upper=47, box=0)  # four 4s or five (the bonus)
    wrong = targets.probe_target(20, "fours", upper=0, box=0)  # five 4s
    assert right > wrong > 0
    targets.close()
    (cache / "yahtzee-target.official.4-u47-y0.msgpack").write_bytes(
        (cache / "yahtzee-target.official.4-u0-y0.msgpack").read_bytes())
    assert load_target("official").probe_target(20, "fours", upper=47, box=0) == right


def test_table_names_are_the_normalised_cards():
    family = DECLARATION.tables[2]
    assert family.parse("yahtzee-target.official.4hlc-u51-y50.msgpack") == ("official", 0b1010100001000, 51, 2)
    assert family.parse("yahtzee-target.official.msgpack") is None
    for name, right in (("yahtzee-target.official.6-u20-y50.msgpack", "6-u0-y50"),  # the bonus out of reach
                        ("yahtzee-target.none.6-u0-y50.msgpack", "6-u0-y0")):  # no bonus: 50 is 0
        with pytest.raises(errors.InvalidQuery, match=right):
            family.parse(name)
    for name in ("yahtzee-target.official.66-u0-y50.msgpack", "yahtzee-target.official.6-u7-y50.msgpack",
                 "yahtzee-target.official.6y-u0-y50.msgpack"):
        with pytest.raises(errors.InvalidQuery):
            family.parse(name)


def command(*args, stdin=None):
    return subprocess.run([sys.executable, os.path.join(ROOT, "ShutTheBox"), "yahtzee", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, env=dict(os.environ))


QUESTIONS = ["--target 67 --expect fours,full-house,large-straight,chance --upper 51 --yahtzee-box 50",
             "--target 67 --move fours,full-house,large-straight,chance --upper 51 --yahtzee-box 50 11122 2",
             "--target 30 --expect ones,chance --upper 12 --yahtzee-box 50 12345 1",
             "--target 0 --expect none --yahtzee-box 0", "--target 5 --expect none --yahtzee-box 0"]
ANSWERS = ["0.854901", "keep none", "0.104497", "1.000000", "0.000000"]  # the docs' example; by hand (the last two)


def test_the_command_a_batch_and_python_answer_alike(cache):
    for question, answer in zip(QUESTIONS, ANSWERS):
        done = command(*question.split())
        assert (done.returncode, done.stdout) == (0, answer + "\n"), (question, done.stderr)
    done = command("--batch", stdin="\n".join(QUESTIONS) + "\n")
    assert (done.returncode, done.stdout.splitlines()) == (0, ANSWERS), done.stderr
    targets = load_target("official")
    assert "%.6f" % targets.probe_target(67, "fours,full-house,large-straight,chance", upper=51, box="50") == ANSWERS[0]
    assert targets.probe_target_move(67, "4HLC", "11122", 2, upper=51, box=50) == ANSWERS[1]
    assert "%.6f" % targets.probe_target(5, "none", box=0) == ANSWERS[4]
    assert len(cached(cache)) == 2  # a finished game needs no table


def test_a_card_with_many_boxes_open_needs_the_whole_game_s_table(cache):
    """Its cost said, nothing solved: the whole card, and eleven boxes (the reduced game's estimate passes a
    minute)."""
    for card in ("all", "all -ones,twos"):
        done = command("--target", "100", "--expect", *card.split())
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and "solving yahtzee-target.official.msgpack would make a 1.68 GB table" \
            in done.stderr, done.stderr
    assert load_target("official").get_target(100, "all") is None
    assert cached(cache) == []
