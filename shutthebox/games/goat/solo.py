"""Goat alone as a game model (``engine/model.py``): reach the goal in the fewest turns, the values read from the
table's ``solo`` arrays (``goat --solo``). ``model.model(rules, players=1)`` gives it; ``shutthebox/GoatSolo-v0``
is its Gymnasium environment.

A state is ``(banked, turn total, rolls taken, dice rolling, turns)``: the banked score (the goal once reached:
the end), the turn so far, the dice of a roll under way (k > 0: the chance node of a roll of k dice, outcome 0 a
match and s > 0 the sum s of k different faces, as the two-player model's) and the turns ended so far. Actions:
0 stop (bank the turn total; not before the turn's first roll), k roll k dice; a match ends the turn with
nothing, the third roll ends it and banks. The one seat's return is minus the turns: ``tally`` -1, the last field
is minus the return and nothing else depends on it. A decision's values are minus the turns so far and the
table's expected turns after the action, this turn counted (one Bellman step, summed in the solver's order:
``action_values``); the table's move is its ``solo_move``.

Every state less its turns is numbered: the decisions ``(min(banked, goal) * 43 + turn) * 3 + rolls`` (the
numbers ``encode`` gave before the model), then the rolls under way after them.
"""

from __future__ import annotations

from ...engine.model import CHANCE, TERMINAL, State
from .law import THROWS, action_values
from .rules import DICE, MAX_GAIN, ROLLS, SLOTS, check_turn, slot
from .table import load

TIE = 1e-11  # the table's tie (docs/GOAT.md), where its header gives none
TURN = 2 * 21 + 1  # the turn totals 0..42 before the third roll
UNBOUNDED = 1 << 62  # no bound on the turns: the most the tally's field can be


