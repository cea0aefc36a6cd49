"""Native batched environments: many games at once in numpy arrays, the exact info of every row gathered from
tables of every decision state (docs/RL.md).

    envs = gymnasium.make_vec("shutthebox/Pig-v0", num_envs=1024, vectorization_mode="vector_entry_point")

Shut the Box solo, Goat solo and Pig-v0 (every game model's: ``model_vector.py``). Each row is the one-player environment
of the same id step for step: reset(seed=s) gives row i the seed s + i (as Gymnasium's SyncVectorEnv does),
each row draws its dice from its own generator in the same blocks of uniforms and the same order, so a row
plays exactly the game ``gymnasium.make(id).reset(seed=s + i)`` plays with the same actions. Autoreset is
Gymnasium's next-step mode (the step after an episode ends resets that row and ignores its action); the
time limit is the registered one (``max_episode_steps``).

Info, as SyncVectorEnv stacks it (each key with its ``_key`` mask, all True): ``action_mask``,
``optimal_mask`` (int8), ``q_values``, ``q_return`` (float64), ``regret`` (float64), ``illegal`` (bool),
and ``played`` (the action played, under ``illegal="replace"``). ``exact_info=False`` leaves the mask and
``illegal`` alone. The ragged ``optimal_actions`` is left out: ``optimal_mask`` says the same.

Every decision state's answers are computed once per rule set (the same floats as the one-player
environment's, from the same model) and shared by every vector environment of the process.
"""

from __future__ import annotations

import math

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ._base import ILLEGAL, _BLOCK

KEYS = ("action_mask", "optimal_mask", "q_values", "q_return", "regret", "illegal")
# each state's legal actions in ``Tables.legal_lists``: how many, and where they start (past 2 ** 31 in int64)
LISTS = np.dtype([("count", np.int32), ("start", np.int32)])
WIDE_LISTS = np.dtype([("count", np.int32), ("start", np.int64)])


class RowDice:
    """Each row's dice as the one-player environment's ``Dice``: its own generator, a block of ``_BLOCK``
    uniforms at a time, ``int(u * sides) + 1`` a die."""

    def __init__(self, n: int):
        self.generators = [None] * n
        self.block = np.empty((n, _BLOCK))
        self.flat = self.block.reshape(-1)
        self.at = np.full(n, _BLOCK, dtype=np.int64)
        self.base = np.arange(n, dtype=np.int64) * _BLOCK

    def seed(self, rows, seeds) -> None:
        for row, seed in zip(rows, seeds):
            self.generators[row] = seeding.np_random(seed)[0]
            self.at[row] = _BLOCK

    def die(self, rows: np.ndarray, sides) -> np.ndarray:
        """One die for each of ``rows`` (each row at most once), of ``sides`` faces (a number or a row's)."""
        at = self.at[rows]
        if len(at) and at.max() >= _BLOCK:
            empty = at >= _BLOCK
            for row in rows[empty]:
                self.block[row] = self.generators[row].random(_BLOCK)
            at[empty] = 0
        self.at[rows] = at + 1
        return (self.flat[self.base[rows] + at] * sides).astype(np.int64) + 1

    def throw(self, count: np.ndarray, sides: int) -> np.ndarray:
        """Every row throws ``count`` dice (its own number, 0: none) of ``sides`` faces: the sum of each row's,
        the faces ``die`` would give one by one, read from the blocks at once."""
        crossing = self.at + count > _BLOCK
        rows = None
        if crossing.any():  # a row's dice run into its next block (a row every few steps): die by die
            rows = np.flatnonzero(crossing)
            slow = self._one_by_one(rows, sides, count[rows])
            count = np.where(crossing, 0, count)
        # one line a die, the k-th of every row: a row of fewer dice reads past them (clipped at the end of
        # the blocks) and multiplies those faces by 0; a die is int(u * sides) + 1, the ones added as ``count``
        offsets = np.arange(count.max())[:, None]
        uniforms = np.take(self.flat, self.base + self.at + offsets, mode="clip")
        faces = (uniforms * sides).astype(np.int64)
        faces *= offsets < count
        self.at += count
        total = faces.sum(axis=0) + count
        if rows is not None:
            total[rows] = slow
        return total

    def _one_by_one(self, rows, sides, count) -> np.ndarray:
        """``throw`` for ``rows``, one die at a time (``die`` refills a row's block where it runs out)."""
        total = np.zeros(len(rows), dtype=np.int64)
        for k in range(int(count.max())):
            more = count > k
            total[more] += self.die(rows[more], sides)
        return total


