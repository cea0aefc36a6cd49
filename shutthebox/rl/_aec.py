"""The PettingZoo AEC environment every several-player game of ``shutthebox.rl`` builds on (docs/RL.md).

As PettingZoo's classic environments: agents ``player_0``, ``player_1``, ...; an observation is
``{"observation": ..., "action_mask": ...}`` (the mask all zeros for an agent not to move); rewards come at
the end of the game; then every agent is done and is stepped with ``None``. The agent to move has the exact
info of its decision in ``infos[agent]``; an illegal action changes nothing and sets ``illegal``.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ._base import Dice, as_action, check_render_mode


class ExactAEC(AECEnv):
    """A subclass sets ``model`` and writes ``_start()`` (a new game: sets ``self._key`` and
    ``self.seat``, returns the final rewards by seat if the game ended before any decision, else None),
    ``_play(action)`` (a legal action and the chance after it: the final rewards by seat when the game
    ends, else None), ``_observe(seat)``, ``_global()`` (the whole game as ``state()`` gives it: the
    observation less the observer's seat), ``_words()`` and ``_board()`` (the rows of its picture).

    ``render_mode``: ``ansi`` (the position in words), ``human`` (the same printed after each step, as
    PettingZoo's classic environments), ``rgb_array`` (a small picture of the board, uint8)."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "is_parallelizable": False, "render_fps": 4}

    def __init__(self, model, players: int, nvec, state_nvec, render_mode: str | None = None, exact_info: bool = True):
        super().__init__()
        check_render_mode(render_mode, self.metadata["render_modes"])
        self.model = model
        self.render_mode = render_mode
        self.exact_info = bool(exact_info)
        self.possible_agents = ["player_%d" % seat for seat in range(players)]
        n = model.n_actions
        self.observation_spaces = {agent: spaces.Dict({
            "observation": spaces.MultiDiscrete(np.array(nvec, dtype=np.int64)),
            "action_mask": spaces.Box(0, 1, shape=(n,), dtype=np.int8)}) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(n) for agent in self.possible_agents}
        self.state_space = spaces.Box(0, np.array(state_nvec, dtype=np.int64) - 1, dtype=np.int64)
        self.better = "more"
        self.dice = Dice()
        self.np_random = None
        self._zeros = np.zeros(n, dtype=np.int8)
        self._key = None
        self.seat = 0
        self._decision = model.terminal
        self.agents = []

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
        ended = self._start()
        self._after(ended, None)

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
        number = as_action(action, self.model.n_actions)
        value = decision.values.get(number) if number is not None else None
        if value is None:
            self._last[agent] = (0.0, True)
            self.infos[agent] = self._info(agent)
        else:
            regret = 0.0 if (number in decision.optimal or not self.exact_info) else abs(decision.best - value)
            self._last[agent] = (regret, False)
            ended = self._play(number)
            self._after(ended, agent)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _after(self, ended, mover) -> None:
        """The decision, the agent to move and the infos after a reset or a step."""
        if ended is not None:
            for seat, reward in enumerate(ended):
                self.rewards[self.possible_agents[seat]] = float(reward)
            self.terminations = dict.fromkeys(self.agents, True)
            self._decision = self.model.terminal if self.exact_info else self.model.terminal_coarse
        else:
            self._decision = self.model.decision(self._key, self.exact_info)
        self.agent_selection = self.possible_agents[self.seat]
        if mover is None:
            self.infos = {agent: self._info(agent) for agent in self.agents}
        else:
            self.infos[mover] = self._info(mover)
            self.infos[self.agent_selection] = self._info(self.agent_selection)
            if ended is not None:
                for agent in self.agents:
                    self.infos[agent] = self._info(agent)

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        to_move = agent == self.agent_selection and not self.terminations.get(agent, True)
        return {"observation": self._observe(seat),
                "action_mask": self._decision.mask.copy() if to_move else self._zeros.copy()}

    def state(self) -> np.ndarray:
        """The whole game (int64, within ``state_space``): the observation less the observer's seat."""
        return self._global()

    def render(self):
        if self.render_mode == "ansi":
            return self._words() + "\n"
        if self.render_mode == "human":
            print(self._words())
            return None
        if self.render_mode == "rgb_array":
            from ._picture import board

            return board(self._board())
        return None

    def close(self):
        pass

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
        """The exact value of the current state for the agent to move (its expected share of the win);
        0 once the game is over."""
        if self.terminations.get(self.agent_selection, True):
            return 0.0
        if self._decision.q is None:
            return self.model.decision(self._key, True).value
        return self._decision.value
