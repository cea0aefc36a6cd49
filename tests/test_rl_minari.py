"""Minari data sets of the environments (``shutthebox.rl.minari_dataset``; docs/RL.md), loaded back by Minari
and checked against what they claim: the episodes and steps counted, observations and actions in the spaces,
each episode replayed from its stored seed on ``recover_environment()`` to the same steps and exact infos, the
returns as the game scores them, optimal play's every action optimal by the stored values, and the share of
other actions under epsilon-greedy and random play what the stored masks make likely. Skipped without the
``minari`` extra."""

import math
import os
import subprocess
import sys

import pytest

minari = pytest.importorskip("minari")
np = pytest.importorskip("numpy")

import shutthebox.rl as rl  # noqa: E402 - after the skips

from conftest import ROOT  # noqa: E402

EPISODES = 20
# env id, its options, what an episode's return must be from its last observation (None: the replay alone)
GAMES = {
    "solo": ("shutthebox/ShutTheBoxSolo-v0", {}, lambda last: float(last[:9].sum() == 0)),   # 1 when shut
    "pig": ("shutthebox/Pig-v0", {}, lambda last: float(last[0] >= 100)),                    # 1 when won
    "toggle": ("shutthebox/Toggle-v0", {"cards": 5, "sides": 4}, None),
    "threes": ("shutthebox/Threes-v0", {}, None),
    "yazy": ("shutthebox/Yazy-v0", {}, None),
}
CHANCE = {"optimal": 0.0, "epsilon": 0.3, "random": 1.0}


@pytest.fixture(autouse=True)
def datasets_path(tmp_path, monkeypatch):
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path))
    return tmp_path


def make(game, behaviour, name=None, **options):
    env_id, env_options, _ = GAMES[game]
    return rl.minari_dataset(env_id, "shutthebox/%s-v0" % (name or "%s-%s" % (game, behaviour)),
                             behaviour=behaviour, episodes=EPISODES, epsilon=CHANCE["epsilon"], seed=7,
                             **{**env_options, **options})


def legal_best(q, mask, more):
    values = q[mask == 1]
    return values.max() if more else values.min()


@pytest.mark.parametrize("behaviour", list(CHANCE))
@pytest.mark.parametrize("game", list(GAMES))
def test_a_data_set_loads_back_whole_and_every_episode_replays_from_its_seed(game, behaviour):
    make(game, behaviour)
    dataset = minari.load_dataset("shutthebox/%s-%s-v0" % (game, behaviour))
    env = dataset.recover_environment()
    more = env.unwrapped.better == "more"
    tie = getattr(env.unwrapped.model, "tie", 0.0)
    assert dataset.observation_space == env.observation_space and dataset.action_space == env.action_space
    episodes = list(dataset.iterate_episodes())
    assert dataset.total_episodes == len(episodes) == EPISODES
    assert dataset.total_steps == sum(len(episode) for episode in episodes)
    seeds = [meta["seed"] for meta in dataset.storage.get_episode_metadata(range(EPISODES))]
    assert seeds == list(range(7, 7 + EPISODES))
    other = expected = variance = 0.0
    for episode, seed in zip(episodes, seeds):
        steps, infos = len(episode), episode.infos
        assert episode.observations.shape[0] == steps + 1 and episode.actions.shape == (steps,)
        assert all(len(column) == steps + 1 for column in infos.values())
        assert all(dataset.observation_space.contains(o) for o in episode.observations)
        assert all(dataset.action_space.contains(int(a)) for a in episode.actions)
        assert not episode.terminations[:-1].any() and not episode.truncations[:-1].any()
        assert episode.terminations[-1] or episode.truncations[-1]
        # the replay: the same observations, rewards, ends and exact infos, float for float
        observation, info = env.reset(seed=int(seed))
        assert np.array_equal(observation, episode.observations[0])
        for t, action in enumerate(episode.actions):
            q, mask, optimal = infos["q_values"][t], infos["action_mask"][t], infos["optimal_mask"][t]
            assert np.array_equal(q, info["q_values"]) and np.array_equal(infos["q_return"][t], info["q_return"])
            assert np.array_equal(mask, info["action_mask"]) and np.array_equal(optimal, info["optimal_mask"])
            assert mask[action] == 1 and not infos["illegal"][t + 1]
            best = legal_best(q, mask, more)
            # optimal: the best within the game's tie (the regret 0); any other is charged what it loses
            if optimal[action]:
                assert abs(q[action] - best) <= max(tie, 1e-9 * max(1.0, abs(best))) and infos["regret"][t + 1] == 0
            else:
                assert abs(q[action] - best) > tie and infos["regret"][t + 1] == abs(best - q[action])
            observation, reward, terminated, truncated, info = env.step(int(action))
            assert np.array_equal(observation, episode.observations[t + 1]) and reward == episode.rewards[t]
            assert (terminated, truncated) == (episode.terminations[t], episode.truncations[t])
            legal, best_count = mask.sum(), optimal[mask == 1].sum()
            chance = CHANCE[behaviour] * (1 - best_count / legal)  # that this step's action is not optimal
            other += not optimal[action]
            expected += chance
            variance += chance * (1 - chance)
        assert info["regret"] == infos["regret"][-1] and np.array_equal(info["q_values"], infos["q_values"][-1])
        scored = GAMES[game][2]
        if scored is not None and episode.terminations[-1]:
            assert episode.rewards.sum() == scored(episode.observations[-1])
        if game == "toggle" and episode.terminations[-1]:
            assert -episode.rewards.sum() >= steps  # a roll for each card turned, and any passes
    env.close()
    # Each step's action is not optimal with its own chance, given the state: their sum is the expected count
    if behaviour == "optimal":
        assert other == 0
    else:
        assert abs(other - expected) <= 5 * math.sqrt(variance) + 1, (other, expected, variance)


