"""shutthebox.rl.sb3.NativeVecEnv: a native vector environment as a Stable-Baselines3 VecEnv, checked step by step
against SB3's own DummyVecEnv over the one-player environments on the same seeds, under SB3's VecMonitor and
VecCheckNan, and trained on directly by PPO and sb3-contrib's MaskablePPO (the ``sb3`` extra; these skip without
it) (docs/RL.md)."""

import subprocess
import sys

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")
pytest.importorskip("stable_baselines3")

from stable_baselines3.common.vec_env import DummyVecEnv, VecCheckNan, VecEnvWrapper, VecMonitor  # noqa: E402

import shutthebox.rl as rl  # noqa: E402

# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = pytest.mark.usefixtures("fresh_cache")
SOLO = "shutthebox/ShutTheBoxSolo-v0"
CASES = [(SOLO, {}), ("shutthebox/Toggle-v0", {"cards": 3, "sides": 5}), ("shutthebox/Pig-v0", {"goal": 30}),
         ("shutthebox/Threes-v0", {})]


def masks_of(envs):
    return np.stack(envs.env_method("action_masks"))  # as sb3-contrib's get_action_masks asks a VecEnv


@pytest.mark.parametrize("env_id,options", CASES)
def test_each_env_is_dummy_vec_envs_one_player_environment_step_by_step(env_id, options):
    """Same seeds, same actions (a random legal one, now and then any action: an illegal one is a no-op), a time
    limit of 6 steps: the same observations, rewards, dones, masks, terminal observations and truncations."""
    n = 5
    native = rl.sb3_vec_env(env_id, num_envs=n, max_episode_steps=6, **options)
    dummy = DummyVecEnv([lambda: gymnasium.make(env_id, max_episode_steps=6, **options)] * n)
    assert native.seed(11) == dummy.seed(11) == [11 + i for i in range(n)]
    obs, obs_d = native.reset(), dummy.reset()
    assert np.array_equal(obs, obs_d)
    rng = np.random.default_rng(1)
    ended = cut = 0
    for step in range(120):
        masks = masks_of(native)
        assert np.array_equal(masks, masks_of(dummy)), step
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        wrong = rng.random(n) < 0.1
        actions[wrong] = rng.integers(native.action_space.n, size=int(wrong.sum()))
        obs, rewards, dones, infos = native.step(actions)
        obs_d, rewards_d, dones_d, infos_d = dummy.step(actions)
        assert np.array_equal(obs, obs_d) and np.array_equal(dones, dones_d), step
        assert np.array_equal(rewards.astype(np.float32), rewards_d), step
        for i in np.flatnonzero(dones):
            assert np.array_equal(infos[i]["terminal_observation"], infos_d[i]["terminal_observation"]), step
            assert infos[i]["TimeLimit.truncated"] == infos_d[i]["TimeLimit.truncated"], step
            cut += infos[i]["TimeLimit.truncated"]
        ended += int(dones.sum())
    assert ended > cut > 0


def test_vec_monitor_and_vec_check_nan_wrap_it():
    """VecMonitor's episode returns and lengths are the rewards and steps counted here; VecCheckNan finds none;
    the wrappers pass env_method through (draws by sample_legal, every one legal)."""
    native = rl.sb3_vec_env("shutthebox/Toggle-v0", num_envs=8, cards=4, sides=3)
    envs = VecCheckNan(VecMonitor(native), raise_exception=True)
    envs.seed(0)
    envs.reset()
    returns, lengths, episodes = np.zeros(8), np.zeros(8, dtype=np.int64), 0
    for _ in range(200):
        actions = np.array(envs.env_method("sample_legal"))
        assert (masks_of(envs)[np.arange(8), actions] == 1).all()
        _, rewards, dones, infos = envs.step(actions)
        returns += rewards
        lengths += 1
        for i in np.flatnonzero(dones):
            assert infos[i]["episode"]["l"] == lengths[i]
            assert infos[i]["episode"]["r"] == pytest.approx(returns[i], abs=1e-6)
            returns[i], lengths[i] = 0.0, 0
            episodes += 1
    assert episodes > 50


