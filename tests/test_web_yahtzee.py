"""Yahtzee on the games page (games/yahtzee.js with yahtzee-rules.js, yahtzee-turn.js and yahtzee-play.js):
the page works out every mid-turn answer from the table's turn-start values, as turn.py does, and must
print the command line's very digits.

- Node.js imports the page's modules and reads the shipped table (and the free and no-joker tables,
  solved into the test's cache) through lib/format.js: 400 random questions (late-game cards, closed
  yahtzee boxes, Yahtzees for the jokers, and questions without an answer) give the Python API's
  start-of-turn value, mid-turn value, best choice and `--options` line, character for character, or
  its refusal word for word; the valid ones also through `ShutTheBox yahtzee --batch`; and turn-start
  values worked out again from their successors equal Python's exactly.
- In chromium (Playwright, tests/serving.py): a batch of questions through `window.games.yahtzee`, a few
  set by clicks and typing and by link, the Coach at 375 pixels; a seeded game played to its end by
  keyboard only on a 375-pixel phone, its dice checked against mulberry32 written in Python, each
  decision's loss against the Python (as `review` computes it), a Yahtzee on a filled yahtzee box (the
  joker refusing a box, the bonus paid), and the page's final review against `ShutTheBox yahtzee review`
  of the game the page writes out; New game asks before discarding a game.
Screenshots: test-output/yahtzee-coach.png, yahtzee-coach-phone.png, yahtzee-play-phone.png.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess

import pytest

from shutthebox.errors import InvalidQuery
from shutthebox.games.yahtzee.analysis import Scored, question
from shutthebox.games.yahtzee.rules import (
    ALL, CATEGORIES, FIFTY, OPEN, YAHTZEE, ZERO, format_categories, joker_choices, reach,
)
from shutthebox.games.yahtzee.table import load
from shutthebox.games.yahtzee.turn import decimal

from serving import COMMAND, ROOT, Mulberry32, screenshot
from test_web_yazy import pips, sheet_of, spoken, unfold
from test_web_numbers import exact_values

STATIC = os.path.join(ROOT, "shutthebox", "web", "static")
NODE = shutil.which("node")
START = "254.587729"


@pytest.fixture(scope="module")
def table():
    table = load()
    table.preload()
    return table


# -- questions and the Python API's answers ------------------------------------------------------------


def box_text(box):
    return None if box == OPEN else "50" if box == FIFTY else "0"


def random_question(rng):
    """A valid question on a random card: as many open boxes as any turn has, an upper total the closed
    upper boxes can hold, what a closed yahtzee box holds; a fifth of the rolls five of a kind."""
    card = sum(1 << c for c in rng.sample(range(len(CATEGORIES)), rng.randint(1, len(CATEGORIES))))
    totals = [t for t in range(106) if reach()[63 & ~card] >> t & 1]
    upper = rng.choice(totals)
    box = None if card >> YAHTZEE & 1 else rng.choice(["50", "0"])
    dice = str(rng.randint(1, 6)) * 5 if rng.random() < 0.2 else "".join(str(rng.randint(1, 6)) for _ in range(5))
    cats = format_categories(card) if rng.random() < 0.5 else card
    q = {"cats": cats, "upper": upper if rng.random() < 0.7 else str(upper), "box": box, "dice": dice,
         "rerolls": rng.randint(0, 2)}
    if rng.random() < 0.1:
        q["dice"] = None  # the start of a turn
    return q


INVALID = [
    {"cats": "ones,chess", "dice": "12345", "rerolls": 2},
    {"cats": "ones,ones", "dice": "12345", "rerolls": 2},
    {"cats": ["twos", "yahtzee"], "upper": 7, "dice": "12345", "rerolls": 1},
    {"cats": "twos,yahtzee", "upper": 7, "dice": "12345", "rerolls": 1},
    {"cats": "all", "upper": 3, "dice": "12345", "rerolls": 1},
    {"cats": "twos,threes,yahtzee", "upper": -1},
    {"cats": "twos,threes,yahtzee", "upper": "abc"},
    {"cats": "twos,threes,yahtzee", "upper": "123456789012"},
    {"cats": "ones,chance", "dice": "12345", "rerolls": 1},
    {"cats": "ones,yahtzee", "box": "50", "dice": "12345", "rerolls": 1},
    {"cats": "ones,chance", "box": "25", "dice": "12345", "rerolls": 1},
    {"cats": "ones,chance", "box": "0", "dice": "1234", "rerolls": 1},
    {"cats": "ones,chance", "box": "0", "dice": "123456", "rerolls": 1},
    {"cats": "ones,chance", "box": "0", "dice": "12a45", "rerolls": 1},
    {"cats": "ones,chance", "box": "0", "dice": "12375", "rerolls": 1},
    {"cats": "ones,chance", "box": "0", "dice": "12345", "rerolls": 3},
    {"cats": "none", "box": "50", "dice": "12345", "rerolls": 1},
    {"cats": "none", "box": "50"},
    {"cats": 0, "box": "0", "dice": "66666", "rerolls": 0},
]


def python_cats(q):
    """The question's card as the Python API takes it (the page also takes a list of names)."""
    return ",".join(q["cats"]) if isinstance(q["cats"], list) else q["cats"]


