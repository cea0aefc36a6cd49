"""Toggle's Play on the games page (games/toggle.js, toggle-play.js, toggle-table.js) in a real browser
(Debian's chromium driven by Playwright) against ``ShutTheBox serve``: the value of every card a roll
allows and the cost of each card turned agree with the Python API (shutthebox.games.toggle.table), a row
of the history opens its position in Coach with the API's answer, New game and a change of the rules
during a game ask first (both answers), bad link parameters are named, and a seeded game is played to
the end by keyboard only with the dice checked against mulberry32 computed here. Screenshots go to
test-output/ (toggle-play-history.png).

Needs /usr/bin/chromium and the playwright package, like tests/test_web_games.py.
"""

from __future__ import annotations

import random

import pytest

from shutthebox.games.toggle.table import load as load_toggle

from serving import Mulberry32, screenshot
from test_web_yazy import pips
from test_web_numbers import exact_values

CARDS = 12
ALL = (1 << CARDS) - 1
START = "50.317928"


@pytest.fixture(scope="module")
def table():
    table = load_toggle()
    table.preload()
    return table


def cards_of(mask):
    return [c for c in range(1, CARDS + 1) if mask >> (c - 1) & 1]


def choices(x, y):
    return sorted({c for c in (x, y, x + y) if c <= CARDS})


def after(mask, card):
    return mask ^ (1 << (card - 1))


def cost_of(table, mask, x, y, card):
    """Expected rolls given up by turning ``card`` instead of the table's card, from the API alone."""
    best = table.probe_flip(cards_of(mask), x, y)
    return table.probe_expect(cards_of(after(mask, card))) - table.probe_expect(cards_of(after(mask, best)))


def state_of(page):
    return page.evaluate("window.games.toggle.play.state()")


def focused(page):
    return page.evaluate("[document.activeElement.id, document.activeElement.dataset.card || null, document.activeElement.tagName]")


def roll_and_flip(page, card_for):
    """Roll by clicking and turn the card ``card_for(mask, x, y)``: -> (mask before, x, y, card)."""
    page.click("#toggle-roll")
    state = state_of(page)
    x, y = state["dice"]
    card = card_for(state["up"], x, y)
    page.click("#toggle-play-cards [data-card='%d']" % card)
    return state["up"], x, y, card


# -- link parameters -------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", ["42abc", "4294967296", "-1", "1e3", ""])
def test_a_bad_seed_is_named_and_refused(open_page, seed):
    page = open_page("?game=toggle&mode=play&seed=" + seed)
    assert "seed=%s:" % seed in page.inner_text("#link-problems")
    state = state_of(page)
    assert state is not None and str(state["seed"]) != seed.replace("abc", "")
    assert "seed=%d" % state["seed"] in page.url and "Seed %d." % state["seed"] in page.inner_text("#toggle-board")


def test_a_good_seed_is_not_named(open_page):
    page = open_page("?game=toggle&mode=play&seed=4294967295")
    assert page.is_hidden("#link-problems") and state_of(page)["seed"] == 4294967295


def test_a_bad_mode_is_named(open_page):
    page = open_page("?game=toggle&mode=solo")
    assert "mode=solo" in page.inner_text("#link-problems")
    assert page.is_visible("#toggle-coach") and page.is_hidden("#toggle-play")
    assert "mode=coach" in page.url


@pytest.mark.parametrize("up, why", [("1,13", "no card 13"), ("1,1", "listed twice"), ("abc", "'abc' is not a card number")])
def test_bad_face_up_cards_are_named(open_page, up, why):
    page = open_page("?game=toggle&up=" + up)
    problems = page.inner_text("#link-problems")
    assert "up=%s:" % up in problems and why in problems
    pressed = page.locator("#toggle-cards-up [aria-pressed=true]").count()
    assert pressed == CARDS and page.get_attribute("#toggle-answer .answer-value", "data-answer") == START