class Tables:
    """Every decision state's answers, one row a state number (the game's ``encode``), the last row the game
    over (every action a no-op worth 0)."""

    def __init__(self, n_states: int, n_actions: int, more: bool):
        size = n_states + 1
        worst = -math.inf if more else math.inf
        self.over = n_states
        self.mask = np.zeros((size, n_actions), dtype=np.int8)
        self.optimal = np.zeros((size, n_actions), dtype=np.int8)
        self.q = np.full((size, n_actions), worst)
        self.best = np.zeros(size)
        self.value = np.zeros(size)
        self.mask[n_states] = self.optimal[n_states] = 1
        self.q[n_states] = 0.0
        self.more = more
        self.written = size  # the rows final (a game model's tables write theirs as states are met)
        self.listed = 0  # the rows in the lists of legal actions (``legal_lists``)
        self.lists = np.zeros(0, dtype=LISTS)
        self.actions = np.zeros(0, dtype=np.int16 if n_actions <= 1 << 15 else np.int32)

    def put(self, number: int, decision) -> None:
        actions = list(decision.values)
        self.mask[number, actions] = 1
        self.optimal[number, list(decision.optimal)] = 1
        self.q[number, actions] = list(decision.values.values())
        self.best[number], self.value[number] = decision.best, decision.value

    def finish(self) -> "Tables":
        """One table of flags (the mask, then the optimal actions; ``mask`` and ``optimal`` are views) and the
        values ``q``: a row's info is two gathers, the returns made from the values just gathered (a copy, or
        their negation where fewer is better). A table of the returns too would double the bytes read from
        random rows each step, which cost more than the copy (Shut the Box's rows: 512 values)."""
        n = self.mask.shape[1]
        self.flags = np.concatenate([self.mask, self.optimal], axis=1)
        self.mask, self.optimal = self.flags[:, :n], self.flags[:, n:]
        self.legal = self.mask.view(bool)  # the flags are 0 or 1: read as bools without a comparison
        self.width = n
        return self

    def legal_lists(self) -> tuple:
        """Every state's legal actions end to end (``actions``) and, by state, how many it has and where they start
        (``lists``: ``count`` and ``start`` side by side, one read for both), made from the masks when first asked
        and extended by the rows written since (a game model's, as its states are met). A row of Shut the Box has
        a few legal actions of 512: a draw is then a gather, not a pass over the row's mask. The types are narrow
        (int32 starts while they fit, int16 actions): a draw reads random rows of up to a million states."""
        if self.listed < self.written:
            rows = self.mask[self.listed:self.written]
            counts = rows.sum(axis=1, dtype=np.int64)
            ends = len(self.actions) + np.cumsum(counts)
            kind = LISTS if not len(ends) or ends[-1] < 1 << 31 else WIDE_LISTS
            lists = np.empty(len(counts), dtype=kind)
            lists["count"], lists["start"] = counts, ends - counts
            self.lists = np.concatenate([self.lists.astype(kind), lists])
            actions = (np.flatnonzero(rows) % self.width).astype(self.actions.dtype)
            self.actions = np.concatenate([self.actions, actions])
            self.listed = self.written
        return self.lists, self.actions

    def gather(self, number: np.ndarray) -> tuple:
        """The values and the returns of the states ``number``: two arrays of one new block (glibc reuses one
        allocation step after step; two of half the size went back to the system and were faulted in again
        each step), the returns the values copied, or negated where fewer is better (``-0.0`` as ``-q``)."""
        q, q_return = np.empty((2, len(number), self.width))
        np.take(self.q, number, axis=0, out=q, mode="clip")  # every number is a row: "clip" only skips a buffer
        if self.more:
            np.copyto(q_return, q)
        else:
            np.negative(q, out=q_return)
        return q, q_return


