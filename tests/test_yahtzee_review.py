"""``ShutTheBox yahtzee review`` as a coach's: beside each decision's loss the expected final scores of the choice
made and of the best, how many decisions were optimal, the skill-and-luck line of each game (final total =
the optimum's expectation - skill loss + luck), the mean loss per decision; the costliest decisions leave out
those that lost nothing.

The figures are checked against the command's own ``--options`` values (the choice's expected points to come)
and the points the test adds up itself from the dice, and the identity of the luck line exactly.
"""

import io
import os
import random
import re
import subprocess
import sys
from fractions import Fraction

import pytest

from conftest import ROOT, run
from test_yahtzee import NAMES, printed, table_of

LINE = re.compile(r"^line (\d+): (.*): (score \S+|keep [\d ]+|keep none)  loss (\d+\.\d{6})  expected final "
                  r"(\d+\.\d\d) \(best (\d+\.\d\d)(?:: (.*))?\)$")
LUCK = re.compile(r"^game (\d+): (\d+(?:\.\d\d)?) = (\d+\.\d\d) - (\d+\.\d\d) ([+-]) (\d+\.\d\d) \(")


def two_places(value):
    """A figure to 2 decimals, halves to even (from --options' 6 decimals: the same unless they end 5000)."""
    return "%.2f" % round(Fraction(value), 2)


def play_badly(table, seed, worst_every=3):
    """A game's log: the table's best choice, but every ``worst_every``-th decision the worst legal one."""
    from shutthebox.games.yahtzee.analysis import Scored, question
    from shutthebox.games.yahtzee.rules import ALL, OPEN

    rng = random.Random(seed)
    card, upper, box, total, lines, number = ALL, 0, OPEN, 0, [], 0
    while card:
        turn = table.turn(card, upper, box)
        dice = [rng.randint(1, 6) for _ in range(5)]
        for rerolls in (2, 1, 0):
            roll = tuple(sorted(dice))
            listed = turn.choices(roll, rerolls)[1]
            number += 1
            value, text, move = listed[-1] if number % worst_every == 0 else listed[0]
            if move[0] == "keep" and len(move[1]) == 5 and rerolls:  # keeping all five is the same as stopping
                value, text, move = listed[0]
            lines.append("%s %s %d %s" % (question(card, upper, box), "".join(map(str, roll)), rerolls, text))
            if move[0] == "score":
                break
            dice = list(move[1]) + [rng.randint(1, 6) for _ in range(5 - len(move[1]))]
        scored = Scored("official", card, upper, box, move[1], roll)
        total += scored.total
        card, upper, box = scored.card, scored.upper, scored.box
    return lines, total


def points_of_the_dice(lines):
    """The points each scoring line earns, worked out again: the printed score or the official joker's, the
    upper bonus and the Yahtzee bonus."""
    scored, upper, fifty, out = 0, 0, False, []
    for line in lines:
        words = line.split()
        if "score" not in words:
            out.append(0)
            continue
        name, roll = words[-1], tuple(map(int, words[words.index("score") - 2]))
        points = printed(name, list(roll))
        if len(set(roll)) == 1 and any(w == "--yahtzee-box" for w in words):  # a joker on a filled box
            if name in ("full-house", "small-straight", "large-straight"):
                points = {"full-house": 25, "small-straight": 30, "large-straight": 40}[name]
            bonus = 100 if words[words.index("--yahtzee-box") + 1] == "50" else 0
        else:
            bonus = 0
        if name == "yahtzee":
            fifty = points == 50
        if name in NAMES[:6]:
            bonus += 35 if upper < 63 <= upper + points else 0
            upper += points
        scored += points + bonus
        out.append(points + bonus)
    del fifty
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_played_with_mistakes_is_reviewed_like_a_coach(seed, tmp_path):
    table = table_of("official")
    lines, total = play_badly(table, seed)
    log = tmp_path / "game.txt"
    log.write_text("# ShutTheBox yahtzee --joker official\n" + "\n".join(lines) + "\n")
    done = run("yahtzee", "review", str(log))
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    decisions = [LINE.match(line) for line in out if line.startswith("line ")][:len(lines)]
    assert all(decisions) and len(decisions) == len(lines), out[:3]
    earned = points_of_the_dice(lines)
    so_far, optimal, skill = 0, 0, Fraction(0)
    for found, line, points in zip(decisions, lines, earned):
        asked, _, choice = line.rpartition(" score ") if " score " in line else line.rpartition(" keep ")
        choice = ("score " if " score " in line else "keep ") + choice
        options = run("yahtzee", "--options", *asked.split()).stdout.strip().split("; ")
        values = {item.rsplit(" ", 2)[0]: item.rsplit(" ", 2)[1] for item in options}
        assert found.group(3) == choice
        assert found.group(5) == two_places(Fraction(values[choice]) + so_far), line
        assert found.group(6) == two_places(Fraction(options[0].rsplit(" ", 2)[1]) + so_far), line
        assert found.group(4) == options[[item.rsplit(" ", 2)[0] for item in options].index(choice)].rsplit(" ", 2)[2]
        optimal += found.group(4) == "0.000000"
        skill += Fraction(found.group(4))
        so_far += points
    assert so_far == total
    assert "game 1: %d points scored, %d of %d decisions optimal" % (total, optimal, len(lines)) in done.stdout
    assert optimal < len(lines) - len(lines) // 4
    luck = next(LUCK.match(line) for line in out if LUCK.match(line))
    result, expectation, loss, sign, rest = luck.group(2), luck.group(3), luck.group(4), luck.group(5), luck.group(6)
    assert result == str(total) and expectation == "254.59"
    assert abs(Fraction(loss) - skill) <= Fraction(1, 100)  # the printed losses are rounded too
    exact_luck = total - Fraction(table.probe_expect("all")) + skill
    assert abs((1 if sign == "+" else -1) * Fraction(rest) - exact_luck) < Fraction(6, 1000)
    totals = next(line for line in out if line.startswith("total loss "))
    found = re.match(r"total loss (\d+\.\d{6}) expected points in (\d+) decisions \(1 game\), (\d+) of (\d+) optimal; "
                     r"(\d+\.\d{6}) a decision$", totals)
    assert found and int(found.group(3)) == optimal and int(found.group(2)) == int(found.group(4)) == len(lines)
    assert abs(Fraction(found.group(1)) / len(lines) - Fraction(found.group(5))) <= Fraction(1, 10**6)
    costliest = out[out.index("costliest decisions:") + 1:]
    assert 1 <= len(costliest) <= 3 and all(" loss 0.000000 " not in line for line in costliest)


