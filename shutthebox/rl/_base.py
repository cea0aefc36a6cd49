"""What every environment of ``shutthebox.rl`` shares: the seeded dice, the exact info of a decision, and the
one-player Gymnasium environment built on them (docs/RL.md).

A game's *model* (one per rule set, shared by every environment of those rules in the process) holds the
table and answers ``decision(state)``: the legal actions of a state, the exact value of each (one Bellman
step from the table's values), the optimal ones and the value of the state. An environment holds the
state, draws the dice and turns decisions into ``info``.
"""

from __future__ import annotations

import math

import gymnasium
import numpy as np
from gymnasium import spaces

_BLOCK = 4096  # uniforms drawn from the generator at a time
_CACHE = 1 << 15  # decisions kept per model (then the cache starts again)
MORE, FEWER = "more", "fewer"


class Dice:
    """Fair dice from a numpy Generator: a block of uniforms at a time, ``int(u * sides) + 1`` a die."""

    __slots__ = ("rng", "_block", "_next")

    def __init__(self):
        self.rng = None
        self._block: list = []
        self._next = 0

    def seed(self, rng) -> None:
        self.rng, self._block, self._next = rng, [], 0

    def die(self, sides: int) -> int:
        at = self._next
        if at >= len(self._block):
            self._block, at = self.rng.random(_BLOCK).tolist(), 0
        self._next = at + 1
        return int(self._block[at] * sides) + 1


class Decision:
    """The exact facts of one decision: ``values`` {legal action: value}, ``best`` (the best of them),
    ``value`` (the state's exact value: the table's where it stores one), ``optimal`` (the actions within the
    game's tie tolerance of the best, and the table's own move), ``mask``, ``q``, ``q_return`` and
    ``optimal_mask`` (arrays over every action: 1/0; the value or the worst value; the value in reward units,
    -inf where illegal; 1/0), ``move`` (the table's own move where it gave one, else the first optimal action;
    None where nothing is legal or without exact info)."""

    __slots__ = ("values", "best", "value", "optimal", "mask", "q", "q_return", "optimal_mask", "move")

    def __init__(self, n: int, values: dict, more: bool, tie: float = 0.0, value=None, table_move=None,
                 exact: bool = True):
        self.values = values
        if n <= 64:  # small action spaces: lists, then one conversion each
            flags = [0] * n
            for action in values:
                flags[action] = 1
            mask = np.array(flags, dtype=np.int8)
        else:
            mask = np.zeros(n, dtype=np.int8)
            if values:
                mask[list(values)] = 1
        self.mask = mask
        if not exact:
            self.best = self.value = 0.0
            self.optimal = ()
            self.q = self.q_return = self.optimal_mask = self.move = None
            return
        worst = -math.inf if more else math.inf
        if values:
            best = max(values.values()) if more else min(values.values())
            if tie:
                optimal = [a for a, v in values.items() if abs(v - best) <= tie]
            else:
                optimal = [a for a, v in values.items() if v == best]
            if table_move is not None and table_move in values and table_move not in optimal:
                optimal.append(table_move)
            optimal.sort()
        else:
            best, optimal = 0.0, []
        self.optimal = tuple(optimal)
        self.move = table_move if table_move is not None and table_move in values else (
            optimal[0] if optimal else None)
        if n <= 64:  # lists, then one conversion each
            q = [worst] * n
            for action, v in values.items():
                q[action] = v
            flags = [0] * n
            for action in optimal:
                flags[action] = 1
            self.q = np.array(q)
            self.q_return = self.q if more else np.array([-v for v in q])
            self.optimal_mask = np.array(flags, dtype=np.int8)
        else:
            q = np.full(n, worst)
            if values:
                q[list(values)] = list(values.values())
            self.q = q
            self.q_return = q if more else -q
            optimal_mask = np.zeros(n, dtype=np.int8)
            optimal_mask[optimal] = 1
            self.optimal_mask = optimal_mask
        self.best = best
        self.value = best if value is None else value


class Model:
    """A rule set's table and its decisions, cached. ``terminal``: the decision of a game over in PettingZoo
    (no action legal); ``over``: in Gymnasium (every action a no-op worth 0, so a vector environment's masked
    sampler never meets an empty mask before its next step resets). A model pickles as the call of its
    module's ``model(...)`` that made it (``reduce_args``), which finds it in the process's cache or loads it."""

    n_actions = 0
    more = True  # more is better (wins, points); False: fewer (rolls, turns, score)
    tie = 0.0
    reduce_args = None

    def __init__(self):
        self._decisions: dict = {}
        self._coarse: dict = {}
        n = self.n_actions
        self.terminal = Decision(n, {}, self.more)
        self.terminal_coarse = Decision(n, {}, self.more, exact=False)
        every = dict.fromkeys(range(n), 0.0)
        self.over = Decision(n, every, True)  # q_values and q_return 0, every action optimal
        self.over_coarse = Decision(n, every, True, exact=False)

    def __reduce__(self):
        if self.reduce_args is None:
            raise TypeError("this model was not made by its module's model(): it cannot be pickled")
        return self.reduce_args

    def decision(self, key, exact: bool = True) -> Decision:
        cache = self._decisions if exact else self._coarse
        found = cache.get(key)
        if found is None:
            if len(cache) >= _CACHE:
                cache.clear()
            found = cache[key] = self.decide(key, exact)
        return found

    def decide(self, key, exact: bool) -> Decision:
        raise NotImplementedError