class ExactVectorEnv(VectorEnv):
    """The batched environment of one game: a subclass sets ``ID`` and writes ``_tables()`` (the decision
    states' answers, cached on the model), ``_start(rows)`` (new games: the reward owed to the first step),
    ``_play(rows, actions)`` (legal actions and the chance after them: reward and terminated, for those
    rows), ``_numbers(rows)`` (the state numbers of rows whose game goes on; ``rows`` a list of rows or
    ``slice(None)``, every row) and ``_observe()``. A game may write ``_advance`` (a step's new games and
    moves at once, over every row) instead of ``_play``."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}
    ID = ""

    def __init__(self, num_envs: int = 1, max_episode_steps: int | None = None, exact_info: bool = True, *,
                 illegal: str = "noop", illegal_penalty: float | None = None, render_mode=None, **options):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError("num_envs must be a whole number of at least 1, not %r" % (num_envs,))
        if render_mode is not None:
            raise ValueError("the vector environment does not render: make the one-player environment for that")
        if options.pop("mask_observation", False):
            raise ValueError("mask_observation is the one-player environment's: here infos['action_mask'] has the "
                             "masks")
        single = self._single(exact_info=exact_info, illegal=illegal, illegal_penalty=illegal_penalty, **options)
        if illegal not in ILLEGAL:  # the one-player environment has refused it already
            raise ValueError(illegal)
        self.single = single
        self.model = single.model
        self.num_envs = n = int(num_envs)
        self.max_episode_steps = max_episode_steps
        self.exact_info = bool(exact_info)
        self.illegal, self.illegal_penalty = illegal, single.illegal_penalty
        self.better = single.better
        self.single_observation_space = single.observation_space
        self.single_action_space = single.action_space
        self.observation_space = batch_space(single.observation_space, n)
        self.action_space = batch_space(single.action_space, n)
        self.render_mode = None
        self.n_actions = single.action_space.n
        self.tables = self._tables()
        self.dice = RowDice(n)
        self.rows = np.arange(n)
        self.number = np.full(n, self.tables.over, dtype=np.int64)
        self.steps = np.zeros(n, dtype=np.int64)
        self.owed = np.zeros(n)
        self.owes = False  # whether a game owes rewards to the first step (a game model's: toggle's passes)
        self.autoreset = np.zeros(n, dtype=bool)
        self._seeded = False

    def _single(self, **options):
        """The one-player environment each row plays (``gymnasium.make`` of ``ID``, unwrapped)."""
        return gymnasium.make(self.ID, **options).unwrapped

    # -- the vector API ---------------------------------------------------------------------------

    def reset(self, *, seed=None, options=None):
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if options:
            raise ValueError("reset takes the option 'reset_mask' alone, not %s" % ", ".join(map(repr, options)))
        rows = self.rows if mask is None else self.rows[np.asarray(mask, dtype=bool)]
        if isinstance(seed, (int, np.integer)):  # the generator of ``sample_legal``
            self._np_random, self._np_random_seed = seeding.np_random(int(seed))
        if seed is not None or not self._seeded:
            if seed is None or isinstance(seed, (int, np.integer)):
                seeds = [None if seed is None else int(seed) + int(row) for row in rows]
            else:
                seeds = [seed[int(row)] for row in rows]
            self.dice.seed(rows, seeds)
            self._seeded = True
        self._reset_rows(rows)
        self.autoreset[rows] = False
        zero = np.zeros(self.num_envs)
        return self._observe(), self._infos(rows, zero, np.zeros(self.num_envs, dtype=bool), None)

    def restart(self, ended: np.ndarray) -> np.ndarray:
        """New games in the rows where ``ended`` (a mask) now, not at the next step (Stable-Baselines3's autoreset,
        ``sb3.NativeVecEnv``): ``reset(options={"reset_mask": ended})`` without its infos, which would gather
        every row's. The observations of every row."""
        rows = self.rows[ended]
        self._reset_rows(rows)
        self.autoreset[rows] = False
        return self._observe()

    def _reset_rows(self, rows) -> None:
        if len(rows):
            self.owed[rows] = self._start(rows)
            self.number[rows] = self._numbers(rows)
            self.steps[rows] = 0

    def step(self, actions):
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise ValueError("step takes one action for each of the %d environments, not an array of shape %s"
                             % (self.num_envs, actions.shape))
        # masks over every row, not lists of rows: a row restarts (its action ignored), plays (``go``) or its
        # action is illegal; each is one array operation on all the rows, the game's state moved in one call
        n, tables, number, restart = self.num_envs, self.tables, self.number, self.autoreset
        action, inside = self._in_space(actions)
        staying = ~restart
        go = tables.legal[number, action] & staying
        if inside is not None:
            go &= inside
        illegal = staying ^ go
        rewards = np.zeros(n)
        terminated = np.zeros(n, dtype=bool)
        played = None
        if illegal.any():
            action, played = self._illegal(illegal, action, go, rewards, terminated)
        regret = self._regret(action, go) if self.exact_info else np.zeros(n)
        reward, ended = self._advance(restart, go, action)
        np.add(reward, self.owed, out=rewards, where=go)  # and the reward owed to a game's first step
        if self.owes:
            self.owed[go] = 0.0
        terminated |= go & ended
        np.copyto(number, self._numbers(slice(None)), where=restart | go)  # an illegal no-op keeps its state
        number[terminated] = tables.over
        self.steps += 1
        self.steps[restart] = 0
        if self.max_episode_steps is None:
            truncated = np.zeros(n, dtype=bool)
        else:  # as TimeLimit: even if terminated
            truncated = (self.steps >= self.max_episode_steps) & staying
        self.autoreset = terminated | truncated
        infos = self._infos(self.rows, regret, illegal, played)
        return self._observe(), rewards, terminated, truncated, infos

    def _in_space(self, actions) -> tuple:
        """Each row's action as an int64 of the space (0 where it is outside), and where it is inside (None:
        everywhere)."""
        if actions.dtype.kind in "iu":
            if actions.min() >= 0 and actions.max() < self.n_actions:
                return actions.astype(np.int64, copy=False), None
            inside = (actions >= 0) & (actions < self.n_actions)
            return np.where(inside, actions, 0).astype(np.int64), inside
        n = self.num_envs  # floats and bools are outside the space: illegal
        return np.zeros(n, dtype=np.int64), np.zeros(n, dtype=bool)

    def _illegal(self, illegal, action, go, rewards, terminated) -> tuple:
        """What the illegal actions do: ``end`` ends those games, ``replace`` plays a legal action drawn by the
        row's dice instead (``go`` changed in place). The actions then played, and where one was replaced (the
        action played, -1 elsewhere; None without)."""
        if self.illegal == "end":
            rewards[illegal] = self.illegal_penalty + self.owed[illegal]
            self.owed[illegal] = 0.0
            terminated |= illegal
        elif self.illegal == "replace":
            lost = np.flatnonzero(illegal)
            masks = self.tables.mask[self.number[lost]]
            counts = masks.sum(axis=1)
            pick = self.dice.die(lost, counts)  # the k-th legal action, as the one-player environment draws it
            action = action.copy()  # perhaps the caller's array
            action[lost] = np.argmax(np.cumsum(masks, axis=1) >= pick[:, None], axis=1)
            go |= illegal
            played = np.full(self.num_envs, -1, dtype=np.int64)
            played[lost] = action[lost]
            return action, played
        return action, None

    def _regret(self, action, go) -> np.ndarray:
        """What each played action loses against the best (0 where optimal, and where nothing was played)."""
        tables, number = self.tables, self.number
        lost = go > tables.optimal[number, action]  # played, and not optimal (flag 0)
        return np.where(lost, np.abs(tables.best[number] - tables.q[number, action]), 0.0)

    def _advance(self, restart, go, action) -> tuple:
        """New games where ``restart``, ``action`` played where ``go`` (masks of rows, never both): each row's
        reward and whether its game ended (read where ``go``). A game whose new games and moves share work (Shut
        the Box throws the dice for both at once) writes its own."""
        n = self.num_envs
        reward, ended = np.zeros(n), np.zeros(n, dtype=bool)
        rows = np.flatnonzero(restart)
        if len(rows):
            self.owed[rows] = self._start(rows)
        rows = np.flatnonzero(go)
        if len(rows):
            reward[rows], ended[rows] = self._play(rows, action[rows])
        return reward, ended

    def _infos(self, rows, regret, illegal, played) -> dict:
        tables, number = self.tables, self.number
        everyone = np.ones(self.num_envs, dtype=bool)
        n = tables.width
        flags = np.take(tables.flags, number, axis=0)
        infos = {"action_mask": flags[:, :n], "illegal": illegal}
        if self.exact_info:
            q, q_return = tables.gather(number)
            if self.owes:
                owed = self.owed != 0.0
                if owed.any():
                    q_return[owed] += self.owed[owed, None]
            infos.update(optimal_mask=flags[:, n:], q_values=q, q_return=q_return, regret=regret)
        if played is not None:
            infos["played"] = played
        for key in list(infos):
            infos["_" + key] = everyone
        if played is not None:  # as SyncVectorEnv: only where an illegal action was replaced
            infos["_played"] = played >= 0
        return infos

    def sample_legal(self) -> np.ndarray:
        """A legal action for each row (int64), uniformly at random among the row's legal actions (a finished
        game's: any action), drawn from the environment's own generator ``np_random`` (seeded by
        ``reset(seed=n)``), never the rows' dice: each row still plays the one-player environment's game. One
        uniform a row, its index in the state's list of legal actions (``Tables.legal_lists``)."""
        lists, actions = self.tables.legal_lists()
        listed = lists.take(self.number)  # take, not [...]: numpy's fancy indexing costs more on one axis
        uniforms = self.np_random.random(self.num_envs)
        uniforms *= listed["count"]
        pick = uniforms.astype(np.int64)
        pick += listed["start"]
        return actions.take(pick).astype(np.int64)

    def action_masks(self) -> np.ndarray:
        """The legal actions of every row (int8, rows x actions), as sb3-contrib asks of a vector env."""
        return np.take(self.tables.mask, self.number, axis=0)

    def state_numbers(self) -> np.ndarray:
        """Each row's state as the one-player environment's ``encode`` numbers it (``decode`` gives the tuple);
        a finished game is ``len(P)``, one past every state: for tabular learners."""
        return self.number.copy()

    def values(self) -> np.ndarray:
        """Each row's exact value now, in the game's unit (the one-player environment's ``value()``)."""
        value = self.tables.value[self.number]
        return value + (self.owed if self.better == "more" else -self.owed)

    def close_extras(self, **kwargs):
        pass

    # -- a game's part --------------------------------------------------------------------------

    def _tables(self) -> Tables:
        raise NotImplementedError

    def _start(self, rows) -> np.ndarray:
        raise NotImplementedError

    def _play(self, rows, actions):
        raise NotImplementedError

    def _numbers(self, rows) -> np.ndarray:
        raise NotImplementedError

    def _observe(self) -> np.ndarray:
        raise NotImplementedError