class GoatSoloModel:
    """``engine.model.GameModel`` for Goat alone under one goal."""

    id = "goat"
    players = 1
    n_actions = 1 + DICE
    n_outcomes = 1 + max(total for throws, _ in THROWS.values() for total, _ in throws)
    max_length = 100_000  # unbounded in principle: matches may end every turn
    min_return, max_return = float("-inf"), -1.0  # at least one turn
    tally = -1  # the turns, minus the return
    numbers = True
    # an illegal action's default penalty in the learning environments: minus the registered time limit's steps
    illegal_penalty = -1000.0

    def __init__(self, rules) -> None:  # a Rules (goal, choose)
        self.rules, self.goal = rules, rules.goal
        self.observation_nvec = (rules.goal + 1, TURN, ROLLS, UNBOUNDED)
        self.decisions = (rules.goal + 1) * TURN * ROLLS  # the decision states' numbers: then the rolls
        table = load(rules)
        self.tie = float(table.file.header.get("tie", TIE))
        self.table = table.file.whole("solo").tolist()  # expected turns from each slot, this turn counted
        self.moves = table.file.whole("solo_move").tolist()

    def __reduce__(self):
        return (GoatSoloModel, (self.rules,))

    def initial(self) -> State:
        return (0, 0, 0, 0, 0)

    def player(self, state: State) -> int:
        if state[0] >= self.goal:
            return TERMINAL
        return CHANCE if state[3] else 0

    def legal(self, state: State) -> list[int]:
        return list(range(0 if state[2] else 1, DICE + 1))

    def outcomes(self, state: State) -> tuple[list[tuple[int, int]], int]:
        return THROWS[state[3]]

    def _bank(self, banked: int, turns: int) -> State:
        return (min(banked, self.goal), 0, 0, 0, turns + 1)

    def apply(self, state: State, action: int) -> State:
        banked, turn, rolls, dice, turns = state
        if not dice:
            return (banked, turn, rolls, action, turns) if action else self._bank(banked + turn, turns)
        if not action:  # a match: the turn ends with nothing
            return self._bank(banked, turns)
        if rolls + 1 == ROLLS:  # the third roll ends the turn and banks
            return self._bank(banked + turn + action, turns)
        return (banked, turn + action, rolls + 1, 0, turns)

    def returns(self, state: State) -> list[float]:
        return [-float(state[4])]

    def _index(self, banked: int, turn: int, rolls: int) -> int:
        return banked * SLOTS + slot(rolls, turn)

    def expected(self, state: State) -> dict[int, float]:
        """A decision's legal actions, each with the expected turns from it, this turn counted (the table's)."""
        banked, turn, rolls = state[0], state[1], state[2]
        check_turn(turn, rolls)
        values, goal, base = self.table, self.goal, banked * SLOTS

        def payoff(gain):
            total = banked + gain
            return 1.0 + values[total * SLOTS] if total < goal else 1.0

        def later(total, taken):
            return values[base + slot(taken, total)]

        return action_values(rolls > 0, turn, rolls, payoff, later)

    def values(self, state: State) -> dict[int, float]:
        turns = state[4]
        return {action: -(turns + value) for action, value in self.expected(state).items()}

    def value(self, state: State) -> list[float]:
        banked, turn, rolls, dice, turns = state
        if banked >= self.goal:
            return [-float(turns)]
        if dice:  # the roll of k dice under way: the action's value
            return [-(turns + self.expected(state)[dice])]
        return [-(turns + self.table[self._index(banked, turn, rolls)])]

    def best(self, state: State) -> int:
        return self.moves[self._index(state[0], state[1], state[2])]

    def observation(self, state: State, seat: int = 0) -> list[int]:
        return [state[0], state[1], state[2], state[4]]

    def action_text(self, state: State, action: int) -> str:
        return "roll %d" % action if action else "stop"

    def outcome_text(self, state: State, outcome: int) -> str:
        return "+%d" % outcome if outcome else "match"

    def state_text(self, state: State) -> str:
        banked, turn, rolls, dice, turns = state
        spent = "%d turn%s" % (turns, "" if turns == 1 else "s")
        if banked >= self.goal:
            return "banked %d: the goal %d is reached after %s" % (banked, self.goal, spent)
        rolling = ", rolling %d dice" % dice if dice else ""
        return "banked %d, turn total %d after %d roll%s%s, %s so far" % (
            banked, turn, rolls, "" if rolls == 1 else "s", rolling, spent)

    def question(self, state: State) -> list[str]:
        """The command line's words asking for the move at the decision ``state`` (``goat --solo --move``)."""
        return ["goat", "--goal", str(self.goal), "--solo", "--move", str(state[0]), str(state[1]), str(state[2])]

    def board(self, state: State) -> list:
        """The picture's rows: the goal and the banked score; the turn total and its rolls."""
        banked, turn, rolls = state[0], state[1], state[2]
        return [[("text", "goal"), ("text", str(self.goal)), ("text", "banked"),
                 ("text", str(banked), len(str(self.goal + MAX_GAIN)))],
                [("text", "turn"), ("text", str(turn), len(str(MAX_GAIN))), ("text", "rolls")]
                + [("tile", "", taken < rolls) for taken in range(ROLLS)]]

    # -- every state numbered (``engine/model.py``, "numbers"): a state less its turns --------------------------

    @property
    def n_states(self) -> int:
        return self.decisions * (1 + DICE)

    def number(self, state: State) -> int:
        """A decision's ``(banked * 43 + turn) * 3 + rolls``; a roll of k dice under way after every decision."""
        banked, turn, rolls, dice = state[0], state[1], state[2], state[3]
        at = (min(banked, self.goal) * TURN + turn) * ROLLS + rolls
        return at if not dice else self.decisions + at * DICE + dice - 1

    def numbered(self, number: int) -> State:
        """The state of ``number``, its turns 0; a number no game reaches (a turn total its rolls cannot make, a
        roll at the goal) is the end, as ``dense()`` has it."""
        if not 0 <= number < self.n_states:
            raise ValueError("Goat to %d numbers its states 0 to %d, not %d" % (self.goal, self.n_states - 1, number))
        at, dice = (number, 0) if number < self.decisions else divmod(number - self.decisions, DICE)
        if number >= self.decisions:
            dice += 1
        rest, rolls = divmod(at, ROLLS)
        banked, turn = divmod(rest, TURN)
        low, high = (0, 0) if not rolls else (rolls, 21 * rolls)
        if banked >= self.goal or not low <= turn <= high:
            return (self.goal, 0, 0, 0, 0)
        return (banked, turn, rolls, dice, 0)

    def dense(self) -> dict:
        """Every numbered state at once, as numpy arrays (``engine/model.py``, "numbers"): what ``player``,
        ``returns``, ``observation``, ``values``, ``value``, ``best``, ``apply`` and ``outcomes`` say of each, the
        same floats (each decision's values are ``values``' own). A number no turn reaches is an end."""
        import numpy as np

        goal, size, decisions = self.goal, self.n_states, self.decisions
        grid = np.arange(decisions)
        banked, turn, rolls = grid // (TURN * ROLLS), grid // ROLLS % TURN, grid % ROLLS
        valid = (banked < goal) & np.where(rolls == 0, turn == 0, (rolls <= turn) & (turn <= 21 * rolls))
        rows = np.flatnonzero(valid)  # the decisions

        def bank(total):
            return np.minimum(total, goal) * TURN * ROLLS  # the number of the next turn's start (or the end)

        kind = np.full(size, TERMINAL, dtype=np.int64)
        kind[rows] = 0
        seen = np.zeros((size, 3), dtype=np.int64)
        seen[:decisions] = np.stack([banked, turn, rolls], axis=1)
        seen[decisions:] = np.repeat(seen[:decisions], DICE, axis=0)
        q = np.full((size, self.n_actions), -np.inf)
        value, best = np.zeros(size), np.zeros(size, dtype=np.int64)
        for number in rows.tolist():
            state = self.numbered(number)
            for action, worth in self.values(state).items():
                q[number, action] = worth
            value[number], best[number] = self.value(state)[0], self.best(state)
        after = np.zeros((size, self.n_actions), dtype=np.int64)
        gain = np.zeros((size, self.n_actions), dtype=np.int64)
        stopping = rows[rolls[rows] > 0]
        after[stopping, 0], gain[stopping, 0] = bank(banked[stopping] + turn[stopping]), -1
        chance = (decisions + rows[:, None] * DICE + np.arange(DICE)).ravel()  # each decision's rolls, in order
        after[rows, 1:] = chance.reshape(len(rows), DICE)
        kind[chance] = CHANCE
        weights = np.zeros((len(chance), self.n_outcomes), dtype=np.int64)
        leads = np.zeros((len(chance), self.n_outcomes), dtype=np.int64)
        adds = np.zeros((len(chance), self.n_outcomes), dtype=np.int64)
        for k in range(1, DICE + 1):
            at = np.arange(k - 1, len(chance), DICE)  # the rolls of k dice
            b, t, r = banked[rows], turn[rows], rolls[rows]
            last = r + 1 == ROLLS
            leads[at, :], adds[at, :] = bank(b)[:, None], -1  # a match (and the sums k dice cannot show)
            for outcome, weight in THROWS[k][0]:
                weights[at, outcome] = weight
                if outcome:
                    later = (b * TURN + t + outcome) * ROLLS + r + 1  # the next roll's decision
                    leads[at, outcome] = np.where(last, bank(b + t + outcome), later)
                    adds[at, outcome] = np.where(last, -1, 0)
        return {"kind": kind, "returns": np.zeros(size), "seen": seen, "q": q, "value": value, "best": best,
                "after": after, "gain": gain, "chance": chance, "weights": weights, "leads": leads, "adds": adds}
