"""shutthebox.rl: registration, the Gymnasium and PettingZoo checks, illegal actions, seeds, and that nothing
else imports it (docs/RL.md). The agreement with the command line is tests/test_rl_exact.py."""

import ast
import os
import subprocess
import sys
import warnings

import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from conftest import ROOT, slow_when  # noqa: E402

import shutthebox.rl as rl  # noqa: E402
from shutthebox import InvalidQuery, registry  # noqa: E402


# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = pytest.mark.usefixtures("fresh_cache")


# Each one-player environment with several rule sets (small ones where the table is solved on first use).
GYM_CASES = [
    ("shutthebox/ShutTheBoxSolo-v0", {}),
    ("shutthebox/ShutTheBoxSolo-v0", {"variant": "two-dice", "objective": "score"}),
    ("shutthebox/ShutTheBoxSolo-v0", {"variant": "two-tiles"}),
    ("shutthebox/ShutTheBoxSolo-v0", {"tiles": 6, "one_die": "never", "objective": "score"}),
    ("shutthebox/ShutTheBoxSolo-v0", {"tiles": 6, "one_die": "optional:high"}),  # a choice before every throw
    ("shutthebox/ShutTheBoxSolo-v0", {"one_die": "optional:6,high", "objective": "score"}),
    ("shutthebox/Toggle-v0", {}),
    ("shutthebox/Toggle-v0", {"cards": 4, "sides": 2}),
    ("shutthebox/Toggle-v0", {"cards": 3, "sides": 5}),  # dice above the cards: rolls that pass
    ("shutthebox/GoatSolo-v0", {}),
    ("shutthebox/GoatSolo-v0", {"goal": 7}),
    ("shutthebox/Yazy-v0", {}),
]
if "yahtzee" in registry.GAMES:
    GYM_CASES += [("shutthebox/Yahtzee-v0", {}), ("shutthebox/Yahtzee-v0", {"rational": True})]
GYM_CASES += [("shutthebox/Pig-v0", {}), ("shutthebox/Pig-v0", {"variant": "two-dice", "goal": 30}),
              ("shutthebox/Pig-v0", {"variant": "piglet", "seat": 1, "goal": 3})]

AEC_CASES = [
    ("shutthebox_v0", {}),
    ("shutthebox_v0", {"players": 3, "tiles": 6, "one_die": "optional:6,high"}),
    ("shutthebox_v0", {"players": 2, "tiles": 5, "dice": 3, "sides": 4, "max_move_tiles": 2}),
    ("goat_v0", {}),
    ("goat_v0", {"goal": 12}),
    ("pig_v0", {}),
    ("pig_v0", {"variant": "big-pig", "goal": 30}),
]


def make_aec(name, options):
    module = __import__("shutthebox.rl." + name, fromlist=["env"])
    return module.env(**options)


def test_registered():
    names = {"shutthebox/ShutTheBoxSolo-v0", "shutthebox/Toggle-v0", "shutthebox/GoatSolo-v0", "shutthebox/Yazy-v0",
             "shutthebox/Pig-v0"}
    if "yahtzee" in registry.GAMES:
        names.add("shutthebox/Yahtzee-v0")
    names.update("shutthebox/%s" % name for name in rl.MODEL_GAMES)  # every game of a game model
    assert rl.MODEL_GAMES == {"Threes-v0": "threes", "Toggle-v0": "toggle", "Yazy-v0": "yazy",
                              **({"Yahtzee-v0": "yahtzee"} if "yahtzee" in registry.GAMES else {})}
    assert set(rl.ENV_IDS) == names
    assert names <= set(gymnasium.registry)


PROBE = """
import sys
import shutthebox
from shutthebox.cli import main
for argv in %r:
    main(argv)
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("gymnasium", "pettingzoo", "numpy")
             or m.startswith("shutthebox.rl"))
print("imported:", bad)
"""


def test_questions_import_no_rl_module():
    argv = [["--one", "--expect", "123456789"], ["--solo", "--move", "12345", "7"], ["toggle", "--expect", "all"],
            ["goat", "--solo", "--expect", "0"], ["yazy", "--move", "all", "13366", "2"], ["pig", "--options", "0", "0", "5"]]
    result = subprocess.run([sys.executable, "-c", PROBE % (argv,)], capture_output=True, text=True, cwd=ROOT,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "imported: []"


def test_nothing_else_imports_rl():
    package = os.path.join(ROOT, "shutthebox")
    for folder, _, files in os.walk(package):
        if os.path.relpath(folder, package).split(os.sep)[0] == "rl":
            continue
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as handle:
                tree = ast.parse(handle.read(), path)
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom):
                    names = [("." * node.level) + (node.module or "")]
                    names += [names[0] + "." + alias.name for alias in node.names]
                else:
                    continue
                for imported in names:
                    assert not (imported.startswith("shutthebox.rl") or imported.lstrip(".").startswith("rl")
                                or imported.lstrip(".") == "rl"), "%s imports %s" % (path, imported)


