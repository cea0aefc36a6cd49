"""The toggle game (Project Euler 640): published values, an exact solve with Fractions on tiny
games, the shipped table checked by a Bellman sweep, its moves optimal and tie-broken, the command."""

import os
from fractions import Fraction

import pytest

from conftest import run
from shutthebox.games.toggle.rules import Rules
from shutthebox.games.toggle.solver import TIE, solve
from shutthebox.games.toggle.table import load


def choices(cards, x, y):
    return sorted({card for card in (x, y, x + y) if card <= cards})


def exact_solve(cards, sides):
    """Optimal expected rolls as Fractions, by policy iteration with exact linear solves."""
    size = 1 << cards
    dice = [(x, y) for x in range(1, sides + 1) for y in range(1, sides + 1)]

    def successor(state, card):
        return state ^ (1 << (card - 1))

    # A proper first policy: turn the highest face-up card the dice allow, else the lowest card allowed.
    policy = {}
    for state in range(1, size):
        for x, y in dice:
            options = choices(cards, x, y)
            up = [card for card in options if state >> (card - 1) & 1]
            policy[state, x, y] = up[-1] if up else (options[0] if options else None)
    while True:
        values = evaluate_exactly(size, dice, policy, successor)
        changed = False
        for state in range(1, size):
            for x, y in dice:
                options = choices(cards, x, y)
                if not options:
                    continue
                best = min(values[successor(state, card)] for card in options)
                if values[successor(state, policy[state, x, y])] > best:
                    policy[state, x, y] = max(card for card in options if values[successor(state, card)] == best)
                    changed = True
        if not changed:
            return values


def evaluate_exactly(size, dice, policy, successor):
    """V = 1 + P V on the non-goal states, by Gauss-Jordan elimination over Fractions."""
    n = size - 1
    matrix = [[Fraction(0)] * n + [Fraction(1)] for _ in range(n)]
    share = Fraction(1, len(dice))
    for state in range(1, size):
        row = matrix[state - 1]
        row[state - 1] += 1
        for x, y in dice:
            card = policy[state, x, y]
            target = state if card is None else successor(state, card)
            if target:
                row[target - 1] -= share
    return [Fraction(0)] + gauss_jordan(matrix)


def gauss_jordan(matrix):
    """The solution of the linear system whose augmented rows are ``matrix`` (Fractions; changed in place)."""
    n = len(matrix)
    for column in range(n):
        pivot = next(r for r in range(column, n) if matrix[r][column] != 0)
        matrix[column], matrix[pivot] = matrix[pivot], matrix[column]
        lead = matrix[column][column]
        matrix[column] = [value / lead for value in matrix[column]]
        for r in range(n):
            if r != column and matrix[r][column] != 0:
                factor = matrix[r][column]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[column])]
    return [matrix[r][n] for r in range(n)]


def test_the_published_values():
    assert "%.6f" % load(Rules(12, 6)).probe_expect("all") == "50.317928"
    assert "%.6f" % load(Rules(4, 2)).probe_expect("all") == "5.673651"


@pytest.mark.parametrize("cards, sides", [(1, 2), (2, 2), (3, 2), (4, 2), (3, 3), (5, 3), (4, 3)])
def test_the_solver_agrees_with_an_exact_solve(cards, sides):
    exact = exact_solve(cards, sides)
    solution = solve(Rules(cards, sides))
    for state, value in enumerate(exact):
        assert abs(solution.rolls[state] - float(value)) <= solution.bound[state], (state, value)
        assert "%.6f" % solution.rolls[state] == "%.6f" % value


def test_the_shipped_table_is_a_fixed_point_and_its_moves_are_optimal():
    """One Bellman sweep, in plain Python, from the shipped values gives them back; every stored card
    reaches the best successor, and is the highest of the equally good cards."""
    table = load()
    table.preload()
    rules = table.rules
    values = table.file.whole("rolls").tolist()
    flips = table.file.whole("flip")
    dice = [(x, y) for x in range(1, rules.sides + 1) for y in range(1, rules.sides + 1)]
    worst = 0.0
    for state in range(1, rules.states):
        total = 0.0
        for x, y in dice:
            options = {card: values[state ^ (1 << (card - 1))] for card in choices(rules.cards, x, y)}
            best = min(options.values())
            total += best
            card = flips[(state * rules.sides + x - 1) * rules.sides + y - 1]
            assert options[card] <= best + TIE
            assert card == max(c for c, value in options.items() if value <= best + TIE)
        worst = max(worst, abs(1 + total / len(dice) - values[state]))
    assert worst < 1e-11
    assert values[0] == 0 and all(flips[i] == 0 for i in range(len(dice)))


