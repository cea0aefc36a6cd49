"""shutthebox.rl with Stable-Baselines3 and sb3-contrib as they are, no glue: ``make_vec_env(id)`` and
MaskablePPO trained briefly then scored exactly by ``evaluate`` (the ``sb3`` extra: ``pip install ".[rl,sb3]"``;
these skip without it). make_vec_env's own calls are emulated without SB3 too, so they are checked
everywhere (docs/RL.md)."""

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import shutthebox.rl as rl  # noqa: E402


# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = pytest.mark.usefixtures("fresh_cache")


def _masked_steps(envs, masks_of, steps, seed):
    """Random legal actions from the masks ``masks_of()`` gives, ``steps`` times: the episodes ended."""
    rng = np.random.default_rng(seed)
    ended = 0
    for _ in range(steps):
        masks = masks_of()
        assert masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        result = envs.step(actions)
        ended += int(np.sum(result[2]))
    return ended


@pytest.mark.parametrize("env_id", rl.ENV_IDS)
def test_make_vec_env_calls_emulated(env_id):
    """What SB3's make_vec_env does with an id: gymnasium.make(id, render_mode="rgb_array") for each env; here
    in Gymnasium's SyncVectorEnv, rendering and stepping on masked random actions."""
    envs = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make(env_id, render_mode="rgb_array")] * 2)
    envs.reset(seed=0)

    def masks():  # as sb3-contrib's get_action_masks asks each environment
        return np.stack([env.get_wrapper_attr("action_masks")() for env in envs.envs])

    _masked_steps(envs, masks, 60, 1)
    pictures = envs.render()
    assert len(pictures) == 2 and all(p.dtype == np.uint8 and p.ndim == 3 for p in pictures)
    envs.close()


@pytest.mark.slow
@pytest.mark.parametrize("env_id", rl.ENV_IDS)
def test_make_vec_env(env_id):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env

    envs = make_vec_env(env_id, n_envs=2, seed=0)
    envs.reset()
    ended = _masked_steps(envs, lambda: np.stack(envs.env_method("action_masks")), 80, 2)
    if env_id.endswith(("ShutTheBoxSolo-v0", "Yazy-v0", "Yahtzee-v0")):
        assert ended >= 1
    pictures = envs.get_images()
    assert all(p.dtype == np.uint8 and p.ndim == 3 for p in pictures)
    envs.close()


@pytest.mark.slow
def test_maskable_ppo_is_scored_exactly_by_evaluate():
    """MaskablePPO trained a few thousand steps on make_vec_env(id), then evaluate(model, id): its predict
    gets the mask (no illegal action), and the state space gives its exact value and loss."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    env_id = "shutthebox/ShutTheBoxSolo-v0"
    model = MaskablePPO("MlpPolicy", make_vec_env(env_id, n_envs=2, seed=0), n_steps=256, batch_size=64, seed=0,
                        device="cpu")
    model.learn(total_timesteps=3000)
    report = rl.evaluate(model, env_id, episodes=200, seed=1)
    assert report.illegal == 0 and report.truncated == 0 and not report.stochastic
    assert report.exact is not None and report.loss_exact and 0 <= report.loss < report.optimum
    assert abs(report.mean - report.exact) <= 4 * report.mean_half_width + 1e-9
    assert str(report).splitlines()[1].startswith("  loss per episode:")
