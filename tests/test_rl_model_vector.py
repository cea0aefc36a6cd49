"""shutthebox.rl.model_vector: the native batched environment of every game model against its one-player
environment (``ModelEnv``): side by side with a SyncVectorEnv on the same seeds, state by state on 1,000
decision states with the same dice, optimal play's mean against the table, illegal actions (docs/RL.md)."""

import copy
import math

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import shutthebox.rl as rl  # noqa: E402
from shutthebox.engine.model import CHANCE, TERMINAL  # noqa: E402
from shutthebox.rl.model_env import ModelEnv  # noqa: E402
from shutthebox.rl.model_vector import ModelVectorEnv  # noqa: E402

KEYS = ("action_mask", "optimal_mask", "q_values", "q_return", "regret", "illegal")
ENV_OF = {game: "%s/%s" % (rl.NAMESPACE, name) for name, game in rl.MODEL_GAMES.items()}
# Each game model under its default rules (toggle under small ones: a random player's 12-card game lasts thousands
# of rolls), and Threes under rules solved on first use.
SHORT = {"toggle": {"cards": 2, "sides": 5}}  # dice above the cards: passes, chance nodes that come back
CASES = [(game, SHORT.get(game, {})) for game in rl.MODEL_GAMES.values()] + [("threes", {"dice": 3, "sides": 4})]
# The games of several players alone (``players=1``: GoatSolo-v0), under their default rules and a small one.
SOLO_OF = {game: "%s/%s" % (rl.NAMESPACE, name) for name, game in rl.SOLO_GAMES.items()}
CASES += [(game, {"players": 1}) for game in SOLO_OF] + [("goat", {"players": 1, "goal": 7})]
# One seat of the games of several players against the table (``seat``: no id; the environments made directly).
SEATS = [("pig", {"seat": 0, "variant": "piglet", "goal": 10}), ("pig", {"seat": 1, "goal": 50}),
         ("goat", {"seat": 1}), ("shutthebox", {"seat": 0, "players": 3, "tiles": 6})]
CASES += SEATS
THREES_TOTAL = -6.253979  # ShutTheBox threes --expect, as a return
LONG = {"yazy", "yahtzee", "goat", "pig"}  # games of some 20 to 30 decisions: more steps to end as many, fewer games to average
# Goat's only illegal action is a stop before the turn's first roll: random actions are more often any action
ANY_ACTION = {"goat": 0.5}

# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = pytest.mark.usefixtures("fresh_cache")


def env_of(game, options):
    """The Gymnasium id of ``game`` under ``options``: its one-player game's where ``players=1``."""
    return SOLO_OF[game] if options.get("players") == 1 else ENV_OF[game]


def native(game, n, **options):
    if "seat" in options:
        return ModelVectorEnv(n, game=game, **options)
    return gymnasium.make_vec(env_of(game, options), num_envs=n, vectorization_mode="vector_entry_point", **options)


def synced(game, n, **options):
    """A SyncVectorEnv of ``n`` one-player environments of ``game`` (``ModelEnv`` itself for one seat)."""
    if "seat" in options:
        return gymnasium.vector.SyncVectorEnv([lambda: ModelEnv(game, **options)] * n)
    return gymnasium.make_vec(env_of(game, options), num_envs=n, vectorization_mode="sync", **options)


def same(native_array, sync_array, what):
    assert native_array.shape == sync_array.shape and native_array.dtype.kind == sync_array.dtype.kind, what
    assert np.array_equal(native_array, sync_array), what


def random_actions(masks, rng, n_actions, illegal_share):
    """A random legal action for each row, now and then any action of the space (perhaps illegal)."""
    actions = np.array([int(rng.choice(np.flatnonzero(mask))) for mask in masks])
    wrong = rng.random(len(actions)) < illegal_share
    actions[wrong] = rng.integers(n_actions, size=int(wrong.sum()))
    return actions


