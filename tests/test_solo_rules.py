"""Single-player tables for any rule set: brute force with the optional and high one-die rules, tables solved
on first use and cached, their names, the API and the command line's game options with --solo."""

from __future__ import annotations

import os
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product

import pytest

from conftest import ROOT, run

import shutthebox
from shutthebox.engine.writer import printed_float
from shutthebox.games.shutthebox import DECLARATION
from shutthebox.games.shutthebox.rules import Rules
from shutthebox.games.shutthebox.solo.solver import solve_solo
from shutthebox.games.shutthebox.solo.rules import estimate
from shutthebox.games.shutthebox.solo.table import VARIANTS, load_solo, table_name

FAMILY = DECLARATION.tables[1]


class NaiveChoice:
    """One player, both objectives, with every one-die rule: the player may choose the dice where the rules
    allow (``optional``), one die also once every tile above 6 is shut (``high``). Shares no code with
    shutthebox: faces enumerated, moves from itertools, the tie-breaks written out."""

    def __init__(self, tiles, sides, dice, at_most, optional=False, high=False, most=None):
        self.tiles, self.sides, self.dice, self.at_most = tiles, sides, dice, at_most
        self.optional, self.high, self.most = optional, high, most
        self.value = lru_cache(maxsize=None)(self._value)

    def dice_counts(self, open_tiles):
        few = (self.at_most is not None and sum(open_tiles) <= self.at_most) or (
            self.high and all(t <= 6 for t in open_tiles))
        if not few:
            return [self.dice]
        return [self.dice, 1] if self.optional else [1]

    def chances(self, count):
        totals = Counter(sum(faces) for faces in product(range(1, self.sides + 1), repeat=count))
        return {roll: Fraction(n, self.sides**count) for roll, n in totals.items()}

    def moves(self, open_tiles, roll):
        most = len(open_tiles) if self.most is None else self.most
        found = [c for k in range(1, most + 1) for c in combinations(open_tiles, k) if sum(c) == roll]
        return sorted(found, key=lambda c: sorted(c, reverse=True), reverse=True)  # highest tiles first

    def best_move(self, open_tiles, roll, objective):
        chosen = None
        for move in self.moves(open_tiles, roll):
            v = self.value(tuple(t for t in open_tiles if t not in move), objective)
            if chosen is None or (v > chosen[0] if objective == "shut" else v < chosen[0]):
                chosen = (v, move)
        return chosen

    def throw(self, open_tiles, count, objective):
        total = Fraction(0)
        for roll, chance in self.chances(count).items():
            found = self.best_move(open_tiles, roll, objective)
            end = 0 if objective == "shut" else sum(open_tiles)
            total += chance * (found[0] if found else end)
        return total

    def best_dice(self, open_tiles, objective):
        """(value, dice): all the dice on equal values."""
        best = None
        for count in self.dice_counts(open_tiles):
            v = self.throw(open_tiles, count, objective)
            if best is None or (v > best[0] if objective == "shut" else v < best[0]):
                best = (v, count)
        return best

    def _value(self, open_tiles, objective):
        if not open_tiles:
            return Fraction(1) if objective == "shut" else Fraction(0)
        return self.best_dice(open_tiles, objective)[0]


def tiles_of(mask):
    return tuple(i + 1 for i in range(16) if mask >> i & 1)


CHOICES = [
    dict(tiles=5, sides=3, dice=2, at_most=4, optional=True),
    dict(tiles=6, sides=4, dice=2, at_most=6, optional=True, most=2),
    dict(tiles=7, sides=4, dice=2, at_most=None, high=True),
    dict(tiles=7, sides=3, dice=2, at_most=5, optional=True, high=True),
    dict(tiles=6, sides=2, dice=3, at_most=5, optional=True),
]


def rules_of(fields):
    return Rules(tiles=fields["tiles"], sides=fields["sides"], dice=fields["dice"],
                 one_die_at_most=fields["at_most"], max_move_tiles=fields.get("most"),
                 one_die_optional=fields.get("optional", False), one_die_high_shut=fields.get("high", False))


@pytest.mark.parametrize("fields", CHOICES, ids=lambda f: rules_of(f).key())
def test_every_one_die_rule_matches_brute_force_values_moves_and_dice(fields):
    rules = rules_of(fields)
    naive = NaiveChoice(**fields)
    solution = solve_solo(rules)
    for position in range(1, 1 << rules.tiles):
        open_tiles = tiles_of(position)
        for objective in ("shut", "score"):
            value, dice = naive.best_dice(open_tiles, objective)
            assert solution.value(position, objective) == value, (open_tiles, objective)
            assert solution.dice(position, objective) == dice, (open_tiles, objective)
            for roll in range(rules.max_roll + 1):
                found = naive.best_move(open_tiles, roll, objective)
                shown = any(roll in naive.chances(count) for count in naive.dice_counts(open_tiles))
                expected = sum(1 << (t - 1) for t in found[1]) if found and shown else 0
                assert solution.move(position, roll, objective) == expected, (open_tiles, roll, objective)


