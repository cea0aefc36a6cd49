"""The Shut the Box page with other rules and 2 to 8 players (issue 13): a table not shipped is
solved by ``ShutTheBox serve`` on first use with its progress shown, then Coach answers as the
Python API does, the computer plays every seat but yours as the table says, the Hint and the
history's way into Coach. The server solves into a fresh cache (SHUTTHEBOX_CACHE).

Needs /usr/bin/chromium and playwright, as tests/test_web_browser.py.
"""

from __future__ import annotations

import functools

import random
import re

import pytest

import shutthebox
from shutthebox.errors import InvalidQuery
from shutthebox.engine.notation import format_set as format_position, numbers_of as tiles_of
from shutthebox.games.shutthebox.rules import Rules

from serving import page_opener, percent, running_server, screenshot

RULES = Rules(tiles=6)  # not shipped: solved on first use
NAME = "t6-2d6-one6-p3.msgpack"

# Every text the progress line shows, kept from the page's first moment (a solve may be quick).
WATCH_PROGRESS = """
window.__progress = [];
new MutationObserver(() => {
  document.getElementById('solve-start')?.click();  // a solve starts only on the user's click
  const text = document.getElementById('solve-text');
  const bar = document.getElementById('solve-progress');
  if (text && text.textContent && !document.getElementById('solve-status').hidden) {
    window.__progress.push([text.textContent, bar.getAttribute('max'), bar.getAttribute('value')]);
  }
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(scope="module")
def server(cache):
    with running_server(env={"SHUTTHEBOX_CACHE": str(cache)}) as (url, proc):
        yield url


@pytest.fixture
def open_page(browser, server):
    """The page, its solving progress watched (WATCH_PROGRESS), a table solved on first use given time."""
    with page_opener(browser, server) as opener:
        yield functools.partial(opener, init_script=WATCH_PROGRESS, wait_ms=120000)


def api(cache, monkeypatch_env, players=3, rules=RULES):
    monkeypatch_env.setenv("SHUTTHEBOX_CACHE", str(cache))
    return shutthebox.load(rules=rules, players=players)


# -- what the Python API says --------------------------------------------------------


def legal_moves(rules, mask, roll):
    return [m for m in range(1, mask + 1) if m & mask == m and sum(tiles_of(m)) == roll
            and (rules.max_move_tiles is None or len(tiles_of(m)) <= rules.max_move_tiles)]


def expected(table, scores, mask, roll):
    """The coach's answer from the API: expect, best move, each legal move's value after it."""
    position = format_position(mask, table.rules.tiles)
    answer = {"expect": table.expect(position, scores)}
    if roll is None:
        return answer
    try:
        answer["best"] = list(table.move(position, roll, scores))
    except InvalidQuery:
        answer["best"] = None
    answer["values"] = {tuple(tiles_of(m)): 1.0 if not mask & ~m else table.expect(format_position(mask & ~m, table.rules.tiles), scores)
                        for m in legal_moves(table.rules, mask, roll)}
    return answer


def check(got, want, question):
    assert got["expect"] == want["expect"], question
    if "best" not in want:
        assert got["roll"] is None and got["moves"] == [], question
        return
    assert got["best"] == want["best"], question
    assert {tuple(m["tiles"]): m["value"] for m in got["moves"]} == want["values"], question
    if got["moves"]:
        assert got["moves"][0]["best"], question
    else:
        assert got["turnEnds"], question


# -- solved on first use, then coached ------------------------------------------------


def test_a_table_not_shipped_is_solved_with_progress_then_coach_answers_as_the_api(open_page, cache, monkeypatch):
    page = open_page("?mode=coach&tiles=6&players=3")
    progress = page.evaluate("window.__progress")
    assert any(text.startswith("Solving %s" % NAME) for text, _, _ in progress), progress
    assert any(re.fullmatch(r"Solving %s: \d+%%" % re.escape(NAME), text) and int(top) > 0
               for text, top, _ in progress if top), progress
    screenshot(page, "players-coach.png")
    assert page.is_hidden("#solve-status") and page.is_hidden("#link-problems")
    assert "tiles=6" in page.url and "players=3" in page.url
    assert page.evaluate("window.shutTheBox.tableName()") == NAME
    table = api(cache, monkeypatch)
    rng = random.Random(13)
    questions = []
    for _ in range(300):
        mask = rng.randrange(1, 1 << RULES.tiles)
        scores = [rng.randint(1, RULES.max_score) for _ in range(rng.randrange(3))]
        rolls = sorted(RULES.possible_rolls(mask, sum(tiles_of(mask))))
        questions.append([scores, format_position(mask, table.rules.tiles), rng.choice(rolls) if rng.random() < 0.85 else None])
    answers = page.evaluate("""qs => qs.map(q => {
        try { return window.shutTheBox.coachScores(q[0], q[1], q[2]); } catch (e) { return {error: e.message}; } })""",
                            questions)
    ends = 0
    for question, got in zip(questions, answers):
        assert "error" not in got, (question, got)
        scores, position, roll = question
        check(got, expected(table, scores, table.position(position), roll), question)
        ends += bool(got["turnEnds"])
        if got["turnEnds"] and len(scores) == 2:  # the last player: the share is known
            mine, best = sum(tiles_of(table.position(position))), min(scores)
            assert got["endValue"] == (1 if mine < best else 1 / (1 + scores.count(best)) if mine == best else 0)
    assert ends >= 10
    # An invalid question has no answer.
    message = page.evaluate("""() => { try { window.shutTheBox.coachScores([17, 0], '123', 5); }
                                       catch (e) { return e.message; } }""")
    assert "score 0" in message


def set_coach(page, player, scores, position, roll):
    """Drive the coach by clicks and typing only."""
    page.click("#coach-p%d" % player)
    if player > 1:
        page.fill("#coach-scores", ", ".join(map(str, scores)))
    mask = sum(1 << (t - 1) for t in tiles_of_text(position))
    for tile in range(1, RULES.tiles + 1):
        button = page.locator("#coach-tiles [data-tile='%d']" % tile)
        if (button.get_attribute("aria-pressed") == "true") != bool(mask >> (tile - 1) & 1):
            button.click()
    button = page.locator("#coach-rolls [data-roll='%d']" % roll)
    if button.get_attribute("aria-pressed") != "true":  # pressing the roll chosen again unchooses it
        button.click()


def tiles_of_text(position):
    return [int(d) for d in position]


def test_coach_by_clicks_for_three_players(open_page, cache, monkeypatch):
    page = open_page("?mode=coach&tiles=6&players=3")
    table = api(cache, monkeypatch)
    for player, scores, position, roll in [(1, [], "123456", 7), (2, [9], "1346", 5), (3, [9, 4], "2456", 6),
                                           (3, [4, 4], "123", 6), (2, [12], "16", 7)]:
        set_coach(page, player, scores, position, roll)
        want = expected(table, scores, table.position(position), roll)
        summary = page.inner_text("#coach-summary")
        assert "wins %s" % percent(want["expect"]) in summary, (position, summary)
        rows = page.locator("#coach-moves tr[data-move]")
        shown = {tuple(int(d) for d in rows.nth(i).get_attribute("data-move")):
                 float(rows.nth(i).locator("td[data-value]").get_attribute("data-value")) for i in range(rows.count())}
        assert shown == want["values"], (player, scores, position, roll)
        if want["best"]:
            assert page.get_attribute("#coach-moves tr.best", "data-move") == "".join(map(str, want["best"]))
        if player > 1:
            assert "scores=%s" % "%2C".join(map(str, scores)) in page.url, page.url
    # Scores that are no question: a message beside the box, no answer.
    page.click("#coach-p3")
    for text in ("9", "9, 0", "9, x", "9, 22"):
        page.fill("#coach-scores", text)
        assert page.get_attribute("#coach-scores", "aria-invalid") == "true", text
        assert page.is_visible("#coach-score-error") and page.locator("#coach-moves tr").count() == 0, text
        assert "wins" not in page.inner_text("#coach-summary"), text
    screenshot(page, "players-coach-refused.png")


# -- Play: the computer's every move is the table's ----------------------------------------


def play_to_the_end(page, table, keyboard=False):
    """Play your seat with the table's moves to the end; return the final state."""
    for _ in range(200):
        page.wait_for_function("['roll', 'move', 'over'].includes(document.body.dataset.play)")
        state = page.evaluate("window.shutTheBox.play.state()")
        if state["over"]:
            return state
        if state["awaiting"] == "roll":
            page.keyboard.press("r") if keyboard else page.click("#roll")
            page.wait_for_function("document.body.dataset.play !== 'rolling'")
            continue
        move = list(table.move(state["position"], state["roll"], state["scores"]))
        for tile in move:
            page.keyboard.press(str(tile)) if keyboard else page.click("#play-tiles [data-tile='%d']" % tile)
        page.keyboard.press("Enter") if keyboard else page.click("#confirm")
        assert page.inner_text("#feedback").startswith("Optimal")
    raise AssertionError("the game did not end")


