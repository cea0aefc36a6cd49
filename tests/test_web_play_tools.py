"""Play's tools on both pages, in chromium: Undo (U and a button) in every game's Play on the shell (lib/play.js)
and in Shut the Box's Play; Share (lib/share.js) in Play and in Coach, by the clipboard and, without one, a
selected read-only field; Reroll refused at 0 rerolls; the hint drawn on Pig's and Goat's buttons, on Shut the
Box's tiles and on Coach's dice you tap (yazy)."""

from __future__ import annotations

import re

import pytest

from serving import page_opener


def state(page, game):
    return page.evaluate("g => window.games[g].play.state()", game)


def stb_state(page):
    return page.evaluate("window.shutTheBox.play.state()")


@pytest.fixture
def open_stb(browser, server):
    """The Shut the Box page (index.html)."""
    with page_opener(browser, server) as opener:
        yield opener


# -- Undo ------------------------------------------------------------------------------------------------------


# a game, the keys of a first decision (with what comes before it), and what the link holds once it is undone
UNDO = [("yazy", "rs", "v"), ("yahtzee", "rs", "v"), ("pig", "r", ""), ("goat", "1", "")]


def link(page, name):
    found = re.search(r"[?&]%s=([^&]*)" % name, page.url)
    return found.group(1) if found else ""


def decided(page, game):
    """Your decisions so far, as the game's state lists them (Goat's: its history's rows of yours)."""
    s = state(page, game)
    return [row for row in s["history"] if row["who"] == "you"] if game == "goat" else s["decisions"]


@pytest.mark.parametrize("game, keys, left", UNDO, ids=[u[0] for u in UNDO])
def test_undo_takes_back_the_last_decision(open_page, game, keys, left):
    page = open_page("?game=%s&mode=play&seed=21&anim=0" % game)
    assert page.get_attribute("#%s-undo" % game, "aria-disabled") == "true"
    page.keyboard.press("u")
    assert "Nothing to undo" in page.inner_text("#%s-play .message" % game)
    for key in keys:
        page.keyboard.press(key)
    moves, before = link(page, "moves"), decided(page, game)
    assert before and page.get_attribute("#%s-undo" % game, "aria-disabled") == "false"
    page.keyboard.press("u")
    assert link(page, "moves") == left and link(page, "undone") == "1" and not decided(page, game)
    assert page.get_attribute("#%s-undo" % game, "aria-disabled") == "true"
    # the same decision again is the same game: the dice follow from the seed
    for key in keys[len(left):]:
        page.keyboard.press(key)
    assert link(page, "moves") == moves and decided(page, game) == before and link(page, "undone") == "1"
    page.reload()
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=60000)
    assert link(page, "undone") == "1" and decided(page, game) == before


def test_undo_by_its_button_and_back(open_page):
    page = open_page("?game=pig&mode=play&seed=5&anim=0")
    page.click("#pig-roll")
    page.click("#pig-undo")
    assert state(page, "pig")["decisions"] == [] and state(page, "pig")["undone"] == 1
    page.go_back()  # Back returns to the move taken back
    page.wait_for_function("window.games.pig.play.state().decisions.length === 1")


def test_reroll_is_refused_at_0_rerolls(open_page):
    page = open_page("?game=yazy&mode=play&seed=3")
    for key in "rrr":
        page.keyboard.press(key)
    s = state(page, "yazy")
    assert s["rerolls"] == 0 and page.get_attribute("#yazy-roll", "aria-disabled") == "true"
    page.click("#yazy-roll", force=True)  # pressed anyway: nothing happens but the reason
    assert state(page, "yazy")["dice"] == s["dice"] and state(page, "yazy")["moves"] == s["moves"]
    assert "No rerolls left" in page.inner_text("#yazy-message")
    assert page.get_attribute("#yazy-play-dice [data-die='1']", "aria-disabled") == "true"


