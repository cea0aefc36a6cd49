"""Strategies: the interface, the reference's orderings, exact evaluation against brute force."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import pytest

from shutthebox.games.shutthebox.rules import Rules
from shutthebox.games.shutthebox.solo.solver import Throws, evaluate
from shutthebox.games.shutthebox.solo.table import VARIANTS
from shutthebox.games.shutthebox.solo.strategies import STRATEGIES, Strategy, make

from bruteforce import Naive, mask, tiles_of

STANDARD = VARIANTS["standard"]
ALL = mask(range(1, 10))


def test_greedy_closes_the_highest_tile_then_the_fewest_tiles():
    greedy = make("greedy", STANDARD)
    assert greedy.choose(ALL, 10) == mask((1, 9))
    assert greedy.choose(mask((1, 2, 3, 4, 5)), 7) == mask((2, 5))
    # highest tile 9 either way; 4 tiles beat [1, 2, 4, 5, 9]; among 4-tile moves the highest tiles
    assert greedy.choose(mask((1, 2, 3, 4, 5, 6, 9)), 21) == mask((1, 5, 6, 9))
    assert greedy.choose(mask((1, 2)), 9) == 0


def test_max_tiles_closes_the_most_tiles_then_the_highest_tile():
    max_tiles = make("max-tiles", STANDARD)
    assert max_tiles.choose(ALL, 10) == mask((1, 2, 3, 4))
    assert max_tiles.choose(ALL, 12) == mask((1, 2, 3, 6))  # highest tile 6 beats [1, 2, 4, 5]
    assert max_tiles.choose(mask((2, 3, 4, 5, 6, 7, 8, 9)), 12) == mask((2, 3, 7))


def test_most_options_counts_playable_totals_on_the_open_tiles():
    most = make("most-options", STANDARD)
    assert most.options(mask((1, 2))) == 3  # one die: 1, 2, 3 can be played
    assert most.options(mask((3, 4, 5))) == 7  # two dice (sum 12): 3, 4, 5, 7, 8, 9, 12
    assert make("most-options", VARIANTS["two-dice"]).options(mask((1, 2))) == 2  # 2, 3
    assert most.choose(mask((1, 2, 3, 4, 5)), 7) == mask((3, 4))  # leaves 125: 1,2,3,5,6,7,8 (one die: 1-6)
    assert most.choose(mask((1, 2, 3)), 6) == mask((1, 2, 3))  # shutting the box beats everything


def test_random_is_seeded_and_uniform_in_its_exact_choices():
    a, b = make("random", STANDARD, seed=5), make("random", STANDARD, seed=5)
    picks = [a.choose(ALL, 12) for _ in range(50)]
    assert picks == [b.choose(ALL, 12) for _ in range(50)]
    assert len(set(picks)) > 3
    choices = a.choices(ALL, 12)
    assert sum(chance for _, chance in choices) == 1 and len({c for _, c in choices}) == 1


def test_registry_builds_every_strategy_and_a_new_one_plugs_in():
    for name in STRATEGIES:
        strategy = make(name, STANDARD, seed=1)
        assert strategy.name == name and strategy.choose(ALL, 7)

    class LowestFirst(Strategy):
        name = "lowest-first"

        def key(self, position, move):
            return -(move & -move)

    STRATEGIES["lowest-first"] = LowestFirst
    try:
        strategy = make("lowest-first", STANDARD)
        assert strategy.choose(ALL, 7) == mask((1, 6))
        assert 0 < evaluate(strategy).start_shut < 1
    finally:
        del STRATEGIES["lowest-first"]


def test_unknown_strategy():
    from shutthebox.errors import InvalidQuery

    with pytest.raises(InvalidQuery, match="unknown strategy 'best'"):
        make("best", STANDARD)


def naive_policy_values(rules, strategy):
    """Brute force: a strategy's exact (shut, score) from every position, by plain recursion."""
    naive = Naive(**rules.as_dict())

    @lru_cache(maxsize=None)
    def value(open_tiles):
        if not open_tiles:
            return Fraction(1), Fraction(0)
        shut = score = Fraction(0)
        for roll, chance in naive.chances(open_tiles).items():
            if not naive.moves(open_tiles, roll):
                score += chance * sum(open_tiles)
                continue
            for move, p in strategy.choices(mask(open_tiles), roll):
                s, e = value(naive.after(open_tiles, tiles_of(move)))
                shut += chance * p * s
                score += chance * p * e
        return shut, score

    return value


