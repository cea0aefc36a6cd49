"""How good is a policy? What it loses a game against optimal play (exactly where the state space allows),
then its regret per decision, along seeded episodes (docs/RL.md).

    from shutthebox.rl import evaluate
    report = evaluate(policy, "shutthebox/ShutTheBoxSolo-v0", episodes=2000, seed=1)
    print(report)

A policy is any of: an object with ``predict(observation, ...)`` (Stable-Baselines3's; given
``action_masks=mask`` where its ``predict`` takes that keyword, as sb3-contrib's MaskablePPO does, and
``deterministic=True`` where it takes that); a callable of ``(observation, action_mask)`` (two positional
parameters, or a parameter named ``action_mask``); a callable of the observation alone. It returns the
action: an int, a numpy integer or a one-element integer array.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from fractions import Fraction

import gymnasium
import numpy as np

from ..engine.notation import format_set

Z95 = 1.959963984540054
EXACT = ("shutthebox/ShutTheBoxSolo-v0", "shutthebox/Toggle-v0", "shutthebox/GoatSolo-v0", "shutthebox/Pig-v0")
MAX_EXACT_TOGGLE_CARDS = 12  # a dense linear solve over 2^cards states
RECHECK = 200  # the exact pass asks its first states twice: a policy that draws its actions shows it there
_SEEN_LIMIT = 1 << 20  # answers remembered to compare with later ones
MASK_NAMES = ("action_mask", "action_masks", "mask")


@dataclass
class Evaluation:
    """What :func:`evaluate` found. Values are in the game's unit (chance to shut, points; rolls, turns or
    score where fewer is better); ``better`` says which way is good.

    - ``loss``: what the policy loses a game against optimal play: exact (``loss_exact``) where the policy's
      exact value is known, else the mean over the episodes of the regrets summed along each, with its 95%
      half-width ``loss_half_width``; None for a policy that does not finish its games (it has no value).
    - ``regret``, ``regret_half_width``: the mean regret per legal decision and its 95% half-width (episodes
      as clusters). A policy taking more, smaller decisions can have less regret per decision and lose more a
      game: rank by ``loss``.
    - ``optimum``: optimal play's exact value from the start (the table's); ``exact``: the policy's exact
      value (Shut the Box solo, toggle up to 12 cards, Goat solo, for a deterministic policy that finishes
      its games; else None, ``note`` says why), ``exact_fraction`` the same as a Fraction where it is one.
    - ``mean``, ``mean_half_width``: the episodes' mean value (minus the mean return where fewer is better)
      and its 95% half-width; None when an episode was cut short.
    - ``decisions``, ``illegal``: legal and illegal actions taken (under ``illegal="replace"`` the legal action
      played for an illegal one is a decision too); ``truncated``: episodes cut short
      (``cut_illegal`` after ``max_illegal`` illegal actions in a row, ``cut_steps`` at ``max_steps``).
    - ``stochastic``: the policy answered the same observation differently (or was declared so): then
      ``exact`` is None and ``exact_draw`` is the exact value of one deterministic policy drawn from it (its
      first answer in each state), not the policy's own value; the episodes' figures are its own.
    """

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
    loss: float | None = None
    loss_half_width: float | None = None
    loss_exact: bool = False
    stochastic: bool = False
    exact_draw: float | None = None
    cut_illegal: int = 0
    cut_steps: int = 0
    episode_loss: float | None = None  # the regrets summed along each episode, averaged, beside an exact loss
    episode_loss_half_width: float | None = None
    max_illegal: int = 0
    stochastic_why: str = ""  # the observation answered differently, or "declared stochastic"

    @property
    def finishes(self) -> bool:
        """Whether the policy finished its games (every episode ended; the exact pass found no state it never
        leaves)."""
        return self.loss is not None or (not self.episodes and self.exact is not None)

    def __str__(self) -> str:
        lines = ["%s (%s is better)" % (self.env_id, self.better)]
        if self.loss is None:
            lines.append("  no value: " + (self._unfinished() or self.note or "no episode was played"))
            lines.append("  loss per episode:      none (a policy that does not finish its games has no value)")
        elif self.loss_exact:
            also = ""
            if self.episode_loss is not None:
                also = "; %.6f +- %.6f from the regrets along %d episodes" % (
                    self.episode_loss, self.episode_loss_half_width, self.episodes)
            lines.append("  loss per episode:      %.6f   (exact%s)" % (self.loss, also))
        else:
            lines.append("  loss per episode:      %.6f +- %.6f   (the regrets summed along each of %d episodes)"
                         % (self.loss, self.loss_half_width, self.episodes))
        if self.episodes:
            lines.append("  regret per decision:   %.6f +- %.6f over %d legal decisions" % (
                self.regret, self.regret_half_width, self.decisions))
        value = "optimal play %.6f (exact)" % self.optimum
        if self.exact is not None:
            value = "this policy %.6f (exact), " % self.exact + value
        if self.mean is not None:
            value += "; the episodes' mean %.6f +- %.6f" % (self.mean, self.mean_half_width)
        lines.append("  value:                 " + value)
        if self.episodes:
            actions = self.decisions + self.illegal
            lines.append("  episodes:              %d, %d cut short; %d illegal action%s of %d" % (
                self.episodes, self.truncated, self.illegal, "" if self.illegal == 1 else "s", actions))
        if self.stochastic:
            lines.append("  stochastic policy: " + self._stochastic_words())
        if self.note and self.loss is not None:
            lines.append("  note: " + self.note)
        return "\n".join(lines)

    def _unfinished(self) -> str:
        parts = []
        if self.cut_illegal:
            parts.append("%d after %d illegal actions in a row" % (self.cut_illegal, self.max_illegal))
        if self.cut_steps:
            parts.append("%d at the step limit" % self.cut_steps)
        words = ""
        if parts:
            words = "the policy does not finish its games: %d of %d episodes cut short (%s)" % (
                self.truncated, self.episodes, ", ".join(parts))
        if self.note:
            words = (words + "; " if words else "") + self.note
        return words

    def _stochastic_words(self) -> str:
        words = self.stochastic_why + ": its value is the episodes' mean"
        if self.exact_draw is not None:
            words += ("; %.6f is the exact value of one deterministic policy drawn from it (its first answer in "
                      "each state), not its own" % self.exact_draw)
        return words


def _action(choice):
    """A policy's answer as an int where it is an integer (numpy's, or a one-element integer array)."""
    if isinstance(choice, np.ndarray) and choice.size == 1 and choice.dtype.kind in "iu":
        return int(choice.reshape(()))
    if isinstance(choice, np.integer):
        return int(choice)
    return choice


def _parameters(function):
    try:
        return list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return None


def as_policy(policy):
    """``policy`` as ``choose(observation, mask) -> action``: the mask goes to every policy that takes one
    (``predict(..., action_masks=)``, a second positional parameter, a parameter named ``action_mask``)."""
    predict = getattr(policy, "predict", None)
    if callable(predict) and not inspect.isfunction(policy):
        names = {p.name for p in _parameters(predict) or ()}
        keywords = {}
        if "deterministic" in names:
            keywords["deterministic"] = True
        mask_name = next((name for name in MASK_NAMES if name in names), None)

        def choose(observation, mask):
            given = dict(keywords)
            if mask_name is not None:
                given[mask_name] = mask
            answer = predict(observation, **given)
            return _action(answer[0] if isinstance(answer, tuple) else answer)

        return choose
    parameters = _parameters(policy)
    if parameters is None:
        return lambda observation, mask: _action(policy(observation))
    mask_name = next((p.name for p in parameters if p.name in MASK_NAMES and p.kind != p.POSITIONAL_ONLY), None)
    required = [p for p in parameters if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY,
                                                                              p.POSITIONAL_OR_KEYWORD)]
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(required) >= 2 or any(p.kind == p.VAR_POSITIONAL for p in parameters):
        return lambda observation, mask: _action(policy(observation, mask))
    if mask_name is not None and positional and positional[0].name != mask_name:
        return lambda observation, mask: _action(policy(observation, **{mask_name: mask}))
    return lambda observation, mask: _action(policy(observation))


class Asker:
    """Asks the policy and remembers its answers: the same observation and mask answered differently marks
    it stochastic (``differs``). ``recheck`` states are asked twice."""

    def __init__(self, choose, wrap, recheck: int = 0):
        self.choose, self.wrap, self.recheck = choose, wrap, recheck
        self.seen: dict = {}
        self.differs = None

    def __call__(self, board, mask, observation=None):
        if observation is None:
            observation = self.wrap(board, mask)
        action = self.choose(observation, mask)
        key = (board.tobytes(), mask.tobytes())
        before = self.seen.get(key)
        if before is None:
            if self.recheck > 0:
                self.recheck -= 1
                self._compare(board, action, self.choose(self.wrap(board, mask), mask))
            if len(self.seen) < _SEEN_LIMIT:
                self.seen[key] = action
        else:
            self._compare(board, before, action)
        return action

    def _compare(self, board, before, action) -> None:
        if self.differs is None and repr(before) != repr(action):
            self.differs = (board.tolist(), before, action)


def evaluate(policy, env_id: str, *, episodes: int = 1000, seed: int = 0, exact: bool = True,
             deterministic: bool | None = None, max_steps: int = 100_000, max_illegal: int = 100,
             **env_options) -> Evaluation:
    """Evaluate ``policy`` on the one-player environment ``env_id`` made with ``env_options``.

    Leads with what the policy loses a game against optimal play: exact (Shut the Box solo, toggle up to 12
    cards, Goat solo: its exact value, asking the policy once in every state, with ``exact``), else the
    regrets summed along each of ``episodes`` seeded episodes (``seed``; the first reset takes it, the others
    follow); then the mean regret per decision and the mean value, with 95% intervals. The mask goes to every
    policy that takes one. An episode is cut after ``max_steps`` steps or ``max_illegal`` illegal actions in a
    row (an illegal action changes nothing: a deterministic policy would repeat it for ever); a policy whose
    episodes are cut, or whose exact pass finds a state it never leaves, gets no value.

    ``deterministic``: None to detect a policy that draws its actions (the same observation answered
    differently, in the episodes or in the exact pass, which asks its first states twice); False to declare
    it so; True to skip the exact pass's second asks. A stochastic policy's exact figure is that of one
    deterministic policy drawn from it (``exact_draw``), not its own value.

    ``illegal`` (an environment option) is the policy's as it was trained: ``"noop"`` (the default: an illegal
    action changes nothing, and is counted) or ``"replace"``: an illegal action is scored as the environment
    plays it, a legal action drawn uniformly in its place (the exact value weighs each legal action equally;
    the episodes draw one by the environment's seeded dice, its regret charged and counted as a decision).
    ``"end"`` is refused: a game ended by a penalty has no value in the game's unit."""
    replace = env_options.get("illegal", "noop") == "replace"
    if env_options.get("illegal", "noop") not in ("noop", "replace"):
        raise ValueError("evaluate plays an illegal action as a no-op (illegal='noop', the default) or as the "
                         "legal action the environment draws for it (illegal='replace'), not illegal=%r"
                         % (env_options["illegal"],))
    if deterministic not in (None, True, False):
        raise ValueError("deterministic must be None, True or False, not %r" % (deterministic,))
    env = gymnasium.make(env_id, max_episode_steps=max_steps, **env_options)
    game = env.unwrapped
    more = game.better == "more"
    sign = 1.0 if more else -1.0
    optimum = optimum_of(game)
    if getattr(game, "mask_observation", False):
        def wrap(board, mask):
            return {"observation": board, "action_mask": mask}
    else:
        def wrap(board, mask):
            return board
    ask = Asker(as_policy(policy), wrap, 0 if deterministic else RECHECK)
    exact_value, fraction, note, inexact = None, None, "", False
    if exact and env_id in EXACT and not (env_id.endswith("Toggle-v0") and game.rules.cards > MAX_EXACT_TOGGLE_CARDS):
        try:
            fraction = EXACT_VALUES[env_id](game, ask, replace)
        except NeverEnds as error:
            fraction, note = None, str(error)
        except Inexact as error:
            fraction, note, inexact = None, str(error), True
        else:
            exact_value = float(fraction)
            if not isinstance(fraction, Fraction):
                fraction = None
    ask.recheck = 0
    returns, regrets, counts = [], [], []
    illegal = cut_illegal = cut_steps = 0
    for episode in range(episodes):
        observation, info = env.reset(seed=seed if episode == 0 else None)
        total = regret = 0.0
        decisions = repeated = 0
        while True:
            board = observation["observation"] if isinstance(observation, dict) else observation
            action = ask(board, info["action_mask"], observation)
            observation, reward, terminated, truncated, info = env.step(action)
            total += reward
            if info["illegal"]:
                illegal += 1
            if info["illegal"] and not replace:
                repeated += 1
                if repeated >= max_illegal and not terminated:
                    cut_illegal += 1
                    break
            else:  # a legal action, or the one the environment played in place of an illegal one
                repeated = 0
                decisions += 1
                regret += info["regret"]
            if terminated:
                break
            if truncated:
                cut_steps += 1
                break
        returns.append(sign * total)
        regrets.append(regret)
        counts.append(decisions)
    env.close()
    stochastic = deterministic is False or ask.differs is not None
    if ask.differs is not None:
        board, first, second = ask.differs
        said = "it answered the observation %s with %r, then %r" % (board, first, second)
    else:
        said = "declared stochastic" if stochastic else ""
    exact_draw = None
    if stochastic:
        exact_draw, exact_value, fraction = exact_value, None, None
        if note:
            note = "the deterministic policy drawn from it (its first answer in each state): " + note
    truncated = cut_illegal + cut_steps
    mean = half = regret_mean = regret_half = loss = loss_half = None
    loss_exact = False
    if episodes:
        regret_mean, regret_half = _ratio(regrets, counts)
        if not truncated:
            mean, half = _mean(returns)
    episode_loss = _mean(regrets) if episodes and not truncated else None
    if exact_value is not None and not truncated:
        loss = max(optimum - exact_value, 0.0) if more else max(exact_value - optimum, 0.0)
        loss_half, loss_exact = 0.0, True
    elif episode_loss is not None and (stochastic or inexact or not note):  # else the note: it never finishes
        loss, loss_half = episode_loss
    shown = episode_loss if loss_exact and episode_loss is not None else (None, None)
    return Evaluation(env_id, game.better, optimum, exact_value, episodes, mean, half, regret_mean, regret_half,
                      sum(counts), illegal, truncated, fraction, note, loss, loss_half, loss_exact, stochastic,
                      exact_draw, cut_illegal, cut_steps, shown[0], shown[1], max_illegal, said)


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
    if name == "PigEnv":
        return model.win[0] if game.seat == 0 else 1.0 - model.win[0]
    if name == "ModelEnv":  # every game of a game model: toggle, yazy, Yahtzee, Threes, ...
        return game.optimum()
    raise ValueError("no optimum known for %s" % name)


class NeverEnds(ValueError):
    pass


class Inexact(ValueError):
    """The policy's games end, but its exact value is beyond the exact pass (the episodes' figures stand)."""


def _whole(action) -> bool:
    """Whether a policy's answer is an action at all: an int (a bool or a float is outside the space)."""
    return type(action) is int


def _played(action, legal, replace: bool) -> list:
    """The actions the environment plays for the policy's answer ``action`` among ``legal``: the answer where
    it is legal; under ``illegal="replace"`` every legal action, each as likely (the environment draws one
    uniformly); else none (an illegal action changes nothing: asked again, the policy answers the same)."""
    if _whole(action) and action in legal:
        return [action]
    return sorted(legal) if replace else []


# -- exact values of a deterministic policy ------------------------------------------------------


def _solo_exact(game, choose, replace: bool = False) -> Fraction:
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
            played = _played(choose(np.array(bits[position] + [0], dtype=np.int64), mask), throws, replace)
            if not played:
                raise NeverEnds("the policy chooses an illegal action at open %s before the throw: its episodes "
                                "never end" % format_set(position, rules.tiles))
            dice = [model.dice_of(action) for action in played]
        for count in dice:
            for roll, weight in rules.roll_weights(count).items():
                moves = legal.get(roll)
                if not moves:
                    total += weight * (0 if shut else model.sums[position])
                    continue
                mask = np.zeros(model.n_actions, dtype=np.int8)
                mask[moves] = 1
                played = _played(choose(np.array(bits[position] + [roll], dtype=np.int64), mask), moves, replace)
                if not played:
                    raise NeverEnds("the policy chooses an illegal action at open %s, roll %d: its episodes never "
                                    "end" % (format_set(position, rules.tiles), roll))
                total += weight * sum(value(position ^ action) for action in played) / len(played)
        found = values[position] = total / (outcomes * len(dice))
        return found

    return value(rules.all_open)


def _toggle_exact(game, choose, replace: bool = False) -> float:
    """Toggle: minus the policy's expected rolls, a return (NeverEnds if from some state it reaches it never
    finishes)."""
    model = game.game_model  # its dice's cards to turn (``turns``), as actions
    rules = model.rules
    cards, sides, size = rules.cards, rules.sides, rules.states
    share = 1.0 / sides ** 2
    transition = np.zeros((size, size))
    illegal: dict = {}
    for up in range(1, size):
        bits = [up >> i & 1 for i in range(cards)]
        for (x, y), choices in model.turns.items():
            if not choices:
                transition[up, up] += share
                continue
            mask = np.zeros(cards, dtype=np.int8)
            mask[choices] = 1
            action = choose(np.array(bits + [x, y], dtype=np.int64), mask)
            played = _played(action, choices, replace)
            if not played:  # changes nothing, so it is chosen again: the game never ends
                illegal[up] = (x, y)
                continue
            for card in played:
                transition[up, up ^ (1 << card)] += share / len(played)
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
                            "never end" % (format_set(state, cards), *illegal[state]))
    finishing = {0}
    changed = True
    while changed:
        changed = False
        for state in reach:
            if state not in finishing and any(transition[state, after] > 0 for after in finishing):
                finishing.add(state)
                changed = True
    if reach - finishing:
        stuck = min(reach - finishing)
        raise NeverEnds("from cards %s face up, a state it reaches, the policy never turns every card down: its "
                        "episodes never end" % format_set(stuck, cards))
    inner = sorted(reach - {0})
    if not inner:
        return 0.0
    matrix = np.eye(len(inner)) - transition[np.ix_(inner, inner)]
    values = np.linalg.solve(matrix, np.ones(len(inner)))
    return -float(values[inner.index(start)])


