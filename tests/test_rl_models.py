"""shutthebox.rl for the games declared on a family engine: the Gymnasium environment and the OpenSpiel game
every game model gets (``shutthebox/rl/model_env.py``, ``ModelAdapter``), checked for each game that has a
model, and Threes against its command line and its exact expected total (docs/RL.md)."""

import copy
import math
import pickle
import warnings
from fractions import Fraction

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import shutthebox.rl as rl  # noqa: E402
from shutthebox import registry  # noqa: E402
from shutthebox.engine.model import CHANCE, TERMINAL  # noqa: E402
from shutthebox.engine.model import chance as draw_chance  # noqa: E402

try:
    import pyspiel
except ImportError:  # the openspiel extra
    pyspiel = None
needs_pyspiel = pytest.mark.skipif(pyspiel is None, reason="needs open_spiel (the openspiel extra)")

# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = pytest.mark.usefixtures("fresh_cache")

# Every game with a game model (each is an OpenSpiel game), and those whose Gymnasium environment is the game
# model's (every one of one player) with their ids.
MODEL_GAMES = [game for game in registry.GAMES if registry.declaration(game).has_model]
ENV_OF = {game: "%s/%s" % (rl.NAMESPACE, name) for name, game in rl.MODEL_GAMES.items()}
FAMILY_GAMES = [game for game in MODEL_GAMES if registry.declaration(game).hooks is not None]
# Each game under its default rules (toggle under small ones, with passes: a random player's 12-card game lasts
# thousands of rolls; test_rl_openspiel.py plays that one), and Threes under rules solved on first use.
SHORT = {"toggle": {"cards": 3, "sides": 5}}
CASES = [(game, {}) for game in FAMILY_GAMES] + [("threes", {"dice": 3, "sides": 4})]
SPIEL_CASES = [(game, SHORT.get(game, {})) for game in MODEL_GAMES] + [("threes", {"dice": 3, "sides": 4})]
# Every Gymnasium environment of a game model (toggle, yazy and Yahtzee too: a ``tally``, the rolls or the total out
# of the observation).
ENV_CASES = [(game, SHORT.get(game, {})) for game in ENV_OF] + [("threes", {"dice": 3, "sides": 4})]
THREES_TOTAL = "6.253979"  # ShutTheBox threes --expect


def test_every_game_model_is_registered():
    assert "threes" in MODEL_GAMES and ENV_OF["threes"] == "shutthebox/Threes-v0"
    assert sorted(ENV_OF) == sorted(game for game in MODEL_GAMES if registry.declaration(game).players() == 1)
    for game in ENV_OF:
        env_id = ENV_OF[game]
        assert env_id in rl.ENV_IDS and env_id in gymnasium.registry
        spec = gymnasium.spec(env_id)
        longest = registry.declaration(game).model().max_length  # no bound for toggle: its own limit, stated
        assert spec.kwargs == {"game": game} and (spec.max_episode_steps >= longest or spec.max_episode_steps ==
                                                  rl._stated(game, "MAX_EPISODE_STEPS"))


def _legal_random(info, rng):
    return int(rng.choice(np.flatnonzero(info["action_mask"])))


@pytest.mark.parametrize("game,rules", ENV_CASES)
@pytest.mark.parametrize("mask_observation", [False, True])
def test_check_env(game, rules, mask_observation):
    from gymnasium.utils.env_checker import check_env

    for render_mode in ("ansi", "rgb_array"):
        env = gymnasium.make(ENV_OF[game], render_mode=render_mode, mask_observation=mask_observation, **rules)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a warning of the checker is a failure
            check_env(env.unwrapped)
        env.reset(seed=0)
        picture = env.render()
        if render_mode == "rgb_array":
            assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
        else:
            words = env.unwrapped.game_model.state_text(env.unwrapped.get_state())
            if hasattr(env.unwrapped.game_model, "question"):  # and the command that asks about it
                words += "   (ShutTheBox %s)" % " ".join(env.unwrapped.question())
            assert picture.strip() == words


