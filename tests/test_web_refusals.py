"""What the pages do when a table cannot be had, in chromium against ``ShutTheBox serve``: the Solve question
in a player's words (the file and its sizes one click away, as the command line says them); on the games page,
Cancel at that question leaves the game on the table shipped with it, and says so (as the Shut the Box
page falls back to its first table), never only an error and no game; the Shut the Box page's Rules control
shows a server's refusal in the page, with no uncaught error (page_opener fails a test on any); and the
games page reads games.json once.

Needs /usr/bin/chromium and playwright, as tests/test_web_browser.py.
"""

from __future__ import annotations

import re

import pytest

from serving import page_opener, running_server


@pytest.mark.parametrize("game, query, field, shipped, words", [
    ("goat", "goal=50", "#goat-goal", "100", "Shown instead: the goal 100"),
    ("toggle", "cards=10&sides=5", "#toggle-cards", "12", "Shown instead: 12 cards and dice of 6 sides"),
    ("pig", "variant=pig&goal=40", "#pig-goal", "100", "Shown instead: pig: first to 100"),
])
def test_cancel_at_the_solve_question_falls_back_to_the_shipped_table(open_page, game, query, field, shipped, words):
    page = open_page("?game=%s&%s" % (game, query), ready=False)
    page.wait_for_selector("#solve-cancel")
    assert page.evaluate("document.body.dataset.state") == "asking"
    # the question speaks to a player: the rules and the time, the file and its sizes one click away
    shown, said = page.inner_text("#solve-question"), page.text_content("#solve-question")
    assert "These rules" in shown and "on this computer" in shown, shown
    sizes = re.compile(r"\d (bytes|kB|MB|GB)\b")
    assert ".msgpack" not in shown and not sizes.search(shown) and ".msgpack" in said and sizes.search(said), (shown, said)
    page.click("#solve-cancel")
    page.wait_for_function("document.body.dataset.state === 'ready'")
    notice = page.locator("#%s-error" % game)
    assert notice.is_visible() and "notice" in notice.get_attribute("class")
    assert "not solved" in notice.inner_text() and words in notice.inner_text(), notice.inner_text()
    assert page.input_value(field) == shipped
    assert page.is_visible("#%s-coach" % game) and page.is_hidden("#error")
    # the game is there: Play starts on the shipped table
    page.click("#%s-mode-play" % game)
    assert page.evaluate("(g) => window.games[g].play.state() !== null", game)


def test_the_games_page_reads_games_json_once(open_page):
    asked = []

    def count(route):
        asked.append(route.request.url)
        route.continue_()

    page = open_page("?game=goat", routes=[("**/games.json*", count)])
    page.click("#tab-toggle")
    page.wait_for_function("document.body.dataset.state === 'ready' && document.body.dataset.game === 'toggle'")
    assert len(asked) == 1, asked


@pytest.fixture(scope="module")
def limited(tmp_path_factory):
    """A server that solves nothing above 1 MB of memory, solving into a fresh cache."""
    with running_server("--solve-limit", "1MB", env={"SHUTTHEBOX_CACHE": str(tmp_path_factory.mktemp("cache"))}) as (url, _):
        yield url


def test_the_rules_controls_refusal_is_shown_and_thrown_nowhere(browser, limited):
    with page_opener(browser, limited) as opener:
        page = opener("?mode=coach")
        page.click("#rules-summary")
        page.fill("#rules-players", "4")
        page.fill("#rules-tiles", "12")
        page.click("#rules-apply")
        page.wait_for_selector("#rules-error:not([hidden])")
        said = page.inner_text("#rules-error")
        assert "above this server's limit of 1 MB" in said and "t12-2d6-one6-p4" in said, said
        assert page.evaluate("window.shutTheBox.tableName()") == "standard.msgpack"
    # page_opener, on leaving: no script error of the page (an unhandled refusal would be one)
