"""One seat of a game of several players against the table: a game model of one player (``engine/model.py``).

The other seats play the table's moves (their ``best``), folded into the step that leads to them: every state
of the view is the game's own state where the seat decides, a die is thrown or the game is over, so that the
one-player environments (``rl/model_env.py``, ``rl/model_vector.py``) serve it as any game of one player. The
values are the game's for the seat: the table's optimal play on every side, which is what the other seats
play, so the seat's values in the view are its values in the game.
"""

from __future__ import annotations

import operator
from typing import Any

from .model import CHANCE, TERMINAL, State

# What the view passes on of the game's optional parts (``engine/model.py``): each reads a state as the game's.
_PASSED = ("tie", "question", "board", "outcome_text", "decision_key")


def whole_seat(seat: Any) -> int:
    """``seat`` as an int (ValueError where it is no whole number; a bool is none, though it equals one)."""
    if isinstance(seat, bool) or not hasattr(seat, "__index__"):
        raise ValueError("seat must be a whole number, not %r" % (seat,))
    return operator.index(seat)


def seat_model(game: Any, seat: int) -> "SeatModel":
    """``game`` (a game model of several players) played from ``seat`` against the table (ValueError where
    there is no such seat, or where the others may end the game before the seat's first decision)."""
    if game.players == 1:
        raise ValueError("%s is a game of one player: it has no seat to choose" % game.id)
    seat = whole_seat(seat)
    if not 0 <= seat < game.players:
        raise ValueError("seat must be one of 0 .. %d of %s's %d players, not %r"
                         % (game.players - 1, game.id, game.players, seat))
    found = SeatModel(game, seat)
    if found.may_end_first():
        raise ValueError("seat %d of %s is refused: the others may end the game before its first decision, which "
                         "an episode cannot say" % (seat, game.id))
    return found


class SeatModel:
    """``engine.model.GameModel`` of one player: ``game`` from ``seat``, the other seats playing the table's
    moves. States, actions, chance outcomes and observations are the game's (the seat's observation)."""

    players = 1

    def __init__(self, game: Any, seat: int) -> None:
        self.game, self.seat = game, seat
        self.id = game.id
        self.n_actions, self.n_outcomes, self.max_length = game.n_actions, game.n_outcomes, game.max_length
        self.min_return, self.max_return = game.min_return, game.max_return
        self.observation_nvec = tuple(game.observation_nvec)

    def __reduce__(self):
        return (seat_model, (self.game, self.seat))

    def __getattr__(self, name: str):
        if name in _PASSED:  # where the game has it: the same answers, read from a state of the game
            return getattr(self.game, name)
        raise AttributeError(name)

    def _on(self, state: State) -> State:
        """``state`` after the other seats' decisions, each the table's move, up to the seat's decision, a
        throw or the end (a throw is left for the environment's dice)."""
        game, seat = self.game, self.seat
        player = game.player(state)
        while player >= 0 and player != seat:
            state = game.apply(state, game.best(state))
            player = game.player(state)
        return state

    def may_end_first(self) -> bool:
        """Whether some throws end the game before the seat's first decision (the other seats' turns first)."""
        game, seen = self.game, set()
        waiting = [self.initial()]
        while waiting:
            state = waiting.pop()
            player = game.player(state)
            if player == TERMINAL:
                return True
            if player == CHANCE and state not in seen:
                seen.add(state)
                waiting += [self.apply(state, outcome) for outcome, weight in game.outcomes(state)[0] if weight]
        return False

    def initial(self) -> State:
        return self._on(self.game.initial())

    def player(self, state: State) -> int:
        player = self.game.player(state)
        if player < 0:  # CHANCE or TERMINAL
            return player
        return 0 if player == self.seat else 1  # another seat's (no state the view reaches)

    def legal(self, state: State) -> list[int]:
        return self.game.legal(state)

    def outcomes(self, state: State) -> tuple[list[tuple[int, int]], int]:
        return self.game.outcomes(state)

    def apply(self, state: State, action: int) -> State:
        return self._on(self.game.apply(state, action))

    def returns(self, state: State) -> list[float]:
        return [self.game.returns(state)[self.seat]]

    def values(self, state: State) -> dict[int, float]:
        return self.game.values(state)  # the mover's: the seat's at its decisions

    def value(self, state: State) -> list[float]:
        value_of = getattr(self.game, "value_of", None)  # one seat's, where the whole vector costs more
        if value_of is not None:
            return [value_of(state, self.seat)]
        return [self.game.value(state)[self.seat]]

    def best(self, state: State) -> int:
        return self.game.best(state)

    def observation(self, state: State, seat: int) -> list[int]:
        return self.game.observation(state, self.seat)

    def action_text(self, state: State, action: int) -> str:
        return self.game.action_text(state, action)

    def state_text(self, state: State) -> str:
        return self.game.state_text(state)


__all__ = ["SeatModel", "seat_model"]
