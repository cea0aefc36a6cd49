"""The Shut the Box page (index.html): its keys, the game kept in the link and the history, dice of
more than six sides, Coach's "—" with its reason, the Rules control's refusals and menu, Solo under
any rule set (solved on first use), and whole games of Play and Solo by keyboard only.

Needs /usr/bin/chromium and playwright, as tests/test_web_browser.py. The server solves into a fresh
cache (conftest's `server`).
"""

from __future__ import annotations

import functools
import json
import re

import pytest

import shutthebox
from shutthebox.games.shutthebox.rules import Rules

from serving import page_opener

# A table not shipped is solved once the user presses Solve: these tests press it as soon as it is asked.
PRESS_SOLVE = """
new MutationObserver(() => {
  document.getElementById('solve-start')?.click();  // Coach and Play's question
  document.getElementById('solo-solve-start')?.click();  // Solo's
})
  .observe(document, {subtree: true, childList: true});
"""
ITEM_KEYS = "1234567890-="


@pytest.fixture
def open_page(browser, server):
    with page_opener(browser, server) as opener:
        yield functools.partial(opener, init_script=PRESS_SOLVE, wait_ms=120000)


@pytest.fixture
def open_asking(browser, server):
    """The page as it is, the Solve question left to the test (Solve or Cancel)."""
    with page_opener(browser, server) as opener:
        yield opener


@pytest.fixture(scope="module")
def table():
    return shutthebox.load()


def play_state(page):
    return page.evaluate("window.shutTheBox.play.state()")


def solo_state(page):
    return page.evaluate("window.shutTheBox.solo.state()")


def wait_play(page, *states):
    page.wait_for_function("(s) => s.includes(document.body.dataset.play)", arg=list(states))


def wait_solo(page, *states):
    page.wait_for_function("(s) => s.includes(document.body.dataset.solo)", arg=list(states))


def best_move(table, state):
    if state["player"] == 1:
        return list(table.move_one(state["position"], state["roll"]))
    return list(table.move_two(state["position"], state["score1"], state["roll"]))


def active(page):
    return page.evaluate("document.activeElement && (document.activeElement.dataset.tile ? 'tile ' + "
                         "document.activeElement.dataset.tile : document.activeElement.id)")


# -- 1. keys ----------------------------------------------------------------------


def test_enter_on_a_chosen_tile_closes_the_tiles_and_space_chooses(open_page, table):
    page = open_page("?mode=play&seed=12345&seat=1&anim=0")
    wait_play(page, "roll")
    page.keyboard.press("Enter")  # Enter rolls when rolling comes next
    wait_play(page, "move")
    state = play_state(page)
    move = best_move(table, state)
    # Reach the tiles with the arrow keys, choose with Space, then Enter on the focused tile closes them.
    page.focus("#play-tiles [data-tile='1']")
    for tile in move:
        page.evaluate("(t) => document.querySelector(`#play-tiles [data-tile='${t}']`).focus()", tile)
        page.keyboard.press("Space")
    assert play_state(page)["chosen"] == move
    assert "press Close tiles (Enter)" in page.inner_text("#play-message")
    assert active(page) == "tile %d" % move[-1]
    page.keyboard.press("Enter")
    after = play_state(page)
    assert after["moves"] == 1 and after["history"][0]["move"] == move, after
    # h shows the hint, and h again hides it.
    wait_play(page, "roll", "move")
    page.keyboard.press("h")
    assert page.is_visible("#play-hints")
    page.keyboard.press("h")
    assert page.is_hidden("#play-hints")


def test_keys_for_tiles_10_11_and_12_and_none_while_typing(open_page):
    page = open_page("?mode=play&tiles=12&seed=7&anim=0")
    wait_play(page, "roll")
    # Keys typed into a field are the field's: "r" rolls nothing.
    page.click("#rules-summary")
    page.focus("#rules-tiles")
    page.keyboard.press("r")
    page.keyboard.press("1")
    assert play_state(page)["roll"] is None and page.evaluate("document.body.dataset.play") == "roll"
    page.focus("#play-tiles [data-tile='1']")
    page.keyboard.press("r")
    wait_play(page, "move")
    roll = play_state(page)["roll"]
    for key, tile in (("0", 10), ("-", 11), ("=", 12)):
        page.keyboard.press("Escape")
        page.keyboard.press(key)
        chosen, message = play_state(page)["chosen"], page.inner_text("#play-message")
        if tile <= roll:
            assert chosen == [tile], (key, chosen)
        else:
            assert chosen == [] and "Tile %d makes %d: more than the roll of %d" % (tile, tile, roll) in message, (key, message)
    assert "<kbd>-</kbd>" in page.inner_html("footer") and "<kbd>=</kbd>" in page.inner_html("footer")