def test_an_optional_rule_set_is_solved_on_first_use_with_its_dice(private_cache):
    rules = rules_of(CHOICES[3])
    table = load_solo(rules=rules)
    assert os.path.dirname(table.path) == private_cache
    assert os.path.basename(table.path) == "solo-t7-2d3-opt5-high.msgpack" == table_name(rules)
    naive = NaiveChoice(**CHOICES[3])
    for position in range(1, 1 << rules.tiles):
        for objective in ("shut", "score"):
            value, dice = naive.best_dice(tiles_of(position), objective)
            assert table.expect(tiles_of(position), objective) == printed_float(value.numerator, value.denominator)
            assert table.dice(tiles_of(position), objective) == dice
    assert load_solo(rules=rules, build=False).path == table.path  # the cached table, not solved again


@pytest.mark.parametrize("rules", [Rules(tiles=10), Rules(tiles=4, dice=1, sides=20, one_die_at_most=None),
                                   pytest.param(Rules(tiles=12, dice=3, sides=4, one_die_at_most=None,
                                                      max_move_tiles=3), marks=pytest.mark.slow),
                                   rules_of(CHOICES[1])], ids=Rules.key)
def test_tables_of_other_rules_hold_the_solver_values_and_fit_their_estimate(rules):
    table = shutthebox.load_solo(rules=rules)
    solution = solve_solo(rules)
    d = solution.denominator
    for position in range(1, 1 << rules.tiles, 7):
        # The float whose %.6f prints the exact value rounded half to even (docs/FORMAT.md), next to it.
        assert table.shut_probability(tiles_of(position)) == printed_float(solution.shut[position], d)
        assert table.expected_score(tiles_of(position)) == printed_float(solution.score[position], d)
        assert abs(table.expected_score(tiles_of(position)) - solution.expected_score(position)) < 1e-12
        for roll in range(rules.max_roll + 1):
            assert table.move_mask(position, roll, "shut") == solution.shut_moves[position][roll]
            assert table.move_mask(position, roll, "score") == solution.score_moves[position][roll]
    size = estimate(rules).size
    assert size <= os.path.getsize(table.path) <= size * 1.01 + 8192
    assert table.variant is None and table.rules == rules


def test_names_round_trip_and_the_named_rule_sets_keep_their_files():
    for name, rules in VARIANTS.items():
        assert table_name(rules) == table_name(name) == "solo-%s.msgpack" % name
        assert FAMILY.parse("solo-%s.msgpack" % name) == rules
    for rules in (Rules(tiles=10), Rules(tiles=12, one_die_at_most=6, one_die_optional=True, one_die_high_shut=True,
                                         max_move_tiles=2), Rules(dice=1, one_die_at_most=None)):
        name = table_name(rules)
        assert name.startswith("solo-t") and FAMILY.parse(name) == rules
    with pytest.raises(shutthebox.InvalidQuery, match="the table of these rules is solo-standard.msgpack"):
        FAMILY.parse("solo-t9-2d6-one6.msgpack")
    assert FAMILY.parse("solo-nothing.msgpack") is None and FAMILY.parse("t9-2d6-one6-p2.msgpack") is None
    assert DECLARATION.tables[0].parse("solo-t10-2d6-one6.msgpack") is None
    assert FAMILY.first_use and hasattr(FAMILY.rules(), "estimate")


def test_the_api_keeps_its_old_calls_and_takes_rules():
    assert shutthebox.load_solo().rules == VARIANTS["standard"]
    assert shutthebox.load_solo("two-dice").variant == "two-dice"
    path = os.path.join(ROOT, "data", "solo-two-tiles.msgpack")
    assert shutthebox.load_solo(None, path).rules == VARIANTS["two-tiles"]
    assert shutthebox.load_solo(path=path).variant == "two-tiles"
    assert shutthebox.load_solo("two-dice", rules=Rules(one_die_at_most=None)).variant == "two-dice"
    assert shutthebox.load_solo(rules=Rules(max_move_tiles=2)).path.endswith("solo-two-tiles.msgpack")
    with pytest.raises(shutthebox.InvalidQuery, match="variant two-dice is tiles 1-9, 2 dice with 6 sides, not"):
        shutthebox.load_solo("two-dice", rules=Rules())
    with pytest.raises(shutthebox.InvalidQuery, match="rules must be a shutthebox Rules object"):
        shutthebox.load_solo(rules="t10")
    with pytest.raises(shutthebox.TableError, match="as asked"):
        shutthebox.load_solo(path=path, rules=Rules(tiles=10))
    with pytest.raises(shutthebox.InvalidQuery, match="at most 12 tiles"):
        shutthebox.load_solo(rules=Rules(tiles=13))
    assert shutthebox.load_solo().dice("12") == 1 and shutthebox.load_solo().dice("123456789") == 2


# -- the command line: the game options choose a single player's rules ------------------------------


