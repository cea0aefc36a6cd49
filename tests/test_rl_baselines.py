"""examples/rl_baselines.py: its exact values of random play, against independent computations (docs/RL.md's
baselines table)."""

import importlib.util
import os

import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from conftest import ROOT  # noqa: E402

import shutthebox.rl as rl  # noqa: E402


# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = pytest.mark.usefixtures("fresh_cache")


@pytest.fixture(scope="module")
def baselines():
    spec = importlib.util.spec_from_file_location("rl_baselines", os.path.join(ROOT, "examples", "rl_baselines.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_solo_random_play_is_the_mean_over_P(baselines):
    """The recursion's chance to shut under uniformly random legal moves is the one dynamic programming over the
    toy-text model gives, each legal action weighed equally."""
    game = gymnasium.make("shutthebox/ShutTheBoxSolo-v0").unwrapped
    P, width = game.P, game.model.width
    memo = {}

    def value(s):
        if s not in memo:
            moves = P[s]
            memo[s] = sum(sum(p * (r + (0.0 if done else value(after))) for p, after, r, done in outcomes)
                          for outcomes in moves.values()) / len(moves)
        return memo[s]

    rolls = game.model.weights[2]  # the first throw: two dice
    start = sum(w * value(511 * width + roll) for roll, w in rolls.items() if roll in game.model.legal(511))
    assert abs(baselines.solo_random_exact(game) - start / game.model.rules.outcomes) < 1e-12


def test_pig_value_iteration_agrees_with_the_duel_engine(baselines):
    """The value iteration the baselines use for random play gives a deterministic policy ("hold at 8", Pig to
    15) the same chance as ``evaluate``'s exact pass (the Pig solver's duel engine)."""
    goal = 15
    game = gymnasium.make("shutthebox/Pig-v0", goal=goal).unwrapped
    i, j, k = np.meshgrid(np.arange(goal), np.arange(goal), np.arange(goal), indexing="ij")
    rolls = ((k < 8) & (i + k < goal)).astype(float)
    report = rl.evaluate(lambda observation: int(observation[2] < 8), "shutthebox/Pig-v0", episodes=0, goal=goal)
    assert abs(baselines.pig_exact(game, rolls) - report.exact) < 1e-12
    mixed = baselines.pig_exact(game, np.full((goal, goal, goal), 0.5))
    assert 0.0 < mixed < report.exact  # random play does worse than a sound threshold