# -- 2. the game in the link; Back ------------------------------------------------


def test_the_game_is_in_the_link_a_refresh_restores_it_and_back_steps_back(open_page, table):
    page = open_page("?mode=play&seed=4242&seat=1&anim=0")
    wait_play(page, "roll")
    closes = []
    while len(closes) < 2:
        page.keyboard.press("r")
        wait_play(page, "move", "roll", "computer", "over")
        state = play_state(page)
        if state["awaiting"] != "move":
            break
        move = best_move(table, state)
        for tile in move:
            page.keyboard.press(str(tile))
        page.keyboard.press("Enter")
        closes.append(move)
        wait_play(page, "roll", "over", "computer")
    assert len(closes) == 2, closes  # seed 4242: two closes before player one's turn ends
    want = "r" + "r".join("".join(map(str, m)) for m in closes)
    assert re.search(r"[?&]moves=%s(&|$)" % want, page.url), page.url
    before = play_state(page)
    page.keyboard.press("r")  # a roll is kept in the link too: moves=...r
    wait_play(page, "move")
    rolled = play_state(page)
    assert "moves=%sr" % want in page.url
    page.reload()
    page.wait_for_function("document.body.dataset.state === 'ready' && document.body.dataset.play === 'move'")
    again = play_state(page)
    assert again["position"] == rolled["position"] and again["roll"] == rolled["roll"] and again["history"] == rolled["history"]
    # Back steps back a move: the position before the second close.
    page.go_back()
    page.wait_for_function("window.shutTheBox.play.state().moves === 1")
    back = play_state(page)
    assert back["history"] == before["history"][:len(back["history"])] and len(back["history"]) == 1
    assert "moves=r%s" % "".join(map(str, closes[0])) in page.url
    # Back also steps between modes.
    page.keyboard.press("s")
    wait_solo(page, "roll")
    assert "mode=solo" in page.url
    page.go_back()
    page.wait_for_function("document.body.dataset.mode === 'play'")
    assert page.is_visible("#play") and play_state(page)["moves"] == 1


def test_a_bad_moves_link_is_named_and_the_game_starts_from_the_beginning(open_page):
    page = open_page("?mode=play&seed=4242&moves=r9x&anim=0")
    wait_play(page, "roll")
    problems = page.inner_text("#link-problems")
    assert "moves=r9x" in problems and "the game starts from the beginning" in problems, problems
    state = play_state(page)
    assert state["position"] == "123456789" and state["history"] == [] and state["seed"] == 4242
    page = open_page("?mode=solo&seed=8&moves=r1r&anim=0")  # the first roll of seed 8 is not 1
    wait_solo(page, "roll")
    assert "moves=r1r: move 2 cannot be made" in page.inner_text("#link-problems")
    assert solo_state(page)["moves"] == 0


@pytest.mark.parametrize("query", ["?mode=play&moves=r", "?mode=play&moves=r5", "?mode=play&seed=&moves=r",
                                   "?mode=solo&moves=r"])
def test_moves_without_their_seed_are_named_and_a_new_game_starts(open_page, query):
    page = open_page(query + "&anim=0")
    solo = "mode=solo" in query
    (wait_solo if solo else wait_play)(page, "roll", "move")
    problems = page.inner_text("#link-problems")
    assert "moves=r" in problems and "moves need the seed of their game; a new game starts" in problems, problems
    assert "seed of their game" in problems and "cannot be made" not in problems, problems
    state = solo_state(page) if solo else play_state(page)
    assert state["position"] == "123456789" and state["roll"] is None, state
    assert "moves=" not in page.url, page.url