@pytest.mark.parametrize("options, question", [
    (["--tiles", "10"], ["--expect", "1,2,3,4,5,6,7,8,9,10"]),
    (["--tiles", "10"], ["--move", "1,2,3,4,5,6,7,8,9,10", "11", "--objective", "score"]),
    (["--one-die", "never"], ["--expect", "124"]),
    (["--dice", "3", "--sides", "4", "--one-die", "optional:5"], ["--move", "123456", "9"]),
    (["--max-move-tiles", "2", "--one-die", "high"], ["--expect", "12345678", "--objective", "score"]),
])
def test_game_options_choose_the_rules_of_solo_questions(options, question):
    from shutthebox.games.shutthebox.rules import rules_from_options

    game = {options[i]: options[i + 1] for i in range(0, len(options), 2)}
    rules, _ = rules_from_options(game)
    table = shutthebox.load_solo(rules=rules)
    objective = question[question.index("--objective") + 1] if "--objective" in question else "shut"
    if question[0] == "--expect":
        expected = "%.6f" % table.expect(question[1], objective)
    else:
        expected = "[%s]" % ", ".join(map(str, table.move(question[1], int(question[2]), objective)))
    result = run(*options, "--solo", *question)
    assert (result.returncode, result.stdout, result.stderr) == (0, expected + "\n", "")


def test_a_variant_and_game_options_must_agree():
    agree = run("--one-die", "never", "--solo", "--expect", "124", "--variant", "two-dice")
    assert (agree.returncode, agree.stdout) == (0, "0.182099\n")
    agree = run("--tiles", "9", "--max-move-tiles", "2", "--solo", "--expect", "123456789", "--variant", "two-tiles")
    assert agree.stdout == run("--solo", "--expect", "123456789", "--variant", "two-tiles").stdout
    for args, message in [
        (["--tiles", "10", "--solo", "--expect", "1", "--variant", "two-dice"],
         "--variant two-dice is tiles 1-9, 2 dice with 6 sides, but the game options say tiles 1-10"),
        (["--players", "3", "--solo", "--expect", "1"], "--solo is the single-player game: drop --players"),
        (["--tiles", "13", "--solo", "--expect", "1"], "--tiles"),
        (["--dice", "1", "--one-die", "6", "--solo", "--expect", "1"], "these rules do not make a game"),
        (["--tiles", "10", "--solo", "--move", "1,2,3", "1", "--one-die", "never"], "roll 1 is impossible"),
    ]:
        result = run(*args)
        assert result.returncode == 2 and result.stdout == "", (args, result.stderr)
        assert result.stderr.startswith("ShutTheBox: ") and message in result.stderr, (args, result.stderr)
        assert result.stderr.count("\n") == 1


def test_rules_and_batch_take_the_game_options(private_cache):
    described = run("--tiles", "8", "--rules", "--solo")
    assert described.returncode == 0 and "solo-t8-2d6-one6.msgpack" in described.stdout
    assert "tiles 1-8" in described.stdout and "one-player" in described.stdout
    lines = "--solo --expect 1,2,3,4,5,6,7,8\n--solo --move 1,2,3,4 9 --objective score\n\n--solo --expect 9\n"
    batch = run("--tiles", "11", "--batch", stdin=lines)
    table = shutthebox.load_solo(rules=Rules(tiles=11))
    move = "[%s]" % ", ".join(map(str, table.move("1,2,3,4", 9, "score")))
    assert batch.stdout.splitlines()[:3] == ["%.6f" % table.expect("1,2,3,4,5,6,7,8"), move, ""]
    assert batch.stdout.splitlines()[3] == "%.6f" % table.expect("9") and batch.returncode == 0
    # Single-player lines alone do not open (nor solve) the game options' two-player table.
    assert not os.path.exists(os.path.join(private_cache, "t11-2d6-one6-p2.msgpack"))


@pytest.mark.slow
@pytest.mark.parametrize("rules", [Rules(tiles=10), Rules(tiles=12, dice=3, sides=4, one_die_at_most=None,
                                                                max_move_tiles=3),
                                   Rules(tiles=8, one_die_at_most=None, one_die_high_shut=True)], ids=Rules.key)
def test_tables_too_big_for_brute_force_hold_what_their_optimal_play_simulates(rules):
    """Seeded: optimal play of each objective, simulated from the table's moves (and dice), lands its 95%
    intervals on the table's exact values."""
    from shutthebox.games.shutthebox.solo.simulate import simulate
    from shutthebox.games.shutthebox.solo.strategies import make

    table = shutthebox.load_solo(rules=rules)
    start = tiles_of(rules.all_open)
    low, high = simulate(make("optimal", rules), 30_000, seed=1, progress=False).shut_interval
    assert low <= table.shut_probability(start) <= high
    low, high = simulate(make("optimal-score", rules), 30_000, seed=1, progress=False).score_interval
    assert low <= table.expected_score(start) <= high
