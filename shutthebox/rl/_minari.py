"""Offline-RL data sets in Minari's format (the ``minari`` extra; docs/RL.md): seeded episodes of a one-player
environment under a behaviour (``_episodes``), every step's exact info kept, written by Minari's
``create_dataset_from_buffers`` under its data path (``$MINARI_DATASETS_PATH``, else ``~/.minari/datasets``).

Minari's ``DataCollector`` wrapper would step the same episodes, but it appends each step with jax
(``minari[create]``, some 380 MB installed): the episodes are gathered here and handed to Minari whole.
Nothing imports this module but ``shutthebox.rl.minari_dataset``.
"""

from __future__ import annotations

import warnings

import gymnasium

try:
    import minari
    from minari.data_collector import EpisodeBuffer
except ImportError as error:  # the extra is optional: say how to add it
    raise ImportError("Minari data sets need the minari extra: .venv/bin/pip install '.[rl,minari]' from the "
                      "checkout") from error

from ._episodes import check, play

ALGORITHMS = {"optimal": "optimal play from the exact tables (the first optimal action)",
              "epsilon": "epsilon-greedy on the exact tables (epsilon %g: a legal action drawn uniformly)",
              "random": "a legal action drawn uniformly"}


def minari_dataset(env_id: str, dataset_id: str, *, behaviour: str = "optimal", episodes: int = 100,
                   epsilon: float = 0.1, seed: int = 0, **env_options):
    """Write ``episodes`` seeded episodes of ``env_id`` (made with ``env_options``) under ``behaviour``
    (``"optimal"``, ``"epsilon"`` with ``epsilon``, ``"random"``) as the Minari data set ``dataset_id``
    (``"shutthebox/solo-optimal-v0"``: namespace/name-version) and return it (``minari.MinariDataset``).

    Each episode's infos hold, for the reset and every step, ``action_mask``, ``q_values``, ``q_return``,
    ``optimal_mask`` (the state's exact info, for the action taken there), ``regret`` and ``illegal`` (of the
    action that led there); episode ``i`` is the game reset with ``seed + i`` (Minari keeps it), and
    ``recover_environment()`` makes the same environment. A data set of that id already there is refused."""
    check(behaviour, episodes, epsilon, seed)
    if not env_options.get("exact_info", True):
        raise ValueError("a data set keeps the exact info: exact_info=False is refused")
    env = gymnasium.make(env_id, **env_options)
    try:
        buffers = [EpisodeBuffer(id=number, seed=episode.seed, observations=_columns(episode.observations),
                                 actions=episode.actions, rewards=episode.rewards,
                                 terminations=episode.terminations, truncations=episode.truncations,
                                 infos=_columns(episode.infos))
                   for number, episode in enumerate(play(env, behaviour, episodes=episodes, epsilon=epsilon,
                                                         seed=seed))]
    finally:
        env.close()
    algorithm = ALGORITHMS[behaviour] % epsilon if behaviour == "epsilon" else ALGORITHMS[behaviour]
    description = ("%d episodes of %s (%s), seeds %d to %d, by %s; infos: the exact values of every state"
                   % (episodes, env_id, ", ".join("%s=%r" % item for item in sorted(env_options.items())) or
                      "default rules", seed, seed + episodes - 1, algorithm))
    with warnings.catch_warnings():  # the data set is made here, not published: no address or email to give
        warnings.filterwarnings("ignore", message="`(code_permalink|author_email)` is set to None")
        return minari.create_dataset_from_buffers(dataset_id, buffers, env=env, eval_env=env.spec,
                                                  algorithm_name=algorithm, author="shutthebox.rl",
                                                  description=description)


def _columns(rows: list):
    """Rows of dicts (infos; observations with ``mask_observation``) as a dict of columns, as Minari stores them;
    other rows as they are."""
    if isinstance(rows[0], dict):
        return {name: [row[name] for row in rows] for name in rows[0]}
    return rows
