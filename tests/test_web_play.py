"""The one Play shell (static/lib/play.js) under every game of the games page, in chromium against
``ShutTheBox serve``: a whole game of toggle, Goat, yazy and Yahtzee by keyboard only (the page's own
hint chooses) ending with the review; the game in the link (a refresh restores the same position and
dice, Back steps back one move, a bad ``moves`` value is named and the game starts again); Goat's
ties (a choice as good as the table's is optimal, cost 0); and Goat's Play tests by clicks and keys.

Needs /usr/bin/chromium and the playwright package, like tests/test_web_games.py.
"""

from __future__ import annotations

import pytest

from shutthebox.games.goat.table import action_text, load as load_goat

from serving import percent, points, screenshot
from test_web_goat import check_game, play_to_the_end, shown_answer
from test_web_yazy import unfold

GOAL = 100


@pytest.fixture(scope="module")
def goat():
    table = load_goat()
    table.preload()
    return table


def state(page, game):
    return page.evaluate("g => window.games[g].play.state()", game)


def hinted(page, game):
    """The first choice of the hint list (the table's), after pressing H."""
    page.keyboard.press("h")
    return page.locator("#%s li" % HINT_LIST[game]).first.get_attribute("data-move")


HINT_LIST = {"toggle": "toggle-hint-values", "goat": "goat-hint-values", "yazy": "yazy-choices", "yahtzee": "yahtzee-choices"}
ITEM_KEYS = "1234567890-="


# -- whole games by keyboard only --------------------------------------------------------------------


def test_toggle_whole_game_by_keyboard(open_page):
    page = open_page("?game=toggle&mode=play&seed=8")
    for _ in range(3000):
        s = state(page, "toggle")
        if s["over"]:
            break
        page.keyboard.press("Enter")  # Enter rolls
        s = state(page, "toggle")
        if s["dice"]:
            card = int(hinted(page, "toggle").split()[1])  # "card N": the digit key of card N
            page.keyboard.press(ITEM_KEYS[card - 1])
    s = state(page, "toggle")
    assert s["over"] and s["up"] == 0 and all(m["optimal"] for m in s["moves"])
    assert page.is_visible("#toggle-review") and "decisions optimal" in page.inner_text("#toggle-review")


def test_goat_whole_game_by_keyboard(open_page):
    page = open_page("?game=goat&mode=play&seed=44&seat=1&anim=0")
    for _ in range(2000):
        if state(page, "goat")["over"]:
            break
        page.keyboard.press("h")
        action = int(page.locator("#goat-hint-values li.best").first.get_attribute("data-action"))
        page.keyboard.press("s" if action == 0 else str(action))
    s = state(page, "goat")
    assert s["over"] and all(row["cost"] == 0 for row in s["history"] if row["who"] == "you")
    assert page.is_visible("#goat-review") and page.get_attribute("#goat-play", "data-state") == "over"


def play_five_dice(page, game):
    """Follow the hint with keys only: digits keep dice, R rerolls, arrows and Enter score."""
    for _ in range(200):
        s = state(page, game)
        if s["over"]:
            return s
        if not s["dice"]:
            page.keyboard.press("Enter")  # Enter rolls at the start of a turn
            continue
        move = hinted(page, game).split()
        if move[0] == "keep":
            want = [] if move[1] == "none" else [int(d) for d in move[1:]]
            for i, d in enumerate(s["dice"]):
                keep = d in want
                if keep:
                    want.remove(d)
                if keep != s["kept"][i]:
                    page.keyboard.press(str(i + 1))
            page.keyboard.press("r")
        else:
            for _ in range(40):  # Tab to the box, then Enter presses it
                if page.evaluate("document.activeElement.dataset.cat") == move[1]:
                    break
                page.keyboard.press("Tab")
            assert page.evaluate("document.activeElement.dataset.cat") == move[1]
            page.keyboard.press("Enter")
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", ["yazy", "yahtzee"])
def test_five_dice_whole_game_by_keyboard(open_page, game):
    page = open_page("?game=%s&mode=play&seed=21" % game)
    s = play_five_dice(page, game)
    assert s["over"] and all(d["optimal"] for d in s["decisions"])
    assert page.is_visible("#%s-review" % game)
    assert "Game over: your total is %d" % s["total"] in page.inner_text("#%s-message" % game)


