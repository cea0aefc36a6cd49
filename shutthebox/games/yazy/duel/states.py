"""Two-player yazy as pure functions of a state: the rules part of a game model (``engine/model.py``) without its
values (the two players' table is far too large to read for them), for the exact best response
(``rl/exploit.py``), which plays every state a small game of few categories reaches.

A state is ``(seat to move, the other's open categories, the other's total)`` then the mover's state as yazy's game
model has it (``games/yazy/model.py``: open categories, dice, rerolls, total), whose actions these are. A score
passes the turn; the higher total wins once both have scored every category (the returns are win shares, a tie
half each). An observation is the mover's, then the other's open categories and total, the seat to move and the
observer's seat.
"""

from __future__ import annotations

from ....engine.model import CHANCE, TERMINAL, State
from ..model import model
from ..rules import REROLLS, SCORE, Rules, format_categories

WIN = ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])  # returns by result: seat 0 wins, seat 1 wins, a tie


class YazyDuel:
    """Two-player yazy: ``(seat to move, the other's open categories, the other's total)`` then the mover's
    state as yazy's game model has it (``games/yazy/model.py``: open categories, dice, rerolls, total), whose
    actions these are. A score passes the turn; the higher total wins once both have scored every category."""

    id, players, exact = "yazy", 2, True

    def __init__(self, categories=None):
        self.score, self.rerolls = SCORE, REROLLS
        self.turn = model(Rules() if categories is None else Rules(categories=categories))
        self.n_actions = self.turn.n_actions

    def initial(self) -> State:
        inner = self.turn.initial()
        return (0, inner[0], 0) + inner

    def player(self, state: State) -> int:
        if not state[1] and not state[3]:
            return TERMINAL
        return CHANCE if self.turn.player(state[3:]) == CHANCE else state[0]

    def legal(self, state: State) -> list[int]:
        return self.turn.legal(state[3:])

    def outcomes(self, state: State):
        return self.turn.outcomes(state[3:])

    def apply(self, state: State, action: int) -> State:
        seat, other, other_total = state[:3]
        chance = self.player(state) == CHANCE
        inner = self.turn.apply(state[3:], action)
        if chance or action < self.score:
            return state[:3] + inner
        opened, total = inner[0], inner[-1]
        return (1 - seat, opened, total, other) + (0,) * 5 + (self.rerolls if other else 0, other_total)

    def returns(self, state: State) -> list[float]:
        seat, _, other_total = state[:3]
        total = state[-1]
        if total == other_total:
            return WIN[2]
        return WIN[seat] if total > other_total else WIN[1 - seat]

    def observation(self, state: State, seat: int) -> list[int]:
        mover, other, other_total = state[:3]
        bits = [other >> c & 1 for c in range(11)]
        return self.turn.observation(state[3:]) + bits + [other_total, mover, seat]

    def state_text(self, state: State) -> str:
        return "seat %d, %s; the other: %s" % (state[0], self.turn.state_text(state[3:]), "open %s, total %d" % (
            self._categories(state[1]), state[2]))

    @staticmethod
    def _categories(mask: int) -> str:
        return format_categories(mask) if mask else "none"
