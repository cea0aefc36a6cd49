"""shutthebox.rl's Pig: ``shutthebox/Pig-v0`` (one agent against the table's optimal player) and ``pig_v0`` (two
players, PettingZoo), against the command line's ``pig`` answers and the Pig solver's exact duels
(docs/RL.md, docs/PIG.md)."""

import copy
import pickle
import warnings
from itertools import product

import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from conftest import run  # noqa: E402

import shutthebox.rl as rl  # noqa: E402
from shutthebox import InvalidQuery  # noqa: E402
from shutthebox.games.pig.rules import Rules  # noqa: E402
from shutthebox.games.pig.table import load  # noqa: E402

PIG = "shutthebox/Pig-v0"
# Pig to 100 (shipped), the three other variants and another die, small goals solved on first use
CASES = [{}, {"variant": "piglet"}, {"variant": "two-dice", "goal": 30}, {"variant": "big-pig", "goal": 40},
         {"goal": 30, "sides": 4}, {"seat": 1}]
AEC = [{}, {"variant": "piglet"}, {"variant": "two-dice", "goal": 30}, {"variant": "big-pig", "goal": 25}]


# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = pytest.mark.usefixtures("fresh_cache")


def rules_of(options):
    return Rules(**{key: options[key] for key in ("variant", "goal", "sides") if key in options})


def words_of(options):
    return [word for key in ("variant", "goal", "sides") if key in options for word in ("--" + key, str(options[key]))]


def test_registered():
    assert PIG in rl.ENV_IDS and PIG in gymnasium.registry


@pytest.mark.parametrize("variant,sides", [("pig", 6), ("pig", 2), ("pig", 9), ("piglet", 2), ("two-dice", 6),
                                           ("big-pig", 6)])
def test_dice_follow_the_rules_outcomes(variant, sides):
    """Every face the environment's dice can show, classified, gives the rules' outcomes and their counts."""
    from shutthebox.rl.pig import classify, dice_of

    faces, count = dice_of(variant, sides)
    counts: dict = {}
    for thrown in product(range(1, faces + 1), repeat=count):
        key = classify(variant, thrown)
        counts[key] = counts.get(key, 0) + 1
    expected = {(kind, points): n for n, kind, points in Rules(variant=variant, sides=sides if variant == "pig"
                                                               else None).outcomes()}
    assert counts == expected


@pytest.mark.slow
@pytest.mark.parametrize("options", CASES)
@pytest.mark.parametrize("render_mode", ["ansi", "human", "rgb_array"])
def test_check_env(options, render_mode, capsys):
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make(PIG, render_mode=render_mode, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker is a failure
        check_env(env.unwrapped)
    obs, info = env.reset(seed=2)
    picture = env.render()
    if render_mode == "ansi":
        assert "ShutTheBox pig" in picture
    elif render_mode == "human":
        assert picture is None and "ShutTheBox pig" in capsys.readouterr().out
    else:
        assert picture.dtype == np.uint8 and picture.ndim == 3 and picture.shape[2] == 3
        for _ in range(20):  # the board shows each change of the observation
            after, _, terminated, _, info = env.step(info["optimal_actions"][0])
            if (after != obs).any():
                assert not np.array_equal(env.render(), picture)
                break
        else:
            raise AssertionError("twenty steps and the observation never changed")


@pytest.mark.slow
@pytest.mark.parametrize("options", AEC)
def test_pettingzoo_api_seed_and_render(options, capsys):
    from pettingzoo.test import api_test, render_test, seed_test

    from shutthebox.rl import pig_v0

    api_test(pig_v0.env(**options), num_cycles=300)
    seed_test(lambda: pig_v0.env(**options), num_cycles=300)
    render_test(lambda render_mode=None: pig_v0.env(render_mode=render_mode, **options))
    assert "ShutTheBox pig" in capsys.readouterr().out  # human: printed


def _states(options, count, seed):
    """Decision states met along seeded games of Pig-v0 (half optimal, half random legal actions) and drawn
    at random, each with the info there."""
    env = gymnasium.make(PIG, **options)
    game = env.unwrapped
    goal = game.goal
    rng = np.random.default_rng(seed)
    met = []
    _, info = env.reset(seed=seed)
    while len(met) < count // 2:
        met.append((game.get_state(), info, game.value()))
        legal = np.flatnonzero(info["action_mask"])
        action = info["optimal_actions"][0] if rng.random() < 0.5 else int(legal[rng.integers(len(legal))])
        _, _, terminated, _, info = env.step(action)
        if terminated:
            _, info = env.reset()
    while len(met) < count:
        mine, other = (int(x) for x in rng.integers(goal, size=2))
        turn = int(rng.integers(goal - mine))
        _, info = env.reset(options={"state": (mine, other, turn)})
        met.append(((mine, other, turn), info, game.value()))
    return met


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"variant": "two-dice", "goal": 30}, {"variant": "piglet", "goal": 20},
                                     {"variant": "big-pig", "goal": 40}])