def test_solo_rule_options_against_the_variant_are_named_and_the_variant_played(open_page):
    for options, variant, rules in (("tiles=10", "two-dice", "tiles 1-10, 2 dice with 6 sides, one die once"),
                                    ("one_die=never", "standard", "tiles 1-9, 2 dice with 6 sides: give")):
        page = open_page(f"?mode=solo&variant={variant}&{options}&seed=3&anim=0")
        wait_solo(page, "roll")
        assert solo_state(page)["variant"] == variant
        problems = page.inner_text("#link-problems")
        # the command line's words: --variant two-dice is ..., but the game options say ...: give one or the other
        assert f"{options}: variant={variant} is tiles 1-9" in problems and f"but the game options say {rules}" in problems, problems
        assert f"give one or the other; the {variant} rules instead." in problems, problems
        assert options.split("=")[0] + "=" not in page.url and f"variant={variant}" in page.url, page.url
    page = open_page("?mode=solo&variant=two-dice&one_die=never&seed=3&anim=0")  # the same rules: nothing to name
    wait_solo(page, "roll")
    assert solo_state(page)["variant"] == "two-dice" and page.is_hidden("#link-problems")


def play_to(page, table, closes):
    """Play seat one's optimal moves by keyboard until `closes` closes are made; the moves made."""
    made = []
    while len(made) < closes:
        page.keyboard.press("r")
        wait_play(page, "move", "roll", "computer", "over")
        state = play_state(page)
        assert state["awaiting"] == "move", state
        move = best_move(table, state)
        for tile in move:
            page.keyboard.press(str(tile))
        page.keyboard.press("Enter")
        made.append(move)
        wait_play(page, "roll", "over", "computer")
    return made


def test_back_restores_the_coach_question_of_the_entry(open_page):
    page = open_page("?mode=coach&player=2&score=17&pos=13456789&roll=12")
    asked = page.inner_text("#coach-summary")
    assert asked.startswith("Player two at 13456789") and "Score to beat: 17" in asked and "Roll 12" in asked, asked
    page.keyboard.press("p")
    page.wait_for_function("document.body.dataset.mode === 'play'")
    page.keyboard.press("c")  # a new entry, whose question is then changed
    page.click("#coach-p1")
    page.click("#coach-tiles [data-tile='3']")
    assert "pos=1456789" in page.url and "player=1" in page.url
    page.go_back()
    page.wait_for_function("document.body.dataset.mode === 'play'")
    page.go_back()  # the first entry: its own question, not the one changed since
    page.wait_for_function("document.body.dataset.mode === 'coach'")
    assert page.inner_text("#coach-summary") == asked
    assert page.get_attribute("#coach-p2", "aria-pressed") == "true" and page.input_value("#coach-score") == "17"
    assert page.get_attribute("#coach-tiles [data-tile='3']", "aria-pressed") == "true"
    assert page.get_attribute("#coach-rolls [aria-pressed='true']", "data-roll") == "12"
    assert "pos=13456789" in page.url and "roll=12" in page.url and "score=17" in page.url
    page.go_forward()
    page.wait_for_function("document.body.dataset.mode === 'play'")
    page.go_forward()
    page.wait_for_function("document.body.dataset.mode === 'coach'")
    assert page.inner_text("#coach-summary").startswith("Player one at 1456789")
    assert page.is_hidden("#link-problems")


def test_back_after_another_seat_restores_that_seat_and_its_moves(open_page, table):
    page = open_page("?mode=play&seed=4242&seat=1&anim=0")
    wait_play(page, "roll")
    made = play_to(page, table, 1)
    before = play_state(page)
    page.click("#seat-2")
    page.wait_for_selector("#ask[open]")
    page.click("#ask-yes")
    page.wait_for_function("window.shutTheBox.play.state().seat === 2")
    page.go_back()  # the game left: seat one, one close made
    page.wait_for_function("window.shutTheBox.play.state().seat === 1")
    wait_play(page, "roll")
    back = play_state(page)
    assert back["moves"] == 1 and back["history"] == before["history"] and back["history"][0]["move"] == made[0], back
    assert "seat=1" in page.url and "moves=r%s" % "".join(map(str, made[0])) in page.url, page.url
    assert page.is_hidden("#link-problems"), page.inner_text("#link-problems")


