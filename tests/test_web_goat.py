"""Goat on the games page (shutthebox/web/static/games/goat*.js) in a real browser: the Coach's fixed
strategy question gives the command line's and the Python API's answers and refusals; the win chance of
every action, computed one roll ahead, agrees with the table and with an independent computation from
the rules; seeded games against the optimal computer are played to the end by clicks, by keyboard only
and on a 375-pixel phone, the computer playing the API's optimal actions and the dice and scores
replayed here from the seed. Screenshots go to test-output/.
"""

from __future__ import annotations

import itertools
import random
import subprocess

import pytest

from shutthebox.errors import InvalidQuery
from shutthebox.games.goat.rules import MAX_SUM
from shutthebox.games.goat.table import action_text, load

from serving import COMMAND, Mulberry32, points, screenshot
from test_web_numbers import exact_values

GOAL = 100


@pytest.fixture(scope="module")
def table():
    return load()


def shown_answer(page):
    box = "#goat-answer"
    return (page.get_attribute(box + " .answer-value", "data-answer"), page.get_attribute(box + " .answer-move", "data-answer"),
            page.inner_text(box + " .answer-problem"))


# -- the fixed-strategy question --------------------------------------------------------


def fixed_expected(table, score, dice, stop_at):
    try:
        return {"value": "%.6f" % table.probe_fixed(score, dice, stop_at), "move": None, "error": None}
    except InvalidQuery as error:
        return {"value": None, "move": None, "error": str(error)}


def test_fixed_strategy_answers_match_the_api_and_the_command_line(open_page, table):
    page = open_page("?game=goat")
    rng = random.Random(43)
    questions = [(0, 2, 23), (0, 2, 22), (0, 7, 3), (0, 0, 3), (0, 2, 0), (100, 2, 5), (0, 2, 99999), (-1, 2, 5)]
    while len(questions) < 260:
        bad = rng.random() < 0.08
        questions.append((rng.randint(-2, 105) if bad else rng.randrange(GOAL), rng.randint(0, 7) if bad else rng.randint(1, 6),
                          rng.randint(-1, 60) if bad else rng.randint(1, 50)))
    answers = page.evaluate("qs => window.games.goat.answers(qs.map(([score, dice, stopAt]) => ({kind: 'fixed', score, dice, stopAt})))",
                            questions)
    wanted = [fixed_expected(table, *q) for q in questions]
    assert answers == wanted
    assert sum(w["error"] is None for w in wanted) >= 220
    assert answers[0]["value"] == "8.783638" and answers[1]["value"] == "8.787015"
    # the command line, every question in one batch: the same lines and the same refusals
    batch = "".join("--solo --expect %d --dice %d --stop-at %d\n" % q for q in questions)
    run = subprocess.run(COMMAND + ["goat", "--batch"], input=batch, capture_output=True, text=True, timeout=120)
    lines = run.stdout.splitlines()
    assert len(lines) == len(questions)
    for line, got in zip(lines, answers):
        assert line == (got["value"] if got["error"] is None else "error: " + got["error"])


def best_fixed_expected(table, score):
    """(value, k, lowest t) of the best fixed strategy from score, over the thresholds `strategies` lists."""
    return min((table.probe_fixed(score, k, t), k, t) for k in range(1, 7) for t in range(1, 2 * MAX_SUM[k] + 2))


def test_best_fixed_strategy(open_page, table):
    page = open_page("?game=goat")
    for score in (0, 1, 37, 60, 90, 99):
        value, k, t = best_fixed_expected(table, score)
        got = page.evaluate("s => window.games.goat.bestFixed(s)", score)
        assert (got["value"], got["dice"], got["stopAt"]) == (value, k, t), score
    assert page.evaluate("window.games.goat.bestFixed(0)")["orMore"]  # 2 dice, all three rolls (docs/GOAT.md)