def test_good_face_up_cards_from_the_link(open_page, table):
    page = open_page("?game=toggle&up=1,4,10&x=2&y=2")
    assert page.is_hidden("#link-problems")
    assert page.get_attribute("#toggle-answer .answer-value", "data-answer") == "%.6f" % table.probe_expect("1,4,10")
    assert page.get_attribute("#toggle-answer .answer-move", "data-answer") == str(table.probe_flip("1,4,10", 2, 2))


# -- asking before a game is thrown away -----------------------------------------------------------


def test_new_game_during_a_game_asks_first(open_page):
    page = open_page("?game=toggle&mode=play&seed=9")
    assert "N" in page.inner_text("#toggle-new") and "N new game" in page.inner_text("#toggle-keys")
    page.keyboard.press("n")  # nothing rolled yet: nothing to lose, no question
    assert page.locator("dialog[open]").count() == 0
    seed = state_of(page)["seed"]
    assert seed != 9
    page.keyboard.press("r")
    dice = state_of(page)["dice"]
    page.keyboard.press("n")
    dialog = page.locator("dialog[open]")
    assert dialog.count() == 1 and "Discard this game?" in dialog.inner_text()
    assert page.evaluate("document.activeElement.textContent") == "Keep playing"
    page.keyboard.press("r")  # the game's keys do nothing behind the question
    page.keyboard.press("h")
    page.keyboard.press("Enter")  # the default keeps the game
    assert page.locator("dialog[open]").count() == 0
    assert state_of(page)["dice"] == dice and state_of(page)["seed"] == seed and state_of(page)["rolls"] == 1
    assert focused(page)[0] == "toggle-new"
    page.keyboard.press("n")
    page.keyboard.press("Escape")  # so does Esc
    assert page.locator("dialog[open]").count() == 0 and state_of(page)["dice"] == dice
    page.click("#toggle-new")
    page.click("dialog[open] [data-ask='discard']")
    state = state_of(page)
    assert state["rolls"] == 0 and state["dice"] is None and state["seed"] != seed
    assert page.locator("#toggle-log li").count() == 0 and "seed=%d" % state["seed"] in page.url
    assert focused(page)[0] == "toggle-roll"
    # Coach and back, or another game's tab and back, keep the game
    page.keyboard.press("r")
    kept = state_of(page)
    page.click("#toggle-mode-coach")
    page.click("#toggle-mode-play")
    assert state_of(page) == kept
    page.click("#tab-yazy")
    page.click("#tab-toggle")
    page.wait_for_function("document.body.dataset.state === 'ready'")
    assert state_of(page) == kept and page.is_visible("#toggle-play")


def test_a_rules_change_during_a_game_asks_first(open_page):
    page = open_page("?game=toggle&mode=play&seed=11")
    page.keyboard.press("r")
    kept = state_of(page)

    def change_rules():
        # sides first: 12 cards of 2-sided dice are refused beside the field, and the game goes on
        page.fill("#toggle-sides", "2")
        page.fill("#toggle-cards", "4")
        assert "can never all be face down" in page.inner_text("#toggle-cards-error")
        assert page.locator("dialog[open]").count() == 0
        page.dispatch_event("#toggle-cards", "change")
        dialog = page.locator("dialog[open]")
        assert dialog.count() == 1 and "Discard this game?" in dialog.inner_text()
        assert page.evaluate("document.activeElement.textContent") == "Keep playing"

    change_rules()
    page.keyboard.press("Enter")  # keep: the fields go back to the game's rules
    assert page.locator("dialog[open]").count() == 0 and state_of(page) == kept
    assert (page.input_value("#toggle-cards"), page.input_value("#toggle-sides")) == ("12", "6")
    assert "cards=12" in page.url and page.locator("#toggle-play-cards button").count() == CARDS
    assert focused(page)[2] != "BODY"
    change_rules()
    page.keyboard.press("Escape")
    assert state_of(page) == kept and page.input_value("#toggle-cards") == "12"
    change_rules()
    page.click("dialog[open] [data-ask='discard']")
    page.wait_for_function("document.querySelectorAll('#toggle-play-cards button').length === 4")
    state = state_of(page)
    assert state["rolls"] == 0 and state["up"] == 15 and "cards=4" in page.url and "sides=2" in page.url
    assert "expects" in page.inner_text("#toggle-message")
    # no game in progress (none rolled yet): the rules change at once
    page.fill("#toggle-cards", "12")
    page.fill("#toggle-sides", "6")  # 12 cards of 2-sided dice, refused as the cards field is left
    page.dispatch_event("#toggle-sides", "change")
    page.wait_for_function("document.querySelectorAll('#toggle-play-cards button').length === 12")
    assert page.locator("dialog[open]").count() == 0 and state_of(page)["up"] == ALL