@pytest.mark.slow
@pytest.mark.parametrize("env_id,options", GYM_CASES)
def test_check_env(env_id, options):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(env_id, render_mode="ansi", **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker is a failure
        check_env(env.unwrapped)


@pytest.mark.slow
@pytest.mark.parametrize("name,options", AEC_CASES)
def test_pettingzoo_api_and_seed(name, options):
    from pettingzoo.test import api_test, seed_test

    api_test(make_aec(name, options), num_cycles=200)
    seed_test(lambda: make_aec(name, options), num_cycles=200)


@pytest.mark.parametrize("env_id,options", slow_when(GYM_CASES[:1] + GYM_CASES[3:5] + GYM_CASES[8:9] + GYM_CASES[10:11],
                                                     [("shutthebox/GoatSolo-v0", {"goal": 7})], unpack=True))
def test_illegal_action_changes_nothing(env_id, options):
    env = gymnasium.make(env_id, **options)
    obs, info = env.reset(seed=5)
    while info["action_mask"].all():  # yazy's first roll: every action is legal
        obs, _, _, _, info = env.step(info["optimal_actions"][0])
    illegal = np.flatnonzero(info["action_mask"] == 0)
    before = env.unwrapped.value()
    obs2, reward, terminated, truncated, info2 = env.step(int(illegal[0]))
    assert (obs2 == obs).all() and reward == 0.0 and not terminated and not truncated
    assert info2["illegal"] is True and info2["regret"] == 0.0
    assert env.unwrapped.value() == before
    assert (info2["action_mask"] == info["action_mask"]).all()
    legal = int(np.flatnonzero(info["action_mask"])[0])
    assert env.step(legal)[4]["illegal"] is False


@pytest.mark.parametrize("env_id,options", GYM_CASES)
def test_info_and_seeds(env_id, options):
    """The same seed gives the same episode; q_values are finite exactly where legal, the worst value
    elsewhere, never NaN; optimal actions are legal and have regret 0; the mask matches action_masks()."""
    runs = []
    for _ in range(2):
        env = gymnasium.make(env_id, render_mode="ansi", **options)
        game = env.unwrapped
        obs, info = env.reset(seed=11)
        worst = -np.inf if game.better == "more" else np.inf
        trace = [obs.tolist()]
        for step in range(60):
            mask, q = info["action_mask"], info["q_values"]
            assert mask.dtype == np.int8 and (mask == game.action_masks()).all()
            assert not np.isnan(q).any()
            assert (np.isfinite(q) == (mask == 1)).all() and (q[mask == 0] == worst).all()
            best = q.max() if game.better == "more" else q.min()
            assert all(mask[a] for a in info["optimal_actions"])
            # optimal_mask: fixed shape, int8, the optimal actions; q_return: the values as returns, argmax legal
            optimal = info["optimal_mask"]
            assert optimal.dtype == np.int8 and optimal.shape == mask.shape
            assert np.flatnonzero(optimal).tolist() == list(info["optimal_actions"])
            q_return = info["q_return"]
            assert int(np.argmax(q_return)) in info["optimal_actions"]
            assert (q_return[mask == 0] == -np.inf).all()
            owed = game._owed  # toggle: the passes reset drew, charged to the first step
            sign = 1.0 if game.better == "more" else -1.0
            assert np.allclose(q_return[mask == 1], sign * q[mask == 1] + owed, rtol=0, atol=1e-12)
            assert abs(game.value() - (best + sign * owed)) < 1e-9
            assert game.render().strip()
            choice = info["optimal_actions"][0] if step % 2 else int(np.flatnonzero(mask)[step % int(mask.sum())])
            obs, reward, terminated, truncated, info = env.step(choice)
            if step % 2:
                assert info["regret"] == 0.0
            assert info["regret"] >= 0.0
            trace.append((obs.tolist(), reward, terminated))
            if terminated:  # the game is over: every action a no-op worth 0 (no empty mask for a sampler)
                assert game.value() == 0.0 and info["action_mask"].all() and not info["q_values"].any()
                assert not info["q_return"].any() and info["optimal_mask"].all()
                obs, info = env.reset()
                trace.append(obs.tolist())
        runs.append(trace)
    assert runs[0] == runs[1]


def test_options_checked_as_the_command_checks_them():
    with pytest.raises(InvalidQuery, match="--cards must be a whole number from 1 to 16"):
        gymnasium.make("shutthebox/Toggle-v0", cards=20)
    with pytest.raises(InvalidQuery, match="unknown variant"):
        gymnasium.make("shutthebox/ShutTheBoxSolo-v0", variant="three-dice")
    with pytest.raises(InvalidQuery, match="--goal must be a whole number"):
        gymnasium.make("shutthebox/GoatSolo-v0", goal=1)
    from shutthebox.rl import shutthebox_v0

    with pytest.raises(InvalidQuery, match="--players"):
        shutthebox_v0.env(players=9)


def test_rules_whose_first_roll_may_fit_no_move_are_refused_never_a_failing_reset():
    # 4 tiles sum to 10, so two dice are thrown first, and 11 or 12 fits no move: a game could end before the
    # first action. Such rules are refused when the environment is made; every seed of the others resets.
    with pytest.raises(InvalidQuery, match="no move fits a first roll of 11 or 12"):
        gymnasium.make("shutthebox/ShutTheBoxSolo-v0", tiles=4)
    for rules in ({"tiles": 4, "one_die": "optional:10"}, {"tiles": 5}):
        env = gymnasium.make("shutthebox/ShutTheBoxSolo-v0", **rules)
        for seed in range(60):
            env.reset(seed=seed)


def test_render_writes_the_command_line_question():
    env = gymnasium.make("shutthebox/Toggle-v0", render_mode="ansi")
    env.reset(seed=3)
    game = env.unwrapped
    _, x, y, _ = game.get_state()
    assert game.render().startswith("face up 1,2,3,4,5,6,7,8,9,10,11,12, dice %d %d" % (x, y))
    assert "ShutTheBox toggle --cards 12 --sides 6 --move 1,2,3,4,5,6,7,8,9,10,11,12" in game.render()


def test_evaluate_optimal_policy_is_the_optimum():
    """The table's own moves, as a policy of the observation, are worth exactly the table's value."""
    from fractions import Fraction

    from shutthebox.games.shutthebox.solo.table import load_solo

    table = load_solo("standard")

    def optimal(observation):
        return table.move_mask(sum(int(bit) << i for i, bit in enumerate(observation[:9])), int(observation[9]))

    report = rl.evaluate(optimal, "shutthebox/ShutTheBoxSolo-v0", episodes=200, seed=2)
    assert report.exact == report.optimum  # the same float: the table stores the exact value correctly rounded
    assert isinstance(report.exact_fraction, Fraction)
    assert report.regret == 0.0 and report.illegal == 0


def test_solo_optional_one_die_is_a_decision_before_the_throw():
    """Under an optional one die the actions are the moves and two throws (all dice, one die), as in
    shutthebox_v0; the choice waits with no dice showing (roll 0); a throw anywhere else, or a move then, is
    illegal and changes nothing; the same seed gives the same episode, choices included."""
    assert gymnasium.make("shutthebox/ShutTheBoxSolo-v0", tiles=6, one_die="6").action_space.n == 64
    env = gymnasium.make("shutthebox/ShutTheBoxSolo-v0", render_mode="ansi", tiles=6, one_die="optional:high")
    game = env.unwrapped
    assert env.action_space.n == 66 and game.model.throw == 64
    obs, info = env.reset(seed=4)
    assert obs.tolist() == [1] * 6 + [0] and np.flatnonzero(info["action_mask"]).tolist() == [64, 65]
    assert game.render().startswith("open 123456, throw one die or all   (ShutTheBox --tiles 6 --dice 2 --sides 6 "
                                    "--one-die optional:high --solo --expect 123456 --objective shut)")
    for illegal in (0, 1, 63, 66, -1):
        assert env.step(illegal)[4]["illegal"] and (env.unwrapped._observe() == obs).all()
    obs, _, terminated, _, info = env.step(65)  # one die
    assert 1 <= obs[6] <= 6 and not terminated and not info["illegal"]
    assert not info["action_mask"][64:].any() and env.step(64)[4]["illegal"]

    def episode(seed):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        trace, terminated = [], False
        while not terminated:
            legal = np.flatnonzero(env.unwrapped.action_masks())
            obs, reward, terminated, _, _ = env.step(int(legal[rng.integers(len(legal))]))
            trace.append((obs.tolist(), reward))
        return trace

    traces = [episode(seed) for seed in range(20)]
    assert traces == [episode(seed) for seed in range(20)]
    assert sum(obs[6] == 0 for trace in traces for obs, _ in trace[:-1]) >= 20  # choices along the way


@pytest.mark.parametrize("objective", ["shut", "score"])
def test_evaluate_optimal_policy_under_an_optional_one_die(objective):
    """The table's own choice of dice and moves, as a policy, is worth exactly the table's value, with no
    regret."""
    from shutthebox.engine.notation import format_set
    from shutthebox.games.shutthebox.rules import rules_from_options
    from shutthebox.games.shutthebox.solo.table import load_solo

    table = load_solo(rules=rules_from_options({"--tiles": "7", "--one-die": "optional:8"})[0])

    def optimal(observation):
        position, roll = sum(int(bit) << i for i, bit in enumerate(observation[:7])), int(observation[7])
        if not roll:
            return 128 + (table.dice(format_set(position, 7), objective) == 1)
        return table.move_mask(position, roll, objective)

    report = rl.evaluate(optimal, "shutthebox/ShutTheBoxSolo-v0", episodes=100, seed=3, tiles=7,
                         one_die="optional:8", objective=objective)
    assert report.exact == report.optimum == table.expect("1234567", objective)
    assert report.regret == 0.0 and report.illegal == 0


# -- evaluate: the mask, broken and stochastic policies, the headline ---------------------------------


class MaskedPredictor:
    """A policy with sb3-contrib MaskablePPO's predict signature: it plays the largest legal action when given
    the mask, and an illegal one (0 closes no tile) without it."""

    def __init__(self):
        self.calls = []

    def predict(self, observation, state=None, episode_start=None, deterministic=False, action_masks=None):
        self.calls.append(deterministic)
        if action_masks is None:
            return np.array(0), state
        return np.array([np.flatnonzero(action_masks)[-1]]), state


def test_evaluate_passes_the_mask_to_every_policy_that_takes_one():
    largest = MaskedPredictor()
    report = rl.evaluate(largest, "shutthebox/ShutTheBoxSolo-v0", episodes=50, seed=1)
    assert report.illegal == 0 and report.truncated == 0 and report.exact is not None
    assert largest.calls and all(largest.calls)  # deterministic=True, where predict takes it

    def two(observation, mask):
        return np.flatnonzero(mask)[-1]

    def keyword(observation, action_mask=None):
        return 0 if action_mask is None else np.flatnonzero(action_mask)[-1]

    class Callable:
        def __call__(self, observation, mask):
            return int(np.flatnonzero(mask)[-1])

    for policy in (two, keyword, Callable()):
        other = rl.evaluate(policy, "shutthebox/ShutTheBoxSolo-v0", episodes=50, seed=1)
        assert other.illegal == 0 and other.exact == report.exact and other.mean == report.mean


def test_evaluate_reports_an_illegal_only_policy_as_having_no_value():
    """A policy that only plays illegal actions (0 closes no tile) finishes no game: no mean, no loss, every
    episode cut short and every action counted illegal, and the report says so (under ``score`` a mean of 0
    would read as perfect play)."""
    report = rl.evaluate(lambda observation: 0, "shutthebox/ShutTheBoxSolo-v0", episodes=20, seed=1,
                         max_illegal=10, objective="score")
    assert report.mean is None and report.loss is None and report.exact is None and not report.finishes
    assert report.truncated == report.cut_illegal == 20 and report.illegal == 200 and report.decisions == 0
    assert "never end" in report.note
    text = str(report)
    assert "no value: the policy does not finish its games: 20 of 20 episodes cut short (20 after 10 illegal " \
           "actions in a row)" in text
    assert "200 illegal actions of 200" in text and "mean" not in text


def test_evaluate_leads_with_the_loss_per_episode():
    """On yazy a random policy has less regret per decision than scoring the best category at once (it takes
    many small decisions) yet loses more points a game: the headline is the loss per episode."""
    from shutthebox.games.yazy.rules import score

    def greedy(observation, mask):
        roll = tuple(int(die) for die in observation[11:16])
        return 32 + max((c for c in range(11) if mask[32 + c]), key=lambda c: (score(c, roll), -c))

    rng = np.random.default_rng(0)

    def random_legal(observation, mask):
        legal = np.flatnonzero(mask)
        return legal[rng.integers(len(legal))]

    first = rl.evaluate(greedy, "shutthebox/Yazy-v0", episodes=150, seed=1)
    second = rl.evaluate(random_legal, "shutthebox/Yazy-v0", episodes=150, seed=1)
    assert first.loss + first.loss_half_width < second.loss - second.loss_half_width
    assert first.regret > second.regret  # the per-decision figure alone would rank them backwards
    for report in (first, second):
        lines = str(report).splitlines()
        assert lines[1].startswith("  loss per episode:") and lines[2].startswith("  regret per decision:")
        assert abs(report.loss - (report.optimum - report.mean)) < report.loss_half_width + report.mean_half_width


def test_evaluate_exact_loss_comes_first():
    report = rl.evaluate(lambda observation, mask: np.flatnonzero(mask)[-1], "shutthebox/ShutTheBoxSolo-v0",
                         episodes=20, seed=1)
    assert report.loss_exact and report.loss == report.optimum - report.exact > 0 and report.loss_half_width == 0
    assert str(report).splitlines()[1].startswith("  loss per episode:      %.6f   (exact; " % report.loss)


def test_evaluate_says_what_a_stochastic_policys_exact_figure_means():
    rng = np.random.default_rng(3)

    def random_legal(observation, mask):
        legal = np.flatnonzero(mask)
        return int(legal[rng.integers(len(legal))])

    for episodes in (0, 30):  # the exact pass's second asks alone find it, and so do the episodes
        report = rl.evaluate(random_legal, "shutthebox/ShutTheBoxSolo-v0", episodes=episodes, seed=1)
        assert report.stochastic and report.exact is None and report.exact_fraction is None
        assert report.exact_draw is not None and not report.loss_exact
        assert "one deterministic policy drawn from it" in str(report)
        assert "it answered the observation" in str(report)
    declared = rl.evaluate(lambda observation, mask: np.flatnonzero(mask)[0], "shutthebox/ShutTheBoxSolo-v0",
                           episodes=10, deterministic=False)
    assert declared.stochastic and declared.exact is None and "declared stochastic" in str(declared)
    fixed = rl.evaluate(lambda observation, mask: np.flatnonzero(mask)[0], "shutthebox/ShutTheBoxSolo-v0",
                        episodes=10)
    assert not fixed.stochastic and fixed.exact is not None and "stochastic" not in str(fixed)


def test_evaluate_a_toggle_policy_that_never_finishes_has_no_value():
    """Turning the lowest card the dice allow, face up or not, can cycle for ever: no exact value, no loss."""
    report = rl.evaluate(lambda observation, mask: np.flatnonzero(mask)[0], "shutthebox/Toggle-v0", episodes=3,
                         max_steps=2000, cards=4, sides=2)
    assert report.exact is None and report.loss is None and "never turns every card down" in report.note
    assert "no value" in str(report)


# -- rendering, time limits, illegal actions ------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("render_mode", ["human", "rgb_array"])
@pytest.mark.parametrize("env_id,options", [GYM_CASES[0], GYM_CASES[4], GYM_CASES[6], GYM_CASES[9], GYM_CASES[11]])
def test_check_env_in_every_render_mode(env_id, options, render_mode, capsys):
    """Gymnasium's toy-text conventions: ``human`` prints the text (render returns None), ``rgb_array`` gives
    a small uint8 picture of the board, as SB3's make_vec_env asks (render_mode="rgb_array")."""
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(env_id, render_mode=render_mode, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    obs, info = env.reset(seed=2)
    picture = env.render()
    if render_mode == "human":
        assert picture is None and "ShutTheBox" in capsys.readouterr().out
        env.step(info["optimal_actions"][0])
        assert capsys.readouterr().out.strip()  # printed after each step too
    else:
        assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
        assert 32 <= picture.shape[0] <= 256 and 32 <= picture.shape[1] <= 512
        changed = False
        for _ in range(20):  # the board shows each change of the observation
            obs_after, _, terminated, _, info = env.step(info["optimal_actions"][0])
            if (obs_after != obs).any():
                assert not np.array_equal(env.render(), picture)
                changed = True
                break
        assert changed


def test_render_mode_refused_clearly():
    with warnings.catch_warnings(), pytest.raises(ValueError, match="render_mode must be None or one of 'human', "
                                                                    "'ansi', 'rgb_array'"):
        warnings.simplefilter("ignore")  # Gymnasium's own warning of a mode not in the metadata
        gymnasium.make("shutthebox/Toggle-v0", render_mode="rgb")


def test_registered_time_limit_and_reward_threshold():
    """Every id has a time limit (an illegal-only policy is truncated, not stepped for ever) and a reward
    threshold within 1% of optimal play's expected return under the default rules (from the table)."""
    from shutthebox.rl.evaluation import optimum_of

    for env_id in rl.ENV_IDS:
        spec = gymnasium.spec(env_id)
        assert spec.max_episode_steps >= 100 and spec.reward_threshold is not None
        env = gymnasium.make(env_id)
        best = optimum_of(env.unwrapped) * (1 if env.unwrapped.better == "more" else -1)
        assert best - 0.01 * abs(best) <= spec.reward_threshold < best
        obs, info = env.reset(seed=0)
        illegal = int(np.flatnonzero(info["action_mask"] == 0)[0]) if not info["action_mask"].all() else -1
        for step in range(spec.max_episode_steps):
            _, _, terminated, truncated, _ = env.step(illegal)
            assert not terminated and truncated == (step == spec.max_episode_steps - 1)


@pytest.mark.parametrize("env_id,options,penalty", [
    ("shutthebox/ShutTheBoxSolo-v0", {}, -1.0),
    ("shutthebox/ShutTheBoxSolo-v0", {"objective": "score"}, -46.0),
    ("shutthebox/Toggle-v0", {"cards": 4, "sides": 2}, -1000.0),
    ("shutthebox/GoatSolo-v0", {"goal": 7}, -1000.0),
    ("shutthebox/Yazy-v0", {}, -1.0),
])
def test_illegal_action_can_end_the_episode_with_a_stated_penalty(env_id, options, penalty):
    env = gymnasium.make(env_id, illegal="end", **options)
    obs, info = env.reset(seed=1)
    while info["action_mask"].all():  # yazy: every action is legal while both rerolls are left
        obs, _, _, _, info = env.step(info["optimal_actions"][0])
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(bad)
    assert terminated and not truncated and reward == penalty == env.unwrapped.illegal_penalty
    assert info["illegal"] and env.unwrapped.value() == 0.0
    env = gymnasium.make(env_id, illegal="end", illegal_penalty=-7, **options)
    env.reset(seed=1)
    assert env.unwrapped.illegal_penalty == -7.0
    with pytest.raises(ValueError, match="illegal must be one of 'noop', 'end', 'replace'"):
        gymnasium.make(env_id, illegal="raise", **options)
    with pytest.raises(ValueError, match="illegal_penalty must be a finite number"):
        gymnasium.make(env_id, illegal="end", illegal_penalty=float("nan"), **options)


def test_illegal_action_can_be_replaced_by_a_legal_one():
    """``illegal="replace"``: a legal action drawn by the environment's dice is played (``info["played"]``,
    its regret charged); the same seed plays the same replacements."""
    def episode(seed):
        env = gymnasium.make("shutthebox/ShutTheBoxSolo-v0", illegal="replace")
        obs, info = env.reset(seed=seed)
        trace, terminated = [], False
        while not terminated:
            mask = info["action_mask"]
            obs, reward, terminated, _, info = env.step(0)  # 0 closes no tile: never legal
            assert info["illegal"] and mask[info["played"]] == 1 and info["regret"] >= 0
            trace.append((info["played"], obs.tolist(), reward))
        return trace

    traces = [episode(seed) for seed in range(10)]
    assert traces == [episode(seed) for seed in range(10)]
    assert len({played for trace in traces for played, _, _ in trace}) > 5


# -- pickling, copying, states ---------------------------------------------------------------------


def _continue(env, actions_rng, steps):
    trace = []
    _, info = env.unwrapped._observation(), env.unwrapped._info(0.0, False)
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[actions_rng.integers(len(legal))]))
        trace.append((obs.tolist(), reward, terminated, info["q_values"].tolist(), info["regret"]))
        if terminated or truncated:
            obs, info = env.reset()
            trace.append(obs.tolist())
    return trace