def test_toggle_keys_for_cards_10_to_12(open_page):
    """0, - and = turn cards 10, 11 and 12 (the keys line says so)."""
    page = open_page("?game=toggle&mode=play&seed=10")
    assert "0 (10), - (11), = (12)" in page.inner_text("#toggle-keys")
    turned = set()
    for _ in range(300):
        page.keyboard.press("r")
        s = state(page, "toggle")
        if not s["dice"]:
            continue
        card = sum(s["dice"])
        if card >= 10 and s["up"] >> (card - 1) & 1 and card not in turned:
            page.keyboard.press(ITEM_KEYS[card - 1])
            assert not state(page, "toggle")["up"] >> (card - 1) & 1
            turned.add(card)
            if len(turned) == 3:
                return
        else:
            page.keyboard.press(ITEM_KEYS[min(s["dice"]) - 1])
    raise AssertionError("cards 10 to 12 were not all turned: %s" % sorted(turned))


def test_roll_with_all_five_kept_rerolls_nothing(open_page):
    page = open_page("?game=yazy&mode=play&seed=5")
    page.keyboard.press("r")
    dice = state(page, "yazy")["dice"]
    for key in "12345":
        page.keyboard.press(key)
    page.click("#yazy-roll")  # a click as well as R: keeping all five is scoring now
    assert "All five dice are kept" in page.inner_text("#yazy-message")
    s = state(page, "yazy")
    assert s["dice"] == dice and s["rerolls"] == 2 and s["decisions"] == []


# -- the game in the link ------------------------------------------------------------------------


def test_a_refresh_restores_the_game_and_back_steps_back(open_page):
    page = open_page("?game=yazy&mode=play&seed=5")
    page.keyboard.press("r")
    page.keyboard.press("1")
    page.keyboard.press("r")  # a reroll keeping die 1
    before = state(page, "yazy")
    assert before["rerolls"] == 1 and "moves=" in page.url
    page.reload()
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=60000)
    after = state(page, "yazy")
    assert (after["dice"], after["rerolls"], after["moves"]) == (before["dice"], before["rerolls"], before["moves"])
    assert page.locator("#yazy-log li").count() == 1
    page.go_back()
    page.wait_for_function("window.games.yazy.play.state().rerolls === 2")
    back = state(page, "yazy")
    assert back["moves"] == before["moves"][:-1] and back["dice"] is not None and page.locator("#yazy-log li").count() == 0
    page.go_forward()
    page.wait_for_function("window.games.yazy.play.state().rerolls === 1")
    assert state(page, "yazy")["dice"] == before["dice"]


def test_toggle_refresh_and_back(open_page):
    page = open_page("?game=toggle&mode=play&seed=3")
    for _ in range(4):
        page.keyboard.press("r")
        s = state(page, "toggle")
        if s["dice"]:
            page.keyboard.press(ITEM_KEYS[int(hinted(page, "toggle").split()[1]) - 1])
    page.keyboard.press("r")
    before = state(page, "toggle")
    page.reload()
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=60000)
    assert {k: state(page, "toggle")[k] for k in ("up", "dice", "rolls")} == {k: before[k] for k in ("up", "dice", "rolls")}
    page.go_back()
    page.wait_for_function("window.games.toggle.play.state().rolls === %d" % (before["rolls"] - 1))
    assert state(page, "toggle")["dice"] is None


def test_goat_refresh_and_back(open_page):
    """Your moves are in the link; the computer's follow from the seed, replayed on a refresh and on Back."""
    page = open_page("?game=goat&mode=play&seed=12&seat=2&anim=0")
    page.keyboard.press("2")
    middle = state(page, "goat")
    page.keyboard.press("s" if middle["position"]["rolls"] else "1")
    before = state(page, "goat")
    page.reload()
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=60000)
    after = state(page, "goat")
    assert after["history"] == before["history"] and after["seat"] == 2 and after["scores"] == before["scores"]
    page.go_back()
    page.wait_for_function("n => window.games.goat.play.state().history.length === n", arg=len(middle["history"]))
    assert state(page, "goat") == middle