def test_fixed_strategy_by_typing_with_refusals(open_page, table):
    page = open_page("?game=goat")
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    page.check("#goat-player-fixed")
    assert page.is_hidden("#goat-turn") and page.is_hidden("#goat-opp") and page.is_visible("#goat-dice-k")
    for score, dice, stop_at in [(0, 2, 23), (37, 3, 9), (99, 6, 1), (12, 1, 44)]:
        page.fill("#goat-my", str(score))
        page.fill("#goat-dice-k", str(dice))
        page.fill("#goat-stop-at", str(stop_at))
        assert shown_answer(page) == (fixed_expected(table, score, dice, stop_at)["value"], "", "")
        value, k, t = best_fixed_expected(table, score)
        assert "%.6f expected turns" % value in page.inner_text("#goat-fixed-best")
        assert "%d di" % k in page.inner_text("#goat-fixed-best")
    assert "player=fixed" in page.url and "k=1" in page.url and "t=44" in page.url
    page.fill("#goat-my", "0")
    page.fill("#goat-stop-at", "23")
    page.fill("#goat-dice-k", "2")
    assert "Best fixed strategy from 0: 2 dice every roll" in page.inner_text("#goat-fixed-best")
    # refusals in the command line's words, and no number
    for score, dice, stop_at, words in [(0, 7, 3, "K is the number of dice, 1 to 6, not 7"),
                                        (0, 0, 3, "K is the number of dice, 1 to 6, not 0"),
                                        (0, 2, 0, "T is the turn total to stop at, 1 or more, not 0"),
                                        (100, 2, 5, "SCORE 100 has reached the goal 100: the game is over")]:
        page.fill("#goat-my", str(score))
        page.fill("#goat-dice-k", str(dice))
        page.fill("#goat-stop-at", str(stop_at))
        assert shown_answer(page) == ("", "", words)
        assert page.inner_text("#goat-fixed-best") == ""
    page.fill("#goat-my", "5")
    page.fill("#goat-stop-at", "ten")
    assert "whole number" in page.inner_text("#goat-stop-at-error")
    assert page.get_attribute("#goat-stop-at", "aria-invalid") == "true"
    assert shown_answer(page)[:2] == ("", "")
    # a link to the question opens it
    linked = open_page("?game=goat&player=fixed&my=10&k=3&t=12")
    assert shown_answer(linked) == ("%.6f" % table.probe_fixed(10, 3, 12), "", "")


# -- the value of every action -----------------------------------------------------------


def random_decision(rng):
    player = rng.randint(1, 2)
    rolls = rng.randint(0, 2)
    turn = 0 if rolls == 0 else rng.randint(rolls, 21 * rolls)
    my = rng.randrange(GOAL)
    if player == 2 and rng.random() < 0.25:
        opp = rng.randint(GOAL, GOAL + 62)  # the last turn
    else:
        opp = rng.randrange(GOAL)
    return {"player": player, "my": my, "opp": opp, "turn": turn, "rolls": rolls}


def ended_turn_value(table, p, gain):
    """The mover's win chance when the turn banks ``gain`` (0 after a match), from the rules: the other
    player moves next, the first player's goal gives the second a last turn, the round ends after the second."""
    opp, total = p["opp"], p["my"] + gain
    if p["player"] == 1:
        return 1 - table.probe_win(2, opp, total)  # the second to move: their score, then the first's
    if opp >= GOAL:  # the last turn: above the first player's total wins, level ties
        return 1.0 if total > opp else 0.5 if total == opp else 0.0
    if total >= GOAL:
        return 1.0
    return 1 - table.probe_win(1, opp, total)


def independent_value(table, p, action):
    """The win chance of ``action`` at decision p, by every ordered throw of the dice."""
    if action == 0:
        return ended_turn_value(table, p, p["turn"])
    value = 0.0
    weight = 1 / 6 ** action
    for throw in itertools.product(range(1, 7), repeat=action):
        if len(set(throw)) < action:
            value += weight * ended_turn_value(table, p, 0)
        elif p["rolls"] + 1 == 3:
            value += weight * ended_turn_value(table, p, p["turn"] + sum(throw))
        else:
            value += weight * table.probe_win(p["player"], p["my"], p["opp"], p["turn"] + sum(throw), p["rolls"] + 1)
    return value


def test_action_values_agree_with_the_table(open_page, table):
    page = open_page("?game=goat")
    rng = random.Random(7)
    states = [{"player": 1, "my": 0, "opp": 0, "turn": 0, "rolls": 0}, {"player": 2, "my": 50, "opp": 120, "turn": 10, "rolls": 1}]
    states += [random_decision(rng) for _ in range(400)]
    got = page.evaluate("ps => window.games.goat.manyActionValues(ps)", states)
    for p, values in zip(states, got):
        where = (p["player"], p["my"], p["opp"], p["turn"], p["rolls"])
        best, stored = table.probe_move(*where), table.probe_win(*where)
        by_action = {a["action"]: a["value"] for a in values["actions"]}
        assert sorted(by_action) == ([0] if p["rolls"] else []) + list(range(1, 7)), where
        assert values["best"] == best and values["value"] == stored, where
        assert abs(by_action[best] - stored) <= 1e-9, where
        assert max(by_action.values()) <= stored + 1e-9, where
        assert {a["action"]: a["text"] for a in values["actions"]} == {a: action_text(a) for a in by_action}
    # non-optimal actions against an independent computation from the rules (every ordered throw)
    checked = 0
    for p, values in zip(states[:40], got[:40]):
        where = (p["player"], p["my"], p["opp"], p["turn"], p["rolls"])
        for a in values["actions"]:
            if a["action"] != values["best"] and a["action"] <= 5:
                assert abs(a["value"] - independent_value(table, p, a["action"])) <= 1e-9, (where, a)
                checked += 1
    assert checked >= 150
    # an impossible decision is refused with the command line's reason
    refused = page.evaluate("window.games.goat.actionValues({player: 1, my: 10, opp: 5, turn: 50, rolls: 2})")
    assert refused == {"error": "2 rolls cannot make a turn total of 50 (only 2 to 42)"}