TINY = [
    Rules(tiles=5, sides=3, one_die_at_most=None),
    Rules(tiles=6, sides=4, one_die_at_most=5),
    Rules(tiles=6, sides=4, one_die_at_most=5, max_move_tiles=2),
]


@pytest.mark.parametrize("rules", TINY, ids=repr)
@pytest.mark.parametrize("name", list(STRATEGIES))
def test_exact_evaluation_matches_brute_force(rules, name):
    strategy = make(name, rules, seed=3)
    found = evaluate(strategy, Throws(rules))
    value = naive_policy_values(rules, strategy)
    for position in range(1 << rules.tiles):
        assert (found.shut[position], found.score[position]) == value(tiles_of(position))


@pytest.mark.slow
def test_optimal_is_best_and_known_orderings_hold_on_the_real_games():
    for rules in VARIANTS.values():
        throws = Throws(rules)
        values = {name: evaluate(make(name, rules, seed=1), throws) for name in STRATEGIES}
        best_shut = values["optimal"].start_shut
        best_score = values["optimal-score"].start_score
        for name, found in values.items():
            assert found.start_shut <= best_shut and found.start_score >= best_score, name
        assert values["max-tiles"].start_shut < values["random"].start_shut < values["greedy"].start_shut


# -- the reference project's Most Options, as its code counts ------------------------------------

# The README of the reference prints sets as its Scala HashSets list them: the order of their tiles.
REFERENCE_PRINTED_SETS = [(1, 2, 4), (3, 4), (5, 2), (7,), (1, 6), (5, 1, 2), (1, 3, 4), (2, 3, 4), (5, 3),
                          (1, 2, 3, 4)]


def test_the_reference_tile_order_is_the_one_its_printed_sets_show():
    from shutthebox.games.shutthebox.solo.strategies import scala_order

    order = scala_order(9)
    assert sorted(order) == list(range(1, 10))
    for printed in REFERENCE_PRINTED_SETS:
        assert list(printed) == sorted(printed, key=order.index), printed
    assert scala_order(4) == [1, 2, 3, 4]  # Scala's Set4 keeps insertion order


@lru_cache(maxsize=None)
def scala_combinations():
    """The reference's ``combinations``: roll total -> the subsets of the tiles making it, listed by size, then as
    its set iterates the tiles (5, 1, 6, 9, 2, 7, 3, 8, 4); and its ``numValidRolls`` (weighted by the 36 throws
    of two dice) of every set of tiles."""
    elements = [5, 1, 6, 9, 2, 7, 3, 8, 4]
    combos = {}
    for k in range(1, 10):
        for c in combinations(elements, k):
            if 2 <= sum(c) <= 12:
                combos.setdefault(sum(c), []).append(frozenset(c))
    weights = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b == t) for t in range(2, 13)}
    states = [frozenset(c) for k in range(10) for c in combinations(range(1, 10), k)]
    valid_rolls = {state: sum(w for total, w in weights.items() if any(c <= state for c in combos[total]))
                   for state in states}
    return combos, valid_rolls


def scala_most_options(open_tiles: frozenset, roll: int):
    """The reference's MostOptionsStrategy, written out as its Scala reads: the valid combinations in list
    order, ``min`` by (-numValidRolls(allTiles -- combo), -max, size), which keeps the first of equals."""
    combos, valid_rolls = scala_combinations()
    everything = frozenset(range(1, 10))
    valid = [c for c in combos.get(roll, []) if c <= open_tiles]
    if not valid:
        return None
    return min(valid, key=lambda c: (-valid_rolls[everything - c], -max(c), len(c)))