def test_forward_to_a_game_after_a_refresh_on_coach_shows_that_game(open_page):
    """Refreshed on Coach, before any game of this page: Forward to a Play entry shows that entry's game
    (its seed), not a new one, and Forward again its next move."""
    page = open_page("?game=yazy")
    page.click("#yazy-mode-play")
    page.keyboard.press("r")
    first = state(page, "yazy")
    page.go_back()
    page.wait_for_function("window.games.yazy.play.state().dice === null")
    page.go_back()
    page.wait_for_function("!document.getElementById('yazy-coach').hidden && location.search.includes('mode=coach')")
    page.reload()
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=60000)
    page.go_forward()
    page.wait_for_function("!document.getElementById('yazy-play').hidden && window.games.yazy.play.state()")
    assert state(page, "yazy")["seed"] == first["seed"] and "seed=%d" % first["seed"] in page.url
    assert state(page, "yazy")["dice"] is None
    page.go_forward()
    page.wait_for_function("window.games.yazy.play.state().dice !== null")
    assert state(page, "yazy")["dice"] == first["dice"]


def test_keys_typed_into_a_text_field_are_the_fields(open_page):
    page = open_page("?game=goat&mode=play&seed=12&seat=1&anim=0")
    page.focus("#goat-goal")
    page.keyboard.press("Control+A")
    page.keyboard.type("1 0h")
    page.keyboard.press("Enter")
    assert page.input_value("#goat-goal") == "1 0h" and state(page, "goat")["history"] == []


@pytest.mark.parametrize("game, moves, why", [
    ("toggle", "00", "move 2 cannot be made: first turn a card: "), ("yazy", "v!", "move 2 cannot be made: '!' is not a move"),
    ("goat", "0", "move 1 cannot be made: roll first: "), ("yahtzee", "x", "move 1 cannot be made: roll the dice first (R); "),
    # a character the link's alphabet has, yet no move of this game: the character typed, not its code
    ("toggle", "0x", "move 2 cannot be made: 'x' is not a move of this game (its moves: 0 to c); "),
    ("goat", "7", "move 1 cannot be made: '7' is not a move of this game (its moves: 0 to 6); "),
    ("yazy", "_", "move 1 cannot be made: '_' is not a move of this game (its moves: 0 to G); "),
])
def test_a_bad_moves_link_is_named_and_the_game_starts_again(open_page, game, moves, why):
    page = open_page("?game=%s&mode=play&seed=7&anim=0&moves=%s" % (game, moves))
    problems = page.inner_text("#link-problems")
    assert "moves=%s: %s" % (moves, why) in problems and "starts from the beginning" in problems
    assert ".;" not in problems and "33" not in problems
    s = state(page, game)
    if game == "goat":
        assert s["history"] == [] and "moves" not in page.url
    else:
        assert not s["moves"] and s["dice"] is None


def test_moves_without_a_seed_are_named(open_page):
    page = open_page("?game=toggle&mode=play&moves=00")
    assert "moves=00: moves need the seed of their game" in page.inner_text("#link-problems")
    assert state(page, "toggle")["rolls"] == 0


# -- one rule for ties ---------------------------------------------------------------------------


def test_goat_a_tied_action_is_optimal(open_page, goat):
    """On the last turn, far behind, every action wins with chance 0: any is optimal, cost 0, marked best."""
    page = open_page("?game=goat&mode=play&seed=3&seat=2&anim=0")
    for _ in range(400):
        s = state(page, "goat")
        p = s["position"]
        if s["over"] or p["opp"] >= GOAL:
            break
        page.keyboard.press("6")  # six dice: nearly always a match, the turn scores 0
    s = state(page, "goat")
    if s["over"] or s["position"]["opp"] - s["position"]["my"] <= 63:
        pytest.skip("this seed did not reach a hopeless last turn")
    p = s["position"]
    best = goat.probe_move(2, p["my"], p["opp"], p["turn"], p["rolls"])
    other = next(a for a in range(1, 7) if a != best)
    page.keyboard.press("h")
    assert page.locator("#goat-hint-values li.best").count() == 6  # every roll ties
    page.keyboard.press(str(other))
    feedback = page.inner_text("#goat-feedback")
    assert ": optimal (as good as" in feedback and "cost" not in feedback and "as good as the table's %s" % action_text(best) in feedback
    mine = [row for row in state(page, "goat")["history"] if row["who"] == "you"][-1]
    assert mine["cost"] == 0 and mine["action"] == other