# -- playing --------------------------------------------------------------------------


def replay(history, seed):
    """Play the recorded actions by the rules with the seed's dice: (final scores, winner), every row checked."""
    draw = Mulberry32(seed).draw
    scores, mover, turn, rolls = [0, 0], 1, 0, 0
    for row in history:
        assert (row["player"], row["my"], row["opp"], row["turn"], row["rolls"]) == (
            mover, scores[mover - 1], scores[2 - mover], turn, rolls), row
        ended = None
        if row["action"] == 0:
            assert rolls > 0
            ended = turn
        else:
            dice = [1 + int(draw() * 6) for _ in range(row["action"])]
            assert row["dice"] == dice, row
            if len(set(dice)) < len(dice):
                ended = 0
            else:
                turn, rolls = turn + sum(dice), rolls + 1
                if rolls == 3:
                    ended = turn
        if ended is not None:
            scores[mover - 1] += ended
            turn = rolls = 0
            if mover == 2 and max(scores) >= GOAL:
                return scores, 1 if scores[0] > scores[1] else 2 if scores[1] > scores[0] else 0
            mover = 3 - mover
    raise AssertionError("the history ends before the game")


def state(page):
    return page.evaluate("window.games.goat.play.state()")


def your_choice(table, s, rng, blunder):
    """The table's action, or (``blunder``) another legal one."""
    p = s["position"]
    best = table.probe_move(p["player"], p["my"], p["opp"], p["turn"], p["rolls"])
    if blunder:
        return rng.choice([a for a in range(0 if p["rolls"] else 1, 7) if a != best])
    return best


def cost_words(cost):
    """A cost as the page words it (lib/numbers.js): percentage points with one decimal, "<0.1" below 0.05."""
    return "%s of winning chance" % points(cost)


def cost_exact(cost):
    """The cost's exact form, a press away: the six decimals; one that prints as 0.000000 reads <0.000001."""
    return "<0.000001" if 0 < cost and "%.6f" % cost == "0.000000" else "%.6f" % cost


def play_to_the_end(page, table, seed, keyboard=False, blunders=4):
    """Play the game shown to the end, the table's actions but every ``blunders``-th decision another."""
    rng = random.Random(seed)
    for decision in range(1000):
        s = state(page)
        if s["over"]:
            return s
        assert s["position"]["player"] == s["seat"], "the computer's turn is over before yours"
        action = your_choice(table, s, rng, blunders and decision % blunders == blunders - 1)
        if keyboard:
            page.keyboard.press("s" if action == 0 and rng.random() < 0.5 else str(action))
            focused = page.evaluate("document.activeElement.id")
            assert focused.startswith("goat-roll-") or focused in ("goat-stop", "goat-new"), focused
        else:
            page.click("#goat-stop" if action == 0 else "#goat-roll-%d" % action)
        after = state(page)
        mine = [row for row in after["history"] if row["who"] == "you"][-1]
        assert mine["action"] == action
        feedback = page.inner_text("#goat-feedback")
        if action == mine["best"]:
            assert mine["cost"] == 0 and "optimal" in feedback
        else:
            assert mine["cost"] == pytest.approx(mine["bestValue"] - mine["value"], abs=1e-12)
            # a tie with the table's choice is optimal, and no cost is said
            assert ("cost " + cost_words(mine["cost"]) in feedback) if mine["cost"] else (
                ": optimal (as good as" in feedback and "cost" not in feedback), feedback
            if mine["cost"]:
                exact = page.get_attribute("#goat-feedback span.num >> nth=0", "data-exact")
                assert exact == cost_exact(mine["cost"]), (exact, feedback)
    raise AssertionError("the game did not end")