def test_reference_most_options_plays_as_the_reference_code():
    rules = VARIANTS["two-dice"]
    strategy = make("most-options-reference", rules)
    for position in range(1, 512):
        open_tiles = frozenset(tiles_of(position))
        for roll in range(2, 13):
            theirs = scala_most_options(open_tiles, roll)
            assert strategy.choose(position, roll) == (mask(theirs) if theirs else 0), (sorted(open_tiles), roll)


def test_reference_most_options_exact_value_and_ours_differ():
    rules = VARIANTS["two-dice"]
    theirs = evaluate(make("most-options-reference", rules)).start_shut
    ours = evaluate(make("most-options", rules)).start_shut
    assert "%.4f%%" % (100 * theirs) == "6.7462%" and "%.4f%%" % (100 * ours) == "6.8629%"


@pytest.mark.slow
def test_the_reference_simulated_figure_lies_in_our_simulation_of_its_definition_not_of_ours():
    """The reference simulated 6.757% over a million games; a million of ours (seeded) of its definition
    hold it in their 95% interval, a million of our own Most options do not (nor does its exact value's)."""
    from shutthebox.games.shutthebox.solo.simulate import simulate

    rules = VARIANTS["two-dice"]
    theirs = simulate(make("most-options-reference", rules), 1_000_000, seed=1, progress=False)
    low, high = theirs.shut_interval
    assert low <= 0.06757 <= high
    assert low <= evaluate(make("most-options-reference", rules)).start_shut <= high
    ours = simulate(make("most-options", rules), 1_000_000, seed=1, progress=False)
    low, high = ours.shut_interval
    assert not low <= 0.06757 <= high


# -- simple rules ------------------------------------------------------------------------------


def test_the_simple_rules_choose_as_their_words_say():
    from shutthebox.games.shutthebox.solo.strategies import SIMPLE_RULES

    fewest = make("fewest-tiles", STANDARD)
    assert fewest.choose(ALL, 7) == mask((7,)) and fewest.choose(ALL, 10) == mask((1, 9))
    assert fewest.choose(mask((1, 2, 3, 4, 5)), 7) == mask((2, 5))  # two tiles, the highest
    spare = make("fewest-spare-low", STANDARD)
    assert spare.choose(ALL, 10) == mask((1, 9))  # closes the highest open tile
    assert spare.choose(mask((1, 2, 3, 4, 5, 6, 8)), 7) == mask((3, 4))  # no 8 in a pair: spare 1 and 2
    assert spare.choose(mask((1, 2, 3, 4, 5)), 7) == mask((2, 5))  # 5 is the highest open tile
    for name in SIMPLE_RULES:
        strategy = make(name, STANDARD)
        assert strategy.rule and strategy.deterministic


def test_most_options_counts_the_rolls_of_the_high_one_die_rule():
    rules = Rules(one_die_at_most=None, one_die_high_shut=True)
    most = make("most-options", rules)
    assert most.options(mask((1, 2))) == 3  # every tile above 6 shut: one die, 1, 2, 3
    assert most.options(mask((1, 7))) == 2  # a tile above 6 open: two dice, 7 and 8


def test_a_strategy_throws_all_the_dice_unless_it_knows_better():
    rules = Rules(tiles=6, sides=4, one_die_at_most=6, one_die_optional=True)
    from shutthebox.games.shutthebox.solo.solver import solve_solo

    solution = solve_solo(rules)
    optimal = make("optimal", rules)
    assert make("greedy", rules).dice(mask((1, 2))) == 2
    assert [optimal.dice(p) for p in range(1, 64)] == [solution.dice(p) for p in range(1, 64)]
    assert 1 in [optimal.dice(p) for p in range(1, 64)]
    assert evaluate(optimal).start_shut == solution.shut_probability(rules.all_open)