def python_answer(table, q):
    """What the Python API answers: the page's `answer` fields (without `options`)."""
    args = {"upper": q.get("upper"), "box": q.get("box")}
    q = {**q, "cats": python_cats(q)}
    try:
        start = "%.6f" % table.probe_expect(q["cats"], **args)
        if q.get("dice") is None:
            return {"start": start, "value": start, "move": None, "line": None, "error": None}
        asked = (q["cats"], q["dice"], q["rerolls"])
        return {"start": start, "value": decimal(*table.expect_fraction(*asked, **args)),
                "move": table.probe_move(*asked, **args), "line": table.options_line(*asked, **args), "error": None}
    except InvalidQuery as error:
        return {"start": None, "value": None, "move": None, "line": None, "error": str(error)}


def check_answers(table, questions, answers):
    """Each answer the page gave equals the Python API's; -> how many had an --options line."""
    assert len(answers) == len(questions)
    lines = 0
    for q, answer in zip(questions, answers):
        got = dict(answer)
        options = got.pop("options")
        assert got == python_answer(table, q), q
        if got["line"]:
            lines += 1
            assert "; ".join("%s %s %s" % (o["choice"], o["value"], o["loss"]) for o in options) == got["line"]
            assert options[0]["choice"] == got["move"] and options[0]["loss"] == "0.000000"
        else:
            assert options is None
    return lines


# -- Node.js: the page's modules against the Python API and the command --------------------------------

NODE_SCRIPT = """
import fs from 'node:fs';
import { createRequire } from 'node:module';
const [static_, tablePath, joker] = process.argv.slice(1);
globalThis.MessagePack = createRequire(static_ + '/')(static_ + '/vendor/msgpack.min.js');
const { readTable } = await import(static_ + '/lib/format.js');
const Y = await import(static_ + '/games/yahtzee.js');
const R = await import(static_ + '/games/yahtzee-rules.js');
const T = await import(static_ + '/games/yahtzee-turn.js');
const { questions, starts } = JSON.parse(fs.readFileSync(0, 'utf8'));
const spec = Y.tableSpec();
const options = { ...spec.options, name: tablePath, rules: R.rulesOf(joker) };
const table = readTable(new Uint8Array(fs.readFileSync(tablePath)), options);
const answers = questions.map((q) => Y.answer(table, q));
const checks = starts.map(([card, upper, box]) => {
  const [numerator, denominator] = T.turnOf(table, joker, card, upper, box).start();
  const stored = table.arrays.turn[R.stateIndex(card, upper, box)];
  return [T.decimal(numerator, denominator), T.ratio(numerator, denominator), stored];
});
console.log(JSON.stringify({ answers, checks }));
"""


