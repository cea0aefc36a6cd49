"""Yahtzee's game model (shutthebox/games/yahtzee/model.py): its values against the command line's questions
and the Gymnasium environment's, its chance nodes, and the OpenSpiel game built on it
(python_shutthebox_yahtzee)."""

import subprocess
import sys

import pytest

from modelchecks import check_chance_nodes, decision_states
from shutthebox import registry
from shutthebox.engine.model import CHANCE, GameModel
from shutthebox.games.yahtzee.rules import (
    CATEGORIES, FIFTY, OPEN, REROLLS, YAHTZEE, YATZY_CATEGORIES, format_categories, options_of,
)

try:
    import pyspiel
except ImportError:  # the openspiel extra
    pyspiel = None
needs_pyspiel = pytest.mark.skipif(pyspiel is None, reason="needs open_spiel (the openspiel extra)")

# Tables solved on first use (free, yatzy) go to the session's rl-cache, never the user's (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_cache")

TOTAL = "254.587729"  # ShutTheBox yahtzee --expect
SCORE = 32
# The shipped rules; a joker rule and Yatzy solved on first use (some seconds each: slow).
RULES = ["official", pytest.param("free", marks=pytest.mark.slow), pytest.param("yatzy", marks=pytest.mark.slow)]


def _model(rules="official"):
    return registry.declaration("yahtzee").model(rules)


def _session(rules="official"):
    words = options_of(rules)
    return registry.grammar("yahtzee").open_game({words[0]: words[1]}, None)


def _state_words(model, state) -> list:
    """The card, ``--upper`` and ``--yahtzee-box`` of a state, as a question writes them."""
    card, upper, box = state[:3]
    words = [format_categories(card, model.rules), "--upper", str(upper)]
    if box != OPEN:
        words += ["--yahtzee-box", "50" if box == FIFTY else "0"]
    return words


def _options(answer: str) -> dict:
    """``--options``' answer as {"keep 6 6": "23.456789", ...}."""
    found = {}
    for part in answer.split("; "):
        words = part.split(" ")
        found[" ".join(words[:-2])] = words[-2]
    return found


def test_the_game_declares_its_model():
    declared = registry.declaration("yahtzee")
    model = declared.model()
    assert declared.has_model and declared.players() == 1 == model.players
    assert isinstance(model, GameModel) and model is declared.model("official") and model.rules == "official"
    assert (model.n_actions, model.n_outcomes, model.max_length) == (45, 252, 78)
    assert (model.min_return, model.max_return) == (0.0, 1575.0)
    start = model.initial()
    assert model.player(start) == CHANCE and len(model.observation(start, 0)) == len(model.observation_nvec)
    assert model.observation_nvec == (2,) * 13 + (64, 3) + (7,) * 5 + (3, 1576)
    assert model.state_text(start) == "total 0, open all, upper 0, 5 dice to throw"


@pytest.mark.parametrize("rules", RULES)
def test_values_are_the_command_lines_options_expect_and_move(rules):
    """At the decisions of random games: each action's value less the total is its choice's in ``--options``
    (the printed digits), the best ``--expect CARD DICE REROLLS``, the model's value too, the table's move
    ``--move``; a box's value is its points and bonuses plus ``--expect`` of the state after it."""
    model, session = _model(rules), _session(rules)
    boxes = len(YATZY_CATEGORIES if rules == "yatzy" else CATEGORIES)
    decisions = 0
    for state in decision_states(model, 5, 8):
        total, rerolls = state[-1], state[-2]
        dice = "".join(str(die) for die in model.dice(state))
        where = _state_words(model, state)
        values = model.values(state)
        assert sorted(values) == model.legal(state)
        keeps = [action for action in values if action < SCORE]  # one for each set of faces kept
        assert len(keeps) == (len({model.apply(state, mask) for mask in range(32)}) if rerolls else 0)
        texts = {action: model.action_text(state, action) for action in values}
        assert len(set(texts.values())) == len(values)
        options = _options(session.answer(["--options"] + where + [dice, str(rerolls)]))
        assert sorted(options) == sorted(texts.values())
        for action, value in values.items():
            assert "%.6f" % (value - total) == options[texts[action]]
        expect = session.answer(["--expect"] + where + [dice, str(rerolls)])
        assert "%.6f" % (max(values.values()) - total) == expect == "%.6f" % (model.value(state)[0] - total)
        best = model.best(state)
        assert texts[best] == session.answer(["--move"] + where + [dice, str(rerolls)])
        assert values[best] >= max(values.values()) - 1e-9
        for action, value in values.items():
            if action >= SCORE:
                after = model.apply(state, action)
                later = float(session.answer(["--expect"] + _state_words(model, after))) if after[0] else 0.0
                assert value - after[-1] == pytest.approx(later, abs=6e-7)
        decisions += 1
    assert decisions >= 8 * boxes