def test_a_history_row_opened_in_coach_is_an_entry_back_returns_to_the_game(open_page, table):
    page = open_page("?mode=play&seed=4242&seat=1&anim=0")
    wait_play(page, "roll")
    play_to(page, table, 2)
    game = play_state(page)
    link = page.url
    page.click("#log button[data-entry='1']")
    assert page.is_visible("#coach") and "mode=coach" in page.url
    page.go_back()
    page.wait_for_function("document.body.dataset.mode === 'play'")
    wait_play(page, "roll")
    assert page.url == link and play_state(page)["history"] == game["history"]


def test_clear_during_the_computers_turn_leaves_its_choice(open_page, table):
    page = open_page("?mode=play&seed=4242&seat=2&anim=0")
    # Esc (Clear) pressed while the computer shows the tiles it is about to close, then its move.
    seen = page.evaluate("""() => new Promise((resolve) => {
        const watch = new MutationObserver(() => {
            const s = window.shutTheBox.play.state();
            if (s.awaiting !== 'computer' || !s.chosen.length) return;
            watch.disconnect();
            document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));
            resolve([s.chosen, window.shutTheBox.play.state().chosen]);
        });
        watch.observe(document.getElementById('play-tiles'), {subtree: true, attributes: true});
        document.getElementById('replay').click();  // nothing played yet: the computer starts again at once
    })""")
    assert seen[0] and seen[1] == seen[0], seen
    wait_play(page, "roll", "over")
    first = play_state(page)["history"][0]
    assert first["player"] == 1 and first["move"] == seen[0]


# -- 3. dice of more than six sides -----------------------------------------------


def test_faces_above_six_show_their_number(open_page):
    page = open_page("?mode=coach")
    shown = page.evaluate("""async () => {
        const { dieNode } = await import('./shutthebox/view.js');
        return [3, 10, 15, 20].map((face) => {
            const die = dieNode(face);
            document.body.append(die);
            const b = die.querySelector('b');
            const pips = [...die.querySelectorAll('i')].filter((i) => getComputedStyle(i).visibility === 'visible'
                && getComputedStyle(i).display !== 'none').length;
            return [face, b.textContent, getComputedStyle(b).display !== 'none', pips];
        });
    }""")
    assert shown == [[3, "", False, 3], [10, "10", True, 0], [15, "15", True, 0], [20, "20", True, 0]], shown


# -- 4. Coach's "—" with three players --------------------------------------------


def test_three_players_coach_says_why_a_value_is_a_dash(open_page):
    # Player two of three at tile 6 (one die): a roll of 2 ends the turn, a value the table does not hold.
    page = open_page("?mode=coach&tiles=6&players=3&player=2&scores=10&pos=6&roll=2")
    page.wait_for_function("window.shutTheBox.table().players === 3")
    summary = page.inner_text("#coach-summary")
    assert "wins — (not in the table" in summary and "players still to play" in summary, summary
    page.keyboard.press("Escape")
    page.evaluate("document.querySelector(\"#coach-rolls [data-roll='']\").click()")
    cells = page.locator("#coach-moves td[data-why='not-held']")
    assert cells.count() >= 1
    assert "depends on the players still to play" in cells.first.inner_text()


# -- 5. the Rules control ---------------------------------------------------------


def test_rules_form_names_the_right_field_follows_presets_and_one_die(open_page):
    page = open_page("?mode=coach")
    page.click("#rules-summary")
    page.fill("#rules-max-move", "10")  # more than the 9 tiles
    page.click("#rules-apply")
    assert page.get_attribute("#rules-max-move", "aria-invalid") == "true"
    assert page.get_attribute("#rules-one-die", "aria-invalid") is None
    words = page.inner_text("#rules-max-move-error")
    assert "Tiles per move" in words and "max_move_tiles" not in words, words
    page.fill("#rules-max-move", "")
    # The menu follows the fields: a preset's rules, else Custom.
    page.fill("#rules-tiles", "10")
    assert page.eval_on_selector("#rules-preset", "e => e.value") == "ten"
    page.fill("#rules-sides", "8")
    assert page.eval_on_selector("#rules-preset", "e => e.options[e.selectedIndex].text") == "Custom"
    page.fill("#rules-sides", "6")
    page.fill("#rules-tiles", "9")
    assert page.eval_on_selector("#rules-preset", "e => e.value") == "standard"
    # One die: the one-die rule is never, chosen for you; two dice again give the rule back.
    page.fill("#rules-dice", "1")
    assert page.input_value("#rules-one-die") == "never"
    page.fill("#rules-dice", "2")
    assert page.input_value("#rules-one-die") == "6"