def run_node(table_path, joker, questions, starts):
    if not NODE:
        if os.environ.get("CI"):
            pytest.fail("node is not installed, but CI must run the Node.js tests")
        pytest.skip("node is not installed (apt-get install nodejs)")
    done = subprocess.run([NODE, "--input-type=module", "-e", NODE_SCRIPT, "--", STATIC, table_path, joker],
                          input=json.dumps({"questions": questions, "starts": starts}), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def random_starts(rng, count):
    """Turn-start states (card, upper, box) with a box open, as the table numbers them."""
    states = []
    while len(states) < count:
        card = sum(1 << c for c in rng.sample(range(len(CATEGORIES)), rng.randint(1, 4)))
        upper = rng.choice([t for t in range(106) if reach()[63 & ~card] >> t & 1])
        states.append([card, upper, OPEN if card >> YAHTZEE & 1 else rng.choice([ZERO, FIFTY])])
    return states


def check_starts(table, starts, checks):
    """The turn worked out from the states one box later: the exact value of turn.py, its float, and
    the stored value within twice the error bound."""
    for (card, upper, box), (text, value, stored) in zip(starts, checks, strict=True):
        numerator, denominator = table.turn(card, upper, box).start()
        assert text == decimal(numerator, denominator) and value == numerator / denominator, (card, upper, box)
        assert stored == table.value(card, upper, box) and abs(value - stored) < 2 * 7.8e-14


@pytest.mark.node
def test_node_answers_like_the_python_api_and_the_command(table):
    rng = random.Random(2561)
    questions = [{"cats": "all", "dice": "13366", "rerolls": 2}, {"cats": "all"},
                 {"cats": "fours,large-straight", "upper": 60, "box": "50", "dice": "44412", "rerolls": 2},
                 {"cats": "ones,yahtzee", "dice": "11111", "rerolls": 0},
                 # the official joker: the upper box if open, else the lower boxes at 25/30/40, else a zero above
                 {"cats": "fives,full-house,chance", "upper": 10, "box": "50", "dice": "55555", "rerolls": 1},
                 {"cats": "twos,full-house,large-straight", "upper": 20, "box": "0", "dice": "55555", "rerolls": 0},
                 {"cats": "ones,twos", "upper": 50, "box": "50", "dice": "66666", "rerolls": 2}]
    while len(questions) < 380:
        questions.append(random_question(rng))
    questions += INVALID
    starts = random_starts(rng, 24)
    got = run_node(table.path, "official", questions, starts)
    lines = check_answers(table, questions, got["answers"])
    assert lines >= 280, lines
    check_starts(table, starts, got["checks"])
    assert got["answers"][0]["move"] == "keep 6 6" and got["answers"][1]["value"] == START
    assert got["answers"][4]["line"].startswith("score fives ")
    assert [o["choice"] for o in got["answers"][5]["options"]] == ["score large-straight", "score full-house"]
    # sixes closed, no lower box open: a zero in an open upper box, and the bonus
    scores = {o["choice"] for o in got["answers"][6]["options"] if o["choice"].startswith("score")}
    assert scores == {"score ones", "score twos"}
    # the command line, every valid question in one batch: the same --options lines
    asked = []
    for q, answer in zip(questions, got["answers"]):
        if answer["line"]:
            card, upper, box = table.state(python_cats(q), q.get("upper"), q.get("box"))
            words = (question(card, upper, box), q["dice"], q["rerolls"])
            asked.append(("--options %s %s %d\n" % words, answer["line"]))
    done = subprocess.run(COMMAND + ["yahtzee", "--batch"], input="".join(a for a, _ in asked), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [line for _, line in asked]


@pytest.mark.parametrize("joker", ["free", "none"])
@pytest.mark.node
def test_node_answers_the_other_joker_rules_like_the_python_api(joker):
    """The page reads the shipped table only; its turn module follows every joker rule all the same."""
    table = load(joker)  # solved on first use into the test's private cache
    table.preload()
    rng = random.Random(len(joker))
    questions = [random_question(rng) for _ in range(70)]
    questions += [{"cats": "fives,full-house,small-straight", "upper": 10, "box": "50", "dice": "55555", "rerolls": 0},
                  {"cats": "twos,full-house,large-straight", "upper": 20, "box": "0", "dice": "55555", "rerolls": 1}]
    starts = random_starts(rng, 6)
    got = run_node(table.path, joker, questions, starts)
    assert check_answers(table, questions, got["answers"]) >= 50
    check_starts(table, starts, got["checks"])


# -- the browser: Coach ---------------------------------------------------------------------------------


def shown(page, what):
    """What Coach shows (its data-answer): the start-of-turn value, the value or the best choice."""
    selector = {"start": "#yahtzee-start", "value": "#yahtzee-answer .answer-value",
                "move": "#yahtzee-answer .answer-move"}
    return page.get_attribute(selector[what], "data-answer")


def shown_options(page):
    return page.evaluate("""[...document.querySelectorAll('#yahtzee-options tbody tr')]
        .map(tr => [...tr.cells].map(td => td.textContent).join(' ')).join('; ')""")


def test_coach_answers_like_the_python_api(open_page, table):
    page = open_page("?game=yahtzee")
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    assert shown(page, "value") == "%.6f" % table.probe_expect("all", "13366", 2)
    assert shown(page, "start") == START
    assert shown_options(page) == table.options_line("all", "13366", 2)
    # a batch through the page's own functions, in the browser
    rng = random.Random(375)
    questions = [random_question(rng) for _ in range(120)] + INVALID[:6]
    answers = page.evaluate("qs => window.games.yahtzee.answers(qs)", questions)
    assert check_answers(table, questions, answers) >= 90
    # set by clicks and typing
    cases = [("fours,large-straight", "60", "50", "44412", 2), ("ones,twos,full-house,chance", "12", "0", "22222", 0),
             ("sixes,three-kind,yahtzee", "18", None, "66612", 1), ("chance", "75", "50", "12345", 0)]
    for cats, upper, box, dice, rerolls in cases:
        page.click("#yahtzee-none")
        for name in cats.split(","):
            page.click("#yahtzee-cats [data-value='%s']" % name)
        page.fill("#yahtzee-upper", upper)
        assert page.is_disabled("#yahtzee-box-50") == (box is None)
        if box is not None:
            page.check("#yahtzee-box-%s" % box)
        page.fill("#yahtzee-dice", dice)
        page.check("#yahtzee-rerolls-%d" % rerolls)
        want = table.options_line(cats, dice, rerolls, upper, box)
        assert shown_options(page) == want, (cats, dice)
        assert shown(page, "move") == table.probe_move(cats, dice, rerolls, upper, box)
        assert shown(page, "start") == "%.6f" % table.probe_expect(cats, upper=upper, box=box)
        assert shown(page, "value") == decimal(*table.expect_fraction(cats, dice, rerolls, upper, box))
    # the start of a turn: no dice
    page.fill("#yahtzee-dice", "")
    assert shown(page, "value") == "%.6f" % table.probe_expect("chance", upper=75, box="50")
    assert page.is_hidden("#yahtzee-options")
    # an upper total the closed boxes cannot hold: named beside the field, no answer
    page.fill("#yahtzee-dice", "12345")
    page.fill("#yahtzee-upper", "106")
    assert "cannot hold 106 points" in page.inner_text("#yahtzee-upper-error")
    assert shown(page, "value") == "" and page.is_hidden("#yahtzee-options")
    screenshot(page, "yahtzee-coach.png")
    # a link gives the question
    page = open_page("?game=yahtzee&cats=twos%2Cfull-house%2Clarge-straight&upper=20&ybox=0&dice=55555&rerolls=0")
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    assert shown_options(page) == table.options_line("twos,full-house,large-straight", "55555", 0, "20", "0")


def test_coach_fits_a_375_pixel_phone(open_page, table):
    page = open_page("?game=yahtzee&cats=ones%2Csixes%2Cyahtzee&upper=30&dice=66616&rerolls=1", phone=True)
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    assert shown_options(page) == table.options_line("ones,sixes,yahtzee", "66616", 1, "30")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    unlabelled = page.evaluate("[...document.querySelectorAll('input')]"
                               ".filter(i => !i.labels || !i.labels.length).map(i => i.id)")
    assert unlabelled == []
    page.click("#yahtzee-all")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "yahtzee-coach-phone.png")


# -- the browser: Play ----------------------------------------------------------------------------------

SEED = 184  # under the choices below: three Yahtzees on a yahtzee box holding 50
BLUNDERS = {(2, 2), (5, 1), (9, 0), (11, 2)}  # (turn, rerolls left): the first choice that loses something


def shown_dice(page):
    return pips(page, "#yahtzee-play-dice")


def state_of(page):
    return page.evaluate("window.games.yahtzee.play.state()")


def choose(table, card, upper, box, dice, rerolls, blunder):
    options = table.probe_options(card, "".join(map(str, sorted(dice))), rerolls, upper, box_text(box))
    if blunder:
        for text, _, loss in options[1:]:
            if len(text.split()) < 6 and loss > 1e-6:  # not keeping all five: the page says to score
                return text
    return options[0][0]


def review_loss(table, card, upper, box, dice, rerolls, text):
    """A decision's loss as `ShutTheBox yahtzee review` computes it."""
    denominator, listed = table.turn(card, upper, box).choices(tuple(sorted(dice)), rerolls)
    found = next(value for value, choice, _ in listed if choice == text)
    return max(listed[0][0] - found, 0) / denominator


def press_box(page, name):
    """Reach the box with Tab and the arrow keys, and press Enter."""
    for _ in range(30):
        if page.evaluate("document.activeElement.closest('#yahtzee-play-cats') !== null"):
            break
        page.keyboard.press("Tab")
    for _ in range(14):
        if page.evaluate("document.activeElement.dataset.cat") == name:
            break
        page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.cat") == name
    page.keyboard.press("Enter")


def lock(page, dice, kept):
    """Press the number keys so that exactly ``kept`` (a multiset) is kept."""
    left = list(kept)
    for i, d in enumerate(dice):
        want = d in left
        if want:
            left.remove(d)
        button = page.locator("#yahtzee-play-dice [data-die='%d']" % (i + 1))
        if (button.get_attribute("aria-pressed") == "true") != want:
            page.keyboard.press(str(i + 1))
            assert (button.get_attribute("aria-pressed") == "true") == want
    assert not left


def check_feedback(page, move, loss):
    text = page.inner_text("#yahtzee-feedback")
    assert text.startswith(spoken(move)), (text, move)
    if loss <= 1e-9:  # within the table's tie width: optimal, and no cost said
        assert ": optimal" in text and "cost" not in text, (text, loss)
    else:
        assert ("cost %.6f" % loss) in text, (text, loss)


def hint_row(i, option):
    """The hint's row of an --options item ``CHOICE VALUE LOSS``: a choice as good as the first is best too."""
    choice, value, loss = option.rsplit(" ", 2)
    return "%s: %s (%s)" % (spoken(choice), value, "best" if i == 0 or loss == "0.000000" else "cost " + loss)


def choice_of(line):
    """The choice of a decision's line (``CARD ... DICE REROLLS score BOX`` or ``... keep D D``)."""
    words = line.split()
    return " ".join(words[next(i for i, w in enumerate(words) if w in ("score", "keep")):])


def fits(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def is_joker(dice, box):
    return len(set(dice)) == 1 and box != OPEN


def check_hint(page, table, card, upper, box, dice, rerolls):
    """H lists every choice, best first, with the values and losses of the --options line."""
    page.keyboard.press("h")
    rows = page.locator("#yahtzee-choices li").all_inner_texts()
    line = table.options_line(card, "".join(map(str, dice)), rerolls, upper, box_text(box))
    assert rows == [hint_row(i, option) for i, option in enumerate(line.split("; "))]
    assert fits(page)


def check_joker(page, card, box, dice, decided):
    """A Yahtzee on a filled yahtzee box: the boxes the official joker rule bars are marked, and one
    pressed is refused with the reason (no decision made)."""
    barred = page.evaluate("[...document.querySelectorAll('#yahtzee-play-cats .barred')].map(b => b.dataset.cat)")
    allowed = {CATEGORIES[c] for c, _ in joker_choices("official", card, box, dice[0])}
    assert set(barred) == {CATEGORIES[c] for c in range(len(CATEGORIES)) if card >> c & 1} - allowed
    if barred:
        press_box(page, barred[0])
        assert "The joker rule" in page.inner_text("#yahtzee-message")
        assert len(state_of(page)["decisions"]) == decided


def check_sheet(page, card, boxes, upper_bonus, bonuses, total):
    """The score sheet after a box is scored: each box's points as scored (open ones none yet), the upper
    total against 63 and the bonus to go, paid or out of reach (five of each open upper box's face at
    most), the Yahtzee bonuses and the lower and game totals, all worked out here from Scored."""
    sheet = sheet_of(page, "yahtzee")
    assert sheet["parts"] == [list(CATEGORIES[:6]), list(CATEGORIES[6:])]
    assert {name: points for name, points in sheet["boxes"].items() if not card >> CATEGORIES.index(name) & 1} == \
        {CATEGORIES[c]: str(p) for c, p in boxes.items()}
    upper = sum(p for c, p in boxes.items() if c < 6)
    reach = upper + sum(5 * (c + 1) for c in range(6) if card >> c & 1)
    assert sheet["rows"] == {
        "Upper total": "%d of 63" % upper,
        "Bonus 35 at 63": "+35" if upper_bonus else "%d to go" % (63 - upper) if reach >= 63 else "out of reach",
        "Yahtzee bonus": "%d × 100" % bonuses if bonuses else "0",
        "Lower total": str(sum(boxes.values()) - upper),
        "Total": str(total)}
    assert (upper >= 63) == bool(upper_bonus) and total == sum(boxes.values()) + upper_bonus + 100 * bonuses


def play_by_keyboard(page, table, seed):
    """Play the seeded game shown to its end by keys only, checking the dice, each decision's loss and
    the total; -> (decisions as (review line, loss), total, Yahtzees scored on a filled yahtzee box)."""
    rng = Mulberry32(seed)
    card, upper, box, total, turn = ALL, 0, OPEN, 0, 0
    decisions, jokers, boxes, upper_bonus, bonuses = [], 0, {}, 0, 0
    while card:
        turn += 1
        page.keyboard.press("r")
        want = [rng.die() for _ in range(5)]
        for rerolls in (2, 1, 0):
            dice = shown_dice(page)
            assert dice == want, (turn, rerolls)
            assert page.inner_text("#yahtzee-rerolls") == "Rerolls left: %d" % rerolls
            move = choose(table, card, upper, box, dice, rerolls, (turn, rerolls) in BLUNDERS)
            loss = review_loss(table, card, upper, box, dice, rerolls, move)
            if turn == 1 and rerolls == 2 or is_joker(dice, box):
                check_hint(page, table, card, upper, box, dice, rerolls)
            roll = "".join(map(str, sorted(dice)))
            decisions.append(("%s %s %d %s" % (question(card, upper, box), roll, rerolls, move), loss))
            words = move.split()
            if words[0] == "score":
                if is_joker(dice, box):
                    jokers += 1
                    check_joker(page, card, box, dice, len(decisions) - 1)
                press_box(page, words[1])
                scored = Scored("official", card, upper, box, CATEGORIES.index(words[1]), tuple(sorted(dice)))
                total += scored.total
                boxes[CATEGORIES.index(words[1])] = scored.points
                upper_bonus += scored.upper_bonus
                bonuses += 1 if scored.yahtzee_bonus else 0
                card, upper, box = scored.card, scored.upper, scored.box
                check_feedback(page, move, loss)
                assert page.evaluate("document.activeElement.id") == ("yahtzee-roll" if card else "yahtzee-new")
                assert page.inner_text("#yahtzee-total") == "Total: %d" % total
                check_sheet(page, card, boxes, upper_bonus, bonuses, total)
                break
            lock(page, dice, [] if words[1] == "none" else [int(d) for d in words[1:]])
            page.keyboard.press("r")
            check_feedback(page, move, loss)
            pressed = page.evaluate("[...document.querySelectorAll('#yahtzee-play-dice button')]"
                                    ".map(b => b.getAttribute('aria-pressed') === 'true')")
            want = [dice[i] if pressed[i] else rng.die() for i in range(5)]
            assert page.evaluate("document.activeElement.tagName") != "BODY"
    return decisions, total, jokers


def check_review(page, decisions, total):
    """The page's review against `ShutTheBox yahtzee review` of the game the page writes out."""
    text = page.text_content("#yahtzee-game-text")
    assert [line for line in text.splitlines() if not line.startswith("#")] == [d for d, _ in decisions]
    done = subprocess.run(COMMAND + ["yahtzee", "review"], input=text, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    reviewed = [re.match(r"line \d+: .*: (.*?)  loss (\d+\.\d{6})", line).groups()
                for line in out if line.startswith("line ")]
    assert reviewed == [(choice_of(d), "%.6f" % loss) for d, loss in decisions]
    assert "game 1: %d points scored" % total in done.stdout
    # "total loss X expected points in N decisions (1 game)": the page says "your choices cost X expected points ..."
    total_line = next(line for line in out if line.startswith("total loss"))
    said = total_line.split(" (")[0].replace("total loss", "your choices cost")
    assert said in page.inner_text("#yahtzee-review-total")
    costliest = out[out.index("costliest decisions:") + 1:]
    shown = page.locator("#yahtzee-costliest li").all_inner_texts()
    assert len(shown) == len(costliest) == 3
    for line, row in zip(costliest, shown):
        choice, loss, best = re.search(r": ([^:]*)  loss (\S+)  \(best: (.*)\)$", line).groups()
        assert row.endswith("%s, cost %s (best: %s)" % (spoken(choice), loss, spoken(best))), (line, row)
        assert "--" not in row and "-kind" not in row, row


def test_a_seeded_game_by_keyboard_only_on_a_phone(open_page, table):
    page = open_page("?game=yahtzee&mode=play&seed=%d" % SEED, phone=True)
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    assert page.is_visible("#yahtzee-play") and page.is_hidden("#yahtzee-coach")
    assert START in page.inner_text("#yahtzee-message")
    decisions, total, jokers = play_by_keyboard(page, table, SEED)
    assert jokers >= 2
    state = state_of(page)
    assert state["over"] and state["total"] == total and state["yahtzeeBonuses"] == jokers
    assert [d["lossText"] for d in state["decisions"]] == ["%.6f" % loss for _, loss in decisions]
    assert sum(loss > 5e-7 for _, loss in decisions) >= 3
    message = page.inner_text("#yahtzee-message")
    assert "your total is %d" % total in message and START in message
    check_review(page, decisions, total)
    page.click("#yahtzee-review summary")
    assert fits(page)
    screenshot(page, "yahtzee-play-phone.png")
    # a decision of the history opens in Coach with the command line's answer; Play keeps the game
    index = next(i for i, (_, loss) in enumerate(decisions) if loss > 5e-7)
    unfold(page, "#yahtzee-log [data-decision='%d']" % index)
    assert page.is_visible("#yahtzee-coach") and page.is_hidden("#yahtzee-play")
    d = state["decisions"][index]
    line = table.options_line(d["card"], "".join(map(str, d["dice"])), d["rerolls"], d["upper"], box_text(d["box"]))
    assert shown_options(page) == line
    assert fits(page)
    page.click("#yahtzee-mode-play")
    assert state_of(page)["total"] == total
    # keys after the end say why nothing happens; N starts a new game at once (nothing to lose)
    page.keyboard.press("r")
    assert "game is over" in page.inner_text("#yahtzee-message")
    page.keyboard.press("n")
    assert page.locator("dialog[open]").count() == 0 and state_of(page)["decisions"] == []


def test_new_game_during_a_game_asks_first_and_bad_links_are_named(open_page, table):
    page = open_page("?game=yahtzee&mode=play&seed=9")
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    page.keyboard.press("r")
    dice = state_of(page)["dice"]
    points = page.locator("#yahtzee-play-cats [data-cat='yahtzee'] .points").inner_text()
    assert points == "+%d" % (50 if len(set(dice)) == 1 else 0)
    page.keyboard.press("n")
    dialog = page.locator("dialog[open]")
    assert dialog.count() == 1 and "Discard this game?" in dialog.inner_text()
    page.keyboard.press("Enter")  # the default keeps the game
    assert page.locator("dialog[open]").count() == 0 and state_of(page)["dice"] == dice
    page.keyboard.press("n")
    page.click("dialog[open] [data-ask='discard']")
    assert state_of(page)["dice"] is None and state_of(page)["seed"] != 9
    # a bad seed is named, new dice are drawn
    page = open_page("?game=yahtzee&mode=play&seed=12x")
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    assert "seed=12x:" in page.inner_text("#link-problems") and state_of(page) is not None
    page = open_page("?game=yahtzee&cats=ones%2Cchess&ybox=25&rerolls=3&mode=solo")
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    problems = page.inner_text("#link-problems")
    assert "cats=ones,chess: unknown category 'chess'" in problems
    assert all(name in problems for name in ("ybox=25:", "rerolls=3:", "mode=solo:"))
    assert page.is_visible("#yahtzee-coach") and shown_options(page) == table.options_line("all", "13366", 2)
