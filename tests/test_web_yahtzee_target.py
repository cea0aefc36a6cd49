"""Yahtzee's "reach a score" on the games page (games/yahtzee-target-view.js) under `ShutTheBox serve`: Coach's
`target=` at docs/FORMAT.md section 12's worked example, the card's reduced table solved by the server on first use
(Solve pressed), gives the command's chance and move; Play's `aim=` line, once few boxes are left, matches
`ShutTheBox yahtzee --target X --expect CARD` for the card after the move."""

from __future__ import annotations

import os
import subprocess
import sys

from serving import ROOT

LATE = "fours,full-house,large-straight,chance"


def solved(page, selector):
    """Press Solve when the page asks, until `selector` holds an answer (data-answer)."""
    for _ in range(600):
        if page.get_attribute(selector, "data-answer"):
            return page.get_attribute(selector, "data-answer")
        if page.is_visible("#solve-start"):
            page.click("#solve-start")
        page.wait_for_timeout(100)
    raise AssertionError("no answer in %s: %s" % (selector, page.inner_text("body")[-400:]))


def test_coach_reaches_the_worked_example_as_the_command(open_page, tmp_path):
    page = open_page("?game=yahtzee&cats=%s&upper=51&ybox=50&dice=&target=67" % LATE)
    assert solved(page, "#yahtzee-target-chance") == "0.854901"
    assert "85.5%" in page.inner_text("#yahtzee-target-chance")
    # mid-turn: the best move for the target and each choice's chance, as the command's --target --move
    page.fill("#yahtzee-dice", "44456")
    page.check("#yahtzee-rerolls-0")
    page.wait_for_function("document.querySelector('#yahtzee-target-move').dataset.answer !== ''")
    asked = ["--target", "67", "--upper", "51", "--yahtzee-box", "50"]
    want = subprocess.run([sys.executable, os.path.join(ROOT, "ShutTheBox"), "yahtzee", *asked, "--move", LATE, "44456", "0"],
                          capture_output=True, text=True, cwd=ROOT, env={**os.environ, "SHUTTHEBOX_CACHE": str(tmp_path)})
    assert page.get_attribute("#yahtzee-target-move", "data-answer") == want.stdout.strip() == "score fours"
    assert page.get_attribute("#yahtzee-target-chance", "data-answer") == "0.999451"
    assert page.locator("#yahtzee-target-options tbody tr").count() == 4
    assert "target=67" in page.url


def test_play_shows_the_chance_to_reach_the_aim_after_each_move(open_page, tmp_path):
    page = open_page("?game=yahtzee&mode=play&seed=7&aim=150")
    state = lambda: page.evaluate("games.yahtzee.play.state()")  # noqa: E731
    # 13 boxes open: not a 30-minute solve (said once the target reader has loaded: it loads on the first aim)
    page.locator("#yahtzee-aim-chance", has_text="whole game").wait_for()
    page.fill("#yahtzee-aim", "")  # off while the test plays fast (each move would ask for its card's solve)
    page.locator("#yahtzee-roll").focus()
    while bin(state()["card"]).count("1") > 3:
        page.keyboard.press("r")
        page.keyboard.press("s")
    page.fill("#yahtzee-aim", "150")
    assert solved(page, "#yahtzee-aim-chance") == expected(state(), page, tmp_path)  # Solve pressed once
    # the next card's table is solved without asking again: one Solve covers this visit's quick card solves
    before = state()["card"]
    page.locator("#yahtzee-roll").focus()
    page.keyboard.press("r")
    page.keyboard.press("s")
    page.wait_for_function("games.yahtzee.play.state().card !== %d" % before)
    want = expected(state(), page, tmp_path)
    for _ in range(1200):  # the new card's table, solved and read
        if page.get_attribute("#yahtzee-aim-chance", "data-answer") == want:
            break
        assert not page.is_visible("#solve-start"), "asked again to solve the next card's table"
        page.wait_for_timeout(100)
    assert page.get_attribute("#yahtzee-aim-chance", "data-answer") == want


def expected(g, page, tmp_path):
    """What ``ShutTheBox yahtzee --target X --expect CARD`` prints for Play's state ``g`` (X: the aim's points left,
    which the page's line says too)."""
    x = max(150 - g["total"], 0)
    page.wait_for_function("document.getElementById('yahtzee-aim-chance').dataset.x === '%d'" % x)
    card = ",".join(name for c, name in enumerate(["ones", "twos", "threes", "fours", "fives", "sixes", "three-kind",
                    "four-kind", "full-house", "small-straight", "large-straight", "yahtzee", "chance"]) if g["card"] >> c & 1)
    words = ["--target", str(x), "--expect", card, "--upper", str(g["upper"])]
    if not g["card"] >> 11 & 1:
        words += ["--yahtzee-box", "50" if g["box"] == 2 else "0"]
    want = subprocess.run([sys.executable, os.path.join(ROOT, "ShutTheBox"), "yahtzee", *words], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "SHUTTHEBOX_CACHE": str(tmp_path)})
    assert want.returncode == 0, want.stderr
    return want.stdout.strip()


def test_play_asks_for_the_whole_table_in_the_early_game(open_page):
    """13 boxes open: the aim line says the whole game's target table is not solved, with a button that asks for it
    (the solve question first, with what it costs); Cancel leaves it unsolved, and the button there to ask again."""
    page = open_page("?game=yahtzee&mode=play&seed=7&aim=150")
    page.locator("#yahtzee-aim-chance", has_text="whole game").wait_for()
    page.click("#yahtzee-aim-solve")
    page.locator("#solve-start").wait_for()
    question = page.inner_text("#solve-status")
    assert "about 30 minutes" in question, question
    page.click("#solve-cancel")
    page.locator("#yahtzee-aim-chance", has_text="not solved").wait_for()
    assert page.is_visible("#yahtzee-aim-solve")
    assert page.get_attribute("#yahtzee-aim-chance", "data-answer") == ""
