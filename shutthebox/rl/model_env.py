"""The one-player Gymnasium environment of any game model (``engine/model.py``): every game declared on a
family engine gets it, registered as ``shutthebox/<Title>-v0`` (docs/RL.md).

The environment reads the game through the model alone: its state is the model's state tuple, its actions
the model's, its observation the model's, each decision's exact values the model's ``values`` (the game's
table), and the chance nodes are the model's outcomes with their exact weights, drawn from the
environment's seeded dice.
"""

from __future__ import annotations

import numpy as np

from .. import registry
from ..engine.model import CHANCE, TERMINAL
from ._base import Decision, ExactEnv, Model, cached

_MODELS: dict = {}


class GameModelModel(Model):
    """``_base.Model`` over a game model of one player: a decision's values are the model's, less the return
    already earned (the rewards still to come); the table's move is the model's ``best``."""

    more = True

    def __init__(self, game_model):
        self.game = game_model
        self.n_actions = game_model.n_actions
        self.tie = float(getattr(game_model, "tie", 0.0))
        super().__init__()

    def decide(self, state, exact: bool) -> Decision:
        game = self.game
        if not exact:
            return Decision(self.n_actions, dict.fromkeys(game.legal(state), 0.0), True, exact=False)
        earned = game.returns(state)[0]
        values = {action: value - earned for action, value in game.values(state).items()}
        return Decision(self.n_actions, values, True, self.tie, value=game.value(state)[0] - earned,
                        table_move=game.best(state))


def rules_of(game: str, options: dict):
    """The rules of the registered game ``game`` with the rule options ``options`` (its ``RuleSet``: checked as
    the command line checks them, InvalidQuery in its words)."""
    return registry.declaration(game).tables[0].rules().Rules(**options)


def model(game: str, rules) -> GameModelModel:
    return cached(_MODELS, (game, rules), lambda: GameModelModel(registry.declaration(game).model(rules)),
                  model_of, (game, rules))


def model_of(game: str, rules) -> GameModelModel:
    """The model of ``game`` under ``rules`` (how a pickled model comes back)."""
    return model(game, rules)


class ModelEnv(ExactEnv):
    """One player's game, read from its game model (``engine/model.py``).

    ``gymnasium.make("shutthebox/<Title>-v0", **rules)``: the game's rule options as keywords (those of its
    command line, ``--dice 3`` as ``dice=3``), checked as the command line checks them; a table not shipped
    is solved on first use and cached, as the command does. ``ModelEnv(game, **rules)`` makes one directly.

    - **Actions**: ``Discrete(model.n_actions)``, the model's actions; the legal ones in ``info["action_mask"]``.
    - **Observation**: ``MultiDiscrete(model.observation_nvec)``: ``model.observation(state, 0)``.
    - **Reward**: the change of the player's return (``model.returns``) over each step, the chance after the
      action included; any return earned before the first decision is owed to the first step. The
      episode's rewards sum to the game's final return (minus the total where the lowest total wins).
    - **Info**: ``q_values[a]`` is the model's value of action ``a`` (``model.values``: the table's expected
      final return) less the return already earned: the expected sum of the rewards still to come, -inf where
      illegal (more is better: ``q_return`` is the same); ``optimal_actions`` the best, the table's move
      (``model.best``) among them; ``regret`` in the return's unit.
    - **State** (``get_state()``, ``reset(options={"state": ...})``): the model's state tuple, a decision.
    - **Illegal actions** (``illegal="end"``): the default penalty is one below the lowest return a game can
      still earn from any state (``min_return - max_return - 1``).
    """

    def __init__(self, game: str, render_mode: str | None = None, exact_info: bool = True, *,
                 illegal: str = "noop", illegal_penalty: float | None = None, mask_observation: bool = False,
                 **rules):
        rules = rules_of(game, rules)
        found = model(game, rules)
        game_model = found.game
        if game_model.players != 1:
            raise ValueError("%s is a game of %d players: this environment plays one" % (game, game_model.players))
        self.game, self.rules, self.game_model = game, rules, game_model
        self.default_penalty = float(game_model.min_return - game_model.max_return - 1.0)
        self._size = len(game_model.initial())
        self._nvec = tuple(int(n) for n in game_model.observation_nvec)
        super().__init__(found, self._nvec, render_mode, exact_info, illegal=illegal,
                         illegal_penalty=illegal_penalty, mask_observation=mask_observation)
        self._state = game_model.initial()

    def _chance(self, state):
        """``state`` with its chance nodes resolved by the environment's dice (an outcome of weight ``w`` of
        ``total`` drawn with chance ``w / total``, in the model's order: ``engine.model.chance`` of a uniform)."""
        game, die = self.game_model, self.dice.die
        while game.player(state) == CHANCE:
            outcomes, total = game.outcomes(state)
            target = die(total) - 1  # uniform over 0 .. total - 1
            for outcome, weight in outcomes:
                target -= weight
                if target < 0:
                    break
            state = game.apply(state, outcome)
        return state

    def _at(self, state) -> bool:
        """Go to ``state``: whether the game is over."""
        self._state = state
        over = self.game_model.player(state) == TERMINAL
        self._key = None if over else state
        return over

    def _start(self) -> float:
        game = self.game_model
        if self._at(self._chance(game.initial())):
            raise ValueError("a game of %s ended before its first decision: an episode cannot say so" % self.game)
        return game.returns(self._state)[0]

    def _play(self, action: int):
        game = self.game_model
        before = game.returns(self._state)[0]
        terminated = self._at(self._chance(game.apply(self._state, action)))
        return game.returns(self._state)[0] - before, terminated

    def _observe(self) -> np.ndarray:
        return np.array(self.game_model.observation(self._state, 0), dtype=np.int64)

    def get_state(self) -> tuple:
        """The model's state: a tuple of ints, a decision of the player."""
        return self._state

    def _load(self, state) -> None:
        if isinstance(state, np.ndarray):
            state = state.tolist()
        what = "a tuple of %d whole numbers, a decision of %s" % (self._size, self.game)
        if not isinstance(state, (tuple, list)) or len(state) != self._size or not all(
                isinstance(field, (int, np.integer)) and not isinstance(field, (bool, np.bool_)) for field in state):
            raise ValueError("a state is %s, not %r" % (what, state))
        state = tuple(int(field) for field in state)
        game = self.game_model
        try:
            player = game.player(state)
            legal = game.legal(state) if player == 0 else []
            seen = game.observation(state, 0)
        except (ArithmeticError, LookupError, TypeError, ValueError) as error:
            raise ValueError("%r is no state of %s: %s" % (state, self.game, error)) from None
        if player != 0 or not legal:
            raise ValueError("%r is no decision of %s (%s)" % (
                state, self.game, "a throw of the dice" if player == CHANCE else
                "the game is over" if player == TERMINAL else "nothing is legal" if player == 0 else
                "player %d to move" % player))
        if any(not 0 <= field < n for field, n in zip(seen, self._nvec)):
            raise ValueError("%r is no state of %s: its observation %s is outside %s" % (
                state, self.game, seen, list(self._nvec)))
        self._at(state)

    def optimum(self) -> float:
        """Optimal play's expected return from the start of a new game (the table's value)."""
        return self.game_model.value(self.game_model.initial())[0]

    def _words(self) -> str:
        return self.game_model.state_text(self._state)

    def _board(self) -> list:
        fields = self.game_model.observation(self._state, 0)  # each with room for the most its field can be
        return [[("text", str(field), len(str(most - 1))) for field, most in zip(fields, self._nvec)]]


__all__ = ["ModelEnv"]