def _cached_tables(model, build) -> Tables:
    found = getattr(model, "vector_tables", None)
    if found is None:
        found = model.vector_tables = build()
    return found


def _loop_tables(model, numbers_and_keys, n_states: int) -> Tables:
    """Tables from the model's decisions, state by state (the small games)."""
    tables = Tables(n_states, model.n_actions, model.more)
    for number, key in numbers_and_keys:
        tables.put(number, model.decision(key, True))
    return tables.finish()


# -- Shut the Box solo -------------------------------------------------------------------------------------


class ShutTheBoxSoloVectorEnv(ExactVectorEnv):
    """``shutthebox/ShutTheBoxSolo-v0``, batched (its options: ``variant``, ``objective`` or the rule options)."""

    ID = "shutthebox/ShutTheBoxSolo-v0"

    def __init__(self, num_envs: int = 1, max_episode_steps=None, exact_info: bool = True, **options):
        super().__init__(num_envs, max_episode_steps, exact_info, **options)
        model = self.model
        rules = model.rules
        self.width, self.throw, self.dice_count = model.width, model.throw, rules.dice
        self.all_open, self.sides = rules.all_open, rules.sides
        positions = model.positions
        self.chooses = any(len(c) > 1 for c in model.choices)  # one die optional: the two throwing actions
        # the dice thrown after a move or at the start, by position: the rules' count, 0 where the player
        # chooses (the dice wait for a throwing action) and once the box is shut
        self.ready_dice = np.array([0 if len(c) > 1 else c[0] for c in model.choices], dtype=np.int64)
        self.ready_dice[0] = 0
        self.stop, self.payoff = self._endings()
        self.tiles = rules.tiles
        # an observation by position: its tiles' bits, then a column for the roll
        self.seen = np.zeros((positions, rules.tiles + 1), dtype=np.int64)
        self.seen[:, :rules.tiles] = np.arange(positions)[:, None] >> np.arange(rules.tiles) & 1
        self.position = np.full(self.num_envs, self.all_open, dtype=np.int64)
        self.roll = np.zeros(self.num_envs, dtype=np.int64)

    def _tables(self) -> Tables:
        model = self.model

        def build():
            def states():
                for position in range(1, model.positions):
                    choices = model.choices[position]
                    if len(choices) > 1:
                        yield position * model.width, (position, 0)
                    thrown = set().union(*(model.weights[dice] for dice in choices))
                    for roll in sorted(thrown.intersection(model.legal(position))):
                        yield position * model.width + roll, (position, roll)

            return _loop_tables(model, states(), model.positions * model.width)

        return _cached_tables(model, build)

    def _endings(self) -> tuple:
        """By state number (position * width + roll): whether the game is over there (the box shut, or no move
        fits the roll), and the reward it ends with (``-stuck + 0.0``: -0.0 as 0.0, as the one-player env)."""
        model, width = self.model, self.width
        stop = np.zeros(model.positions * width, dtype=bool)
        payoff = np.zeros(model.positions * width)
        stop[:width] = True  # position 0: the box is shut
        payoff[:width] = 1.0 if self.single.objective == "shut" else 0.0
        stuck = np.array(model.stuck)
        for position in range(1, model.positions):
            fits = model.legal(position)
            for roll in range(1, width):
                if roll not in fits:
                    stop[position * width + roll] = True
                    payoff[position * width + roll] = -stuck[position] + 0.0
        return stop, payoff

    def _start(self, rows) -> np.ndarray:
        restart = np.zeros(self.num_envs, dtype=bool)
        restart[rows] = True
        nothing = np.zeros(self.num_envs, dtype=bool)
        # never ends: the one-player environment refuses rules where a first roll fits no move
        self._advance(restart, nothing, np.zeros(self.num_envs, dtype=np.int64))
        return np.zeros(len(rows))

    def _advance(self, restart, go, action) -> tuple:
        """New games and moves at once: every row that throws (a new game, a move leaving tiles open, a
        throwing action) throws in one call. New games owe nothing (``owed`` stays 0)."""
        position, roll = self.position, self.roll
        moves = go & (action < self.throw) if self.chooses else go
        np.bitwise_xor(position, action, out=position, where=moves)
        position[restart] = self.all_open
        ready = restart | moves
        dice = np.where(ready, self.ready_dice[position], 0)
        if self.chooses:
            throws = go ^ moves
            np.copyto(dice, np.where(action == self.throw + 1, 1, self.dice_count), where=throws)
            ready |= throws
        # no dice showing where they wait for the player's choice and once the box is shut (0 dice thrown)
        np.copyto(roll, self.dice.throw(dice, self.sides), where=ready)
        number = position * self.width + roll
        return self.payoff[number], self.stop[number]

    def _numbers(self, rows) -> np.ndarray:
        return self.position[rows] * self.width + self.roll[rows]

    def _observe(self) -> np.ndarray:
        seen = np.take(self.seen, self.position, axis=0)
        seen[:, self.tiles] = self.roll
        return seen