# -- coaching inside Play --------------------------------------------------------------------------


def test_a_history_row_opens_its_position_in_coach(open_page, table):
    page = open_page("?game=toggle&mode=play&seed=31", phone=True)
    fits = "document.documentElement.scrollWidth <= window.innerWidth"
    rows = []
    def card_for(mask, x, y):
        """The table's card, except at rolls 2 and 5: another one."""
        best = table.probe_flip(cards_of(mask), x, y)
        return best if len(rows) not in (1, 4) else next(c for c in choices(x, y) if c != best)

    for _ in range(6):
        rows.append(roll_and_flip(page, card_for))
    assert page.locator("#toggle-log li button").count() == 6
    page.keyboard.press("r")
    page.keyboard.press("h")  # the hint's list fits a phone too
    assert page.locator("#toggle-hint-values li").count() >= 2 and page.evaluate(fits)
    kept = state_of(page)
    for index in (1, 4, 0):
        mask, x, y, card = rows[index]
        page.click("#toggle-log [data-roll='%d']" % (index + 1))
        assert page.is_visible("#toggle-coach") and page.is_hidden("#toggle-play")
        assert focused(page)[0] == "toggle-mode-play"
        pressed = page.evaluate("[...document.querySelectorAll('#toggle-cards-up [aria-pressed=true]')].map(b => Number(b.dataset.value))")
        assert pressed == cards_of(mask)
        assert (page.input_value("#toggle-x"), page.input_value("#toggle-y")) == (str(x), str(y))
        assert page.get_attribute("#toggle-answer .answer-value", "data-answer") == "%.6f" % table.probe_expect(cards_of(mask))
        assert page.get_attribute("#toggle-answer .answer-move", "data-answer") == str(table.probe_flip(cards_of(mask), x, y))
        assert "x=%d" % x in page.url and "y=%d" % y in page.url and page.evaluate(fits)
        page.keyboard.press("Enter")  # the focused Play button: back to the game, kept
        assert page.is_visible("#toggle-play") and state_of(page) == kept


