"""shutthebox.rl.openspiel: the games as OpenSpiel Python games (the ``openspiel`` extra; skipped without it):
pyspiel's own random simulation test, and ``exact_value`` consistent with the games' chance nodes and the
tables (docs/RL.md)."""

import copy
import pickle

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pyspiel = pytest.importorskip("pyspiel")

import shutthebox.rl.openspiel as so  # noqa: E402
from shutthebox import registry  # noqa: E402

GAMES = ["python_shutthebox_solo", "python_shutthebox_solo(variant=two-tiles,objective=score)",
         "python_shutthebox_pig", "python_shutthebox_pig(variant=piglet)",
         "python_shutthebox_pig(variant=two-dice,goal=30)", "python_shutthebox_pig(variant=big-pig,goal=40)",
         "python_shutthebox_goat(goal=15)", "python_shutthebox_toggle(cards=5,sides=4)",
         "python_shutthebox_toggle(cards=5,sides=4,max_rolls=3)",  # stopped games too
         "python_shutthebox_shutthebox(tiles=6)", "python_shutthebox_shutthebox(players=3,tiles=5,max_move_tiles=2)"]


# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = pytest.mark.usefixtures("fresh_cache")


def test_registered():
    expected = {"python_shutthebox_solo", "python_shutthebox_pig", "python_shutthebox_goat",
                "python_shutthebox_toggle", "python_shutthebox_threes", "python_shutthebox_yazy",
                "python_shutthebox_shutthebox"}
    if "yahtzee" in registry.GAMES:
        expected.add("python_shutthebox_yahtzee")
    assert set(so.NAMES) == expected
    assert set(so.NAMES) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.slow) if "goat" in name else name
                                  for name in GAMES])  # Goat's: over a second
def test_random_sim_test(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=30, serialize=True, verbose=False)


def test_random_sim_test_of_the_12_card_toggle_needs_modest_memory():
    """pyspiel keeps a clone of every state of a simulated game, each carrying its history: memory grows with
    the square of a game's length, and a random player's 12-card toggle game lasted thousands of rolls (a
    gigabyte for the first of these games, out of memory within 30). ``max_rolls`` bounds it."""
    import os
    import resource
    import subprocess
    import sys

    from conftest import ROOT

    # The peak of this process's own memory (VmHWM, kB), not ru_maxrss: Linux carries that over exec from the
    # forked copy of pytest (preexec_fn forks), so it reads as large as the test session itself.
    code = ("import pyspiel, shutthebox.rl.openspiel\n"
            "pyspiel.random_sim_test(pyspiel.load_game('python_shutthebox_toggle'), num_sims=5, serialize=True, "
            "verbose=False)\n"
            "print(next(line.split()[1] for line in open('/proc/self/status') if line.startswith('VmHWM:')))\n")
    limit = 2 * 1024 ** 3  # address space: a runaway stops here, not in the machine's swap

    def capped():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          preexec_fn=capped, env=dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1"))
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.split()[-1]) < 400 * 1024, done.stdout  # kB: about 120 MB here


def test_a_stopped_toggle_game_returns_the_rolls_and_what_optimal_play_still_expects():
    from test_toggle import exact_solve

    game = pyspiel.load_game("python_shutthebox_toggle(cards=5,sides=4,max_rolls=3)")
    expected = exact_solve(5, 4)  # expected further rolls before a throw, as Fractions
    assert game.max_game_length() == 2 * 3 and game.min_utility() <= -3 - float(max(expected))  # a throw, a flip
    rng = np.random.default_rng(5)
    stopped = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.integers(16)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
        up, _, _, rolls = state._s
        assert rolls <= 3
        if up:
            stopped += 1
            assert rolls == 3 and "stopped after 3 rolls" in str(state)
            assert abs(state.returns()[0] - float(-3 - expected[up])) < 1e-9
        else:
            assert state.returns() == [-float(rolls)]
    assert stopped


def _walk(game, rng, steps):
    """States met along random play (chance by its chances), restarting at the end."""
    state = game.new_initial_state()
    for _ in range(steps):
        yield state
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.slow) if "goat" in name else name
                                  for name in GAMES])  # Goat's: over a second
