"""The one-player Gymnasium environment of any game model (``engine/model.py``): every game with a model of one
player gets it, registered as ``shutthebox/<Title>-v0`` (docs/RL.md).

The environment reads the game through the model alone: its state is the model's state tuple, its actions
the model's, its observation the model's (less the total of a ``tally`` model), each decision's exact values
the model's ``values`` (the game's table), and the chance nodes are the model's outcomes with their exact
weights, drawn from the environment's seeded dice.
"""

from __future__ import annotations

import importlib
from bisect import bisect_right
from itertools import accumulate

import numpy as np

from .. import registry
from ..engine.model import CHANCE, TERMINAL
from ..engine.seat import seat_model, whole_seat
from ..errors import InvalidQuery
from ._base import _CACHE, Decision, ExactEnv, Model, cached

_MODELS: dict = {}
_DRAWS = 64  # chance nodes' cumulative weights kept per model
_WORTH = 1 << 15  # states' values kept per model (then the cache starts again)


class GameModelModel(Model):
    """``_base.Model`` over a game model: a decision's values are the model's for the seat to move, less the
    return it has already earned (the rewards still to come); the table's move is the model's ``best``. A
    decision is keyed by the state, less its total where the model is a ``tally`` (the same answers at every
    total)."""

    more = True

    def __init__(self, game_model):
        self.game = game_model
        self.n_actions = game_model.n_actions
        self.tie = float(getattr(game_model, "tie", 0.0))
        tally = getattr(game_model, "tally", False)
        self.tally = bool(tally)
        self.sign = -1 if tally == -1 else 1  # a tally of minus the return (toggle's rolls)
        self.draws: dict = {}  # id(outcomes) -> (outcomes, their cumulative weights)
        self._worth: dict = {}  # state -> every seat's value (``worth``)
        self._keyed = getattr(game_model, "decision_key", None)
        super().__init__()

    def key(self, state) -> tuple:
        """What a decision depends on: the state, less its last field for a tally."""
        return state[:-1] if self.tally else state

    def decide(self, key, exact: bool) -> Decision:
        return self.decide_at(key + (0,) if self.tally else key, exact)

    def at(self, state, exact: bool = True) -> Decision:
        """The decision at ``state``, cached under the model's ``decision_key`` where it has one (states of one key
        decide alike: Pig's seats mirrored, Shut the Box's scores that lead nothing), else as ``decision``."""
        keyed = self._keyed
        if keyed is None:
            return self.decision(self.key(state), exact)
        key = keyed(state)
        cache = self._decisions if exact else self._coarse
        found = cache.get(key)
        if found is None:
            if len(cache) >= _CACHE:
                cache.clear()
            found = cache[key] = self.decide_at(state, exact)
        return found

    def decide_at(self, state, exact: bool) -> Decision:
        game = self.game
        if not exact:
            return Decision(self.n_actions, dict.fromkeys(game.legal(state), 0.0), True, exact=False)
        seat = game.player(state)
        # the return earned so far (a tally's total is left out of the key); none in a game of several seats,
        # whose PettingZoo environment pays the final returns at the end
        earned = 0.0 if self.tally or game.players > 1 else game.returns(state)[seat]
        values = game.values(state)
        if earned:
            values = {action: value - earned for action, value in values.items()}
        value_of = getattr(game, "value_of", None)  # one seat's value, where the whole vector costs more
        value = value_of(state, seat) if value_of is not None else game.value(state)[seat]
        return Decision(self.n_actions, values, True, self.tie, value=value - earned, table_move=game.best(state))

    def worth(self, state) -> list:
        """Every seat's exact value of ``state`` (the model's ``value``), cached as the decisions are."""
        found = self._worth.get(state)
        if found is None:
            if len(self._worth) >= _WORTH:
                self._worth.clear()
            found = self._worth[state] = self.game.value(state)
        return found

    def resolve(self, state, die):
        """``state`` with its chance nodes resolved by ``die`` (an outcome of weight ``w`` of ``total`` drawn with
        chance ``w / total``, in the model's order: ``engine.model.chance`` of a uniform)."""
        game = self.game
        while game.player(state) == CHANCE:
            outcomes, total = game.outcomes(state)
            state = game.apply(state, self.draw(outcomes, die(total) - 1))  # one die of ``total`` faces
        return state

    def draw(self, outcomes: list, target: int) -> int:
        """The outcome of a chance node's ``outcomes`` that ``target`` in 0 .. total - 1 draws: the first whose
        running sum of weights, in the model's order, exceeds it (``engine.model.chance``)."""
        found = self.draws.get(id(outcomes))
        if found is None or found[0] is not outcomes:  # kept with its list: the id stays that list's
            if len(self.draws) >= _DRAWS:
                self.draws.clear()
            running = None if all(weight == 1 for _, weight in outcomes) else list(
                accumulate(weight for _, weight in outcomes))  # None: each weighs 1, the target is the place
            found = self.draws[id(outcomes)] = (outcomes, running)
        running = found[1]
        return outcomes[target if running is None else bisect_right(running, target)][0]