def cached(cache: dict, key, make, factory, args: tuple):
    """``cache[key]``, made by ``make()`` the first time; the model pickles as ``factory(*args)``."""
    found = cache.get(key)
    if found is None:
        found = cache[key] = make()
        found.reduce_args = (factory, args)
    return found


def as_action(action, n: int):
    """The action as an int, or None when it is not one of 0..n-1 of ``Discrete(n)``: a Python or numpy
    integer, or a numpy integer array of one element (0-d or shape (1,), as a policy's ``predict`` gives);
    a float or a bool is outside the space (None). An array of several actions is a ValueError."""
    if isinstance(action, np.ndarray):
        if action.size != 1:
            raise ValueError("an action is one integer, not an array of shape %s (step a vector environment "
                             "with a batch of actions)" % (action.shape,))
        if action.dtype.kind not in "iu":
            return None
        number = int(action.reshape(()))
    elif isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return None
    else:
        number = int(action)
    return number if 0 <= number < n else None


def check_render_mode(render_mode, modes) -> None:
    if render_mode is not None and render_mode not in modes:
        raise ValueError("render_mode must be None or one of %s, not %r" % (", ".join(map(repr, modes)), render_mode))


ILLEGAL = ("noop", "end", "replace")  # what an illegal action does (docs/RL.md)