def _episode(env, seed, rng):
    """One episode of random legal actions: (observations, rewards, infos' q_values), and the last state."""
    obs, info = env.reset(seed=seed)
    trace = [(obs.tolist(), None, info["q_values"].tolist())]
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(_legal_random(info, rng))
        trace.append((obs.tolist(), reward, info["q_values"].tolist()))
        done = terminated or truncated
        assert not truncated
    return trace, env.unwrapped.get_state()


@pytest.mark.parametrize("game,rules", ENV_CASES)
def test_seeded_episodes_reproduce_and_rewards_sum_to_the_return(game, rules):
    env = gymnasium.make(ENV_OF[game], **rules)
    model = env.unwrapped.game_model
    for seed in range(20):
        first, end = _episode(env, seed, np.random.default_rng(seed))
        again, _ = _episode(env, seed, np.random.default_rng(seed))
        assert first == again
        assert model.player(end) == TERMINAL
        assert sum(reward for _, reward, _ in first[1:]) == pytest.approx(model.returns(end)[0], abs=1e-12)
        if game == "threes":
            assert model.returns(end)[0] == -end[0]  # minus the total
    # unseeded resets continue the stream: not all the same game
    env.reset(seed=1)
    starts = {tuple(env.reset()[0].tolist()) for _ in range(20)}
    assert len(starts) > 1


@pytest.mark.parametrize("game,rules", CASES)
def test_q_values_are_the_model_values_still_to_come(game, rules):
    env = gymnasium.make(ENV_OF[game], **rules)
    game_env = env.unwrapped
    model = game_env.game_model
    rng = np.random.default_rng(3)
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            state = game_env.get_state()
            assert model.player(state) == 0 and obs.tolist() == model.observation(state, 0)
            earned = model.returns(state)[0]
            values = model.values(state)
            assert sorted(values) == np.flatnonzero(info["action_mask"]).tolist() == model.legal(state)
            for action in range(game_env.action_space.n):
                expected = values[action] - earned if action in values else -math.inf
                assert info["q_values"][action] == expected == info["q_return"][action]
            assert model.best(state) in info["optimal_actions"]
            assert game_env.value() == pytest.approx(model.value(state)[0] - earned, abs=1e-12)
            assert max(info["q_values"]) == pytest.approx(game_env.value(), abs=1e-12)
            action = _legal_random(info, rng)
            obs, _, done, _, info = env.step(action)
            assert info["regret"] == pytest.approx(max(values.values()) - values[action], abs=1e-12)


@pytest.mark.parametrize("game,rules", ENV_CASES)
def test_pickle_and_deepcopy_mid_episode_continue_identically(game, rules):
    env = gymnasium.make(ENV_OF[game], **rules)
    _, info = env.reset(seed=4)
    _, _, terminated, _, info = env.step(info["optimal_actions"][0])
    if terminated:
        env.reset()
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    assert copies[0].unwrapped.model is env.unwrapped.model  # the table is shared, not copied
    assert {each.unwrapped.get_state() for each in copies} == {env.unwrapped.get_state()}

    def trace(each):
        rng, out = np.random.default_rng(7), []
        for _ in range(40):
            action = int(rng.choice(np.flatnonzero(each.unwrapped.action_masks())))
            obs, reward, terminated, truncated, _ = each.step(action)
            out.append((obs.tolist(), reward, terminated))
            if terminated or truncated:
                obs, _ = each.reset()
                out.append(obs.tolist())
        return out

    traces = [trace(each) for each in [env] + copies]
    assert traces[0] == traces[1] == traces[2]


