"""yazy's Play on the games page (games/yazy.js, yazy-play.js, yazy-choices.js) in a real browser (Debian's
chromium driven by Playwright) against ``ShutTheBox serve``: every choice's value one step ahead of the
table agrees with the Python API (the best one with the table's value and move, others with an
independent computation over ordered outcomes), seeded games are played to the end by clicks, by
keyboard only and on a 375-pixel phone, with the dice checked against mulberry32 computed here and the
total against the categories scored from the dice shown; bad link parameters and New game during a
game are handled. Screenshots go to test-output/ (yazy-play.png, yazy-play-phone.png).

Needs /usr/bin/chromium and the playwright package, like tests/test_web_games.py.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

import pytest

from shutthebox.games.yazy.rules import ALL, CATEGORIES, format_categories
from shutthebox.games.yazy.table import load as load_yazy

from serving import Mulberry32, screenshot
from test_web_numbers import exact_values

START = "165.757319"


@pytest.fixture(scope="module")
def table():
    table = load_yazy()
    table.preload()
    return table


# -- written here from the rules, independent of the page ---------------------------------


def points(category, dice):
    """What five dice score in a category (docs/YAZY.md)."""
    counts = Counter(dice)
    name = CATEGORIES[category]
    if category < 6:
        return (category + 1) * counts[category + 1]
    most = max(counts.values())
    if name == "three-kind":
        return sum(dice) if most >= 3 else 0
    if name == "four-kind":
        return sum(dice) if most >= 4 else 0
    if name == "full-house":
        return 25 if sorted(counts.values()) == [2, 3] else 0
    if name == "straight":
        return 40 if sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]) else 0
    return 50 if most == 5 else 0


def keep_value(table, mask, kept, rerolls):
    """The expected score to come after keeping ``kept`` and rerolling the other dice: the mean over
    every ordered outcome of the rerolled dice of the table's value with one reroll fewer."""
    outcomes = list(itertools.product(range(1, 7), repeat=5 - len(kept)))
    total = sum(table.probe_expect(mask, list(kept) + list(rolled), rerolls - 1) for rolled in outcomes)
    return total / len(outcomes)


def score_value(table, mask, category, dice):
    return points(category, dice) + table.probe_expect(mask & ~(1 << category))


def move_value(table, mask, move, dice, rerolls):
    words = move.split()
    if words[0] == "score":
        return score_value(table, mask, CATEGORIES.index(words[1]), dice)
    return keep_value(table, mask, [] if words[1] == "none" else [int(d) for d in words[1:]], rerolls)


# -- choice values ------------------------------------------------------------------------


