"""The games page's family modules (shutthebox/web/static/families/, docs/WEB.md "Family modules") in a real
browser (Debian's chromium driven by Playwright) against ``ShutTheBox serve``, for every game the registry
declares on a family (a declaration with ``hooks``) and shows by a family's module (``families/NAME.js``):
its tab opens that module, which reads the game from games.json; Coach answers the game's golden and
notation questions, its declared examples (``--expect``, ``--move``, ``--options``) and its refusals word
for word as the command line prints them, by its functions, its fields and its dice buttons; a seeded Play
game is played to the end by clicks following the table's hint, its dice replayed here from the seed
(mulberry32), with its total shown; axe-core finds nothing serious in Coach nor in Play. Screenshots go to
test-output/.

Needs /usr/bin/chromium and the playwright package, like tests/test_web_games.py.
"""

from __future__ import annotations

import os
import subprocess

import pytest

import shutthebox
from shutthebox import registry

from serving import COMMAND, ROOT, Mulberry32, screenshot
from test_web_axe import axe, findings  # noqa: F401 - axe is a fixture
from test_web_numbers import exact_values

CORPUS = os.path.join(ROOT, "tests", "data")
# the games declared on a family (their hooks) whose page is a family's module of the games page
GAMES = [game.id for game in registry.declarations()
         if game.hooks is not None and (game.page or "").startswith("families/") and game.page.endswith(".js")]


def test_some_game_is_declared_on_a_family():
    assert GAMES, "no game of the games page is declared on a family"


def command(game, *words, stdin=None):
    """``ShutTheBox GAME WORDS``: (status, stdout, stderr)."""
    done = subprocess.run(COMMAND + [game, *words], input=stdin, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout, done.stderr


def batch(game, lines, *options):
    """What ``ShutTheBox GAME OPTIONS --batch`` prints for ``lines``, one answer a line."""
    _, out, err = command(game, *options, "--batch", stdin="".join(line + "\n" for line in lines))
    answers = out.splitlines()
    assert len(answers) == len(lines), err
    return answers


def questions(path):
    """The questions of a golden or notation file whose first line asks the game's default rules."""
    lines = open(path, encoding="utf-8").read().splitlines()
    assert "--table" not in lines[0] and "--dice" not in lines[0], lines[0]
    return [line.split("\t", 1)[0] for line in lines if "\t" in line and not line.startswith("#")]


def shown(page, game):
    """(value, move, problem, the --options line) as Coach shows them."""
    box = "#%s-answer" % game
    return (page.get_attribute(box + " .answer-value", "data-answer"), page.get_attribute(box + " .answer-move", "data-answer"),
            page.inner_text(box + " .answer-problem"), page.get_attribute("#%s-options" % game, "data-line"))


@pytest.mark.parametrize("game", GAMES)
def test_the_tab_opens_the_family_s_module_with_the_game_s_rules(open_page, game):
    declaration = registry.declaration(game)
    page = open_page("?game=" + game)
    assert page.is_visible("#" + game) and page.inner_text("#tab-" + game) == declaration.title
    rules = page.evaluate("(g) => window.games[g].rules()", game)
    assert rules == declaration.tables[0].rules().Rules().as_dict()  # the table's header rules, from games.json
    assert page.evaluate("() => [...document.querySelectorAll('input')].filter(i => !i.labels || !i.labels.length).length") == 0
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, "families-%s-coach.png" % game)


@pytest.mark.parametrize("game", GAMES)
def test_coach_answers_the_golden_and_notation_questions_as_the_command_line(open_page, game):
    """Every question of the game's golden file and notation corpus, asked in the command line's words through
    the page's own reader (families/setaside-command.js): the command's line, refusals included."""
    lines = questions(os.path.join(CORPUS, "%s-golden.txt" % game)) + questions(os.path.join(CORPUS, "questions", "%s.txt" % game))
    page = open_page("?game=" + game)
    got = page.evaluate("([g, lines]) => window.games[g].asks(lines)", [game, lines])
    want = batch(game, lines)
    assert got == want
    assert sum(line.startswith("error: ") for line in want) >= 5 and sum(not line.startswith("error: ") for line in want) >= 10