@pytest.mark.parametrize("game,rules", ENV_CASES)
def test_reset_from_a_state_and_refused_states(game, rules):
    env = gymnasium.make(ENV_OF[game], **rules)
    model = env.unwrapped.game_model
    env.reset(seed=5)
    state = env.unwrapped.get_state()
    obs, info = env.reset(seed=6, options={"state": list(state)})
    assert env.unwrapped.get_state() == state and obs.tolist() == model.observation(state, 0)[:len(obs)]
    assert (info["action_mask"] == env.unwrapped.action_masks()).all()
    start = model.initial()
    assert model.player(start) != 0  # the start is a throw of the dice in these games
    end, draw = start, np.random.default_rng(0)  # optimal play, the dice drawn by their chances: it ends
    while model.player(end) != TERMINAL:
        end = model.apply(end, draw_chance(model, end, draw.random()) if model.player(end) == CHANCE
                          else model.best(end))
    for bad in [start, end, state[:-1], state + (0,), (1.5,) + state[1:], (True,) + state[1:], "state",
                (-1,) + state[1:], (10 ** 6,) + state[1:]]:
        with pytest.raises(ValueError):
            env.reset(options={"state": bad})


@pytest.mark.parametrize("game,rules", CASES)
def test_illegal_actions(game, rules):
    model = registry.declaration(game).model(
        registry.declaration(game).tables[0].rules().Rules(**rules))
    env = gymnasium.make(ENV_OF[game], illegal="end", **rules)
    assert env.unwrapped.illegal_penalty == model.min_return - model.max_return - 1
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and info["illegal"] and reward == env.unwrapped.illegal_penalty
    env = gymnasium.make(ENV_OF[game], **rules)
    obs, info = env.reset(seed=2)
    again, reward, terminated, _, info = env.step(illegal)
    assert (again == obs).all() and reward == 0.0 and not terminated and info["illegal"]


def test_rules_are_checked_as_the_command_line_checks_them():
    from shutthebox import InvalidQuery

    with pytest.raises(InvalidQuery, match="--dice must be a whole number from 1 to 8"):
        gymnasium.make("shutthebox/Threes-v0", dice=9)
    with pytest.raises(InvalidQuery, match="has no rule"):
        gymnasium.make("shutthebox/Threes-v0", tiles=9)


# -- Threes against its command line and its exact expected total -----------------------------------------


def _choices(answer: str) -> dict:
    """``--options``' answer as {"set aside 3 3": "5.233796", ...}."""
    found = {}
    for part in answer.split("; "):
        words = part.split(" ")
        found[" ".join(words[:-2])] = words[-2]
    return found


@pytest.mark.parametrize("rules", [{}, {"dice": 3, "sides": 4}])
def test_threes_q_values_are_the_command_lines_options(rules):
    """At every decision of seeded episodes: ``q_values`` are minus ``threes --options DICE``'s totals still to
    come (the command's printed digits), and the table's move is ``--move DICE``, among the optimal actions."""
    session = registry.grammar("threes").open_game({"--" + key: str(value) for key, value in rules.items()}, None)
    env = gymnasium.make("shutthebox/Threes-v0", **rules)
    game_env = env.unwrapped
    model = game_env.game_model
    rng = np.random.default_rng(11)
    decisions = 0
    for seed in range(25):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            state = game_env.get_state()
            dice = "".join(str(face) for face in state[2:] if face)
            options = _choices(session.answer(["--options", dice]))
            legal = np.flatnonzero(info["action_mask"]).tolist()
            assert sorted(options) == sorted(model.action_text(state, action) for action in legal)
            for action in legal:
                assert "%.6f" % (0.0 - info["q_values"][action]) == options[model.action_text(state, action)]
            move = session.answer(["--move", dice])
            table_move = game_env.model.decision(state).move
            assert model.action_text(state, table_move) == move and table_move in info["optimal_actions"]
            decisions += 1
            _, _, done, _, info = env.step(table_move if rng.random() < 0.5 else _legal_random(info, rng))
    assert decisions >= 25