@pytest.mark.parametrize("env_id,options", GYM_CASES)
def test_pickle_and_deepcopy_mid_episode_continue_identically(env_id, options):
    import copy
    import pickle

    env = gymnasium.make(env_id, **options)
    _, info = env.reset(seed=4)
    for _ in range(3):
        _, _, terminated, _, info = env.step(info["optimal_actions"][0])
        if terminated:
            _, info = env.reset()
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    assert copies[0].unwrapped.model is env.unwrapped.model  # the table is shared, not copied
    traces = [_continue(each, np.random.default_rng(7), 40) for each in [env] + copies]
    assert traces[0] == traces[1] == traces[2]


@pytest.mark.parametrize("name,options", AEC_CASES[:2] + AEC_CASES[3:4])
def test_pettingzoo_pickle_and_deepcopy_mid_game(name, options):
    import copy
    import pickle

    def play(env, steps, rng):
        trace = []
        for agent in env.agent_iter(steps):
            obs, reward, terminated, truncated, info = env.last()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if terminated or truncated else int(legal[rng.integers(len(legal))]))
            trace.append((agent, obs["observation"].tolist(), reward))
        return trace

    env = make_aec(name, options)
    env.reset(seed=3)
    play(env, 5, np.random.default_rng(0))
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    traces = [play(each, 60, np.random.default_rng(1)) for each in [env] + copies]
    assert traces[0] == traces[1] == traces[2]


