"""shutthebox.rl.vector: the native batched environments against Gymnasium's SyncVectorEnv of the one-player
environments, step by step on the same seeds (docs/RL.md)."""

import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

import shutthebox.rl  # noqa: E402,F401
from shutthebox.rl.vector import ExactVectorEnv  # noqa: E402

KEYS = ("action_mask", "optimal_mask", "q_values", "q_return", "regret", "illegal")
CASES = [
    ("shutthebox/ShutTheBoxSolo-v0", {}),
    ("shutthebox/ShutTheBoxSolo-v0", {"variant": "two-dice", "objective": "score"}),
    ("shutthebox/ShutTheBoxSolo-v0", {"tiles": 6, "one_die": "optional:high", "objective": "score"}),
    ("shutthebox/Toggle-v0", {"cards": 6, "sides": 4}),
    ("shutthebox/Toggle-v0", {"cards": 3, "sides": 5}),  # dice above the cards: passes, owed at reset
    ("shutthebox/GoatSolo-v0", {}),
    ("shutthebox/GoatSolo-v0", {"goal": 7}),
    ("shutthebox/Pig-v0", {}),
    ("shutthebox/Pig-v0", {"variant": "two-dice", "goal": 30}),
    ("shutthebox/Pig-v0", {"variant": "big-pig", "goal": 40}),
    ("shutthebox/Pig-v0", {"seat": 1}),
    ("shutthebox/Pig-v0", {"variant": "piglet", "goal": 6}),
]


# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = pytest.mark.usefixtures("fresh_cache")


def pair(env_id, options, n, **more):
    native = gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **options, **more)
    sync = gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="sync", **options, **more)
    return native, sync


def same(native, sync, what):
    assert native.shape == sync.shape and native.dtype.kind == sync.dtype.kind, what
    assert np.array_equal(native, sync), what


def compare(native, sync, steps, seed, illegal_share=0.1):
    rng = np.random.default_rng(seed)
    obs, info = native.reset(seed=seed)
    obs_s, info_s = sync.reset(seed=seed)
    same(obs, obs_s, "reset observation")
    for key in KEYS[:4]:
        same(info[key], info_s[key], "reset " + key)
    ended = 0
    for step in range(steps):
        masks = info["action_mask"]
        actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
        wrong = rng.random(len(actions)) < illegal_share  # now and then an illegal action, or any action
        actions[wrong] = rng.integers(native.single_action_space.n, size=int(wrong.sum()))
        obs, reward, terminated, truncated, info = native.step(actions)
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


@pytest.mark.parametrize("env_id,options", CASES)
def test_native_rows_are_the_one_player_environments_step_by_step(env_id, options):
    native, sync = pair(env_id, options, 6)
    assert isinstance(native.unwrapped, ExactVectorEnv)
    assert compare(native, sync, 250, seed=3) > 0  # episodes ended and were reset on the way


@pytest.mark.parametrize("env_id,options", [CASES[0], CASES[4], CASES[6], CASES[8]])
@pytest.mark.parametrize("illegal", ["end", "replace"])
def test_illegal_options_and_time_limits_agree(env_id, options, illegal):
    native, sync = pair(env_id, options, 5, illegal=illegal, max_episode_steps=6)
    assert compare(native, sync, 120, seed=8, illegal_share=0.3) > 0


def test_reset_masks_values_and_refusals():
    envs = gymnasium.make_vec("shutthebox/GoatSolo-v0", num_envs=4, vectorization_mode="vector_entry_point")
    obs, info = envs.reset(seed=1)
    single = gymnasium.make("shutthebox/GoatSolo-v0").unwrapped
    single.reset(seed=1)
    assert envs.unwrapped.values()[0] == single.value()
    for _ in range(3):
        obs, *_ = envs.step(np.full(4, 2))
    again, _ = envs.reset(options={"reset_mask": np.array([True, False, False, False])})
    assert again[0].tolist() == [0, 0, 0] and (again[1:] == obs[1:]).all()
    with pytest.raises(ValueError, match="one action for each of the 4 environments"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="up to 12 cards"):
        gymnasium.make_vec("shutthebox/Toggle-v0", num_envs=2, vectorization_mode="vector_entry_point", cards=14)
