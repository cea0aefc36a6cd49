"""The pages on a 390-pixel phone, in chromium against ``ShutTheBox serve``: no key hints on a touch screen
(a phone has no keys), the twelve tiles of a 12-tile game at least 44 pixels wide (two rows), the chart's
labels about 12 pixels high, and New game beside the summary at the end of a game.

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

