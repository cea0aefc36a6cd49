"""yazy's game model (shutthebox/games/yazy/model.py): its values against the command line's questions and
the Gymnasium environment's, its chance nodes, and the OpenSpiel game built on it (python_shutthebox_yazy)."""

import subprocess
import sys

import pytest

from modelchecks import check_chance_nodes, decision_states
from shutthebox import registry
from shutthebox.engine.model import CHANCE, GameModel
from shutthebox.games.yazy.rules import CATEGORIES, REROLLS, SCORE, Rules, describe_move, format_categories

try:
    import pyspiel
except ImportError:  # the openspiel extra
    pyspiel = None
needs_pyspiel = pytest.mark.skipif(pyspiel is None, reason="needs open_spiel (the openspiel extra)")

# Tables solved on first use (--categories) go to the session's rl-cache, never the user's (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_cache")

TOTAL = "165.757319"  # ShutTheBox yazy --expect
RULES = [{}, {"categories": "ones,full-house,yazy"}]


def _model(rules):
    return registry.declaration("yazy").model(Rules(**rules))


def _session(rules):
    return registry.grammar("yazy").open_game({"--" + key: value for key, value in rules.items()}, None)


def test_the_game_declares_its_model():
    declared = registry.declaration("yazy")
    model = declared.model()
    assert declared.has_model and declared.players() == 1 == model.players
    assert isinstance(model, GameModel) and model is declared.model(Rules())
    assert (model.n_actions, model.n_outcomes, model.max_length) == (43, 252, 66)
    assert (model.min_return, model.max_return) == (0.0, 280.0)
    start = model.initial()
    assert model.player(start) == CHANCE and len(model.observation(start, 0)) == len(model.observation_nvec)


@pytest.mark.parametrize("rules", RULES)
def test_values_are_the_command_lines_expect_and_move(rules):
    """At the decisions of random games: the best value less the total is ``--expect CATS DICE REROLLS``, the
    model's value too, the table's move ``--move``; a score's value is its points plus ``--expect`` of the
    categories left."""
    model, session = _model(rules), _session(rules)
    decisions = 0
    for state in decision_states(model, 5, 12):
        total, rerolls = state[-1], state[-2]
        dice = "".join(str(die) for die in state[1:6])
        cats = format_categories(state[0])
        values = model.values(state)
        assert sorted(values) == model.legal(state)
        keeps = [action for action in values if action < SCORE]  # one for each set of faces kept
        assert len(keeps) == (len({model.apply(state, mask) for mask in range(32)}) if rerolls else 0)
        assert len({model.action_text(state, action) for action in values}) == len(values)
        expect = session.answer(["--expect", cats, dice, str(rerolls)])
        assert "%.6f" % (max(values.values()) - total) == expect == "%.6f" % (model.value(state)[0] - total)
        best = model.best(state)
        assert describe_move(best, model.dice(state)) == session.answer(["--move", cats, dice, str(rerolls)])
        assert best in values and values[best] >= max(values.values()) - 1e-9
        for action, value in values.items():
            if action >= SCORE:
                left = state[0] & ~(1 << (action - SCORE))
                after = float(session.answer(["--expect", format_categories(left)])) if left else 0.0
                points = model.apply(state, action)[-1] - total
                assert value - total - points == pytest.approx(after, abs=6e-7)
        decisions += 1
    assert decisions >= 12 * len(Rules(**rules).names())


def test_the_environment_is_the_model_less_the_total():
    """``shutthebox/Yazy-v0`` is the model's (``rl/model_env.py``): at each decision of seeded episodes its
    q-values are the model's values less the total (within 1e-12: the decision is shared across totals), its
    observation the model's less the total, the table's move among its optimal actions."""
    gymnasium = pytest.importorskip("gymnasium")
    np = pytest.importorskip("numpy")
    import shutthebox.rl  # noqa: F401 - registers the environments

    env = gymnasium.make("shutthebox/Yazy-v0")
    model, game = _model({}), env.unwrapped
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            state = game.get_state()
            assert obs.tolist() == model.observation(state, 0)[:-1]
            values = model.values(state)
            assert np.flatnonzero(info["action_mask"]).tolist() == sorted(values) == model.legal(state)
            for action, value in values.items():
                assert info["q_values"][action] == pytest.approx(value - state[-1], abs=1e-12)
            assert model.best(state) in info["optimal_actions"]
            obs, reward, done, _, info = env.step(int(sorted(values)[seed % len(values)]))


@pytest.mark.parametrize("rules", RULES)
def test_chance_nodes_weigh_their_outcomes(rules):
    check_chance_nodes(_model(rules), games=4)


def test_the_initial_value_is_the_tables():
    model = _model({})
    assert "%.6f" % model.value(model.initial())[0] == TOTAL == _session({}).answer(["--expect"])
    small = _model({"categories": "yazy,ones"})
    assert "%.6f" % small.value(small.initial())[0] == _session({"categories": "ones,yazy"}).answer(["--expect"])


def test_questions_do_not_import_the_model():
    code = ("import sys; from shutthebox import registry; session = registry.grammar('yazy').open_game({}, None); "
            "print(session.answer(['--move', 'all', '13366', '2'])); "
            "assert 'shutthebox.games.yazy.model' not in sys.modules")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "keep 6 6\n", done.stderr


# -- OpenSpiel ---------------------------------------------------------------------------------------------


@needs_pyspiel
@pytest.mark.parametrize("params", [None, {"categories": "yazy,ones"}])
def test_openspiel_random_sim_test(params):
    import shutthebox.rl.openspiel as so

    assert "python_shutthebox_yazy" in so.NAMES
    game = pyspiel.load_game("python_shutthebox_yazy", params or {})
    assert game.get_parameters() == {"categories": (params or {}).get("categories", "all")}
    assert game.num_distinct_actions() == SCORE + len(CATEGORIES) and game.max_chance_outcomes() == 252
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


@needs_pyspiel
def test_openspiel_categories_in_a_game_string():
    """A game string takes no commas: a list of categories is joined by dots (the table name's spelling), and
    the game's string gives it back (serialized games and states load again)."""
    import shutthebox.rl.openspiel as so

    game = pyspiel.load_game("python_shutthebox_yazy(categories=ones.yazy)")
    assert str(game) == "python_shutthebox_yazy(categories=ones.yazy)"
    value = so.exact_value(game.new_initial_state())[0]
    assert "%.6f" % value == _session({"categories": "ones,yazy"}).answer(["--expect"]) == "5.893168"
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    with pytest.raises(Exception, match="unknown category 'onez'"):
        pyspiel.load_game("python_shutthebox_yazy(categories=onez)")


@needs_pyspiel
def test_openspiel_exact_value_is_the_tables():
    import shutthebox.rl.openspiel as so

    state = pyspiel.load_game("python_shutthebox_yazy").new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 252
    assert "%.6f" % so.exact_value(state)[0] == TOTAL
    state.apply_action(251)  # 66666
    assert not state.is_chance_node() and str(state) == "total 0, open all, dice 66666, %d rerolls left" % REROLLS
    assert state.action_to_string(SCORE + CATEGORIES.index("yazy")) == "score yazy"