@pytest.mark.parametrize("env_id,options", GYM_CASES)
def test_reset_from_a_chosen_state(env_id, options):
    """``get_state()`` reads the state; ``reset(options={"state": ...})`` starts there: the same observation,
    mask and values, and from there the same game as the original with the same dice."""
    env = gymnasium.make(env_id, **options)
    other = gymnasium.make(env_id, **options)
    rng = np.random.default_rng(5)
    obs, info = env.reset(seed=6)
    for _ in range(25):
        state = env.unwrapped.get_state()
        hash(state)
        again, again_info = other.reset(seed=9, options={"state": state})
        assert other.unwrapped.get_state() == state and (again == obs).all()
        for key in ("action_mask", "q_values", "optimal_mask"):
            assert (again_info[key] == info[key]).all()
        legal = np.flatnonzero(info["action_mask"])
        obs, _, terminated, _, info = env.step(int(legal[rng.integers(len(legal))]))
        if terminated:
            obs, info = env.reset()


def test_reset_refuses_a_state_that_is_no_decision():
    solo = gymnasium.make("shutthebox/ShutTheBoxSolo-v0")
    for state, words in [((511, 13), "the roll must be a whole number from 0 to 12"),
                         ((0b1, 5), "no move fits roll 5 at open 1: the game is over there"),
                         ((511, 0), "roll 0 \\(the dice to be chosen\\) is a state only where"),
                         ((0, 0), "the open tiles \\(a bitmask\\) must be a whole number from 1 to 511"),
                         ((511,), "a state is \\(open tiles as a bitmask, roll\\)"),
                         ((511, 7.0), "the roll must be a whole number")]:
        with pytest.raises(ValueError, match=words):
            solo.reset(options={"state": state})
    with pytest.raises(ValueError, match="reset takes the option 'state' alone, not 'start'"):
        solo.reset(options={"start": 3})
    with pytest.raises(ValueError, match="dice 6 6 turn no card"):
        gymnasium.make("shutthebox/Toggle-v0", cards=4, sides=6).reset(options={"state": (15, 6, 6, 0)})
    with pytest.raises(ValueError, match="2 rolls cannot make a turn total of 1"):
        gymnasium.make("shutthebox/GoatSolo-v0").reset(options={"state": (0, 1, 2, 0, 0)})
    with pytest.raises(ValueError, match="is no state of yazy: its observation .* is outside"):  # a die of 7
        gymnasium.make("shutthebox/Yazy-v0").reset(options={"state": (3, 1, 2, 3, 4, 7, 2, 0)})


