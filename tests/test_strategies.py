"""Strategies: the interface, the reference's orderings, exact evaluation against brute force."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

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
