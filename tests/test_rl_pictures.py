"""``render_mode="rgb_array"``: every picture of an environment has one shape, whatever the position shows
(the dice thrown, a number's digits), as Gymnasium's ``RecordVideo`` needs; and the video is written."""

import warnings

import gymnasium
import numpy as np
import pytest

from shutthebox import rl
from test_rl import AEC_CASES, GYM_CASES

pytestmark = pytest.mark.usefixtures("fresh_cache")  # tables solved on first use: the session's rl-cache
MODEL_CASES = [(env_id, {}) for env_id in rl.ENV_IDS if env_id not in {case[0] for case in GYM_CASES}]


STEPS = 200  # of an episode of random actions (a toggle game's may be long)


def gym_frames(env_id, options, seeds=range(4)):
    """The pictures of a few episodes of random legal actions (their first ``STEPS``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # solving a table on first use says so
        env = gymnasium.make(env_id, render_mode="rgb_array", **options)
    for seed in seeds:
        rng = np.random.default_rng(seed)
        _, info = env.reset(seed=seed)
        yield env.render()
        for _ in range(STEPS):
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            yield env.render()
            if terminated or truncated:
                break


@pytest.mark.parametrize("env_id,options", GYM_CASES + MODEL_CASES)
def test_every_picture_of_an_environment_has_one_shape(env_id, options):
    shapes = {frame.shape for frame in gym_frames(env_id, options)}
    assert len(shapes) == 1, shapes


@pytest.mark.parametrize("name,options", AEC_CASES)
def test_every_picture_of_a_pettingzoo_game_has_one_shape(name, options):
    module = __import__("shutthebox.rl." + name, fromlist=["env"])
    env = module.env(render_mode="rgb_array", **options)
    shapes = set()
    for seed in range(4):
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        shapes.add(env.render().shape)
        for _ in env.agent_iter(STEPS):
            observation, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            if env.agents:
                shapes.add(env.render().shape)
    assert len(shapes) == 1, shapes


def test_numbers_and_dice_keep_their_room():
    """The picture's own rule: a number keeps room for its most's digits, a row of dice a place per die; a label
    longer than its room is cut, never widening the picture."""
    from shutthebox.rl._picture import board, dice, number

    def picture(value, faces):
        return board([[("text", "turn"), number(value, 120)] + dice(faces, 2), [("tile", str(value), True, 3)]])

    shapes = {picture(value, faces).shape for value in (0, 7, 42, 120, 123456) for faces in ((), (3,), (6, 6))}
    assert len(shapes) == 1, shapes
    assert picture(7, (3,)).shape[1] > board([[("text", "turn"), ("text", "7"), ("die", 3)]]).shape[1]
    empty, one = picture(7, ()), picture(7, (1,))
    assert not np.array_equal(empty, one)  # the die drawn where the empty place was


@pytest.mark.parametrize("env_id,options", [("shutthebox/Pig-v0", {}), ("shutthebox/Toggle-v0", {"cards": 4, "sides": 2})])
def test_record_video_writes_an_episode(env_id, options, tmp_path):
    pytest.importorskip("moviepy", reason="Gymnasium's RecordVideo writes with moviepy (pip install moviepy)")
    from gymnasium.wrappers import RecordVideo

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # moviepy's and the wrapper's own notes
        env = RecordVideo(gymnasium.make(env_id, render_mode="rgb_array", **options), str(tmp_path),
                          episode_trigger=lambda episode: True, disable_logger=True)
        rng = np.random.default_rng(3)
        for seed in (3, 4):
            _, info = env.reset(seed=seed)
            done = False
            while not done:
                _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
                done = terminated or truncated
        env.close()
    videos = sorted(path.name for path in tmp_path.iterdir() if path.suffix == ".mp4")
    assert len(videos) == 2 and all((tmp_path / name).stat().st_size > 0 for name in videos), videos
