"""Pig on the games page (shutthebox/web/static/games/pig*.js) in a real browser (Debian's chromium driven by
Playwright) against ``ShutTheBox serve``: Coach gives what ``ShutTheBox pig --expect``, ``--move`` and
``--options I J K`` print, and their refusals (beside a field, in the answer, and a chance the table's header
lists as unsure: refused, never printed); a seeded game against the optimal computer played to its end by
keyboard only on a 375-pixel phone, the dice replayed here from the seed, the computer's every choice the
table's, and the review's cost of every decision the loss ``--options`` prints; the rules control choosing a
variant and a goal that are solved by the server on first use, after the solve question. Screenshots go to
test-output/.

Needs /usr/bin/chromium and the playwright package, like tests/test_web_games.py.
"""

from __future__ import annotations

import os
import random
import subprocess

import pytest

from shutthebox.games.pig.table import load

from forge import rewritten  # a table's header changed, every checksum made right
from serving import COMMAND, ROOT, Mulberry32, screenshot

PIG_TABLE = os.path.join(ROOT, "data", "pig-pig-g100-s6.msgpack")


@pytest.fixture(scope="module")
def table():
    return load()


def command_lines(lines, *options):
    """What ``ShutTheBox pig OPTIONS --batch`` prints for ``lines``, one answer a line."""
    done = subprocess.run(COMMAND + ["pig", *options, "--batch"], input="".join(line + "\n" for line in lines),
                          capture_output=True, text=True, timeout=120)
    answers = done.stdout.splitlines()
    assert len(answers) == len(lines), done.stderr
    return answers


def random_states(rng, goal, count):
    """States (I, J, K), mostly valid; some at or past the goal, negative, or K past it."""
    states = []
    for _ in range(count):
        i, j = rng.randrange(goal), rng.randrange(goal)
        k = rng.randrange(goal - i)
        if rng.random() < 0.06:
            i, j, k = rng.choice([(goal, 0, 0), (0, goal, 0), (goal - 1, 0, 1), (-1, 0, 0), (0, 0, -5), (0, 0, goal)])
        states.append({"i": i, "j": j, "k": k})
    return states


def command_answers(states, *options):
    """{expect, move, options} as the command prints them for each state ("error: ..." when refused)."""
    lines = ["--%s %d %d %d" % (kind, s["i"], s["j"], s["k"]) for s in states for kind in ("expect", "move", "options")]
    said = command_lines(lines, *options)
    return [dict(zip(("expect", "move", "options"), said[3 * n : 3 * n + 3])) for n in range(len(states))]


def shown(page):
    """(value, move, problem, the --options line) as Coach shows them."""
    box = "#pig-answer"
    return (page.get_attribute(box + " .answer-value", "data-answer"), page.get_attribute(box + " .answer-move", "data-answer"),
            page.inner_text(box + " .answer-problem"), page.get_attribute("#pig-options", "data-line"))


def type_state(page, i, j, k):
    for name, value in zip("ijk", (i, j, k)):
        page.fill("#pig-" + name, str(value))


# -- Coach ------------------------------------------------------------------------------


def test_coach_answers_as_the_command_line(open_page):
    """400 states through the page's own functions and six typed in its fields: the command line's lines,
    refusals included, word for word."""
    page = open_page("?game=pig")
    rng = random.Random(100)
    states = [{"i": 0, "j": 0, "k": 0}, {"i": 50, "j": 60, "k": 10}, {"i": 0, "j": 0, "k": 25}] + random_states(rng, 100, 400)
    got = page.evaluate("qs => window.games.pig.answers(qs)", states)
    want = command_answers(states)
    assert got == want
    assert sum(not w["options"].startswith("error:") for w in want) >= 350
    assert sum(w["move"].startswith("error:") for w in want) >= 10
    assert got[1] == {"expect": "0.491273", "move": "roll", "options": "roll 0.491273 0.000000; hold 0.455306 0.035968"}
    # Coach by typing: the same lines, the chance shown as a percent, the command line's figure a press away
    for i, j, k in [(50, 60, 10), (0, 0, 25), (0, 0, 21), (90, 90, 5), (99, 0, 0), (0, 99, 0)]:
        type_state(page, i, j, k)
        (w,) = command_answers([{"i": i, "j": j, "k": k}])
        assert shown(page) == (w["expect"], w["move"], "", w["options"]), (i, j, k)
        # the percent shown, the command line's figure a press away
        assert page.get_attribute("#pig-answer .answer-value span.num", "data-exact") == w["expect"]
        rows = page.evaluate("""[...document.querySelectorAll('#pig-options tbody tr')]
            .map(r => [r.dataset.choice, r.dataset.chance, r.dataset.loss])""")
        assert "; ".join("%s %s %s" % tuple(row) for row in rows) == w["options"]
        assert "ShutTheBox pig --options %d %d %d" % (i, j, k) in page.inner_text("#pig-command")
    assert "i=0&j=99&k=0" in page.url
    screenshot(page, "pig-coach.png")


