"""Threes and the set-aside dice family: the table against an independent brute force in exact fractions,
the questions on the command line and in Python, and the game model's exact values."""

import random
from fractions import Fraction
from functools import lru_cache
from itertools import product

import pytest

from shutthebox import registry
from shutthebox.engine.families.setaside import SetAside
from shutthebox.engine.families.setaside.build import solve
from shutthebox.engine.families.setaside.rules import rules_class
from shutthebox.engine.model import CHANCE, TERMINAL, GameModel
from shutthebox.errors import InvalidQuery

THREES = {1: 1, 2: 2, 3: 0, 4: 4, 5: 5, 6: 6}


def brute_force(dice: int, sides: int, points: dict, lowest: bool = True):
    """E(n) for n = 0 .. dice and the best set-aside of every ordered roll, by the definition: every ordered
    roll of n dice (sides ** n of them, equally likely), every non-empty subset of its positions. Ties: more
    dice, then the lower faces (sorted), as the family's rule says."""
    better = min if lowest else max

    @lru_cache(maxsize=None)
    def expect(n: int) -> Fraction:
        if n == 0:
            return Fraction(0)
        total = Fraction(0)
        for roll in product(range(1, sides + 1), repeat=n):
            total += best(roll)[0]
        return total / sides ** n

    def best(roll):
        choices = []
        for bits in range(1, 1 << len(roll)):
            kept = sorted(roll[i] for i in range(len(roll)) if bits >> i & 1)
            choices.append((sum(points.get(face, face) for face in kept) + expect(len(roll) - len(kept)), kept))
        value = better(value for value, _ in choices)
        tied = [kept for v, kept in choices if v == value]
        most = max(len(kept) for kept in tied)
        return value, min(kept for kept in tied if len(kept) == most)

    return expect, best


def rules_of(dice, sides, points, lowest=True):
    spec = SetAside("test", dice=dice, sides=sides, points=points, lowest=lowest)
    return rules_class(spec)()


@pytest.mark.parametrize("dice, sides, points, lowest", [
    (5, 6, {3: 0}, True),  # Threes
    (3, 4, {}, True),
    (4, 3, {2: 5}, False),  # the highest total, a face worth more than its pips
    (3, 5, {1: 4, 4: 4}, True),  # two faces of equal points: the tie rule's lower face
])
def test_the_solver_agrees_with_a_brute_force(dice, sides, points, lowest):
    expect, best = brute_force(dice, sides, points, lowest)
    solution = solve(rules_of(dice, sides, points, lowest))
    assert solution.expect == [expect(n) for n in range(dice + 1)]
    rows = iter(solution.moves)
    for n in range(1, dice + 1):
        for roll in sorted({tuple(sorted(roll)) for roll in product(range(1, sides + 1), repeat=n)}):
            mask = next(rows)
            assert sorted(roll[i] for i in range(n) if mask >> i & 1) == best(roll)[1], roll
    assert next(rows, None) is None


def test_the_expected_total_of_threes():
    expect, _ = brute_force(5, 6, {3: 0})
    table = registry.declaration("threes").tables[0].table().load()
    assert Fraction(*table.exact()) == expect(5)
    assert "%.6f" % table.probe_expect() == "%.6f" % float(expect(5)) == "6.253979"


def test_every_roll_of_the_shipped_table_by_brute_force():
    expect, best = brute_force(5, 6, {3: 0})
    table = registry.declaration("threes").tables[0].table().load()
    for n in range(1, 6):
        for roll in sorted({tuple(sorted(roll)) for roll in product(range(1, 7), repeat=n)}):
            value, kept = best(roll)
            assert list(table.probe_move(roll)) == kept, roll
            assert Fraction(*table.exact(roll)) == value, roll


def test_options_list_every_set_of_faces_once():
    table = registry.declaration("threes").tables[0].table().load()
    options = table.probe_options("3356")
    kept = [faces for faces, _ in options]
    assert len(kept) == len(set(kept)) == 2 * 2 * 3 - 1  # (0..2 threes) x (0..1 five) x (0..1 six), not none
    assert options[0][0] == table.probe_move("6353")
    assert [value for _, value in options] == sorted(value for _, value in options)