# -- 6. Solo under any rules ------------------------------------------------------


def test_solo_under_rules_solved_on_first_use(open_page, private_cache):
    rules = Rules(tiles=6)
    solo = shutthebox.load_solo(rules=rules)
    page = open_page("?mode=solo&seed=3&anim=0")
    wait_solo(page, "roll")
    page.click("#rules-summary")
    assert page.is_hidden("#rules-players")
    page.fill("#rules-tiles", "6")
    page.click("#rules-apply")
    page.wait_for_function("document.body.dataset.solo === 'roll' && window.shutTheBox.solo.state().rules?.tiles === 6",
                           timeout=120000)
    state = solo_state(page)
    assert state["start"] == solo.expect("123456") and state["variant"] is None
    assert "tiles=6" in page.url and "variant=" not in page.url
    assert "solo-t6-2d6-one6.msgpack" in page.inner_text("#solo-info")
    # The link's rules: a refresh reads the same table again.
    page.reload()
    page.wait_for_function("document.body.dataset.solo === 'roll'")
    assert solo_state(page)["rules"]["tiles"] == 6


# -- 8. whole games by keyboard only ----------------------------------------------


def test_a_whole_game_of_play_and_of_solo_by_keyboard_only(open_page, table):
    page = open_page("?mode=play&seed=2024&seat=2&anim=0")
    for _ in range(60):
        wait_play(page, "roll", "move", "over")
        state = play_state(page)
        if state["over"]:
            break
        if state["awaiting"] == "roll":
            page.keyboard.press("r")
            continue
        for tile in best_move(table, state):
            page.keyboard.press(ITEM_KEYS[tile - 1])
        page.keyboard.press("Enter")
    state = play_state(page)
    assert state["over"] and state["seat"] == 2 and state["moves"] == state["optimal"] >= 1, state
    assert page.is_visible("#summary") and page.is_visible("#summary #summary-new")  # New game beside the summary
    # Solo, from the keyboard only: S, then R, the tiles and Enter to the end.
    page.keyboard.press("s")
    wait_solo(page, "roll")
    solo = shutthebox.load_solo("standard")
    for _ in range(20):
        wait_solo(page, "roll", "move", "over")
        state = solo_state(page)
        if state["over"]:
            break
        if state["awaiting"] == "roll":
            page.keyboard.press("Enter")  # Enter rolls when that comes next
            continue
        for tile in solo.move(state["position"], state["roll"], "shut"):
            page.keyboard.press(ITEM_KEYS[tile - 1])
        page.keyboard.press("Enter")
    state = solo_state(page)
    assert state["over"] and state["moves"] == state["optimal"] and state["cost"] == 0, state
    assert page.is_visible("#solo-summary")
    page.click("#solo-summary #solo-summary-new")  # New game beside the summary: the game was over, nothing asked
    wait_solo(page, "roll")
    assert solo_state(page)["moves"] == 0 and page.is_hidden("#solo-summary")


# -- 9. solves: Cancel in Solo, and one solve never cancelled by another table's load -----


def test_a_solo_link_whose_table_is_not_solved_falls_back_to_the_standard_rules(open_asking):
    page = open_asking("?mode=solo&tiles=10&seed=3&anim=0")
    page.wait_for_selector("#solo-solve-cancel")
    assert "solo-t10-2d6-one6.msgpack" in page.text_content("#solo-solve-question")
    page.click("#solo-solve-cancel")  # no: Solo plays the standard rules, as Coach and Play keep theirs
    wait_solo(page, "roll")
    state = solo_state(page)
    assert state["variant"] == "standard" and state["rules"]["tiles"] == 9 and state["seed"] == 3, state
    problems = page.inner_text("#link-problems")
    assert "tiles=10" in problems and "not solved" in problems and "standard rules instead" in problems, problems
    assert page.is_hidden("#solo-error")
    assert "variant=standard" in page.url and "tiles=" not in page.url and "seed=3" in page.url, page.url