# -- actions, options, vector environments, PettingZoo's corners ----------------------------------------


def test_actions_as_arrays_floats_and_bools():
    """A 0-d or one-element integer array is the action it holds; several actions are refused clearly; a
    float or a bool is outside Discrete and so illegal, as documented."""
    env = gymnasium.make("shutthebox/ShutTheBoxSolo-v0")
    results = []
    for wrap in (int, np.int64, lambda a: np.array(a), lambda a: np.array([a])):
        obs, info = env.reset(seed=2)
        action = info["optimal_actions"][0]
        obs, reward, _, _, info = env.step(wrap(action))
        assert not info["illegal"]
        results.append(obs.tolist())
    assert results.count(results[0]) == 4
    obs, info = env.reset(seed=2)
    action = info["optimal_actions"][0]
    for bad in (float(action), np.array([float(action)]), True, np.bool_(True), str(action), None):
        assert env.step(bad)[4]["illegal"]
    with pytest.raises(ValueError, match="an action is one integer, not an array of shape \\(2,\\)"):
        env.step(np.array([action, action]))


def test_options_of_the_wrong_type_are_refused_as_invalid_queries():
    for env_id, options, words in [("shutthebox/GoatSolo-v0", {"goal": [5]}, "--goal must be a whole number"),
                                   ("shutthebox/Toggle-v0", {"cards": [3]}, "--cards must be a whole number")]:
        with pytest.raises(InvalidQuery, match=words):
            gymnasium.make(env_id, **options)
    from shutthebox.rl import goat_v0

    with pytest.raises(InvalidQuery, match="--goal must be a whole number"):
        goat_v0.env(goal=[5])
    if "yahtzee" in registry.GAMES:
        with pytest.raises(InvalidQuery, match="--joker must be official, free, none or bonus-only, not '\\['fr"):
            gymnasium.make("shutthebox/Yahtzee-v0", joker=["free"])
        with pytest.raises(InvalidQuery, match="rational must be True or False"):
            gymnasium.make("shutthebox/Yahtzee-v0", rational="yes")