def check_history(table, state):
    """Every move of the game, the computer's included, is the API's move for its question."""
    computer = 0
    for entry in state["history"]:
        try:
            want = list(table.move(entry["position"], entry["roll"], entry["scores"]))
        except InvalidQuery:
            want = []
        assert entry["move"] == want and entry["best"] == want, entry
        computer += not entry["you"] and bool(want)
    return computer


def test_a_seeded_four_player_game_clicked_to_the_end(open_page, cache, monkeypatch):
    page = open_page("?mode=play&tiles=6&players=4&seat=2&seed=2025&anim=0")
    table = api(cache, monkeypatch, players=4)
    assert page.locator("#seats button").count() == 4
    assert page.get_attribute("#seat-2", "aria-pressed") == "true"
    state = play_to_the_end(page, table)
    assert state["over"] and state["players"] == 4 and state["seat"] == 2
    assert check_history(table, state) >= 3
    assert page.is_visible("#summary") and "Seed 2025" in page.inner_text("#summary")
    shares = state["result"]
    assert 0 <= shares <= 1
    screenshot(page, "players-play.png")
    # The same seed replays the same dice.
    page.click("#replay")
    again = play_to_the_end(page, table)
    assert [e["dice"] for e in again["history"]] == [e["dice"] for e in state["history"]]


