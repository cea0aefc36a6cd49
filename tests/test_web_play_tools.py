"""Play's tools on both pages, in chromium: Undo (U and a button) in every game's Play on the shell (lib/play.js)
and in Shut the Box's Play and Solo; Share (lib/share.js) in Play, Solo and Coach, by the clipboard and, without one,
a selected read-only field; Reroll refused at 0 rerolls; the hint drawn on Pig's and Goat's buttons, on toggle's
cards, on the set-aside dice (Threes), on Shut the Box's tiles and on Coach's dice you tap (yazy, Threes)."""

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


def test_solo_undo_replays_without_the_last_close(open_stb):
    """Solo's Undo (button and U): the last close taken back, the seeded game replayed to its roll, its cost
    gone; `undone` in the link, and a refresh of that link keeps the count."""
    page = open_stb("?mode=solo&seed=4242&anim=0")
    solo = lambda: page.evaluate("window.shutTheBox.solo.state()")
    page.wait_for_function("document.body.dataset.solo === 'roll'")
    assert page.get_attribute("#solo-undo", "aria-disabled") == "true"
    closes = []
    while len(closes) < 2:
        page.keyboard.press("r")
        page.wait_for_function("['move', 'over'].includes(document.body.dataset.solo)")
        if solo()["over"]:
            pytest.fail("seed 4242 ended before two closes")
        closes.append(solo())
        page.keyboard.press("h")  # hints: the legal closes ranked, the last (worst) one taken
        move = page.eval_on_selector_all("#solo-moves tr[data-move]", "rows => rows.map((r) => r.dataset.move)")[-1]
        page.keyboard.press("h")
        for tile in move:
            page.keyboard.press(tile)
        page.keyboard.press("Enter")
        page.wait_for_function("['roll', 'over'].includes(document.body.dataset.solo)")
    after = solo()
    assert after["moves"] == 2
    page.click("#solo-undo")
    page.wait_for_function("window.shutTheBox.solo.state().moves === 1 && document.body.dataset.solo === 'move'")
    undone = solo()
    assert undone["undone"] == 1 and undone["roll"] == closes[1]["roll"] and undone["position"] == closes[1]["position"]
    assert undone["costs"] == after["costs"][:1] and "undone=1" in page.url
    page.keyboard.press("u")
    page.wait_for_function("window.shutTheBox.solo.state().moves === 0 && document.body.dataset.solo === 'move'")
    assert solo()["undone"] == 2 and solo()["roll"] == closes[0]["roll"]
    page.reload()
    page.wait_for_function("document.body.dataset.solo === 'move'")
    assert solo()["undone"] == 2 and solo()["moves"] == 0


def test_a_solo_links_undone_is_solos_alone(open_stb):
    """`undone` counts the moves taken back in the link's own mode: Play, opened beside a Solo link, took back none."""
    page = open_stb("?mode=solo&seed=4242&moves=r&undone=3&anim=0")
    page.wait_for_function("document.body.dataset.solo === 'move'")
    assert page.evaluate("window.shutTheBox.solo.state().undone") == 3
    assert stb_state(page)["undone"] == 0


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


@pytest.mark.parametrize("mode, button, status", [("play", "#play-share", "#play-message"), ("solo", "#solo-share", "#solo-message"),
                                                  ("coach", "#coach-share", "#coach-share-status")])
def test_shut_the_box_share(open_stb, mode, button, status):
    page = open_stb("?mode=%s&seed=4242&anim=0" % mode)
    if mode != "coach":  # the game has started (Solo's starts once its table is read): it says whose turn it is
        page.wait_for_function("document.querySelector(%r).textContent.trim() !== ''" % status)
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


@pytest.mark.parametrize("game, word", [("toggle", "best"), ("threes", "aside")])
def test_the_hint_marks_the_board_after_a_roll(open_page, game, word):
    """Toggle's best card, and the dice Threes' best choice sets aside, drawn until the next move."""
    page = open_page("?game=%s&mode=play&seed=2&anim=0" % game)
    page.keyboard.press("r")
    page.keyboard.press("h")
    best = page.get_attribute("#%s-play li.best[data-move]" % game, "data-move")
    marked = page.locator("#%s-play [data-hint]" % game)
    assert {marked.nth(i).get_attribute("data-hint") for i in range(marked.count())} == {word}
    if game == "toggle":
        assert marked.count() == 1 and "card %s" % marked.get_attribute("data-card") == best
    else:
        faces = sorted(marked.nth(i).get_attribute("data-face") for i in range(marked.count()))
        assert "set aside " + " ".join(faces) == best, (faces, best)
    assert page.inner_text("#" + marked.first.get_attribute("aria-describedby")).startswith("The hint's choice")
    marked.first.click()
    assert page.locator("#%s-play [data-hint]" % game).count() == 0