@pytest.mark.parametrize("game", GAMES)
def test_coach_s_fields_answer_the_examples_and_refuse_as_the_command_line(open_page, game):
    """The declaration's examples (``--expect``, ``--move DICE``, ``--options DICE``) typed into Coach's dice field,
    the dice added by its buttons, a refusal beside the answer, and a question typed in the command line's words."""
    hooks = registry.declaration(game).hooks
    page = open_page("?game=" + game)
    assert hooks.examples
    for question, expected in hooks.examples:
        kind, _, dice = question.partition(" ")
        page.fill("#%s-showing" % game, dice)
        value, move, problem, line = shown(page, game)
        assert problem == "", (question, problem)
        said = {"--expect": value, "--move": move, "--options": line}[kind]
        assert said == expected == command(game, *question.split())[1].rstrip("\n"), question
        if dice:
            assert "ShutTheBox %s --options %s" % (game, dice) in page.inner_text("#%s-command" % game)
    # the dice by their buttons: the first example's roll, in reverse order (any order is the same roll)
    dice = next(question.split()[1] for question, _ in hooks.examples if question.startswith("--move "))
    page.click("#%s-clear" % game)
    assert shown(page, game)[0] == command(game, "--expect")[1].strip() and shown(page, game)[1] == ""
    for face in reversed(dice):
        page.click("#%s-faces [data-face='%s']" % (game, face))
    assert page.input_value("#%s-showing" % game) == dice[::-1]
    assert shown(page, game)[1] == command(game, "--move", dice)[1].strip()
    rows = page.evaluate("(g) => [...document.querySelectorAll('#' + g + '-options tbody tr')]"
                         ".map(r => [r.dataset.move, r.dataset.value, r.dataset.gives].join(' '))", game)
    assert "; ".join(rows) == command(game, "--options", dice)[1].strip()
    # refusals: beside the answer, word for word, and no answer
    for bad in ["0", "1" * (hooks.dice + 1), "x", "%d" % (hooks.sides + 1)]:
        page.fill("#%s-showing" % game, bad)
        status, out, err = command(game, "--move", bad)
        assert status == 2 and out == ""
        value, move, problem, line = shown(page, game)
        assert (value, move) == ("", "") and problem == err.strip().removeprefix("ShutTheBox: "), bad
        assert line == "error: " + problem and page.get_attribute("#%s-showing" % game, "aria-invalid") == "true"
    # a question in the command line's words, a mistyped one included
    for words in ["--options 36", "--mvoe 12", "--expect 1 2", "--move"]:
        page.fill("#%s-ask" % game, words)
        assert page.get_attribute("#%s-said" % game, "data-answer") == batch(game, [words])[0], words
    assert "showing=" in page.url


@pytest.mark.parametrize("game", GAMES)
def test_coach_s_dice_step_by_a_tap_and_show_the_best_choice(open_page, game):
    """Coach draws the dice showing; a tap (or Up on a focused die) steps a die's face in place, and the dice the
    best choice sets aside are marked "aside", as ``--move`` says."""
    hooks = registry.declaration(game).hooks
    dice = next(question.split()[1] for question, _ in hooks.examples if question.startswith("--move "))
    page = open_page("?game=%s&showing=%s" % (game, dice))
    tapped = "#%s-tap-dice [data-die]" % game
    faces = lambda: "".join(page.eval_on_selector_all(tapped + " .die", "ds => ds.map((d) => d.dataset.face)"))
    assert faces() == dice

    def marked_move():
        aside = page.eval_on_selector_all(tapped + "[data-hint='aside'] .die", "ds => ds.map((d) => d.dataset.face)")
        return "set aside " + " ".join(sorted(aside, key=int))

    assert marked_move() == command(game, "--move", dice)[1].strip()
    page.click("#%s-tap-dice [data-die='1']" % game)
    stepped = str(int(dice[0]) % hooks.sides + 1) + dice[1:]
    assert page.input_value("#%s-showing" % game) == faces() == stepped
    assert shown(page, game)[1] == command(game, "--move", stepped)[1].strip() == marked_move()
    page.focus("#%s-tap-dice [data-die='2']" % game)
    page.keyboard.press("ArrowDown")
    assert faces()[1] == str((int(stepped[1]) - 2) % hooks.sides + 1)


def faces_to_set_aside(showing, pressed, move):
    """The positions (1-based) of ``showing`` to press so that the pressed dice are ``move``'s faces."""
    want, picks = list(move), []
    for i, face in enumerate(showing):
        if face in want and not pressed[i]:
            want.remove(face)
            picks.append(i + 1)
    assert not want, (showing, move)
    return picks