def test_before_your_turn_no_chance_is_made_up(open_page, cache, monkeypatch):
    """With four players the table holds the mover's chance only: the last seat, while the computer
    plays the first three (animated), is told it is known on its turn, never shown a number."""
    page = open_page("?mode=play&tiles=6&players=4&seat=4&seed=2025")
    page.wait_for_function("document.getElementById('scoreboard').textContent.includes('Your chance')")
    assert "Your chance: known on your turn" in page.inner_text("#scoreboard")
    assert not re.search(r"Your chance: [0-9]", page.inner_text("#scoreboard"))


def test_a_keyboard_only_three_player_game(open_page, cache, monkeypatch):
    page = open_page("?mode=play&tiles=6&players=3&seat=3&seed=7&anim=0")
    table = api(cache, monkeypatch)
    page.focus("#tab-play")
    for _ in range(40):  # Tab to Roll, as a keyboard user does
        if page.evaluate("document.activeElement.id") == "roll":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "roll"
    state = play_to_the_end(page, table, keyboard=True)
    assert state["over"] and state["lost"] == 0
    check_history(table, state)
    assert page.evaluate("document.activeElement.id") == "new-game"  # the focus followed the game


def test_a_phone_width_three_player_game(open_page, cache, monkeypatch):
    page = open_page("?mode=play&tiles=6&players=3&seat=1&seed=99&anim=0", phone=True)
    table = api(cache, monkeypatch)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    state = play_to_the_end(page, table)
    assert state["over"]
    check_history(table, state)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "players-play-phone.png")
    page.click("#tab-coach")
    page.click("#rules-summary")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "players-rules-phone.png")