def test_choice_values_match_the_api(open_page, table):
    page = open_page("?game=yazy")
    rng = random.Random(1655)
    questions = [[ALL, "13366", 2], [ALL, "12345", 0], [1024, "12345", 1], [ALL, "34562", 1]]
    while len(questions) < 240:
        mask = rng.randrange(1, ALL + 1)
        questions.append([mask, "".join(str(rng.randint(1, 6)) for _ in range(5)), rng.randint(0, 2)])
    ranked = page.evaluate("qs => window.games.yazy.choicesMany(qs.map(q => ({cats: q[0], dice: q[1], rerolls: q[2]})))",
                           questions)
    non_optimal = 0
    for (mask, dice, rerolls), got in zip(questions, ranked):
        want_value = table.probe_expect(mask, dice, rerolls)
        assert got["best"] == table.probe_move(mask, dice, rerolls), (mask, dice, rerolls)
        assert got["value"] == want_value
        best = got["choices"][0]
        assert best["move"] == got["best"] and best["cost"] == 0
        # the one-step value of the table's move is the table's value, and no choice is worth more
        assert best["value"] == pytest.approx(want_value, abs=1e-9), (mask, dice, rerolls)
        assert all(c["value"] <= want_value + 1e-9 for c in got["choices"])
        assert all(c["cost"] == pytest.approx(want_value - c["value"], abs=1e-12) for c in got["choices"][1:])
        # every open category is listed, and with rerolls left every kept multiset but all five
        moves = [c["move"] for c in got["choices"]]
        assert len(moves) == len(set(moves))
        scores = {m for m in moves if m.startswith("score")}
        assert scores == {"score " + CATEGORIES[c] for c in range(11) if mask >> c & 1}
        kept = {tuple(sorted(k)) for n in range(5) for k in itertools.combinations(sorted(map(int, dice)), n)}
        assert len(moves) - len(scores) == (len(kept) if rerolls else 0)
        # others against the computation written here
        if len(moves) > 1 and rng.random() < 0.25:
            for choice in rng.sample(got["choices"][1:], min(2, len(moves) - 1)):
                want = move_value(table, mask, choice["move"], [int(d) for d in dice], rerolls)
                assert choice["value"] == pytest.approx(want, abs=1e-9), (mask, dice, rerolls, choice)
                non_optimal += 1
    assert non_optimal >= 40
    # no choices for a question without an answer
    assert page.evaluate("""[window.games.yazy.choices({cats: 0, dice: '12345', rerolls: 1}),
        window.games.yazy.choices({cats: 2047, dice: '1234', rerolls: 1}),
        window.games.yazy.choices({cats: 2047, dice: '12345', rerolls: 3})]""") == [None, None, None]
    # one choice at a time, by its move code (FORMAT.md 6.6): keep 6 6 of 1 3 3 6 6 is positions 3 and 4
    assert page.evaluate("window.games.yazy.choiceValue({cats: 2047, dice: '61633', rerolls: 2}, 24)") == \
        pytest.approx(table.probe_expect("all", "13366", 2), abs=1e-9)
    assert page.evaluate("window.games.yazy.choiceValue({cats: 2047, dice: '13366', rerolls: 2}, 32 + 8)") == \
        pytest.approx(score_value(table, ALL, 8, [1, 3, 3, 6, 6]), abs=1e-12)


# -- play ---------------------------------------------------------------------------------


# The faces the dice in `selector` show: the pips drawn (every page draws dice so: lib/ui.js's dieNode).
PIPS = """ds => ds.map((d) => [...d.querySelectorAll('i')].filter((i) => getComputedStyle(i).visibility === 'visible'
    && getComputedStyle(i).display !== 'none').length)"""


def pips(page, selector):
    return page.locator(selector + " .die").evaluate_all(PIPS)


def spoken(text):
    """A box as a player says it: "three-kind" is "three of a kind", "full-house" "full house"."""
    return re.sub(r"(?<=[a-z])-(?=[a-z])", " ", re.sub(r"\b([a-z]+)-kind\b", r"\1 of a kind", text))


def unfold(page, row):
    """Press a row of a Play history, unfolding a long one first (its earlier rows are folded away)."""
    if page.locator(row).is_hidden():
        page.click(row.split()[0] + "-all")
        assert page.get_attribute(row.split()[0] + "-all", "aria-expanded") == "true"
    page.click(row)


def shown_dice(page):
    return pips(page, "#yazy-play-dice")


def state_of(page):
    return page.evaluate("window.games.yazy.play.state()")


def choose(table, mask, dice, rerolls, blunder):
    """The table's move, or with ``blunder`` another one: a worse category, or keeping the highest die."""
    best = table.probe_move(mask, dice, rerolls)
    if not blunder:
        return best
    open_ = [c for c in range(11) if mask >> c & 1]
    if rerolls and best.startswith("score"):
        return "keep %d" % max(dice)
    if not rerolls or len(open_) == 1:
        others = [c for c in open_ if "score " + CATEGORIES[c] != best]
        return "score " + CATEGORIES[others[0]] if others else best
    keep = "keep %d" % max(dice)
    return keep if keep != best else "keep none"