def _goat_exact(game, choose, replace: bool = False) -> Fraction:
    """Goat solo: the policy's return (minus its expected turns), exactly: within a turn every value is affine in
    the value of the turn's start (a match starts the same banked score again), solved score by score from the
    top."""
    from ..games.goat.law import LAW

    goal = game.game_model.goal
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
            played = _played(choose(np.array([score, turn, rolls], dtype=np.int64), mask),
                             [int(a) for a in np.flatnonzero(mask)], replace)
            if not played:
                raise NeverEnds("the policy chooses an illegal action at banked %d, turn total %d after %d rolls: "
                                "its episodes never end" % (score, turn, rolls))
            constant = slope = Fraction(0)  # each played action's (constant, slope), as likely as the others
            for action in played:
                c, s = after(turn, rolls, action)
                constant += c / len(played)
                slope += s / len(played)
            found = memo[key] = (constant, slope)
            return found

        def after(turn, rolls, action, score=score):
            """The affine value of ``action`` (legal) at the turn total ``turn`` after ``rolls`` rolls."""
            if action == 0:
                return later(score + turn), Fraction(0)
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
            return constant, slope

        constant, slope = slot(0, 0)
        starts[score] = constant / (1 - slope)
    return -starts[0]


def _pig_exact(game, choose, replace: bool = False) -> float:
    """Pig-v0: the policy's chance to win against the table's optimal player (``pig_exact``)."""
    return pig_exact(game.model, game.seat, choose, replace=replace)


