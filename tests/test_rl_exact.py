"""shutthebox.rl against the command line: along thousands of seeded steps of every environment, the exact info
(``q_values``, ``optimal_actions``, ``value()``) agrees with the command's ``--expect`` / ``--move`` answers
from the same tables; optimal play has regret 0 and its returns average to the table's value; ``evaluate``'s
exact values agree with seeded episodes and with the regrets summed along them (docs/RL.md)."""

import math

import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from conftest import run  # noqa: E402

import shutthebox.rl as rl  # noqa: E402
from shutthebox import registry  # noqa: E402
from shutthebox.engine.notation import format_set  # noqa: E402
from shutthebox.rl.evaluation import optimum_of  # noqa: E402

# Tables solved on first use go to the session's rl-cache, never the user's (conftest.py's fresh_cache).
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("fresh_cache")]
STEPS = 2500


def batch(prefix, lines, cache):
    """The command's answers to ``lines`` (one question each) after the game words ``prefix``."""
    result = run(*prefix, "--batch", stdin="".join(line + "\n" for line in lines), env={"SHUTTHEBOX_CACHE": cache})
    answers = result.stdout.splitlines()
    assert result.returncode == 0 and len(answers) == len(lines), result.stderr
    return answers


def walk(env, steps, seed, visit):
    """``steps`` seeded steps, half optimal and half random legal actions, calling ``visit(game, info)`` at
    every decision; checks that an optimal action has regret 0."""
    rng = np.random.default_rng(seed)
    game = env.unwrapped
    _, info = env.reset(seed=seed)
    for _ in range(steps):
        visit(game, info)
        optimal = rng.random() < 0.5
        legal = np.flatnonzero(info["action_mask"])
        action = info["optimal_actions"][0] if optimal else int(legal[rng.integers(len(legal))])
        _, _, terminated, _, info = env.step(action)
        if optimal:
            assert info["regret"] == 0.0
        if terminated:
            _, info = env.reset()


def legal_values(info):
    return {int(a): float(info["q_values"][a]) for a in np.flatnonzero(info["action_mask"])}


# -- one player ------------------------------------------------------------------------------


@pytest.mark.parametrize("variant,objective", [("standard", "shut"), ("two-dice", "score"), ("two-tiles", "shut")])
def test_solo_agrees_with_the_command(variant, objective, fresh_cache):
    env = gymnasium.make("shutthebox/ShutTheBoxSolo-v0", variant=variant, objective=objective)
    lines, checks = [], []
    tail = " --variant %s --objective %s" % (variant, objective)

    def visit(game, info):
        position, roll = game.position, game.roll
        lines.append("--solo --move %s %d%s" % (format_set(position, 9), roll, tail))
        checks.append(("move", set(info["optimal_actions"])))
        for move, value in legal_values(info).items():
            after = position ^ move
            if after:
                lines.append("--solo --expect %s%s" % (format_set(after, 9), tail))
                checks.append(("value", "%.6f" % value))
            else:
                assert value == (1.0 if objective == "shut" else 0.0)

    walk(env, STEPS, 1, visit)
    for (kind, expected), answer in zip(checks, batch([], lines, fresh_cache)):
        if kind == "move":
            tiles = [int(t) for t in answer.strip("[]").split(", ")]
            assert sum(1 << (t - 1) for t in tiles) in expected
        else:
            assert answer == expected


@pytest.mark.parametrize("options,objective", [({"tiles": 6, "one_die": "never"}, "shut"),
                                               ({"tiles": 10, "max_move_tiles": 3}, "score")])
def test_solo_under_any_rules_agrees_with_the_command(options, objective, fresh_cache):
    """Rules given as the command's game options: its table is solved on first use, and the env's values
    are the command's --solo answers under the same options."""
    env = gymnasium.make("shutthebox/ShutTheBoxSolo-v0", objective=objective, **options)
    prefix = [word for option, value in options.items() for word in ("--" + option.replace("_", "-"), str(value))]
    tiles = options["tiles"]
    lines, checks = [], []

    def visit(game, info):
        assert game.question()[-6:-4] == ["--solo", "--move"]
        for move, value in legal_values(info).items():
            after = game.position ^ move
            if after:
                lines.append("--solo --expect %s --objective %s" % (format_set(after, tiles), objective))
                checks.append("%.6f" % value)

    walk(env, 400, 3, visit)
    assert lines and batch(prefix, lines, fresh_cache) == checks


