"""Goat alone as a game model (``games/goat/solo.py``): its dynamics give the table's values by one Bellman step
in exact fractions of the chances, and its arrays (``dense()``, what the vector environment reads) say what its
functions say of every numbered state."""

from fractions import Fraction

import pytest

from shutthebox.engine.model import CHANCE, TERMINAL, GameModel
from shutthebox.games.goat.model import model
from shutthebox.games.goat.rules import Rules

np = pytest.importorskip("numpy")

# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = pytest.mark.usefixtures("fresh_cache")


def decisions(game):
    """Every decision state of ``game`` (turns 0), by its numbers."""
    for number in range(game.decisions):
        state = game.numbered(number)
        if game.player(state) == 0:
            yield state


@pytest.mark.parametrize("goal", [7, 20])
def test_the_dynamics_give_the_tables_values(goal):
    game = model(Rules(goal), players=1)
    assert isinstance(game, GameModel) and game.players == 1 and game.initial() == (0, 0, 0, 0, 0)
    for state in decisions(game):
        values = game.values(state)
        assert sorted(values) == game.legal(state) and game.best(state) in values
        assert abs(max(values.values()) - game.value(state)[0]) < 1e-12  # the table's value: its best action's
        for action, worth in values.items():
            after = game.apply(state, action)
            if game.player(after) != CHANCE:  # a stop: the turn ends, banked
                assert action == 0 and after == (min(state[0] + state[1], goal), 0, 0, 0, 1)
                assert abs(worth - game.value(after)[0]) < 1e-12
                continue
            outcomes, total = game.outcomes(after)
            assert total == 6 ** action and sum(weight for _, weight in outcomes) == total
            bellman = sum(Fraction(weight, total) * Fraction(game.value(game.apply(after, outcome))[0])
                          for outcome, weight in outcomes)
            assert abs(Fraction(worth) - bellman) < Fraction(1, 10 ** 12), (state, action)
            assert worth == game.value(after)[0]


def test_the_turns_are_the_return_and_a_match_ends_the_turn():
    game = model(Rules(7), players=1)
    rolling = game.apply((3, 5, 1, 0, 2), 2)
    assert game.player(rolling) == CHANCE and game.returns(rolling) == [-2.0]
    assert game.apply(rolling, 0) == (3, 0, 0, 0, 3)  # a match: nothing banked, a turn spent
    assert game.apply(rolling, 4) == (3, 9, 2, 0, 2)
    assert game.apply(game.apply((3, 9, 2, 0, 2), 1), 6) == (7, 0, 0, 0, 3)  # the third roll banks: the goal
    assert game.player((7, 0, 0, 0, 3)) == TERMINAL and game.value((7, 0, 0, 0, 3)) == [-3.0]


def test_dense_says_what_the_functions_say():
    game = model(Rules(7), players=1)
    dense = game.dense()
    size = game.n_states
    chance_row = {int(number): row for row, number in enumerate(dense["chance"])}
    for number in range(size):
        state = game.numbered(number)
        player = game.player(state)
        assert dense["kind"][number] == player and dense["returns"][number] == 0.0
        if game.number(state) != number:  # no game reaches it: the end, whatever it shows
            assert player == TERMINAL
            continue
        assert dense["seen"][number].tolist() == game.observation(state)[:3]
        if player == TERMINAL:
            continue
        if player == 0:
            values = game.values(state)
            q = dense["q"][number]
            assert np.flatnonzero(q > -np.inf).tolist() == sorted(values)
            assert all(q[action] == worth for action, worth in values.items())
            assert dense["value"][number] == game.value(state)[0] and dense["best"][number] == game.best(state)
            for action in values:
                after = game.apply(state, action)
                assert dense["after"][number, action] == game.number(after)
                assert dense["gain"][number, action] == -after[-1]  # minus the turns it ends: the return it adds
            continue
        row = chance_row.pop(number)
        outcomes, _ = game.outcomes(state)
        weights = dict(outcomes)
        for outcome in range(game.n_outcomes):
            assert dense["weights"][row, outcome] == weights.get(outcome, 0)
            if weights.get(outcome):
                after = game.apply(state, outcome)
                assert dense["leads"][row, outcome] == game.number(after)
                assert dense["adds"][row, outcome] == -after[-1]
    assert not chance_row  # every chance node listed is one