def test_coach_refusals_are_the_command_line_s(open_page):
    page = open_page("?game=pig")
    for (i, j, k), words in [((100, 0, 0), "I 100 has reached the goal 100: the mover has won (holding banks it)"),
                             ((60, 0, 40), "I + K = 100 has reached the goal 100"),
                             ((0, 100, 0), "J 100 has reached the goal 100: the opponent has won"),
                             ((0, 0, -5), "K is a score, 0 or more, not -5")]:
        type_state(page, i, j, k)
        value, move, problem, line = shown(page)
        assert (value, move) == ("", "") and problem.startswith(words), problem
        assert line == "error: " + problem == command_lines(["--options %d %d %d" % (i, j, k)])[0]
        assert page.locator("#pig-options tr").count() == 0
    # a number that is no number: beside its field, in the command line's words, and no answer
    type_state(page, 5, "x", 0)
    assert page.inner_text("#pig-j-error") == "the score J must be a whole number, not 'x'"
    assert page.get_attribute("#pig-j", "aria-invalid") == "true"
    assert command_lines(["--expect 5 x 0"]) == ["error: the score J must be a whole number, not 'x'"]
    assert shown(page)[:2] == ("", "") and "corrected" in shown(page)[2]
    page.fill("#pig-j", "7")
    assert page.get_attribute("#pig-j", "aria-invalid") is None and shown(page)[0] == command_lines(["--expect 5 7 0"])[0]
    # at turn total 0 there is no hold: one choice, and why
    type_state(page, 3, 4, 0)
    assert page.locator("#pig-options tbody tr").count() == 1 and "nothing to hold" in page.inner_text("#pig-options")
    # every input has a label, and the page fits a phone
    assert page.evaluate("[...document.querySelectorAll('#pig input')].filter(i => !i.labels || !i.labels.length).length") == 0


