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

from conftest import ROOT  # noqa: E402

import shutthebox.rl as rl  # noqa: E402
from shutthebox import InvalidQuery, registry  # noqa: E402


@pytest.fixture(autouse=True)
def fresh_cache(tmp_path_factory, monkeypatch):
    """Tables solved on first use go to a cache of the test session, never the user's."""
    folder = tmp_path_factory.getbasetemp() / "rl-cache"
    folder.mkdir(mode=0o700, exist_ok=True)
    monkeypatch.setenv("SHUTTHEBOX_CACHE", str(folder))


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

AEC_CASES = [
    ("shutthebox_v0", {}),
    ("shutthebox_v0", {"players": 3, "tiles": 6, "one_die": "optional:6,high"}),
    ("shutthebox_v0", {"players": 2, "tiles": 5, "dice": 3, "sides": 4, "max_move_tiles": 2}),
    ("goat_v0", {}),
    ("goat_v0", {"goal": 12}),
]


def make_aec(name, options):
    module = __import__("shutthebox.rl." + name, fromlist=["env"])
    return module.env(**options)


def test_registered():
    names = {"shutthebox/ShutTheBoxSolo-v0", "shutthebox/Toggle-v0", "shutthebox/GoatSolo-v0", "shutthebox/Yazy-v0"}
    if "yahtzee" in registry.GAMES:
        names.add("shutthebox/Yahtzee-v0")
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
            ["goat", "--solo", "--expect", "0"], ["yazy", "--move", "all", "13366", "2"]]
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


@pytest.mark.parametrize("env_id,options", GYM_CASES[:1] + GYM_CASES[3:5] + GYM_CASES[8:9] + GYM_CASES[10:11])
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
            assert abs(game.value() - best) < 1e-9
            assert game.render().strip()
            choice = info["optimal_actions"][0] if step % 2 else int(np.flatnonzero(mask)[step % int(mask.sum())])
            obs, reward, terminated, truncated, info = env.step(choice)
            if step % 2:
                assert info["regret"] == 0.0
            assert info["regret"] >= 0.0
            trace.append((obs.tolist(), reward, terminated))
            if terminated:
                assert game.value() == 0.0 and not info["action_mask"].any()
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
    assert game.render().startswith("face up 1,2,3,4,5,6,7,8,9,10,11,12, dice %d %d" % (game.x, game.y))
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
