"""The game model: one game, its rules and its exact values, as pure functions of a state (query time).

Every surface that plays a game step by step (the Gymnasium and OpenSpiel adapters in ``shutthebox.rl``, the
tests' brute force) reads a game through this one protocol, in the shape of OpenSpiel's state: whose turn it
is, the legal actions, the chance outcomes with their exact weights, the next state, the returns, and each
action's exact value from the game's table. A family engine implements it once for all its games
(``engine/families/``); a game declared on a family gets it, and every surface built on it, with nothing
written.

A state is a tuple of small ints (hashable, cheap to copy, the same in a pickle or a log). Returns are in
"more is better" units for every seat: a game that minimises a total returns minus that total.

A model may also have (the adapters read them with defaults): ``tie`` (values this close are equally good;
0), ``tally`` (True: the last field of a state and of its observation is the one seat's return so far, and
nothing else depends on it: the Gymnasium adapters leave it out of the observation, as the rewards say it,
and share the rest across totals; -1: the same, the field minus the return, a count the game minimises such
as toggle's rolls), ``min_to_come`` (the least the return can still change by from any state;
``min_return - max_return``), ``illegal_penalty`` (the learning environments' default penalty for an illegal
action where the return has no bound), ``question(state)`` (the command line's words for a decision),
``board(state)`` (its picture's rows, ``rl/_picture.py``), ``outcome_text(state, outcome)`` (a chance outcome in
words), ``value_of(state, seat)`` (``value(state)[seat]`` alone, where the others cost more) and
``decision_key(state)`` (what a decision's legal actions, values and best depend on: the adapters cache
decisions under it, Pig's seats mirrored sharing one). A model whose states are few may number them
(``numbers`` True): ``n_states``, ``number(state)`` (a tally's whatever its total), ``numbered(number)`` (a
tally's at total 0) and may have ``dense()`` (every numbered state's facts at once as numpy arrays: ``kind`` its
player, ``returns``, ``seen`` its observation less a tally's total, ``q`` the values, -inf where illegal,
``value``, ``best``, ``after`` and ``gain`` each action's next number and what it adds to the return, and for
the chance nodes ``chance``, their outcomes' ``weights``, ``leads`` and ``adds``); the Gymnasium adapters then
give its toy-text ``P``, and with ``dense()`` fill the vector environment at once (toggle's). A model of
several seats may also have ``constant_sum`` (the seats' returns add up to this at every end: 1 for win shares; OpenSpiel's
two-player games are then zero-sum), ``observer`` (the field of an observation that is the observer's own seat:
PettingZoo's ``state()`` is seat 0's observation without it) and ``value_info`` (a name: every agent's exact
value, ``value(state)[seat]``, in its PettingZoo info at every step). A game's ``model.py`` declares
``PLAYERS`` (the seats: a number, or a range where the rules choose), and may declare ``OPTIONS``
(``model()``'s keywords beyond the rules, with the learning environments' defaults), ``SPIEL_OPTIONS`` (the
same, OpenSpiel's parameters, with their defaults there), ``REWARD_THRESHOLD`` and ``MAX_EPISODE_STEPS`` (its
Gymnasium id's; else 100); a game of several seats may declare ``SOLO`` (its game alone, ``model(rules,
players=1)``: a dict of its Gymnasium ``id``, ``max_episode_steps`` and ``reward_threshold``; Goat's).
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

# OpenSpiel's player ids, so that its adapter passes them through.
CHANCE, TERMINAL = -1, -4

State = tuple[int, ...]


@runtime_checkable
class GameModel(Protocol):
    """One rule set of a game, read from its table (docs/ARCHITECTURE.md, "The game model")."""

    id: str  # the game's name in the registry
    players: int  # seats 0 .. players - 1
    n_actions: int  # the actions are 0 .. n_actions - 1
    n_outcomes: int  # the chance outcomes are 0 .. n_outcomes - 1
    max_length: int  # the most decision and chance nodes a game can pass
    min_return: float  # the lowest and highest return a seat can end with
    max_return: float
    observation_nvec: tuple[int, ...]  # field i of an observation takes 0 .. observation_nvec[i] - 1

    def initial(self) -> State:
        """The state before anything happens (it may be a chance node)."""
        ...

    def player(self, state: State) -> int:
        """The seat to move, ``CHANCE`` or ``TERMINAL``."""
        ...

    def legal(self, state: State) -> list[int]:
        """The legal actions of a decision, increasing."""
        ...

    def outcomes(self, state: State) -> tuple[list[tuple[int, int]], int]:
        """A chance node's outcomes with integer weights, and their sum: outcome ``o`` has chance
        ``weight / total``, exactly."""
        ...

    def apply(self, state: State, action: int) -> State:
        """The state after ``action`` (a decision's legal action, or a chance node's outcome)."""
        ...

    def returns(self, state: State) -> list[float]:
        """Each seat's return so far (the final one at a terminal state)."""
        ...

    def values(self, state: State) -> dict[int, float]:
        """A decision's legal actions, each with the mover's expected final return after it, both (all) seats
        then playing optimally: the game's table's values, one Bellman step where it stores fewer."""
        ...

    def value(self, state: State) -> list[float]:
        """Each seat's expected final return from ``state`` (any node) under optimal play."""
        ...

    def best(self, state: State) -> int:
        """The table's move at a decision (its tie rule decides among equal actions)."""
        ...

    def observation(self, state: State, seat: int) -> list[int]:
        """What ``seat`` sees of ``state``: ``len(observation_nvec)`` small ints."""
        ...

    def action_text(self, state: State, action: int) -> str:
        """An action in the command line's words (``set aside 1 3``)."""
        ...

    def state_text(self, state: State) -> str:
        """The state in the command line's words."""
        ...


class Hooks(Protocol):
    """A game declared on a family engine (``engine/families/``): the family's query-time and build-time
    parts, bound to the game's declared data (``engine.game.Game(hooks=...)``). Each of the first four returns
    an object with the attributes a game of its own has in its fixed-name module (``grammar.py``,
    ``rules.py``, ``table.py``, ``build.py``); ``model(rules)`` returns the game model."""

    players: int  # the seats of every rule set of the game (known without a table)

    def grammar(self) -> Any: ...

    def rules(self) -> Any: ...

    def table(self) -> Any: ...

    def build(self) -> Any: ...

    def model(self, rules: Any = None) -> GameModel: ...


def chance(model: GameModel, state: State, uniform: float) -> int:
    """The outcome of the chance node ``state`` that ``uniform`` (in [0, 1)) draws, in the outcomes' order."""
    outcomes, total = model.outcomes(state)
    target = uniform * total
    running = 0
    for outcome, weight in outcomes:
        running += weight
        if target < running:
            return outcome
    return outcomes[-1][0]