def test_exact_value_is_consistent_with_the_tree(name):
    """At a chance node the exact value is the mean of its outcomes' (by their chances); at a decision the
    mover's is the best of its actions' (within the tables' ties), the others' follow from it; terminal states
    are worth their returns."""
    game = pyspiel.load_game(name)
    rng = np.random.default_rng(1)
    players = game.num_players()
    for state in _walk(game, rng, 600):
        value = so.exact_value(state)
        assert len(value) == players
        if state.is_terminal():
            assert value == state.returns()
            continue
        if game.get_type().utility != pyspiel.GameType.Utility.GENERAL_SUM:  # zero-sum, or win shares
            assert abs(sum(value) - game.utility_sum()) < 1e-12
        children = []
        for action, chance in (state.chance_outcomes() if state.is_chance_node() else
                               [(a, None) for a in state.legal_actions()]):
            child = state.clone()
            child.apply_action(action)
            children.append((chance, so.exact_value(child)))
        if state.is_chance_node():
            assert abs(sum(p for p, _ in children) - 1.0) < 1e-12
            for player in range(players):
                assert abs(sum(p * v[player] for p, v in children) - value[player]) < 1e-9
        else:
            mover = state.current_player()
            assert abs(max(v[mover] for _, v in children) - value[mover]) < 1e-9


def test_exact_values_are_the_tables():
    from shutthebox.games.pig.table import load

    pig = pyspiel.load_game("python_shutthebox_pig")
    assert "%.6f" % ((so.exact_value(pig.new_initial_state())[0] + 1) / 2) == "0.530593"
    state = pig.new_initial_state()
    for action in (1, 2, 0):  # roll, a 4 (outcome 2: +4), hold
        state.apply_action(action)
    assert str(state) == "player_0 4, player_1 0, player_1 to move, turn total 0"
    assert so.exact_value(state)[1] == 2 * load().probe_win(0, 4, 0) - 1
    solo = pyspiel.load_game("python_shutthebox_solo")
    assert "%.6f" % so.exact_value(solo.new_initial_state())[0] == "0.097614"
    toggle = pyspiel.load_game("python_shutthebox_toggle")
    assert "%.6f" % -so.exact_value(toggle.new_initial_state())[0] == "50.317928"


def test_states_clone_pickle_and_observe():
    game = pyspiel.load_game("python_shutthebox_pig(goal=30)")
    state = game.new_initial_state()
    state.apply_action(1)
    state.apply_action(4)  # +6
    twin = state.clone()
    twin.apply_action(1)
    assert str(state) == "player_0 0, player_1 0, player_0 to move, turn total 6" and twin.is_chance_node()
    assert state._adapter is twin._adapter is copy.deepcopy(state)._adapter  # the table is shared
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.history() == state.history()
    assert state.observation_string(1) == str(state)
    assert state.observation_tensor(0) == [0.0, 0.0, 6.0, 0.0, 0.0]
    assert state.legal_actions() == [0, 1] and state.action_to_string(0, 0) == "hold"
    assert twin.action_to_string(pyspiel.PlayerId.CHANCE, 4) == "+6"
    solo = pyspiel.load_game("python_shutthebox_solo").new_initial_state()
    assert solo.observation_tensor(0) == [1.0] * 9 + [0.0]
    solo.apply_action(7)
    assert str(solo) == "open 123456789, roll 7" and solo.action_to_string(0, 0b1000010) == "shut 27"


def test_bad_parameters_are_refused_in_the_commands_words():
    from shutthebox import InvalidQuery

    with pytest.raises(InvalidQuery, match="--goal of piglet must be a whole number from 2 to 50"):
        pyspiel.load_game("python_shutthebox_pig(variant=piglet,goal=60)")


@pytest.mark.slow
def test_mcts_example_scores_its_games_exactly(capsys):
    """The MCTS example runs (a tiny budget) and scores each decision from the tables."""
    import importlib.util
    import os

    from conftest import ROOT

    spec = importlib.util.spec_from_file_location("openspiel_mcts", os.path.join(ROOT, "examples",
                                                                                  "openspiel_mcts.py"))
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    found = example.play("python_shutthebox_solo", games=4, simulations=20, seed=3)
    assert found["decisions"] > 0 and 0.0 <= found["loss"][0] <= 1.0
    assert found["optimum"] == so.exact_value(pyspiel.load_game("python_shutthebox_solo").new_initial_state())[0]
    again = example.play("python_shutthebox_solo", games=4, simulations=20, seed=3)
    assert again["loss"] == found["loss"]  # seeded