def test_threes_optimal_play_averages_the_exact_expected_total():
    table = registry.declaration("threes").tables[0].table().load()
    exact = Fraction(*table.exact())
    assert "%.6f" % exact == THREES_TOTAL
    env = gymnasium.make("shutthebox/Threes-v0")
    game_env = env.unwrapped
    assert game_env.optimum() == pytest.approx(-float(exact), abs=1e-12)
    returns = []
    for seed in range(3000):
        _, info = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            _, reward, done, _, info = env.step(game_env.model.decision(game_env.get_state()).move)
            total += reward
        returns.append(total)
    mean, error = np.mean(returns), np.std(returns, ddof=1) / math.sqrt(len(returns))
    assert abs(mean + float(exact)) <= 4 * error, (mean, error)


# -- OpenSpiel ---------------------------------------------------------------------------------------------


def _openspiel():
    import shutthebox.rl.openspiel as so

    return so


@needs_pyspiel
def test_openspiel_every_game_model_is_registered():
    so = _openspiel()
    for game in MODEL_GAMES:
        name = so.PREFIX + game
        assert name in so.NAMES and name in pyspiel.registered_names()
    assert "python_shutthebox_threes" in so.NAMES


def _spiel_name(game, rules):
    params = ",".join("%s=%s" % item for item in sorted(rules.items()))
    return "python_shutthebox_%s%s" % (game, "(%s)" % params if params else "")


@needs_pyspiel
@pytest.mark.parametrize("game,rules", SPIEL_CASES)
def test_openspiel_random_sim_test(game, rules):
    _openspiel()
    spiel = pyspiel.load_game(_spiel_name(game, rules))
    pyspiel.random_sim_test(spiel, num_sims=20, serialize=False, verbose=False)
    pyspiel.random_sim_test(spiel, num_sims=10, serialize=True, verbose=False)


@needs_pyspiel
@pytest.mark.parametrize("game,rules", SPIEL_CASES)
def test_openspiel_exact_value_is_consistent_with_the_tree(game, rules):
    so = _openspiel()
    spiel = pyspiel.load_game(_spiel_name(game, rules))
    module = registry.declaration(game).tables[0].rules()
    model = registry.declaration(game).model(so._rules(module, rules))
    assert spiel.num_players() == model.players and spiel.get_parameters() == {**so.GAMES[game][1].defaults, **rules}
    rng = np.random.default_rng(1)
    state = spiel.new_initial_state()
    for _ in range(60):  # a throw of five dice has 252 outcomes, each valued
        value = so.exact_value(state)
        if state.is_terminal():
            assert value == state.returns()
            state = spiel.new_initial_state()
            continue
        pairs = state.chance_outcomes() if state.is_chance_node() else [(a, None) for a in state.legal_actions()]
        children = []
        for action, chance in pairs:
            child = state.clone()
            child.apply_action(action)
            children.append((chance, so.exact_value(child)))
        if state.is_chance_node():  # every seat's value is the mean of its outcomes'
            assert sum(p for p, _ in children) == pytest.approx(1.0, abs=1e-12)
            for seat in range(model.players):
                assert sum(p * v[seat] for p, v in children) == pytest.approx(value[seat], abs=1e-9)
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
        else:  # the mover's is its best action's
            mover = state.current_player()
            assert max(v[mover] for _, v in children) == pytest.approx(value[mover], abs=1e-12)
            state.apply_action(int(rng.choice(state.legal_actions())))


@needs_pyspiel
def test_openspiel_threes_exact_value():
    so = _openspiel()
    table = registry.declaration("threes").tables[0].table().load()
    state = pyspiel.load_game("python_shutthebox_threes").new_initial_state()
    assert state.is_chance_node()
    value = so.exact_value(state)
    assert len(value) == 1 and abs(value[0] + float(Fraction(*table.exact()))) < 1e-9
    assert "%.6f" % -value[0] == THREES_TOTAL
    clone = pickle.loads(pickle.dumps(state))
    assert str(clone) == str(state) and so.exact_value(clone) == value