def play_game(page, table, seed, keyboard=False, blunders=(), phone=False):
    """Play the seeded game shown to the end, checking the dice, the feedback and the focus;
    -> (state, scored points computed here, decisions as (mask, dice, rerolls, move, cost))."""
    dice_rng = Mulberry32(seed)
    scored, decisions, turn = {}, [], 0
    mask = ALL
    while mask:
        turn += 1
        if keyboard:
            page.keyboard.press("r")
        else:
            page.click("#yazy-roll")
        want = [dice_rng.die() for _ in range(5)]
        for rerolls in (2, 1, 0):
            dice = shown_dice(page)
            assert dice == want, (turn, rerolls)
            assert page.inner_text("#yazy-rerolls") == "Rerolls left: %d" % rerolls
            if phone and turn == 1:
                page.click("#yazy-hint")  # the list of every choice fits too
                assert page.locator("#yazy-choices li").count() >= 11
                assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            move = choose(table, mask, dice, rerolls, blunder=(turn, rerolls) in blunders)
            best_value = table.probe_expect(mask, dice, rerolls)
            cost = best_value - move_value(table, mask, move, dice, rerolls)
            decisions.append((mask, "".join(map(str, sorted(dice))), rerolls, move, cost))
            words = move.split()
            if words[0] == "score":
                category = CATEGORIES.index(words[1])
                if keyboard:
                    score_by_keyboard(page, words[1])
                else:
                    page.click("#yazy-play-cats [data-cat='%s']" % words[1])
                scored[category] = points(category, dice)
                mask &= ~(1 << category)
                check_feedback(page, move, cost)
                assert page.evaluate("document.activeElement.id") == ("yazy-roll" if mask else "yazy-new")
                break
            kept = [] if words[1] == "none" else [int(d) for d in words[1:]]
            lock(page, dice, kept, keyboard)
            if keyboard:
                page.keyboard.press("r")
            else:
                page.click("#yazy-roll")
            check_feedback(page, move, cost)
            pressed = page.evaluate("[...document.querySelectorAll('#yazy-play-dice button')].map(b => b.getAttribute('aria-pressed') === 'true')")
            want = [dice[i] if pressed[i] else dice_rng.die() for i in range(5)]
            assert page.evaluate("document.activeElement.tagName") != "BODY"
            if phone:
                assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    return state_of(page), scored, decisions


def lock(page, dice, kept, keyboard):
    """Press the dice so that exactly ``kept`` (a multiset) is kept."""
    left = list(kept)
    for i, d in enumerate(dice):
        want = d in left
        if want:
            left.remove(d)
        button = page.locator("#yazy-play-dice [data-die='%d']" % (i + 1))
        if (button.get_attribute("aria-pressed") == "true") != want:
            if keyboard:
                page.keyboard.press(str(i + 1))
            else:
                button.click()
            assert (button.get_attribute("aria-pressed") == "true") == want
    assert not left


def score_by_keyboard(page, name):
    """Reach the category with Tab and the arrow keys, and score it with Enter (or S, once)."""
    for _ in range(12):
        if page.evaluate("document.activeElement.closest('#yazy-play-cats') !== null"):
            break
        page.keyboard.press("Tab")
    for _ in range(12):
        if page.evaluate("document.activeElement.dataset.cat") == name:
            break
        page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.cat") == name
    page.keyboard.press("s" if name == "yazy" else "Enter")


def sheet_of(page, game):
    """The Play score sheet as shown: {row label: its value} for the totals and bonuses, and each box's points."""
    return page.evaluate("""id => {
        const sheet = document.getElementById(id + '-play-cats'), text = (node) => node.textContent.trim();
        const rows = Object.fromEntries([...sheet.querySelectorAll('.sheet-sum')]
            .map(row => [text(row.firstElementChild), text(row.lastElementChild)]));
        const boxes = Object.fromEntries([...sheet.querySelectorAll('[data-cat]')].map(b => [b.dataset.cat, text(b.querySelector('.points'))]));
        const parts = [...sheet.querySelectorAll('.sheet-part')].map(p => [...p.querySelectorAll('[data-cat]')].map(b => b.dataset.cat));
        return { rows, boxes, parts };
    }""", game)


