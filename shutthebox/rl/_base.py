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
    game's tie tolerance of the best, and the table's own move), ``mask`` and ``q`` (arrays over every
    action: 1/0, and the value or the worst value)."""

    __slots__ = ("values", "best", "value", "optimal", "mask", "q")

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
            self.q = None
            return
        worst = -math.inf if more else math.inf
        if n <= 64:
            q = [worst] * n
            for action, v in values.items():
                q[action] = v
            q = np.array(q)
        else:
            q = np.full(n, worst)
            if values:
                q[list(values)] = list(values.values())
        self.q = q
        if values:
            best = max(values.values()) if more else min(values.values())
            if tie:
                optimal = [a for a, v in values.items() if abs(v - best) <= tie]
            else:
                optimal = [a for a, v in values.items() if v == best]
            if table_move is not None and table_move in values and table_move not in optimal:
                optimal.append(table_move)
            self.optimal = tuple(sorted(optimal))
        else:
            best, self.optimal = 0.0, ()
        self.best = best
        self.value = best if value is None else value


class Model:
    """A rule set's table and its decisions, cached."""

    n_actions = 0
    more = True  # more is better (wins, points); False: fewer (rolls, turns, score)
    tie = 0.0

    def __init__(self):
        self._decisions: dict = {}
        self._coarse: dict = {}
        self.terminal = Decision(self.n_actions, {}, self.more)
        self.terminal_coarse = Decision(self.n_actions, {}, self.more, exact=False)

    def decision(self, state, exact: bool = True) -> Decision:
        cache = self._decisions if exact else self._coarse
        found = cache.get(state)
        if found is None:
            if len(cache) >= _CACHE:
                cache.clear()
            found = cache[state] = self.decide(state, exact)
        return found

    def decide(self, state, exact: bool) -> Decision:
        raise NotImplementedError


def as_action(action, n: int):
    """The action as an int, or None when it is not one of 0..n-1."""
    try:
        number = int(action)
    except (TypeError, ValueError, OverflowError):
        return None
    if number != action and not isinstance(action, np.ndarray):
        return None
    return number if 0 <= number < n else None


class ExactEnv(gymnasium.Env):
    """A one-player environment with exact info. A subclass sets ``model`` and writes ``_start()`` (a new
    game: sets ``self.state``, returns any reward owed before the first decision), ``_play(action)`` (a legal
    action and the chance after it: ``(reward, terminated)``), ``_observe()`` and ``_words()`` (the position
    as the command line writes it)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, model: Model, nvec, render_mode: str | None = None, exact_info: bool = True):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError("render_mode must be None or 'ansi', not %r" % (render_mode,))
        self.model = model
        self.render_mode = render_mode
        self.exact_info = bool(exact_info)
        self.action_space = spaces.Discrete(model.n_actions)
        self.observation_space = spaces.MultiDiscrete(np.array(nvec, dtype=np.int64))
        self.better = MORE if model.more else FEWER
        self.dice = Dice()
        self.state = None
        self._decision = model.terminal
        self._done = True
        self._owed = 0.0

    # -- the Gymnasium API ------------------------------------------------------------------

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None or self.dice.rng is not self.np_random:
            self.dice.seed(self.np_random)
        self._owed = self._start()
        self._done = False
        self._decision = self.model.decision(self.state, self.exact_info)
        return self._observe(), self._info(0.0, False)

    def step(self, action):
        decision = self._decision
        number = as_action(action, self.model.n_actions)
        value = decision.values.get(number) if number is not None else None
        if value is None or self._done:
            return self._observe(), 0.0, self._done, False, self._info(0.0, True)
        if number in decision.optimal or not self.exact_info:
            regret = 0.0
        else:
            regret = abs(decision.best - value)
        reward, terminated = self._play(number)
        if self._owed:
            reward, self._owed = reward + self._owed, 0.0
        if terminated:
            self._done = True
            self._decision = self.model.terminal if self.exact_info else self.model.terminal_coarse
        else:
            self._decision = self.model.decision(self.state, self.exact_info)
        return self._observe(), float(reward), terminated, False, self._info(regret, False)

    def render(self):
        if self.render_mode == "ansi":
            return self._words() + "\n"
        return None

    # -- exact facts ------------------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """The legal actions now: 1 legal, 0 not (int8), as ``info["action_mask"]``."""
        return self._decision.mask.copy()

    def value(self) -> float:
        """The exact value of the current state in the game's unit (``self.better`` says which way is good):
        the expected sum of the rewards still to come, negated where fewer is better; 0 once the game is over."""
        if self._decision.q is None:
            return self.model.decision(self.state, True).value if not self._done else 0.0
        return self._decision.value

    def q_values(self) -> np.ndarray:
        """``info["q_values"]`` of the current state."""
        decision = self._decision if self._decision.q is not None else self.model.decision(self.state, True)
        return decision.q.copy()

    def _info(self, regret: float, illegal: bool) -> dict:
        decision = self._decision
        if decision.q is None:
            return {"action_mask": decision.mask.copy(), "illegal": illegal}
        return {"action_mask": decision.mask.copy(), "q_values": decision.q.copy(),
                "optimal_actions": decision.optimal, "regret": regret, "illegal": illegal}

    # -- a game's part ----------------------------------------------------------------------

    def _start(self) -> float:
        raise NotImplementedError

    def _play(self, action: int):
        raise NotImplementedError

    def _observe(self) -> np.ndarray:
        raise NotImplementedError

    def _words(self) -> str:
        raise NotImplementedError
