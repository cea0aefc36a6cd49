"""The games page (shutthebox/web/static/games.html: toggle, Goat, yazy) in a real browser (Debian's
chromium driven by Playwright) against ``ShutTheBox serve``: each game's coach gives the Python API's
answers, printed as the command line prints them (bulk through the page's own functions, a few by
clicks and typing), bad input gets a message and no answer, damaged tables are refused, a seeded
toggle game is played to the end by clicks and another by keyboard only, and the page fits a 375-pixel
phone. Screenshots go to test-output/.

Needs /usr/bin/chromium and the playwright package, like tests/test_web_browser.py.
"""

from __future__ import annotations

import os
import random
import struct
import zlib

import pytest

from shutthebox.errors import InvalidQuery
from shutthebox.games.goat.table import action_text, load as load_goat
from shutthebox.games.toggle.table import load as load_toggle
from shutthebox.games.yazy.rules import CATEGORIES, format_categories
from shutthebox.games.yazy.table import load as load_yazy

from serving import ROOT, percent, screenshot
from test_web_numbers import exact_values

DATA = os.path.join(ROOT, "data")


def shown_answer(page, game):
    """(value, move, problem) as the coach shows them."""
    box = "#%s-answer" % game
    return (page.get_attribute(box + " .answer-value", "data-answer"), page.get_attribute(box + " .answer-move", "data-answer"),
            page.inner_text(box + " .answer-problem"))


def message_of(call):
    try:
        call()
    except InvalidQuery as error:
        return str(error)
    raise AssertionError("no InvalidQuery")


# -- toggle ------------------------------------------------------------------------


def toggle_expected(table, mask, x, y):
    cards = [c for c in range(1, 13) if mask >> (c - 1) & 1]
    want = {"value": "%.6f" % table.probe_expect(cards), "move": None, "error": None}
    if x is not None:
        try:
            want["move"] = str(table.probe_flip(cards, x, y))
        except InvalidQuery as error:
            want["error"] = str(error)
    return want


def test_toggle_coach_matches_the_api(open_page):
    table = load_toggle()
    page = open_page("?game=toggle")
    rng = random.Random(640)
    questions = [[0, 3, 4], [4095, 3, 4], [4095, None, None]]
    while len(questions) < 300:
        mask = rng.randrange(0, 4096)
        questions.append([mask, None, None] if rng.random() < 0.1 else [mask, rng.randint(1, 6), rng.randint(1, 6)])
    answers = page.evaluate("qs => window.games.toggle.answers(qs.map(q => ({up: q[0], x: q[1], y: q[2]})))", questions)
    for question, got in zip(questions, answers):
        want = toggle_expected(table, *question)
        assert {k: got[k] for k in want} == want, question
    assert answers[1]["value"] == "50.317928" and answers[1]["move"] == "7"
    assert "game is over" in answers[0]["error"]


def test_toggle_coach_by_clicks_and_typing(open_page):
    table = load_toggle()
    page = open_page("?game=toggle")
    assert shown_answer(page, "toggle")[:2] == ("50.317928", "7")
    for mask, x, y in [(0b101101100101, 6, 2), (0b000000001001, 1, 1), (0b100000000000, 6, 6)]:
        for card in range(1, 13):
            button = page.locator("#toggle-cards-up [data-value='%d']" % card)
            if (button.get_attribute("aria-pressed") == "true") != bool(mask >> (card - 1) & 1):
                button.click()
        page.fill("#toggle-x", str(x))
        page.fill("#toggle-y", str(y))
        want = toggle_expected(table, mask, x, y)
        assert shown_answer(page, "toggle") == (want["value"], want["move"] or "", want["error"] or ""), (mask, x, y)
    # a die out of range: a message beside it, and no answer (never a different question)
    page.fill("#toggle-x", "7")
    assert "die x shows 1 to 6, not 7" in page.inner_text("#toggle-x-error")
    assert page.get_attribute("#toggle-x", "aria-invalid") == "true"
    value, move, problem = shown_answer(page, "toggle")
    assert value == "" and move == "" and "corrected" in problem
    page.fill("#toggle-x", "2.5")
    assert "whole number" in page.inner_text("#toggle-x-error")
    page.fill("#toggle-x", "6")
    assert page.is_hidden("#toggle-x-error") and shown_answer(page, "toggle")[0] != ""
    # other rules: 4 cards, 2-sided dice (a shipped table), typed into the rules fields
    page.fill("#toggle-cards", "4")
    page.fill("#toggle-sides", "2")
    page.dispatch_event("#toggle-sides", "change")
    page.wait_for_function("document.querySelectorAll('#toggle-cards-up button').length === 4")
    page.fill("#toggle-x", "1")
    page.fill("#toggle-y", "2")
    small = load_toggle(rules=__import__("shutthebox.games.toggle.rules", fromlist=["Rules"]).Rules(4, 2))
    assert shown_answer(page, "toggle")[:2] == ("%.6f" % small.probe_expect("all"), str(small.probe_flip("all", 1, 2)))
    page.fill("#toggle-cards", "13")
    page.dispatch_event("#toggle-cards", "change")
    assert "can never all be face down" in page.inner_text("#toggle-cards-error")


