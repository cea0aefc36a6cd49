"""The native batched environment of any one-player game model (``engine/model.py``): many games at once, read
through the model alone, as ``model_env.ModelEnv`` reads one (docs/RL.md).

    envs = gymnasium.make_vec("shutthebox/<Title>-v0", num_envs=1024, vectorization_mode="vector_entry_point")

Every game declared on a family engine registers it as its ``vector_entry_point``. It is one of the vector
environments of ``shutthebox.rl.vector`` (``ExactVectorEnv``: the same seeding, autoreset, time limit,
illegal actions and info keys), each row the one-player environment of the same id step for step: row i of
``reset(seed=s)`` plays exactly the game ``gymnasium.make(id).reset(seed=s + i)`` plays with the same actions.

A game model has no numbering of its states, so the environment numbers them as it meets them: each state
tuple the rows reach is interned once per rule set (a dict keyed by the tuple, shared by every vector
environment of the process) with what a step needs of it in arrays indexed by its number: its kind (a
decision, a chance node or the end), the player's return there, its observation, the row of its answers
(mask, exact values, optimal actions: the model's decision, the same floats as the one-player
environment's), the state each action leads to and, for a chance node, its outcomes' cumulative weights. A
step is then gathers from those arrays; the chance nodes of all the rows are drawn at once (each row's die
over its node's total weight, its outcome found by one ``searchsorted`` over every chance node's cumulative
weights laid end to end), and only a state never met before calls the model. The numbers are the process's
own: ``state_numbers()`` gives them (0 a finished game), ``get_states()`` the model's tuples.

A ``tally`` model's states are met with their total 0 (its last field: nothing else depends on it), so every
total shares them: each move and chance outcome keeps what it adds to the return (the total, or minus it for a
tally of -1: toggle's rolls), and each row its own return so far.
Past ``_MOST_STATES`` states the rule set's states start again (``ModelVectorEnv._current``), so that memory
stays bounded where the states are many.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.model import CHANCE, TERMINAL
from .vector import ExactVectorEnv, Tables

_FIRST = 1024  # the states the arrays hold at first (then twice as many each time they fill)
_UNUSED = np.iinfo(np.int64).max  # past the last chance outcome: above every draw
# The states (and chance outcomes placed) a rule set keeps, some 1.5 kB a state: past either, its states start
# again (yazy's random play meets about one new state a step; Threes has a few thousand in all).
_MOST_STATES, _MOST_PLACES = 1 << 18, 1 << 22
_LAWS = 64  # chance nodes' outcomes kept as arrays (a model shares one list for all its throws of n dice)
# A draw from a law of at most this many outcomes (Goat's rolls: 11 at most) counts the law's running weights at or
# below it, a row of a small table, where a search of every chance node's weights would miss the cache each time.
_LAW_WIDTH = 32
# A model that numbers its states and has ``dense()`` gives them all at once up to this many, some 400 bytes each:
# toggle's 12 cards and 6 sides are 200,704; beyond, they are met one by one as any model's
_MOST_DENSE = 1 << 18


def _grown(array: np.ndarray, size: int, fill=0) -> np.ndarray:
    """``array`` with ``size`` rows, the new ones ``fill``."""
    bigger = np.full((size,) + array.shape[1:], fill, dtype=array.dtype)
    bigger[:len(array)] = array
    return bigger


class NodeTables(Tables):
    """``vector.Tables`` that grow: a row a state number, row 0 the game over (every action a no-op worth 0), a
    decision's row written when the state is met."""

    def __init__(self, size: int, n_actions: int):
        super().__init__(size - 1, n_actions, True)  # a game model's returns: more is better
        self.over = 0
        for array in (self.mask, self.optimal, self.q):
            array[[0, size - 1]] = array[[size - 1, 0]]
        self.finish()
        self.written = 1  # the game over; a state's row when it is met (``put``)

    def put(self, number: int, decision) -> None:
        super().put(number, decision)
        self.written = max(self.written, number + 1)

    def grow(self, size: int) -> None:
        n = self.width
        self.flags = _grown(self.flags, size)
        self.q = _grown(self.q, size, -np.inf)
        self.best, self.value = _grown(self.best, size), _grown(self.value, size)
        self.mask, self.optimal = self.flags[:, :n], self.flags[:, n:]
        self.legal = self.mask.view(bool)


