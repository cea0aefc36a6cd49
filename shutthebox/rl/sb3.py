"""A native vector environment (``shutthebox.rl.vector``, ``model_vector``) as a Stable-Baselines3 ``VecEnv``, so
PPO, MaskablePPO and SB3's VecEnv wrappers (``VecMonitor``, ``VecNormalize``, ``VecCheckNan``) step every game at
once in numpy (docs/RL.md). Nothing imports this module but ``shutthebox.rl.sb3_vec_env``: importing
``shutthebox.rl`` never imports Stable-Baselines3.

    envs = shutthebox.rl.sb3_vec_env("shutthebox/ShutTheBoxSolo-v0", num_envs=64, exact_info=False)
    MaskablePPO("MlpPolicy", envs).learn(100_000)

Each env is a row of the native environment, which is one object: SB3's per-env calls read it once.
``env_method(name)`` calls its method once and gives each env its row (``action_masks``, what sb3-contrib asks;
``values``, ``state_numbers``, ``sample_legal``); ``get_attr`` gives each env the same attribute of it, and
``set_attr`` sets it for every env at once. An env ends and starts again in the same step, as SB3 expects: its
last observation is ``infos[i]["terminal_observation"]``, ``infos[i]["TimeLimit.truncated"]`` whether the time
limit cut it; the native environment's own info of the step (``regret``, ``q_values``, ... one array each, of
the ended games where an env ended) is ``infos_of_step``. ``seed(s)`` gives env i the seed s + i at the next
``reset``, as SB3's DummyVecEnv does, so env i plays the game of ``gymnasium.make(id)`` seeded s + i.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from .vector import ExactVectorEnv


class NativeVecEnv(VecEnv):
    """``env``: a native vector environment (``gymnasium.make_vec(id, vectorization_mode="vector_entry_point")``,
    not wrapped: wrap this VecEnv instead), or an id, made with ``num_envs`` and ``options``."""

    def __init__(self, env, num_envs: int = 1, **options):
        if isinstance(env, str):  # its ids are registered: importing this module ran shutthebox.rl first
            env = gymnasium.make_vec(env, num_envs=num_envs, vectorization_mode="vector_entry_point", **options)
        elif options or num_envs != 1:
            raise ValueError("num_envs and options are for an id: this environment is made already")
        if not isinstance(env, ExactVectorEnv):
            raise ValueError("NativeVecEnv takes a native vector environment of shutthebox.rl (made with "
                             "vectorization_mode='vector_entry_point', unwrapped), or its id, not %r" % (env,))
        self.env = env
        self.actions = np.zeros(env.num_envs, dtype=np.int64)
        self.infos_of_step: dict = {}
        super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

    def reset(self):
        seeds, self._seeds = self._seeds, [None] * self.num_envs
        options, self._options = self._options, [{} for _ in range(self.num_envs)]
        if any(options):
            raise ValueError("the native vector environment takes no reset options, not %r" % (options,))
        if seeds[0] is not None and seeds == [seeds[0] + i for i in range(self.num_envs)]:
            seed = seeds[0]  # what seed() gives: env i seeded s + i, and sample_legal's generator s
        else:
            seed = None if all(s is None for s in seeds) else seeds
        observations, self.infos_of_step = self.env.reset(seed=seed)
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return observations

    def step_async(self, actions) -> None:
        self.actions = np.asarray(actions)

    def step_wait(self):
        observations, rewards, terminated, truncated, self.infos_of_step = self.env.step(self.actions)
        dones = terminated | truncated
        infos: list = [{} for _ in range(self.num_envs)]
        ended = np.flatnonzero(dones)
        if len(ended):
            cut = (truncated & ~terminated)[ended].tolist()
            for i, last, limit in zip(ended.tolist(), observations[ended], cut):
                infos[i] = {"terminal_observation": last, "TimeLimit.truncated": limit}
            observations = self.env.restart(dones)
        return observations, rewards, dones, infos

    def close(self) -> None:
        self.env.close()

    def get_attr(self, attr_name: str, indices=None) -> list:
        value = getattr(self.env, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        if sorted(self._get_indices(indices)) != list(range(self.num_envs)):
            raise ValueError("the envs are rows of one native vector environment: set_attr sets an attribute for "
                             "all of them (indices=None)")
        setattr(self.env, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        """The native environment's method called once: each env's row of what it returns where it returns a row
        for each env (``action_masks``: the masks), else the same result for each."""
        result = getattr(self.env, method_name)(*method_args, **method_kwargs)
        rows = isinstance(result, (np.ndarray, list, tuple)) and len(result) == self.num_envs
        return [result[i] if rows else result for i in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list:
        return [False for _ in self._get_indices(indices)]  # rows of one environment: no Gymnasium wrapper

    def action_masks(self) -> np.ndarray:
        """Every env's legal actions (rows x actions, int8), as ``env_method("action_masks")`` stacks them."""
        return self.env.action_masks()


__all__ = ["NativeVecEnv"]