def check_sheet(page, scored):
    """The score sheet at a game's end: ones to sixes above, the rest below, each box's points as scored
    and each section's total worked out here from the rules' own points."""
    sheet = sheet_of(page, "yazy")
    assert sheet["parts"] == [list(CATEGORIES[:6]), list(CATEGORIES[6:])]
    assert sheet["boxes"] == {CATEGORIES[c]: str(p) for c, p in scored.items()}
    upper = sum(p for c, p in scored.items() if c < 6)
    assert sheet["rows"] == {"Upper total": str(upper), "Lower total": str(sum(scored.values()) - upper),
                             "Total": str(sum(scored.values()))}


def check_feedback(page, move, cost):
    text = page.inner_text("#yazy-feedback")
    shown = spoken(move.split(" (")[0])
    assert text.startswith(shown), (text, move)
    if cost < 5e-7:
        assert ": optimal;" in text and "cost" not in text, text
    else:
        printed = float(text.split("cost ")[1].split()[0])
        assert abs(printed - cost) <= 5e-7 + 1e-9, (text, cost)


def test_a_seeded_game_played_by_clicks(open_page, table):
    seed = 2026
    page = open_page("?game=yazy&mode=play&seed=%d" % seed)
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    assert page.is_visible("#yazy-play") and page.is_hidden("#yazy-coach")
    page.click("#yazy-hint")
    assert START in page.inner_text("#yazy-message")
    # a category before rolling is refused with the reason
    page.click("#yazy-play-cats [data-cat='ones']", force=True)  # aria-disabled: pressing it says why
    assert "Roll the dice first" in page.inner_text("#yazy-message")
    blunders = {(2, 2), (4, 1), (5, 0), (7, 2), (9, 0), (10, 1)}
    state, scored, decisions = play_game(page, table, seed, blunders=blunders)
    assert state["over"] and state["open"] == 0
    total = sum(scored.values())
    assert state["total"] == total and page.inner_text("#yazy-total") == "Total: %d" % total
    assert {int(c): p for c, p in state["scores"].items()} == scored
    check_sheet(page, scored)
    message = page.inner_text("#yazy-message")
    assert "your total is %d" % total in message and START in message
    costs = sum(d[4] for d in decisions)
    assert costs > 0.5 and "cost %.6f" % state["cost"] in message
    assert state["cost"] == pytest.approx(costs, abs=1e-6)
    assert [(d["open"], "".join(map(str, d["dice"])), d["rerolls"]) for d in state["decisions"]] == \
        [d[:3] for d in decisions]
    assert page.locator("#yazy-log li").count() == len(decisions)
    screenshot(page, "yazy-play.png")
    # a decision of the history opens in Coach with the answer; Play keeps the game
    mask, dice, rerolls, move, cost = next(d for d in decisions if d[4] > 5e-7)
    index = decisions.index((mask, dice, rerolls, move, cost))
    unfold(page, "#yazy-log [data-decision='%d']" % index)
    assert page.is_visible("#yazy-coach") and page.is_hidden("#yazy-play")
    assert page.input_value("#yazy-dice") == dice
    assert page.is_checked("#yazy-rerolls-%d" % rerolls)
    pressed = page.evaluate("[...document.querySelectorAll('#yazy-cats button[aria-pressed=true]')].map(b => b.dataset.value)")
    assert pressed == [c for c in CATEGORIES if mask >> CATEGORIES.index(c) & 1]
    assert page.get_attribute("#yazy-answer .answer-value", "data-answer") == "%.6f" % table.probe_expect(mask, dice, rerolls)
    assert page.get_attribute("#yazy-answer .answer-move", "data-answer") == table.probe_move(mask, dice, rerolls)
    assert "cats=%s" % format_categories(mask).replace(",", "%2C") in page.url
    page.click("#yazy-mode-play")
    assert state_of(page)["total"] == total and page.is_visible("#yazy-log")
    # the same seed and the same choices give the same dice
    again = open_page("?game=yazy&mode=play&seed=%d" % seed)
    again.click("#yazy-roll")
    first = Mulberry32(seed)
    assert shown_dice(again) == [first.die() for _ in range(5)]
    assert sorted(shown_dice(again)) == state["decisions"][0]["dice"]


