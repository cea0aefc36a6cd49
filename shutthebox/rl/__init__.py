"""Reinforcement-learning environments with exact answers: every decision's value from the tables
(``pip install ".[rl]"`` from the checkout; docs/RL.md).

Importing this package registers the Gymnasium environments (one player)::

    import gymnasium
    import shutthebox.rl

    env = gymnasium.make("shutthebox/ShutTheBoxSolo-v0")       # variant=, objective=
    env = gymnasium.make("shutthebox/Toggle-v0", cards=8, sides=4)
    env = gymnasium.make("shutthebox/GoatSolo-v0", goal=50)
    env = gymnasium.make("shutthebox/Pig-v0", goal=50)  # against the table's optimal player
    env = gymnasium.make("shutthebox/Yazy-v0", categories="ones,yazy")  # every game with a game model:
    env = gymnasium.make("shutthebox/Yahtzee-v0", joker="free")  # (when the registry has Yahtzee)
    env = gymnasium.make("shutthebox/Threes-v0", dice=4)

and the PettingZoo ones (every game with a game model of several players, as ``<game>_v0``) follow PettingZoo's
module convention::

    from shutthebox.rl import shutthebox_v0, goat_v0, pig_v0
    env = shutthebox_v0.env(players=3, tiles=10)
    env = goat_v0.env(goal=100)
    env = pig_v0.env(variant="piglet")

``import shutthebox.rl.openspiel`` (the ``openspiel`` extra) registers the games with OpenSpiel as
``python_shutthebox_solo``, ``python_shutthebox_pig``, ... with ``exact_value(state)`` from the tables.

``evaluate(policy, env_id, ...)`` gives what a policy loses a game against optimal play (exactly where the
state space allows), then its mean regret per decision along seeded episodes. Nothing else in ``shutthebox`` imports this package: questions
never import Gymnasium, PettingZoo or numpy.
"""

import importlib.machinery
import math
import sys
import types

import gymnasium

from .. import registry
from .model_env import aec_games

NAMESPACE = "shutthebox"
# id -> (entry point, max_episode_steps, reward_threshold): the one-player environments of their own. The time
# limit is well above any legal game of Shut the Box, and far above optimal play's mean for Goat; the threshold
# is within 1% of optimal play's expected return under the default rules (checked against the tables by
# tests/test_rl.py).
ENVIRONMENTS = {
    "ShutTheBoxSolo-v0": ("shutthebox.rl.solo:ShutTheBoxSoloEnv", 100, 0.0967),
    "Pig-v0": ("shutthebox.rl.pig:PigEnv", 1000, 0.5253),
}


def _model_games() -> dict:
    """``<Title>-v0`` -> game: every game with a game model of one player (yazy, Yahtzee, the games declared on
    a family engine), whose environment is its game model's (``model_env.ModelEnv``; the declarations are
    read, no table is loaded)."""
    found = {}
    for game in registry.GAMES:
        declared = registry.declaration(game)
        name = "%s-v0" % declared.title.replace(" ", "")
        if declared.has_model and declared.players() == 1 and name not in ENVIRONMENTS:
            found[name] = game
    return found


def _solo_games() -> dict:
    """``<id>`` -> game: every game of several players whose ``model.py`` states a one-player game (``SOLO``: its
    id, time limit and reward threshold; ``model(rules, players=1)`` its model), served as the one-player game
    models are (Goat's ``GoatSolo-v0``)."""
    import importlib

    found = {}
    for game in registry.GAMES:
        declared = registry.declaration(game)
        if declared.has_model and declared.hooks is None:
            solo = getattr(importlib.import_module(declared.package + ".model"), "SOLO", None)
            if solo is not None:
                found[solo["id"]] = game
    return found


def _stated(game: str, name: str):
    """What the game's own ``model.py`` states as ``name`` (``REWARD_THRESHOLD``, ``MAX_EPISODE_STEPS``), or None
    (a game declared on a family engine states nothing)."""
    import importlib

    declared = registry.declaration(game)
    if declared.hooks is not None:
        return None
    return getattr(importlib.import_module(declared.package + ".model"), name, None)


def _threshold(game: str):
    """The game model's ``REWARD_THRESHOLD`` where its ``model.py`` states one; else 0.5% below optimal play's
    expected return under the game's default rules, from its table where one is at hand (shipped or cached: a
    table is never solved to register an environment); None otherwise."""
    from ..errors import TableError

    stated = _stated(game, "REWARD_THRESHOLD")
    if stated is not None:
        return stated
    declared = registry.declaration(game)
    try:
        table = declared.tables[0].table().load(build=False)
    except TableError:
        return None
    model = declared.model(table.rules)
    best = model.value(model.initial())[0]
    return math.floor((best - 0.005 * abs(best)) * 1e4) / 1e4


# The games of a game model: the time limit is far above any game's decisions (a set-aside game of 8 dice
# has at most 8, yazy 55, Yahtzee 65), unless the game's ``model.py`` states its own (``MAX_EPISODE_STEPS``:
# toggle's 1000, a game of rolls without bound).
MODEL_GAMES = _model_games()
MODEL_STEPS = 100
SOLO_GAMES = _solo_games()