def test_vector_env_masks_are_never_empty():
    """After an episode ends Gymnasium's vector env (next-step autoreset) shows the final info, and its
    next step resets: the mask there has every action (a no-op), never an empty row for a masked sampler."""
    envs = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("shutthebox/ShutTheBoxSolo-v0")] * 3)
    obs, infos = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(120):
        masks = infos["action_mask"]
        assert masks.shape == (3, 512) and masks.any(axis=1).all()
        actions = [int(rng.choice(np.flatnonzero(row))) for row in masks]
        obs, rewards, terminated, truncated, infos = envs.step(np.array(actions))
        ended += int(terminated.sum())
    assert ended >= 10


def test_toggle_value_at_reset_counts_the_passes_owed_to_the_first_step():
    """One card, two-sided dice: a roll of 2 2 turns nothing (a pass), any other ends the game. The return is
    minus (1 + the passes), which ``value()`` at reset must say exactly, passes drawn by reset included."""
    env = gymnasium.make("shutthebox/Toggle-v0", cards=1, sides=2)
    owed = 0
    for seed in range(40):
        _, info = env.reset(seed=seed)
        value = env.unwrapped.value()  # a return: minus the rolls
        assert value == info["q_return"].max()
        _, reward, terminated, _, _ = env.step(0)
        assert terminated and reward == value
        owed += value < -1
    assert owed >= 3  # some resets drew passes


