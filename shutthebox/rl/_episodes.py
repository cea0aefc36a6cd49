"""Seeded episodes of a one-player environment under a behaviour, each step with the environment's exact info:
what the offline data sets are made of (``_minari``; docs/RL.md).

- ``optimal``: an optimal action at every decision, the first of ``info["optimal_actions"]``;
- ``epsilon``: the same, but with chance ``epsilon`` a legal action drawn uniformly (an optimal one among them);
- ``random``: a legal action drawn uniformly at every decision.

Episode ``i`` is the environment's game reset with ``seed + i``; the behaviour draws from a generator of its
own, seeded by ``seed`` too, so the same arguments give the same episodes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

BEHAVIOURS = ("optimal", "epsilon", "random")
# The exact info every step keeps: each a fixed shape, as data sets store them (``optimal_actions``, a tuple of
# any length, is ``optimal_mask``'s ones).
KEPT = ("action_mask", "q_values", "q_return", "optimal_mask", "regret", "illegal")


@dataclass
class Episode:
    """One game: ``observations`` and ``infos`` have one more entry than the steps (the reset's first)."""

    seed: int
    observations: list = field(default_factory=list)
    actions: list = field(default_factory=list)
    rewards: list = field(default_factory=list)
    terminations: list = field(default_factory=list)
    truncations: list = field(default_factory=list)
    infos: list = field(default_factory=list)


def check(behaviour: str, episodes: int, epsilon: float, seed: int) -> None:
    """ValueError naming the first argument out of range."""
    if behaviour not in BEHAVIOURS:
        raise ValueError("behaviour must be one of %s, not %r" % (", ".join(map(repr, BEHAVIOURS)), behaviour))
    for name, value, low in (("episodes", episodes, 1), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError("%s must be a whole number of at least %d, not %r" % (name, low, value))
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0 <= epsilon <= 1:
        raise ValueError("epsilon must be a number from 0 to 1, not %r" % (epsilon,))


def play(env, behaviour: str = "optimal", *, episodes: int, epsilon: float = 0.1, seed: int = 0):
    """Yield ``episodes`` games of ``env`` (made by ``gymnasium.make`` with exact info) under ``behaviour``,
    each an :class:`Episode` whose infos hold :data:`KEPT`. An episode ends when the game does or at the
    environment's time limit."""
    check(behaviour, episodes, epsilon, seed)
    # (seed, 1): apart from the dice's streams, which reset(seed=seed + i) seeds with one number
    rng = np.random.default_rng((int(seed), 1))
    chance = {"optimal": 0.0, "epsilon": float(epsilon), "random": 1.0}[behaviour]
    for i in range(episodes):
        episode = Episode(int(seed) + i)
        observation, info = env.reset(seed=episode.seed)
        if "q_values" not in info:
            raise ValueError("the episodes keep the exact info: make the environment with exact_info=True")
        episode.observations.append(observation)
        episode.infos.append({name: info[name] for name in KEPT})
        done = False
        while not done:
            if chance and (chance == 1.0 or rng.random() < chance):
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            else:
                action = info["optimal_actions"][0]
            observation, reward, terminated, truncated, info = env.step(action)
            episode.actions.append(action)
            episode.rewards.append(float(reward))
            episode.terminations.append(bool(terminated))
            episode.truncations.append(bool(truncated))
            episode.observations.append(observation)
            episode.infos.append({name: info[name] for name in KEPT})
            done = terminated or truncated
        yield episode
