"""The PettingZoo AEC environment of any game model of several players (``engine/model.py``): every game with
one gets it, as the module ``shutthebox.rl.<game>_v0`` (docs/RL.md).

As PettingZoo's classic environments: agents ``player_0``, ``player_1``, ... (the model's seats); an observation
is ``{"observation": ..., "action_mask": ...}`` (the mask all zeros for an agent not to move); the rewards come
at the end of the game, each seat's final return; then every agent is done and is stepped with ``None``. The
agent to move has the exact info of its decision in ``infos[agent]``; an illegal action changes nothing and sets
``illegal``. Chance is drawn from the environment's seeded dice.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..engine.model import CHANCE, TERMINAL
from ._base import Dice, as_action, check_render_mode
from .model_env import model, options_of, rules_of


class ModelAEC(AECEnv):
    """A game of several players, read from its game model (``engine/model.py``).

    ``GAME_v0.env(**options)``: the game's rule options as keywords (those of its command line, ``--one-die`` as
    ``one_die``), checked as the command line checks them; a table not shipped is solved on first use and
    cached, as the command does. ``ModelAEC(game, **options)`` makes one directly.

    - **Actions**: ``Discrete(model.n_actions)``, the model's; the legal ones in the mask.
    - **Observation** ``["observation"]``: ``MultiDiscrete(model.observation_nvec)``, the model's observation
      for the observer's seat; ``["action_mask"]``: the legal actions (int8), zeros for an agent not to move.
    - **Reward**: at the end, each seat's final return (``model.returns``: win shares, 1 the winner).
    - **Info** of the agent to move: ``q_values`` (the model's values, the mover's expected final return after
      each action, -inf where illegal), ``optimal_actions`` and ``optimal_mask`` (within the model's ``tie``; its
      ``best`` among them), ``regret`` and ``illegal`` of its own last action (every agent keeps its own);
      where the model names a ``value_info``, every agent's exact value (``model.value``) under that name.
    - ``render_mode``: ``ansi`` (the model's ``state_text``, after what the last step did, and the command that
      asks about the position), ``human`` (the same printed after each step), ``rgb_array`` (the model's
      ``board``, uint8).
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "is_parallelizable": False, "render_fps": 4}

    def __init__(self, game: str, render_mode: str | None = None, exact_info: bool = True, **options):
        super().__init__()
        check_render_mode(render_mode, self.metadata["render_modes"])
        chosen = tuple((name, options.pop(name, default)) for name, default in options_of(game).items())
        found = model(game, rules_of(game, options), chosen)
        game_model = found.game
        if game_model.players < 2:
            raise ValueError("%s is a game of one player: this environment plays several" % game)
        self.game, self.game_model, self.model = game, game_model, found
        self.rules = getattr(game_model, "rules", None)
        self.players = players = game_model.players
        self.metadata = dict(self.metadata, name="%s_v0" % game)
        self.render_mode = render_mode
        self.exact_info = bool(exact_info)
        self.possible_agents = ["player_%d" % seat for seat in range(players)]
        n = game_model.n_actions
        nvec = np.array(game_model.observation_nvec, dtype=np.int64)
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.MultiDiscrete(nvec),
            "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8)}) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self._observer = getattr(game_model, "observer", None)  # the field state() leaves out
        state_nvec = nvec if self._observer is None else np.delete(nvec, self._observer)
        self.state_space = spaces.Box(0, state_nvec - 1, dtype=np.int64)
        self._value_info = getattr(game_model, "value_info", None)
        self.better = "more"
        self.dice = Dice()
        self.np_random = None
        self._zeros = np.zeros(n, dtype=np.int8)
        self._state = game_model.initial()
        self._player = TERMINAL  # of the state: a seat, or TERMINAL
        self._decision = found.terminal
        self._story = ""
        self.agents: list[str] = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- the AEC API ---------------------------------------------------------------------------

    def reset(self, seed=None, options=None):
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
            self.dice.seed(self.np_random)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._last = {agent: (0.0, False) for agent in self.agents}  # regret, illegal of each agent's last action
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._story = ""
        game = self.game_model
        self._state = state = self.model.resolve(game.initial(), self.dice.die)
        self._player = game.player(state)
        self._after(None)

    def step(self, action):
        if not self.agents:
            raise RuntimeError("the game is over and every agent has been stepped out of it: call reset() for a "
                               "new game")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        decision = self._decision
        number = as_action(action, self.game_model.n_actions)
        value = decision.values.get(number) if number is not None else None
        if value is None:
            self._last[agent] = (0.0, True)
            self.infos[agent] = self._info(agent)
        else:
            regret = 0.0 if (number in decision.optimal or not self.exact_info) else abs(decision.best - value)
            self._last[agent] = (regret, False)
            self._play(agent, number)
            self._after(agent)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _play(self, agent: str, action: int) -> None:
        """The action and the chance after it: the state and each seat's reward (and, rendering, the story)."""
        game, draw, die, before = self.game_model, self.model.draw, self.dice.die, self._state
        state = game.apply(before, action)
        player = game.player(state)
        said = [game.action_text(before, action)] if self.render_mode is not None else None  # a story to tell
        while player == CHANCE:  # as ``model.resolve``: the same draws
            outcomes, total = game.outcomes(state)
            outcome = draw(outcomes, die(total) - 1)
            if said is not None and hasattr(game, "outcome_text"):
                said.append(game.outcome_text(state, outcome))
            state = game.apply(state, outcome)
            player = game.player(state)
        if said is not None:
            self._story = "%s: %s" % (agent, ", ".join(said))
        self._state, self._player = state, player

    def _after(self, mover) -> None:
        """The decision, the agent to move and the infos after a reset or a step."""
        state, player = self._state, self._player
        ended = player == TERMINAL
        if ended:  # each seat's final return, its reward (PettingZoo's classic games pay at the end)
            for seat, reward in enumerate(self.game_model.returns(state)):
                self.rewards[self.possible_agents[seat]] = float(reward)
            self.terminations = dict.fromkeys(self.agents, True)
            self._decision = self.model.terminal if self.exact_info else self.model.terminal_coarse
        else:
            self._decision = self.model.at(state, self.exact_info)
            self.agent_selection = self.possible_agents[player]
        if mover is None or ended:
            self.infos = {agent: self._info(agent) for agent in self.agents}
        else:
            if mover != self.agent_selection:  # a turn passed: the mover's last action, in its own info
                self.infos[mover] = self._info(mover)
            self.infos[self.agent_selection] = self._info(self.agent_selection)
        if self._value_info is not None and (ended or self.exact_info):
            values = self.model.worth(state)  # every seat's moves with each step, not the mover's alone
            infos, name = self.infos, self._value_info
            for seat, agent in enumerate(self.possible_agents):
                if agent in infos:
                    infos[agent][name] = values[seat]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        to_move = agent == self.agent_selection and not self.terminations.get(agent, True)
        return {"observation": np.array(self.game_model.observation(self._state, seat), dtype=np.int64),
                "action_mask": self._decision.mask.copy() if to_move else self._zeros.copy()}

    def state(self) -> np.ndarray:
        """The whole game (int64, within ``state_space``): the observation of seat 0 less the observer's seat
        (the model's ``observer`` field)."""
        seen = self.game_model.observation(self._state, 0)
        if self._observer is not None:
            del seen[self._observer]
        return np.array(seen, dtype=np.int64)

    def get_state(self) -> tuple:
        """The model's state: a tuple of ints."""
        return self._state

    def render(self):
        if self.render_mode == "ansi":
            return self._words() + "\n"
        if self.render_mode == "human":
            print(self._words())
            return None
        if self.render_mode == "rgb_array":
            from ._picture import board

            return board(self.game_model.board(self._state))
        return None

    def close(self):
        pass

    def _words(self) -> str:
        game, state = self.game_model, self._state
        words = (self._story + "; " if self._story else "") + game.state_text(state)
        if game.player(state) != TERMINAL and hasattr(game, "question"):
            words += "   (ShutTheBox %s)" % " ".join(self.question())
        return words

    # -- exact facts ---------------------------------------------------------------------------

    def _info(self, agent) -> dict:
        regret, illegal = self._last[agent]
        decision = self._decision
        if agent != self.agent_selection or self.terminations.get(agent):
            return {"action_mask": self._zeros.copy(), "regret": regret, "illegal": illegal}
        if decision.q is None:
            return {"action_mask": decision.mask.copy(), "illegal": illegal}
        return {"action_mask": decision.mask.copy(), "q_values": decision.q.copy(),
                "optimal_actions": decision.optimal, "optimal_mask": decision.optimal_mask.copy(), "regret": regret,
                "illegal": illegal}

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent to move (int8)."""
        return self._decision.mask.copy()

    def value(self) -> float:
        """The exact value of the current state for the agent to move (its expected final return); 0 once the
        game is over."""
        if self.terminations.get(self.agent_selection, True):
            return 0.0
        if self._decision.q is None:
            return self.model.at(self._state, True).value
        return self._decision.value

    def start_value(self, seat: int) -> float:
        """The exact expected return of ``seat`` (0 first) at the start of a game, before any dice, every seat
        playing the table's moves (the model's value of its first state)."""
        return self.game_model.value(self.game_model.initial())[seat]

    def question(self) -> list:
        """The command line's words asking about the position (the model's ``question``)."""
        if not hasattr(self.game_model, "question"):
            raise ValueError("%s's model has no question for a position" % self.game)
        return self.game_model.question(self._state)


__all__ = ["ModelAEC"]


def module_parts(game: str, name: str) -> dict:
    """``raw_env`` and ``env`` of the module ``name`` (``shutthebox.rl.<game>_v0``): PettingZoo's module
    convention, ``env(**options)`` with PettingZoo's usual checks, ``raw_env(**options)`` without."""
    from pettingzoo.utils import wrappers

    def __init__(self, render_mode: str | None = None, exact_info: bool = True, **options):
        ModelAEC.__init__(self, game, render_mode, exact_info, **options)

    raw_env = type("raw_env", (ModelAEC,), {"__init__": __init__, "__module__": name, "__doc__": ModelAEC.__doc__})

    def env(**options):
        """The environment with PettingZoo's usual checks: ``AssertOutOfBoundsWrapper`` (an action outside the
        space is an error; an illegal one inside it is not: it changes nothing) and ``OrderEnforcingWrapper``."""
        return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**options)))

    env.__module__, env.__qualname__ = name, "env"
    return {"raw_env": raw_env, "env": env}