def test_hint_values_match_the_api(open_page, table):
    page = open_page("?game=toggle")
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    rng = random.Random(640)
    questions = [[ALL, 3, 4], [1, 1, 1], [ALL, 6, 6], [0b100000000000, 6, 6]]
    while len(questions) < 300:
        questions.append([rng.randrange(1, ALL + 1), rng.randint(1, 6), rng.randint(1, 6)])
    got = page.evaluate("qs => window.games.toggle.manyCardValues(qs.map(q => ({up: q[0], x: q[1], y: q[2]})))", questions)
    non_optimal = 0
    for (mask, x, y), values in zip(questions, got):
        up = cards_of(mask)
        best = table.probe_flip(up, x, y)
        best_value = table.probe_expect(cards_of(after(mask, best)))
        assert values["best"] == best and values["value"] == best_value, (mask, x, y)
        assert [c["card"] for c in values["cards"]] == choices(x, y)
        for c in values["cards"]:
            want = table.probe_expect(cards_of(after(mask, c["card"])))
            assert c["value"] == want, (mask, x, y, c)
            assert c["cost"] == want - best_value and c["cost"] >= 0
            non_optimal += c["card"] != best
    assert non_optimal >= 200
    # no values for a question without a card to turn
    errors = page.evaluate("""[window.games.toggle.cardValues({up: 0, x: 3, y: 4}), window.games.toggle.cardValues({up: 4095, x: 7, y: 1}),
        window.games.toggle.cardValues({up: 4095, x: null, y: null}), window.games.toggle.cardValues({up: [13], x: 1, y: 1})]""")
    assert "game is over" in errors[0]["error"] and "not 7" in errors[1]["error"]
    assert "dice" in errors[2]["error"] and "no card 13" in errors[3]["error"]
    # the hint in Play lists the same values, printed as the command line prints them
    page.click("#toggle-mode-play")
    page.keyboard.press("h")
    assert START in page.inner_text("#toggle-message") and page.locator("#toggle-hint-values li").count() == 0
    for _ in range(3):
        page.click("#toggle-roll")
        state = state_of(page)
        x, y = state["dice"]
        page.click("#toggle-hint")
        assert focused(page)[0] == "toggle-hint"
        best = table.probe_flip(cards_of(state["up"]), x, y)
        shown = page.evaluate("[...document.querySelectorAll('#toggle-hint-values li')].map(li => [Number(li.dataset.card), li.dataset.value, li.className])")
        assert sorted(c for c, _, _ in shown) == choices(x, y)
        for card, value, klass in shown:
            assert value == "%.6f" % table.probe_expect(cards_of(after(state["up"], card)))
            assert (klass == "best") == (card == best)
        assert "Hint: turn card %d" % best in page.inner_text("#toggle-message")
        page.click("#toggle-play-cards [data-card='%d']" % best)
        assert page.locator("#toggle-hint-values li").count() == 0


def test_the_cost_of_a_card_that_is_not_the_tables(open_page, table):
    page = open_page("?game=toggle&mode=play&seed=5")
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    costs = []

    def worst(mask, x, y):
        return max(choices(x, y), key=lambda c: table.probe_expect(cards_of(after(mask, c))))

    for _ in range(40):
        if len(costs) == 4:
            break
        mask, x, y, card = roll_and_flip(page, worst)
        cost = cost_of(table, mask, x, y, card)
        text = page.inner_text("#toggle-feedback")
        if card == table.probe_flip(cards_of(mask), x, y):
            assert ": optimal;" in text and "cost" not in text, text
            continue
        best = table.probe_flip(cards_of(mask), x, y)
        assert text.startswith("Card %d: cost %.6f expected rolls" % (card, cost)), text
        assert "the table's card %d" % best in text
        costs.append(cost)
        row = page.locator("#toggle-log li").last.inner_text()
        assert "card %d (cost %.6f; best %d)" % (card, cost, best) in row
    assert len(costs) == 4 and state_of(page)["cost"] == pytest.approx(sum(costs), abs=1e-12)


# -- a whole game by keyboard only -----------------------------------------------------------------