def rules_of(game: str, options: dict):
    """The rules of the registered game ``game`` with the rule options ``options``, checked as the command line
    checks them (InvalidQuery in its words): its ``RuleSet``, or for a game whose rules are its table names'
    slots (Yahtzee's ``joker``) those."""
    module = registry.declaration(game).tables[0].rules()
    keywords = getattr(module, "rules_of_keywords", None)
    if keywords is not None:  # rules that are not a RuleSet's options (Shut the Box's, with its players)
        return keywords(**options)
    if hasattr(module, "Rules"):
        return module.Rules(**options)
    slots = sorted(module.fields_of(module.rules_of({})))
    unknown = sorted(set(options) - set(slots))
    if unknown:
        raise InvalidQuery("%s has no rule %s (its rules: %s)" % (game, ", ".join(unknown), ", ".join(slots)))
    return module.rules_of(options)


def aec_games() -> dict:
    """``<game>_v0`` -> game: every game with a game model of several players, whose PettingZoo environment is its
    model's (``_aec.ModelAEC``; the declarations are read, no table is loaded)."""
    found = {}
    for game in registry.GAMES:
        declared = registry.declaration(game)
        if declared.has_model and declared.players() != 1:
            found["%s_v0" % game] = game
    return found


def options_of(game: str) -> dict:
    """The game's options beyond its rules, with the environments' defaults (its ``model.py``'s ``OPTIONS``)."""
    declared = registry.declaration(game)
    if declared.hooks is not None:
        return {}
    return dict(getattr(importlib.import_module(declared.package + ".model"), "OPTIONS", {}))


def model(game: str, rules, options: tuple = (), seat: int | None = None) -> GameModelModel:
    if seat is not None:  # checked before the cache, where True would find seat 1's model
        seat = whole_seat(seat)
    key = (game, rules, options, seat)

    def make() -> GameModelModel:
        found = registry.declaration(game).model(rules, **dict(options))
        return GameModelModel(found if seat is None else seat_model(found, seat))

    return cached(_MODELS, key, make, model_of, key)


def model_of(game: str, rules, options: tuple = (), seat: int | None = None) -> GameModelModel:
    """The model of ``game`` under ``rules`` and ``options``, from ``seat`` against the table where it is given
    (how a pickled model comes back)."""
    return model(game, rules, options, seat)