class ExactEnv(gymnasium.Env):
    """A one-player environment with exact info. A subclass sets ``model`` and writes ``_start()`` (a new
    game: sets ``self._key``, returns any reward owed before the first decision), ``_play(action)`` (a legal
    action and the chance after it: ``(reward, terminated)``), ``_observe()``, ``_words()`` (the position
    as the command line writes it), ``_board()`` (the rows of its picture, ``_picture.board``),
    ``get_state()`` and ``_load(state)`` (the game's state as a tuple of ints, and back, checked).

    Options every environment takes (keywords): ``render_mode`` (``human``, ``ansi``, ``rgb_array``),
    ``exact_info``, ``illegal`` (``noop``: an illegal action changes nothing; ``end``: it ends the episode
    with the reward ``illegal_penalty``; ``replace``: a legal action drawn uniformly from the environment's
    dice is played instead), ``illegal_penalty`` (the game's default: below every return a legal game can
    still earn from any state) and ``mask_observation`` (the observation a ``Dict`` of ``observation`` and
    ``action_mask``, as PettingZoo's classic environments)."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}
    default_penalty = -1.0  # the illegal-action penalty where ``illegal="end"``; a game may set its own

    def __init__(self, model: Model, nvec, render_mode: str | None = None, exact_info: bool = True, *,
                 illegal: str = "noop", illegal_penalty: float | None = None, mask_observation: bool = False):
        check_render_mode(render_mode, self.metadata["render_modes"])
        if not isinstance(illegal, str) or illegal not in ILLEGAL:
            raise ValueError("illegal must be one of %s, not %r" % (", ".join(map(repr, ILLEGAL)), illegal))
        if illegal_penalty is None:
            illegal_penalty = self.default_penalty
        elif isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float)) or not math.isfinite(
                illegal_penalty):
            raise ValueError("illegal_penalty must be a finite number, not %r" % (illegal_penalty,))
        self.model = model
        self.render_mode = render_mode
        self.exact_info = bool(exact_info)
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.mask_observation = bool(mask_observation)
        self.action_space = spaces.Discrete(model.n_actions)
        board = spaces.MultiDiscrete(np.array(nvec, dtype=np.int64))
        if self.mask_observation:
            self.observation_space = spaces.Dict({"observation": board, "action_mask": spaces.Box(
                0, 1, shape=(model.n_actions,), dtype=np.int8)})
        else:
            self.observation_space = board
        self.board_space = board
        self.better = MORE if model.more else FEWER
        self.dice = Dice()
        self._key = None
        self._decision = model.terminal
        self._done = True
        self._owed = 0.0

    # -- the Gymnasium API ------------------------------------------------------------------

    def reset(self, *, seed=None, options=None):
        """A new game; ``options={"state": STATE}`` starts from ``STATE`` instead (as ``get_state()`` gives it:
        a state where the player has a decision to make), with no reward owed."""
        super().reset(seed=seed)
        if seed is not None or self.dice.rng is not self.np_random:
            self.dice.seed(self.np_random)
        options = dict(options or {})
        state = options.pop("state", None)
        if options:
            raise ValueError("reset takes the option 'state' alone, not %s" % ", ".join(map(repr, options)))
        if state is None:
            self._owed = self._start()
        else:
            self._load(state)
            self._owed = 0.0
        self._done = False
        self._decision = self.model.decision(self._key, self.exact_info)
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info(0.0, False)

    def step(self, action):
        number = as_action(action, self.model.n_actions)
        if self._done:  # the game is over: every action is a no-op
            return self._observation(), 0.0, True, False, self._info(0.0, False)
        decision = self._decision
        value = decision.values.get(number) if number is not None else None
        illegal = value is None
        if illegal:
            if self.illegal == "noop":
                return self._observation(), 0.0, False, False, self._info(0.0, True)
            if self.illegal == "end":
                reward, self._owed = self.illegal_penalty + self._owed, 0.0
                self._finish()
                return self._observation(), reward, True, False, self._info(0.0, True)
            legal = sorted(decision.values)  # "replace": a legal action drawn by the dice
            number = legal[self.dice.die(len(legal)) - 1]
            value = decision.values[number]
        if number in decision.optimal or not self.exact_info:
            regret = 0.0
        else:
            regret = abs(decision.best - value)
        reward, terminated = self._play(number)
        if self._owed:
            reward, self._owed = reward + self._owed, 0.0
        if terminated:
            self._finish()
        else:
            self._decision = self.model.decision(self._key, self.exact_info)
        info = self._info(regret, illegal)
        if illegal:
            info["played"] = number
        if self.render_mode == "human":
            self.render()
        return self._observation(), float(reward), terminated, False, info

    def _finish(self) -> None:
        self._done = True
        self._decision = self.model.over if self.exact_info else self.model.over_coarse

    def render(self):
        """``ansi``: the position in words with the command line's question; ``human``: the same printed;
        ``rgb_array``: a small picture of the board (uint8, height x width x 3)."""
        if self.render_mode == "ansi":
            return self._words() + "\n"
        if self.render_mode == "human":
            print(self._words())
            return None
        if self.render_mode == "rgb_array":
            from ._picture import board

            return board(self._board())
        return None

    def _observation(self):
        board = self._observe()
        if self.mask_observation:
            return {"observation": board, "action_mask": self._decision.mask.copy()}
        return board

    # -- exact facts ------------------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """The legal actions now: 1 legal, 0 not (int8), as ``info["action_mask"]``; once the game is over every
        action is a no-op (all 1)."""
        return self._decision.mask.copy()

    def value(self) -> float:
        """The exact value of the current state in the game's unit (``self.better`` says which way is good):
        the expected sum of the rewards still to come (those owed to the first step included), negated where
        fewer is better; 0 once the game is over."""
        if self._done:
            return 0.0
        decision = self._decision if self._decision.q is not None else self.model.decision(self._key, True)
        return decision.value + (self._owed if self.model.more else -self._owed)

    def q_values(self) -> np.ndarray:
        """``info["q_values"]`` of the current state."""
        decision = self._decision if self._decision.q is not None else self.model.decision(self._key, True)
        return decision.q.copy()

    def _info(self, regret: float, illegal: bool) -> dict:
        decision = self._decision
        if decision.q is None:
            return {"action_mask": decision.mask.copy(), "illegal": illegal}
        q_return = decision.q_return + self._owed if self._owed else decision.q_return.copy()
        return {"action_mask": decision.mask.copy(), "q_values": decision.q.copy(), "q_return": q_return,
                "optimal_actions": decision.optimal, "optimal_mask": decision.optimal_mask.copy(), "regret": regret,
                "illegal": illegal}

    # -- a game's part ----------------------------------------------------------------------

    def get_state(self) -> tuple:
        """The game's state as a tuple of ints (``reset(options={"state": ...})`` starts there)."""
        raise NotImplementedError

    def _load(self, state) -> None:
        raise NotImplementedError

    def _start(self) -> float:
        raise NotImplementedError

    def _play(self, action: int):
        raise NotImplementedError

    def _observe(self) -> np.ndarray:
        raise NotImplementedError

    def _words(self) -> str:
        raise NotImplementedError

    def _board(self) -> list:
        raise NotImplementedError


def whole(value, name: str, low: int, high: int) -> int:
    """``value`` as an int from ``low`` to ``high`` (a Python or numpy integer), else ValueError naming it."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise ValueError("%s must be a whole number from %d to %d, not %r" % (name, low, high, value))
    return int(value)


def state_tuple(state, size: int, what: str) -> tuple:
    """``state`` as a tuple of ``size`` fields, else ValueError saying what a state is."""
    if isinstance(state, np.ndarray):
        state = state.tolist()
    if not isinstance(state, (tuple, list)) or len(state) != size:
        raise ValueError("a state is %s, not %r" % (what, state))
    return tuple(state)
