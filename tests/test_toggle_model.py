"""The toggle game model (``games/toggle/model.py``) against an exact solution in Fractions (policy iteration
with exact linear solves, ``test_toggle.exact_solve``) on small games: its dynamics give the exact Bellman
equation, passes included, and its values are the exact ones."""

from fractions import Fraction

import pytest

from shutthebox.engine.model import CHANCE, TERMINAL, GameModel
from shutthebox.games.toggle.model import model
from shutthebox.games.toggle.rules import Rules
from test_toggle import exact_solve

# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = pytest.mark.usefixtures("fresh_cache")


@pytest.mark.parametrize("cards,sides", [(4, 2), (5, 3), (3, 5)])  # 3 x 5: dice above the cards, passes
def test_values_are_the_exact_expected_rolls(cards, sides):
    game = model(Rules(cards, sides))
    assert isinstance(game, GameModel) and game.initial() == ((1 << cards) - 1, 0, 0, 0)
    exact = exact_solve(cards, sides)  # expected further rolls before a throw, by the set of cards face up
    assert game.player((0, 0, 0, 7)) == TERMINAL and game.returns((0, 0, 0, 7)) == [-7.0]
    for up in range(1, 1 << cards):
        throw = (up, 0, 0, 0)
        assert game.player(throw) == CHANCE and abs(game.value(throw)[0] + exact[up]) < 1e-12
        outcomes, total = game.outcomes(throw)
        assert total == sides * sides and sum(weight for _, weight in outcomes) == total
        bellman = Fraction(0)
        for outcome, weight in outcomes:
            dice = game.apply(throw, outcome)
            if game.player(dice) == CHANCE:  # a pass: its roll spent, the dice thrown again
                assert dice == (up, 0, 0, 1) and game.returns(dice) == [-1.0]
                bellman += weight * (1 + exact[up])
                continue
            assert game.player(dice) == 0 and dice[3] == 0 and game.returns(dice) == [0.0]
            legal = game.legal(dice)
            values = game.values(dice)
            assert sorted(values) == legal == [card - 1 for card in Rules(cards, sides).choices(*dice[1:3])]
            rolls = {card: 1 + exact[up ^ 1 << card] for card in legal}  # its own roll and those after the flip
            for card in legal:
                assert game.apply(dice, card) == (up ^ 1 << card, 0, 0, 1)
                assert abs(values[card] + rolls[card]) < 1e-12
            best = min(rolls.values())
            assert abs(game.value(dice)[0] + best) < 1e-12
            assert rolls[game.best(dice)] - best < Fraction(1, 10**10)  # the table's move: within its tie
            bellman += weight * best
        assert bellman == total * exact[up]  # the model's throws and flips are the game's


def test_a_bounded_game_stops_before_the_throw_with_what_optimal_play_still_expects():
    game = model(Rules(4, 2), max_rolls=5)
    assert game.max_length == 10 and not game.tally
    stopped = (0b1010, 0, 0, 5)
    assert game.player(stopped) == TERMINAL and game.returns(stopped) == game.value(stopped)
    assert abs(game.returns(stopped)[0] + 5 + exact_solve(4, 2)[0b1010]) < 1e-12
    assert game.player((0b1010, 0, 0, 4)) == CHANCE and "stopped after 5 rolls" in game.state_text(stopped)