def test_a_chance_listed_as_unsure_is_refused_never_printed(open_page, tmp_path):
    """The header's `unsure` lists flat indexes whose 6th decimal is not proven: Coach refuses their chance as the
    command line does (no percent either), and still answers the move."""
    unsure = [(50 * 100 - 50 * 49 // 2 + 10) * 100 + 60, 0]  # (50, 60, 10) and (0, 0, 0)
    data = rewritten(PIG_TABLE, lambda fields: fields.__setitem__("unsure", ",".join(map(str, unsure))))
    copy = tmp_path / "pig-pig-g100-s6.msgpack"
    copy.write_bytes(data)
    page = open_page("?game=pig&i=50&j=60&k=10", routes=[("**/pig-pig-g100-s6.msgpack", lambda route: route.fulfill(
        status=200, content_type="application/octet-stream", body=data))])
    said = command_lines(["--expect 50 60 10", "--move 50 60 10", "--options 50 60 10", "--options 0 0 25"], "--table", str(copy))
    assert said[0].startswith("error: this chance lies within the table's error bound") and said[1] == "roll"
    value, move, problem, line = shown(page)
    assert (value, move, "error: " + problem, line) == ("", "roll", said[0], said[2])
    text = page.inner_text("#pig-answer")
    assert "0.491273" not in text and "49.1" not in text and "not printed" in text
    got = page.evaluate("window.games.pig.answers([{i: 50, j: 60, k: 10}, {i: 0, j: 0, k: 25}, {i: 0, j: 0, k: 0}])")
    assert [g["options"] for g in got[:2]] == said[2:]
    assert got[2]["expect"] == said[0] and got[2]["move"] == "roll"


# -- Play -------------------------------------------------------------------------------


def state(page):
    return page.evaluate("window.games.pig.play.state()")


def replay(history, seed, goal=100):
    """The recorded choices played by the rules with the seed's dice (one draw per die): the final scores."""
    die = Mulberry32(seed).die
    scores, mover, turn = [0, 0], 1, 0
    for row in history:
        assert (row["player"], row["i"], row["j"], row["k"]) == (mover, scores[mover - 1], scores[2 - mover], turn), row
        if row["choice"] == "hold":
            assert turn > 0
            scores[mover - 1] += turn
            turn, mover = 0, 3 - mover
            continue
        face = die(6)
        assert row["dice"] == [face], row
        if face == 1:
            turn, mover = 0, 3 - mover
        else:
            turn += face
            if scores[mover - 1] + turn >= goal:
                scores[mover - 1] += turn
                return scores, mover
    raise AssertionError("the history ends before the game")


def test_a_whole_game_by_keyboard_only_on_a_phone_and_its_review(open_page, table):
    """Every decision by a key (R, S, 1, 2, Enter), the table's choice but every fourth another; the computer
    plays the table's choices; the dice are mulberry32's; the review lists every decision with the loss that
    `ShutTheBox pig --options I J K` prints for it."""
    seed = 2024
    page = open_page("?game=pig&mode=play&seed=%d&anim=0" % seed, phone=True)
    rng = random.Random(seed)
    decisions = 0
    for _ in range(2000):
        s = state(page)
        if s["over"]:
            break
        p = s["position"]
        assert s["mover"] == s["seat"] == 1
        best = table.probe_move(p["i"], p["j"], p["k"])
        choice = best if decisions % 4 != 3 or p["k"] == 0 else {"roll": "hold", "hold": "roll"}[best]
        if decisions == 5:  # the hint: the table's choice first, each choice's loss as --options prints it
            page.keyboard.press("h")
            hinted = page.evaluate("[...document.querySelectorAll('#pig-hint-values li')].map(li => [li.dataset.choice, li.dataset.loss])")
            line = command_lines(["--options %d %d %d" % (p["i"], p["j"], p["k"])])[0]
            assert hinted == [[part.split()[0], part.split()[2]] for part in line.split("; ")]
        page.keyboard.press(rng.choice(["r", "Enter", "1"]) if choice == "roll" else rng.choice(["s", "2"]))
        decisions += 1
        focused = page.evaluate("document.activeElement.id")
        assert focused in ("pig-roll", "pig-hold", "pig-new"), focused
        mine = [row for row in state(page)["history"] if row["who"] == "you"][-1]
        assert mine["choice"] == choice and (mine["i"], mine["j"], mine["k"]) == (p["i"], p["j"], p["k"])
    s = state(page)
    assert s["over"] and decisions >= 20
    # the game: the seed's dice, the computer's choices the table's
    for row in s["history"]:
        assert row["best"] == table.probe_move(row["i"], row["j"], row["k"])
        if row["who"] == "computer":
            assert row["choice"] == row["best"], row
    scores, winner = replay(s["history"], seed)
    assert s["scores"] == scores and s["winner"] == winner
    assert ("You win" if winner == 1 else "The computer wins") in page.inner_text("#pig-message")
    assert page.get_attribute("#pig-play", "data-state") == "over"
    assert page.evaluate("document.activeElement.id") == "pig-new"
    # the review: every decision with its loss as the command line's --options prints it
    rows = page.evaluate("""[...document.querySelectorAll('#pig-decisions button')].map(b =>
        [+b.dataset.i, +b.dataset.j, +b.dataset.k, b.dataset.choice, b.dataset.loss])""")
    mine = [row for row in s["history"] if row["who"] == "you"]
    assert [r[:4] for r in rows] == [[row["i"], row["j"], row["k"], row["choice"]] for row in mine]
    lines = command_lines(["--options %d %d %d" % tuple(r[:3]) for r in rows])
    costly = 0
    for r, line in zip(rows, lines):
        losses = {part.split()[0]: part.split()[2] for part in line.split("; ")}
        assert r[4] == losses[r[3]], (r, line)
        costly += losses[r[3]] != "0.000000"
    assert costly >= 3
    snapshot = [d["cost"] for d in s["decisions"]]
    assert ["%.6f" % cost for cost in snapshot] == [r[4] for r in rows]
    total = page.inner_text("#pig-review-total")
    assert "%d of %d decisions optimal" % (sum(d["optimal"] for d in s["decisions"]), len(rows)) in total
    assert page.get_attribute("#pig-review-total span.num", "data-exact") == "%.6f" % sum(snapshot), total
    assert page.locator("#pig-costliest li").count() == 3
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "pig-play-phone.png")
    # a row of the review opens its position in Coach, with the command line's answer
    first = rows[next(n for n, r in enumerate(rows) if r[4] != "0.000000")]
    page.click("#pig-every-decision summary")
    page.click("#pig-decisions button[data-loss='%s'][data-i='%d'][data-j='%d'][data-k='%d']" % (first[4], *first[:3]))
    assert page.is_visible("#pig-coach")
    assert shown(page)[3] == command_lines(["--options %d %d %d" % tuple(first[:3])])[0]


def test_play_as_the_second_player_and_a_rules_change_asks_first(open_page, table):
    page = open_page("?game=pig&mode=play&seed=9&seat=2&anim=0")
    s = state(page)
    assert s["seat"] == 2 and s["history"] and all(row["who"] == "computer" for row in s["history"])
    assert page.is_checked("#pig-seat-2")
    # hold at turn total 0 is refused with the reason; the game is unchanged
    page.keyboard.press("s")
    assert "starts with a roll" in page.inner_text("#pig-message") and state(page) == s
    page.keyboard.press("r")
    before = state(page)
    # another goal during a game: the dialog, whose default keeps the game and the rules
    page.fill("#pig-goal", "50")
    page.dispatch_event("#pig-goal", "change")
    assert "Discard this game?" in page.locator("dialog[open]").inner_text()
    page.keyboard.press("Enter")
    assert page.input_value("#pig-goal") == "100" and state(page) == before
    # the same seed and the same moves replay the same game (the link)
    again = open_page("?game=pig&mode=play&seed=9&seat=2&anim=0&moves=1")
    assert state(again)["history"] == before["history"]


# -- the rules control --------------------------------------------------------------------


WATCH_STATUS = """
window.__status = [];
new MutationObserver(() => {
  const box = document.getElementById('status');
  if (box && !box.hidden) window.__status.push(box.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""


def test_the_rules_control_has_a_variant_solved_on_first_use(open_page):
    """Piglet is not shipped: choosing it asks first (its cost, Solve and Cancel); Solve has the server solve
    it, and Coach then answers as the command line does on every state. A goal the variant refuses is named
    beside the field, in the command line's words; another goal typed in the control is solved as the first."""
    page = open_page("?game=pig", init_script=WATCH_STATUS)
    assert page.is_visible("#pig-sides")
    page.check("#pig-variant-piglet")
    page.wait_for_function("document.body.dataset.state === 'asking'")
    assert page.input_value("#pig-goal") == "10" and page.is_hidden("#pig-sides")
    question = page.text_content("#solve-status")
    assert "pig-piglet-g10-s2.msgpack" in question and page.is_visible("#solve-start")
    page.click("#solve-start")
    page.wait_for_function("document.body.dataset.state === 'ready' && window.games.pig.rules()?.variant === 'piglet'",
                           timeout=120000)
    assert "variant=piglet" in page.url and "goal=10" in page.url and "sides" not in page.url
    assert "pig-piglet-g10-s2.msgpack" in page.inner_text("#pig-rules")
    assert "a coin" in page.inner_text("#pig-rules")
    states = [{"i": i, "j": j, "k": k} for i in range(10) for j in range(10) for k in range(10 - i)]
    states += [{"i": 10, "j": 0, "k": 0}, {"i": 3, "j": 0, "k": 7}]
    assert page.evaluate("qs => window.games.pig.answers(qs)", states) == command_answers(states, "--variant", "piglet")
    # a goal piglet refuses: beside the field, the command line's refusal, the table kept
    page.fill("#pig-goal", "60")
    page.dispatch_event("#pig-goal", "change")
    refusal = subprocess.run(COMMAND + ["pig", "--variant", "piglet", "--goal", "60", "--expect"], capture_output=True,
                             text=True, timeout=60).stderr.strip().removeprefix("ShutTheBox: ")
    assert page.inner_text("#pig-goal-error") == refusal == "--goal of piglet must be a whole number from 2 to 50, not 60"
    assert page.evaluate("window.games.pig.rules().goal") == 10
    # another goal typed in the control: asked, solved, answered
    page.fill("#pig-goal", "12")
    page.dispatch_event("#pig-goal", "change")
    page.wait_for_function("document.body.dataset.state === 'asking'")
    assert "pig-piglet-g12-s2.msgpack" in page.text_content("#solve-status")
    page.click("#solve-start")
    page.wait_for_function("document.body.dataset.state === 'ready' && window.games.pig.rules()?.goal === 12", timeout=120000)
    assert "goal=12" in page.url
    rng = random.Random(12)
    states = random_states(rng, 12, 150)
    assert page.evaluate("qs => window.games.pig.answers(qs)", states) == command_answers(states, "--variant", "piglet",
                                                                                             "--goal", "12")
    assert any(text.startswith("Solving pig-") for text in page.evaluate("window.__status"))


def test_a_link_s_rules_are_asked_for_then_solved_or_cancelled(open_page):
    """Rules from a link are not solved because the page opened: the solve question comes first. Solve: Two-Dice
    Pig to 20 answers as the command line; Cancel: nothing is solved, the shipped Pig is shown, and the section says so."""
    page = open_page("?game=pig&variant=two-dice&goal=20&i=5&j=7&k=4", ready=False)
    page.wait_for_function("document.body.dataset.state === 'asking'")
    assert "pig-two-dice-g20-s6.msgpack" in page.text_content("#solve-status") and page.is_visible("#solve-cancel")
    page.click("#solve-start")
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=120000)
    assert page.is_checked("#pig-variant-two-dice") and page.input_value("#pig-goal") == "20"
    assert shown(page)[3] == command_lines(["--options 5 7 4"], "--variant", "two-dice", "--goal", "20")[0]
    rng = random.Random(20)
    states = random_states(rng, 20, 150)
    assert page.evaluate("qs => window.games.pig.answers(qs)", states) == command_answers(
        states, "--variant", "two-dice", "--goal", "20")

    page = open_page("?game=pig&variant=big-pig&goal=30", ready=False)
    page.wait_for_function("document.body.dataset.state === 'asking'")
    assert "pig-big-pig-g30-s6.msgpack" in page.text_content("#solve-status")
    page.click("#solve-cancel")
    # the table shipped with the game instead, and the section says why (tests/test_web_refusals.py)
    page.wait_for_function("document.body.dataset.state === 'ready'")
    assert "not solved" in page.inner_text("#pig-error") and "Shown instead" in page.inner_text("#pig-error")
    assert page.is_checked("#pig-variant-pig") and page.input_value("#pig-goal") == "100"