def test_every_game_model_registers_the_vector_environment():
    assert "threes" in ENV_OF
    for game, env_id in ENV_OF.items():
        spec = gymnasium.spec(env_id)
        assert spec.vector_entry_point == rl.MODEL_VECTOR == "shutthebox.rl.model_vector:ModelVectorEnv"
        assert spec.kwargs == {"game": game}
        envs = native(game, 8)
        inner = envs.unwrapped
        assert isinstance(inner, ModelVectorEnv) and envs.num_envs == 8
        assert inner.max_episode_steps == spec.max_episode_steps  # the registered time limit reaches it
        single = gymnasium.make(env_id)
        assert envs.single_observation_space == single.observation_space
        assert envs.single_action_space == single.action_space
        assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
        obs, infos = envs.reset(seed=0)
        assert obs in envs.observation_space and obs.shape == (8, len(single.observation_space.nvec))
        assert infos["action_mask"].shape == infos["q_values"].shape == (8, single.action_space.n)
        assert all(infos["_" + key].all() for key in KEYS)
        obs, rewards, terminated, truncated, infos = envs.step(envs.unwrapped.action_masks().argmax(axis=1))
        assert obs in envs.observation_space and rewards.dtype == np.float64
        assert terminated.dtype == truncated.dtype == np.bool_ and not infos["illegal"].any()
        envs.close()


def compare(native_envs, sync, steps, seed, illegal_share=0.1):
    """The native environment and a SyncVectorEnv of the one-player environments on the same seeds and actions:
    the same observations, rewards, ends and infos, to the last bit. The episodes ended on the way."""
    rng = np.random.default_rng(seed)
    obs, info = native_envs.reset(seed=seed)
    obs_s, info_s = sync.reset(seed=seed)
    same(obs, obs_s, "reset observation")
    for key in KEYS[:4]:
        same(info[key], info_s[key], "reset " + key)
    ended = 0
    for step in range(steps):
        actions = random_actions(info["action_mask"], rng, native_envs.single_action_space.n, illegal_share)
        obs, reward, terminated, truncated, info = native_envs.step(actions)
        obs_s, reward_s, terminated_s, truncated_s, info_s = sync.step(actions)
        where = "step %d" % step
        same(obs, obs_s, where + " observation")
        same(reward, reward_s, where + " reward")
        same(terminated, terminated_s, where + " terminated")
        same(truncated, truncated_s, where + " truncated")
        for key in KEYS:
            same(info[key], info_s[key], where + " " + key)
        if "played" in info_s:
            picked = info_s["_played"]
            same(info["_played"], picked, where + " _played")
            same(info["played"][picked], info_s["played"][picked], where + " played")
        ended += int(terminated.sum() + truncated.sum())
    return ended


@pytest.mark.parametrize("game,rules", CASES)
def test_rows_are_the_one_player_environments_step_by_step(game, rules):
    envs = native(game, 6, **rules)
    sync = synced(game, 6, **rules)
    assert compare(envs, sync, 1000 if game == "goat" else 600 if game in LONG else 200, seed=3) > 50


@pytest.mark.parametrize("illegal", ["end", "replace"])
def test_illegal_options_and_time_limits_agree(illegal):
    options = {"illegal": illegal, "max_episode_steps": 3}
    envs = native("threes", 5, **options)
    sync = gymnasium.make_vec(ENV_OF["threes"], num_envs=5, vectorization_mode="sync", **options)
    assert compare(envs, sync, 120, seed=8, illegal_share=0.3) > 0


def _support(game_model, state, found=None, depth=40) -> dict:
    """{next state: its exact chance (weights multiplied)} of the chance nodes from ``state`` on, to the next
    decision or the end; chains of more than ``depth`` chance nodes are left out (toggle's passes throw again
    without bound, each throw the same chance of a pass)."""
    found = {} if found is None else found
    level = {state: 1}  # the states after as many chance nodes, each with its weight (equal ones merged)
    for _ in range(depth + 1):
        following: dict = {}
        for at, weight in level.items():
            if game_model.player(at) != CHANCE:
                found[at] = found.get(at, 0) + weight
                continue
            outcomes, _ = game_model.outcomes(at)
            for outcome, w in outcomes:
                if w:
                    after = game_model.apply(at, outcome)
                    following[after] = following.get(after, 0) + weight * w
        level = following
    return found