ENV_IDS = tuple("%s/%s" % (NAMESPACE, name) for name in [*ENVIRONMENTS, *MODEL_GAMES, *SOLO_GAMES])
# The native batched environments (shutthebox.rl.vector): gymnasium.make_vec(id, num_envs=1024,
# vectorization_mode="vector_entry_point").
VECTOR = {"ShutTheBoxSolo-v0": "shutthebox.rl.vector:ShutTheBoxSoloVectorEnv",
          "Pig-v0": "shutthebox.rl.vector:PigVectorEnv"}
# Every game model's (shutthebox.rl.model_vector): the registration's kwargs {"game": ...} reach it too.
MODEL_VECTOR = "shutthebox.rl.model_vector:ModelVectorEnv"


def _register() -> None:
    for name, (entry_point, steps, threshold) in ENVIRONMENTS.items():
        env_id = "%s/%s" % (NAMESPACE, name)
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=entry_point, max_episode_steps=steps,
                               reward_threshold=threshold, vector_entry_point=VECTOR.get(name))
    for name, game in MODEL_GAMES.items():
        env_id = "%s/%s" % (NAMESPACE, name)
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="shutthebox.rl.model_env:ModelEnv", kwargs={"game": game},
                               max_episode_steps=_stated(game, "MAX_EPISODE_STEPS") or MODEL_STEPS,
                               reward_threshold=_threshold(game),
                               vector_entry_point=MODEL_VECTOR)
    for name, game in SOLO_GAMES.items():
        env_id = "%s/%s" % (NAMESPACE, name)
        if env_id not in gymnasium.registry:
            solo = _stated(game, "SOLO")
            gymnasium.register(id=env_id, entry_point="shutthebox.rl.model_env:ModelEnv",
                               kwargs={"game": game, "players": 1}, max_episode_steps=solo["max_episode_steps"],
                               reward_threshold=solo["reward_threshold"], vector_entry_point=MODEL_VECTOR)


_register()


def _aec_module(name: str, game: str) -> types.ModuleType:
    """The module ``shutthebox.rl.<game>_v0`` (PettingZoo's convention: ``env``, ``raw_env``), entered in
    ``sys.modules``; its parts are made when first read (``_aec.module_parts``), so that importing this package
    imports no PettingZoo."""
    full = "%s.%s" % (__name__, name)
    module = types.ModuleType(full, "%s for several players, PettingZoo AEC (``from shutthebox.rl import %s``;"
                              " ``%s.env(**options)``: docs/RL.md)." % (registry.declaration(game).title, name, name))
    module.__spec__ = importlib.machinery.ModuleSpec(full, None)
    module.__all__ = ["env", "raw_env"]

    def parts(attribute: str):
        if attribute not in module.__all__:
            raise AttributeError("module %r has no attribute %r" % (full, attribute))
        from ._aec import module_parts

        vars(module).update(module_parts(game, full))
        return vars(module)[attribute]

    module.__getattr__ = parts  # type: ignore[method-assign]
    sys.modules[full] = module
    return module


# The PettingZoo environments: shutthebox_v0, goat_v0, pig_v0, ... (`from shutthebox.rl import pig_v0`).
AEC_GAMES = aec_games()
globals().update((name, _aec_module(name, game)) for name, game in AEC_GAMES.items())


def evaluate(policy, env_id: str, **options):
    """See :func:`shutthebox.rl.evaluation.evaluate`; for the PettingZoo environments (``"pig_v0"``,
    ``"goat_v0"``, ``"shutthebox_v0"``) :func:`shutthebox.rl.versus.evaluate_versus`, the policy against the
    table's player."""
    if env_id.rsplit(".", 1)[-1] in AEC_GAMES:
        from .versus import evaluate_versus

        return evaluate_versus(policy, env_id, **options)
    from .evaluation import evaluate as _evaluate

    return _evaluate(policy, env_id, **options)


def dataset(env_id: str, path, **options) -> int:
    """See :func:`shutthebox.rl._dataset.dataset`."""
    from ._dataset import dataset as _dataset

    return _dataset(env_id, path, **options)


def minari_dataset(env_id: str, dataset_id: str, **options):
    """See :func:`shutthebox.rl._minari.minari_dataset`: imports Minari (the ``minari`` extra) only now."""
    from ._minari import minari_dataset as _minari_dataset

    return _minari_dataset(env_id, dataset_id, **options)


def sb3_vec_env(env, num_envs: int = 1, **options):
    """See :class:`shutthebox.rl.sb3.NativeVecEnv`: imports Stable-Baselines3 (the ``sb3`` extra) only now."""
    from .sb3 import NativeVecEnv

    return NativeVecEnv(env, num_envs, **options)


__all__ = ["AEC_GAMES", "ENV_IDS", "NAMESPACE", "dataset", "evaluate", "minari_dataset", "sb3_vec_env", *AEC_GAMES]