def test_pettingzoo_state_is_the_whole_game():
    """``state()`` (AECEnv's method, no longer hidden by an attribute) is the whole game within
    ``state_space``: Shut the Box the observation less the observer's seat, Goat both banked scores in seat
    order, the turn total, the rolls and the seat to move."""
    from shutthebox.rl import goat_v0, shutthebox_v0

    for module in (shutthebox_v0, goat_v0):
        env = module.env()
        env.reset(seed=1)
        for agent in env.agent_iter(30):
            obs, _, terminated, truncated, _ = env.last()
            state, seen = env.unwrapped.state(), obs["observation"].tolist()
            assert isinstance(state, np.ndarray) and env.unwrapped.state_space.contains(state)
            if module is shutthebox_v0:
                tiles = env.unwrapped.rules.tiles
                assert state.tolist() == seen[:tiles + 2] + seen[tiles + 3:]
            else:
                seat = seen[5]
                assert state.tolist() == (seen[:2] if seat == 0 else seen[1::-1]) + seen[2:5]
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if terminated or truncated else int(legal[-1]))


@pytest.mark.parametrize("name,options", slow_when(AEC_CASES[:1] + AEC_CASES[4:], [("goat_v0", {"goal": 12})],
                                                  unpack=True))
def test_pettingzoo_raw_env_after_the_game_says_so(name, options):
    module = __import__("shutthebox.rl." + name, fromlist=["raw_env"])
    env = module.raw_env(**options)
    env.reset(seed=0)
    while not all(env.terminations.values()):
        env.step(env.infos[env.agent_selection]["optimal_actions"][0])
    while env.agents:
        env.step(None)
    with pytest.raises(RuntimeError, match="the game is over and every agent has been stepped out of it: call "
                                           "reset\\(\\)"):
        env.step(None)


@pytest.mark.slow
@pytest.mark.parametrize("name,options", AEC_CASES[:2] + AEC_CASES[3:4])
def test_pettingzoo_render_test(name, options, capsys):
    from pettingzoo.test import render_test

    module = __import__("shutthebox.rl." + name, fromlist=["env"])
    render_test(lambda render_mode=None: module.env(render_mode=render_mode, **options))
    assert "ShutTheBox" in capsys.readouterr().out  # human: printed


# -- the model the toy-text way ----------------------------------------------------------------------


def _solve(P, states, sweeps):
    """Value iteration over ``P`` on ``states``: the best expected return from each."""
    value = dict.fromkeys(states, 0.0)

    def backup(s, a):
        return sum(p * (r + (0.0 if done else value.get(after, 0.0))) for p, after, r, done in P[s][a])

    for _ in range(sweeps):
        for s in states:
            value[s] = max(backup(s, a) for a in P[s])
    return value, backup


