"""engine/seat.py: one seat of a game of several players against the table's moves, a game model of one player,
served by the one-player environments (``ModelEnv(game, seat=k)``, ``ModelVectorEnv``; docs/RL.md). Its
values against an exact solution in fractions of the game it plays, its refusals, Gymnasium's checks."""

import pickle
from fractions import Fraction

import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from shutthebox.engine.model import CHANCE, TERMINAL  # noqa: E402
from shutthebox.rl.model_env import ModelEnv  # noqa: E402
from shutthebox.rl.model_vector import ModelVectorEnv  # noqa: E402

pytestmark = pytest.mark.usefixtures("fresh_cache")


def reachable(view) -> list:
    """Every state of ``view`` from its start: its decisions, throws and ends."""
    seen, waiting = {view.initial()}, [view.initial()]
    while waiting:
        state = waiting.pop()
        player = view.player(state)
        if player == TERMINAL:
            continue
        if player == CHANCE:
            after = [view.apply(state, outcome) for outcome, weight in view.outcomes(state)[0] if weight]
        else:
            assert player == 0  # the other seats' decisions are folded into the steps
            after = [view.apply(state, action) for action in view.legal(state)]
        for state in after:
            if state not in seen:
                seen.add(state)
                waiting.append(state)
    return sorted(seen)


def following(view, state) -> list:
    """[(chance, next state)] of a throw or, the seat too playing the table's moves, of a decision."""
    if view.player(state) == CHANCE:
        outcomes, total = view.outcomes(state)
        return [(Fraction(weight, total), view.apply(state, outcome)) for outcome, weight in outcomes]
    return [(Fraction(1), view.apply(state, view.best(state)))]


def exact_values(view) -> dict:
    """{state: the seat's expected return as a Fraction}, the seat too playing the table's moves: a throw the
    mean of its outcomes, a decision its move's state, an end its return. The equations are solved by
    Gauss-Jordan elimination where a state comes back (Pig's busts), else one state after another."""
    states = reachable(view)
    found: dict = {}

    def solve(state, going=()):
        if state in found:
            return found[state]
        if view.player(state) == TERMINAL:
            found[state] = Fraction(view.returns(state)[0])
            return found[state]
        if state in going:
            raise RecursionError("a state comes back")
        going = going + (state,)
        found[state] = sum(chance * solve(after, going) for chance, after in following(view, state))
        return found[state]

    try:
        for state in states:
            solve(state)
        return found
    except RecursionError:
        pass
    number = {state: k for k, state in enumerate(states)}
    n = len(states)
    rows = []
    for state in states:
        row = [Fraction(0)] * (n + 1)
        row[number[state]] += 1
        if view.player(state) == TERMINAL:
            row[n] = Fraction(view.returns(state)[0])
        else:
            for chance, after in following(view, state):
                row[number[after]] -= chance
        rows.append(row)
    for column in range(n):
        pivot = next(k for k in range(column, n) if rows[k][column])
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column]
        lead[:] = [x / lead[column] for x in lead]
        for k in range(n):
            factor = rows[k][column]
            if k != column and factor:
                rows[k] = [x - factor * y for x, y in zip(rows[k], lead)]
    return {state: rows[number[state]][n] for state in states}


@pytest.mark.slow  # each a table solved on first use and the equations in fractions: over a second
@pytest.mark.parametrize("game,rules", [
    ("pig", {"seat": 0, "variant": "piglet", "goal": 4}), ("pig", {"seat": 1, "variant": "piglet", "goal": 4}),
    ("pig", {"seat": 0, "variant": "pig", "goal": 8, "sides": 3}),
    ("shutthebox", {"seat": 0, "players": 2, "tiles": 5})])
def test_the_values_are_an_exact_solution_of_the_game_against_the_table(game, rules):
    env = ModelEnv(game, **rules)
    view = env.game_model
    exact = exact_values(view)
    decisions = [state for state in exact if view.player(state) == 0]
    assert len(decisions) > 5
    for state, value in exact.items():
        assert abs(view.value(state)[0] - value) < 1e-12, state
    for state in decisions:
        for action, value in view.values(state).items():  # the table's optimal play on both sides
            assert abs(value - exact[view.apply(state, action)]) < 1e-12, (state, action)
        _, info = env.reset(options={"state": state})
        assert abs(env.value() - exact[state]) < 1e-12
        assert info["q_values"].max() == pytest.approx(float(exact[state]), abs=1e-12)
    assert abs(env.optimum() - exact[view.initial()]) < 1e-12


def test_the_other_seats_play_inside_the_step():
    env = ModelEnv("pig", seat=0, variant="piglet", goal=10)
    game = env.game_model.game
    _, info = env.reset(seed=4)
    turns = 0
    for step in range(300):
        before = env.get_state()
        action = step % 3 and 1  # hold every third step where a hold is legal
        action = action if info["action_mask"][action] else 1
        _, _, terminated, _, info = env.step(action)
        if terminated:
            _, info = env.reset()
            continue
        state = env.get_state()
        assert game.player(state) == 0 and state[4] == 0  # seat 0 to decide: never a throw or the other seat
        if action == 0:  # held: banked, and the other seat's whole turn played
            assert state[0] == before[0] + before[2] and state[2] == 0
            turns += state[1] != before[1]
    assert turns > 10


def test_refusals():
    with pytest.raises(ValueError, match="seat must be one of 0 .. 1"):
        ModelEnv("pig", seat=2)
    ModelEnv("goat", seat=1)
    with pytest.raises(ValueError, match="seat must be a whole number, not True"):
        ModelEnv("goat", seat=True)  # though True == 1, whose model is made
    with pytest.raises(ValueError, match="no seat to choose"):
        ModelEnv("threes", seat=0)
    with pytest.raises(ValueError, match="may end the game before its first decision"):
        ModelEnv("pig", seat=1, goal=30)  # the first player may reach 30 in its first turn
    with pytest.raises(ValueError, match="may end the game before its first decision"):
        ModelEnv("shutthebox", seat=1, players=2, tiles=4)  # the first player may shut the box
    with pytest.raises(ValueError, match="of several players"):
        ModelVectorEnv(2, game="threes", seat=0)
    with pytest.raises(ValueError, match="this environment plays one"):
        ModelEnv("pig")


@pytest.mark.parametrize("game,rules", [("pig", {"seat": 1}), ("goat", {"seat": 0}),
                                        ("shutthebox", {"seat": 0, "players": 3})])
def test_gymnasiums_checks(game, rules):
    env = ModelEnv(game, **rules)
    check_env(env, skip_render_check=True)
    env.reset(seed=2)
    again = pickle.loads(pickle.dumps(env))  # the seat comes back with the model
    assert again.model is env.model and again.get_state() == env.get_state() and again.game_model.seat == rules["seat"]
    envs = ModelVectorEnv(4, game=game, **rules)
    obs, info = envs.reset(seed=1)
    assert obs in envs.observation_space and info["action_mask"].shape == (4, envs.single_action_space.n)