@pytest.mark.parametrize("options,objective", [({"one_die": "optional:6,high"}, "shut"),
                                               ({"tiles": 8, "one_die": "optional:12"}, "score")])
def test_solo_optional_one_die_agrees_with_the_command(options, objective, fresh_cache):
    """Under an optional one die: a move's value is the command's --solo --expect after it, its optimal moves
    hold --solo --move; before a throw the best choice is worth --solo --expect of the position (the
    table's value) and holds the table's own choice of dice, and each choice's value is its rolls weighed
    by hand, each roll played by the command's --solo --move (a roll no move fits ends the turn)."""
    from shutthebox.games.shutthebox.rules import rules_from_options
    from shutthebox.games.shutthebox.solo.table import load_solo

    env = gymnasium.make("shutthebox/ShutTheBoxSolo-v0", objective=objective, **options)
    prefix = [word for option, value in options.items() for word in ("--" + option.replace("_", "-"), str(value))]
    rules = rules_from_options(dict(zip(prefix[::2], prefix[1::2])))[0]
    table = load_solo(rules=rules)
    tiles, throw = rules.tiles, 1 << rules.tiles
    tail = " --objective " + objective
    lines, checks = [], []
    choices = set()

    def visit(game, info):
        position, values = game.position, legal_values(info)
        words = format_set(position, tiles)
        if game.roll:
            assert game.question()[-6:-3] == ["--solo", "--move", words]
            lines.append("--solo --move %s %d%s" % (words, game.roll, tail))
            checks.append(("move", set(info["optimal_actions"])))
            for move, value in values.items():
                if position ^ move:
                    lines.append("--solo --expect %s%s" % (format_set(position ^ move, tiles), tail))
                    checks.append(("value", "%.6f" % value))
                else:
                    assert value == (1.0 if objective == "shut" else 0.0)
            return
        assert game.question()[-5:-2] == ["--solo", "--expect", words]
        assert set(values) == {throw, throw + 1}
        assert throw + (table.dice(words, objective) == 1) in info["optimal_actions"]
        best = max(values.values()) if objective == "shut" else min(values.values())
        assert abs(best - game.value()) < 1e-12 and game.value() == table.expect(words, objective)
        lines.append("--solo --expect %s%s" % (words, tail))
        checks.append(("value", "%.6f" % best))
        choices.add(position)
        for action, value in values.items():  # the choice's rolls weighed by hand
            total = 0.0
            for roll, weight in rules.roll_weights(1 if action == throw + 1 else rules.dice).items():
                move = table.get_move(words, roll, objective)
                if move is None:
                    total += weight * (0.0 if objective == "shut" else table.open_sum(position))
                    continue
                lines.append("--solo --move %s %d%s" % (words, roll, tail))
                checks.append(("tiles", list(move)))
                after = position ^ sum(1 << (tile - 1) for tile in move)
                total += weight * (table.expect(format_set(after, tiles), objective) if after else
                                   (1.0 if objective == "shut" else 0.0))
            assert abs(value - total / rules.outcomes) < 1e-12

    walk(env, STEPS, 10, visit)
    assert len(choices) >= 10
    for (kind, expected), answer in zip(checks, batch(prefix, lines, fresh_cache)):
        if kind == "move":
            tiles_closed = [int(t) for t in answer.strip("[]").split(", ")]
            assert sum(1 << (t - 1) for t in tiles_closed) in expected
        elif kind == "tiles":
            assert answer == "[%s]" % ", ".join(map(str, expected))
        else:
            assert answer == expected


@pytest.mark.parametrize("cards,sides", [(12, 6), (4, 2), (3, 5), (7, 4)])
def test_toggle_agrees_with_the_command(cards, sides, fresh_cache):
    env = gymnasium.make("shutthebox/Toggle-v0", cards=cards, sides=sides)
    lines, checks = [], []

    def visit(game, info):
        up, x, y, _ = game.get_state()
        lines.append("--move %s %d %d" % (format_set(up, cards), x, y))
        checks.append(("move", set(info["optimal_actions"])))
        for card, value in legal_values(info).items():
            lines.append("--expect %s" % format_set(up ^ (1 << card), cards))
            checks.append(("value", value))

    walk(env, STEPS, 2, visit)
    for (kind, expected), answer in zip(checks, batch(["toggle", "--cards", str(cards), "--sides", str(sides)], lines,
                                                        fresh_cache)):
        if kind == "move":
            assert int(answer) - 1 in expected
        else:  # a card's value is minus the roll it uses and the expected rolls after it
            assert "%.6f" % (-expected - 1.0) == answer