def test_a_seeded_game_by_keyboard_only(open_page, table):
    seed = 640
    page = open_page("?game=toggle&mode=play&seed=%d" % seed)
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    dice = Mulberry32(seed)
    mask, rolls, total = ALL, 0, 0.0
    rng = random.Random(seed)
    while mask:
        page.keyboard.press("r")
        rolls += 1
        x, y = dice.die(), dice.die()
        assert state_of(page)["dice"] == [x, y]
        assert pips(page, "#toggle-dice") == [x, y]
        allowed = choices(x, y)
        assert focused(page)[1] == str(allowed[0])  # the first card the dice allow
        if rolls % 3 == 0:
            page.keyboard.press("h")
            assert focused(page)[1] == str(allowed[0])  # the hint leaves the focus where it was
            assert page.locator("#toggle-hint-values li").count() == len(allowed)
        best = table.probe_flip(cards_of(mask), x, y)
        card = best if rolls % 4 or len(allowed) == 1 else rng.choice([c for c in allowed if c != best])
        if rolls == 1:  # the arrows go round the row of cards
            page.keyboard.press("ArrowLeft")
            assert focused(page)[1] == str(allowed[0] - 1 or CARDS)
            page.keyboard.press("ArrowRight")
        for _ in range(card - allowed[0]):
            page.keyboard.press("Tab" if rolls % 2 else "ArrowRight")  # every card is a button, in order
        assert focused(page)[1] == str(card)
        page.keyboard.press("Enter")
        cost = cost_of(table, mask, x, y, card)
        total += cost
        text = page.inner_text("#toggle-feedback")
        assert ("optimal" in text) == (card == best), text
        assert (": optimal;" in text and "cost" not in text) if card == best else ("cost %.6f" % cost) in text, text
        mask = after(mask, card)
        assert focused(page)[0] == ("toggle-roll" if mask else "toggle-new")
        assert rolls < 2000
    state = state_of(page)
    assert state["over"] and state["rolls"] == rolls and state["up"] == 0
    assert sum(not m["optimal"] for m in state["moves"]) >= 1
    message = page.inner_text("#toggle-message")
    assert "after %d rolls" % rolls in message and START in message and "cost %.6f" % total in message
    assert page.locator("#toggle-log li").count() == rolls
    # a long history is folded to its last ten rows, numbered as played; one press shows them all
    assert rolls > 20, rolls
    rows = page.locator("#toggle-log li")
    assert [rows.nth(i).is_visible() for i in range(rolls)] == [False] * (rolls - 10) + [True] * 10
    assert rows.last.get_attribute("value") == str(rolls)
    assert page.inner_text("#toggle-log-all") == "Show all %d moves (%d earlier ones hidden)" % (rolls, rolls - 10)
    page.click("#toggle-log-all")
    assert rows.first.is_visible() and page.get_attribute("#toggle-log-all", "aria-expanded") == "true"
    screenshot(page, "toggle-play-history.png")
    assert page.is_visible("#toggle-review #toggle-review-new")  # New game beside the summary too
    # keys after the end say why nothing happens, and N starts a new game at once (nothing to lose)
    page.keyboard.press("r")
    assert "game is over" in page.inner_text("#toggle-message")
    page.keyboard.press("n")
    assert page.locator("dialog[open]").count() == 0
    assert state_of(page)["rolls"] == 0 and focused(page)[0] == "toggle-roll"


def test_face_up_cards_in_the_notation(open_page):
    """The link's `up` is a state as `ShutTheBox toggle --expect` reads it: digits run together with 9
    cards or fewer (`14`), commas with more (`12` is ambiguous and named, `12,` is card 12), `all`, `none`;
    the page writes it back that way."""
    from urllib.parse import parse_qs, urlsplit

    from shutthebox.games.toggle.rules import Rules

    small = load_toggle(Rules(cards=4, sides=2), build=False)
    face_up = "[...document.querySelectorAll('#toggle-cards-up [aria-pressed=true]')].map(b => Number(b.dataset.value))"
    up_of = lambda page: parse_qs(urlsplit(page.url).query, keep_blank_values=True)["up"][0]  # noqa: E731
    page = open_page("?game=toggle&cards=4&sides=2&up=14&x=1&y=2")
    assert page.is_hidden("#link-problems") and page.evaluate(face_up) == [1, 4]
    assert page.get_attribute("#toggle-answer .answer-value", "data-answer") == "%.6f" % small.probe_expect("14")
    assert up_of(page) == "14" and "face up: 14" in page.inner_text("#toggle-answer")
    for up, cards, written, named in [("12", list(range(1, CARDS + 1)), "all", "ambiguous"), ("12,", [12], "12,", None),
                                      ("1 4 10", [1, 4, 10], "1,4,10", None), ("none", [], "none", None),
                                      ("3,", [3], "3", None), (" none ", [], "none", None)]:
        page = open_page("?game=toggle&up=" + up)
        assert page.evaluate(face_up) == cards, up
        assert up_of(page) == written, up
        if named:
            problems = page.inner_text("#link-problems")
            assert "up=%s:" % up in problems and named in problems and "12," in problems, problems
        else:
            assert page.is_hidden("#link-problems"), up