def play_toggle(page, table, keyboard=False, blunder_at=None):
    """Play the seeded game shown to the end, turning the table's card (once another at move `blunder_at`)."""
    moves = 0
    for _ in range(2000):
        state = page.evaluate("window.games.toggle.play.state()")
        if state["over"]:
            return state
        if keyboard:
            page.keyboard.press("r")
        else:
            page.click("#toggle-roll")
        state = page.evaluate("window.games.toggle.play.state()")
        if not state["dice"]:
            continue  # the roll passed
        x, y = state["dice"]
        up = [c for c in range(1, 13) if state["up"] >> (c - 1) & 1]
        card = table.probe_flip(up, x, y)
        choices = sorted({c for c in (x, y, x + y) if c <= 12})
        if moves == blunder_at and len(choices) > 1:
            card = next(c for c in choices if c != card)
        if keyboard:
            # the focus is on the first card the dice allow; every card is a button in order
            assert page.evaluate("document.activeElement.dataset.card") == str(choices[0])
            for _ in range(card - choices[0]):
                page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.dataset.card") == str(card)
            page.keyboard.press("Enter")
            assert page.evaluate("document.activeElement.id") in ("toggle-roll", "toggle-new")
        else:
            page.click("#toggle-play-cards [data-card='%d']" % card)
        moves += 1
    raise AssertionError("the game did not end")


def test_toggle_a_seeded_game_played_to_the_end_by_clicks(open_page):
    table = load_toggle()
    page = open_page("?game=toggle&mode=play&seed=2024")
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    page.click("#toggle-hint")
    assert "50.317928 expected rolls" in page.inner_text("#toggle-message")
    # a card the dice do not allow is refused with the reason
    page.click("#toggle-roll")
    x, y = page.evaluate("window.games.toggle.play.state().dice")
    bad = next(c for c in range(1, 13) if c not in (x, y, x + y))
    page.click("#toggle-play-cards [data-card='%d']" % bad)
    assert "not card %d" % bad in page.inner_text("#toggle-message")
    page.click("#toggle-hint")
    best = table.probe_flip("all", x, y)
    assert "Hint: turn card %d" % best in page.inner_text("#toggle-message")
    page.click("#toggle-play-cards [data-card='%d']" % best)
    assert "optimal" in page.inner_text("#toggle-feedback")
    state = play_toggle(page, table, blunder_at=3)
    assert state["over"] and state["up"] == 0 and state["rolls"] == len(page.locator("#toggle-log li").all())
    assert any(not m["optimal"] for m in state["moves"]) and state["cost"] > 0
    assert "Every card is face down after %d rolls" % state["rolls"] in page.inner_text("#toggle-message")
    assert "seed=2024" in page.url
    screenshot(page, "games-toggle-play.png")
    # the same seed gives the same dice
    again = open_page("?game=toggle&mode=play&seed=2024")
    again.click("#toggle-roll")
    assert again.evaluate("window.games.toggle.play.state().dice") == [x, y]


def test_toggle_keyboard_only_on_a_phone(open_page):
    table = load_toggle()
    page = open_page("?game=toggle&mode=play&seed=7", phone=True)
    page.keyboard.press("h")
    assert "expected rolls" in page.inner_text("#toggle-message")
    state = play_toggle(page, table, keyboard=True)
    assert state["over"] and all(m["optimal"] for m in state["moves"])
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # the coach by keyboard: Tab reaches the mode buttons and Enter presses them
    page.focus("#toggle-mode-coach")
    page.keyboard.press("Enter")
    assert page.is_visible("#toggle-coach") and page.is_hidden("#toggle-play")
    page.focus("#toggle-x")
    page.keyboard.press("Control+A")
    page.keyboard.type("5")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "toggle-y"
    page.keyboard.press("Control+A")
    page.keyboard.type("6")
    assert shown_answer(page, "toggle")[:2] == ("50.317928", str(table.probe_flip("all", 5, 6)))


# -- Goat --------------------------------------------------------------------------


def goat_expected(table, q):
    player, my, opp, turn, rolls = q["player"], q["my"], q.get("opp"), q["turn"], q["rolls"]
    try:
        if player == 0:
            return {"value": "%.6f" % table.probe_solo(my, turn, rolls),
                    "move": action_text(table.probe_solo_move(my, turn, rolls)), "error": None}
        return {"value": "%.6f" % table.probe_win(player, my, opp, turn, rolls),
                "move": action_text(table.probe_move(player, my, opp, turn, rolls)), "error": None}
    except InvalidQuery as error:
        return {"value": None, "move": None, "error": str(error)}


def random_turn(rng):
    rolls = rng.randint(0, 2)
    return (0 if rolls == 0 else rng.randint(rolls, 21 * rolls)), rolls


def test_goat_coach_matches_the_api(open_page):
    table = load_goat()
    page = open_page("?game=goat")
    rng = random.Random(100)
    questions = [{"player": 1, "my": 50, "opp": 60, "turn": 20, "rolls": 2},
                 {"player": 2, "my": 50, "opp": 120, "turn": 10, "rolls": 1}]
    while len(questions) < 330:
        player = rng.randint(0, 2)
        turn, rolls = random_turn(rng)
        q = {"player": player, "my": rng.randrange(100), "turn": turn, "rolls": rng.randint(0, 2) if rng.random() < 0.05 else rolls}
        if player:
            q["opp"] = rng.randrange(100) if player == 1 or rng.random() < 0.7 else rng.randint(100, 165)
        questions.append(q)
    answers = page.evaluate("qs => window.games.goat.answers(qs)", questions)
    valid = 0
    for question, got in zip(questions, answers):
        want = goat_expected(table, question)
        assert got == want, question
        valid += want["error"] is None
    assert valid >= 250
    assert answers[0]["value"] == "0.426200"


def set_goat(page, player, my, opp, turn, rolls):
    page.check("#goat-player-%d" % player)
    page.fill("#goat-my", str(my))
    if player:
        page.fill("#goat-opp", str(opp))
    page.fill("#goat-turn", str(turn))
    page.fill("#goat-rolls", str(rolls))


