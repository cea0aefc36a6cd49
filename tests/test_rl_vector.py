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
    # toggle beyond 12 cards: its states too many to hold at once, met one by one as any game model's
    envs = gymnasium.make_vec("shutthebox/Toggle-v0", num_envs=2, vectorization_mode="vector_entry_point", cards=13,
                              sides=7)
    obs, info = envs.reset(seed=1)
    assert not envs.unwrapped.nodes.dense and obs.shape == (2, 15)
    envs.step(np.argmax(info["action_mask"], axis=1))


# -- sample_legal: a uniformly random legal action for each row ---------------------------------------------------


def native_env(env_id, n, **options):
    return gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="vector_entry_point", **options).unwrapped


def chi_square(counts) -> float:
    expected = sum(counts) / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def test_sample_legal_is_uniform_over_the_moves_of_a_roll_of_10():
    """At the start of standard Shut the Box a roll of 10 fits 9 moves (19, 28, 37, 46, 127, 136, 145, 235, 1234,
    found here by brute force over the 511 sets of tiles): 400 draws for each row showing 10 hit every one of them
    and nothing else, evenly (chi-square below 26.12, its 0.1% point for 8 degrees of freedom, at this seed)."""
    envs = native_env("shutthebox/ShutTheBoxSolo-v0", 256)
    obs, _ = envs.reset(seed=4)
    moves = [a for a in range(1, 512) if sum(i + 1 for i in range(9) if a >> i & 1) == 10]
    assert len(moves) == 9
    tens = np.flatnonzero(obs[:, 9] == 10)
    assert len(tens) >= 10
    counts = dict.fromkeys(moves, 0)
    for _ in range(400):
        for action in envs.sample_legal()[tens].tolist():
            counts[action] += 1  # a KeyError: an action outside the nine
    assert min(counts.values()) > 0
    assert chi_square(list(counts.values())) < 26.12


def test_sample_legal_is_uniform_over_pigs_two_choices():
    envs = native_env("shutthebox/Pig-v0", 512)
    envs.reset(seed=2)
    envs.step(np.ones(512, dtype=np.int64))  # one roll each: a turn total where no bust, holding legal too
    both = envs.action_masks().all(axis=1)
    assert both.sum() > 300
    drawn = np.concatenate([envs.sample_legal()[both] for _ in range(50)])
    counts = np.bincount(drawn, minlength=2)
    assert chi_square(counts.tolist()) < 10.83  # the 0.1% point for 1 degree of freedom
    only_roll = ~both
    assert (np.stack([envs.sample_legal()[only_roll] for _ in range(20)]) == 1).all()


@pytest.mark.parametrize("env_id,options", CASES[::2] + [("shutthebox/Threes-v0", {})])
def test_sample_legal_plays_only_legal_actions_and_leaves_the_dice_alone(env_id, options):
    """Along 150 steps (games ending and starting, a game model's states met as it goes) every draw is legal; and
    the draws come from the environment's own generator: a second environment stepped with the same actions,
    drawing nothing, plays the same games."""
    envs, twin = native_env(env_id, 32, **options), native_env(env_id, 32, **options)
    obs, _ = envs.reset(seed=7)
    twin.reset(seed=7)
    for _ in range(150):
        masks = envs.action_masks()
        actions = envs.sample_legal()
        assert actions.dtype == np.int64 and (masks[np.arange(32), actions] == 1).all()
        obs, *_ = envs.step(actions)
        same(obs, twin.step(actions)[0], "observation")


def test_sample_legal_is_seeded_by_reset():
    """After reset(seed=s) the draws are the k-th legal actions of each row's mask in order, k = int(u * count) for
    the uniforms of Gymnasium's generator seeded s, one a row a call, as computed here row by row."""
    from gymnasium.utils import seeding

    envs = native_env("shutthebox/ShutTheBoxSolo-v0", 16)
    for seed in (3, 4):
        envs.reset(seed=seed)
        uniforms = seeding.np_random(seed)[0]
        for _ in range(30):
            u = uniforms.random(16)
            legal = [np.flatnonzero(mask) for mask in envs.action_masks()]
            actions = envs.sample_legal()
            assert actions.tolist() == [int(a[int(x * len(a))]) for a, x in zip(legal, u)]
            envs.step(actions)