def pig_exact(model, seat: int, choose, extra: tuple = (), replace: bool = False) -> float:
    """The chance to win of a policy playing ``seat`` (0 first) against the table's optimal player. The policy
    is asked once in every decision state (the board ``[i, j, k, *extra]``: its banked score i, the
    opponent's j, the turn total k); its duel with the table's moves is then solved exactly on the Pig solver's
    engine (``strategies.evaluate``, within its proven bound, about 1e-13). An illegal answer is NeverEnds
    where the policy can reach it; under ``replace`` it is the legal action drawn for it: rolling where the
    turn total is 0, else hold or roll, a mix the engine (one action a state) cannot weigh: Inexact where
    the policy can reach it."""
    from ..games.pig.strategies import evaluate as duel

    goal = model.goal
    roll = np.ones((goal, goal, goal), dtype=bool)
    masks = (np.array([0, 1], dtype=np.int8), np.array([1, 1], dtype=np.int8))
    illegal, mixed = set(), set()
    for mine in range(goal):
        for other in range(goal):
            for turn in range(goal - mine):
                action = choose(np.array([mine, other, turn, *extra], dtype=np.int64), masks[turn > 0].copy())
                played = _played(action, [0, 1] if turn else [1], replace)
                if played == [0]:
                    roll[mine, other, turn] = False
                elif not played:
                    illegal.add((mine, other, turn))
                elif len(played) > 1:
                    mixed.add((mine, other, turn))
    if illegal:
        found = _pig_reaches(model, roll, illegal, seat)
        if found is not None:
            raise NeverEnds("the policy chooses an illegal action at banked %d, the opponent %d, turn total %d: its "
                            "episodes never end" % found)
    if mixed:
        found = _pig_reaches(model, roll, mixed, seat)  # the first it reaches: every state before is one action
        if found is not None:
            raise Inexact("the policy chooses an illegal action at banked %d, the opponent %d, turn total %d, where "
                          "the environment holds or rolls in its place, a mix the exact duel cannot weigh"
                          % found)

    def policy(i, j, k, goal):
        return roll[i, j, k]

    if seat == 0:
        return duel(model.variant, goal, model.sides, policy, "optimal").value
    return 1.0 - duel(model.variant, goal, model.sides, "optimal", policy).value