def test_goat_coach_by_clicks_and_typing_with_messages(open_page):
    table = load_goat()
    page = open_page("?game=goat")
    assert shown_answer(page, "goat")[:2] == ("%.6f" % table.probe_solo(0), action_text(table.probe_solo_move(0, 0, 0)))
    for player, my, opp, turn, rolls in [(0, 37, None, 12, 1), (1, 50, 60, 20, 2), (2, 90, 130, 0, 0), (2, 10, 99, 33, 2)]:
        set_goat(page, player, my, opp, turn, rolls)
        want = goat_expected(table, {"player": player, "my": my, "opp": opp, "turn": turn, "rolls": rolls})
        assert shown_answer(page, "goat") == (want["value"], want["move"], ""), (player, my, opp, turn, rolls)
    assert page.is_visible("#goat-opp")
    page.check("#goat-player-0")
    assert page.is_hidden("#goat-opp")
    # a question that cannot occur: the command line's reason, and no number
    set_goat(page, 0, 10, None, 50, 2)
    value, move, problem = shown_answer(page, "goat")
    assert (value, move) == ("", "") and problem == "2 rolls cannot make a turn total of 50 (only 2 to 42)"
    page.fill("#goat-turn", "abc")
    assert "whole number" in page.inner_text("#goat-turn-error")
    assert shown_answer(page, "goat")[:2] == ("", "")
    set_goat(page, 1, 100, 3, 0, 0)
    assert "MY 100 has reached the goal 100" in shown_answer(page, "goat")[2]
    screenshot(page, "games-goat.png")


# -- yazy --------------------------------------------------------------------------


def yazy_expected(table, cats, dice, rerolls):
    try:
        if dice is None:
            return {"value": "%.6f" % table.probe_expect(cats), "move": None, "error": None}
        return {"value": "%.6f" % table.probe_expect(cats, dice, rerolls), "move": table.probe_move(cats, dice, rerolls),
                "error": None}
    except InvalidQuery as error:
        return {"value": None, "move": None, "error": str(error)}


def test_yazy_coach_matches_the_api(open_page):
    table = load_yazy()
    page = open_page("?game=yazy")
    rng = random.Random(11)
    questions = [[2047, "13366", 2], [2047, "12345", 0], [2047, None, 0], [0, "11111", 1], [5, "1236", 1], [5, "12378", 1]]
    while len(questions) < 320:
        mask = rng.randrange(0, 2048) if rng.random() < 0.97 else 0
        dice = None if rng.random() < 0.08 else "".join(str(rng.randint(1, 6)) for _ in range(5))
        questions.append([mask, dice, rng.randint(0, 2)])
    answers = page.evaluate("qs => window.games.yazy.answers(qs.map(q => ({cats: q[0], dice: q[1], rerolls: q[2]})))",
                            questions)
    for (mask, dice, rerolls), got in zip(questions, answers):
        want = yazy_expected(table, format_categories(mask), dice, rerolls)
        assert got == want, (mask, dice, rerolls)
    assert answers[0] == {"value": "165.722932", "move": "keep 6 6", "error": None}
    assert answers[1]["move"] == "score straight" and answers[2]["value"] == "165.757319"
    # names are read as the command line reads them
    named = page.evaluate("window.games.yazy.answer({cats: ['ones', 'yazy'], dice: '61111', rerolls: 1})")
    assert named == yazy_expected(table, "ones,yazy", "61111", 1)


def test_yazy_coach_by_clicks_and_typing_with_messages(open_page):
    table = load_yazy()
    page = open_page("?game=yazy")
    assert shown_answer(page, "yazy") == ("165.722932", "keep 6 6", "")
    page.click("#yazy-none")
    for name in ("ones", "full-house", "yazy"):
        page.click("#yazy-cats [data-value='%s']" % name)
    page.fill("#yazy-dice", "35353")
    page.check("#yazy-rerolls-1")
    want = yazy_expected(table, "ones,full-house,yazy", "35353", 1)
    assert shown_answer(page, "yazy") == (want["value"], want["move"], "")
    page.fill("#yazy-dice", "")
    assert shown_answer(page, "yazy")[:2] == ("%.6f" % table.probe_expect("ones,full-house,yazy"), "")
    page.fill("#yazy-dice", "3537")
    assert page.inner_text("#yazy-dice-error") == "dice '3537': there are five dice, not 4"
    assert shown_answer(page, "yazy")[:2] == ("", "")
    page.fill("#yazy-dice", "35379")
    assert page.inner_text("#yazy-dice-error") == "dice '35379': a die shows 1 to 6, not 7"
    page.click("#yazy-none")
    page.fill("#yazy-dice", "12345")
    assert shown_answer(page, "yazy")[2] == "no category is open: the game is over, there is no turn to play"
    assert len(CATEGORIES) == page.locator("#yazy-cats button").count()


# -- tables, link, phone -------------------------------------------------------------


def damaged(data, offset, fix_tail=False):
    """A bit flipped at ``offset``; with ``fix_tail`` the whole-file CRC-32 is made right again, so that only
    the array's own (seeded) checksums can tell."""
    data = bytearray(data)
    data[offset] ^= 0x10
    if fix_tail:
        data[-4:] = struct.pack(">I", zlib.crc32(bytes(data[:-4])))
    return bytes(data)


@pytest.mark.parametrize("game, name, words", [
    ("toggle", "toggle-c12-s6.msgpack", "damaged (checksum mismatch in array flip, block "),  # the middle's
    ("toggle-whole", "toggle-c12-s6.msgpack", "is damaged (checksum mismatch);"),
    ("goat", "goat-g100.msgpack", "is damaged (checksum mismatch);"),
    ("yazy", "yazy.msgpack", "damaged (header checksum mismatch)"),
])
def test_a_damaged_table_is_refused_with_a_message(open_page, game, name, words):
    data = open(os.path.join(DATA, name), "rb").read()
    offset = 100 if game == "yazy" else len(data) // 2
    body = damaged(data, offset, fix_tail=game == "toggle")
    game = game.split("-")[0]
    page = open_page("?game=" + game, ready=False,
                     routes=[("**/" + name, lambda route: route.fulfill(status=200, body=body))])
    assert page.evaluate("document.body.dataset.state") == "error"
    text = page.inner_text("#%s-error" % game)
    assert name in text and words in text, text
    assert page.is_hidden("#%s-coach" % game)
    if game == "toggle":
        screenshot(page, "games-damaged.png")


