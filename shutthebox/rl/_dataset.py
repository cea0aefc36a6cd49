"""Every decision state of a small game with its exact answers, as one ``.npz`` file (docs/RL.md):
supervised learning of the optimal policy or of the values, offline RL, checks of a network.

    from shutthebox.rl import dataset
    count = dataset("shutthebox/ShutTheBoxSolo-v0", "solo.npz", objective="score")

Shut the Box solo, toggle (up to 12 cards), Goat solo and Pig-v0: the games whose states ``P`` numbers
(``encode``).
"""

from __future__ import annotations

import gymnasium
import numpy as np

GAMES = ("shutthebox/ShutTheBoxSolo-v0", "shutthebox/Toggle-v0", "shutthebox/GoatSolo-v0", "shutthebox/Pig-v0")
MAX_TOGGLE_CARDS = 12  # 4096 x 49 states to try


def dataset(env_id: str, path, *, compressed: bool = True, **env_options) -> int:
    """Write every decision state of ``env_id`` (made with ``env_options``) to ``path`` (numpy's ``.npz``) and
    return how many there are. Arrays, one row a state, in the order of ``encode``:

    - ``state`` (int64): the state's number (``env.unwrapped.decode`` gives its tuple, as ``get_state()``);
    - ``observation`` (int64): the environment's observation there;
    - ``action_mask``, ``optimal_mask`` (int8): the legal and the optimal actions;
    - ``q_values`` (the game's unit, the worst value where illegal), ``q_return`` (reward units, -inf where
      illegal), ``value`` (the state's exact value, the game's unit), float64.

    A decision state is one the environment can start from (``reset(options={"state": ...})``): every one the
    game can reach, and a few more that the rules allow but no game reaches from the start (Goat's banked
    scores, say)."""
    if env_id not in GAMES:
        raise ValueError("dataset writes the games whose states are numbered (%s), not %r" % (", ".join(GAMES),
                                                                                            env_id))
    env = gymnasium.make(env_id, **env_options)
    game = env.unwrapped
    if env_id == GAMES[1] and game.rules.cards > MAX_TOGGLE_CARDS:
        raise ValueError("toggle's dataset is written up to %d cards, not %d" % (MAX_TOGGLE_CARDS, game.rules.cards))
    rows = {name: [] for name in ("state", "observation", "action_mask", "optimal_mask", "q_values", "q_return",
                                  "value")}
    for number in range(len(game.P)):
        try:
            observation, info = game.reset(options={"state": game.decode(number)})
        except ValueError:  # no decision there
            continue
        rows["state"].append(number)
        rows["observation"].append(observation)
        rows["value"].append(game.value())
        for name in ("action_mask", "optimal_mask", "q_values", "q_return"):
            rows[name].append(info[name])
    env.close()
    arrays = {"state": np.array(rows["state"], dtype=np.int64), "value": np.array(rows["value"], dtype=np.float64)}
    for name in ("observation", "action_mask", "optimal_mask", "q_values", "q_return"):
        arrays[name] = np.stack(rows[name])
    (np.savez_compressed if compressed else np.savez)(path, **arrays)
    return len(rows["state"])
