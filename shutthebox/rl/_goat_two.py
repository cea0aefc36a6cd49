"""Goat for two players as a PettingZoo AEC environment (``goat_v0``; docs/RL.md)."""

from __future__ import annotations

import numpy as np

from ..games.goat.rules import DEFAULT_GOAL, EACH, MAX_GAIN, ROLLS
from ._aec import ExactAEC
from ._picture import number
from .goat import TURN_ENDS, model, roll_dice


class GoatTwoEnv(ExactAEC):
    """Goat for two players (PettingZoo AEC): ``goat_v0.env(goal=100)`` (``--goal`` 2-150; goals other than
    100 are solved on first use and cached, as ``ShutTheBox goat`` does; ``choose``: the rules option
    ``--choose``, only ``"each"`` here, ``"once"`` is refused).

    Rounds: ``player_0``'s turn, then ``player_1``'s. Before each roll put 1 to 6 dice in the cup; a match
    ends the turn with nothing, else the sum adds to the turn total; stop to bank it; the third roll ends the
    turn. After ``player_1``'s turn the game ends if either has reached the goal: the higher total wins, a
    tie is half a win each. (``player_0`` may roll on past the goal to set a higher mark.)

    - **Actions**: ``Discrete(7)``: 0 stop (not before the turn's first roll), ``k`` roll k dice.
    - **Observation** ``["observation"]``: ``MultiDiscrete([goal + 63] * 2 + [43, 3, 2, 2])``: the observer's
      banked score, the other's, the turn total, the rolls taken this turn, the seat to move, the observer's
      seat. ``["action_mask"]``: the legal actions (int8), zeros for the agent not to move.
    - **Reward**: at the end, 1 to the winner and 0 to the other, 0.5 each for a tie.
    - **Info** of the agent to move: ``q_values`` (each action's chance to win, a tie half: the table's
      ``goat --one/--two --expect`` values after it, one roll's chances weighted; -inf where illegal),
      ``optimal_actions`` (within the table's tie, 1e-11; its ``--move`` among them), ``regret`` (in chance to
      win), ``illegal``.
    """

    def __init__(self, goal: int = DEFAULT_GOAL, render_mode: str | None = None, exact_info: bool = True,
                 choose: str = EACH):
        found = model("two", goal, choose)
        self.goal = goal
        self.metadata = dict(self.metadata, name="goat_v0")
        nvec = [goal + MAX_GAIN] * 2 + [2 * 21 + 1, ROLLS, 2, 2]
        super().__init__(found, 2, nvec, nvec[:-1], render_mode, exact_info)
        self.banked, self.turn, self.rolls = [0, 0], 0, 0

    def start_value(self, seat: int) -> float:
        """The exact win share of ``seat`` (0 first) at the start of a game, both playing to win."""
        first = self.model.decision((1, 0, 0, 0, 0)).value
        return first if seat == 0 else 1.0 - first

    def _set_state(self):
        seat = self.seat
        self._key = (seat + 1, self.banked[seat], self.banked[1 - seat], self.turn, self.rolls)

    def _start(self):
        self.banked, self.turn, self.rolls, self.seat = [0, 0], 0, 0, 0
        self._set_state()
        return None

    def _end_turn(self, gain: int):
        self.banked[self.seat] += gain
        self.turn = self.rolls = 0
        if self.seat == 1:
            first, second = self.banked
            if first >= self.goal or second >= self.goal:
                if first == second:
                    return [0.5, 0.5]
                return [1.0, 0.0] if first > second else [0.0, 1.0]
        self.seat = 1 - self.seat
        self._set_state()
        return None

    def _play(self, action: int):
        if action == 0:
            return self._end_turn(self.turn)
        total = roll_dice(self.dice.die, action)
        if not total:
            return self._end_turn(0)
        self.turn += total
        self.rolls += 1
        if self.rolls == TURN_ENDS:
            return self._end_turn(self.turn)
        self._set_state()
        return None

    def _observe(self, seat: int) -> np.ndarray:
        return np.array([self.banked[seat], self.banked[1 - seat], self.turn, self.rolls, self.seat, seat],
                        dtype=np.int64)

    def _global(self) -> np.ndarray:
        return np.array(self.banked + [self.turn, self.rolls, self.seat], dtype=np.int64)

    def _board(self) -> list:
        return [[("text", "goal"), ("text", str(self.goal))]] + [
            [("tile", "p%d" % seat, seat == self.seat), number(self.banked[seat], self.goal + MAX_GAIN)]
            for seat in range(2)] + [
            [("text", "turn"), number(self.turn, MAX_GAIN)] + [("tile", "", taken < self.rolls) for taken in range(ROLLS)]]

    def question(self) -> list:
        seat = self.seat
        return ["goat", "--goal", str(self.goal), "--one" if seat == 0 else "--two", "--move", str(self.banked[seat]),
                str(self.banked[1 - seat]), str(self.turn), str(self.rolls)]

    def _words(self) -> str:
        if self.agents and all(self.terminations.values()):
            return "final: player_0 %d, player_1 %d" % tuple(self.banked)
        return "player_%d to move: banked %d against %d, turn total %d after %d roll%s   (ShutTheBox %s)" % (
            self.seat, self.banked[self.seat], self.banked[1 - self.seat], self.turn, self.rolls,
            "" if self.rolls == 1 else "s", " ".join(self.question()))