def best_first(values):
    """The hint list's rows [action, value], best first as it says: by cost, then in the actions' order."""
    def cost(a):
        return 0.0 if a["action"] == values["best"] else max(0.0, values["value"] - a["value"])
    return [[a["action"], "%.6f" % a["value"]] for a in sorted(values["actions"], key=lambda a: (cost(a), a["action"]))]


def test_goat_chances_are_percent_with_the_command_lines_value(open_page, goat):
    page = open_page("?game=goat&mode=play&seed=2024&seat=1&anim=0")
    page.keyboard.press("h")
    win = goat.probe_win(1, 0, 0)
    assert "win chance %s." % percent(win) in page.inner_text("#goat-message")
    assert page.get_attribute("#goat-message span.num", "data-exact") == "%.6f" % win  # a press shows it
    values = page.evaluate("window.games.goat.actionValues({player: 1, my: 0, opp: 0, turn: 0, rolls: 0})")
    shown = page.eval_on_selector_all("#goat-hint-values li", "lis => lis.map(li => [Number(li.dataset.action), li.dataset.value])")
    assert shown == best_first(values)
    worst = min(values["actions"], key=lambda a: a["value"])
    page.keyboard.press(str(worst["action"]))
    cost = values["actions"][[a["action"] for a in values["actions"]].index(goat.probe_move(1, 0, 0, 0, 0))]["value"] - worst["value"]
    assert "cost %s of winning chance" % points(cost) in page.inner_text("#goat-feedback")
    page.click("#goat-feedback span.num >> nth=0")
    assert "cost %.6f of winning chance" % cost in page.inner_text("#goat-feedback")


def test_goat_a_tiny_cost_reads_as_less_than_a_tenth_of_a_point(open_page, goat):
    """Roll 4 is 4e-9 below roll 5 here: no tie (the table's tie is 1e-11), too small for six decimals. The
    feedback, the hint and the history say it as <0.1 percentage points, its exact form <0.000001: never 0."""
    where = (1, 21, 94, 18, 2)
    assert goat.probe_move(*where) == 5
    # seed 372: your moves reach you at 21, the computer at 94, turn total 18 after two rolls
    page = open_page("?game=goat&mode=play&seed=372&seat=1&anim=0&moves=22321666613")
    assert state(page, "goat")["position"] == dict(zip(("player", "my", "opp", "turn", "rolls"), where))
    values = {a["action"]: a["value"] for a in page.evaluate(
        "window.games.goat.actionValues({player: 1, my: 21, opp: 94, turn: 18, rolls: 2})")["actions"]}
    assert 1e-11 < values[5] - values[4] < 1e-8
    page.keyboard.press("h")
    assert page.inner_text("#goat-hint-values li[data-action='4']").endswith("(cost <0.1 percentage points)")
    page.keyboard.press("4")
    feedback = page.inner_text("#goat-feedback")
    assert feedback.startswith("Roll 4: cost <0.1 percentage points of winning chance; the table's roll 5")
    assert "0.0 percentage points" not in feedback
    page.click("#goat-feedback span.num >> nth=0")  # exact: still not 0
    assert page.inner_text("#goat-feedback").startswith("Roll 4: cost <0.000001 of winning chance; the table's roll 5")
    page.click("#exact-values")
    mine = [i for i, r in enumerate(state(page, "goat")["history"]) if r["who"] == "you"][-1]
    row = page.inner_text("#goat-history li:nth-child(%d)" % (mine + 1))
    assert row.endswith("(cost <0.1 percentage points; best roll 5)"), row


# -- Goat's Play, moved here from test_web_goat.py when its texts changed --------------------------


