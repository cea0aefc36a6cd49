"""The pages on a 390-pixel phone, in chromium against ``ShutTheBox serve``: every game's answer and first controls
in sight without scrolling (390x844), no key hints on a touch screen (a phone has no keys), the twelve tiles of a
12-tile game at least 44 pixels wide (two rows), the chart's labels about 12 pixels high, and New game beside the
summary at the end of a game.

Needs /usr/bin/chromium and playwright, as tests/test_web_browser.py.
"""

from __future__ import annotations

import pytest

from serving import page_opener

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def open_index(browser, server):
    with page_opener(browser, server) as opener:
        yield opener


@pytest.mark.parametrize("page_file, query", [("", "?mode=play&anim=0"), ("games.html", "?game=yazy&mode=play")])
def test_no_key_hints_on_a_touch_screen(browser, server, page_file, query):
    shown = {}
    for touch in (False, True):
        context = browser.new_context(viewport=PHONE, has_touch=touch, is_mobile=touch)
        try:
            page = context.new_page()
            page.goto(server + page_file + query)
            page.wait_for_function("document.body.dataset.state === 'ready'")
            shown[touch] = page.evaluate("""[...document.querySelectorAll('kbd, .keys')]
                .filter((k) => k.getClientRects().length > 0).length""")
        finally:
            context.close()
    assert shown[False] > 0 and shown[True] == 0, shown


def test_twelve_tiles_are_wide_enough_and_the_chart_readable(open_index):
    page = open_index("?mode=play&tiles=12&seed=7&anim=0", phone=PHONE)
    page.wait_for_function("document.body.dataset.play === 'roll'")
    widths = page.eval_on_selector_all("#play-tiles [data-tile]", "ts => ts.map((t) => t.getBoundingClientRect().width)")
    assert len(widths) == 12 and min(widths) >= 44, widths
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.keyboard.press("r")
    page.wait_for_function("['move', 'over', 'roll'].includes(document.body.dataset.play) && "
                           "document.querySelectorAll('#chart text').length > 0")
    heights = page.eval_on_selector_all("#chart text", "ts => ts.map((t) => t.getBoundingClientRect().height)")
    assert heights and min(heights) >= 11, heights



# The games page's games (games.json lists them; tests/test_web_games.py checks the tabs against it).
GAMES = ["toggle", "goat", "yazy", "yahtzee", "pig", "threes"]
IN_VIEW = "(e) => { const r = e.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }"


@pytest.fixture
def open_games(browser, server):
    with page_opener(browser, server, "games.html") as opener:
        yield opener


@pytest.mark.parametrize("game", GAMES)
def test_coach_answers_above_the_fold(open_games, game):
    """On a 390x844 phone Coach's answer is in sight without scrolling: the rules start folded (their summary
    says them on one line), and an answer block below the screen's foot is held there, the same words."""
    page = open_games("?game=%s&mode=coach" % game, phone=PHONE)
    assert page.eval_on_selector("#%s-fold" % game, "(d) => !d.open && d.getBoundingClientRect().bottom < 300")
    seen = page.evaluate("""([game, inView]) => {
        inView = eval(inView);
        const lines = [...document.querySelectorAll(`#${game}-answer :is(.answer-value, .answer-move)`)]
            .filter((p) => p.innerText.trim());
        const peek = document.querySelector(`#${game}-coach .answer-peek`);
        const held = peek && !peek.hidden && inView(peek) ? [...peek.querySelectorAll('p')].map((p) => p.innerText) : [];
        return { lines: lines.map((p) => p.innerText), inSight: lines.every(inView), held };
    }""", [game, IN_VIEW])
    assert seen["lines"][0].strip(), seen
    assert seen["inSight"] or seen["held"] == seen["lines"], seen
    if game == "yahtzee":  # its card is long: the answer is held at the foot; a press scrolls to it
        assert seen["held"], seen
        page.click("#%s-coach .answer-peek" % game)
        page.wait_for_function("(g) => document.querySelector(`#${g}-coach .answer-peek`).hidden", arg=game)


@pytest.mark.parametrize("game", GAMES)
def test_play_controls_above_the_fold(open_games, game):
    """On a 390x844 phone Play's first move (the primary button and the buttons beside it), Hint, Undo and New
    game are in sight without scrolling."""
    page = open_games("?game=%s&mode=play&seed=3&anim=0" % game, phone=PHONE)
    out = page.evaluate("""([game, inView]) => {
        inView = eval(inView);
        const play = document.getElementById(`${game}-play`);
        const primary = play.querySelector('button.primary');
        const named = [...play.querySelectorAll('button')].filter((b) => /^(Hint|Undo|New game)$/.test(b.innerText.trim()));
        const buttons = [...primary.parentElement.querySelectorAll(':scope > button'), ...named];
        return buttons.filter((b) => b.getClientRects().length && !inView(b)).map((b) => b.id || b.innerText);
    }""", [game, IN_VIEW])
    assert out == [], out


@pytest.mark.parametrize("query, wanted", [("?mode=coach", ["#coach-summary"]),
                                           ("?mode=play&anim=0", ["#roll", "#play-undo", "#play-hint"]),
                                           ("?mode=solo", ["#solo-roll", "#solo-undo", "#solo-hints"])])
def test_the_shut_the_box_page_answers_above_the_fold(open_index, query, wanted):
    """The Shut the Box page on a 390x844 phone: Coach's summary (the answer) and each game mode's Roll, Undo and
    Hint in sight without scrolling."""
    page = open_index(query, phone=PHONE)
    page.wait_for_function("document.body.dataset.state === 'ready'")
    out = page.evaluate("([wanted, inView]) => wanted.filter((s) => !eval(inView)(document.querySelector(s)))",
                        [wanted, IN_VIEW])
    assert out == [], out
