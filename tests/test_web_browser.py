"""The page in a real browser (Debian's chromium driven by Playwright) against
``ShutTheBox serve``: coach answers match the Python API, a seeded game is
played to the end, illegal moves are refused, a bad table gives a message.
Screenshots of each mode go to test-output/.

Needs /usr/bin/chromium and the playwright package (never `playwright install`:
the system browser is used). Skipped without them, except under CI (CI set),
where they must be there (.ci/run installs them).
"""

from __future__ import annotations

import os
import random

import pytest

import shutthebox
from shutthebox.errors import InvalidQuery
from shutthebox.engine.notation import format_set, numbers_of as tiles_of

from serving import OUTPUT, ROOT, TABLE, WAIT_MS, page_opener, percent, points, screenshot

PHONE = {"width": 390, "height": 844}  # the phone of the defect reports


@pytest.fixture(scope="module")
def table():
    return shutthebox.load(TABLE)


@pytest.fixture
def open_page(browser, server):
    with page_opener(browser, server, "") as opener:
        yield opener



def format_position(mask):
    """A position of the 9-tile boards these tests play."""
    return format_set(mask, 9)


def answer_ask(page, yes):
    """Answer the page's own "throw away the game in progress?" question (a <dialog>, not window.confirm)."""
    page.wait_for_selector("#ask[open]")
    page.click("#ask-yes" if yes else "#ask-no")
    page.wait_for_selector("#ask:not([open])", state="attached")


# -- what the API says the coach must show ----------------------------------------


def legal_moves(rules, mask, roll):
    """Every set of open tiles summing to the roll, by brute force."""
    moves = []
    for move in range(1, mask + 1):
        if move & mask == move and sum(tiles_of(move)) == roll:
            if rules.max_move_tiles is None or len(tiles_of(move)) <= rules.max_move_tiles:
                moves.append(move)
    return moves


def expected_coach(table, player, mask, score, roll):
    rules = table.rules
    position = format_position(mask)
    if player == 1:
        expect = table.expect_one(position)
        value_of = lambda after: 1.0 if not after else table.expect_one(format_position(after))  # noqa: E731
        end_value = 1.0 - table.expect_two(format_position(rules.all_open), sum(tiles_of(mask)))
        ask_move = lambda: table.move_one(position, roll)  # noqa: E731
    else:
        expect = table.expect_two(position, score)
        value_of = lambda after: 1.0 if not after else table.expect_two(format_position(after), score)  # noqa: E731
        mine = sum(tiles_of(mask))
        end_value = 1.0 if mine < score else 0.5 if mine == score else 0.0
        ask_move = lambda: table.move_two(position, score, roll)  # noqa: E731
    answer = {"expect": expect}
    if roll is None:
        return answer
    try:
        answer["best"] = list(ask_move())
    except InvalidQuery:
        answer["best"] = None
    answer["values"] = {tuple(tiles_of(m)): value_of(mask & ~m) for m in legal_moves(rules, mask, roll)}
    answer["end_value"] = None if answer["values"] else end_value
    return answer


def check_coach(got, want, question):
    assert got["expect"] == want["expect"], question
    if "best" not in want:
        assert got["roll"] is None and got["moves"] == [], question
        return
    assert got["best"] == want["best"], question
    values = {tuple(m["tiles"]): m["value"] for m in got["moves"]}
    assert values == want["values"], question  # the same moves, the very same float64 values
    if got["moves"]:
        assert got["moves"][0]["best"] and got["moves"][0]["tiles"] == want["best"], question
        rest = [m["value"] for m in got["moves"][1:]]
        assert rest == sorted(rest, reverse=True), question
        assert got["moves"][0]["value"] >= max(rest, default=0), question
    else:
        assert got["turnEnds"] and got["endValue"] == want["end_value"], question


# -- coach -------------------------------------------------------------------------


def test_coach_matches_the_api_for_random_positions(open_page, table):
    page = open_page("?mode=coach")
    rules = table.rules
    rng = random.Random(5)
    questions = []
    for _ in range(400):
        mask = rng.randrange(1, 1 << rules.tiles)
        low, high = table.roll_range(mask)
        player = rng.choice([1, 2])
        score = rng.randint(1, rules.max_score) if player == 2 else None
        roll = rng.randint(low, high) if rng.random() < 0.85 else None
        questions.append([player, format_position(mask), score, roll])
    answers = page.evaluate(
        """questions => questions.map(q => {
            try { return window.shutTheBox.coach(q[0], q[1], q[2], q[3]); }
            catch (error) { return {error: error.message}; }
        })""",
        questions,
    )
    turn_ends = 0
    for question, got in zip(questions, answers):
        assert "error" not in got, (question, got)
        player, position, score, roll = question
        want = expected_coach(table, player, table._position(position), score, roll)
        check_coach(got, want, question)
        turn_ends += bool(got["turnEnds"])
    assert len(answers) == 400 and turn_ends >= 10


def set_coach(page, table, player, mask, score, roll):
    """Drive the coach with clicks only."""
    page.click("#coach-p%d" % player)
    if player == 2:
        page.fill("#coach-score", str(score))
    for tile in range(1, table.rules.tiles + 1):
        button = page.locator("#coach-tiles [data-tile='%d']" % tile)
        if (button.get_attribute("aria-pressed") == "true") != bool(mask >> (tile - 1) & 1):
            button.click()
    page.click("#coach-rolls [data-roll='%d']" % roll)


def test_coach_by_clicks_shows_the_api_answers(open_page, table):
    page = open_page("?mode=coach")
    cases = [(1, "146789", None, 9), (2, "13456789", 17, 12), (1, "123456789", None, 7),
             (2, "2458", 9, 8), (1, "1345", None, 11), (2, "12", 3, 3)]
    for player, position, score, roll in cases:
        mask = table._position(position)
        set_coach(page, table, player, mask, score, roll)
        want = expected_coach(table, player, mask, score, roll)
        summary = page.inner_text("#coach-summary")
        assert ("wins %s." % percent(want["expect"])) in summary, (position, summary)
        rows = page.locator("#coach-moves tr[data-move]")
        shown = {tuple(int(d) for d in rows.nth(i).get_attribute("data-move")):
                 float(rows.nth(i).locator("td[data-value]").get_attribute("data-value"))
                 for i in range(rows.count())}
        assert shown == want["values"], position
        if want["best"]:
            assert page.get_attribute("#coach-moves tr.best", "data-move") == "".join(map(str, want["best"]))
            assert "best move %s" % shownmove(want["best"]) in summary
        else:
            assert "the turn ends with score %d" % sum(tiles_of(mask)) in summary
        if player == 2:
            assert "Score to beat: %d" % score in summary
    screenshot(page, "coach.png")
    # Keyboard: a digit key opens or shuts its tile; the URL keeps the question.
    assert page.get_attribute("#coach-tiles [data-tile='9']", "aria-pressed") == "false"  # position 12
    page.keyboard.press("9")
    assert page.get_attribute("#coach-tiles [data-tile='9']", "aria-pressed") == "true"
    assert "pos=129&" in page.url