@pytest.mark.parametrize("goal", [100, 23])
def test_goat_solo_agrees_with_the_command(goal, fresh_cache):
    from shutthebox.games.goat.rules import Rules
    from shutthebox.games.goat.table import load
    from shutthebox.games.goat.law import LAW

    table = load(Rules(goal))
    env = gymnasium.make("shutthebox/GoatSolo-v0", goal=goal)
    lines, checks = [], []

    def after(score):  # turns after a turn ending with ``score`` banked
        return 1.0 + table.probe_solo(score) if score < goal else 1.0

    def visit(game, info):
        score, turn, rolls = game.get_state()[:3]  # the game model's (banked, turn, rolls, dice, turns)
        words = "%d %d %d" % (score, turn, rolls)
        lines.extend(["--solo --expect " + words, "--solo --move " + words])
        checks.extend([("value", "%.6f" % -game.value()), ("move", set(info["optimal_actions"]))])
        # the values are returns: minus the expected turns (the turns so far, 0 at a decision's key, left out)
        values = {action: -value for action, value in legal_values(info).items()}
        best = min(values.values())
        assert abs(best + game.value()) < 1e-12
        for action, value in values.items():  # one Bellman step from the table, as the command answers it
            if action == 0:
                expected = after(score + turn)
            else:
                busts, sums = LAW[action]
                total = busts * after(score)
                for gain, count in sums:
                    total += count * (after(score + turn + gain) if rolls == 2 else
                                      table.probe_solo(score, turn + gain, rolls + 1))
                expected = total / 6 ** action
            assert abs(value - expected) < 1e-12

    walk(env, STEPS, 3, visit)
    for (kind, expected), answer in zip(checks, batch(["goat", "--goal", str(goal)], lines, fresh_cache)):
        if kind == "move":
            assert (0 if answer == "stop" else int(answer.split()[1])) in expected
        else:
            assert answer == expected


def test_yazy_agrees_with_the_command(fresh_cache):
    from shutthebox.games.yazy.rules import format_categories, score

    env = gymnasium.make("shutthebox/Yazy-v0")
    lines, checks = [], []

    def visit(game, info):
        state = game.get_state()  # the game model's: (open, five dice, rerolls, total)
        open_set, roll, rerolls = state[0], state[1:6], state[6]
        cats, dice = format_categories(open_set), "".join(map(str, roll))
        lines.extend(["--expect %s %s %d" % (cats, dice, rerolls), "--move %s %s %d" % (cats, dice, rerolls)])
        optimal = info["optimal_actions"]
        checks.extend([("text", "%.6f" % game.value()), ("move", {game.action_words(a) for a in optimal})])
        values = legal_values(info)
        assert abs(max(values.values()) - game.value()) < 1e-9
        for action, value in values.items():
            if action >= 32:
                category = action - 32
                lines.append("--expect %s" % format_categories(open_set & ~(1 << category)))
                checks.append(("after", (value, score(category, roll))))
            elif action == 31:
                lines.append("--expect %s %s %d" % (cats, dice, rerolls - 1))
                checks.append(("text", "%.6f" % value))

    walk(env, STEPS, 4, visit)
    for (kind, expected), answer in zip(checks, batch(["yazy"], lines, fresh_cache)):
        if kind == "move":
            assert answer in expected
        elif kind == "after":
            value, points = expected
            assert "%.6f" % (value - points) == answer
        else:
            assert answer == expected


