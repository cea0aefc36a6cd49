"""Pig for two players as a PettingZoo AEC environment (``pig_v0``; docs/RL.md)."""

from __future__ import annotations

import numpy as np

from ..games.pig.rules import ADD, BUST
from ._aec import ExactAEC
from ._picture import dice, number
from .pig import HOLD, dice_of, faces_words, model, rule_words, throw


class PigTwoEnv(ExactAEC):
    """Pig for two players (PettingZoo AEC): ``pig_v0.env(variant="pig", goal=100, sides=6)`` (the command
    line's ``pig --variant --goal --sides``; rules other than Pig to 100 are solved on first use and cached).

    ``player_0`` moves first. On a turn roll as often as you like, adding to the turn total, then hold to bank
    it; a 1 ends the turn and loses the turn total (Two-Dice Pig: double 1s also reset the banked score to 0;
    Big Pig: double 1s add 25, other doubles twice their sum). Reaching the goal wins at once.

    - **Actions**: ``Discrete(2)``: 0 hold (illegal at turn total 0), 1 roll.
    - **Observation** ``["observation"]``: ``MultiDiscrete([goal + most] * 2 + [goal, 2, 2])``: the observer's
      banked score, the other's, the turn total, the seat to move, the observer's seat. ``["action_mask"]``:
      the legal actions (int8), zeros for the agent not to move.
    - **Reward**: at the end, 1 to the winner, 0 to the other.
    - **Info**: every agent's ``win_chance`` (its exact chance to win now, both playing to win: the table's
      ``pig --expect`` for the mover, 1 minus it for the other; 1 or 0 at the end), ``regret`` and
      ``illegal`` of its own last action; the mover's ``q_values`` (``pig --options``: each action's chance to
      win, -inf where illegal), ``optimal_actions`` and ``optimal_mask`` (within the table's tie, 1e-11; its
      ``--move`` among them).
    """

    def __init__(self, variant: str = "pig", goal=None, sides=None, render_mode: str | None = None,
                 exact_info: bool = True):
        found = model(variant, goal, sides)
        self.rules = found.rules
        self.variant, self.goal, self.sides = found.variant, found.goal, found.sides
        self.metadata = dict(self.metadata, name="pig_v0")
        top = self.goal + found.top
        nvec = [top, top, self.goal, 2, 2]
        super().__init__(found, 2, nvec, nvec[:-1], render_mode, exact_info)
        self.banked, self.turn, self.faces, self.story = [0, 0], 0, (), ""

    def start_value(self, seat: int) -> float:
        """The exact chance of ``seat`` (0 first) to win at the start of a game, both playing to win."""
        first = self.model.win[0]
        return first if seat == 0 else 1.0 - first

    def _set_state(self):
        seat = self.seat
        self._key = (self.banked[seat], self.banked[1 - seat], self.turn)

    def _start(self):
        self.banked, self.turn, self.seat, self.faces, self.story = [0, 0], 0, 0, (), ""
        self._set_state()
        return None

    def _play(self, action: int):
        seat = self.seat
        if action == HOLD:
            self.banked[seat] += self.turn
            self.story = "player_%d held %d" % (seat, self.turn)
            self.faces = ()
        else:
            kind, points, self.faces = throw(self.dice.die, self.variant, self.sides)
            if kind == ADD:
                self.turn += points
                self.story = "player_%d rolled %s" % (seat, faces_words(self.faces))
                if self.banked[seat] + self.turn >= self.goal:
                    self.banked[seat] += self.turn
                    self.turn = 0
                    self.story += " and reached %d" % self.banked[seat]
                    return [1.0, 0.0] if seat == 0 else [0.0, 1.0]
                self._set_state()
                return None
            if kind != BUST:
                self.banked[seat] = 0
            self.story = "player_%d rolled %s: %s" % (seat, faces_words(self.faces),
                                                     "bust" if kind == BUST else "reset to 0")
        self.turn = 0
        self.seat = 1 - seat
        self._set_state()
        return None

    def _after(self, ended, mover) -> None:
        super()._after(ended, mover)
        for agent in self.agents:  # every agent's chance moves with each step, not the mover's alone
            chance = self.win_chance(self.possible_agents.index(agent))
            if chance is not None:
                self.infos[agent]["win_chance"] = chance

    def _info(self, agent) -> dict:
        info = super()._info(agent)
        chance = self.win_chance(self.possible_agents.index(agent))
        if chance is not None:
            info["win_chance"] = chance
        return info

    def win_chance(self, seat: int):
        """The exact chance of ``seat`` to win now (both playing to win); at the end 1 or 0; None without
        exact info."""
        if not self.agents or all(self.terminations.values()):
            return 1.0 if self.banked[seat] >= self.goal else 0.0
        if not self.exact_info:
            return None
        mover = self._decision.value
        return mover if seat == self.seat else 1.0 - mover

    def _observe(self, seat: int) -> np.ndarray:
        return np.array([self.banked[seat], self.banked[1 - seat], self.turn, self.seat, seat], dtype=np.int64)

    def _global(self) -> np.ndarray:
        return np.array(self.banked + [self.turn, self.seat], dtype=np.int64)

    def _board(self) -> list:
        most = self.goal + self.model.top  # a score or turn total shown is below it
        return [[("text", "goal"), ("text", str(self.goal))]] + [
            [("tile", "p%d" % seat, seat == self.seat), number(self.banked[seat], most)] for seat in range(2)] + [
            [("text", "turn"), number(self.turn, most)] + dice(self.faces, dice_of(self.variant, self.sides)[1])]

    def question(self) -> list:
        seat = self.seat
        return ["pig"] + rule_words(self.rules) + ["--options", str(self.banked[seat]), str(self.banked[1 - seat]),
                                                   str(self.turn)]

    def _words(self) -> str:
        said = (self.story + "; ") if self.story else ""
        if self.agents and all(self.terminations.values()):
            return "%sfinal: player_0 %d, player_1 %d" % (said, *self.banked)
        return "%splayer_%d to move: banked %d against %d, turn total %d   (ShutTheBox %s)" % (
            said, self.seat, self.banked[self.seat], self.banked[1 - self.seat], self.turn, " ".join(self.question()))