class ModelEnv(ExactEnv):
    """One player's game, read from its game model (``engine/model.py``).

    ``gymnasium.make("shutthebox/<Title>-v0", **rules)``: the game's rule options as keywords (those of its
    command line, ``--dice 3`` as ``dice=3``), checked as the command line checks them, and its model's
    ``OPTIONS`` (Yahtzee's ``rational``); a table not shipped is solved on first use and cached, as the
    command does. ``ModelEnv(game, **rules)`` makes one directly; ``ModelEnv(game, seat=k, **rules)`` plays seat
    ``k`` of a game of several players against the table's moves for the others (``engine/seat.py``).

    - **Actions**: ``Discrete(model.n_actions)``, the model's actions; the legal ones in ``info["action_mask"]``.
    - **Observation**: ``MultiDiscrete(model.observation_nvec)``: ``model.observation(state, 0)``; a tally's
      less its last field (the total: the rewards so far).
    - **Reward**: the change of the player's return (``model.returns``) over each step, the chance after the
      action included; any return earned before the first decision is owed to the first step. The
      episode's rewards sum to the game's final return (minus the total where the lowest total wins).
    - **Info**: ``q_values[a]`` is the model's value of action ``a`` (``model.values``: the table's expected
      final return) less the return already earned: the expected sum of the rewards still to come, -inf where
      illegal (more is better: ``q_return`` is the same); ``optimal_actions`` the best, the table's move
      (``model.best``) among them; ``regret`` in the return's unit.
    - **State** (``get_state()``, ``reset(options={"state": ...})``): the model's state tuple, a decision.
    - **Illegal actions** (``illegal="end"``): the default penalty is one below the least a game can still
      earn from any state (``min_to_come - 1``: ``min_return - max_return - 1`` unless the model says), or the
      model's ``illegal_penalty`` where its returns have no bound (toggle's rolls).
    - **The toy-text model** (a model that numbers its states: ``numbers``, ``engine/model.py``):
      ``P[s][a]``, ``encode(state)`` and ``decode(number)`` (``_transitions.py``).
    - **Words**: ``render_mode="ansi"`` the model's ``state_text`` and, where it has ``question``, the command
      that asks about the position (``question()``); ``action_words(a)``; ``rgb_array`` its ``board``.
    """

    def __init__(self, game: str, render_mode: str | None = None, exact_info: bool = True, *,
                 illegal: str = "noop", illegal_penalty: float | None = None, mask_observation: bool = False,
                 seat: int | None = None, **rules):
        options = tuple((name, rules.pop(name, default)) for name, default in options_of(game).items())
        rules = rules_of(game, rules)
        found = model(game, rules, options, seat)
        game_model = found.game
        if game_model.players != 1:
            raise ValueError("%s is a game of %d players: this environment plays one (or one seat of them: seat=)"
                             % (game, game_model.players))
        self.game, self.rules, self.game_model = game, rules, game_model
        self.default_penalty = float(getattr(game_model, "illegal_penalty", None) or getattr(
            game_model, "min_to_come", game_model.min_return - game_model.max_return) - 1.0)
        self._size = len(game_model.initial())
        self._nvec = tuple(int(n) for n in game_model.observation_nvec)
        self._tally, self._sign, self._draw = found.tally, found.sign, found.draw
        self._seen = len(self._nvec) - found.tally  # the observation's fields: a tally's total left out
        super().__init__(found, self._nvec[:self._seen], render_mode, exact_info, illegal=illegal,
                         illegal_penalty=illegal_penalty, mask_observation=mask_observation)
        self._state = game_model.initial()

    def _chance(self, state) -> bool:
        """Go to ``state``, its chance nodes resolved by the environment's dice (an outcome of weight ``w`` of
        ``total`` drawn with chance ``w / total``, in the model's order: ``engine.model.chance`` of a uniform):
        whether the game is over."""
        game, die, draw = self.game_model, self.dice.die, self._draw
        player = game.player(state)
        while player == CHANCE:
            outcomes, total = game.outcomes(state)
            state = game.apply(state, draw(outcomes, die(total) - 1))  # one die of ``total`` faces
            player = game.player(state)
        self._state = state
        over = player == TERMINAL
        self._key = None if over else state[:-1] if self._tally else state  # ``model.key``
        return over

    def _start(self) -> float:
        game = self.game_model
        if self._chance(game.initial()):
            raise ValueError("a game of %s ended before its first decision: an episode cannot say so" % self.game)
        return game.returns(self._state)[0]

    def _play(self, action: int):
        before = self._state
        terminated = self._chance(self.game_model.apply(before, action))
        if self._tally:  # its last field is the return so far, or minus it (the model's contract)
            return float(self._sign * (self._state[-1] - before[-1])), terminated
        returns = self.game_model.returns
        return returns(self._state)[0] - returns(before)[0], terminated

    def _observe(self) -> np.ndarray:
        return np.array(self.game_model.observation(self._state, 0)[:self._seen], dtype=np.int64)

    def get_state(self) -> tuple:
        """The model's state: a tuple of ints, a decision of the player."""
        return self._state

    def _load(self, state) -> None:
        if isinstance(state, np.ndarray):
            state = state.tolist()
        what = "a tuple of %d whole numbers from 0, a decision of %s" % (self._size, self.game)
        if not isinstance(state, (tuple, list)) or len(state) != self._size or not all(
                isinstance(field, (int, np.integer)) and not isinstance(field, (bool, np.bool_)) and field >= 0
                for field in state):
            raise ValueError("a state is %s, not %r" % (what, state))
        state = tuple(int(field) for field in state)
        game = self.game_model
        try:
            seen = game.observation(state, 0)
            if any(not 0 <= field < n for field, n in zip(seen, self._nvec)):
                raise ValueError("its observation %s is outside %s" % (seen, list(self._nvec)))
            player = game.player(state)
            legal = game.legal(state) if player == 0 else []
            if legal:
                game.values(state)  # the table has it
        except (ArithmeticError, LookupError, TypeError, ValueError) as error:
            raise ValueError("%r is no state of %s: %s" % (state, self.game, error)) from None
        if player != 0 or not legal:
            raise ValueError("%r is no decision of %s (%s)" % (
                state, self.game, "a throw of the dice" if player == CHANCE else
                "the game is over" if player == TERMINAL else "nothing is legal" if player == 0 else
                "player %d to move" % player))
        self._chance(state)  # a decision: no chance to resolve

    # -- the model the toy-text way (a model that numbers its states) ----------------------------------------

    @property
    def P(self):
        """``P[s][a]``: ``[(probability, next state, reward, terminated), ...]`` (docs/RL.md), states as
        ``encode`` numbers them; a chance node that may come back to itself (toggle's passes) folded in."""
        found = getattr(self.model, "transitions", None)
        if found is None:
            from ._transitions import of_model

            found = self.model.transitions = of_model(self.model.game, self._numbers())
        return found

    def _numbers(self):
        if not getattr(self.game_model, "numbers", False):
            raise AttributeError("%s's model does not number its states: it has no P, encode or decode" % self.game)
        return self.game_model

    def encode(self, state) -> int:
        """The number of ``state`` (the model's ``number``: a tally's whatever its total)."""
        return self._numbers().number(tuple(int(field) for field in state))

    def decode(self, number: int) -> tuple:
        """The state of ``number`` (the model's ``numbered``: a tally's at total 0)."""
        return self._numbers().numbered(int(number))

    def optimum(self) -> float:
        """Optimal play's expected return from the start of a new game (the table's value)."""
        return self.game_model.value(self.game_model.initial())[0]

    def question(self) -> list:
        """The command line's words asking for the move now (the model's ``question``)."""
        if not hasattr(self.game_model, "question"):
            raise ValueError("%s's model has no question for a position" % self.game)
        return self.game_model.question(self._state)

    def action_words(self, action: int) -> str:
        """An action in the command line's words for the position now (the model's ``action_text``)."""
        return self.game_model.action_text(self._state, action)

    def _words(self) -> str:
        words = self.game_model.state_text(self._state)
        if self._key is not None and hasattr(self.game_model, "question"):
            words += "   (ShutTheBox %s)" % " ".join(self.question())
        return words

    def _board(self) -> list:
        if hasattr(self.game_model, "board"):
            return self.game_model.board(self._state)
        fields = self.game_model.observation(self._state, 0)  # each with room for the most its field can be
        return [[("text", str(field), len(str(most - 1))) for field, most in zip(fields, self._nvec)]]


__all__ = ["ModelEnv"]
