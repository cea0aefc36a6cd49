"""The games page's two-player yazy (`games.html?game=yazy&players=2`, games/yazy-duel-page.js) in chromium: Coach on
a small game answers as `ShutTheBox yazy --players 2` does, at a turn's start and mid-turn, and Play plays a whole
game against the computer, whose every move is the command's --move."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME = "ones,twos,yazy"


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("cache"))
    _command("--players", "2", "--expect", "all", "all", "--scores", "0,0", env={"SHUTTHEBOX_CACHE": folder})
    return folder


@pytest.fixture(scope="module")
def server(cache):
    """``ShutTheBox serve`` over a cache holding the small game's two-player table (solved by the command)."""
    from serving import running_server

    with running_server(env={"SHUTTHEBOX_CACHE": cache}) as (url, proc):
        yield url


def _command(*args, env=None):
    done = subprocess.run([sys.executable, os.path.join(ROOT, "ShutTheBox"), "yazy", "--categories", GAME, *args],
                          capture_output=True, text=True, timeout=600, env={**os.environ, **(env or {})})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_coach_answers_two_players_as_the_command_line(open_page, cache):
    env = {"SHUTTHEBOX_CACHE": cache}
    page = open_page("?game=yazy&players=2&categories=%s&mine=all&theirs=twos,yazy&scores=0,3&dice=&rerolls=2" % GAME)
    value = page.get_attribute("#yazy2-answer [data-answer]", "data-answer")
    assert value == _command("--players", "2", "--expect", "all", "twos,yazy", "--scores", "0,3", env=env)
    page.fill("#yazy2-dice", "11226")
    page.check("#yazy2-rerolls-1")
    words = ["all", "twos,yazy", "--scores", "0,3", "11226", "1"]
    assert page.get_attribute("#yazy2-answer [data-answer]", "data-answer") == _command("--players", "2", "--expect", *words, env=env)
    shown = page.eval_on_selector_all("#yazy2-choices tr[data-move]", "rows => rows.map(r => r.dataset.move + ' ' + "
                                      "r.children[1].dataset.value)")
    options = _command("--players", "2", "--options", *words, env=env).split("; ")
    assert shown == [" ".join(option.split()[:-1]) for option in options]
    assert page.get_attribute("#yazy2-answer .answer-move", "data-answer") == _command("--players", "2", "--move", *words, env=env)
    assert "--players 2 --options all twos,yazy --scores 0,3 11226 1" in page.inner_text("#yazy2-command")


def test_play_plays_a_whole_game_the_computer_playing_the_table_s_moves(open_page, cache):
    env = {"SHUTTHEBOX_CACHE": cache}
    page = open_page("?game=yazy&players=2&categories=%s&mode=play&seed=7" % GAME)
    for _ in range(3):  # each turn: reroll once keeping the first die, then score the first open category
        page.click("#yazy2-dice-row [data-die='0']")
        page.click("#yazy2-reroll")
        page.click("#yazy2-sheet-you button[data-category]")
    state = page.evaluate("window.games.yazy.duel.play.state()")
    assert state["over"] and state["result"] in ("win", "loss", "tie") and len(state["moves"]) >= 3
    for move in state["moves"]:
        assert move["move"] == _command("--players", "2", "--move", move["mine"], move["theirs"], "--scores", move["scores"],
                                        move["dice"], str(move["rerolls"]), env=env), move
    assert "Game over" in page.inner_text("#yazy2-status")
    assert page.inner_text("#yazy2-chance").startswith("Your chance to win: %s" % {"win": "100.0%", "loss": "0.0%", "tie": "50.0%"}[state["result"]])


# -- Play on the Play shell: the link, Hint, the cost of each decision, Undo --------------------------------------


def _state(page):
    return page.evaluate("window.games.yazy.duel.play.state()")


def _kept(move, dice):
    """The dice (indexes, as shown) a `keep` move keeps: the first die showing each face (dice-play.js's)."""
    taken = []
    for face in [] if move == "keep none" else [int(x) for x in move.split()[1:]]:
        taken.append(next(i for i, d in enumerate(dice) if d == face and i not in taken))
    return taken


def _make(page, move):
    """Your move in the command line's words, made by clicks."""
    if move.startswith("score "):
        page.click("#yazy2-sheet-you [data-category='%s']" % move.split()[1])
        return
    for i in _kept(move, _state(page)["dice"]):
        page.click("#yazy2-dice-row [data-die='%d']" % i)
    page.click("#yazy2-reroll")


def _options(position, env):
    words = [position["mine"], position["theirs"], "--scores", position["scores"], position["dice"], str(position["rerolls"])]
    return [option.split() for option in _command("--players", "2", "--options", *words, env=env).split("; ")]


