"""``evaluate`` in the PettingZoo environments: a policy against the table's player, its win share and its loss
a game (shutthebox.rl.versus; docs/RL.md)."""

import math

import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

import shutthebox.rl as rl  # noqa: E402


# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = pytest.mark.usefixtures("fresh_cache")


def first_legal(observation, mask):
    return int(np.flatnonzero(mask)[0])


@pytest.mark.slow
def test_pig_hold_at_20_is_its_exact_duel_in_both_seats():
    """pig_v0's exact share of "hold at 20" is the strategies' exact duels against optimal play, seat by seat;
    the regrets summed along the games estimate the same loss."""
    from shutthebox.games.pig.strategies import against_optimal, hold_at

    goal = 40
    hold = hold_at(20)

    def policy(observation, mask):
        mine, other, turn = (int(x) for x in observation["observation"][:3])
        return int(turn == 0 or hold(mine, other, turn, goal))

    report = rl.evaluate(policy, "pig_v0", episodes=400, seed=2, goal=goal)
    first, second = against_optimal("pig", goal, 6, hold)
    assert report.seats == (0, 1) and report.loss_exact
    assert abs(report.exact_by_seat[0] - first.value) <= first.bound + 1e-15
    assert abs(report.exact_by_seat[1] - second.value) <= second.bound + 1e-15
    assert abs(report.exact - (first.value + second.value) / 2) < 1e-12
    assert abs(report.optimum - 0.5) < 1e-15  # both seats played equally often: optimal play wins half
    assert abs(report.loss - (0.5 - report.exact)) < 1e-12 and report.loss > 0.01
    assert abs(report.episode_loss - report.loss) < 4 * report.episode_loss_half_width
    assert "loss per game" in str(report) and "(exact" in str(report)


@pytest.mark.slow
def test_the_tables_own_play_loses_nothing():
    """The table's moves read from the models by the observation: regret 0 at every decision, loss 0, and in
    pig_v0 the exact share is optimal play's."""
    from shutthebox.games.goat.model import model
    from shutthebox.games.goat.rules import Rules
    from shutthebox.rl import pig

    pig_model, goat_model = pig.model(goal=30), model(Rules(20))

    def pig_table(observation, mask):
        mine, other, turn = (int(x) for x in observation["observation"][:3])
        return int(pig_model.rolls(mine, other, turn))

    def goat_table(observation, mask):
        mine, other, turn, rolls, seat, _ = (int(x) for x in observation["observation"])
        banked = (mine, other) if seat == 0 else (other, mine)
        return goat_model.best((*banked, turn, rolls, seat, 0))

    report = rl.evaluate(pig_table, "pig_v0", episodes=60, seed=1, goal=30)
    assert report.regret == 0.0 and report.loss < 1e-12 and report.loss_exact and report.decisions > 0
    assert abs(report.exact - report.optimum) < 1e-12
    report = rl.evaluate(goat_table, "goat_v0", episodes=60, seed=1, goal=20)
    assert report.regret == 0.0 and report.loss == 0.0 and report.illegal == 0 and report.decisions > 0


@pytest.mark.parametrize("env_id,options,seat", [pytest.param("goat_v0", {"goal": 20}, None, marks=pytest.mark.slow),
                                                 ("shutthebox_v0", {"players": 2, "tiles": 6}, 0),
                                                 ("pig_v0", {"goal": 25}, 1)])
def test_loss_and_share_agree(env_id, options, seat):
    """A poor policy: its mean share is optimal play's less its loss, within the two estimates' noise."""
    report = rl.evaluate(first_legal, env_id, episodes=600, seed=4, seat=seat, exact=False, **options)
    assert report.optimum is not None and report.loss > 0.02
    noise = math.hypot(report.share_half_width, report.loss_half_width)
    assert abs(report.share - (report.optimum - report.loss)) < 2 * noise


@pytest.mark.parametrize("options", [{"players": 2, "tiles": 6}, {"players": 3, "tiles": 6},
                                     pytest.param({"players": 4}, marks=pytest.mark.slow)])
def test_shut_the_box_start_values_are_the_seats_shares(options):
    """Each seat's exact share before any dice (the optimum ``evaluate`` compares with): the first player's is
    the command's ``--expect`` before the first throw (``--one --expect`` for two players), and the seats'
    shares sum to 1 (a tie shared)."""
    from conftest import run

    from shutthebox.rl import shutthebox_v0

    env = shutthebox_v0.raw_env(**options)
    shares = [env.start_value(seat) for seat in range(env.players)]
    assert abs(sum(shares) - 1.0) < 1e-12 and all(0 < share < 1 for share in shares)
    words = ["--tiles", str(options.get("tiles", 9)), "--players", str(options["players"])]
    position = "123456789"[:options.get("tiles", 9)]
    asked = ["--one", "--expect", position] if options["players"] == 2 else ["--scores", "none", "--expect", position]
    result = run(*words, *asked)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "%.6f" % shares[0]


def test_a_policy_that_never_finishes_has_no_share_nor_loss():
    report = rl.evaluate(lambda observation, mask: 0, "pig_v0", episodes=3, seed=1, goal=20)
    assert report.loss is None and report.share is None and report.cut_illegal == 3
    assert "illegal action at banked 0, the opponent 0, turn total 0" in report.note
    assert str(report).splitlines()[1].startswith("  no value:")


def test_refusals():
    with pytest.raises(ValueError, match="seat must be None \\(alternate\\) or a seat from 0 to 1"):
        rl.evaluate(first_legal, "pig_v0", seat=2, goal=20)
    from shutthebox.rl.versus import evaluate_versus

    with pytest.raises(ValueError, match="evaluate_versus plays the PettingZoo environments"):
        evaluate_versus(first_legal, "shutthebox/Pig-v0")