@pytest.mark.parametrize("body, words", [
    (lambda: open(os.path.join(DATA, "toggle-c12-s6.msgpack"), "rb").read()[:5000], "truncated"),
    (lambda: open(os.path.join(DATA, "toggle-c4-s2.msgpack"), "rb").read(), "other rules (cards 4, not 12)"),
    (lambda: open(os.path.join(ROOT, "tests", "data", "bad", "future-version.msgpack"), "rb").read(), "format version 2."),
    (lambda: open(os.path.join(ROOT, "tests", "data", "good", "one-player-t4.msgpack"), "rb").read(),
     'table of the game "one-player", not of "toggle"'),
    (lambda: b"not a table at all", "not a ShutTheBox table"),
])
def test_a_wrong_table_is_refused(open_page, body, words):
    data = body()
    page = open_page("?game=toggle", ready=False,
                     routes=[("**/toggle-c12-s6.msgpack", lambda route: route.fulfill(status=200, body=data))])
    assert page.evaluate("document.body.dataset.state") == "error"
    assert words in page.inner_text("#toggle-error")


def test_a_missing_table_names_the_command_that_solves_it(open_page):
    """Served by a plain static server (no /solve/), a table not shipped is a message naming the command."""
    page = open_page("?game=toggle&cards=11&sides=9", ready=False,
                     routes=[("**/toggle-c11-s9.msgpack", lambda route: route.fulfill(status=404, body=b"")),
                             ("**/solve/**", lambda route: route.fulfill(status=404, body=b""))])
    text = page.inner_text("#toggle-error")
    assert "ShutTheBox serve" in text and "ShutTheBox toggle --cards 11 --sides 9 --expect all" in text


# Every text the status line shows, kept from the page's first moment (a solve may be quick).
WATCH_STATUS = """
window.__status = [];
new MutationObserver(() => {
  document.getElementById('solve-start')?.click();  // a solve starts only on the user's click
  const box = document.getElementById('status');
  if (box && !box.hidden) window.__status.push(box.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""


def test_tables_not_shipped_are_solved_by_the_server_then_answer_as_the_api(open_page, monkeypatch, tmp_path):
    """toggle 5 x 3 and Goat to 20 are not shipped: the page has the server solve them, says so, then
    answers as the Python API does from its own solve (into another cache)."""
    from shutthebox.games.goat.rules import Rules as GoatRules
    from shutthebox.games.toggle.rules import Rules as ToggleRules

    monkeypatch.setenv("SHUTTHEBOX_CACHE", str(tmp_path))
    page = open_page("?game=toggle&cards=5&sides=3", init_script=WATCH_STATUS, wait_ms=120000)
    assert "Solving toggle-c5-s3.msgpack (the first time only)…" in page.evaluate("window.__status")
    table = load_toggle(ToggleRules(cards=5, sides=3))
    rng = random.Random(53)
    questions = [[rng.randrange(0, 32), rng.randint(1, 3), rng.randint(1, 3)] for _ in range(120)]
    answers = page.evaluate("qs => window.games.toggle.answers(qs.map(q => ({up: q[0], x: q[1], y: q[2]})))", questions)
    for question, got in zip(questions, answers):
        want = toggle_expected(table, *question)
        assert {k: got[k] for k in want} == want, question

    page = open_page("?game=goat&goal=20", init_script=WATCH_STATUS, wait_ms=120000)
    assert any(text.startswith("Solving goat-g20.msgpack") for text in page.evaluate("window.__status"))
    table = load_goat(GoatRules(goal=20))
    questions = []
    while len(questions) < 120:
        turn, rolls = random_turn(rng)
        player = rng.randint(0, 2)
        q = {"player": player, "my": rng.randrange(20), "turn": turn, "rolls": rolls}
        if player:
            q["opp"] = rng.randrange(20)
        questions.append(q)
    answers = page.evaluate("qs => window.games.goat.answers(qs)", questions)
    for question, got in zip(questions, answers):
        assert got == goat_expected(table, question), question


def test_index_links_to_the_games_page_and_back(open_page, server, browser):
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(server)
        page.click("#games-link")
        page.wait_for_function("document.body.dataset.state === 'ready'")
        assert page.url.startswith(server + "games.html")
        page.click("text=Shut the Box")
        page.wait_for_url(server + "index.html")
    finally:
        context.close()


@pytest.mark.parametrize("game", ["toggle", "goat", "yazy"])
def test_each_game_fits_a_375_pixel_phone(open_page, game):
    page = open_page("?game=" + game, phone=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert page.is_visible("#%s-answer .answer-value" % game)
    # every input has a label
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('input')]
        .filter(i => !i.labels || !i.labels.length).map(i => i.id)""")
    assert unlabelled == []
    screenshot(page, "games-%s-phone.png" % game)


def test_game_tabs_and_bad_game_parameter(open_page):
    page = open_page("?game=chess")
    assert "game=chess" in page.inner_text("#link-problems")
    page.click("#tab-yazy")
    page.wait_for_function("document.body.dataset.game === 'yazy' && document.body.dataset.state === 'ready'")
    assert page.is_visible("#yazy") and page.is_hidden("#toggle") and "game=yazy" in page.url