def test_play_hint_and_cost_are_the_command_s_options(open_page, cache):
    env = {"SHUTTHEBOX_CACHE": cache}
    page = open_page("?game=yazy&players=2&categories=%s&mode=play&seed=11" % GAME)
    page.keyboard.press("h")
    shown = page.eval_on_selector_all("#yazy2-hint-list li", "rows => rows.map(r => [r.dataset.move, r.dataset.value, r.dataset.loss])")
    assert page.locator("#yazy2-hint-list li").first.get_attribute("class") == "best"
    worst = shown[-1][0]
    _make(page, worst)  # the costliest choice: its cost is the command's loss
    decision = _state(page)["decisions"][0]
    options = _options(decision, env)  # a decision holds its question's words
    assert [[" ".join(o[:-2]), o[-2], o[-1]] for o in options] == shown
    loss = next(o[-1] for o in options if " ".join(o[:-2]) == worst)
    feedback = page.inner_text("#yazy2-feedback")
    assert float(loss) > 0 and "percentage points of winning chance" in feedback, feedback
    # the cost's exact form, a press away: the command's loss
    assert page.get_attribute("#yazy2-feedback span.num >> nth=0", "data-exact") == loss, feedback
    assert decision["cost"] == pytest.approx(float(loss), abs=1e-6) and not decision["optimal"]


def test_play_hint_is_drawn_on_the_dice_and_the_card(open_page):
    page = open_page("?game=yazy&players=2&categories=%s&mode=play&seed=11" % GAME)
    page.keyboard.press("h")
    best = page.get_attribute("#yazy2-hint-list li", "data-move")
    marked = page.eval_on_selector_all("#yazy2-play [data-hint]", "m => m.map(n => [n.dataset.hint, n.dataset.die ?? n.dataset.cat])")
    if best.startswith("score "):
        assert marked == [["best", best.split()[1]]]
    else:
        assert marked == [["keep", str(i)] for i in _kept(best, _state(page)["dice"])]
    if marked:
        described = page.get_attribute("#yazy2-play [data-hint]", "aria-describedby")
        assert "The hint's choice" in page.inner_text("#" + described)
    page.keyboard.press("h")
    _make(page, best)
    assert page.locator("#yazy2-play [data-hint]").count() == 0  # a move takes the marks away


def test_play_a_reload_restores_the_game_back_steps_back_and_undo_takes_back(open_page):
    page = open_page("?game=yazy&players=2&categories=%s&mode=play&seed=7" % GAME)
    page.click("#yazy2-sheet-you button[data-category]")  # score at once: the computer's turn follows
    page.click("#yazy2-dice-row [data-die='0']")
    page.click("#yazy2-reroll")
    before = _state(page)
    assert len(before["moves"]) >= 1 and "moves=" in page.url and len(before["decisions"]) == 2
    page.reload()
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=60000)
    after = _state(page)
    for key in ("moves", "dice", "rerolls", "decisions", "cpu", "you"):
        assert after[key] == before[key], key
    assert page.locator("#yazy2-log li").count() == len(before["moves"]) + 2
    page.go_back()
    page.wait_for_function("window.games.yazy.duel.play.state().decisions.length === 1")
    assert _state(page)["moves"] == before["moves"]
    page.go_forward()
    page.wait_for_function("window.games.yazy.duel.play.state().decisions.length === 2")
    assert page.get_attribute("#yazy2-undo", "aria-disabled") == "false"
    page.keyboard.press("u")
    undone = _state(page)
    assert len(undone["decisions"]) == 1 and undone["undone"] == 1 and "undone=1" in page.url
    assert "".join(map(str, sorted(undone["dice"]))) == before["decisions"][1]["dice"] and undone["rerolls"] == 2
    page.click("#yazy2-undo")
    assert _state(page)["decisions"] == [] and _state(page)["moves"] == [] and "moves=" not in page.url
    assert page.get_attribute("#yazy2-undo", "aria-disabled") == "true"


def test_play_and_coach_have_no_serious_axe_finding(open_page):
    """axe-core (tests/test_web_axe.py's rules) on the duel's Play with its hint drawn, and on its Coach."""
    from test_web_axe import findings

    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    page = open_page("?game=yazy&players=2&categories=%s&mode=play&seed=7" % GAME)
    page.keyboard.press("h")
    assert not findings(axe, page)
    page.click("#yazy2-mode-coach")
    assert not findings(axe, page)


def test_the_review_says_how_many_moves_were_undone(open_page):
    page = open_page("?game=yazy&players=2&categories=%s&mode=play&seed=7" % GAME)
    page.click("#yazy2-sheet-you button[data-category]")
    page.keyboard.press("u")
    for _ in range(3):
        page.click("#yazy2-sheet-you button[data-category]")
    s = _state(page)
    assert s["over"] and s["undone"] == 1 and len(s["decisions"]) == 3
    assert page.inner_text("#yazy2-review-undone") == "You took back 1 move (Undo)."
    assert "3 decisions" in page.inner_text("#yazy2-review") or "of 3 decisions optimal" in page.inner_text("#yazy2-review-total")