class Nodes:
    """The states of one rule set's game model met so far, numbered from 1, and what a step reads of them
    (module docstring). Shared by every vector environment of the rule set (``model.vector_nodes``)."""

    def __init__(self, model):
        self.model, self.game = model, model.game
        game = self.game
        self.n_actions = n = game.n_actions
        self.tally, self.sign = model.tally, model.sign  # a tally's last field is the return (sign 1) or minus it
        self.width = len(game.observation_nvec) - self.tally  # a tally's total is no part of the observation
        self.tables = NodeTables(_FIRST, n)
        # number -> the model's tuple (0: the game over, no state): a list of those met, or a dense model's ``Numbered``
        self.states: Any = [None]
        self.ids: dict = {}
        # narrow types where they hold: a step gathers from these at random rows, its cost the bytes read
        self.kind = np.full(_FIRST, TERMINAL, dtype=np.int8)  # the model's player: 0, CHANCE or TERMINAL
        self.returns = np.zeros(_FIRST)
        # observations in the narrowest type that holds them (a step gathers a row of each env's: fewer bytes)
        most = max(game.observation_nvec[:self.width], default=1)
        self.seen = np.zeros((_FIRST, self.width), dtype=np.int8 if most <= 1 << 7 else np.int16 if most <= 1 << 15
                             else np.int64)
        self.returning = False  # whether any state's return (at total 0) is not 0: else a step reads none
        self.after = np.full((_FIRST, n), -1, dtype=np.int32)  # the state an action leads to (-1: not yet met)
        self.gain = np.zeros((_FIRST, n), dtype=np.int32)  # what it adds to a tally's total
        # a chance node's outcomes: its total weight, and where its cumulative weights start in ``bounds``
        # (the weights of every chance node end to end, each node's offset by the totals before it)
        self.total = np.ones(_FIRST, dtype=np.int64)
        self.offset = np.zeros(_FIRST, dtype=np.int64)
        # where its outcomes start in ``bounds``, and whether each weighs 1 (a draw is then that place plus the
        # die: no search; toggle's 36 throws)
        self.first = np.zeros(_FIRST, dtype=np.int64)
        self.uniform = np.zeros(_FIRST, dtype=bool)
        # each chance node's law (its outcomes' list, shared) as a row of ``law_bounds``, its running weights padded
        # with _UNUSED; ``small_laws`` while every law placed has a row (at most _LAWS of them, _LAW_WIDTH wide)
        self.law = np.zeros(_FIRST, dtype=np.int64)
        self.law_bounds = np.full((0, _LAW_WIDTH), _UNUSED, dtype=np.int64)
        self.law_rows: dict = {}  # id(outcomes) -> (outcomes, its row)
        self.small_laws = True
        self.all_uniform = True  # whether every chance node placed is (a step then reads none of ``uniform``)
        self.one_total = 0  # the total weight of every chance node placed where they share one (else -1)
        self.bounds = np.full(_FIRST, _UNUSED, dtype=np.int64)
        self.outcome = np.zeros(_FIRST, dtype=np.int64)  # the model's outcome at each place of ``bounds``
        self.owner = np.zeros(_FIRST, dtype=np.int64)  # the chance node it is an outcome of
        self.leads = np.full(_FIRST, -1, dtype=np.int32)  # the state it leads to (-1: not yet met)
        self.adds = np.zeros(_FIRST, dtype=np.int32)  # what it adds to a tally's total
        self.placed = 0  # the places of ``bounds`` used
        self._laws: dict = {}  # id(a chance node's outcomes) -> (them, the outcomes, their running weights)
        self.successor: Nodes | None = None  # the states that replaced these, once they were too many
        self.drawn = 0  # the total weight of the chance nodes placed
        self.dense = bool(getattr(game, "numbers", False)) and hasattr(game, "dense") and game.n_states < _MOST_DENSE
        if self.dense:
            self._fill(game.dense())
        self.start, self.start_gain = self.meet(game.initial())

    def meet(self, state) -> tuple[int, int]:
        """The number of ``state`` (a tuple of ints, met now if it was not before) and its total (the return it
        holds): a tally's state is met with its total 0."""
        if self.tally:
            return self.intern(state[:-1] + (0,)), self.sign * state[-1]
        return self.intern(state), 0

    def intern(self, state) -> int:
        """The number of ``state`` (a tuple of ints; a tally's of total 0), met now if it was not before."""
        if self.dense:
            return self.game.number(state) + 1
        found = self.ids.get(state)
        if found is not None:
            return found
        game = self.game
        number = len(self.states)
        if number >= len(self.kind):
            self._grow(2 * len(self.kind))
        player = game.player(state)
        self.kind[number] = player
        self.returns[number] = earned = game.returns(state)[0]
        self.returning = self.returning or earned != 0
        if player == CHANCE:
            self._place(number, state)
        else:
            self.seen[number] = game.observation(state, 0)[:self.width]
            if player == 0:
                self.tables.put(number, self.model.decision(self.model.key(state), True))
        self.states.append(state)
        self.ids[state] = number
        return number

    def _fill(self, dense: dict) -> None:
        """Every state at once from the model's ``dense()`` arrays (``engine/model.py``, "numbers"): state ``n``
        of the model's numbering is number ``n + 1`` (0 the game over), each decision's answers as its
        ``Decision`` (``model_env.GameModelModel``) would give them, each chance node's outcomes placed."""
        size = self.game.n_states + 1
        if size > len(self.kind):
            self._grow(size)
        self.states = Numbered(self.game, size)
        self.kind[1:size], self.returns[1:size], self.seen[1:size] = dense["kind"], dense["returns"], dense["seen"]
        self.returning = bool(self.returns.any())
        q = dense["q"]
        legal = q > -np.inf
        self.after[1:size] = np.where(legal, dense["after"] + 1, -1)
        self.gain[1:size] = dense["gain"]
        rows = np.flatnonzero(dense["kind"] == 0)
        q, legal = q[rows], legal[rows]
        best = q.max(axis=1)
        tie = self.model.tie
        optimal = (np.abs(q - best[:, None]) <= tie) if tie else q == best[:, None]
        moves = dense["best"][rows]
        optimal[np.arange(len(rows)), moves] |= legal[np.arange(len(rows)), moves]  # the table's move, if legal
        tables, numbers = self.tables, rows + 1
        tables.mask[numbers], tables.optimal[numbers] = legal, optimal & legal
        tables.q[numbers], tables.best[numbers], tables.value[numbers] = q, best, dense["value"][rows]
        tables.written = size
        chance, weights = dense["chance"] + 1, dense["weights"]
        count, width = weights.shape
        totals = weights.sum(axis=1)
        offsets = np.cumsum(totals) - totals
        places = count * width
        self.bounds = np.append((np.cumsum(weights, axis=1) + offsets[:, None]).ravel(), _UNUSED)
        self.outcome = np.append(np.tile(np.arange(width, dtype=np.int64), count), 0)
        self.owner = np.append(np.repeat(chance, width), 0)
        self.leads = np.append(dense["leads"].ravel() + 1, -1).astype(np.int32)
        self.adds = np.append(dense["adds"].ravel(), 0).astype(np.int32)
        self.total[chance], self.offset[chance] = totals, offsets
        self.first[chance], self.uniform[chance] = np.arange(count) * width, (weights == 1).all(axis=1)
        self.all_uniform = bool(self.uniform[chance].all())
        self.one_total = int(totals[0]) if len(totals) and (totals == totals[0]).all() else -1
        self.placed, self.drawn = places, int(totals.sum())
        # its laws: the distinct rows of weights, where few and narrow (Goat's six rolls); else searched
        self.small_laws = False
        if count and width <= _LAW_WIDTH:
            laws, which = np.unique(weights, axis=0, return_inverse=True)
            if len(laws) <= _LAWS:
                self.law_bounds = np.full((len(laws), _LAW_WIDTH), _UNUSED, dtype=np.int64)
                self.law_bounds[:, :width] = np.cumsum(laws, axis=1)
                self.law[chance], self.small_laws = which.ravel(), True

    def _place(self, number: int, state) -> None:
        """A chance node's outcomes at the end of ``bounds``: each the running sum of the weights up to and
        including its own, plus the node's offset (so ``searchsorted(bounds, offset + u, "right")`` finds the
        outcome that ``u`` in 0 .. total - 1 draws, in the model's order, as the one-player environment does)."""
        outcomes, total = self.game.outcomes(state)
        first, count = self.placed, len(outcomes)
        size = len(self.bounds)
        if first + count > size:
            while first + count > size:
                size *= 2
            self.bounds = _grown(self.bounds, size, _UNUSED)
            self.outcome = _grown(self.outcome, size)
            self.owner = _grown(self.owner, size)
            self.leads = _grown(self.leads, size, -1)
            self.adds = _grown(self.adds, size)
        law = self._laws.get(id(outcomes))
        if law is None or law[0] is not outcomes:  # kept with its list: the id stays that list's
            if len(self._laws) >= _LAWS:
                self._laws.clear()
            law = self._laws[id(outcomes)] = (outcomes, np.array([outcome for outcome, _ in outcomes], dtype=np.int64),
                                              np.cumsum(np.array([weight for _, weight in outcomes], dtype=np.int64)),
                                              all(weight == 1 for _, weight in outcomes))
        self.bounds[first:first + count] = law[2] + self.drawn
        self.outcome[first:first + count] = law[1]
        self.owner[first:first + count] = number
        self.total[number], self.offset[number] = total, self.drawn
        self.first[number], self.uniform[number] = first, law[3]
        if self.small_laws:
            self.law[number] = self._law_row(outcomes, law[2])
        self.all_uniform = self.all_uniform and law[3]
        self.one_total = total if self.one_total in (0, total) else -1
        self.placed, self.drawn = first + count, self.drawn + total

    def _law_row(self, outcomes: list, running: np.ndarray) -> int:
        """The row of ``law_bounds`` of the law ``outcomes`` (its running weights ``running``), added when first
        met; a law too wide, or one too many, ends ``small_laws`` (the draws then search ``bounds``)."""
        found = self.law_rows.get(id(outcomes))
        if found is not None and found[0] is outcomes:
            return found[1]
        row = len(self.law_rows)
        if len(outcomes) > _LAW_WIDTH or row >= _LAWS:
            self.small_laws = False
            return 0
        padded = np.full((1, _LAW_WIDTH), _UNUSED, dtype=np.int64)
        padded[0, :len(running)] = running
        self.law_bounds = np.vstack([self.law_bounds, padded])
        self.law_rows[id(outcomes)] = (outcomes, row)
        return row

    def _grow(self, size: int) -> None:
        self.kind = _grown(self.kind, size, TERMINAL)
        self.returns = _grown(self.returns, size)
        self.seen = _grown(self.seen, size)
        self.after = _grown(self.after, size, -1)
        self.gain = _grown(self.gain, size)
        self.total = _grown(self.total, size, 1)
        self.offset = _grown(self.offset, size)
        self.first = _grown(self.first, size)
        self.uniform = _grown(self.uniform, size)
        self.law = _grown(self.law, size)
        self.tables.grow(size)

    def move(self, numbers: np.ndarray, actions: np.ndarray) -> tuple:
        """The states the legal ``actions`` lead to from the decisions ``numbers`` (before any chance), and what
        each adds to a tally's total."""
        flat = numbers * self.n_actions + actions  # one gather on the flat arrays: cheaper than a pair of indices
        found = self.after.take(flat)
        for i in np.flatnonzero(found < 0):
            number, action = int(numbers[i]), int(actions[i])
            found[i], self.gain[number, action] = self.meet(self.game.apply(self.states[number], action))
            self.after[number, action] = found[i]
        return found, self.gain.take(flat)

    def lead(self, places: np.ndarray) -> tuple:
        """The states the chance outcomes at ``places`` of ``bounds`` lead to, and what each adds to a tally's
        total."""
        found = self.leads.take(places)
        for i in np.flatnonzero(found < 0):
            place = int(places[i])
            state = self.states[self.owner[place]]
            found[i], self.adds[place] = self.meet(self.game.apply(state, int(self.outcome[place])))
            self.leads[place] = found[i]
        return found, self.adds.take(places)