@pytest.mark.parametrize("game", GAMES)
def test_a_seeded_game_played_to_the_end_following_the_hints(open_page, game):
    from shutthebox.engine.families.setaside.table import six  # the command's printing of an exact value

    table = shutthebox.open(game)
    rules = table.rules
    seed = 2024
    page = open_page("?game=%s&mode=play&seed=%d" % (game, seed))
    exact_values(page)  # the numbers as the command line prints them (one decimal short)
    state = lambda: page.evaluate("(g) => window.games[g].play.state()", game)  # noqa: E731
    assert state()["seed"] == seed and state()["rolls"] == 0
    assert six(*table.exact()) in page.inner_text("#%s-message" % game)
    dice = Mulberry32(seed)
    page.click("#%s-roll" % game)
    aside, rolls = [], 0
    while True:
        now = state()
        rolls += 1
        assert now["showing"] == [dice.die(rules.sides) for _ in range(now["left"])], "the dice are not the seed's"
        move = table.probe_move(now["showing"])
        page.click("#%s-hint" % game)
        best = page.locator("#%s-hint-list li.best" % game).first
        assert best.get_attribute("data-move") == "set aside " + " ".join(map(str, move))
        assert best.get_attribute("data-value") == six(*table.exact(now["showing"]))
        for position in faces_to_set_aside(now["showing"], now["pressed"], move):
            page.click("#%s-play-dice [data-die='%d']" % (game, position))
        assert sorted(f for f, p in zip(state()["showing"], state()["pressed"]) if p) == list(move)
        page.click("#%s-roll" % game)
        aside += move
        assert "optimal" in page.inner_text("#%s-feedback" % game)
        if state()["over"]:
            break
    end = state()
    total = sum(rules.points[face - 1] for face in aside)
    assert end["rolls"] == rolls and sorted(end["aside"]) == sorted(aside) and end["total"] == total
    assert page.get_attribute("#%s-total" % game, "data-total") == str(total)
    assert page.inner_text("#%s-total" % game) == "Total: %d" % total
    assert "your total is %d" % total in page.inner_text("#%s-message" % game)
    assert all(d["optimal"] and d["cost"] == 0 for d in end["decisions"]) and len(end["decisions"]) == rolls
    assert page.locator("#%s-log li" % game).count() == rolls
    review = page.inner_text("#%s-review" % game)
    assert "%d of %d decisions optimal" % (rolls, rolls) in review and "null" not in review
    screenshot(page, "families-%s-play.png" % game)
    # a row of the history opens its roll in Coach, with the command line's answer
    page.click("#%s-log li:first-child button" % game)
    first = page.input_value("#%s-showing" % game)
    assert page.is_visible("#%s-coach" % game)
    assert shown(page, game)[1] == command(game, "--move", first)[1].strip()


@pytest.mark.parametrize("game", GAMES)
def test_a_choice_worse_than_the_table_s_costs_what_options_says(open_page, game):
    """Setting aside every die of the first roll: its cost is what ``--options`` says it gives away (unless it is
    the table's move)."""
    page = open_page("?game=%s&mode=play&seed=5" % game)
    page.keyboard.press("r")
    showing = page.evaluate("(g) => window.games[g].play.state().showing", game)
    for n in range(1, len(showing) + 1):
        page.keyboard.press(str(n))
    page.keyboard.press("Enter")
    decision = page.evaluate("(g) => window.games[g].play.state().decisions[0]", game)
    table = shutthebox.open(game)
    faces = tuple(sorted(showing))
    options = dict(table.probe_options(faces))
    gives = options[faces] - options[table.probe_move(faces)]
    assert decision["choice"] == "Set aside " + " ".join(map(str, faces))
    assert abs(decision["cost"] - abs(gives)) < 1e-9 and decision["optimal"] == (gives == 0)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("mode", ["coach", "play"])
def test_no_serious_or_critical_accessibility_finding(open_page, axe, game, mode):  # noqa: F811 - the fixture
    page = open_page("?game=%s&mode=%s&seed=8" % (game, mode), phone=mode == "play")
    if mode == "play":
        page.keyboard.press("r")
        page.keyboard.press("1")
    found = findings(axe, page)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_fields_solve_other_dice_on_first_use(open_page, game):
    """Other dice and sides are not shipped: changing them asks first (the file, Solve and Cancel); Solve has the
    server solve the table, and Coach then answers the command line's golden questions of those rules word for
    word. A number the command refuses is named beside its field, in its words, and the table kept."""
    page = open_page("?game=" + game)
    status, _, refusal = command(game, "--dice", "9", "--expect")
    page.fill("#%s-dice" % game, "9")
    page.dispatch_event("#%s-dice" % game, "change")
    assert status == 2 and page.inner_text("#%s-dice-error" % game) == refusal.strip().removeprefix("ShutTheBox: ")
    assert page.evaluate("(g) => window.games[g].rules().dice", game) == registry.declaration(game).hooks.dice
    # Both fields set, then one change: filling one field after the other would blur the first, and its own
    # change would ask for 3 dice of 6 sides first.
    page.evaluate("(g) => { document.getElementById(g + '-dice').value = '3'; "
                  "document.getElementById(g + '-sides').value = '4'; }", game)
    page.dispatch_event("#%s-sides" % game, "change")
    page.wait_for_function("document.body.dataset.state === 'asking'")
    assert "%s-d3-s4.msgpack" % game in page.text_content("#solve-status")
    page.click("#solve-start")
    page.wait_for_function("(g) => document.body.dataset.state === 'ready' && window.games[g].rules()?.sides === 4",
                           arg=game, timeout=120000)
    assert "dice=3" in page.url and "sides=4" in page.url and "%s-d3-s4.msgpack" % game in page.inner_text("#%s-rules" % game)
    assert page.locator("#%s-faces button" % game).count() == 4
    lines = questions_of_rules(os.path.join(CORPUS, "good", "%s-d3-s4-golden.txt" % game))
    assert page.evaluate("([g, lines]) => window.games[g].asks(lines)", [game, lines]) == \
        batch(game, lines, "--dice", "3", "--sides", "4")


def questions_of_rules(path):
    """The questions of a golden file of other rules (its first line names them)."""
    lines = open(path, encoding="utf-8").read().splitlines()
    return [line.split("\t", 1)[0] for line in lines if "\t" in line and not line.startswith("#")]
