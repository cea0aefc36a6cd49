"""axe-core on every page and mode, in chromium against ``ShutTheBox serve``: no serious or critical finding
on the Shut the Box page (Coach, Play and Solo) nor on the games page (every game's Coach and Play), each
shown in the light and the dark scheme, Play and Solo with dice on the table (a roll made), and the Play
modes at phone width too. The rule that a control's name holds its visible text
(label-content-name-mismatch, experimental in axe-core) is checked as well.

axe-core comes from the package registry as a test dependency (axe-playwright-python, which bundles it);
it is never part of the shipped pages. Needs /usr/bin/chromium and playwright, as the other browser tests.
"""

from __future__ import annotations

import pytest

from serving import page_opener

FAILING = ("serious", "critical")
OPTIONS = {"resultTypes": ["violations"], "rules": {"label-content-name-mismatch": {"enabled": True}}}
# page file, query, keys pressed once it is ready (a roll: dice on the table), the Shut the Box page's mode
VIEWS = [
    ("", "?mode=coach", "", None),
    ("", "?mode=play&seat=1&seed=4242&anim=0", "r", "play"),
    ("", "?mode=solo&seed=4242&anim=0", "r", "solo"),
    *[("games.html", "?game=%s" % game, "", None) for game in ("toggle", "goat", "yazy", "yahtzee", "pig")],
    ("games.html", "?game=toggle&mode=play&seed=8", "r", None),
    ("games.html", "?game=goat&mode=play&seed=3&seat=1&anim=0", "3", None),
    ("games.html", "?game=yazy&mode=play&seed=21", "r1", None),
    ("games.html", "?game=yahtzee&mode=play&seed=21", "r1", None),
    ("games.html", "?game=pig&mode=play&seed=5&seat=1&anim=0", "r", None),
    # the hint drawn on the board: dice to keep, a box, tiles, a button
    ("games.html", "?game=yazy&mode=play&seed=21", "rh", None),
    ("games.html", "?game=goat&mode=play&seed=3&seat=1&anim=0", "1h", None),
    ("", "?mode=play&seat=1&seed=4242&anim=0", "rh", "play"),
]


@pytest.fixture(scope="module")
def axe():
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        pytest.fail("axe-playwright-python is missing: pip install -e '.[test]'")
    return Axe()


def findings(axe, page):
    """axe-core's serious and critical findings on the page as it is: one line each, with the elements."""
    result = axe.run(page, options=OPTIONS)
    return ["%s (%s): %s at %s" % (v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:5])
            for v in result.response["violations"] if v["impact"] in FAILING]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("page_file, query, keys, settled", VIEWS,
                         ids=[(p or "index") + q.split("&seed")[0] for p, q, _, _ in VIEWS])
def test_no_serious_or_critical_finding(browser, server, axe, page_file, query, keys, settled, scheme):
    with page_opener(browser, server, page_file) as opener:
        phones = (False, True) if "mode=play" in query or "mode=solo" in query else (False,)
        for phone in phones:
            page = opener(query, phone=phone, color_scheme=scheme, wait_ms=60000)
            if settled:
                page.wait_for_function("(m) => document.body.dataset[m] === 'roll'", arg=settled)
            for key in keys:
                page.keyboard.press(key)
            if settled:
                page.wait_for_function("(m) => ['move', 'over'].includes(document.body.dataset[m])", arg=settled)
            if keys:  # the move was made: the dice are on the table
                assert "&moves=" in page.url or "?moves=" in page.url, page.url
            found = findings(axe, page)
            assert not found, "\n".join(found)