@pytest.mark.skipif("yahtzee" not in registry.GAMES, reason="no Yahtzee in the registry")
@pytest.mark.parametrize("rational", [False, True])
def test_yahtzee_agrees_with_the_command(rational, fresh_cache):
    from shutthebox.games.yahtzee.rules import CATEGORIES

    env = gymnasium.make("shutthebox/Yahtzee-v0", rational=rational)
    lines, checks = [], []

    def visit(game, info):
        words = game.question()[4:]  # CARD --upper N [--yahtzee-box B] DICE REROLLS
        lines.extend(["--options " + " ".join(words), "--move " + " ".join(words), "--expect " + " ".join(words)])
        values = legal_values(info)
        names = {}
        for action in values:
            if action >= 32:
                names[action] = "score " + CATEGORIES[action - 32]
            else:
                kept = [str(d) for i, d in enumerate(game.get_state()[3:8]) if action >> i & 1]
                names[action] = "keep " + (" ".join(kept) or "none")
        checks.append(("options", {names[a]: "%.6f" % v for a, v in values.items()}))
        checks.append(("move", {names[a] for a in info["optimal_actions"]}))
        checks.append(("value", "%.6f" % game.value()))

    walk(env, STEPS, 5, visit)
    for (kind, expected), answer in zip(checks, batch(["yahtzee", "--joker", "official"], lines, fresh_cache)):
        if kind == "options":
            listed = dict(part.rsplit(" ", 2)[:2] for part in answer.split("; "))
            assert listed == expected
        elif kind == "move":
            assert answer in expected
        else:
            assert answer == expected


# -- several players -------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"players": 3, "tiles": 6, "one_die": "optional:6,high"},
                                     {"players": 4, "tiles": 5, "dice": 3, "sides": 4, "max_move_tiles": 2}])
def test_shutthebox_players_agree_with_the_command(options, fresh_cache):
    from shutthebox.rl import shutthebox_v0

    env = shutthebox_v0.env(**options)
    game = env.unwrapped
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    lines, checks = [], []
    tiles = game.rules.tiles
    for step in range(STEPS):
        agent = env.agent_selection
        obs, _, terminated, _, info = env.last()
        if terminated:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        words = game.question()  # the rule options, --one or --scores S1,S2, then --move POS ROLL or --expect POS
        split = words.index("--one") if "--one" in words else words.index("--scores")
        prefix, words = words[:split], words[split:]
        _, position, roll = game.get_state()[:3]  # the model's state: seat, open tiles, roll, ...
        before = words[:-3] if roll else words[:-2]
        values = legal_values(info)
        if roll:
            lines.append(" ".join(words))
            checks.append(("move", set(info["optimal_actions"])))
            for move, value in values.items():
                after = position ^ move
                if after:
                    lines.append(" ".join(before + ["--expect", format_set(after, tiles)]))
                    checks.append(("value", "%.6f" % value))
                else:
                    assert value == 1.0
        else:  # throwing one die or all: the best throw is worth the table's value before it
            lines.append(" ".join(words))
            checks.append(("value", "%.6f" % game.value()))
            assert abs(max(values.values()) - game.value()) < 1e-12
        optimal = rng.random() < 0.5
        action = info["optimal_actions"][0] if optimal else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
        if optimal and agent in env.infos:
            assert env.infos[agent]["regret"] == 0.0
    for (kind, expected), answer in zip(checks, batch(prefix, lines, fresh_cache)):
        if kind == "move":
            tiles_closed = [int(t) for t in answer.strip("[]").split(", ")]
            assert sum(1 << (t - 1) for t in tiles_closed) in expected
        else:
            assert answer == expected


@pytest.mark.parametrize("goal", [100, 15])
def test_goat_two_players_agree_with_the_command(goal, fresh_cache):
    from shutthebox.rl import goat_v0

    env = goat_v0.env(goal=goal)
    game = env.unwrapped
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    lines, checks = [], []
    for _ in range(STEPS):
        obs, _, terminated, _, info = env.last()
        if terminated:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        words = game.question()[3:]  # --one/--two --move MY OPP TURN ROLLS
        lines.extend([" ".join(words), " ".join([words[0], "--expect"] + words[2:])])
        checks.extend([("move", set(info["optimal_actions"])), ("value", "%.6f" % game.value())])
        values = legal_values(info)
        assert abs(max(values.values()) - game.value()) < 1e-12
        action = info["optimal_actions"][0] if rng.random() < 0.5 else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    for (kind, expected), answer in zip(checks, batch(["goat", "--goal", str(goal)], lines, fresh_cache)):
        if kind == "move":
            assert (0 if answer == "stop" else int(answer.split()[1])) in expected
        else:
            assert answer == expected


# -- returns and regrets ---------------------------------------------------------------------

