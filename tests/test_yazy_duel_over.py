"""A finished two-player yazy game (both players' categories closed) answers the mover's chance to win, 1, 1/2
or 0 by the totals (docs/YAZY.md: a tie is half a win), as a finished one-player game answers 0.000000: on the
command line and in a batch with no table (the whole game's is 1.87 GB), and in Python from a table."""

import os

from conftest import ROOT, run

from shutthebox.errors import InvalidQuery

CASES = [("6,0", "1.000000"), ("50,50", "0.500000"), ("0,6", "0.000000"), ("130,131", "0.000000")]


def test_the_command_and_a_batch_answer_with_no_table(tmp_path):
    env = {"SHUTTHEBOX_CACHE": str(tmp_path)}
    for scores, answer in CASES:
        done = run("yazy", "--players", "2", "--expect", "none", "none", "--scores", scores, env=env)
        assert (done.returncode, done.stdout) == (0, answer + "\n"), done.stderr
    lines = "".join("--players 2 --expect none none --scores %s\n" % scores for scores, _ in CASES)
    done = run("yazy", "--batch", stdin=lines + "--expect none\n", env=env)
    assert (done.returncode, done.stdout.splitlines()) == (0, [answer for _, answer in CASES] + ["0.000000"])
    for args in (["--move", "none", "none", "--scores", "6,0", "11111", "0"],
                 ["--expect", "none", "none", "--scores", "6,0", "11111", "0"]):
        done = run("yazy", "--players", "2", *args, env=env)
        assert done.returncode == 2 and "no category is open: the game is over" in done.stderr
    done = run("yazy", "--players", "2", "--expect", "none", "none", "--scores", "281,0", env=env)
    assert done.returncode == 2 and "more than its closed categories can score (280)" in done.stderr
    assert os.listdir(tmp_path) == []  # nothing solved


def test_python_answers_from_the_table():
    from shutthebox.games.yazy.duel.table import load_duel
    from shutthebox.games.yazy.rules import Rules

    path = os.path.join(ROOT, "tests", "data", "good", "yazy-duel-ones.yazy.msgpack")
    with load_duel(Rules(categories="ones,yazy"), path) as table:
        assert [table.probe_win("none", "none", scores) for scores in ("53,3", "51,51", (2, 50))] == [1.0, 0.5, 0.0]
        assert table.get_move("none", "none", "0,0", "11111", 0) is None
        try:
            table.probe_win("none", "none", "6,0")
        except InvalidQuery as error:
            assert "not a sum" in str(error)
        else:
            raise AssertionError("6 is no total of ones and yazy")