@pytest.mark.parametrize("dice, message", [
    ("", "write the dice"), ("1x", "write the dice"), ("17", "a die shows 1 to 6, not 7"),
    ("123456", "the game has 5 dice, not 6"), ("0", "a die shows 1 to 6, not 0"),
])
def test_bad_dice_are_refused(dice, message):
    table = registry.declaration("threes").tables[0].table().load()
    with pytest.raises(InvalidQuery, match=message):
        table.probe_move(dice)
    assert table.get_move(dice) is None


def test_faces_above_nine_need_commas():
    rules = registry.declaration("threes").tables[0].rules().Rules(dice=3, sides=12)
    assert rules.parse_dice("12,1,5") == (1, 5, 12) and rules.parse_dice("12,") == (12,)
    with pytest.raises(InvalidQuery, match="separate the dice with commas"):
        rules.parse_dice("121")


def test_the_model_plays_the_table():
    model = registry.declaration("threes").model()
    assert isinstance(model, GameModel)
    start = model.initial()
    assert model.player(start) == CHANCE
    outcomes, total = model.outcomes(start)
    assert total == 6 ** 5 and sum(weight for _, weight in outcomes) == total and len(outcomes) == model.n_outcomes
    # The value at a chance node is the mean of its outcomes' values, exactly as far as floats go.
    mean = sum(weight * model.value(model.apply(start, outcome))[0] for outcome, weight in outcomes) / total
    assert mean == pytest.approx(model.value(start)[0], abs=1e-12)
    rng = random.Random(7)
    for _ in range(200):
        state = start
        while model.player(state) != TERMINAL:
            if model.player(state) == CHANCE:
                state = model.apply(state, rng.randrange(len(model.outcomes(state)[0])))
                continue
            values = model.values(state)
            assert sorted(values) == model.legal(state) and model.best(state) in values
            assert values[model.best(state)] == max(values.values()) == model.value(state)[0]
            state = model.apply(state, rng.choice(model.legal(state)))
        assert model.returns(state)[0] <= 0 and model.value(state) == model.returns(state)


def test_the_help_examples_and_the_python_example_of_the_docs():
    """The examples ``--help`` shows (the declaration's) are what the command answers; docs/THREES.md's Python
    block runs as shown."""
    import doctest
    import os
    import re

    from conftest import ROOT

    for name in registry.GAMES:
        declaration = registry.declaration(name)
        if declaration.hooks is None:
            continue
        session = declaration.grammar_module().open_game({}, None)
        for question, answer in declaration.hooks.examples:
            assert session.answer(question.split()) == answer, (name, question)
            assert "$ ShutTheBox %s %s\n      %s\n" % (name, question, answer) in declaration.grammar_module().HELP
    with open(os.path.join(ROOT, "docs", "THREES.md"), encoding="utf-8") as handle:
        [block] = re.findall(r"```python\n(.*?)```", handle.read(), re.S)
    test = doctest.DocTestParser().get_doctest(block, {}, "THREES.md", "docs/THREES.md", 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("change", [
    {"numerators": "0,1,2,3,4,5"},  # not the floats' values
    {"denominator": "1", "numerators": ",".join(["0"] + ["9" * 400] * 5)},  # too large for a float
    {"denominator": "0"},
    {"numerators": "0,x"},
    {"denominator": None},
])
def test_a_forged_header_is_refused_with_exit_3(change, tmp_path):
    """Checksums right, exact values wrong or malformed: one line, exit 3, never an answer or a traceback."""
    import subprocess
    import sys

    import msgpack
    from conftest import COMMAND, ROOT
    from forge import resigned

    with open(f"{ROOT}/data/threes-d5-s6.msgpack", "rb") as handle:
        fields = msgpack.unpackb(handle.read(), raw=False)

    def forge(header):
        for key, value in change.items():
            if value is None:
                del header[key]
            else:
                header[key] = value

    path = tmp_path / "threes-d5-s6.msgpack"
    path.write_bytes(resigned(fields, forge))
    done = subprocess.run([sys.executable, COMMAND, "threes", "--table", str(path), "--expect"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 3 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert "no exact values" in done.stderr
