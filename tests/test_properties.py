"""Property tests: no command line gives a traceback; the table obeys the game."""

import io

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from shutthebox import cli
from shutthebox.engine.command import run_batch
from shutthebox.games.shutthebox.grammar import open_game
from shutthebox.games.shutthebox.rules import STANDARD, moves_by_roll, tile_sums

HUGE = "9" * 5000
TOKENS = st.one_of(
    st.sampled_from(["--one", "--two", "--expect", "--move", "--batch", "--rules", "--table", "--table=", "-h",
                     "--version", "--scores", "--solo", "--variant", "--objective", "--tiles", "--players", "--dice",
                     "--sides", "--one-die", "123456789", "146789", "13456789", "0", "17", "12", "12,", "45", "46",
                     "-1", "7", "", " ", "1,2", "x", HUGE, "two-dice", "optional:6", "never", "x" * 200, "\x1b[31m",
                     "é", "toggle", "goat", "yazy"]),
    st.text(alphabet="0123456789-,.x ", max_size=12),
    st.integers(-100, 100).map(str),
    st.text(max_size=12),
)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(argv=st.lists(TOKENS, max_size=7))
def test_no_command_line_gives_a_traceback(argv, capsys, monkeypatch):
    """Answered (exit 0; 1 when a batch line failed: its error is on stdout) or refused in one line."""
    if argv[:1] == ["serve"]:
        return  # it listens; tests/test_serve.py
    if "--players" in argv or ("--tiles" in argv and {"--one-die", "--dice", "--sides"} & set(argv)):
        return  # a big game would be solved first: slow, and covered by tests/test_variants.py
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"--one --expect 1\n")))
    status = cli.main(argv)
    out, err = capsys.readouterr()
    assert status in (0, 1, 2, 3)
    if status in (2, 3):
        assert out == "" and err.startswith("ShutTheBox: ") and err.count("\n") == 1
    else:
        assert err == "" and out != ""


@pytest.mark.slow
@SETTINGS
@given(lines=st.lists(st.lists(TOKENS, max_size=6).map(" ".join), max_size=20))
def test_batch_gives_one_answer_line_per_query_line(lines, table):
    out = io.StringIO()
    data = "\n".join(lines).encode()
    status = run_batch(open_game({}, table.path), io.BufferedReader(io.BytesIO(data)), out)
    answers = out.getvalue().split("\n")
    # Lines end at "\n" only; a last line without one still counts.
    queries = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    assert answers[-1] == "" and len(answers) - 1 == queries
    assert status == (1 if any(a.startswith("error: ") for a in answers) else 0)


SUMS = tile_sums(STANDARD.tiles)
positions = st.integers(1, STANDARD.all_open)
scores = st.integers(1, STANDARD.max_score)


@settings(max_examples=500, deadline=None)
@given(position=positions, score=scores, roll=st.integers(1, 12))
def test_stored_moves_are_best_and_tie_broken(table, position, score, roll):
    low, high = table.roll_range(position)
    legal = moves_by_roll(STANDARD, position, SUMS).get(roll, []) if low <= roll <= high else []
    scores_n, rolls_n = STANDARD.max_score + 1, STANDARD.max_roll + 1
    for stored, value in [
        (table._m1[position * rolls_n + roll], lambda move: table._e1[position & ~move]),
        (table._m2[(position * scores_n + score) * rolls_n + roll], lambda move: table._e2[(position & ~move) * scores_n + score]),
    ]:
        if not legal:
            assert stored == 0
            continue
        assert stored in legal
        best = max(value(move) for move in legal)
        assert value(stored) == best
        # Exactly equal values (float equality is exact equality here: the
        # floats come from the same rationals) keep the highest tiles.
        assert stored == max(move for move in legal if value(move) == best)


@settings(max_examples=300, deadline=None)
@given(position=positions, score=st.integers(1, STANDARD.max_score - 1))
def test_values_are_chances_and_a_higher_score_to_beat_never_hurts(table, position, score):
    assert 0.0 <= table.expect_one(position_text(position)) <= 1.0
    lower, higher = table.expect_two(position_text(position), score), table.expect_two(position_text(position), score + 1)
    assert 0.0 <= lower <= higher <= 1.0
    if SUMS[position] < score:
        assert lower == 1.0  # already below player one's score


def position_text(mask):
    return "".join(str(tile) for tile in range(1, 10) if mask >> (tile - 1) & 1)