def shownmove(tiles):
    return "[%s]" % ", ".join(map(str, tiles))


def test_coach_on_a_phone(open_page):
    page = open_page("?mode=coach&pos=13456789&player=2&score=17&roll=12", phone=True)
    assert page.is_visible("#coach-moves tr.best")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "coach-phone.png")


# -- play --------------------------------------------------------------------------


def wait_for_human(page, before):
    """Wait until the page waits for the human (or the game is over) after `before` points."""
    page.wait_for_function(
        """before => {
            const s = window.shutTheBox.play.state();
            return s.chances.length > before && ['roll', 'move', 'over'].includes(document.body.dataset.play);
        }""",
        arg=before,
    )
    return page.evaluate("window.shutTheBox.play.state()")


def table_move(table, state):
    if state["player"] == 1:
        return list(table.move_one(state["position"], state["roll"]))
    return list(table.move_two(state["position"], state["score1"], state["roll"]))


def play_game(page, table, keyboard=False, blunder_once=False):
    """Play the human's side to the end; return the final state and the feedback texts."""
    state = page.evaluate("window.shutTheBox.play.state()")
    if state["awaiting"] not in ("roll", "move", "over"):
        state = wait_for_human(page, len(state["chances"]) - 1)
    feedback, blundered = [], False
    for _ in range(40):
        if state["over"]:
            return state, feedback
        before = len(state["chances"])
        if state["awaiting"] == "roll":
            page.keyboard.press("r") if keyboard else page.click("#roll")
        else:
            move = table_move(table, state)
            if blunder_once and not blundered:
                mask = table._position(state["position"])
                others = [m for m in legal_moves(table.rules, mask, state["roll"]) if list(tiles_of(m)) != move]
                if others:
                    move, blundered = list(tiles_of(others[-1])), True
            for tile in move:
                page.keyboard.press(str(tile)) if keyboard else page.click("#play-tiles [data-tile='%d']" % tile)
            assert page.evaluate("window.shutTheBox.play.state().chosen") == move
            page.keyboard.press("Enter") if keyboard else page.click("#confirm")
            feedback.append(page.inner_text("#feedback"))
        state = wait_for_human(page, before)
    raise AssertionError("the game did not end in 40 actions: %r" % state)


def test_play_a_seeded_game_to_the_end(open_page, table):
    page = open_page("?mode=play&seed=12345&seat=1&anim=0")
    first = page.evaluate("window.shutTheBox.play.state()")
    assert first["seed"] == 12345 and first["awaiting"] == "roll"
    assert first["chances"] == [table.expect_one("123456789")]
    state, feedback = play_game(page, table, blunder_once=True)
    assert state["over"] and state["result"] in (0, 0.5, 1)
    assert feedback and feedback[0].startswith(("Not optimal", "Optimal"))
    assert all(text.startswith("Optimal") for text in feedback[1:]), feedback
    assert feedback[0].startswith("Not optimal")  # this seed's first roll has a worse move to blunder with
    # One word for what a move gives up, in the games page's form: "cost", never "gave away" or "loss".
    cost = "cost %s of winning chance" % points(state["lost"])
    assert state["lost"] > 0 and cost in feedback[0] and "the table's [" in feedback[0], feedback[0]
    summary = page.inner_text("#summary")
    assert page.is_visible("#summary") and ("Your moves: %d, optimal %d" % (state["moves"], state["optimal"])) in summary
    assert "Your moves " + cost + " in all" in summary, summary
    words = page.inner_text("#play").lower()
    assert "cost %s (best [" % points(state["lost"]) in words
    assert not any(word in words for word in ("gave away", "giving away", "loss")), words
    assert int(page.get_attribute("#chart", "data-points")) == len(state["chances"]) >= 3
    assert page.locator("#chart polyline").count() == 1
    assert "seed=12345" in page.url
    screenshot(page, "play.png")

    # The seed fixes the dice: the same choices replay the very same game.
    page.click("#replay")
    again, _ = play_game(page, table, blunder_once=True)
    assert again["chances"] == state["chances"] and again["result"] == state["result"]


def test_play_second_by_keyboard_on_a_phone(open_page, table):
    page = open_page("?mode=play&seed=777&seat=2&anim=0", phone=True)
    state, feedback = play_game(page, table, keyboard=True)
    assert state["over"] and state["seat"] == 2
    assert all(text.startswith("Optimal") for text in feedback), feedback
    assert state["lost"] == 0
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "play-phone.png")


def test_illegal_choices_are_refused_with_a_reason(open_page, table):
    page = open_page("?mode=play&seed=2024&seat=1&anim=0")
    page.click("#play-tiles [data-tile='5']")
    assert page.get_attribute("#play-message", "data-refused") == "true"
    assert "Roll the dice first" in page.inner_text("#play-message")
    page.click("#roll")
    state = page.evaluate("window.shutTheBox.play.state()")
    assert state["awaiting"] == "move", state
    roll = state["roll"]
    # Tiles short of the roll cannot be closed.
    page.click("#play-tiles [data-tile='1']")
    page.click("#confirm")
    message = page.inner_text("#play-message")
    assert page.get_attribute("#play-message", "data-refused") == "true"
    assert "add up to 1, but they must add up to the roll, %d" % roll in message
    after = page.evaluate("window.shutTheBox.play.state()")
    assert after["position"] == "123456789" and after["awaiting"] == "move" and after["moves"] == 0
    screenshot(page, "play-refused.png")
    # A tile that takes the choice past the roll is refused on the spot (9 + 8 > 12).
    page.keyboard.press("Escape")
    page.click("#play-tiles [data-tile='9']")
    page.click("#play-tiles [data-tile='8']")
    assert page.get_attribute("#play-message", "data-refused") == "true"
    assert "more than the roll of %d" % roll in page.inner_text("#play-message")
    assert 8 not in page.evaluate("window.shutTheBox.play.state().chosen")
    # After a legal move, a shut tile cannot be chosen again.
    page.keyboard.press("Escape")
    move = table_move(table, after)
    for tile in move:
        page.click("#play-tiles [data-tile='%d']" % tile)
    page.click("#confirm")
    page.wait_for_function("document.body.dataset.play === 'roll'")
    page.click("#roll")
    page.wait_for_function("['move', 'computer', 'over'].includes(document.body.dataset.play)")
    assert page.evaluate("document.body.dataset.play") == "move"  # seed 2024: the second roll has a move
    page.click("#play-tiles [data-tile='%d']" % move[0])
    assert "Tile %d is already shut" % move[0] in page.inner_text("#play-message")


