"""How good is a policy? Its exact value where the state space allows, and its mean regret per decision
along seeded episodes everywhere (docs/RL.md).

    from shutthebox.rl import evaluate
    report = evaluate(policy, "shutthebox/ShutTheBoxSolo-v0", episodes=2000, seed=1)
    print(report)

A policy is ``policy(observation) -> action``, ``policy(observation, action_mask) -> action`` (two
parameters), or an object with ``predict(observation, deterministic=True)`` (Stable-Baselines3's).
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from fractions import Fraction

import gymnasium
import numpy as np

Z95 = 1.959963984540054
EXACT = ("shutthebox/ShutTheBoxSolo-v0", "shutthebox/Toggle-v0", "shutthebox/GoatSolo-v0")
MAX_EXACT_TOGGLE_CARDS = 12  # a dense linear solve over 2^cards states


@dataclass
class Evaluation:
    """What :func:`evaluate` found. Values are in the game's unit; ``better`` says which way is good.

    ``optimum``: the exact value of optimal play from the start (the table's); ``exact``: the policy's exact
    value from the start (None where the state space is too large to enumerate; ``inf`` for a policy whose
    games never end); ``mean``, ``mean_half_width``: the episodes' mean value (minus the mean return where
    fewer is better) and its 95% half-width; ``regret``, ``regret_half_width``: the mean regret per decision
    and its 95% half-width (episodes as clusters); ``decisions``, ``illegal``: legal and illegal steps taken;
    ``truncated``: episodes cut at ``max_steps``."""

    env_id: str
    better: str
    optimum: float
    exact: float | None
    episodes: int
    mean: float | None
    mean_half_width: float | None
    regret: float | None
    regret_half_width: float | None
    decisions: int
    illegal: int
    truncated: int
    exact_fraction: Fraction | None = None
    note: str = ""

    def __str__(self) -> str:
        lines = ["%s (%s is better)" % (self.env_id, self.better), "  optimal play (exact):  %.6f" % self.optimum]
        if self.note:
            lines.append("  " + self.note)
        if self.exact is not None:
            lines.append("  this policy (exact):   %.6f   (loss %.6f)" % (self.exact, abs(self.exact - self.optimum)))
        if self.episodes:
            lines.append("  %d episodes:  mean %.6f +- %.6f" % (self.episodes, self.mean, self.mean_half_width))
            lines.append("  regret per decision:   %.6f +- %.6f over %d decisions%s" % (
                self.regret, self.regret_half_width, self.decisions,
                ", %d illegal actions" % self.illegal if self.illegal else ""))
            if self.truncated:
                lines.append("  %d episodes cut short" % self.truncated)
        return "\n".join(lines)


def as_policy(policy):
    """``policy`` as ``choose(observation, mask) -> int``."""
    if hasattr(policy, "predict") and not inspect.isfunction(policy):
        return lambda observation, mask: int(policy.predict(observation, deterministic=True)[0])
    try:
        required = [p for p in inspect.signature(policy).parameters.values()
                    if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        required = [None]
    if len(required) >= 2:
        return lambda observation, mask: int(policy(observation, mask))
    return lambda observation, mask: int(policy(observation))


def evaluate(policy, env_id: str, *, episodes: int = 1000, seed: int = 0, exact: bool = True,
             max_steps: int = 100_000, max_illegal: int = 100, **env_options) -> Evaluation:
    """Evaluate ``policy`` on the one-player environment ``env_id`` made with ``env_options``.

    ``exact``: also the policy's exact value (Shut the Box solo, toggle up to 12 cards, Goat solo; the
    policy must be deterministic: it is asked once per state). ``episodes`` seeded episodes (``seed``; the
    first reset takes it, the others follow) give the mean value and the mean regret per decision with 95%
    intervals; an episode is cut after ``max_steps`` steps or ``max_illegal`` illegal actions in a row (an
    illegal action changes nothing: a deterministic policy would repeat it for ever)."""
    choose = as_policy(policy)
    env = gymnasium.make(env_id, **env_options)
    game = env.unwrapped
    sign = 1.0 if game.better == "more" else -1.0
    optimum = optimum_of(game)
    exact_value, fraction, note = None, None, ""
    if exact and env_id in EXACT and not (env_id.endswith("Toggle-v0") and game.cards > MAX_EXACT_TOGGLE_CARDS):
        try:
            fraction = EXACT_VALUES[env_id](game, choose)
        except NeverEnds as error:
            fraction, note = None, str(error)
        else:
            exact_value = float(fraction)
            if not isinstance(fraction, Fraction):
                fraction = None
    returns, regrets, counts = [], [], []
    illegal = truncated = 0
    for episode in range(episodes):
        observation, info = env.reset(seed=seed if episode == 0 else None)
        total = regret = 0.0
        decisions = repeated = 0
        for _ in range(max_steps):
            action = choose(observation, info["action_mask"])
            observation, reward, terminated, _, info = env.step(action)
            total += reward
            if info["illegal"]:
                illegal += 1
                repeated += 1
                if repeated >= max_illegal:
                    truncated += 1
                    break
            else:
                repeated = 0
                decisions += 1
                regret += info["regret"]
            if terminated:
                break
        else:
            truncated += 1
        returns.append(sign * total)
        regrets.append(regret)
        counts.append(decisions)
    env.close()
    mean = half = regret_mean = regret_half = None
    if episodes:
        mean, half = _mean(returns)
        regret_mean, regret_half = _ratio(regrets, counts)
    return Evaluation(env_id, game.better, optimum, exact_value, episodes, mean, half, regret_mean, regret_half,
                      sum(counts), illegal, truncated, fraction, note)


def _mean(values):
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(variance / n)


def _ratio(totals, counts):
    """Mean per decision over episodes (clusters): the ratio estimate and its delta-method 95% half-width."""
    n, decisions = len(totals), sum(counts)
    if not decisions:
        return 0.0, 0.0
    ratio = sum(totals) / decisions
    if n < 2:
        return ratio, math.inf
    per = decisions / n
    residual = sum((t - ratio * c) ** 2 for t, c in zip(totals, counts)) / (n - 1)
    return ratio, Z95 * math.sqrt(residual / n) / per


def optimum_of(game) -> float:
    """The exact value of optimal play from the start of a new game (the table's value)."""
    model = game.model
    name = type(game).__name__
    if name == "ShutTheBoxSoloEnv":
        return model.values[model.rules.all_open]
    if name == "ToggleEnv":
        return model.rolls[model.rules.states - 1]
    if name == "GoatSoloEnv":
        return model.values[0]
    if name == "YazyEnv":
        return model.turn[-1]
    if name == "YahtzeeEnv":
        from ..games.yahtzee.rules import ALL, OPEN

        return model.table.value(ALL, 0, OPEN)
    raise ValueError("no optimum known for %s" % name)


class NeverEnds(ValueError):
    pass


# -- exact values of a deterministic policy ------------------------------------------------------


def _solo_exact(game, choose) -> Fraction:
    """Shut the Box solo: the chance to shut (or the expected score) of the policy, as a Fraction (asked once
    per state: its choice of dice at each position where the rules give one, its move for each roll)."""
    model = game.model
    rules = model.rules
    outcomes = rules.outcomes
    shut = game.objective == "shut"
    bits = game._bits
    values: dict = {0: Fraction(1 if shut else 0)}

    def value(position: int) -> Fraction:
        found = values.get(position)
        if found is not None:
            return found
        legal = model.legal(position)
        total = Fraction(0)
        dice = model.choices[position]
        if len(dice) > 1:  # one die optional: the policy chooses before the throw, no dice showing (roll 0)
            throws = [model.throw_action(count) for count in dice]
            mask = np.zeros(model.n_actions, dtype=np.int8)
            mask[throws] = 1
            action = choose(np.array(bits[position] + [0], dtype=np.int64), mask)
            if action not in throws:
                raise NeverEnds("the policy chooses an illegal action at open %s before the throw: its episodes "
                                "never end" % bin(position))
            dice = (model.dice_of(action),)
        for roll, weight in rules.roll_weights(dice[0]).items():
            moves = legal.get(roll)
            if not moves:
                total += weight * (0 if shut else model.sums[position])
                continue
            mask = np.zeros(model.n_actions, dtype=np.int8)
            mask[moves] = 1
            action = choose(np.array(bits[position] + [roll], dtype=np.int64), mask)
            if action not in moves:
                raise NeverEnds("the policy chooses an illegal action at open %s, roll %d: its episodes never end"
                                % (bin(position), roll))
            total += weight * value(position ^ action)
        found = values[position] = total / outcomes
        return found

    return value(rules.all_open)


def _toggle_exact(game, choose) -> float:
    """Toggle: the policy's expected rolls (``inf`` if some reachable state never finishes)."""
    model = game.model
    rules = model.rules
    cards, sides, size = rules.cards, rules.sides, rules.states
    share = 1.0 / sides ** 2
    transition = np.zeros((size, size))
    illegal: dict = {}
    for up in range(1, size):
        bits = [up >> i & 1 for i in range(cards)]
        for (x, y), choices in model.cards.items():
            if not choices:
                transition[up, up] += share
                continue
            mask = np.zeros(cards, dtype=np.int8)
            mask[[c - 1 for c in choices]] = 1
            action = choose(np.array(bits + [x, y], dtype=np.int64), mask)
            if action + 1 not in choices:  # changes nothing, so it is chosen again: the game never ends
                illegal[up] = (x, y)
                continue
            transition[up, up ^ (1 << action)] += share
    start = size - 1
    reach = {start}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        for after in np.flatnonzero(transition[state]):
            if int(after) not in reach:
                reach.add(int(after))
                frontier.append(int(after))
    for state in reach:
        if state in illegal:
            raise NeverEnds("the policy chooses an illegal action with cards %s face up, dice %d %d: its episodes "
                            "never end" % (bin(state), *illegal[state]))
    finishing = {0}
    changed = True
    while changed:
        changed = False
        for state in reach:
            if state not in finishing and any(transition[state, after] > 0 for after in finishing):
                finishing.add(state)
                changed = True
    if reach - finishing:
        return math.inf
    inner = sorted(reach - {0})
    if not inner:
        return 0.0
    matrix = np.eye(len(inner)) - transition[np.ix_(inner, inner)]
    values = np.linalg.solve(matrix, np.ones(len(inner)))
    return float(values[inner.index(start)])


def _goat_exact(game, choose) -> Fraction:
    """Goat solo: the policy's expected turns, exactly: within a turn every value is affine in the value of
    the turn's start (a match starts the same banked score again), solved score by score from the top."""
    from .goat import LAW

    goal = game.goal
    starts: dict = {}

    def later(banked):
        return 1 + starts[banked] if banked < goal else Fraction(1)

    for score in range(goal - 1, -1, -1):
        memo: dict = {}

        def slot(turn, rolls, score=score, memo=memo):
            key = (turn, rolls)
            found = memo.get(key)
            if found is not None:
                return found
            mask = np.zeros(7, dtype=np.int8)
            mask[1:] = 1
            mask[0] = rolls > 0
            action = choose(np.array([score, turn, rolls], dtype=np.int64), mask)
            if action == 0 and rolls > 0:
                found = (later(score + turn), Fraction(0))
            elif 1 <= action <= 6:
                busts, sums = LAW[action]
                whole = 6 ** action
                constant, slope = Fraction(busts, whole), Fraction(busts, whole)  # a match: 1 + the start again
                for gain, count in sums:
                    weight = Fraction(int(count), whole)
                    if rolls + 1 == 3:
                        constant += weight * later(score + turn + gain)
                    else:
                        c, s = slot(turn + gain, rolls + 1)
                        constant += weight * c
                        slope += weight * s
                found = (constant, slope)
            else:
                raise NeverEnds("the policy chooses an illegal action at banked %d, turn total %d after %d rolls: "
                                "its episodes never end" % (score, turn, rolls))
            memo[key] = found
            return found

        constant, slope = slot(0, 0)
        starts[score] = constant / (1 - slope)
    return starts[0]


EXACT_VALUES = {"shutthebox/ShutTheBoxSolo-v0": _solo_exact, "shutthebox/Toggle-v0": _toggle_exact,
                "shutthebox/GoatSolo-v0": _goat_exact}