# -- coaching inside Play ------------------------------------------------------------------


def test_hint_and_history_open_coach(open_page, cache, monkeypatch):
    page = open_page("?mode=play&tiles=6&players=3&seat=2&seed=11&anim=0")
    table = api(cache, monkeypatch)
    page.wait_for_function("document.body.dataset.play === 'roll'")
    page.keyboard.press("h")
    assert page.is_visible("#play-hints") and page.locator("#play-hints tr[data-roll]").count() > 0
    for _ in range(20):
        page.keyboard.press("r")
        page.wait_for_function("['move', 'roll', 'over'].includes(document.body.dataset.play)")
        if page.evaluate("document.body.dataset.play") == "move":
            break
    state = page.evaluate("window.shutTheBox.play.state()")
    assert state["awaiting"] == "move", state
    want = expected(table, state["scores"], table.position(state["position"]), state["roll"])
    rows = page.locator("#play-hints tr[data-move]")
    shown = {tuple(int(d) for d in rows.nth(i).get_attribute("data-move")):
             float(rows.nth(i).locator("td[data-value]").get_attribute("data-value")) for i in range(rows.count())}
    assert shown == want["values"]
    assert page.get_attribute("#play-hints tr.best", "data-move") == "".join(map(str, want["best"]))
    screenshot(page, "players-hint.png")
    # The history: the computer's first move opens in Coach with its player, scores, position and roll.
    entry = state["history"][0]
    page.click("#log button[data-entry='0']")
    assert page.is_visible("#coach") and page.is_hidden("#play")
    assert page.get_attribute("#coach-p%d" % entry["player"], "aria-pressed") == "true"
    assert page.get_attribute("#coach-rolls [aria-pressed='true']", "data-roll") == str(entry["roll"])
    want = expected(table, entry["scores"], table.position(entry["position"]), entry["roll"])
    if want["best"]:
        assert page.get_attribute("#coach-moves tr.best", "data-move") == "".join(map(str, want["best"]))
    assert "pos=%s" % entry["position"] in page.url and "roll=%d" % entry["roll"] in page.url
    screenshot(page, "players-history-coach.png")


# -- the Rules control and its link parameters ---------------------------------------------


def test_rules_control_refuses_bad_options_and_asks_before_discarding(open_page, cache, monkeypatch):
    page = open_page("?mode=play&seed=5&anim=0")
    page.click("#rules-summary")
    for field, text, words in (("#rules-tiles", "13", "--tiles must be a whole number from 1 to 12, not '13'"),
                               ("#rules-players", "9", "--players must be a whole number from 2 to 8"),
                               ("#rules-one-die", "sometimes", "is not a one-die rule")):
        page.fill(field, text)
        page.click("#rules-apply")
        assert page.get_attribute(field, "aria-invalid") == "true", field
        assert words in page.inner_text("#rules-form"), (field, page.inner_text("#rules-form"))
        assert page.evaluate("window.shutTheBox.tableName()") == "standard.msgpack"
        page.fill(field, {"#rules-tiles": "9", "#rules-players": "2", "#rules-one-die": "6"}[field])
    screenshot(page, "players-rules-refused.png")
    # A game in progress is not thrown away without asking.
    page.click("#roll")
    page.wait_for_function("document.body.dataset.play !== 'rolling'")
    page.fill("#rules-tiles", "6")
    page.fill("#rules-players", "3")
    page.click("#rules-apply")
    page.wait_for_selector("#ask[open]")
    assert "Discard this game?" in page.inner_text("#ask-text")
    assert page.evaluate("document.activeElement.id") == "ask-no"
    page.click("#ask-no")
    assert page.evaluate("window.shutTheBox.tableName()") == "standard.msgpack"
    page.click("#rules-apply")
    page.click("#ask-yes")
    page.wait_for_function("window.shutTheBox.tableName() === '%s'" % NAME)
    page.wait_for_function("document.body.dataset.play === 'roll'")
    assert page.locator("#play-tiles .tile").count() == 6 and "players=3" in page.url and "tiles=6" in page.url