def test_its_calls_read_the_one_native_environment():
    native = rl.sb3_vec_env(SOLO, num_envs=4, objective="score")
    assert native.get_attr("better") == ["fewer"] * 4 and native.get_attr("render_mode", [2]) == [None]
    assert native.has_attr("action_masks") and not native.has_attr("no_such_thing")
    assert native.env_is_wrapped(gymnasium.Wrapper) == [False] * 4
    native.seed(3)
    obs = native.reset()
    for i in range(4):  # env i is the one-player environment seeded 3 + i
        single = gymnasium.make(SOLO, objective="score")
        assert np.array_equal(obs[i], single.reset(seed=3 + i)[0])
    values = native.env_method("values", indices=[1, 3])
    assert values == native.env.values()[[1, 3]].tolist()
    native.set_attr("illegal_penalty", -99.0)
    assert native.env.illegal_penalty == -99.0
    with pytest.raises(ValueError, match="all of them"):
        native.set_attr("illegal_penalty", -1.0, indices=[0])
    with pytest.raises(ValueError, match="native vector environment"):
        rl.sb3_vec_env(gymnasium.make_vec(SOLO, num_envs=2, vectorization_mode="sync"))
    native.close()


class Illegal(VecEnvWrapper):
    """Counts the illegal actions played (the native environment's info of each step)."""

    count = 0

    def reset(self):
        return self.venv.reset()

    def step_wait(self):
        result = self.venv.step_wait()
        self.count += int(self.venv.infos_of_step["illegal"].sum())
        return result


@pytest.mark.slow
def test_ppo_and_maskable_ppo_learn_on_it():
    """PPO on Pig-v0 and MaskablePPO on solo Shut the Box, a few rollouts each, straight on the adapter under
    VecMonitor: episodes recorded, and MaskablePPO (reading the masks through env_method) plays no illegal action."""
    from stable_baselines3 import PPO

    import torch

    torch.set_num_threads(1)
    envs = VecMonitor(rl.sb3_vec_env("shutthebox/Pig-v0", num_envs=8, goal=20, exact_info=False))
    model = PPO("MlpPolicy", envs, n_steps=64, batch_size=128, n_epochs=2, seed=0, device="cpu")
    model.learn(total_timesteps=1024)
    assert model.num_timesteps >= 1024 and len(model.ep_info_buffer) > 0
    sb3_contrib = pytest.importorskip("sb3_contrib")
    counted = Illegal(rl.sb3_vec_env(SOLO, num_envs=8, exact_info=False))
    model = sb3_contrib.MaskablePPO("MlpPolicy", VecMonitor(counted), n_steps=64, batch_size=128, n_epochs=2, seed=0,
                                    device="cpu")
    model.learn(total_timesteps=1024)
    assert model.num_timesteps >= 1024 and len(model.ep_info_buffer) > 0 and counted.count == 0


def test_importing_shutthebox_rl_and_its_vector_environments_never_imports_sb3():
    code = ("import sys, gymnasium, shutthebox.rl as rl; gymnasium.make_vec(%r, num_envs=2, "
            "vectorization_mode='vector_entry_point').reset(seed=0); "
            "print(sorted({'stable_baselines3', 'sb3_contrib', 'torch'} & set(sys.modules)))" % SOLO)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout == "[]\n", done.stderr


@pytest.mark.slow
def test_the_docs_example_runs():
    """docs/RL.md's MaskablePPO example on the adapter, as the page shows it."""
    pytest.importorskip("sb3_contrib")
    import os

    import torch

    from conftest import ROOT
    from test_newcomer import code_blocks

    torch.set_num_threads(1)
    page = os.path.join(ROOT, "docs", "RL.md")
    [block] = [text for info, text in code_blocks(page) if info == "python" and "sb3_vec_env(" in text]
    exec(block, {"shutthebox": __import__("shutthebox.rl")})