@pytest.mark.parametrize("env_id,options,sweeps", [
    pytest.param("shutthebox/ShutTheBoxSolo-v0", {}, 1, marks=pytest.mark.slow),  # over a second: 512 positions
    ("shutthebox/ShutTheBoxSolo-v0", {"tiles": 6, "one_die": "optional:high", "objective": "score"}, 1),
    ("shutthebox/Toggle-v0", {"cards": 3, "sides": 5}, 400),
    ("shutthebox/GoatSolo-v0", {"goal": 7}, 60),
])
def test_transitions_the_toy_text_way_give_the_tables_values(env_id, options, sweeps):
    """``P[s][a]`` sums to 1, ``encode``/``decode`` agree with ``get_state()``, the environment's steps land on
    the listed next states, and dynamic programming over ``P`` gives every legal action its ``q_return``."""
    env = gymnasium.make(env_id, **options)
    game = env.unwrapped
    P = game.P
    over = P[game.encode((0, 0) if "Box" in env_id else (0, 0, 0, 0) if "Toggle" in env_id else
                         (options["goal"], 0, 0, 0, 0))]
    assert len(over) == game.action_space.n and all(len(o) == 1 and o[0][1:] == (o[0][1], 0.0, True) and o[0][0] == 1
                                                    for o in over.values())  # a game over: every action stays
    # the states reachable from a sample of starts
    starts = set()
    for seed in range(30):
        game.reset(seed=seed)
        starts.add(game.encode(game.get_state()))
    seen, frontier = set(starts), list(starts)
    while frontier:
        s = frontier.pop()
        for a in P[s]:
            for p, after, _, _ in P[s][a]:
                if after not in seen:
                    seen.add(after)
                    frontier.append(after)
    for s in seen:
        assert P[s]
        for a in P[s]:
            assert abs(sum(p for p, _, _, _ in P[s][a]) - 1.0) < 1e-12
    # Shut the Box: fewest open tiles first (a move shuts tiles), a choice of dice after its rolls: one sweep
    def fewest(s):
        position, roll = game.decode(s)
        return bin(position).count("1"), roll == 0

    order = sorted(seen, key=fewest) if "Box" in env_id else sorted(seen)
    value, backup = _solve(P, order, sweeps)
    rng = np.random.default_rng(1)
    for seed in range(20):
        obs, info = env.reset(seed=seed)
        for _ in range(30):
            s = game.encode(game.get_state())
            state = tuple(game.get_state())  # toggle's and Goat's numbers leave their tally out: decoded at 0
            assert game.decode(s) == (state if "Box" in env_id else state[:-1] + (0,))
            assert list(P[s]) == np.flatnonzero(info["action_mask"]).tolist()  # the legal actions alone
            for a in np.flatnonzero(info["action_mask"]):  # (less toggle's passes drawn by reset, owed)
                assert abs(backup(s, int(a)) - (info["q_return"][a] - game._owed)) < 1e-9
            legal = np.flatnonzero(info["action_mask"])
            a = int(legal[rng.integers(len(legal))])
            obs, reward, terminated, _, info = env.step(a)
            assert game.encode(game.get_state()) in {after for _, after, _, _ in P[s][a]}
            if terminated:
                break


@pytest.mark.slow
@pytest.mark.parametrize("env_id,options", [GYM_CASES[0], GYM_CASES[6], GYM_CASES[9], GYM_CASES[11]])
def test_mask_in_the_observation(env_id, options):
    """``mask_observation=True``: the observation is ``{"observation", "action_mask"}`` (PettingZoo's classic
    layout), the checker passes, and ``evaluate`` hands a policy that dictionary."""
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(env_id, mask_observation=True, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    obs, info = env.reset(seed=1)
    assert set(obs) == {"observation", "action_mask"} and (obs["action_mask"] == info["action_mask"]).all()
    assert env.observation_space.contains(obs)
    obs, _, _, _, info = env.step(info["optimal_actions"][0])
    assert (obs["action_mask"] == info["action_mask"]).all()

    def first_legal(observation):
        return int(np.flatnonzero(observation["action_mask"])[0])

    report = rl.evaluate(first_legal, env_id, episodes=5, max_steps=2000, mask_observation=True, **options)
    assert report.illegal == 0


@pytest.mark.parametrize("env_id,options,count", [
    ("shutthebox/ShutTheBoxSolo-v0", {"tiles": 6, "one_die": "optional:high", "objective": "score"}, None),
    ("shutthebox/Toggle-v0", {"cards": 3, "sides": 5}, 7 * 21),  # 7 face-up sets x 21 rolls that turn a card
    ("shutthebox/GoatSolo-v0", {"goal": 7}, None),
])
def test_dataset_writes_every_decision_state(env_id, options, count, tmp_path):
    """``dataset`` writes every state an episode can meet, each with the environment's own observation and
    exact answers."""
    path = tmp_path / "states.npz"
    written = rl.dataset(env_id, path, **options)
    data = np.load(path)
    assert len(data["state"]) == written and (count is None or written == count)
    n = gymnasium.make(env_id, **options).action_space.n
    assert data["action_mask"].shape == data["optimal_mask"].shape == data["q_values"].shape == (written, n)
    assert data["action_mask"].dtype == data["optimal_mask"].dtype == np.int8
    rows = {int(s): i for i, s in enumerate(data["state"])}
    env = gymnasium.make(env_id, **options)
    game = env.unwrapped
    rng = np.random.default_rng(2)
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        terminated = False
        while not terminated:
            row = rows[game.encode(game.get_state())]  # every state met is there, with the same answers
            owed = -game._owed if game.better == "fewer" else game._owed  # toggle: passes drawn by reset
            assert (data["observation"][row] == obs).all() and abs(data["value"][row] - (game.value() - owed)) < 1e-12
            for name in ("action_mask", "optimal_mask", "q_values"):
                assert (data[name][row] == info[name]).all()
            legal = np.flatnonzero(info["action_mask"])
            obs, _, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
            if truncated:
                break
    with pytest.raises(ValueError, match="dataset writes the games whose states are numbered"):
        rl.dataset("shutthebox/Yazy-v0", path)