# -- a bad table -------------------------------------------------------------------


def test_missing_table_shows_a_message(open_page):
    page = open_page("?table=nothing-here.msgpack", ready=False)
    assert page.evaluate("document.body.dataset.state") == "error"
    text = page.inner_text("#error")
    assert "could not be loaded" in text and "nothing-here.msgpack (HTTP 404)" in text
    assert page.is_hidden("#coach") and page.is_hidden("#play")


def test_damaged_table_shows_a_message(browser, server, open_page):
    data = bytearray(open(TABLE, "rb").read())
    data[len(data) // 2] ^= 0x10
    page = open_page("?mode=coach", ready=False)  # a good load first, then a damaged one
    page.route("**/standard.msgpack", lambda route: route.fulfill(status=200, body=bytes(data),
                                                                  content_type="application/vnd.msgpack"))
    page.reload()
    page.wait_for_function("document.body.dataset.state !== 'loading'")
    assert page.evaluate("document.body.dataset.state") == "error"
    text = page.inner_text("#error")
    assert "damaged (checksum mismatch)" in text and "make tables" in text
    screenshot(page, "damaged-table.png")
    page.route("**/standard.msgpack", lambda route: route.fulfill(status=200, body=bytes(data[:5000])))
    page.reload()
    page.wait_for_function("document.body.dataset.state !== 'loading'")
    assert "truncated" in page.inner_text("#error")


def test_dice_are_animated_and_the_seed_fixes_them(open_page):
    quiet = open_page("?mode=play&seed=99&seat=1&anim=0")
    quiet.click("#roll")
    expected = quiet.evaluate("window.shutTheBox.play.state().dice")
    page = open_page("?mode=play&seed=99&seat=1")
    page.click("#roll")
    assert page.locator("#dice .die.rolling").count() == len(expected)
    page.wait_for_function("document.body.dataset.play !== 'rolling'")
    assert page.evaluate("window.shutTheBox.play.state().dice") == expected
    assert page.locator("#dice .die.rolling").count() == 0
    faces = [int(page.locator("#dice .die").nth(i).get_attribute("data-face")) for i in range(len(expected))]
    assert faces == expected


# -- solo: one player, one turn, for the shut or score objective ---------------------

SOLO_VARIANTS = ("standard", "two-dice", "two-tiles")


@pytest.fixture(scope="module")
def solo_tables():
    return {variant: shutthebox.load_solo(variant) for variant in SOLO_VARIANTS}


def solo_value_after(solo, mask, move, objective):
    """The objective's value after a move (0: none, the turn ends), from the Python API."""
    after = mask & ~move
    if not move:
        return float(sum(tiles_of(mask))) if objective == "score" else 0.0
    if not after:
        return 0.0 if objective == "score" else 1.0
    return solo.expect(format_position(after), objective)


def solo_cost(best_value, value, objective):
    return max(0.0, value - best_value if objective == "score" else best_value - value)


def expected_solo(solo, objective, mask, roll):
    position = format_position(mask)
    answer = {"expect": solo.expect(position, objective)}
    if roll is None:
        return answer
    try:
        answer["best"] = list(solo.move(position, roll, objective))
    except InvalidQuery:
        answer["best"] = None
    moves = legal_moves(solo.rules, mask, roll)
    answer["values"] = {tuple(tiles_of(m)): solo_value_after(solo, mask, m, objective) for m in moves}
    if answer["best"]:
        best_value = answer["values"][tuple(answer["best"])]
        answer["costs"] = {k: solo_cost(best_value, v, objective) for k, v in answer["values"].items()}
    answer["end_value"] = None if moves else solo_value_after(solo, mask, 0, objective)
    return answer


def test_solo_coach_matches_the_api_for_random_positions(open_page, solo_tables):
    page = open_page("?mode=coach")
    page.evaluate("Promise.all(['standard', 'two-dice', 'two-tiles'].map(v => window.shutTheBox.solo.load(v)))")
    rng = random.Random(77)
    questions = []
    for _ in range(450):
        variant, objective = rng.choice(SOLO_VARIANTS), rng.choice(["shut", "score"])
        solo = solo_tables[variant]
        mask = rng.randrange(1, 1 << solo.rules.tiles)
        low, high = solo.roll_range(mask)
        roll = rng.randint(low, high) if rng.random() < 0.85 else None
        questions.append([variant, objective, format_position(mask), roll])
    # Questions where the objectives' moves differ (rare among random ones).
    questions += [[v, o, p, r] for v, p, r in (("standard", "2345", 7), ("two-dice", "1245", 6),
                                               ("two-tiles", "1234", 4)) for o in ("shut", "score")]
    answers = page.evaluate(
        """questions => questions.map(q => {
            try { return window.shutTheBox.solo.coach(q[0], q[1], q[2], q[3]); }
            catch (error) { return {error: error.message}; }
        })""",
        questions,
    )
    turn_ends = differ = 0
    for question, got in zip(questions, answers):
        assert "error" not in got, (question, got)
        variant, objective, position, roll = question
        solo = solo_tables[variant]
        want = expected_solo(solo, objective, solo._mask(position), roll)
        assert got["expect"] == want["expect"] and got["variant"] == variant, question
        if roll is None:
            assert got["roll"] is None and got["moves"] == [], question
            continue
        assert got["best"] == want["best"], question
        # The same legal moves (two-tiles: at most two tiles), the very same float64 values and costs.
        assert {tuple(m["tiles"]): m["value"] for m in got["moves"]} == want["values"], question
        if got["moves"]:
            assert {tuple(m["tiles"]): m["cost"] for m in got["moves"]} == want["costs"], question
            assert got["moves"][0]["best"] and got["moves"][0]["cost"] == 0, question
            rest = [m["value"] for m in got["moves"][1:]]
            assert rest == sorted(rest, reverse=objective == "shut"), question
            other = "score" if objective == "shut" else "shut"
            differ += want["best"] != expected_solo(solo, other, solo._mask(position), roll)["best"]
        else:
            assert got["turnEnds"] and got["endValue"] == want["end_value"], question
            turn_ends += 1
    assert turn_ends >= 10 and differ >= 6, (turn_ends, differ)  # the objectives' moves do differ
    # A question the reader refuses, in the player's words.
    message = page.evaluate("""() => { try { window.shutTheBox.solo.coach('two-dice', 'shut', '12', 1); }
                                       catch (error) { return error.message; } }""")
    assert "roll 1 is impossible under the two-dice rules" in message


def solo_state(page):
    return page.evaluate("window.shutTheBox.solo.state()")


def play_solo(page, solo, objective, blunder_once=False, keyboard=False):
    """Play a solo game to its end with the table's moves (one deliberate mistake if asked)."""
    feedback, choices = [], []
    for _ in range(20):
        state = solo_state(page)
        if state["over"]:
            return state, feedback, choices
        assert state["awaiting"] in ("roll", "move"), state
        mask = solo._mask(state["position"])
        if state["awaiting"] == "roll":  # else rolled already
            page.keyboard.press("r") if keyboard else page.click("#solo-roll")
            page.wait_for_function("['move', 'over'].includes(document.body.dataset.solo)")
            state = solo_state(page)
        # The dice rule of the table's own rules: one die once the open tiles sum to 6 or less (not two-dice).
        assert len(state["dice"]) == solo.rules.dice_for(sum(tiles_of(mask))), state
        roll = state["roll"]
        want = expected_solo(solo, objective, mask, roll)
        if state["over"]:
            assert want["best"] is None and not want["values"], state
            continue
        move = want["best"]
        if blunder_once and not feedback:
            worse = [tiles for tiles, cost in want["costs"].items() if cost > 0]
            if worse:
                move = list(min(worse, key=lambda tiles: want["costs"][tiles]))
        for tile in move:
            page.keyboard.press(str(tile)) if keyboard else page.click("#solo-tiles [data-tile='%d']" % tile)
        assert solo_state(page)["chosen"] == move
        page.keyboard.press("Enter") if keyboard else page.click("#solo-confirm")
        text = page.inner_text("#solo-feedback")
        cost = float(page.get_attribute("#solo-feedback", "data-cost"))
        assert cost == want["costs"][tuple(move)], (move, cost, want)
        feedback.append(text)
        choices.append(move)
    raise AssertionError("the solo game did not end in 20 rolls")


def test_solo_a_seeded_game_by_clicks(open_page, solo_tables):
    solo = solo_tables["two-dice"]
    page = open_page("?mode=solo&seed=31&variant=two-dice&objective=shut&anim=0")
    page.wait_for_function("document.body.dataset.solo === 'roll'")
    first = solo_state(page)
    assert first["start"] == solo.shut_probability("123456789") and first["rules"]["oneDieAtMost"] is None
    # Illegal choices are refused with a reason.
    page.click("#solo-tiles [data-tile='5']")
    assert page.get_attribute("#solo-message", "data-refused") == "true"
    assert "Roll the dice first" in page.inner_text("#solo-message")
    page.click("#solo-roll")
    page.wait_for_function("document.body.dataset.solo === 'move'")
    roll = solo_state(page)["roll"]
    page.click("#solo-tiles [data-tile='1']")
    page.click("#solo-confirm")
    assert page.get_attribute("#solo-message", "data-refused") == "true"
    assert "add up to 1, but they must add up to the roll, %d" % roll in page.inner_text("#solo-message")
    page.click("#solo-clear")
    page.click("#solo-tiles [data-tile='9']")
    page.click("#solo-tiles [data-tile='8']")
    assert "more than the roll of %d" % roll in page.inner_text("#solo-message")
    assert solo_state(page)["position"] == "123456789" and solo_state(page)["moves"] == 0
    page.click("#solo-replay")  # start again from the same dice: a turn is in progress, the page asks first
    answer_ask(page, yes=True)
    page.wait_for_function("document.body.dataset.solo === 'roll'")

    state, feedback, choices = play_solo(page, solo, "shut", blunder_once=True)
    assert state["over"] and state["moves"] == len(feedback) >= 2
    assert feedback[0].startswith("Not optimal: [") and " cost " in feedback[0] and "the table's [" in feedback[0]
    assert "percentage points of shutting chance" in feedback[0]
    assert all(text.startswith("Optimal") for text in feedback[1:]), feedback
    assert state["cost"] == state["costs"][0] > 0
    summary = page.inner_text("#solo-summary")
    assert page.is_visible("#solo-summary")
    assert "chance of shutting the box from the start is %s" % percent(solo.shut_probability("123456789")) in summary
    assert "Your moves: %d, optimal %d" % (state["moves"], state["optimal"]) in summary
    assert ("You shut the box!" if state["shut"] else "Final score %d" % state["score"]) in summary
    assert page.locator("#solo-log li").count() >= state["moves"] + 1
    assert "seed=31" in page.url and "variant=two-dice" in page.url
    screenshot(page, "solo.png")
    page.click("#solo-tiles [data-tile='9']")
    assert "The game is over" in page.inner_text("#solo-message")

    # The seed fixes the dice: the same choices replay the very same game.
    page.click("#solo-replay")
    page.wait_for_function("document.body.dataset.solo === 'roll'")
    again, _, again_choices = play_solo(page, solo, "shut", blunder_once=True)
    assert again["values"] == state["values"] and again_choices == choices


def test_solo_score_by_keyboard_on_a_phone_with_the_coach(open_page, solo_tables):
    solo = solo_tables["standard"]
    page = open_page("?mode=solo&seed=8&variant=standard&objective=score&hints=1&anim=0", phone=True)
    page.wait_for_function("document.body.dataset.solo === 'roll'")
    # Before rolling, the coach lists the best move for every roll.
    assert page.locator("#solo-moves tr[data-roll]").count() == 11
    page.keyboard.press("r")
    page.wait_for_function("['move', 'over'].includes(document.body.dataset.solo)")
    state = solo_state(page)
    assert state["awaiting"] == "move", state  # seed 8: the first roll has a move
    want = expected_solo(solo, "score", solo.rules.all_open, state["roll"])
    rows = page.locator("#solo-moves tr[data-move]")
    shown = [tuple(int(d) for d in rows.nth(i).get_attribute("data-move")) for i in range(rows.count())]
    assert set(shown) == set(want["values"]) and list(shown[0]) == want["best"]
    assert page.get_attribute("#solo-moves tr.best", "data-move") == "".join(map(str, want["best"]))
    screenshot(page, "solo-phone.png")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    state, feedback, _ = play_solo(page, solo, "score", keyboard=True)
    assert state["over"] and state["cost"] == 0 and all(text.startswith("Optimal") for text in feedback)
    summary = page.inner_text("#solo-summary")
    assert "expected final score from the start is %.1f (lower" % solo.expected_score("123456789") in summary
    assert page.get_attribute("#solo-summary span.num", "data-exact") == "%.6f" % solo.expected_score("123456789")
    assert "perfect play" in summary and "Final score %d = " % state["score"] in summary
    screenshot(page, "solo-phone-end.png")


def test_solo_two_tiles_refuses_a_third_tile(open_page, solo_tables):
    page = open_page("?mode=solo&seed=5&variant=two-tiles&objective=shut&anim=0")
    page.wait_for_function("document.body.dataset.solo === 'roll'")
    page.keyboard.press("r")
    page.wait_for_function("document.body.dataset.solo === 'move'")
    roll = solo_state(page)["roll"]
    assert roll >= 6, roll  # seed 5: 1 + 2 + 3 fits the roll, but three tiles do not fit the rules
    for tile in (1, 2, 3):
        page.keyboard.press(str(tile))
    assert page.get_attribute("#solo-message", "data-refused") == "true"
    assert "At most 2 tiles may be closed per roll under the two-tiles rules" in page.inner_text("#solo-message")
    assert solo_state(page)["chosen"] == [1, 2]
    # Switching the objective or the rules starts again with the same dice.
    page.click("#solo-objectives [data-objective='score']")
    answer_ask(page, yes=True)  # the turn in progress is thrown away only once confirmed
    page.wait_for_function("document.body.dataset.solo === 'roll'")
    assert "objective=score" in page.url and solo_state(page)["seed"] == 5
    assert solo_state(page)["start"] == solo_tables["two-tiles"].expected_score("123456789")


def test_solo_missing_or_damaged_table_is_a_message_in_solo_mode_only(open_page):
    page = open_page("?mode=coach", ready=True)
    page.route("**/solo-two-dice.msgpack", lambda route: route.fulfill(status=404, body=b"no"))
    page.click("#tab-solo")
    page.click("#solo-variants [data-variant='two-dice']")
    page.wait_for_function("document.body.dataset.solo === 'error'")
    text = page.inner_text("#solo-error")
    assert "solo-two-dice.msgpack (HTTP 404)" in text and "The other modes still work" in text
    page.click("#solo-roll", force=True)
    assert page.evaluate("document.body.dataset.state") == "ready"  # coach and play are unharmed
    data = bytearray(open(os.path.join(ROOT, "data", "solo-two-tiles.msgpack"), "rb").read())
    data[len(data) // 2] ^= 0x04
    page.route("**/solo-two-tiles.msgpack", lambda route: route.fulfill(status=200, body=bytes(data)))
    page.click("#solo-variants [data-variant='two-tiles']")
    page.wait_for_function("document.body.dataset.solo === 'error'")
    assert "damaged (checksum mismatch)" in page.inner_text("#solo-error")
    page.click("#solo-variants [data-variant='standard']")
    page.wait_for_function("document.body.dataset.solo === 'roll'")
    assert page.is_hidden("#solo-error")
    page.keyboard.press("c")
    assert page.is_visible("#coach") and page.is_hidden("#solo")
    page.keyboard.press("s")
    assert page.is_visible("#solo") and "mode=solo" in page.url and "variant=standard" in page.url


def test_solo_from_a_plain_static_server(browser):
    """Served by any static server from the checkout's root: the page is shutthebox/web/static/,
    the tables are found in the checkout's data/, ../../../data/ from it."""
    import subprocess
    import sys
    import time
    import urllib.request

    proc = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1", "-d", ROOT],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline()
        port = int(line.split(" port ")[1].split()[0])
        base = "http://127.0.0.1:%d/shutthebox/web/static/" % port
        for _ in range(50):
            try:
                urllib.request.urlopen(base, timeout=2).close()
                break
            except OSError:
                time.sleep(0.1)
        context = browser.new_context(viewport={"width": 900, "height": 1000})
        page = context.new_page()
        page.goto(base + "?mode=solo&seed=3&variant=two-tiles&anim=0")
        page.wait_for_function("['roll', 'error'].includes(document.body.dataset.solo)", timeout=WAIT_MS)
        assert page.evaluate("document.body.dataset.solo") == "roll", page.inner_text("#solo-error")
        assert "../../../data/solo-two-tiles.msgpack" in page.inner_text("#solo-info")
        context.close()
    finally:
        proc.terminate()
        proc.wait(timeout=5)
        proc.stdout.close()


# -- issue 13, "What a user tried, and what broke", items 1 to 9 (one test each) ------


def active(page):
    """What has the keyboard focus: an id, "tile N", "roll N", or the tag name (BODY: focus is lost)."""
    return page.evaluate("""() => {
        const e = document.activeElement;
        if (!e) return null;
        if (e.dataset.tile) return 'tile ' + e.dataset.tile;
        if (e.dataset.roll !== undefined) return 'roll ' + (e.dataset.roll || 'any');
        return e.id || e.tagName;
    }""")


def play_state(page):
    return page.evaluate("window.shutTheBox.play.state()")


def test_1_enter_on_a_seat_button_and_restarts_ask_first(open_page, table):
    page = open_page("?mode=play&seed=12345&seat=1&anim=0")
    native = []
    page.on("dialog", lambda dialog: (native.append(dialog.message), dialog.dismiss()))
    # The user's path: tab to "Player two" and press Enter (nothing played yet: it starts as player two) ...
    page.focus("#seat-1")
    page.keyboard.press("Tab")
    assert active(page) == "seat-2"
    page.keyboard.press("Enter")
    page.wait_for_function("document.body.dataset.play === 'roll'")
    assert play_state(page)["seat"] == 2 and page.is_hidden("#ask")
    # ... then roll, type the tiles and press Enter: the tiles are closed, the game is not restarted.
    page.keyboard.press("r")
    page.wait_for_function("document.body.dataset.play === 'move'")
    state = play_state(page)
    for tile in table_move(table, state):
        page.keyboard.press(str(tile))
    page.keyboard.press("Enter")
    after = play_state(page)
    assert after["seat"] == 2 and after["moves"] == 1 and after["position"] != "123456789", after
    assert page.is_hidden("#ask")
    # Enter on a focused seat button now asks; Escape keeps the game.
    page.focus("#seat-1")
    page.keyboard.press("Enter")
    assert page.is_visible("#ask") and "game in progress" in page.inner_text("#ask")
    assert active(page) == "ask-no"  # a second Enter keeps the game
    screenshot(page, "play-ask.png")
    page.keyboard.press("Escape")
    assert page.is_hidden("#ask") and play_state(page)["moves"] == 1
    # New game, Replay seed and N ask too; "Keep playing" keeps the very game.
    for action in ("#new-game", "#replay", "#seat-2", "n"):
        page.keyboard.press(action) if len(action) == 1 else page.click(action)
        answer_ask(page, yes=False)
        assert play_state(page) == after, action
    # Confirmed, Replay seed starts the same dice again.
    page.click("#replay")
    answer_ask(page, yes=True)
    page.wait_for_function("document.body.dataset.play === 'roll'")
    again = play_state(page)
    assert again["seed"] == 12345 and again["seat"] == 2 and again["moves"] == 0
    # Solo asks as well before throwing a turn away.
    page.keyboard.press("s")
    page.wait_for_function("document.body.dataset.solo === 'roll'")
    page.keyboard.press("r")
    page.wait_for_function("['move', 'over'].includes(document.body.dataset.solo)")
    rolled = solo_state(page)
    page.click("#solo-new")
    answer_ask(page, yes=False)
    assert solo_state(page) == rolled
    assert native == []  # never window.confirm


def test_2_the_score_to_beat_shown_is_the_score_answered(open_page, table):
    page = open_page("?mode=coach&player=2&score=17&pos=13456789&roll=12")
    assert "Score to beat: 17" in page.inner_text("#coach-summary") and page.is_hidden("#coach-score-error")
    page.fill("#coach-score", "")
    page.type("#coach-score", "46")  # key by key: "4", then "46"
    for text in ("46", "2.5", "1e1", "0", "-3", "99", ""):
        if text != "46":
            page.fill("#coach-score", text)
        assert page.input_value("#coach-score") == text
        message = page.inner_text("#coach-score-error")
        assert page.is_visible("#coach-score-error") and "1 to 45" in message, (text, message)
        assert page.get_attribute("#coach-score", "aria-invalid") == "true"
        summary = page.inner_text("#coach-summary")
        assert "Score to beat:" not in summary and "wins" not in summary, (text, summary)
        assert page.locator("#coach-moves tr").count() == 0, text
    screenshot(page, "coach-score-refused.png")
    page.fill("#coach-score", "")
    page.type("#coach-score", "31")
    mask = table._position("13456789")
    want = expected_coach(table, 2, mask, 31, 12)
    assert page.is_hidden("#coach-score-error") and "Score to beat: 31" in page.inner_text("#coach-summary")
    assert page.get_attribute("#coach-moves tr.best", "data-move") == "".join(map(str, want["best"]))
    assert "score=31" in page.url
    # The buttons step from the number shown, into the range.
    page.fill("#coach-score", "99")
    page.click("#coach-score-down")
    assert page.input_value("#coach-score") == "45" and "Score to beat: 45" in page.inner_text("#coach-summary")
    page.focus("#coach-score")
    page.keyboard.press("ArrowDown")
    assert page.input_value("#coach-score") == "44" and "Score to beat: 44" in page.inner_text("#coach-summary")


def tab_stops(page, start="#tab-coach", limit=80):
    """The ids of the controls Tab visits, from `start` round to it again."""
    page.focus(start)
    first, stops = active(page), []
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = active(page)
        if now == first:
            return stops
        if now not in ("BODY", None):
            stops.append(now)
    raise AssertionError("Tab did not come back to %s: %r" % (start, stops))


def test_3_the_hidden_score_control_is_hidden_and_takes_no_tab_stop(open_page):
    page = open_page("?mode=coach&player=1")
    assert page.is_hidden("#coach-score-box")
    assert page.evaluate("getComputedStyle(document.getElementById('coach-score-box')).display") == "none"
    score_controls = {"coach-score", "coach-score-down", "coach-score-up"}
    stops = tab_stops(page)
    assert not score_controls & set(stops), stops
    page.click("#coach-p2")
    assert page.is_visible("#coach-score-box")
    assert score_controls <= set(tab_stops(page))


def test_4_after_each_close_the_message_says_roll(open_page, table):
    page = open_page("?mode=play&seed=12345&seat=1&anim=0")
    closes = 0
    for _ in range(30):
        state = play_state(page)
        if state["over"] or state["player"] != 1:
            break
        if state["awaiting"] == "roll":
            page.click("#roll")
            page.wait_for_function("document.body.dataset.play !== 'rolling'")
            continue
        for tile in table_move(table, state):
            page.click("#play-tiles [data-tile='%d']" % tile)
        assert "press Close tiles" in page.inner_text("#play-message")
        page.click("#confirm")
        closes += 1
        if play_state(page)["awaiting"] == "roll":
            message = page.inner_text("#play-message")
            assert "Close tiles" not in message and "Roll" in message, message
    assert closes >= 2


def chart_labels_inside(page):
    return page.evaluate("""() => {
        const box = document.getElementById('chart').getBoundingClientRect();
        return [...document.querySelectorAll('#chart text')].map(t => {
            const r = t.getBoundingClientRect();
            return [t.textContent, r.left >= box.left - 0.5 && r.right <= box.right + 0.5];
        });
    }""")


def test_5_the_chart_label_player_two_is_not_cut_off(open_page):
    for phone, name in ((False, "chart.png"), ({"width": 375, "height": 812}, "chart-phone.png")):
        # Seat 2: the computer plays player one's turn, the turn line is at the chart's right edge.
        page = open_page("?mode=play&seed=777&seat=2&anim=0", phone=phone)
        page.wait_for_function("document.body.dataset.play === 'roll'")
        labels = chart_labels_inside(page)
        assert ["player two", True] in labels and all(inside for _, inside in labels), (phone, labels)
        page.locator("#chart").screenshot(path=os.path.join(OUTPUT, name))


def test_6_focus_follows_the_game_and_arrows_move_in_groups(open_page, table):
    page = open_page("?mode=coach&pos=123456789")
    # Coach: choosing a roll keeps the focus on it; arrows move within the rolls and the tiles.
    page.click("#coach-rolls [data-roll='7']")
    assert active(page) == "roll 7"
    page.keyboard.press("ArrowRight")
    assert active(page) == "roll 8"
    page.keyboard.press("Enter")
    assert active(page) == "roll 8" and "Roll 8:" in page.inner_text("#coach-summary")
    assert page.locator("#coach-rolls [tabindex='0']").count() == 1
    page.keyboard.press("End")
    assert active(page) == "roll any"
    page.focus("#coach-tiles [data-tile='1']")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert active(page) == "tile 3"
    page.keyboard.press("Space")  # shuts tile 3; the focus stays
    assert active(page) == "tile 3" and page.get_attribute("#coach-tiles [data-tile='3']", "aria-pressed") == "false"
    page.keyboard.press("ArrowLeft")
    assert active(page) == "tile 2"
    assert page.locator("#coach-tiles [tabindex='0']").count() == 1
    stops = tab_stops(page)
    assert sum(stop.startswith("tile") for stop in stops) == 1 and sum(stop.startswith("roll") for stop in stops) == 1
    # Play: a whole game with Enter on whatever has the focus: Roll, then Close tiles, ... then New game.
    page = open_page("?mode=play&seed=4242&seat=1&anim=0")
    page.focus("#roll")
    for _ in range(60):
        state = play_state(page)
        if state["over"]:
            break
        if state["awaiting"] == "roll":
            assert active(page) == "roll", state
            page.keyboard.press("Enter")
        elif state["awaiting"] == "move":
            assert active(page) == "confirm", state
            for tile in table_move(table, state):
                page.keyboard.press(str(tile))
            page.keyboard.press("Enter")
        page.wait_for_function("['roll', 'move', 'over'].includes(document.body.dataset.play)")
    assert play_state(page)["over"] and active(page) == "new-game"


def rgb(text):
    parts = [float(x) for x in text[text.index("(") + 1:-1].split(",")]
    return parts[:3], (parts[3] if len(parts) == 4 else 1.0)


def luminance(colour):
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fore, back):
    """WCAG contrast of two computed CSS colours (the foreground's alpha blended over the background)."""
    (f, alpha), (b, _) = rgb(fore), rgb(back)
    f = [alpha * x + (1 - alpha) * y for x, y in zip(f, b)]
    high, low = sorted((luminance(f), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


STYLE = """sel => { const s = getComputedStyle(document.querySelector(sel));
    return {bg: s.backgroundColor, image: s.backgroundImage, transform: s.transform, color: s.color,
            border: s.borderColor, after: getComputedStyle(document.querySelector(sel), '::after').content}; }"""


def test_7_hover_is_not_selection_and_shut_tiles_are_readable(open_page):
    page = open_page("?mode=play&seed=12345&seat=1&anim=0")  # first roll 8
    page.click("#roll")
    page.click("#play-tiles [data-tile='3']")
    page.mouse.move(0, 0)
    plain = page.evaluate(STYLE, "#play-tiles [data-tile='6']")
    chosen = page.evaluate(STYLE, "#play-tiles [data-tile='3']")
    page.hover("#play-tiles [data-tile='6']")
    hovered = page.evaluate(STYLE, "#play-tiles [data-tile='6']")
    screenshot(page, "play-hover.png")
    # Hover keeps the tile's own fill and place; selection changes them.
    assert (hovered["bg"], hovered["image"], hovered["transform"]) == (plain["bg"], plain["image"], plain["transform"])
    assert (chosen["bg"], chosen["image"]) != (hovered["bg"], hovered["image"])
    assert chosen["transform"] != hovered["transform"] and chosen["after"] != hovered["after"]
    # A refused tile (past the roll) hovered still does not look chosen.
    page.hover("#play-tiles [data-tile='9']")
    page.mouse.down()
    page.mouse.up()
    refused = page.evaluate(STYLE, "#play-tiles [data-tile='9']")
    assert page.get_attribute("#play-message", "data-refused") == "true"
    assert (refused["bg"], refused["image"], refused["transform"]) == (plain["bg"], plain["image"], plain["transform"])
    # Shut tiles: at least 4.5:1, hovered or not, light or dark.
    for scheme in ("light", "dark"):
        page = open_page("?mode=coach&pos=1234", color_scheme=scheme)
        shut = page.evaluate(STYLE, "#coach-tiles [data-tile='9']")
        assert contrast(shut["color"], shut["bg"]) >= 4.5, (scheme, shut)
        page.hover("#coach-tiles [data-tile='9']")
        shut = page.evaluate(STYLE, "#coach-tiles [data-tile='9']")
        assert contrast(shut["color"], shut["bg"]) >= 4.5, (scheme, shut)


@pytest.mark.parametrize("query, name, words", [
    ("?mode=coach&pos=abc", "pos=abc", "not a tile"),
    ("?mode=coach&pos=123&roll=8", "roll=8", "impossible"),
    ("?mode=coach&player=2&score=99", "score=99", "1 to 45"),
    ("?mode=play&seed=abc", "seed=abc", "whole number"),
    ("?mode=play&seed=42abc", "seed=42abc", "whole number"),
    ("?mode=coach&player=3", "player=3", "1 or 2"),
    ("?mode=solo&variant=three-dice&seed=5", "variant=three-dice", "standard"),
    ("?mode=chess", "mode=chess", "coach"),
    ("?mode=play&seed=5&moves=r&undone=x", "undone=x", "whole number"),
    ("?mode=solo&seed=5&moves=r&undone=-1", "undone=-1", "whole number"),
])
def test_8_bad_link_parameters_are_named(open_page, query, name, words):
    page = open_page(query)
    assert page.is_visible("#link-problems"), query
    text = page.inner_text("#link-problems")
    assert name in text and words in text, text
    if name == "seed=42abc":
        assert play_state(page)["seed"] != 42 and "seed=42abc" not in page.url
    if name == "roll=8":
        assert page.locator("#coach-rolls [aria-pressed='true']").get_attribute("data-roll") == ""
    page.click("#link-problems button")
    assert page.is_hidden("#link-problems")


def test_8_good_link_parameters_give_no_message(open_page):
    page = open_page("?mode=coach&player=2&score=17&pos=13456789&roll=12&anim=0")
    assert page.is_hidden("#link-problems")
    page = open_page("?mode=solo&seed=0&variant=two-dice&objective=score&hints=1")
    assert page.is_hidden("#link-problems")


def test_9_dark_theme(open_page):
    for query, name in (("?mode=coach&player=2&score=17&pos=13456789&roll=12", "coach-dark.png"),
                        ("?mode=play&seed=12345&seat=1&anim=0", "play-dark.png")):
        page = open_page(query, color_scheme="dark")
        colours = page.evaluate("""() => {
            const s = e => getComputedStyle(document.querySelector(e));
            return {page: s('html').backgroundColor, text: s('body').color, hint: s('.hint').color,
                    button: s('#tab-play').backgroundColor, buttonText: s('#tab-play').color,
                    board: s('#scoreboard').backgroundColor, boardText: s('#scoreboard').color,
                    chart: s('#chart').backgroundColor};
        }""")
        assert luminance(rgb(colours["page"])[0]) < 0.05 and luminance(rgb(colours["text"])[0]) > 0.6, colours
        assert contrast(colours["hint"], colours["page"]) >= 4.5
        assert contrast(colours["buttonText"], colours["button"]) >= 4.5
        assert contrast(colours["boardText"], colours["board"]) >= 4.5
        assert luminance(rgb(colours["chart"])[0]) < 0.1
        screenshot(page, name)


def test_9_ten_tiles_in_one_row_or_two_wide_rows_on_a_phone(open_page):
    data = open(os.path.join(ROOT, "data", "t10-2d6-one6-p2.msgpack"), "rb").read()
    for phone in (False, True):
        page = open_page("?mode=coach", phone=phone)
        page.route("**/standard.msgpack", lambda route: route.fulfill(status=200, body=data))
        page.goto(page.url.split("?")[0] + "?mode=play&seed=3&seat=1&anim=0")
        page.wait_for_function("document.body.dataset.state === 'ready'")
        for group in ("#play-tiles", "#coach-tiles"):
            boxes = page.evaluate("g => [...document.querySelectorAll(g + ' .tile')].map(t => { "
                                  "const r = t.getBoundingClientRect(); return [Math.round(r.top), r.left, r.width]; })",
                                  group)
            rows = sorted({top for top, _, _ in boxes})
            # A desk has room for one row; a phone wraps into two rows of tiles a finger can press, read in order.
            assert len(boxes) == 10 and len(rows) == (2 if phone else 1), (group, boxes)
            assert boxes == sorted(boxes, key=lambda box: (box[0], box[1])), (group, boxes)
            if phone:
                assert min(width for _, _, width in boxes) >= 44, (group, boxes)
            if group == "#play-tiles":
                page.keyboard.press("0")  # the 10th tile's key
                assert "Roll the dice first" in page.inner_text("#play-message")
                page.keyboard.press("c")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "coach-10-tiles-phone.png")


def test_9_one_tile_is_tile_not_tiles(open_page):
    page = open_page("?mode=play&seed=12345&seat=1&anim=0")
    page.click("#roll")
    assert play_state(page)["roll"] == 8
    page.keyboard.press("9")
    assert page.inner_text("#play-message").startswith("Tile 9 makes 9: more than the roll of 8")
    page.keyboard.press("8")
    assert page.inner_text("#play-message").startswith("Tile 8 = 8: press Close tiles")


def test_9_scoreboard_after_player_one_shut_the_box(open_page):
    page = open_page("?mode=play&seed=26&seat=2&anim=0")  # seed 26: the computer shuts the box as player one
    page.wait_for_function("document.body.dataset.play === 'over'")
    board = page.inner_text("#scoreboard")
    assert "Player one: shut the box" in board and "waiting" not in board and "Player two: did not play" in board


def test_9_solo_buttons_have_distinct_names(open_page):
    page = open_page("?mode=solo&seed=1")
    names = page.evaluate("""() => [...document.querySelectorAll('button')].filter(b => b.offsetParent !== null)
        .map(b => { const c = b.cloneNode(true); c.querySelectorAll('kbd').forEach(k => k.remove());
                    return (b.getAttribute('aria-label') || c.textContent).trim(); })""")
    assert len(names) == len(set(names)), names
    assert page.get_by_role("button", name="Hints").count() == 1


def test_9_solo_summary_parts_add_up(open_page, solo_tables):
    import re
    # Two games where rounding each part on its own did not add up (11.16 + 5.53 - 12.68 = 4.01).
    for objective in ("score", "shut"):
        page = open_page("?mode=solo&seed=4&variant=two-dice&objective=%s&anim=0" % objective)
        page.wait_for_function("document.body.dataset.solo === 'roll'")
        state, _, _ = play_solo(page, solo_tables["two-dice"], objective, blunder_once=True)
        assert state["cost"] > 0
        split = page.locator("#solo-summary p").nth(2).inner_text()
        total, parts = split.split(" = ")
        hundredths = lambda text: round(float(text) * 100)  # noqa: E731
        whole = hundredths(re.search(r"([\d.]+)%?$", total).group(1))
        start = hundredths(re.match(r"([\d.]+)", parts).group(1))
        terms = re.findall(r"(\+|\u2212) ([\d.]+)(?: points)? from", parts)
        assert len(terms) == 2, split
        assert whole == start + sum((1 if sign == "+" else -1) * hundredths(x) for sign, x in terms), split


def test_positions_of_twelve_tiles_in_the_link(open_page):
    """With more than 9 tiles a position is written with commas, as the command line reads it: `12` is
    ambiguous and named (not read as tiles 1 and 2), `12,` is tile 12, and the link the page writes back
    opens the same position; the shut box is `none`."""
    from urllib.parse import parse_qs, urlsplit

    table = shutthebox.load(os.path.join(ROOT, "data", "t12-2d6-one6-p2.msgpack"))
    open_tiles = "[...document.querySelectorAll('#coach-tiles [aria-pressed=true]')].map(t => Number(t.dataset.tile))"
    pos_of = lambda page: parse_qs(urlsplit(page.url).query)["pos"][0]  # noqa: E731
    for pos, tiles, named in [("12", list(range(1, 13)), "ambiguous"), ("146", list(range(1, 13)), "ambiguous"),
                              ("12,", [12], None), ("1,4,10,12", [1, 4, 10, 12], None), (" 3 , 11 ", [3, 11], None),
                              ("1,2,2", list(range(1, 13)), "listed twice"), ("none", [], None)]:
        page = open_page("?mode=coach&tiles=12&pos=" + pos)
        assert page.evaluate("window.shutTheBox.table().rules.tiles") == 12
        assert page.evaluate(open_tiles) == tiles, pos
        if named:
            problems = page.inner_text("#link-problems")
            assert "pos=%s:" % pos in problems and named in problems, problems
        else:
            assert page.is_hidden("#link-problems"), pos
        if tiles:
            written = pos_of(page)
            assert table.position(written) == sum(1 << (t - 1) for t in tiles), written
            answer = page.evaluate("p => window.shutTheBox.coach(1, p, null, null)", written)
            assert answer["position"] == written and answer["expect"] == table.expect_one(written)
        else:
            assert pos_of(page) == "none" and "The box is shut" in page.inner_text("#coach-summary")
    assert pos_of(page) == "none"
    page.click("#coach-tiles [data-tile='12']")  # one tile above 9: a comma after it
    assert pos_of(page) == "12,"
    page.click("#coach-tiles [data-tile='1']")
    assert pos_of(page) == "1,12"
    assert "Player one at 1,12, before rolling" in page.inner_text("#coach-summary")