def test_the_same_seed_gives_the_same_data_set_and_another_seed_another():
    first, again = make("solo", "epsilon", "a"), make("solo", "epsilon", "b")
    other = rl.minari_dataset("shutthebox/ShutTheBoxSolo-v0", "shutthebox/c-v0", behaviour="epsilon",
                              episodes=EPISODES, epsilon=CHANCE["epsilon"], seed=8)
    for one, two in zip(first.iterate_episodes(), again.iterate_episodes()):
        assert np.array_equal(one.observations, two.observations) and np.array_equal(one.actions, two.actions)
        assert all(np.array_equal(one.infos[name], two.infos[name]) for name in one.infos)
    assert [list(e.actions) for e in first.iterate_episodes()] != [list(e.actions) for e in other.iterate_episodes()]


def test_the_environments_options_reach_the_data_set_and_its_recovered_environment():
    dataset = make("solo", "random", objective="score", mask_observation=True)
    assert dataset.spec.env_spec.kwargs == {"objective": "score", "mask_observation": True}
    episode = dataset[0]
    assert set(episode.observations) == {"observation", "action_mask"}
    assert np.array_equal(episode.observations["action_mask"], episode.infos["action_mask"])
    env = dataset.recover_environment()
    assert env.unwrapped.better == "fewer" and env.unwrapped.mask_observation


@pytest.mark.parametrize("options, words", [
    ({"behaviour": "greedy"}, "behaviour must be one of"),
    ({"epsilon": 1.5}, "epsilon must be a number from 0 to 1"),
    ({"episodes": 0}, "episodes must be a whole number of at least 1"),
    ({"seed": -1}, "seed must be a whole number of at least 0"),
    ({"exact_info": False}, "keeps the exact info"),
])
def test_bad_arguments_are_refused_in_one_line(options, words, datasets_path):
    with pytest.raises(ValueError, match=words):
        rl.minari_dataset("shutthebox/ShutTheBoxSolo-v0", "shutthebox/bad-v0", **options)
    assert not (datasets_path / "shutthebox" / "bad-v0").exists()


def test_a_data_set_already_there_is_refused():
    make("solo", "optimal")
    with pytest.raises(ValueError, match="already exists"):
        make("solo", "optimal")


def test_importing_shutthebox_rl_imports_no_minari():
    code = "import sys, shutthebox.rl; print(sorted({'minari', 'h5py'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0 and done.stdout == "[]\n", done.stderr


def test_the_docs_example_runs(capsys):
    """docs/RL.md's Minari example, as the page shows it."""
    from test_newcomer import code_blocks

    [block] = [text for info, text in code_blocks(os.path.join(ROOT, "docs", "RL.md"))
               if info == "python" and "minari_dataset(" in text]
    exec(block, {})
    assert capsys.readouterr().out


def test_without_minari_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "minari", None)  # as if not installed
    monkeypatch.delitem(sys.modules, "shutthebox.rl._minari", raising=False)
    with pytest.raises(ImportError, match=r"pip install '\.\[rl,minari\]'"):
        rl.minari_dataset("shutthebox/ShutTheBoxSolo-v0", "shutthebox/solo-optimal-v0")
