"""The Shut the Box page (index.html): its keys, the game kept in the link and the history, dice of
more than six sides, Coach's "—" with its reason, the Rules control's refusals and menu, Solo under
any rule set (solved on first use), and whole games of Play and Solo by keyboard only.

Needs /usr/bin/chromium and playwright, as tests/test_web_browser.py. The server solves into a fresh
cache (conftest's `server`).
"""

from __future__ import annotations

import functools
import re

import pytest

import shutthebox
from shutthebox.games.shutthebox.rules import Rules

from serving import page_opener

# A table not shipped is solved once the user presses Solve: these tests press it as soon as it is asked.
PRESS_SOLVE = """
new MutationObserver(() => { document.getElementById('solve-start')?.click(); })
  .observe(document, {subtree: true, childList: true});
"""
ITEM_KEYS = "1234567890-="


@pytest.fixture
def open_page(browser, server):
    with page_opener(browser, server) as opener:
        yield functools.partial(opener, init_script=PRESS_SOLVE, wait_ms=120000)


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
    assert page.is_visible("#summary")
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