@pytest.mark.parametrize("query, name, words", [
    ("?mode=coach&players=9", "players=9", "--players must be a whole number from 2 to 8"),
    ("?mode=coach&tiles=6x", "tiles=6x", "--tiles must be a whole number"),
    ("?mode=coach&one_die=maybe", "one_die=maybe", "not a one-die rule"),
    ("?mode=coach&rules=chess", "rules=chess", "standard"),
    ("?mode=coach&tiles=6&players=3&player=4", "player=4", "1, 2 or 3"),
    ("?mode=coach&tiles=6&players=3&player=3&scores=4,x", "scores=4,x", "not a score"),
])
def test_bad_rules_parameters_are_named(open_page, query, name, words):
    page = open_page(query)
    text = page.inner_text("#link-problems")
    assert page.is_visible("#link-problems") and name in text and words in text, text


def test_the_other_games_are_listed_from_games_json(open_page):
    page = open_page("?mode=coach")
    page.wait_for_selector("#games-nav a")
    links = page.evaluate("[...document.querySelectorAll('#games-nav a')].map(a => [a.dataset.game, a.getAttribute('href')])")
    assert ["toggle", "games.html?game=toggle"] in [list(x) for x in links], links
    assert all(game != "shutthebox" for game, _ in links)


def test_the_optional_one_die_the_table_chooses_and_you_may(open_page, cache, monkeypatch):
    """one_die optional: the table's dice arrays say how many dice to throw; you may throw one die (O)."""
    from shutthebox.games.shutthebox.rules import rules_from_options

    rules, players = rules_from_options({"--tiles": "5", "--one-die": "optional:6", "--players": "3"})
    page = open_page("?mode=coach&tiles=5&one_die=optional:6&players=3&pos=123&player=2&scores=7")
    table = api(cache, monkeypatch, players=players, rules=rules)
    dice = table.dice("123", [7])
    assert "the table throws %s" % ("one die" if dice == 1 else "all 2 dice") in page.inner_text("#coach-summary")
    page.goto(page.url.split("?")[0] + "?mode=play&tiles=5&one_die=optional:6&players=3&seat=1&seed=3&anim=0")
    page.wait_for_function("document.body.dataset.play === 'roll'")
    chose = False
    for _ in range(30):
        state = page.evaluate("window.shutTheBox.play.state()")
        if state["over"] or state["player"] != 1:
            break
        if state["awaiting"] == "roll":
            if page.is_visible("#roll-one"):
                page.keyboard.press("o")
                page.wait_for_function("document.body.dataset.play !== 'rolling'")
                assert len(page.evaluate("window.shutTheBox.play.state().dice")) == 1
                assert page.inner_text("#feedback").startswith("Dice:")
                chose = True
                break
            page.click("#roll")
            page.wait_for_function("document.body.dataset.play !== 'rolling'")
            continue
        for tile in table.move(state["position"], state["roll"], state["scores"]):
            page.click("#play-tiles [data-tile='%d']" % tile)
        page.click("#confirm")
    assert chose, "seed 3: player one's turn reaches open tiles summing to 6 or less"
    state = play_to_the_end(page, table)
    for entry in state["history"]:  # the computer throws the dice the table says
        if not entry["you"]:
            assert len(entry["dice"]) == table.dice(entry["position"], entry["scores"]), entry
    check_history(table, state)


def test_taking_another_seat_by_keyboard_keeps_the_focus(open_page):
    page = open_page("?mode=play&tiles=6&players=3&seat=1&seed=8&anim=0")
    page.focus("#seat-1")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "seat-3"
    page.keyboard.press("Enter")  # nothing rolled yet: no question, a new game as player three
    page.wait_for_function("window.shutTheBox.play.state().seat === 3")
    assert page.evaluate("document.activeElement.id") == "seat-3"  # never lost to <body>
    assert "seat=3" in page.url