RETURN_CASES = [("shutthebox/ShutTheBoxSolo-v0", {}, 6000), ("shutthebox/ShutTheBoxSolo-v0", {"objective": "score"}, 3000),
                ("shutthebox/ShutTheBoxSolo-v0", {"tiles": 8, "one_die": "optional:12", "objective": "score"}, 3000),
                ("shutthebox/Toggle-v0", {}, 600), ("shutthebox/Toggle-v0", {"cards": 3, "sides": 5}, 2000),
                ("shutthebox/GoatSolo-v0", {}, 600), ("shutthebox/Yazy-v0", {}, 200)]
if "yahtzee" in registry.GAMES:
    RETURN_CASES.append(("shutthebox/Yahtzee-v0", {}, 200))


@pytest.mark.parametrize("env_id,options,episodes", RETURN_CASES)
def test_optimal_returns_average_to_the_exact_value(env_id, options, episodes):
    """Optimal play's returns average to the table's value from the start, within 4 standard errors."""

    env = gymnasium.make(env_id, **options)
    game = env.unwrapped
    sign = 1.0 if game.better == "more" else -1.0
    returns = []
    for episode in range(episodes):
        _, info = env.reset(seed=8 if episode == 0 else None)
        total, terminated = 0.0, False
        while not terminated:
            _, reward, terminated, _, info = env.step(info["optimal_actions"][0])
            assert info["regret"] == 0.0
            total += reward
        returns.append(sign * total)
    mean = sum(returns) / episodes
    error = math.sqrt(sum((r - mean) ** 2 for r in returns) / (episodes - 1) / episodes)
    assert abs(mean - optimum_of(game)) <= 4 * error


def _solo_greedy(observation, mask):
    """Close the highest tiles that make the roll (the largest legal bitmask); one die where it is a choice
    (the largest action)."""
    return int(np.flatnonzero(mask)[-1])


def _toggle_highest_up(observation, mask):
    """The highest face-up card the dice allow, else the lowest allowed (toggle's analysis policy)."""
    up = [card for card in np.flatnonzero(mask) if observation[card]]
    return int(up[-1]) if up else int(np.flatnonzero(mask)[0])


def _goat_two_dice(observation):
    """Two dice until the turn total reaches 12."""
    return 0 if observation[1] >= 12 else 2


@pytest.mark.parametrize("env_id,options,policy", [
    ("shutthebox/ShutTheBoxSolo-v0", {}, _solo_greedy),
    ("shutthebox/ShutTheBoxSolo-v0", {"objective": "score", "variant": "two-tiles"}, _solo_greedy),
    ("shutthebox/ShutTheBoxSolo-v0", {"one_die": "optional:6,high"}, _solo_greedy),  # one die wherever it may
    ("shutthebox/Toggle-v0", {"cards": 4, "sides": 2}, _toggle_highest_up),
    ("shutthebox/GoatSolo-v0", {"goal": 30}, _goat_two_dice),
])
def test_evaluate_exact_policy_values(env_id, options, policy):
    """A policy's exact value lies in its seeded episodes' interval, and the regrets summed along an episode
    average to what the policy loses against optimal play (the exact values' difference)."""
    report = rl.evaluate(policy, env_id, episodes=3000, seed=9, **options)
    assert report.exact is not None and report.illegal == 0 and report.truncated == 0
    assert abs(report.mean - report.exact) <= 3 * report.mean_half_width
    loss = abs(report.exact - report.optimum)
    assert loss > 0
    per_episode = report.regret * report.decisions / report.episodes
    assert abs(per_episode - loss) <= 3 * report.regret_half_width * report.decisions / report.episodes + 1e-12


@pytest.mark.parametrize("dice,stop_at", [(2, 20), (3, 15), (1, 8)])
def test_goat_exact_policy_is_the_commands_fixed_strategy(dice, stop_at, fresh_cache):
    """A policy playing Goat's fixed strategy (K dice, stop at T or at the goal) is worth exactly what
    ``goat --solo --expect 0 --dice K --stop-at T`` prints."""

    def fixed(observation):
        banked, turn, rolls = (int(v) for v in observation)
        return 0 if rolls and (turn >= stop_at or banked + turn >= 100) else dice

    report = rl.evaluate(fixed, "shutthebox/GoatSolo-v0", episodes=0)
    answer = batch(["goat"], ["--solo --expect 0 --dice %d --stop-at %d" % (dice, stop_at)], fresh_cache)[0]
    assert "%.6f" % -report.exact == answer  # the return: minus the expected turns