def test_hint_gives_the_tables_move_and_every_choice(open_page, table):
    page = open_page("?game=yazy&mode=play&seed=5")
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    page.click("#yazy-roll")
    dice = shown_dice(page)
    page.keyboard.press("h")
    move, value = table.probe_move("all", dice, 2), "%.6f" % table.probe_expect("all", dice, 2)
    assert page.inner_text("#yazy-message") == "Hint: %s (%s expected points to come)." % (spoken(move), value)
    rows = page.locator("#yazy-choices li")
    assert rows.nth(0).get_attribute("data-move") == move
    assert rows.count() == 11 + len({tuple(k) for n in range(5) for k in itertools.combinations(sorted(dice), n)})
    # keeping all five with rerolls left is scoring now
    for i in range(5):
        page.keyboard.press(str(i + 1))
    page.keyboard.press("r")
    assert "All five dice are kept" in page.inner_text("#yazy-message")
    assert page.evaluate("document.activeElement.closest('#yazy-play-cats') !== null")
    assert shown_dice(page) == dice and state_of(page)["rerolls"] == 2


def test_a_keyboard_only_game(open_page, table):
    seed = 77
    page = open_page("?game=yazy&mode=play&seed=%d" % seed)
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    page.focus("#yazy-roll")
    blunders = {(3, 1), (6, 0)}
    state, scored, decisions = play_game(page, table, seed, keyboard=True, blunders=blunders)
    assert state["over"] and state["total"] == sum(scored.values())
    assert sum(not d["optimal"] for d in state["decisions"]) >= 1
    # keys after the end say why nothing happens, and N starts a new game at once (nothing to lose)
    page.keyboard.press("r")
    assert "game is over" in page.inner_text("#yazy-message")
    page.keyboard.press("n")
    assert page.locator("dialog[open]").count() == 0
    assert state_of(page)["decisions"] == [] and state_of(page)["seed"] != seed
    assert page.evaluate("document.activeElement.id") == "yazy-roll"


def test_a_phone_width_game(open_page, table):
    seed = 375
    page = open_page("?game=yazy&mode=play&seed=%d" % seed, phone=True)
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    state, scored, _ = play_game(page, table, seed, blunders={(1, 2), (8, 0)}, phone=True)
    assert state["over"] and state["total"] == sum(scored.values())
    unfold(page, "#yazy-log [data-decision='0']")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.click("#yazy-mode-play")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "yazy-play-phone.png")


@pytest.mark.parametrize("seed", ["42abc", "4294967296", "-1", "1e3", ""])
def test_a_bad_seed_is_named_and_refused(open_page, seed):
    page = open_page("?game=yazy&mode=play&seed=" + seed)
    assert "seed=%s:" % seed in page.inner_text("#link-problems")
    state = state_of(page)
    assert state is not None and str(state["seed"]) != seed.replace("abc", "")
    assert "seed=%d" % state["seed"] in page.url


def test_a_bad_mode_is_named(open_page):
    page = open_page("?game=yazy&mode=solo")
    assert "mode=solo" in page.inner_text("#link-problems")
    assert page.is_visible("#yazy-coach")