def test_the_game_list_is_the_registry_s(open_page):
    """Tabs and links come from games.json (the server writes it from shutthebox/registry.py): a list
    without toggle shows no toggle tab, and a game with a page of its own is a link."""
    import json

    from shutthebox import registry

    page = open_page("?game=yazy")
    tabs = page.evaluate("[...document.querySelectorAll('#game-tabs button')].map(b => b.id)")
    on_page = [game.id for game in registry.declarations() if game.page and game.page.endswith(".js")]
    assert tabs == ["tab-" + name for name in on_page]
    assert page.get_attribute("#other-pages a", "href") == "index.html"

    listed = {"games": [{"id": "yazy", "title": "Yazy", "about": "five dice", "page": "games.html?game=yazy"},
                        {"id": "goat", "title": "Goat", "about": "up to six dice", "page": "games.html?game=goat"}]}
    page = open_page("?game=yazy", routes=[("**/games.json", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(listed)))])
    assert page.evaluate("[...document.querySelectorAll('#game-tabs button')].map(b => b.textContent)") == ["Yazy", "Goat"]
    assert page.locator("#toggle").count() == 0 and page.inner_text("#yazy .hint") == "five dice"


def test_without_the_game_list_the_page_says_why(open_page):
    page = open_page("", ready=False, routes=[("**/games.json", lambda route: route.fulfill(status=404, body=b""))])
    assert page.evaluate("document.body.dataset.state") == "error"
    assert "games.json" in page.inner_text("#error") and "ShutTheBox serve" in page.inner_text("#error")


def test_another_game_s_link_parameters_do_not_leak(open_page):
    """A seed chosen in toggle's Play is not goat's seed, and coming back restores toggle's link."""
    page = open_page("?game=toggle&mode=play&seed=42")
    page.click("#tab-goat")
    page.wait_for_function("document.body.dataset.game === 'goat' && document.body.dataset.state === 'ready'")
    assert "seed=42" not in page.url and "mode=play" not in page.url, page.url
    page.click("#tab-toggle")
    page.wait_for_function("document.body.dataset.game === 'toggle' && document.body.dataset.state === 'ready'")
    assert "seed=42" in page.url and "mode=play" in page.url


# -- link parameters: every one of every game, each refused value named in the command line's words --