@pytest.mark.parametrize("argv, words", [
    (["--expect", "13,"], "no card 13"), (["--expect", "1,1"], "listed twice"), (["--expect", "12"], "ambiguous"),
    (["--move", "all", "7", "1"], "1 to 6"), (["--move", "none", "1", "1"], "game is over"),
    (["--move", "all", "1"], "takes STATE X Y"), (["--expect", "all", "3"], "takes STATE"),
    (["--bogus"], "unknown option"), ([], "no question"), (["--cards", "0", "--expect", "all"], "--cards"),
    (["--sides", "x", "--expect", "all"], "--sides"), (["--cards", "9", "--sides", "4", "--expect", "all"], "above 8"), (["--expect", "9" * 5000], "too long"),
    (["--move", "all", "9" * 5000, "1"], "out of range"),
])
def test_bad_questions_are_one_line_and_status_2(argv, words):
    result = run("toggle", *argv)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and words in result.stderr, result.stderr


def test_other_games_are_solved_on_first_use_and_cached(tmp_path):
    env = {"SHUTTHEBOX_CACHE": str(tmp_path)}
    first = run("toggle", "--cards", "5", "--sides", "3", "--expect", "all", env=env)
    assert first.returncode == 0 and os.path.exists(tmp_path / "toggle-c5-s3.msgpack")
    assert first.stdout.strip() == "%.6f" % exact_solve(5, 3)[31]


def test_strategies_exact_values_agree_with_fractions_and_monte_carlo(tmp_path):
    from shutthebox.games.toggle import analysis

    rules = Rules(4, 2)
    dice = [(x, y) for x in (1, 2) for y in (1, 2)]
    policy = {(state, x, y): analysis.highest_face_up(state, x, y, choices(4, x, y), None)
              for state in range(1, 16) for x, y in dice}
    exact = evaluate_exactly(16, dice, policy, lambda state, card: state ^ (1 << (card - 1)))
    values = analysis.exact_values(rules, analysis.highest_face_up)
    assert all(abs(values[state] - float(exact[state])) < 1e-9 for state in range(16))
    for name, _, value, (mean, half, cut) in analysis.analyse(rules, 4000, 7, progress=False):
        assert abs(mean - value) <= half and cut == 0, name
    assert analysis.report_main(["--cards", "4", "--sides", "2", "--games", "200", "--out", str(tmp_path)]) == 0
    assert "5.673651" in (tmp_path / "report.md").read_text() and (tmp_path / "strategies.svg").exists()


def test_a_failed_solver_check_on_first_use_is_one_line_and_no_table(tmp_path, monkeypatch, capsys):
    from shutthebox.cli import main
    from shutthebox.games.toggle import build

    def failing(rules):
        raise AssertionError("toggle %r: ties are not clear" % (rules,))

    monkeypatch.setenv("SHUTTHEBOX_CACHE", str(tmp_path))
    monkeypatch.setattr(build, "solve_table", failing)
    assert main(["toggle", "--cards", "5", "--sides", "4", "--expect", "all"]) == 3
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("ShutTheBox: cannot solve table toggle-c5-s4.msgpack: toggle Rules(cards=5, sides=4)")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("cards, sides", [(4, 2), (5, 3), (6, 4), (8, 6), (7, 12)])
def test_policy_iteration_writes_the_bytes_value_iteration_writes(cards, sides):
    from shutthebox.games.toggle import build

    assert build.solve_table(Rules(cards, sides), "policy") == build.solve_table(Rules(cards, sides), "value")


def test_an_unknown_method_is_refused():
    with pytest.raises(ValueError, match="value, policy"):
        solve(Rules(4, 2), "newton")