@pytest.mark.parametrize("game,rules", CASES)
def test_vector_env_equals_the_single_env_on_1000_states(game, rules):
    """1,000 decision states reached by random play in the vector environment: a ``ModelEnv`` set to each
    (``reset(options={"state": ...})``) has the same mask, values and optimal actions; the same action with the
    row's dice (its generator and block of uniforms copied) gives the same observation, reward, end, info
    and next state, having used the same uniforms; and the next state is one the model's chance nodes reach
    from the action, the reward the change of the model's return."""
    envs = native(game, 8, **rules).unwrapped
    single = ModelEnv(game, **rules)
    game_model = single.game_model
    rng = np.random.default_rng(5)
    obs, info = envs.reset(seed=11)
    compared, distinct, ends, illegal = 0, set(), 0, 0
    while compared < 1000:
        states, restarting = envs.get_states(), envs.autoreset.copy()
        dice = envs.dice
        saved = [(copy.deepcopy(dice.generators[row]), dice.block[row].tolist(), int(dice.at[row]))
                 for row in range(envs.num_envs)]
        actions = random_actions(info["action_mask"], rng, envs.single_action_space.n, ANY_ACTION.get(game, 0.05))
        before = obs, info, envs.values(), envs.owed.copy()  # owed: toggle's passes drawn at a reset
        obs, reward, terminated, truncated, info = envs.step(actions)
        after = envs.get_states()
        for row in np.flatnonzero(~restarting):
            state, action = states[row], int(actions[row])
            assert game_model.player(state) == 0
            seen, first = single.reset(options={"state": state})
            same(seen, before[0][row], "observation")
            owed = before[3][row]  # the row's passes drawn at its reset, owed to its first step; a state owes none
            first["q_return"] += owed
            for key in KEYS[:4]:
                same(first[key], before[1][key][row], key)
            assert single.value() + owed == before[2][row]
            single.dice.rng, single.dice._block, single.dice._next = saved[row]
            single_obs, single_reward, single_terminated, single_truncated, single_info = single.step(action)
            same(single_obs, obs[row], "observation after")
            paid = 0.0 if single_info["illegal"] else owed  # an illegal action changes nothing: still owed
            single_info["q_return"] += owed - paid
            assert single_reward + paid == reward[row] and single_terminated == terminated[row], (state, action)
            assert not single_truncated and not truncated[row]
            for key in KEYS:
                same(np.asarray(single_info[key]), info[key][row], key + " after")
            assert single.get_state() == after[row]
            assert single.dice._next == dice.at[row]  # the same uniforms used
            assert single.dice.rng.bit_generator.state == dice.generators[row].bit_generator.state
            if single_info["illegal"]:
                illegal += 1
                assert after[row] == state and reward[row] == 0.0
            else:
                reach = _support(game_model, game_model.apply(state, action))
                assert after[row] in reach
                assert reward[row] == game_model.returns(after[row])[0] - game_model.returns(state)[0] + paid
                assert (game_model.player(after[row]) == TERMINAL) == terminated[row]
            compared += 1
            distinct.add(state)
        ends += int(terminated.sum())
    # a random player's game of Goat alone lasts some 100 steps: 1,000 states see few ends
    assert ends > (5 if game == "goat" else 20 if game in LONG else 100) and illegal > 10
    met = sum(1 for state in list(envs.nodes.states)[1:] if game_model.player(state) == 0)  # (toggle's: all)
    assert len(distinct) >= min(500, met // 2), (len(distinct), met)


@pytest.mark.parametrize("game,rules", CASES)
def test_values_states_and_numbers(game, rules):
    envs = native(game, 4, **rules).unwrapped
    other = native(game, 3, **rules).unwrapped
    assert envs.nodes is other.nodes  # one set of states a rule set, shared
    single = ModelEnv(game, **rules)
    _, info = envs.reset(seed=2)
    other.reset(seed=2)
    for row, state in enumerate(envs.get_states()):
        single.reset(options={"state": state})
        owed = envs.owed[row]  # toggle's passes drawn at the reset, owed to the first step; a state owes none
        assert envs.values()[row] == single.value() + owed
        assert envs.values()[row] == pytest.approx(max(info["q_values"][row]) + owed, abs=1e-12)
        assert envs.state_numbers()[row] == envs.nodes.meet(state)[0]
    assert (envs.state_numbers()[:3] == other.state_numbers()).all()
    assert (envs.action_masks() == info["action_mask"]).all()
    finished = np.zeros(4, dtype=bool)
    for _ in range(80 if game in LONG else 20):
        _, _, terminated, _, info = envs.step(np.argmax(info["optimal_mask"], axis=1))
        finished |= terminated
        assert (envs.state_numbers()[terminated] == 0).all()
        assert all(single.game_model.player(s) == TERMINAL for s in np.array(envs.get_states(), dtype=object)[
            terminated])
    assert finished.all()


@pytest.mark.parametrize("game,options", [(game, {}) for game in sorted(ENV_OF)] + [
    (game, {"players": 1}) for game in sorted(SOLO_OF)] + SEATS)
def test_optimal_play_averages_the_tables_value(game, options):
    single = ModelEnv(game, **options)
    optimum = single.optimum()
    if game == "threes":
        assert "%.6f" % optimum == "%.6f" % THREES_TOTAL
    envs = native(game, 512, **options)
    _, info = envs.reset(seed=21)
    total = np.zeros(512)
    # each row's first games alone: the first games to end of all the rows would be the short ones (Pig's
    # second seat loses the shortest)
    games, ended = 2 if game in LONG else 40, np.zeros(512, dtype=np.int64)
    returns = []
    while (ended < games).any():
        _, reward, terminated, truncated, info = envs.step(np.argmax(info["optimal_mask"], axis=1))
        assert not truncated.any() and (info["regret"] == 0.0).all()
        total += reward
        returns.extend(total[terminated & (ended < games)].tolist())
        ended += terminated
        total[terminated | truncated] = 0.0
    mean, error = np.mean(returns), np.std(returns, ddof=1) / math.sqrt(len(returns))
    assert abs(mean - optimum) <= 4 * error, (mean, optimum, error)


def test_illegal_actions_as_documented():
    # noop (the default): nothing changes, the reward is 0 and info["illegal"] says so
    envs = native("threes", 3)
    obs, info = envs.reset(seed=4)
    illegal = np.argmin(info["action_mask"], axis=1)  # action 0 (no die) is never legal
    assert (info["action_mask"][np.arange(3), illegal] == 0).all()
    again, reward, terminated, truncated, info_again = envs.step(illegal)
    assert (again == obs).all() and (reward == 0.0).all() and not terminated.any() and not truncated.any()
    assert info_again["illegal"].all() and (info_again["q_values"] == info["q_values"]).all()
    assert (info_again["regret"] == 0.0).all()
    # outside the space (negative, too large, floats): illegal too
    for wrong in (np.array([-1, envs.single_action_space.n, 10 ** 6]), np.full(3, 1.0)):
        again, reward, _, _, info_again = envs.step(wrong)
        assert (again == obs).all() and (reward == 0.0).all() and info_again["illegal"].all()
    with pytest.raises(ValueError, match="one action for each of the 3 environments"):
        envs.step(np.zeros(2, dtype=np.int64))
    # end: the episode ends with the penalty; the next step resets that row and ignores its action
    envs = native("threes", 3, illegal="end")
    penalty = envs.unwrapped.illegal_penalty
    assert penalty == envs.unwrapped.single.illegal_penalty == -31.0
    obs, info = envs.reset(seed=4)
    legal = np.argmax(info["optimal_mask"], axis=1)
    actions = np.array([0, legal[1], 0])
    after, reward, terminated, _, info = envs.step(actions)
    assert terminated.tolist() == [True, False, True] and reward[0] == reward[2] == penalty
    assert (after[0] == obs[0]).all() and info["illegal"].tolist() == [True, False, True]
    assert (info["action_mask"][[0, 2]] == 1).all() and (info["q_values"][[0, 2]] == 0.0).all()
    new, reward, terminated, _, info = envs.step(np.zeros(3, dtype=np.int64))
    assert reward[0] == reward[2] == 0.0 and not terminated[[0, 2]].any() and not info["illegal"][[0, 2]].any()
    assert new[0][0] == 0 and new[0][1] == 5  # a new game: nothing set aside, five dice thrown
    # replace: a legal action drawn by the row's dice is played instead, and named
    envs = native("threes", 3, illegal="replace")
    _, info = envs.reset(seed=4)
    masks = info["action_mask"]
    _, _, _, _, info = envs.step(np.zeros(3, dtype=np.int64))
    assert info["illegal"].all() and info["_played"].all()
    assert all(masks[row, info["played"][row]] == 1 for row in range(3))


def test_time_limit_seeds_and_refusals():
    envs = native("threes", 2, max_episode_steps=1)
    _, info = envs.reset(seed=0)
    _, _, terminated, truncated, _ = envs.step(np.zeros(2, dtype=np.int64))  # illegal no-ops: the clock runs
    assert truncated.all() and not terminated.any()
    first, _ = native("threes", 4).reset(seed=7)
    again, _ = native("threes", 4).reset(seed=7)
    assert (first == again).all()
    for row in range(4):  # row i is the one-player environment seeded seed + i
        assert (gymnasium.make(ENV_OF["threes"]).reset(seed=7 + row)[0] == first[row]).all()
    bare = native("threes", 4, exact_info=False)
    obs, infos = bare.reset(seed=7)
    assert (obs == first).all() and sorted(infos) == ["_action_mask", "_illegal", "action_mask", "illegal"]
    with pytest.raises(ValueError, match="mask_observation"):
        native("threes", 2, mask_observation=True)
    with pytest.raises(ValueError, match="does not render"):
        native("threes", 2, render_mode="ansi")
    with pytest.raises(ValueError, match="not a game with a game model"):
        ModelVectorEnv(2, game="pig")


def test_the_arrays_grow_as_states_are_met(monkeypatch):
    """The states' arrays start small and double as the rows meet states (here from 2): the rows still play the
    one-player environments' games, and every state met keeps its number and its answers."""
    from shutthebox.rl import model_vector

    monkeypatch.setattr(model_vector, "_FIRST", 2)
    envs = native("threes", 6).unwrapped
    fresh = model_vector.Nodes(envs.model)  # not the rule set's shared one: this environment's alone
    envs.nodes, envs.tables = fresh, fresh.tables
    sync = gymnasium.make_vec(ENV_OF["threes"], num_envs=6, vectorization_mode="sync")
    assert compare(envs, sync, 150, seed=13, illegal_share=0.2) > 50
    assert len(fresh.states) > 256 and len(fresh.kind) >= len(fresh.states) and fresh.placed > 1000
    for state, number in fresh.ids.items():
        assert fresh.states[number] == state
        if envs.single.game_model.player(state) == 0:
            decision = envs.model.decision(state, True)
            assert sorted(np.flatnonzero(fresh.tables.mask[number])) == sorted(decision.values)
            assert fresh.tables.q[number, list(decision.values)].tolist() == list(decision.values.values())


@pytest.mark.parametrize("game", ["threes", "yazy"])
def test_the_states_start_again_past_their_bound(monkeypatch, game):
    """Past ``_MOST_STATES`` the rule set's states start again, every environment of the rule set following:
    the rows still play the one-player environments' games, step for step."""
    from shutthebox.rl import model_vector

    monkeypatch.setattr(model_vector, "_MOST_STATES", 300)
    envs, other = native(game, 6).unwrapped, native(game, 2).unwrapped
    first = envs.nodes
    sync = gymnasium.make_vec(ENV_OF[game], num_envs=6, vectorization_mode="sync")
    assert compare(envs, sync, 300, seed=17, illegal_share=0.1) > 10
    assert envs.nodes is not first and envs.nodes is envs.model.vector_nodes
    other.reset(seed=1)
    assert other.nodes is envs.model.vector_nodes and len(other.nodes.states) <= 300 + 8 * envs.num_envs