class Numbered:
    """The states of a model that numbers them (``Nodes.states`` of a dense one): number ``n`` is the model's
    state ``n - 1``, 0 none (the game over)."""

    def __init__(self, game, size: int):
        self.game, self.size = game, size

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, number: int):
        if not 0 <= number < self.size:
            raise IndexError(number)
        return self.game.numbered(number - 1) if number else None


class ModelVectorEnv(ExactVectorEnv):
    """``shutthebox/<Title>-v0`` of any one-player game model, batched: ``game`` (the registry's name, which the
    registration passes) and the game's rule options, as the one-player environment takes them; ``seat`` plays
    that seat of a game of several players against the table (``ModelEnv(game, seat=k)``, no id of its own)."""

    def __init__(self, num_envs: int = 1, max_episode_steps: int | None = None, exact_info: bool = True, *,
                 game: str, seat: int | None = None, **options):
        from . import MODEL_GAMES, NAMESPACE, SOLO_GAMES
        from .model_env import aec_games

        self.game, self.seat = game, seat
        if seat is not None:  # one seat of a game of several players: no id (the rows' ``ModelEnv`` made directly)
            if game not in aec_games().values():
                raise ValueError("%r is not a game with a game model of several players (%s)"
                                 % (game, ", ".join(sorted(aec_games().values()))))
        else:
            # a game of several players alone (``players=1``: Goat's GoatSolo-v0) is its ``SOLO`` id's
            games = SOLO_GAMES if options.get("players") == 1 and game in SOLO_GAMES.values() else MODEL_GAMES
            ids = {name: "%s/%s" % (NAMESPACE, title) for title, name in games.items()}
            if game not in ids:
                raise ValueError("%r is not a game with a game model (%s)" % (game, ", ".join(sorted(ids))))
            self.ID = ids[game]
        self.nodes: Nodes  # the rule set's states (``_tables``, at the start of ``super().__init__``)
        super().__init__(num_envs, max_episode_steps, exact_info, **options)
        self.node = np.zeros(self.num_envs, dtype=np.int64)  # each row's state number (0 before any reset)
        self.total = np.zeros(self.num_envs)  # each row's total, a tally's (its states are met at total 0)

    def reset(self, *, seed=None, options=None):
        self._current()
        return super().reset(seed=seed, options=options)

    def step(self, actions):
        self._current()
        return super().step(actions)

    def _current(self) -> None:
        """Start the states again once they are too many (``_MOST_STATES``, ``_MOST_PLACES``), or follow another
        environment of the rule set that did: each row's state is met again in the new ones."""
        old: Nodes = self.nodes
        if old.successor is None:
            if old.dense or len(old.states) < _MOST_STATES and old.placed < _MOST_PLACES:
                return
            old.successor = Nodes(self.model)
            if getattr(self.model, "vector_nodes", None) is old:
                self.model.vector_nodes = old.successor
        nodes = old.successor
        while nodes.successor is not None:
            nodes = nodes.successor
        states = old.states
        self.node = np.array([0 if states[k] is None else nodes.intern(states[k]) for k in self.node.tolist()],
                             dtype=np.int64)
        self.number = np.where(self.number == self.tables.over, nodes.tables.over, self.node)
        self.nodes, self.tables = nodes, nodes.tables

    def _single(self, **options):
        if self.seat is None:
            return super()._single(**options)
        from .model_env import ModelEnv

        return ModelEnv(self.game, seat=self.seat, **options)

    def _tables(self) -> Tables:
        nodes = getattr(self.model, "vector_nodes", None)
        if nodes is None:
            nodes = self.model.vector_nodes = Nodes(self.model)
        self.nodes = nodes
        return nodes.tables

    # -- the game's part of ExactVectorEnv ---------------------------------------------------------------

    def _chance(self, rows: np.ndarray, at: np.ndarray | None = None) -> None:
        """Resolve the chance nodes of ``rows`` (at the states ``at``, where the caller has them) with each row's
        dice: an outcome of weight ``w`` of ``total`` drawn with chance ``w / total`` (one die of ``total``
        faces, as ``ModelEnv._chance``), until a decision or the end."""
        nodes, node = self.nodes, self.node
        if at is None:
            at = node.take(rows)
        while len(rows):
            waiting = nodes.kind.take(at) == CHANCE
            if not waiting.any():
                return
            if not waiting.all():
                rows, at = rows[waiting], at[waiting]
                if not len(rows):
                    return
            sides = nodes.one_total if nodes.one_total > 0 else nodes.total.take(at)  # toggle's 36 throws: one
            draw = self.dice.die(rows, sides) - 1
            if nodes.all_uniform or nodes.uniform.take(at).all():  # outcomes of weight 1: the draw is a place
                places = nodes.first.take(at) + draw
            elif nodes.small_laws:  # the outcome's index in its law: its running weights at or below the draw
                places = nodes.first.take(at) + (nodes.law_bounds.take(nodes.law.take(at), axis=0)
                                                 <= draw[:, None]).sum(axis=1)
            else:
                places = np.searchsorted(nodes.bounds, draw + nodes.offset.take(at), side="right")
            at, gain = nodes.lead(places)
            node[rows] = at
            self.total[rows] += gain

    def _start(self, rows) -> np.ndarray:
        rows = np.asarray(rows, dtype=np.int64)
        nodes = self.nodes
        self.node[rows], self.total[rows] = nodes.start, nodes.start_gain
        self._chance(rows)
        ended = nodes.kind[self.node[rows]] == TERMINAL
        if ended.any():
            raise ValueError("a game of %s ended before its first decision: an episode cannot say so"
                             % self.game)
        owed = nodes.returns[self.node[rows]] + self.total[rows]
        if owed.any():
            self.owes = True  # the first step of those games gets it
        return owed

    def _advance(self, restart, go, action) -> tuple:
        """New games where ``restart``, ``action`` played where ``go``: the moves, then the chance after them and
        at the start of the new games, every row at once. The reward is the change of the player's return."""
        nodes, node = self.nodes, self.node
        returning = nodes.returning  # else every return is the row's total (a tally's)
        before = nodes.returns.take(node) + self.total if returning else self.total.copy()
        if go.all():  # every row moves (the usual step): whole arrays, no gathers of the rows
            rows = self.rows
            at, gain = nodes.move(node, action)
            node[:] = at
            self.total += gain
            self._chance(rows, at)
        else:
            rows = np.flatnonzero(go)
            if len(rows):
                at, gain = nodes.move(node.take(rows), action.take(rows))
                node[rows] = at
                self.total[rows] += gain
                self._chance(rows, at)
        starting = np.flatnonzero(restart)
        if len(starting):
            self.owed[starting] = self._start(starting)
        earned = nodes.returns.take(node) + self.total if nodes.returning else self.total
        return earned - before, nodes.kind.take(node) == TERMINAL

    def _numbers(self, rows) -> np.ndarray:
        return self.node[rows]

    def _observe(self) -> np.ndarray:
        return np.take(self.nodes.seen, self.node, axis=0).astype(np.int64)

    # -- the states ----------------------------------------------------------------------------------------

    def get_states(self) -> list:
        """Each row's state: the model's tuple (``ModelEnv.get_state()``; a finished game's last state, None
        before the first reset). ``ModelEnv.reset(options={"state": ...})`` starts from a row's decision."""
        states = self.nodes.states
        found = [states[number] for number in self.node.tolist()]
        if not self.nodes.tally:
            return found
        sign = self.nodes.sign
        return [None if state is None else state[:-1] + (int(sign * total),)
                for state, total in zip(found, self.total.tolist())]

    def state_numbers(self) -> np.ndarray:
        """Each row's state as this process numbers the model's states (``get_states()`` gives the tuples): the
        same state has the same number in every vector environment of the rule set in the process (a tally's at
        every total); a finished game is 0. For tabular learners (the numbers grow as states are met)."""
        return self.number.copy()


__all__ = ["ModelVectorEnv"]