def test_a_joker_and_both_bonuses():
    """A Yahtzee of fours on a filled yahtzee box (50), fours open, upper 60 (official jokers): it must go in
    fours, which pays 20, the upper bonus 35 and the Yahtzee bonus 100; keeping is still legal."""
    model, session = _model(), _session()
    card = 1 << 3 | 1 << 10  # fours, large-straight
    state = (card, 60, FIFTY, 4, 4, 4, 4, 4, 0, 100)
    assert model.player(state) == 0 and model.legal(state) == [SCORE + 3]
    after = model.apply(state, SCORE + 3)
    assert after == (1 << 10, 80, FIFTY, 0, 0, 0, 0, 0, REROLLS, 100 + 20 + 35 + 100)
    later = session.answer(["--expect", "large-straight", "--upper", "80", "--yahtzee-box", "50"])
    assert model.values(state) == {SCORE + 3: pytest.approx(155 + float(later) + 100, abs=6e-7)}
    rolled = state[:-2] + (2, 100)
    assert model.legal(rolled) == [0, 1, 3, 7, 15, 31, SCORE + 3]
    assert model.action_text(rolled, 7) == "keep 4 4 4" and model.action_text(rolled, 31) == "keep 4 4 4 4 4"
    assert model.action_text(rolled, 0) == "keep none" and model.action_text(rolled, SCORE + 3) == "score fours"
    assert model.state_text(rolled) == ("total 100, open fours,large-straight, upper 60, yahtzee box 50, dice 44444, "
                                        "2 rerolls left")
    assert model.best(rolled) == SCORE + 3 and session.answer(
        ["--move", "fours,large-straight", "--upper", "60", "--yahtzee-box", "50", "44444", "2"]) == "score fours"


def test_the_float_path_is_the_rationals_within_1e_12():
    """``rational=False`` (the Gymnasium environments' default, ``floatturn.py``): the same legal actions, each
    value within 1e-12 of the turn solver's rational, the same best move and state value."""
    pytest.importorskip("numpy")
    from shutthebox.games.yahtzee.model import model

    exact, fast = _model(), model(rational=False)
    for state in decision_states(exact, 8, 4):
        values, floats = exact.values(state), fast.values(state)
        assert list(values) == list(floats)
        assert all(abs(values[action] - floats[action]) < 1e-12 for action in values)
        assert exact.best(state) == fast.best(state)
        assert abs(exact.value(state)[0] - fast.value(state)[0]) < 1e-12


@pytest.mark.parametrize("rules", RULES[:2])
def test_chance_nodes_weigh_their_outcomes(rules):
    check_chance_nodes(_model(rules), games=3)


def test_the_initial_value_is_the_tables():
    model = _model()
    assert "%.6f" % model.value(model.initial())[0] == TOTAL == _session().answer(["--expect"])


def test_questions_do_not_import_the_model():
    code = ("import sys; from shutthebox import registry; session = registry.grammar('yahtzee').open_game({}, None); "
            "print(session.answer(['--move', 'all', '13366', '2'])); "
            "assert 'shutthebox.games.yahtzee.model' not in sys.modules")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "keep 6 6\n", done.stderr


# -- OpenSpiel ---------------------------------------------------------------------------------------------


@needs_pyspiel
def test_openspiel_random_sim_test():
    import shutthebox.rl.openspiel as so

    assert "python_shutthebox_yahtzee" in so.NAMES
    game = pyspiel.load_game("python_shutthebox_yahtzee")
    assert game.get_parameters() == {"joker": "official"}
    assert game.num_distinct_actions() == SCORE + len(CATEGORIES) and game.max_chance_outcomes() == 252
    assert game.max_game_length() == 78 and game.max_utility() == 1575.0
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@needs_pyspiel
@pytest.mark.slow
def test_openspiel_yatzy_in_a_game_string():
    """Another rule set is the table name's word (``joker=yatzy``: Scandinavian Yatzy's 15 boxes), and the
    game's string gives it back."""
    import shutthebox.rl.openspiel as so

    game = pyspiel.load_game("python_shutthebox_yahtzee(joker=yatzy)")
    assert str(game) == "python_shutthebox_yahtzee(joker=yatzy)" and game.num_distinct_actions() == SCORE + 15
    value = so.exact_value(game.new_initial_state())[0]
    assert "%.6f" % value == _session("yatzy").answer(["--expect"]) == "248.439989"
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@needs_pyspiel
def test_openspiel_exact_value_is_the_tables():
    import shutthebox.rl.openspiel as so

    state = pyspiel.load_game("python_shutthebox_yahtzee").new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 252
    assert "%.6f" % so.exact_value(state)[0] == TOTAL
    state.apply_action(251)  # 66666
    assert not state.is_chance_node() and str(state) == "total 0, open all, upper 0, dice 66666, 2 rerolls left"
    assert state.action_to_string(SCORE + YAHTZEE) == "score yahtzee"
    assert state.action_to_string(3) == "keep 6 6" and 6 not in state.legal_actions()
    state.apply_action(SCORE + YAHTZEE)
    assert str(state) == ("total 50, open ones,twos,threes,fours,fives,sixes,three-kind,four-kind,full-house,"
                          "small-straight,large-straight,chance, upper 0, yahtzee box 50, 5 dice to throw")
    with pytest.raises(Exception, match="--joker must be official"):
        pyspiel.load_game("python_shutthebox_yahtzee(joker=house)")