def test_the_review_of_the_docs_example_and_one_decision():
    """The first turn and a half of docs/YAHTZEE.md: every figure; and a single decision's words."""
    game = ("all 45556 2 keep 5 5 5\nall 15556 1 keep 5 5 5\nall 35556 0 score three-kind\n"
            "ones,twos,threes,fours,fives,sixes,four-kind,full-house,small-straight,large-straight,yahtzee,chance "
            "12346 2 keep 1 2 3\n")
    done = run("yahtzee", "review", stdin=game)
    out = done.stdout.splitlines()
    assert done.returncode == 0, done.stderr
    assert out[0] == "line 1: all 45556 2: keep 5 5 5  loss 0.000000  expected final 263.17 (best 263.17)"
    assert out[2] == ("line 3: all 35556 0: score three-kind  loss 0.025133  expected final 249.96 (best 249.98: "
                      "score fives)")
    assert out[4] == ("game 1: 24 points scored (it stops before its end), 2 of 4 decisions optimal, loss 3.188771 "
                      "(0.797193 a decision)")
    assert out[5].startswith("game 1: 243.74 = 254.59 - 3.19 - 7.66 (points scored + expected points to come")
    assert out[6] == "total loss 3.188771 expected points in 4 decisions (1 game), 2 of 4 optimal; 0.797193 a decision"
    assert out[7] == "costliest decisions:" and len(out) == 10  # the two optimal decisions left out
    one = run("yahtzee", "review", stdin="all 13366 2 keep 1\n").stdout
    assert "0 of 1 decision optimal" in one and "in 1 decision (1 game)" in one and "1 decisions" not in one
    best = run("yahtzee", "review", stdin="all 13366 2 keep 6 6\n").stdout
    assert "costliest decisions: none, every decision was the best" in best


@pytest.mark.slow
def test_a_perfect_game_has_no_skill_loss_and_its_luck_is_the_rest():
    from shutthebox.games.yahtzee import analysis

    table = table_of("official")
    for seed in (3, 4):
        log = io.StringIO()
        total = analysis.play(table, 1, seed, log=log)[0][0]
        text = analysis.review_text(table, log.getvalue().splitlines())
        found = next(LUCK.match(line) for line in text.splitlines() if LUCK.match(line))
        assert found.group(2) == str(total) and found.group(4) == "0.00"
        luck = total - Fraction(table.probe_expect("all"))
        assert found.group(5) == ("+" if luck >= 0 else "-") and abs(Fraction(found.group(6)) - abs(luck)) < 0.006


def test_two_games_glued_without_a_game_line_are_refused_naming_the_line(tmp_path):
    log = tmp_path / "two.txt"
    assert run("yahtzee", "simulate", "--games", "2", "--seed", "3", "--log", str(log)).returncode == 0
    lines = log.read_text().splitlines()
    second = lines.index("# game 2")
    glued = lines[:second] + lines[second + 1:]
    done = run("yahtzee", "review", stdin="\n".join(glued) + "\n")
    assert done.returncode == 2 and done.stdout == "", done.stdout
    assert done.stderr == ("ShutTheBox yahtzee review: line %d: the game ended at line %d (its last box scored): "
                           "start the next game with a '# game' line\n" % (second + 1, second)), done.stderr
    assert run("yahtzee", "review", str(log)).returncode == 0  # with the line, two games


def test_review_with_standard_input_closed_or_unreadable_is_one_line():
    closed = subprocess.run([sys.executable, os.path.join(ROOT, "ShutTheBox"), "yahtzee", "review"],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, preexec_fn=lambda: os.close(0))
    assert closed.returncode == 2 and closed.stdout == "", closed.stdout
    assert closed.stderr.startswith("ShutTheBox yahtzee review: no game to review: standard input is closed"), \
        closed.stderr
    assert closed.stderr.count("\n") == 1
    garbled = run("yahtzee", "review", stdin=b"\xff\xfe\n")  # not UTF-8: refused as a decision, one line
    assert garbled.returncode == 2 and garbled.stderr.count(b"\n") == 1, garbled.stderr
