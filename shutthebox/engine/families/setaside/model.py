"""A set-aside dice game as a game model (``engine/model.py``), read from its table.

A state is ``(total, left, d1, ..., dN)``: the points set aside so far, the dice still in play, and the dice
showing, sorted, 0 for none (N is the game's dice). A state with dice showing is the player's decision; with
dice left and none showing, a chance node (the throw of ``left`` dice: outcome ``o`` is the ``o``-th sorted
roll of that many dice, in lexicographic order); with no dice left, the end. An action is a set of the dice
showing, as a bitmask over their sorted positions; of equal faces only the leftmost are taken (one action
for each set of faces). The one seat's return is ``-total`` for the lowest total (``total`` for the highest).
"""

from __future__ import annotations

from ...model import CHANCE, TERMINAL, State
from .grammar import move_text
from ...throws import faces, sorted_rolls, throw

_MODELS: dict = {}


def model(spec, rules=None) -> "SetAsideModel":
    """The model of ``rules`` (default: the game's), made once per process."""
    family = spec.family
    rules = family.rules().Rules() if rules is None else rules
    key = (spec.id, rules)
    found = _MODELS.get(key)
    if found is None:
        found = _MODELS[key] = SetAsideModel(spec, family.table().load(rules))
    return found


class SetAsideModel:
    """``engine.model.GameModel`` for one set-aside dice game's rules."""

    players = 1

    def __init__(self, spec, table):
        self.id, self.table = spec.id, table
        rules = self.rules = table.rules
        self.dice, self.sides, self.points = rules.dice, rules.sides, rules.points
        self.sign = -1 if rules.lowest else 1
        self.n_actions = 1 << self.dice
        self.rolls = [sorted_rolls(n, self.sides) for n in range(self.dice + 1)]
        self.n_outcomes = len(self.rolls[self.dice])
        self.max_length = 2 * self.dice
        top = self.dice * max(self.points)
        self.min_return, self.max_return = (-float(top), 0.0) if rules.lowest else (0.0, float(top))
        self.observation_nvec = (top + 1, self.dice + 1) + (self.sides + 1,) * self.dice
        self.expect = [table.numerators[n] / table.denominator for n in range(self.dice + 1)]

    def __reduce__(self):
        return (_remake, (self.id, self.rules))

    def initial(self) -> State:
        return (0, self.dice) + (0,) * self.dice

    def player(self, state: State) -> int:
        if not state[1]:
            return TERMINAL
        return CHANCE if not state[2] else 0

    def roll(self, state: State) -> tuple:
        return tuple(face for face in state[2:] if face)

    def legal(self, state: State) -> list[int]:
        return sorted(mask for mask, _ in self.table.choices(self.roll(state)))

    def outcomes(self, state: State) -> tuple[list[tuple[int, int]], int]:
        outcomes, total = throw(state[1], self.sides)
        return list(outcomes), total

    def apply(self, state: State, action: int) -> State:
        total, left = state[0], state[1]
        if not state[2]:  # a throw
            roll = self.rolls[left][action]
            return (total, left) + roll + (0,) * (self.dice - left)
        kept = faces(self.roll(state), action)
        left -= len(kept)
        return (total + sum(self.points[face - 1] for face in kept), left) + (0,) * self.dice

    def returns(self, state: State) -> list[float]:
        return [float(self.sign * state[0])]

    def values(self, state: State) -> dict[int, float]:
        total, table = state[0], self.table
        return {mask: self.sign * (total + value / table.denominator)
                for mask, value in table.choices(self.roll(state))}

    def value(self, state: State) -> list[float]:
        total, left = state[0], state[1]
        if state[2]:
            return [max(self.values(state).values())]
        return [self.sign * (total + self.expect[left])]

    def best(self, state: State) -> int:
        return self.table.best(self.roll(state))

    def observation(self, state: State, seat: int = 0) -> list[int]:
        return list(state)

    def action_text(self, state: State, action: int) -> str:
        return move_text(faces(self.roll(state), action))

    def state_text(self, state: State) -> str:
        total, left = state[0], state[1]
        if not left:
            return "total %d, every die set aside" % total
        roll = self.roll(state)
        showing = "showing %s" % self.rules.dice_text(roll) if roll else "to roll"
        return "total %d, %d %s %s" % (total, left, "die" if left == 1 else "dice", showing)


def _remake(game: str, rules):
    from .... import registry

    return registry.declaration(game).model(rules)