def test_values_are_the_commands(options, fresh_cache):
    """On 300 states each: every q-value is the table's ``probe_options`` float, and prints as the command's
    ``pig --options`` does; ``value()`` prints as ``--expect``; the command's move is optimal, and the other
    action too only where it is within the table's tie."""
    table = load(rules_of(options))
    met = _states(options, 300, seed=4)
    lines = []
    for (mine, other, turn), _, _ in met:
        lines += ["--options %d %d %d" % (mine, other, turn), "--expect %d %d %d" % (mine, other, turn)]
    result = run("pig", *words_of(options), "--batch", stdin="".join(line + "\n" for line in lines),
                 env={"SHUTTHEBOX_CACHE": fresh_cache})
    answers = result.stdout.splitlines()
    assert result.returncode == 0 and len(answers) == len(lines), result.stderr
    for number, ((mine, other, turn), info, value) in enumerate(met):
        options_answer, expect_answer = answers[2 * number: 2 * number + 2]
        q = info["q_values"]
        assert info["action_mask"].tolist() == ([1, 1] if turn else [0, 1])
        floats = dict(table.probe_options(mine, other, turn))
        assert q[1] == floats["roll"] and (not turn or q[0] == floats["hold"]) and (turn or q[0] == -np.inf)
        assert value == table.probe_win(mine, other, turn)
        printed = [choice.split() for choice in options_answer.split("; ")]
        assert {name: float(text) for name, text, _ in printed} == {
            name: float("%.6f" % q[0 if name == "hold" else 1]) for name in floats}
        assert "%.6f" % value == expect_answer
        best = 0 if printed[0][0] == "hold" else 1
        assert best in info["optimal_actions"]
        tied = turn and abs(q[0] - q[1]) <= 1e-11
        assert len(info["optimal_actions"]) == (2 if tied else 1)
        assert np.flatnonzero(info["optimal_mask"]).tolist() == list(info["optimal_actions"])