@pytest.mark.parametrize("link, named, words", [
    ("variant=chess", "variant=chess", ["--variant", "chess", "--expect"]),
    ("goal=300", "goal=300", ["--goal", "300", "--expect"]),
    ("variant=piglet&goal=60", "goal=60", ["--variant", "piglet", "--goal", "60", "--expect"]),
    ("sides=1", "sides=1", ["--sides", "1", "--expect"]),
    ("i=abc", "i=abc", ["--expect", "abc", "0", "0"]),
    ("i=60&k=40", "k=40", ["--expect", "60", "0", "40"]),
    ("mode=solo", "mode=solo", "choose coach or play"),
    ("mode=play&seat=3", "seat=3", "choose 1 or 2"),
])
def test_a_bad_link_parameter_is_named_in_the_command_line_s_words(open_page, link, named, words):
    page = open_page("?game=pig&" + link, ready=False)  # rules not shipped: the page asks to solve them first
    page.wait_for_function("['ready', 'asking'].includes(document.body.dataset.state)")
    problems = page.inner_text("#link-problems")
    if isinstance(words, list):
        done = subprocess.run(COMMAND + ["pig", *words], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2
        words = done.stderr.strip().removeprefix("ShutTheBox: ")
    assert "%s: %s" % (named, words) in problems, problems
    if page.evaluate("document.body.dataset.state") == "ready" and "mode=play" not in link:
        assert page.get_attribute("#pig-answer .answer-value", "data-answer")