def test_cancel_at_solos_solve_question_keeps_the_game_and_its_rules(open_asking):
    page = open_asking("?mode=solo&seed=3&anim=0")
    wait_solo(page, "roll")
    page.keyboard.press("r")
    wait_solo(page, "move", "over")
    rolled = solo_state(page)
    page.click("#rules-summary")
    page.fill("#rules-tiles", "10")
    page.click("#rules-apply")
    page.wait_for_selector("#ask[open]")
    page.click("#ask-yes")
    page.click("#solo-solve-cancel")
    page.wait_for_function("document.getElementById('rules-message').textContent.includes('Not changed')")
    assert solo_state(page) == rolled and page.is_hidden("#solo-error")
    assert "variant=standard" in page.url and "tiles=" not in page.url


def fake_solve(name):
    """A route answering /solve/NAME as `ShutTheBox serve` would while NAME is being solved: absent, then
    solving (30%) until `release` is set, then ready. The methods asked, in order, are in `calls`."""
    calls, release = [], []

    def answer(route):
        method = route.request.method
        calls.append(method)
        if method == "DELETE":
            body = {"name": name, "state": "cancelled", "error": "the solve of %s was cancelled" % name}
        elif method == "GET" and calls.count("POST") == 0:
            body = {"name": name, "state": "absent", "done": 0, "total": 0, "words": "a small table, about 1 second"}
        elif release:
            body = {"name": name, "state": "ready", "done": 10, "total": 10}
        else:
            body = {"name": name, "state": "solving", "done": 3, "total": 10}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    return answer, calls, release


def test_loading_another_table_never_cancels_a_solve_still_wanted(open_asking):
    # Coach's table is being solved (the server faked: held at 30%) when Solo reads its own table.
    name = "t10-2d6-one6-p2.msgpack"
    answer, calls, release = fake_solve(name)
    page = open_asking("?mode=coach&anim=0")
    page.route("**/solve/%s" % name, answer)
    page.click("#rules-summary")
    page.fill("#rules-tiles", "10")
    page.click("#rules-apply")
    page.click("#solve-start")
    page.wait_for_function("document.body.dataset.solve === 'solving'")
    page.click("#tab-solo")
    wait_solo(page, "roll")
    assert "DELETE" not in calls and page.evaluate("document.body.dataset.solve") == "solving", calls
    assert page.is_visible("#solve-status") and "Solving %s: 30%%" % name in page.inner_text("#solve-status")
    release.append(True)
    page.wait_for_function("window.shutTheBox.table().rules.tiles === 10")
    assert "DELETE" not in calls and solo_state(page)["rules"]["tiles"] == 9

    # Solo's table is being solved when Coach and Play read theirs.
    rules = Rules(tiles=6)
    solo = shutthebox.load_solo(rules=rules)  # the bytes the faked solve then serves
    solo_name = "solo-t6-2d6-one6.msgpack"
    answer, calls, release = fake_solve(solo_name)
    page = open_asking("?mode=solo&seed=3&anim=0")
    with open(solo.path, "rb") as handle:
        data = handle.read()
    page.route("**/%s" % solo_name, lambda route: route.fulfill(status=200, body=data,
                                                               content_type="application/octet-stream"))
    page.route("**/solve/%s" % solo_name, answer)  # the later route is asked first
    wait_solo(page, "roll")
    page.click("#rules-summary")
    page.fill("#rules-tiles", "6")
    page.click("#rules-apply")
    page.click("#solo-solve-start")
    page.wait_for_function("document.body.dataset.soloSolve === 'solving'")
    page.click("#tab-coach")
    page.fill("#rules-tiles", "7")
    page.click("#rules-apply")  # Coach: 7 tiles, not shipped: its question beside Solo's progress
    page.wait_for_selector("#solve-start")
    assert page.is_visible("#solo-solve-cancel") and page.evaluate(
        "[...document.querySelectorAll('[id]')].every((e, _, all) => all.filter(o => o.id === e.id).length === 1)")
    page.click("#solve-cancel")
    page.fill("#rules-tiles", "10")
    page.click("#rules-apply")  # Coach: 10 tiles, its table shipped
    page.wait_for_function("window.shutTheBox.table().rules.tiles === 10")
    assert "DELETE" not in calls and page.evaluate("document.body.dataset.soloSolve") == "solving", calls
    release.append(True)
    page.wait_for_function("window.shutTheBox.solo.state().rules?.tiles === 6")
    assert "DELETE" not in calls and solo_state(page)["start"] == solo.expect("123456")