def check_game(page, table, s):
    """The computer played the API's optimal actions; the dice, scores and result follow from the seed."""
    for row in s["history"]:
        where = (row["player"], row["my"], row["opp"], row["turn"], row["rolls"])
        if row["who"] == "computer":
            assert row["player"] != s["seat"] and row["action"] == table.probe_move(*where), where
        else:
            assert row["player"] == s["seat"]
        assert row["best"] == table.probe_move(*where)
    scores, winner = replay(s["history"], s["seed"])
    assert s["scores"] == scores and s["winner"] == winner
    text = page.inner_text("#goat-message")
    high, low = max(scores), min(scores)
    if winner == 0:
        assert "A tie at %d" % high in text
    else:
        assert ("You win" if winner == s["seat"] else "The computer wins") + ", %d to %d" % (high, low) in text
    assert len(page.locator("#goat-history li").all()) == len(s["history"])
    assert page.get_attribute("#goat-play", "data-state") == "over"


def test_a_game_as_the_second_player_by_clicks_and_the_same_seed_gives_the_same_dice(open_page, table):
    page = open_page("?game=goat&mode=play&seed=77&seat=2&anim=0")
    s = state(page)
    assert s["seat"] == 2 and s["history"] and all(row["who"] == "computer" for row in s["history"])
    assert page.is_checked("#goat-seat-2")
    s = play_to_the_end(page, table, 77)
    check_game(page, table, s)
    # the same seed and the same choices: the same game
    again = page.evaluate("window.games.goat.play.start(77, { seat: 2 })")
    assert again["history"] == s["history"][: len(again["history"])]


def test_new_game_and_seat_change_ask_before_discarding(open_page, table):
    page = open_page("?game=goat&mode=play&seed=5&seat=1&anim=0")
    page.click("#goat-roll-2")
    before = state(page)
    # New game (N): a dialog whose default keeps the game
    page.keyboard.press("n")
    dialog = page.locator("dialog[open]")
    assert "Discard this game?" in dialog.inner_text()
    assert page.evaluate("document.activeElement.dataset.ask") == "keep"
    page.keyboard.press("1")  # keys do not act behind the dialog
    page.keyboard.press("Enter")
    assert page.locator("dialog[open]").count() == 0 and state(page) == before
    assert page.evaluate("document.activeElement.id").startswith("goat-")
    # changing seat asks too; keeping it leaves the seat as it was
    page.click("#goat-seat-2")
    page.click("dialog[open] [data-ask=keep]")
    assert page.is_checked("#goat-seat-1") and state(page) == before
    # so does another goal; keeping the game puts the goal back
    page.fill("#goat-goal", "50")
    page.dispatch_event("#goat-goal", "change")
    page.click("dialog[open] [data-ask=keep]")
    assert page.input_value("#goat-goal") == "100" and state(page) == before
    # Coach and back keeps the game without asking
    page.click("#goat-mode-coach")
    page.click("#goat-mode-play")
    assert page.locator("dialog[open]").count() == 0 and state(page) == before
    # discarding: a new game with new dice
    page.click("#goat-new")
    page.click("dialog[open] [data-ask=discard]")
    fresh = state(page)
    assert fresh["history"] == [] and fresh["seat"] == 1 and "seed=%d" % fresh["seed"] in page.url
    # a game not begun is replaced without a question
    page.click("#goat-new")
    assert page.locator("dialog[open]").count() == 0 and state(page)["history"] == []


def test_a_game_on_a_phone(open_page, table):
    page = open_page("?game=goat&mode=play&seed=375&seat=1&anim=0", phone=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    s = play_to_the_end(page, table, 375, blunders=0)
    check_game(page, table, s)
    assert all(row["cost"] == 0 for row in s["history"])
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "goat-play-phone.png")


def test_the_computer_plays_visibly_step_by_step(open_page, table):
    page = open_page("?game=goat&mode=play&seed=12&seat=2")
    assert page.get_attribute("#goat-play", "data-state") == "computer"
    page.wait_for_function("document.getElementById('goat-play').dataset.state !== 'computer'")
    s = state(page)
    assert s["history"] and all(row["action"] == table.probe_move(row["player"], row["my"], row["opp"], row["turn"], row["rolls"])
                                for row in s["history"])


@pytest.mark.parametrize("query, words", [
    ("seed=42abc&seat=1", "seed=42abc"), ("seed=4294967296&seat=2", "seed=4294967296"), ("seed=-3", "seed=-3"),
    ("seed=8&seat=3", "seat=3"), ("seed=8&seat=first", "seat=first"),
])
def test_bad_seed_or_seat_is_named(open_page, query, words):
    page = open_page("?game=goat&mode=play&anim=0&" + query)
    assert words in page.inner_text("#link-problems")
    s = state(page)
    if "seed=8" in query:
        assert s["seed"] == 8 and s["seat"] == 1
    else:
        assert "seed=%d" % s["seed"] in page.url