def _pig_reaches(model, roll, illegal, seat):
    """The first state of ``illegal`` the agent reaches playing ``roll`` against the table's moves, or None."""
    from ..games.pig.rules import ADD, BUST

    goal = model.goal

    def after_turn(mine, other):  # the agent's next turns after the opponent's
        _, ends = model.turn(other, mine)
        return [(mine, after, 0) for after in ends]

    start = [(0, 0, 0)] if seat == 0 else after_turn(0, 0)
    seen = set(start)
    frontier = list(start)
    while frontier:
        state = frontier.pop()
        if state in illegal:
            return state
        mine, other, turn = state
        if roll[state]:
            following = []
            for _, kind, points in model.outcomes:
                if kind == ADD:
                    if mine + turn + points < goal:
                        following.append((mine, other, turn + points))
                else:
                    following += after_turn(mine if kind == BUST else 0, other)
        else:
            following = after_turn(mine + turn, other)
        for after in following:
            if after not in seen:
                seen.add(after)
                frontier.append(after)
    return None


EXACT_VALUES = {"shutthebox/ShutTheBoxSolo-v0": _solo_exact, "shutthebox/Toggle-v0": _toggle_exact,
                "shutthebox/GoatSolo-v0": _goat_exact, "shutthebox/Pig-v0": _pig_exact}
