"""The exact solver against hand-solved cases and an independent brute force."""

from fractions import Fraction

import pytest

from bruteforce import BruteForce
from shutthebox.games.shutthebox.rules import Rules
from shutthebox.games.shutthebox.solver import solve_players, solve_two_player


def mask(tiles):
    return sum(1 << (t - 1) for t in tiles)


def tiles(bits):
    return tuple(t for t in range(1, 17) if bits >> (t - 1) & 1)


def test_hand_solved_one_tile_coin_game():
    # One tile, one two-sided die. Player one: roll 1 (1/2) shuts the box;
    # roll 2 ends the turn with score 1. Player two, to beat 1: roll 1 wins,
    # roll 2 ties (1/2): E2 = 1/2 + 1/2 * 1/2 = 3/4. E1 = 1/2 + 1/2 * (1 - 3/4).
    solution = solve_two_player(Rules(tiles=1, sides=2, dice=1, one_die_at_most=None))
    assert solution.expect_two(0b1, 1) == Fraction(3, 4)
    assert solution.expect_one(0b1) == Fraction(5, 8)
    assert solution.move_one(0b1, 1) == 0b1 and solution.move_one(0b1, 2) == 0


def test_hand_solved_endgames_of_the_standard_game(solution):
    # Tile 1 alone, one die: a 1 shuts the box (1/6), anything else scores 1.
    assert solution.expect_two(mask([1]), 1) == Fraction(1, 6) + Fraction(5, 6) / 2
    assert solution.expect_two(mask([1]), 2) == 1  # 1 already beats 2
    assert solution.expect_two(mask([2]), 1) == Fraction(1, 6)  # only a 2 helps
    # Tiles 1 and 2 against a score of 2: a 3 shuts (1/6); a 1 leaves {2}, which
    # shuts with a 2 (1/6) and else ties (5/6 * 1/2); a 2 leaves {1}, which
    # shuts with a 1 and else wins on score: 1. Rolls 4-6 end at 3 > 2: lose.
    value = Fraction(1, 6) * (1 + (Fraction(1, 6) + Fraction(5, 12)) + 1)
    assert solution.expect_two(mask([1, 2]), 2) == value
    assert tiles(solution.move_two(mask([1, 2]), 2, 2)) == (2,)
    # 7 closes the 7 rather than 1+2+4 or 3+4 (exactly equal: highest tiles first).
    assert tiles(solution.move_two(mask([1, 2, 3, 4, 7]), 40, 7)) == (7,)


TINY_RULES = [
    Rules(tiles=4, sides=3, dice=2, one_die_at_most=3),
    Rules(tiles=5, sides=4, dice=2, one_die_at_most=4),
    Rules(tiles=4, sides=6, dice=1, one_die_at_most=None),
    Rules(tiles=5, sides=3, dice=2, one_die_at_most=None, max_move_tiles=2),
    Rules(tiles=3, sides=2, dice=3, one_die_at_most=2),
    Rules(tiles=6, sides=6, dice=2, one_die_at_most=6),
    Rules(tiles=5, sides=4, dice=2, one_die_at_most=5, one_die_optional=True),
    Rules(tiles=8, sides=4, dice=2, one_die_at_most=None, one_die_high_shut=True),
    Rules(tiles=8, sides=3, dice=2, one_die_at_most=3, one_die_high_shut=True, one_die_optional=True,
          max_move_tiles=3),
]


def assert_matches_brute_force(rules, positions=None):
    solution = solve_two_player(rules)
    brute = BruteForce(**rules.as_dict())
    for open_tiles in positions or brute.positions():
        bits = mask(open_tiles)
        assert solution.expect_one(bits) == brute.expect_one(open_tiles), open_tiles
        for roll in range(rules.max_roll + 1):
            assert tiles(solution.move_one(bits, roll)) == brute.move_one(open_tiles, roll), (open_tiles, roll)
        for score in range(1, rules.max_score + 1):
            assert solution.expect_two(bits, score) == brute.expect_two(open_tiles, score), (open_tiles, score)
            for roll in range(rules.max_roll + 1):
                found = tiles(solution.move_two(bits, score, roll))
                assert found == brute.move_two(open_tiles, score, roll), (open_tiles, score, roll)


@pytest.mark.parametrize("rules", [pytest.param(rules, marks=pytest.mark.slow if rules.tiles >= 8 else ())
                                   for rules in TINY_RULES], ids=repr)
def test_tiny_games_match_brute_force(rules):
    assert_matches_brute_force(rules)


@pytest.mark.slow
def test_standard_game_matches_brute_force():
    """Every value and every tie-broken move of the real game, exactly."""
    assert_matches_brute_force(Rules())


@pytest.mark.parametrize("rules", [Rules(), *TINY_RULES], ids=repr)
def test_two_players_of_the_general_solver_are_the_two_player_solution(rules):
    general, special = solve_players(rules, 2), solve_two_player(rules)
    for position in range(1 << rules.tiles):
        assert general.expect(position, general.state(1)) == special.expect_one(position)
        assert general.moves[0][position] == special.m1[position]
        for score in range(1, rules.max_score + 1):
            state = general.state(2, score, 1)
            assert general.expect(position, state) == special.expect_two(position, score)
            assert general.moves[state][position] == special.m2[score][position]


def posted_scores(rules, count):
    if count == 0:
        yield ()
        return
    for rest in posted_scores(rules, count - 1):
        for score in range(1, rules.max_score + 1):
            yield rest + (score,)


@pytest.mark.parametrize("rules, players", [
    (Rules(tiles=3, sides=3, dice=2, one_die_at_most=2), 3),
    (Rules(tiles=3, sides=2, dice=2, one_die_at_most=None), 4),
    (Rules(tiles=4, sides=3, dice=2, one_die_at_most=3, one_die_optional=True), 3),
    (Rules(tiles=4, sides=4, dice=1, one_die_at_most=None, max_move_tiles=2), 3),
], ids=repr)
def test_several_players_match_brute_force_over_every_list_of_posted_scores(rules, players):
    """The brute force keeps every posted score; the solver only the best one and
    how many share it. Equal answers show that this summary is enough."""
    solution = solve_players(rules, players)
    brute = BruteForce(**rules.as_dict())
    for player in range(1, players + 1):
        for posted in posted_scores(rules, player - 1):
            best = min(posted) if posted else 0
            state = solution.state(player, best, posted.count(best))
            for open_tiles in brute.positions():
                bits = mask(open_tiles)
                assert solution.expect(bits, state) == brute.turn_results(players, posted, open_tiles)[player - 1]
                for roll in range(rules.max_roll + 1):
                    found = tiles(solution.move(bits, state, roll))
                    assert found == brute.move_of_player(players, posted, open_tiles, roll), (posted, open_tiles, roll)