def test_new_game_during_a_game_asks_first(open_page):
    page = open_page("?game=yazy&mode=play&seed=9")
    page.keyboard.press("n")  # nothing rolled yet: nothing to lose, no question
    assert page.locator("dialog[open]").count() == 0
    seed = state_of(page)["seed"]
    page.keyboard.press("r")
    dice = state_of(page)["dice"]
    page.keyboard.press("n")
    dialog = page.locator("dialog[open]")
    assert dialog.count() == 1 and "Discard this game?" in dialog.inner_text()
    assert page.evaluate("document.activeElement.textContent") == "Keep playing"
    page.keyboard.press("r")  # the game's keys do nothing behind the question
    page.keyboard.press("Enter")  # the default keeps the game
    assert page.locator("dialog[open]").count() == 0
    assert state_of(page)["dice"] == dice and state_of(page)["seed"] == seed
    assert page.evaluate("document.activeElement.id") == "yazy-new"
    page.keyboard.press("n")
    page.keyboard.press("Escape")  # so does Esc
    assert page.locator("dialog[open]").count() == 0 and state_of(page)["dice"] == dice
    page.click("#yazy-new")
    page.click("dialog[open] [data-ask='discard']")
    assert state_of(page)["dice"] is None and state_of(page)["seed"] != seed
    assert page.evaluate("document.activeElement.id") == "yazy-roll"
    # switching to Coach and back keeps the game
    page.keyboard.press("r")
    dice = state_of(page)["dice"]
    page.click("#yazy-mode-coach")
    page.click("#yazy-mode-play")
    assert state_of(page)["dice"] == dice


def test_coach_dice_you_tap_follow_the_field_and_show_the_best_move(open_page, table):
    """Coach's five die buttons step 1..6 on a tap and with the arrow keys, kept in sync with the typed field (and
    the link's dice=); the answer's best move is drawn on them (the dice kept) or on the card (the box scored)."""
    page = open_page("?game=yazy&cats=all&dice=13366&rerolls=2")
    faces = lambda: page.eval_on_selector_all("#yazy-tap-dice [data-die] .die", "d => d.map(x => x.dataset.face).join('')")
    assert faces() == "13366"
    page.click("#yazy-tap-dice [data-die='1']")  # 1 -> 2
    assert page.input_value("#yazy-dice") == "23366" and faces() == "23366" and "dice=23366" in page.url
    page.focus("#yazy-tap-dice [data-die='5']")
    page.keyboard.press("ArrowUp")  # 6 -> 1
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")  # die 4: 6 -> 5
    assert page.input_value("#yazy-dice") == "23351" and faces() == "23351"
    page.fill("#yazy-dice", "66612")
    assert faces() == "66612"
    move = page.get_attribute("#yazy-answer .answer-move", "data-answer")
    assert move.startswith(("keep ", "score "))  # the command line's move (Coach's answer, tested above)
    marked = page.eval_on_selector_all("#yazy-coach [data-hint]", "m => m.map(n => [n.dataset.hint, n.dataset.die ?? n.dataset.value])")
    if move.startswith("keep"):
        kept = [] if move == "keep none" else sorted(int(x) for x in move.split()[1:])
        assert [h for h, _ in marked] == ["keep"] * len(kept)
        assert sorted(int("66612"[int(d) - 1]) for _, d in marked) == kept
    else:
        assert marked == [["best", move.split()[1]]]
    page.fill("#yazy-dice", "11111")  # five of a kind: the best move scores yazy, marked on the card
    assert page.get_attribute("#yazy-answer .answer-move", "data-answer") == "score yazy"
    assert page.eval_on_selector_all("#yazy-coach [data-hint]", "m => m.map(n => [n.dataset.hint, n.dataset.value])") == [["best", "yazy"]]
    page.fill("#yazy-dice", "")  # the start of a turn: no dice, no marks
    assert faces() == "" and page.locator("#yazy-coach [data-hint]").count() == 0