def test_shut_the_box_undo_and_its_summary(open_stb):
    page = open_stb("?mode=play&seed=4242&seat=1&anim=0")
    page.wait_for_function("document.body.dataset.play === 'roll'")
    assert page.get_attribute("#play-undo", "aria-disabled") == "true"
    page.keyboard.press("r")
    page.wait_for_function("document.body.dataset.play === 'move'")
    page.keyboard.press("h")
    marked = page.eval_on_selector_all("#play-tiles [data-hint]", "t => t.map(b => Number(b.dataset.tile))")
    best = [int(row) for row in page.get_attribute("#play-hints tr.best", "data-move")]
    assert marked == best and "The hint's close" in page.inner_text("#play-hint-mark")
    for tile in best:
        page.keyboard.press(str(tile))
    page.keyboard.press("Enter")
    page.wait_for_function("['roll', 'over', 'computer'].includes(document.body.dataset.play)")
    closed = stb_state(page)
    assert closed["moves"] == 1 and "moves=r" in page.url
    page.keyboard.press("h")  # hints off again
    page.click("#play-undo")
    page.wait_for_function("window.shutTheBox.play.state().moves === 0 && document.body.dataset.play === 'move'")
    undone = stb_state(page)
    assert undone["undone"] == 1 and undone["roll"] == closed["history"][0]["roll"] and len(undone["chances"]) < len(closed["chances"])
    assert re.search(r"[?&]moves=r(&|$)", page.url) and "undone=1" in page.url


# -- Share -----------------------------------------------------------------------------------------------------


CLIPBOARD = "window.copied = null; navigator.clipboard.writeText = async (text) => { window.copied = text; };"
NO_CLIPBOARD = "Object.defineProperty(navigator, 'clipboard', { value: undefined });"


@pytest.mark.parametrize("button, status", [("#yazy-share", "#yazy-message"), ("#yazy-coach-share", "#yazy-coach-share-status")])
def test_share_copies_the_link(open_page, button, status):
    page = open_page("?game=yazy&mode=%s&seed=9" % ("play" if button == "#yazy-share" else "coach"))
    page.evaluate(CLIPBOARD)
    page.click(button)
    page.wait_for_function("window.copied !== null")
    assert page.evaluate("window.copied") == page.url and page.inner_text(status).startswith("Link copied")


def test_share_without_a_clipboard_selects_the_link(open_page):
    page = open_page("?game=pig&mode=play&seed=9&anim=0")
    page.keyboard.press("r")
    page.evaluate(NO_CLIPBOARD)
    page.click("#pig-share")
    field = page.locator("#pig-share-link")
    assert field.is_visible() and field.input_value() == page.url and "moves=1" in page.url
    assert page.evaluate("document.activeElement.id") == "pig-share-link"
    assert page.evaluate("(f => f.selectionStart === 0 && f.selectionEnd === f.value.length)(document.activeElement)")
    assert field.get_attribute("readonly") is not None and "copy it" in page.inner_text("#pig-message")


@pytest.mark.parametrize("mode, button, status", [("play", "#play-share", "#play-message"), ("coach", "#coach-share", "#coach-share-status")])
def test_shut_the_box_share(open_stb, mode, button, status):
    page = open_stb("?mode=%s&seed=4242&anim=0" % mode)
    page.evaluate(CLIPBOARD)
    page.click(button)
    page.wait_for_function("window.copied !== null")
    assert page.evaluate("window.copied") == page.url and page.inner_text(status).startswith("Link copied")


# -- the hint on the board --------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["pig", "goat"])
def test_the_hint_marks_the_best_action(open_page, game):
    page = open_page("?game=%s&mode=play&seed=2&anim=0" % game)
    page.keyboard.press("h")
    best = page.locator("#%s-play [data-hint]" % game)
    assert best.count() == 1 and best.get_attribute("data-hint") == "best"
    words = page.inner_text("#" + best.get_attribute("aria-describedby"))
    assert words.startswith("The hint's choice")
    page.keyboard.press("1")
    assert page.locator("#%s-play [data-hint]" % game).count() == 0