# -- Goat solo ---------------------------------------------------------------------------------------------


class PigVectorEnv(ExactVectorEnv):
    """``shutthebox/Pig-v0``, batched (``variant``, ``goal``, ``sides``, ``seat``): the opponents' whole turns
    played by the table's moves, all rows at once."""

    ID = "shutthebox/Pig-v0"

    def __init__(self, num_envs: int = 1, max_episode_steps=None, exact_info: bool = True, **options):
        from ..games.pig.rules import ADD, BUST
        from .pig import classify, dice_of

        super().__init__(num_envs, max_episode_steps, exact_info, **options)
        model = self.model
        self.goal, self.seat = model.goal, self.single.seat
        self.faces, self.count = dice_of(model.variant, model.sides)
        # what the faces do, by (first face, second face): points added, or -1 a bust, -2 a reset
        self.effect = np.zeros((self.faces + 1, self.faces + 1), dtype=np.int64)
        for a in range(1, self.faces + 1):
            for b in range(1, self.faces + 1):
                kind, points = classify(model.variant, (a,) if self.count == 1 else (a, b))
                self.effect[a, b] = points if kind == ADD else (-1 if kind == BUST else -2)
        self.effect_one = self.effect[:, 1].copy()
        self.move = np.asarray(model.move, dtype=np.int8)
        goal = model.goal
        self.row_start = np.array([i * goal - i * (i - 1) // 2 for i in range(goal)], dtype=np.int64)
        n = self.num_envs
        self.mine = np.zeros(n, dtype=np.int64)
        self.other = np.zeros(n, dtype=np.int64)
        self.turn = np.zeros(n, dtype=np.int64)

    def _tables(self) -> Tables:
        model = self.model

        def build():
            from ..games.pig.rules import ADD, BUST

            goal = model.goal
            win, move = np.asarray(model.win), np.asarray(model.move, dtype=bool)
            mine, other, turn = (a.ravel() for a in np.meshgrid(np.arange(goal), np.arange(goal), np.arange(goal),
                                                                indexing="ij"))
            keep = mine + turn < goal
            mine, other, turn = mine[keep], other[keep], turn[keep]

            def index(i, j, k):
                return (i * goal - i * (i - 1) // 2 + k) * goal + j

            at = index(mine, other, turn)
            total = np.zeros(len(at))
            for count, kind, points in model.outcomes:  # the table's order and sums, as PigModel.roll_value
                if kind == BUST:
                    value = 1.0 - win[index(other, mine, 0)]
                elif kind == ADD:
                    reach = mine + turn + points >= goal
                    value = np.where(reach, 1.0, win[index(mine, other, np.where(reach, 0, turn + points))])
                else:
                    value = 1.0 - win[index(other, 0, 0)]
                total += count * value
            roll = np.where(move[at], win[at], total / model.denominator)
            hold = 1.0 - win[index(other, np.minimum(mine + turn, goal - 1), 0)]
            holds = turn > 0
            numbers = (mine * (goal + 1) + other) * goal + turn
            tables = Tables((goal + 1) * (goal + 1) * goal, 2, True)
            tables.mask[numbers, 1] = 1
            tables.mask[numbers[holds], 0] = 1
            tables.q[numbers, 1] = roll
            tables.q[numbers[holds], 0] = hold[holds]
            best = np.where(holds, np.maximum(roll, np.where(holds, hold, -np.inf)), roll)
            tables.best[numbers], tables.value[numbers] = best, win[at]
            tables.optimal[numbers, 1] = (np.abs(roll - best) <= model.tie) | move[at]
            tables.optimal[numbers[holds], 0] = ((np.abs(hold - best) <= model.tie) | ~move[at])[holds]
            return tables.finish()

        return _cached_tables(model, build)

    def _throw(self, rows) -> np.ndarray:
        first = self.dice.die(rows, self.faces)
        if self.count == 1:
            return self.effect_one[first]
        return self.effect[first, self.dice.die(rows, self.faces)]

    def _opponent(self, rows) -> np.ndarray:
        """The opponents' whole turns by the table's moves; True where the opponent reaches the goal."""
        goal, move = self.goal, self.move
        won = np.zeros(len(rows), dtype=bool)
        final = self.other[rows]
        # the rows still playing, one column each: where in ``rows``, the row, its opponent's banked score, the
        # table's index of (opponent, agent, turn total 0) (a turn total k adds k * goal), the points the
        # opponent needs, the turn total
        playing = np.stack([np.arange(len(rows)), rows, final, self.row_start[final] * goal + self.mine[rows],
                            goal - final, np.zeros(len(rows), dtype=np.int64)])
        while playing.shape[1]:
            where, some, other, base, need, turn = playing
            holds = move[base + turn * goal] == 0  # at turn total 0 the table rolls
            if holds.any():
                final[where[holds]] = other[holds] + turn[holds]
                playing = playing[:, ~holds]
                where, some, other, base, need, turn = playing
            effect = self._throw(some)
            turn += effect  # a bust (-1) or a reset (-2) ends the turn: its total is not read again
            adds = effect > 0
            reached = adds & (turn >= need)
            if reached.any():
                final[where[reached]] = other[reached] + turn[reached]
                won[where[reached]] = True
            reset = effect == -2
            if reset.any():
                final[where[reset]] = 0  # two-dice's double 1s; a bust keeps the banked score
            playing = playing[:, adds & ~reached]
        self.other[rows] = final
        return won

    def _their_turn(self, rows) -> np.ndarray:
        self.turn[rows] = 0
        return self._opponent(rows)

    def _start(self, rows) -> np.ndarray:
        self.mine[rows] = self.other[rows] = self.turn[rows] = 0
        if self.seat == 1:
            self._opponent(rows)  # never reaches the goal: refused when the environment was made
        return np.zeros(len(rows))

    def _play(self, rows, actions):
        reward = np.zeros(len(rows))
        ended = np.zeros(len(rows), dtype=bool)
        holds = actions == 0
        self.mine[rows[holds]] += self.turn[rows[holds]]
        over = holds.copy()
        rolling = ~holds
        if rolling.any():
            some = rows[rolling]
            effect = self._throw(some)
            adds = effect > 0
            turn = self.turn[some] + np.where(adds, effect, 0)
            reached = adds & (self.mine[some] + turn >= self.goal)
            self.turn[some[adds]] = turn[adds]
            self.mine[some[reached]] += turn[reached]
            self.turn[some[reached]] = 0
            self.mine[some[effect == -2]] = 0
            place = np.flatnonzero(rolling)
            reward[place[reached]] = 1.0
            ended[place[reached]] = True
            over[place[~adds]] = True
        if over.any():
            ended[over] = self._their_turn(rows[over])
        return reward, ended

    def _numbers(self, rows) -> np.ndarray:
        goal = self.goal
        return (np.minimum(self.mine[rows], goal) * (goal + 1) + np.minimum(self.other[rows], goal)) * goal \
            + self.turn[rows]

    def _observe(self) -> np.ndarray:
        seen = np.empty((self.num_envs, 3), dtype=np.int64)
        seen[:, 0], seen[:, 1], seen[:, 2] = self.mine, self.other, self.turn
        return seen


__all__ = ["ExactVectorEnv", "PigVectorEnv", "ShutTheBoxSoloVectorEnv"]
