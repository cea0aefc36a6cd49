"""Numbers as players read them (lib/numbers.js), in chromium: a chance shows one decimal, a press on it shows
the exact six decimals the command line prints, a second press the short form again; the page's "Exact values"
button does the same by the keyboard, for the numbers shown then and those shown after (Shut the Box's Coach,
Pig's Play hint)."""

from __future__ import annotations

import re
import subprocess

import pytest

from serving import COMMAND, page_opener

SHORT_PERCENT = re.compile(r"^(\d{1,3}\.\d|<0\.1|>99\.9)%$")


def said(*args):
    """What ``ShutTheBox ARGS`` prints (one line)."""
    done = subprocess.run(COMMAND + list(args), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def exact_values(page):
    """Every number of the page in its exact form, the command line's six decimals (the page's Exact values
    toggle, pressed without moving the focus: a keyboard test goes on where it was)."""
    if page.get_attribute("#exact-values", "aria-pressed") != "true":  # remembered from a page opened before
        page.evaluate("document.getElementById('exact-values').click()")
    assert page.get_attribute("#exact-values", "aria-pressed") == "true"


def short_of(exact):
    """The one-decimal percent of an exact six-decimal chance, as lib/numbers.js writes it."""
    return "%.1f%%" % (100 * float(exact))


@pytest.fixture
def open_stb(browser, server):
    """The Shut the Box page (index.html)."""
    with page_opener(browser, server) as opener:
        yield opener


def test_a_chance_in_coach_is_short_and_its_exact_value_a_press_away(open_stb):
    page = open_stb("?mode=coach&pos=146789&player=1")
    exact = said("--one", "--expect", "146789")
    number = page.locator("#coach-summary span.num").first
    assert page.inner_text("#coach-summary").startswith("Player one at 146789, before rolling: wins %s." % short_of(exact))
    assert SHORT_PERCENT.match(number.inner_text()) and number.inner_text() == short_of(exact)
    assert number.get_attribute("title") == "exact: %s" % exact
    number.click()
    assert number.inner_text() == exact
    assert page.get_attribute("#exact-values", "aria-pressed") == "true"
    # every number of the page follows: the rolls' chances too
    assert all(re.match(r"^\d\.\d{6}$", t) for t in page.locator("#coach-moves span.num").all_inner_texts())
    number.click()
    assert number.inner_text() == short_of(exact) and page.get_attribute("#exact-values", "aria-pressed") == "false"
    # remembered: the page opened again shows the exact values at once
    page.click("#exact-values")
    page.reload()
    page.wait_for_function("document.body.dataset.state === 'ready'")
    assert page.locator("#coach-summary span.num").first.inner_text() == exact


def test_a_chance_in_pigs_play_hint_and_the_button_by_the_keyboard(open_page):
    page = open_page("?game=pig&mode=play&seed=5&anim=0")
    p = page.evaluate("window.games.pig.play.state().position")
    page.keyboard.press("h")
    line = said("pig", "--options", str(p["i"]), str(p["j"]), str(p["k"]))
    printed = {part.split()[0]: part.split()[1] for part in line.split("; ")}
    for choice, exact in printed.items():
        item = page.locator("#pig-hint-values li[data-choice='%s']" % choice)
        number = item.locator("span.num")
        assert number.inner_text() == short_of(exact), (choice, item.inner_text())
        assert re.match(r"^%s: \d{1,3}\.\d%% \(" % choice, item.inner_text())
        number.click()
        assert number.inner_text() == exact
        number.click()
        assert number.inner_text() == short_of(exact)
    # the page's button, by the keyboard: the numbers shown then, and those shown after it
    page.focus("#exact-values")
    page.keyboard.press("Enter")
    assert page.get_attribute("#exact-values", "aria-pressed") == "true"
    assert page.locator("#pig-hint-values span.num").first.inner_text() in printed.values()
    best = page.get_attribute("#pig-hint-values li.best", "data-choice")
    page.click("#pig-%s" % best)
    feedback = page.locator("#pig-feedback span.num")
    assert feedback.count() and all(re.match(r"^\d\.\d{6}$", t) for t in feedback.all_inner_texts())
    assert printed[best] in page.inner_text("#pig-feedback")
    page.focus("#exact-values")
    page.keyboard.press("Space")
    assert page.get_attribute("#exact-values", "aria-pressed") == "false"
    assert feedback.first.inner_text() == short_of(printed[best])


def test_an_expected_score_in_yazys_coach_is_one_decimal_and_the_command_lines_a_press_away(open_page):
    """yazy's expected points: one decimal beside the label's unit words, a press shows the six decimals
    `ShutTheBox yazy --expect` prints; data-answer keeps them throughout."""
    page = open_page("?game=yazy&cats=all&dice=13366&rerolls=2")
    exact = said("yazy", "--expect", "all", "13366", "2")
    line = page.locator("#yazy-answer .answer-value")
    number = line.locator("span.num")
    assert line.inner_text() == "Expected score to come (2 rerolls left): %.1f" % float(exact)
    assert re.match(r"^\d+\.\d$", number.inner_text()) and number.get_attribute("title") == "exact: %s" % exact
    number.click()
    assert number.inner_text() == exact and line.inner_text() == "Expected score to come (2 rerolls left): %s" % exact
    assert line.get_attribute("data-answer") == exact
    number.click()
    assert number.inner_text() == "%.1f" % float(exact)
