"""The keyboard path on every page, in chromium against ``ShutTheBox serve``: from the page as it opens
(Coach), Tab reaches the Play (or Solo) button and Enter shows that mode; a move made by a key then
brings the focus into the game, as a click does, so that Enter does what the page says (close the
chosen tiles, stop, score, roll) instead of pressing the mode button again.

Needs /usr/bin/chromium and playwright, as tests/test_web_browser.py.
"""

from __future__ import annotations

import functools

import pytest

import shutthebox

from serving import page_opener


@pytest.fixture
def open_index(browser, server):
    with page_opener(browser, server) as opener:
        yield functools.partial(opener, wait_ms=60000)


def tab_to(page, element_id):
    """Tab from the top of the page until `element_id` has the focus, then Enter."""
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == element_id:
            page.keyboard.press("Enter")
            return
    raise AssertionError("Tab never reached #%s" % element_id)


def focus_in(page, selector):
    return page.evaluate("(s) => document.querySelector(s).contains(document.activeElement)", selector)


@pytest.mark.parametrize("mode", ["play", "solo"])
def test_shut_the_box_enter_after_key_moves_closes_the_tiles(open_index, mode):
    page = open_index("?anim=0&seed=4242&seat=1")
    tab_to(page, "tab-" + mode)
    page.wait_for_function("(m) => document.body.dataset[m] === 'roll'", arg=mode)
    page.keyboard.press("r")
    page.wait_for_function("(m) => document.body.dataset[m] === 'move'", arg=mode)
    state = page.evaluate("(m) => window.shutTheBox[m].state()", mode)
    assert focus_in(page, "#" + mode), page.evaluate("document.activeElement.id")
    if mode == "play":
        move = list(shutthebox.load().move_one(state["position"], state["roll"]))
    else:
        move = [state["roll"]] if state["roll"] <= 9 else [9, state["roll"] - 9]  # a legal close of the roll
    for tile in move:
        page.keyboard.press(str(tile))
    page.keyboard.press("Enter")  # "Close tiles (Enter)"
    after = page.evaluate("(m) => window.shutTheBox[m].state()", mode)
    assert after["moves"] == 1 and after["chosen"] == [], after
    closed = set(range(1, 10)) - set(int(t) for t in after["position"])
    assert closed == set(move), (after["position"], move)
    assert page.evaluate("document.body.dataset.mode") == mode


def games_state(page, game):
    return page.evaluate("g => window.games[g].play.state()", game)


def test_toggle_enter_rolls_after_a_key_turned_a_card(open_page):
    page = open_page("?game=toggle&seed=8")
    tab_to(page, "toggle-mode-play")
    page.keyboard.press("r")
    assert focus_in(page, "#toggle-play")
    s = games_state(page, "toggle")
    assert s["dice"] and s["rolls"] == 1, s
    page.keyboard.press(str(s["dice"][0]))  # a card the dice let you turn
    assert games_state(page, "toggle")["dice"] is None
    page.keyboard.press("Enter")  # "Enter rolls"
    assert games_state(page, "toggle")["rolls"] == 2


def test_goat_enter_stops_after_a_key_roll(open_page):
    page = open_page("?game=goat&seed=3&seat=1&anim=0")
    tab_to(page, "goat-mode-play")
    page.keyboard.press("3")  # roll three dice: seed 3 makes +9, the turn goes on
    assert focus_in(page, "#goat-play")
    mine = [row for row in games_state(page, "goat")["history"] if row["who"] == "you"]
    assert [row["action"] for row in mine] == [3], mine
    page.keyboard.press("Enter")  # "Enter stops"
    mine = [row for row in games_state(page, "goat")["history"] if row["who"] == "you"]
    assert [row["action"] for row in mine] == [3, 0], mine


@pytest.mark.parametrize("game", ["yazy", "yahtzee"])
def test_five_dice_enter_scores_after_key_moves(open_page, game):
    page = open_page("?game=%s&seed=21" % game)
    tab_to(page, "%s-mode-play" % game)
    page.keyboard.press("r")
    page.keyboard.press("1")  # keep the first die
    assert focus_in(page, "#%s-play" % game)
    page.keyboard.press("Enter")  # "Enter scores"
    s = games_state(page, game)
    assert s["dice"] is None and len(s["decisions"]) == 1, s


def test_pig_enter_rolls_after_a_key_roll(open_page):
    page = open_page("?game=pig&seed=5&seat=1&anim=0")
    tab_to(page, "pig-mode-play")
    page.keyboard.press("r")
    assert focus_in(page, "#pig-play") and games_state(page, "pig")["moves"] == "1"
    page.keyboard.press("Enter")  # Enter rolls
    assert games_state(page, "pig")["moves"] == "11"
