"""The model of a game the toy-text way (Gymnasium's FrozenLake, Taxi): ``env.unwrapped.P[s][a]`` is a list of
``(probability, next state, reward, terminated)``, states being ints (``encode``/``decode``), for dynamic
programming, model-based RL and planning (docs/RL.md). Shut the Box solo here, and any game model that numbers
its states (toggle's, Goat alone's); Pig-v0, whose rules live in its own module, builds its own there from
``Transitions`` and ``merged``, so that this module imports no game.

``P`` is built state by state as it is read (toggle's 4096 x 36 decision states would be a large dict).
``P[s]`` has the legal actions of ``s`` alone: an illegal action changes nothing, and a no-op of reward 0
listed beside costly moves would make "never move" look best to value iteration where fewer is better.
Iterate over ``P[s]`` (or mask with ``action_masks``). A state where the game is over (and a number that is
no state of the game) has every action, each leading to itself, terminated, with reward 0.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..engine.model import CHANCE

_KEEP = 1 << 16  # states whose transitions are kept (then the memo starts again)


class Transitions(Mapping):
    """``P[s]``: ``{legal action: [(probability, next state, reward, terminated), ...]}`` for the state ``s``,
    computed by ``moves(s)`` when first read."""

    def __init__(self, n_states: int, n_actions: int, moves, over):
        self.n_states, self.n_actions = n_states, n_actions
        self._moves, self._over = moves, over
        self._memo: dict = {}

    def __getitem__(self, s):
        s = int(s)
        if not 0 <= s < self.n_states:
            raise KeyError(s)
        found = self._memo.get(s)
        if found is None:
            if len(self._memo) >= _KEEP:
                self._memo.clear()
            if self._over(s):
                found = {a: [(1.0, s, 0.0, True)] for a in range(self.n_actions)}
            else:
                found = dict(sorted(self._moves(s).items()))
            self._memo[s] = found
        return found

    def __iter__(self):
        return iter(range(self.n_states))

    def __len__(self) -> int:
        return self.n_states


def merged(outcomes) -> list:
    """``(probability, next, reward, terminated)`` with the probabilities of equal outcomes added, in order."""
    total: dict = {}
    for probability, after, reward, terminated in outcomes:
        key = (after, reward, terminated)
        total[key] = total.get(key, 0.0) + probability
    return [(probability, after, reward, terminated) for (after, reward, terminated), probability in total.items()]


# -- Shut the Box solo -----------------------------------------------------------------------------------


def solo(model, shut: bool) -> Transitions:
    """States ``position * (max_roll + 1) + roll`` (``SoloModel``): a move leaves its position and the dice
    are thrown (or wait, roll 0, where the player chooses); a roll no move fits ends the game (``score``:
    minus the tiles left); shutting ends it (``shut``: reward 1)."""
    width, rules = model.width, model.rules

    def thrown(position: int, dice: int) -> list:
        legal = model.legal(position)
        out = []
        for roll, weight in model.weights[dice].items():
            fits = roll in legal
            reward = 0.0 if fits or shut else -float(model.stuck[position])
            out.append((weight / rules.outcomes, position * width + roll, reward, not fits))
        return out

    def after_move(position: int) -> list:
        if not position:
            return [(1.0, 0, 1.0 if shut else 0.0, True)]
        choices = model.choices[position]
        if len(choices) > 1:
            return [(1.0, position * width, 0.0, False)]
        return thrown(position, choices[0])

    def moves(s: int) -> dict:
        position, roll = divmod(s, width)
        if not roll:
            return {model.throw_action(dice): thrown(position, dice) for dice in model.choices[position]}
        return {move: after_move(position ^ move) for move in model.legal(position)[roll]}

    def over(s: int) -> bool:
        position, roll = divmod(s, width)
        if not position:
            return True
        if not roll:
            return len(model.choices[position]) == 1  # no decision there: never reached
        return roll not in model.legal(position)

    return Transitions(model.positions * width, model.n_actions, moves, over)


# -- any game model that numbers its states ---------------------------------------------------------------


def of_model(game, numbers) -> Transitions:
    """States as ``numbers`` numbers them (``n_states``, ``number(state)``, ``numbered(number)``: a decision's
    state, a tally's at total 0): each legal action, then the chance after it by the outcomes' exact weights,
    until a decision or the end; the reward is the change of the return. A chance node whose outcomes may lead
    back to it (toggle's passes: a throw spent, the same dice to throw) is folded in: each other outcome has
    its chance given that it is no loop, and the reward adds the loops' expected cost before it,
    ``(sum of w * r over the loops) / (total - their weight)``: exact for expected returns (dynamic
    programming), where the environment samples the loops."""
    tally = bool(getattr(game, "tally", False))

    def key(state):
        return state[:-1] if tally else state

    def spread(state, base: float, chance: float, out: list) -> None:
        """``out`` gets ``state``'s leaves as ``(chance, next, reward, terminated)``, ``base`` its return."""
        player = game.player(state)
        if player == 0:
            out.append((chance, numbers.number(state), game.returns(state)[0] - base, False))
            return
        if player != CHANCE:
            out.append((chance, numbers.number(state), game.returns(state)[0] - base, True))
            return
        outcomes, total = game.outcomes(state)
        here, start = key(state), game.returns(state)[0]
        children, looping, cost = [], 0, 0.0
        for outcome, weight in outcomes:
            child = game.apply(state, outcome)
            if game.player(child) == CHANCE and key(child) == here:
                looping += weight
                cost += weight * (game.returns(child)[0] - start)
            else:
                children.append((child, weight))
        leaves: list = []
        for child, weight in children:
            spread(child, start, weight / (total - looping), leaves)
        extra = start - base + cost / (total - looping)
        out.extend((chance * p, after, reward + extra, done) for p, after, reward, done in leaves)

    def moves(s: int) -> dict:
        state = numbers.numbered(s)
        base = game.returns(state)[0]
        found = {}
        for action in game.legal(state):
            out: list = []
            spread(game.apply(state, action), base, 1.0, out)
            found[action] = merged(out)
        return found

    def over(s: int) -> bool:
        try:
            state = numbers.numbered(s)
            return game.player(state) != 0 or not game.legal(state)
        except (ArithmeticError, LookupError, TypeError, ValueError):  # no state of the game
            return True

    return Transitions(numbers.n_states, game.n_actions, moves, over)
