"""Checks every dice-keep game model must pass (engine/model.py): random play through its decisions, and its
chance nodes weighed against their outcomes. The yazy and Yahtzee model tests run them."""

import random

import pytest

from shutthebox.engine.model import CHANCE, TERMINAL, chance


def decision_states(model, seed: int, games: int):
    """The decision states of ``games`` seeded games of random legal play (chance by its chances)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = model.initial()
        while model.player(state) != TERMINAL:
            if model.player(state) == CHANCE:
                state = model.apply(state, chance(model, state, rng.random()))
                continue
            yield state
            state = model.apply(state, rng.choice(model.legal(state)))


def check_chance_nodes(model, games: int, dice: int = 5, sides: int = 6) -> None:
    """Every chance node met in ``games`` seeded games: its weights are its total's (``sides ** dice thrown``),
    its outcomes distinct states of sorted dice, its value the weighted mean of theirs; a keep's value is its
    throw's; the final return is the total (the state's last field). A whole throw and at least three sizes of
    one are met."""
    rng = random.Random(2)
    met = set()
    for _ in range(games):
        state = model.initial()
        while model.player(state) != TERMINAL:
            if model.player(state) != CHANCE:
                action = rng.choice(model.legal(state))
                child = model.apply(state, action)
                assert model.value(child)[0] == pytest.approx(model.values(state)[action], abs=1e-9)
                state = child
                continue
            thrown = dice - len(model.dice(state))
            outcomes, total = model.outcomes(state)
            assert total == sides ** thrown and sum(weight for _, weight in outcomes) == total
            assert [outcome for outcome, _ in outcomes] == list(range(len(outcomes)))
            children = [model.apply(state, outcome) for outcome, _ in outcomes]
            assert len(set(children)) == len(children) and all(model.player(child) == 0 for child in children)
            assert all(sorted(model.dice(child)) == list(model.dice(child)) for child in children)
            mean = sum(weight * model.value(child)[0] for (_, weight), child in zip(outcomes, children)) / total
            assert model.value(state)[0] == pytest.approx(mean, abs=1e-9)
            met.add(thrown)
            state = model.apply(state, chance(model, state, rng.random()))
        assert model.returns(state) == model.value(state) == [float(state[-1])]
    assert dice in met and len(met) >= 3