def test_optimal_play_has_no_regret_and_the_regret_is_the_gap():
    env = gymnasium.make(PIG, variant="two-dice", goal=30)
    rng = np.random.default_rng(3)
    _, info = env.reset(seed=3)
    for _ in range(400):
        legal = np.flatnonzero(info["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        q = info["q_values"]
        _, _, terminated, _, after = env.step(action)
        assert after["regret"] == (0.0 if action in info["optimal_actions"] else q.max() - q[action])
        info = after
        if terminated:
            _, info = env.reset()


@pytest.mark.slow
def test_evaluate_the_tables_play_is_the_tables_value():
    """The table's moves, as a policy of the observation, win 0.530593 of games moving first (the table's
    value, within the duel's proven bound)."""
    table = load()

    def optimal(observation):
        mine, other, turn = (int(x) for x in observation)
        return 1 if table.probe_move(mine, other, turn) == "roll" else 0

    report = rl.evaluate(optimal, PIG, episodes=100, seed=2)
    assert "%.6f" % report.exact == "%.6f" % report.optimum == "0.530593"
    assert abs(report.exact - table.probe_win(0, 0, 0)) < 2e-13 and report.loss < 2e-13 and report.loss_exact
    assert report.regret == 0.0 and report.illegal == 0


@pytest.mark.slow
@pytest.mark.parametrize("goal,seat", [(100, 0), (60, 1)])
def test_evaluate_hold_at_20_is_its_exact_duel_against_optimal_play(goal, seat):
    """``evaluate`` of "hold at 20" (shutthebox.games.pig.strategies) is the exact chance the strategies'
    duel gives it against optimal play, moving first or second."""
    from shutthebox.games.pig.strategies import against_optimal, hold_at

    hold = hold_at(20)

    def policy(observation):
        return int(hold(*(int(x) for x in observation), goal) or observation[2] == 0)

    report = rl.evaluate(policy, PIG, episodes=200, seed=1, goal=goal, seat=seat)
    duel = against_optimal("pig", goal, 6, hold)[seat]
    assert abs(report.exact - duel.value) <= duel.bound + 1e-15
    assert abs(report.loss - (report.optimum - duel.value)) < 1e-12 and report.loss > 0.01
    # the regrets summed along the episodes estimate the same loss
    assert abs(report.episode_loss - report.loss) < 4 * report.episode_loss_half_width


def _decisions(game):
    """Every decision state of the game: (agent's banked, opponent's banked, turn total)."""
    goal = game.goal
    return [(mine, other, turn) for mine in range(goal) for other in range(goal) for turn in range(goal - mine)]


@pytest.mark.parametrize("options", [{"goal": 20}, {"variant": "two-dice", "goal": 20},
                                     {"variant": "big-pig", "goal": 30}, {"variant": "piglet", "goal": 8}])
def test_transitions_fold_the_opponents_turn_and_give_the_tables_values(options):
    """``P[s]`` has the legal actions of s, its chances sum to 1, and one backup of the table's values over it
    (the agent's chance at the start of its next turn, after the opponent's whole turn by the table's moves)
    gives every action its ``q_return``; the environment's steps land on listed states."""
    env = gymnasium.make(PIG, **options)
    game = env.unwrapped
    model, goal, P = game.model, game.goal, game.P
    assert len(P) == (goal + 1) ** 2 * goal

    def value(number, terminated):
        if terminated:
            return 0.0
        mine, other, turn = game.decode(number)
        return model.win[model.index(mine, other, turn)]

    for state in _decisions(game):
        s = game.encode(state)
        assert game.decode(s) == state
        _, info = env.reset(options={"state": state})
        assert list(P[s]) == np.flatnonzero(info["action_mask"]).tolist()
        for action, outcomes in P[s].items():
            assert abs(sum(p for p, _, _, _ in outcomes) - 1.0) < 1e-12
            backup = sum(p * (reward + value(after, done)) for p, after, reward, done in outcomes)
            assert abs(backup - info["q_return"][action]) < 1e-12
    won = P[game.encode((goal, 3, 0))]  # a game over: every action stays, terminated, reward 0
    assert all(outcomes == [(1.0, game.encode((goal, 3, 0)), 0.0, True)] for outcomes in won.values())
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    for _ in range(300):
        s = game.encode(game.get_state())
        legal = np.flatnonzero(info["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        _, reward, terminated, _, info = env.step(action)
        landed = {(after, r, done) for _, after, r, done in P[s][action]}
        assert (game.encode(game.get_state()), reward, terminated) in landed
        if terminated:
            _, info = env.reset()


def test_exact_evaluation_agrees_with_solving_the_policy_over_P():
    """An independent check of ``evaluate``'s exact pass: "hold at 8" to 15, its chance to win solved as a
    linear system over the toy-text model (P, the opponent's turns folded in)."""
    goal = 15
    game = gymnasium.make(PIG, goal=goal).unwrapped
    states = _decisions(game)
    number = {game.encode(state): row for row, state in enumerate(states)}

    def policy(observation):
        return int(observation[2] < 8)

    matrix, reward = np.eye(len(states)), np.zeros(len(states))
    for row, (mine, other, turn) in enumerate(states):
        action = policy(np.array([mine, other, turn])) if turn else 1
        for p, after, r, done in game.P[game.encode((mine, other, turn))][action]:
            reward[row] += p * r
            if not done:
                matrix[row, number[after]] -= p
    solved = np.linalg.solve(matrix, reward)[number[game.encode((0, 0, 0))]]
    report = rl.evaluate(policy, PIG, episodes=0, goal=goal)
    assert abs(report.exact - solved) < 1e-12 and report.loss > 0


def test_seat_one_and_its_refusal():
    env = gymnasium.make(PIG, seat=1)
    obs, info = env.reset(seed=5)
    game = env.unwrapped
    assert obs[0] == 0 and obs[2] == 0 and game.story.startswith("the opponent rolled")
    from shutthebox.rl.evaluation import optimum_of

    assert optimum_of(game) == 1.0 - load().probe_win(0, 0, 0)
    with pytest.raises(ValueError, match="moving second is refused for pig: first to 30.*the opponent may reach the "
                                         "goal in its first turn"):
        gymnasium.make(PIG, goal=30, seat=1)
    with pytest.raises(ValueError, match="seat must be 0 .* or 1"):
        gymnasium.make(PIG, seat=2)
    with pytest.raises(InvalidQuery, match="--goal of piglet must be a whole number from 2 to 50"):
        gymnasium.make(PIG, variant="piglet", goal=60)
    with pytest.raises(InvalidQuery, match="--sides is pig's die size"):
        gymnasium.make(PIG, variant="two-dice", sides=4)


def test_states_checked_and_numbered():
    env = gymnasium.make(PIG)
    game = env.unwrapped
    for state, words in [((95, 0, 5), "reach the goal 100: the mover has won there"),
                         ((0, 100, 0), "the opponent's banked score must be a whole number from 0 to 99"),
                         ((0, 0), "a state is \\(the mover's banked score, the opponent's, the turn total\\)"),
                         ((0, 0, -1), "the turn total must be a whole number")]:
        with pytest.raises(ValueError, match=words):
            env.reset(options={"state": state})
    obs, info = env.reset(options={"state": (94, 90, 5)})
    assert obs.tolist() == [94, 90, 5] and game.get_state() == (94, 90, 5)
    assert game.decode(game.encode((94, 90, 5))) == (94, 90, 5)


@pytest.mark.parametrize("illegal,reward", [("end", -1.0), ("replace", None)])
def test_illegal_hold_at_turn_total_zero(illegal, reward):
    env = gymnasium.make(PIG, illegal=illegal)
    obs, info = env.reset(seed=1)
    obs, got, terminated, _, info = env.step(0)  # no hold before the turn's first roll
    assert info["illegal"] is True
    if illegal == "end":
        assert terminated and got == reward
    else:
        assert info["played"] == 1 and info["regret"] == 0.0


def test_pickle_and_deepcopy_mid_episode_continue_identically():
    env = gymnasium.make(PIG, variant="big-pig", goal=40)
    _, info = env.reset(seed=4)
    for _ in range(5):
        _, _, terminated, _, info = env.step(info["optimal_actions"][0])
        if terminated:
            _, info = env.reset()

    def play(each, rng):
        trace, (_, info) = [], (None, each.unwrapped._info(0.0, False))
        for _ in range(60):
            legal = np.flatnonzero(info["action_mask"])
            obs, reward, terminated, _, info = each.step(int(legal[rng.integers(len(legal))]))
            trace.append((obs.tolist(), reward, terminated, info["q_values"].tolist(), each.render()))
            if terminated:
                _, info = each.reset()
        return trace

    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    assert copies[0].unwrapped.model is env.unwrapped.model
    traces = [play(each, np.random.default_rng(7)) for each in [env] + copies]
    assert traces[0] == traces[1] == traces[2]


@pytest.mark.parametrize("options", AEC)
def test_pettingzoo_win_chances_and_exact_info(options):
    """Each agent's ``win_chance`` is exact: the table's for the mover, 1 minus it for the other, 1 and 0 at
    the end (the rewards); the mover's values are Pig-v0's at the same state; the game is the state."""
    from shutthebox.rl import pig_v0

    table = load(rules_of(options))
    env = pig_v0.env(**options)
    raw = env.unwrapped
    single = gymnasium.make(PIG, **options).unwrapped
    rng = np.random.default_rng(2)
    env.reset(seed=2)
    games = 0
    for agent in env.agent_iter(3000):
        obs, reward, terminated, truncated, info = env.last()
        seen = obs["observation"].tolist()
        seat = raw.possible_agents.index(agent)
        assert raw.state_space.contains(raw.state()) and raw.state().tolist()[:2] == (
            seen[:2] if seat == 0 else seen[1::-1])
        if terminated:
            assert info["win_chance"] == reward and reward in (0.0, 1.0)
            if len(raw.agents) == 2:  # neither stepped out yet
                assert sum(raw.infos[a]["win_chance"] for a in raw.agents) == 1.0
            env.step(None)
            if not raw.agents:
                games += 1
                env.reset()
            continue
        mine, other, turn = seen[:3]
        mover = table.probe_win(mine, other, turn)
        assert info["win_chance"] == mover == raw.value()
        waiting = raw.possible_agents[1 - seat]
        assert raw.infos[waiting]["win_chance"] == 1.0 - mover
        _, alone = single.reset(options={"state": (mine, other, turn)})
        for key in ("action_mask", "q_values", "optimal_mask"):
            assert (info[key] == alone[key]).all()
        legal = np.flatnonzero(obs["action_mask"])
        action = info["optimal_actions"][0] if rng.random() < 0.5 else int(legal[rng.integers(len(legal))])
        env.step(action)
        if action in info["optimal_actions"]:
            assert raw.infos[agent]["regret"] == 0.0
    assert games >= 2


def test_pettingzoo_pickle_and_deepcopy_mid_game():
    from shutthebox.rl import pig_v0

    def play(env, steps, rng):
        trace = []
        for agent in env.agent_iter(steps):
            obs, reward, terminated, truncated, info = env.last()
            legal = np.flatnonzero(obs["action_mask"])
            env.step(None if terminated or truncated else int(legal[rng.integers(len(legal))]))
            trace.append((agent, obs["observation"].tolist(), reward))
        return trace

    env = pig_v0.env(variant="two-dice", goal=30)
    env.reset(seed=3)
    play(env, 7, np.random.default_rng(0))
    copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
    traces = [play(each, 80, np.random.default_rng(1)) for each in [env] + copies]
    assert traces[0] == traces[1] == traces[2]


def test_dataset_writes_every_decision_state(tmp_path):
    path = tmp_path / "piglet.npz"
    goal = 10
    assert rl.dataset(PIG, path, variant="piglet") == goal * goal * (goal + 1) // 2
    data = np.load(path)
    table = load(Rules(variant="piglet"))
    for number, value, q in zip(data["state"], data["value"], data["q_values"]):
        rest, turn = divmod(int(number), goal)
        mine, other = divmod(rest, goal + 1)
        assert value == table.probe_win(mine, other, turn)
        assert q[1] == dict(table.probe_options(mine, other, turn))["roll"]