def test_goat_a_game_as_the_first_player_by_clicks(open_page, goat):
    page = open_page("?game=goat&mode=play&seed=2024&seat=1&anim=0")
    s = state(page, "goat")
    assert (s["seed"], s["seat"], s["history"]) == (2024, 1, [])
    assert page.get_attribute("#goat-stop", "aria-disabled") == "true"  # no stop before the first roll
    page.click("#goat-stop", force=True)  # a person can still press it: the reason is given
    assert "stop after at least one roll" in page.inner_text("#goat-message") and state(page, "goat")["history"] == []
    # the hint values every legal action; the table's best is named
    page.click("#goat-hint")
    values = page.evaluate("window.games.goat.actionValues({player: 1, my: 0, opp: 0, turn: 0, rolls: 0})")
    win = goat.probe_win(1, 0, 0)
    assert "Hint: %s, win chance %s." % (action_text(goat.probe_move(1, 0, 0, 0, 0)), percent(win)) \
        in page.inner_text("#goat-message")
    assert page.get_attribute("#goat-message span.num", "data-exact") == "%.6f" % win
    shown = page.eval_on_selector_all("#goat-hint-values li", "lis => lis.map(li => [Number(li.dataset.action), li.dataset.value])")
    assert shown == best_first(values) and len(shown) == 6
    s = play_to_the_end(page, goat, 2024)
    check_game(page, goat, s)
    assert any(row["cost"] > 0 for row in s["history"] if row["who"] == "you")
    assert page.evaluate("document.activeElement.id") == "goat-new"
    screenshot(page, "goat-play.png")
    # a history row opens its position in Coach, answered
    rows = [row for row in s["history"] if row["rolls"] > 0]
    row = rows[len(rows) // 2]
    index = s["history"].index(row)
    unfold(page, "#goat-history li:nth-child(%d) button" % (index + 1))
    assert page.is_visible("#goat-coach") and page.is_hidden("#goat-play")
    where = (row["player"], row["my"], row["opp"], row["turn"], row["rolls"])
    assert page.is_checked("#goat-player-%d" % row["player"])
    assert [page.input_value("#goat-" + f) for f in ("my", "opp", "turn", "rolls")] == [str(v) for v in where[1:]]
    assert shown_answer(page) == ("%.6f" % goat.probe_win(*where), action_text(goat.probe_move(*where)), "")
    assert page.evaluate("document.activeElement.id") == "goat-mode-play"
    # and Play comes back to the same game
    page.click("#goat-mode-play")
    assert state(page, "goat") == s


def test_goat_a_game_by_keyboard_only(open_page, goat):
    page = open_page("?game=goat&mode=play&seed=31&seat=2&anim=0")
    page.focus("#goat-roll-1")
    page.keyboard.press("h")
    assert "Hint:" in page.inner_text("#goat-message")
    s = play_to_the_end(page, goat, 31, keyboard=True, blunders=5)
    check_game(page, goat, s)
    # the score track: each player's banked score along the way to the goal
    tracks = page.eval_on_selector_all("#goat-board progress", "ps => ps.map((p) => [p.value, p.max])")
    assert tracks == [[min(score, GOAL), GOAL] for score in s["scores"]], (tracks, s["scores"])
    assert page.evaluate("document.activeElement.id") == "goat-new"
    page.keyboard.press("n")  # the game is over: nothing to ask
    assert page.locator("dialog[open]").count() == 0 and state(page, "goat")["history"] != s["history"]


# -- Enter after a move made by a key ---------------------------------------------------------------


def test_goat_enter_stops_after_a_digit_key_roll(open_page):
    """The focus after a key's roll is where Enter stops, not on the roll button that rolled."""
    page = open_page("?game=goat&mode=play&seed=4&anim=0&seat=1&moves=322")
    page.keyboard.press("1")
    assert "moves=3221&" in page.url + "&" and state(page, "goat")["rolls"] > 0
    page.keyboard.press("Enter")
    assert "moves=32210&" in page.url + "&"
    assert [row["action"] for row in state(page, "goat")["history"] if row["who"] == "you"][-1] == 0


@pytest.mark.parametrize("game", ["yazy", "yahtzee"])
def test_five_dice_enter_scores_after_keys(open_page, game):
    """R, then a digit: Enter scores the chosen box (as the keys line says), it does not reroll."""
    page = open_page("?game=%s&mode=play&seed=21" % game)
    page.keyboard.press("r")
    page.keyboard.press("1")
    assert state(page, game)["kept"][0]
    page.keyboard.press("Enter")
    s = state(page, game)
    assert s["dice"] is None and s["moves"] == "vw" and len(s["decisions"]) == 1


# -- Goat's refused anim -------------------------------------------------------------------------


def test_goat_a_bad_anim_is_named_once_and_left_out_of_the_link(open_page):
    page = open_page("?game=goat&mode=play&seed=1&anim=5")
    assert "anim=5: choose" in page.inner_text("#link-problems")
    assert "anim=" not in page.url and "seed=1" in page.url
    page.reload()
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=60000)
    assert "anim=" not in page.url and "anim=5" not in page.inner_text("body")