def command_says(*words):
    """The one line ``ShutTheBox WORDS`` prints on stderr for a refused question, without its prefix."""
    import subprocess

    from serving import COMMAND

    done = subprocess.run(COMMAND + list(words), capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done
    return done.stderr.strip().removeprefix("ShutTheBox: ")


# (link, the parameter named as "NAME=VALUE:", its refusal: words or the command whose refusal it is,
#  then [selector, value] pairs the page shows instead: the parameter's working default)
BAD_LINKS = [
    ("game=chess", "game=chess", "not a game of this page", [("#toggle-answer .answer-value", "50.317928")]),
    ("game=toggle&mode=solo", "mode=solo", "choose coach or play", [("#toggle-mode-coach", "true")]),
    ("game=toggle&mode=play&seed=x", "seed=x", "a seed is a whole number from 0 to 4294967295", []),
    ("game=toggle&up=1,13", "up=1,13", "no card 13", [("#toggle-answer .answer-value", "50.317928")]),
    ("game=toggle&cards=30", "cards=30", ["toggle", "--cards", "30", "--expect", "all"],
     [("#toggle-cards", "12"), ("#toggle-answer .answer-value", "50.317928")]),
    ("game=toggle&cards=abc", "cards=abc", ["toggle", "--cards", "abc", "--expect", "all"], [("#toggle-cards", "12")]),
    ("game=toggle&sides=1", "sides=1", ["toggle", "--sides", "1", "--expect", "all"], [("#toggle-sides", "6")]),
    ("game=toggle&cards=13", "cards=13", ["toggle", "--cards", "13", "--expect", "all"], [("#toggle-cards", "12")]),
    ("game=toggle&sides=2", "sides=2", ["toggle", "--sides", "2", "--expect", "all"], [("#toggle-sides", "6")]),
    ("game=toggle&x=9&y=2", "x=9", ["toggle", "--move", "all", "9", "2"],
     [("#toggle-x", ""), ("#toggle-y", ""), ("#toggle-answer .answer-value", "50.317928")]),
    ("game=toggle&y=abc", "y=abc", ["toggle", "--move", "all", "3", "abc"], [("#toggle-x", ""), ("#toggle-y", "")]),
    ("game=goat&goal=999", "goal=999", ["goat", "--goal", "999", "--solo", "--expect", "0"],
     [("#goat-goal", "100"), ("#goat-answer .answer-value", "8.497837")]),
    ("game=goat&goal=1", "goal=1", ["goat", "--goal", "1", "--solo", "--expect", "0"], [("#goat-goal", "100")]),
    ("game=goat&mode=chess", "mode=chess", "choose coach or play", [("#goat-mode-coach", "true")]),
    ("game=goat&mode=play&anim=2", "anim=2", "choose 0 or 1", []),
    ("game=goat&mode=play&seat=3", "seat=3", "choose 1 or 2", []),
    ("game=goat&mode=play&seed=-1", "seed=-1", "a seed is a whole number", []),
    ("game=goat&player=7", "player=7", "choose 0, 1, 2 or fixed", [("#goat-player-0", "on"), ("#goat-answer .answer-value", "8.497837")]),
    ("game=goat&my=abc", "my=abc", ["goat", "--solo", "--expect", "abc"], [("#goat-my", "0")]),
    ("game=goat&player=1&my=150", "my=150", ["goat", "--one", "--expect", "150", "0", "0", "0"], [("#goat-my", "0")]),
    ("game=goat&player=1&opp=-1", "opp=-1", "OPP is a banked score, 0 or more, not -1", [("#goat-opp", "0")]),
    ("game=goat&player=2&rolls=5", "rolls=5", ["goat", "--two", "--expect", "0", "0", "0", "5"], [("#goat-rolls", "0")]),
    ("game=goat&turn=50&rolls=2", "turn=50", ["goat", "--solo", "--expect", "0", "50", "2"],
     [("#goat-turn", "0"), ("#goat-rolls", "0")]),
    ("game=goat&player=fixed&k=9", "k=9", ["goat", "--solo", "--expect", "0", "--dice", "9", "--stop-at", "20"],
     [("#goat-dice-k", "2")]),
    ("game=goat&player=fixed&t=0", "t=0", ["goat", "--solo", "--expect", "0", "--dice", "2", "--stop-at", "0"],
     [("#goat-stop-at", "23")]),
    ("game=yazy&mode=x", "mode=x", "choose coach or play", [("#yazy-mode-coach", "true")]),
    ("game=yazy&mode=play&seed=1.5", "seed=1.5", "a seed is a whole number", []),
    ("game=yazy&cats=foo", "cats=foo", ["yazy", "--expect", "foo"],
     [("#yazy-answer .answer-value", "165.722932"), ("#yazy-cats [data-value='yazy']", "true")]),
    ("game=yazy&dice=1234", "dice=1234", ["yazy", "--expect", "all", "1234", "1"], [("#yazy-dice", "13366")]),
    ("game=yazy&rerolls=5", "rerolls=5", ["yazy", "--expect", "all", "13366", "5"], [("#yazy-rerolls-2", "on")]),
    ("game=yazy&rerolls=two", "rerolls=two", ["yazy", "--expect", "all", "13366", "two"], [("#yazy-rerolls-2", "on")]),
    ("game=yahtzee&mode=solo", "mode=solo", "choose coach or play", [("#yahtzee-mode-coach", "true")]),
    ("game=yahtzee&mode=play&seed=12x", "seed=12x", "a seed is a whole number", []),
    ("game=yahtzee&cats=ones,chess", "cats=ones,chess", ["yahtzee", "--expect", "ones,chess"],
     [("#yahtzee-cats [data-value='chance']", "true")]),
    ("game=yahtzee&upper=99", "upper=99", ["yahtzee", "--upper", "99", "--expect", "all"], [("#yahtzee-upper", "0")]),
    ("game=yahtzee&cats=ones&ybox=25", "ybox=25", ["yahtzee", "--yahtzee-box", "25", "--expect", "ones"],
     [("#yahtzee-box-50", "on")]),
    ("game=yahtzee&dice=12378", "dice=12378", ["yahtzee", "--expect", "all", "12378", "1"], [("#yahtzee-dice", "13366")]),
    ("game=yahtzee&rerolls=3", "rerolls=3", ["yahtzee", "--expect", "all", "13366", "3"], [("#yahtzee-rerolls-2", "on")]),
]
PARAMETERS = {  # every link parameter of the games page, by game (Play's `moves` is lib/play.js's)
    "": {"game"},
    "toggle": {"mode", "seed", "up", "cards", "sides", "x", "y"},
    "goat": {"mode", "anim", "seat", "seed", "goal", "player", "my", "opp", "turn", "rolls", "k", "t"},
    "yazy": {"mode", "seed", "cats", "dice", "rerolls"},
    "yahtzee": {"mode", "seed", "cats", "upper", "ybox", "dice", "rerolls"},
}


def test_every_link_parameter_has_a_bad_link_case():
    tested = {}
    for link, named, _, _ in BAD_LINKS:
        game = dict(pair.split("=", 1) for pair in link.split("&"))["game"]
        tested.setdefault("" if named.startswith("game=") else game, set()).add(named.split("=")[0])
    assert tested == PARAMETERS


def shown_value(page, selector):
    """What a control shows: a field's text, a radio's or button's state, or an answer's data-answer."""
    return page.evaluate("""s => { const e = document.querySelector(s);
        if (e.type === 'radio') return e.checked ? 'on' : 'off';
        if (e.tagName === 'INPUT') return e.value;
        if (e.tagName === 'BUTTON') return e.getAttribute('aria-pressed');
        return e.dataset.answer; }""", selector)


@pytest.mark.parametrize("link, named, why, instead", BAD_LINKS, ids=[case[0] for case in BAD_LINKS])
def test_a_bad_link_parameter_is_named_and_replaced(open_page, link, named, why, instead):
    """The page never stays "Loading…": each refused parameter is named, with the command line's own refusal
    where it has one, and its default is used (the Coach answers, Play plays)."""
    page = open_page("?" + link)  # ready, not left loading
    problems = page.inner_text("#link-problems")
    if isinstance(why, list):  # the command line's refusal, word for word
        assert "%s: %s;" % (named, command_says(*why)) in problems, problems
    else:
        assert named + ":" in problems and why in problems, problems
    for selector, value in instead:
        assert shown_value(page, selector) == value, (selector, problems)
    game = page.evaluate("document.body.dataset.game")
    if "mode=play" in link:
        assert page.is_visible("#%s-play" % game) and page.evaluate("window.games.%s.play.state()" % game) is not None
    else:
        assert page.get_attribute("#%s-answer .answer-value" % game, "data-answer"), link


def test_small_dice_from_the_link_get_an_answer(open_page):
    """cards=4&sides=2 with no dice: the page's own dice 3 and 4 do not fit 2-sided dice, so the value alone."""
    page = open_page("?game=toggle&cards=4&sides=2")
    assert page.is_hidden("#link-problems") and page.is_hidden("#toggle-x-error")
    assert (page.input_value("#toggle-x"), page.input_value("#toggle-y")) == ("", "")
    assert shown_answer(page, "toggle")[0]


def test_bad_toggle_rules_in_the_link_still_play(open_page):
    """cards=30 left the page loading and Roll threw an error nobody saw: now 12 cards are played."""
    page = open_page("?game=toggle&mode=play&cards=30&sides=6&seed=5")
    page.click("#toggle-roll")
    state = page.evaluate("window.games.toggle.play.state()")
    assert state["rolls"] == 1 and page.locator("#toggle-play-cards button").count() == 12


# -- Back and Forward: games, modes and Coach's question ---------------------------------------------


def wait_shown(page, game, mode):
    page.wait_for_function("([g, m]) => document.body.dataset.game === g && document.body.dataset.state === 'ready'"
                           " && !document.getElementById(g + '-' + m).hidden", arg=[game, mode])


def test_back_and_forward_step_through_games_and_modes(open_page):
    page = open_page("?game=toggle&x=5&y=6")
    length = page.evaluate("history.length")
    page.fill("#toggle-x", "2")  # typing rewrites the entry: no step of its own
    page.fill("#toggle-y", "2")
    assert page.evaluate("history.length") == length and "x=2" in page.url
    page.click("#toggle-mode-play")
    page.click("#tab-goat")
    wait_shown(page, "goat", "coach")
    page.check("#goat-player-1")
    page.click("#goat-mode-play")
    wait_shown(page, "goat", "play")
    assert page.evaluate("history.length") == length + 3
    page.go_back()
    wait_shown(page, "goat", "coach")
    assert page.is_checked("#goat-player-1") and "mode=coach" in page.url
    page.go_back()
    wait_shown(page, "toggle", "play")
    assert "game=toggle" in page.url and "mode=play" in page.url
    page.go_back()
    wait_shown(page, "toggle", "coach")
    assert page.input_value("#toggle-x") == "2" and page.input_value("#toggle-y") == "2"
    assert shown_answer(page, "toggle")[1] == str(load_toggle().probe_flip("all", 2, 2))
    page.go_forward()
    wait_shown(page, "toggle", "play")
    page.go_forward()
    wait_shown(page, "goat", "coach")
    # each game keeps its own link: toggle's dice are not goat's
    assert "x=2" not in page.url and "player=1" in page.url


def test_back_from_a_position_opened_in_coach_returns_to_play(open_page):
    page = open_page("?game=toggle&mode=play&seed=3&x=1&y=1")
    page.click("#toggle-roll")
    x, y = page.evaluate("window.games.toggle.play.state().dice")
    page.click("#toggle-play-cards [data-card='%d']" % x)
    page.click("#toggle-log button")
    wait_shown(page, "toggle", "coach")
    assert (page.input_value("#toggle-x"), page.input_value("#toggle-y")) == (str(x), str(y))
    page.go_back()
    wait_shown(page, "toggle", "play")
    assert page.evaluate("window.games.toggle.play.state().rolls") == 1
    page.go_forward()
    wait_shown(page, "toggle", "coach")
    assert (page.input_value("#toggle-x"), page.input_value("#toggle-y")) == (str(x), str(y))


def test_back_across_a_game_tab_switch_steps_through_the_moves(open_page):
    """toggle chosen, two moves played, Goat chosen: Back returns to toggle at its last move, then one move
    back at a time, then to toggle's Coach and the game first shown; Forward the same way again."""
    page = open_page("?game=yazy")
    page.click("#tab-toggle")
    wait_shown(page, "toggle", "coach")
    page.click("#toggle-mode-play")
    wait_shown(page, "toggle", "play")
    page.keyboard.press("r")
    x, y = page.evaluate("window.games.toggle.play.state().dice")
    page.click("#toggle-play-cards [data-card='%d']" % x)
    played = page.evaluate("window.games.toggle.play.state()")
    assert played["rolls"] == 1 and played["dice"] is None and len(played["moves"]) == 1
    page.click("#tab-goat")
    wait_shown(page, "goat", "coach")
    steps = [(None, None)]
    page.go_back()
    wait_shown(page, "toggle", "play")
    steps.append((page.evaluate("window.games.toggle.play.state().up"), page.evaluate("window.games.toggle.play.state().dice")))
    page.go_back()
    page.wait_for_function("window.games.toggle.play.state().dice !== null")
    wait_shown(page, "toggle", "play")
    steps.append((page.evaluate("window.games.toggle.play.state().up"), page.evaluate("window.games.toggle.play.state().dice")))
    page.go_back()
    page.wait_for_function("window.games.toggle.play.state().rolls === 0")
    wait_shown(page, "toggle", "play")
    assert steps[1] == (played["up"], None) and steps[2] == (played["moves"][0]["position"]["up"], [x, y])
    assert "moves=" not in page.url and "seed=%d" % played["seed"] in page.url
    page.go_back()
    wait_shown(page, "toggle", "coach")
    page.go_back()
    wait_shown(page, "yazy", "coach")
    for _ in range(4):
        page.go_forward()
    wait_shown(page, "toggle", "play")
    page.wait_for_function("window.games.toggle.play.state().moves.length === 1")
    assert page.evaluate("window.games.toggle.play.state().up") == played["up"]
    page.go_forward()
    wait_shown(page, "goat", "coach")


# -- one way of showing a chance: the percent, the command line's number a press away ----------------


def test_goat_coach_shows_a_chance_as_a_percent_beside_the_command_line_s_number(open_page):
    table = load_goat()
    page = open_page("?game=goat&player=1&my=50&opp=60&turn=20&rolls=2")
    chance = table.probe_win(1, 50, 60, 20, 2)
    text = page.inner_text("#goat-answer .answer-value")
    assert text == "Chance to win (a tie is half a win): %s" % percent(chance)
    page.click("#goat-answer .answer-value span.num")  # the exact value: what the command line prints
    assert page.inner_text("#goat-answer .answer-value") == "Chance to win (a tie is half a win): %.6f" % chance
    page.click("#exact-values")
    assert page.get_attribute("#goat-answer .answer-value", "data-answer") == "%.6f" % chance
    set_goat(page, 0, 37, None, 12, 1)  # expected turns are not a chance: a number, one decimal, exact a press away
    turns = table.probe_solo(37, 12, 1)
    assert page.inner_text("#goat-answer .answer-value").endswith(": %.1f" % turns)
    assert page.get_attribute("#goat-answer .answer-value span.num", "data-exact") == "%.6f" % turns
    assert page.get_attribute("#goat-answer .answer-value", "data-answer") == "%.6f" % turns
    for game in ("yazy", "yahtzee", "toggle"):  # expected scores and rolls: numbers, never percents
        page = open_page("?game=" + game)
        assert "%" not in page.inner_text("#%s-answer" % game)


# -- toggle's colours: those of Shut the Box (wood open or face up, green felt shut or face down) ----


def test_toggle_coach_cards_have_the_colours_of_open_and_shut_tiles(open_page):
    page = open_page("?game=toggle&up=1,4")
    style = """s => { const e = typeof s === 'string' ? document.querySelector(s) : s;
        const c = getComputedStyle(e); return [c.backgroundColor, c.backgroundImage]; }"""
    tiles = page.evaluate("""() => { const row = document.createElement('div');
        row.innerHTML = '<button class="tile">1</button><button class="tile shut">2</button>';
        document.body.append(row);
        return [...row.children].map(b => { const c = getComputedStyle(b); return [c.backgroundColor, c.backgroundImage]; }); }""")
    up = page.evaluate(style, "#toggle-cards-up [data-value='4']")
    down = page.evaluate(style, "#toggle-cards-up [data-value='5']")
    assert page.get_attribute("#toggle-cards-up [data-value='4']", "aria-pressed") == "true"
    assert up == tiles[0] and down == tiles[1] and up != down
    assert "face up is wood" in page.inner_text("#toggle-colours")


@pytest.mark.parametrize("game, open_, closed", [("yazy", "yazy", "ones"), ("yahtzee", "chance", "ones")])
def test_five_dice_coach_categories_have_the_colours_of_open_and_shut_tiles(open_page, game, open_, closed):
    """An open category is wood like an open tile, a scored one green felt like a shut tile; pressed is open."""
    page = open_page("?game=%s&cats=%s" % (game, open_))
    tiles = page.evaluate("""() => { const row = document.createElement('div');
        row.innerHTML = '<button class="tile">1</button><button class="tile shut">2</button>';
        document.body.append(row);
        return [...row.children].map(b => { const c = getComputedStyle(b); return [c.backgroundColor, c.backgroundImage]; }); }""")
    style = "e => { const c = getComputedStyle(e); return [c.backgroundColor, c.backgroundImage]; }"
    chip = "#%s-cats [data-value='%s']"
    assert page.get_attribute(chip % (game, open_), "aria-pressed") == "true"
    assert page.get_attribute(chip % (game, closed), "aria-pressed") == "false"
    assert page.eval_on_selector(chip % (game, open_), style) == tiles[0]
    assert page.eval_on_selector(chip % (game, closed), style) == tiles[1]
    assert "open is wood" in page.inner_text("#%s-colours" % game)


# -- ties: a choice whose value equals the best's is optimal too --------------------------------------


def test_goat_coach_names_the_actions_as_good_as_the_best(open_page):
    table = load_goat()
    page = open_page("?game=goat&player=2&my=50&opp=120&turn=0&rolls=0")
    assert table.probe_win(2, 50, 120, 0, 0) == 0  # lost whatever is done: every action ties
    best = action_text(table.probe_move(2, 50, 120, 0, 0))
    ties = page.get_attribute("#goat-answer .answer-ties", "data-ties").split("; ")
    assert sorted(ties + [best]) == ["roll %d" % k for k in range(1, 7)]
    assert "As good (optimal too): " in page.inner_text("#goat-answer")
    set_goat(page, 1, 50, 60, 20, 2)
    assert page.get_attribute("#goat-answer .answer-ties", "data-ties") == ""
    # Roll 4 is 4e-9 below roll 5 here: both print 0.000001, yet it is no tie (the table's tie is 1e-11).
    assert table.probe_move(1, 21, 94, 18, 2) == 5
    set_goat(page, 1, 21, 94, 18, 2)
    assert page.get_attribute("#goat-answer .answer-ties", "data-ties") == ""


def test_yazy_coach_names_the_moves_as_good_as_the_best(open_page):
    table = load_yazy()
    page = open_page("?game=yazy&cats=yazy&dice=12345&rerolls=1")
    # keeping one die, or none, makes a yazy with the same chance: 50/1296 points each
    assert shown_answer(page, "yazy")[:2] == ("%.6f" % table.probe_expect("yazy", "12345", 1), table.probe_move("yazy", "12345", 1))
    ties = set(page.get_attribute("#yazy-answer .answer-ties", "data-ties").split("; "))
    assert ties | {table.probe_move("yazy", "12345", 1)} == {"keep 1", "keep 2", "keep 3", "keep 4", "keep 5", "keep none"}


def test_yahtzee_coach_marks_every_choice_as_good_as_the_best(open_page):
    from shutthebox.games.yahtzee.table import load as load_yahtzee

    page = open_page("?game=yahtzee&cats=yahtzee&dice=12345&rerolls=1")
    line = load_yahtzee().options_line("yahtzee", "12345", 1)
    tied = [item.rsplit(" ", 2)[0] for item in line.split("; ") if item.endswith(" 0.000000") and " 0.038580 " in item + " "]
    best = page.evaluate("[...document.querySelectorAll('#yahtzee-options tr.best')].map(tr => tr.dataset.choice)")
    assert best == tied and len(best) == 6
    assert page.get_attribute("#yahtzee-answer .answer-ties", "data-ties").split("; ") == tied[1:]
