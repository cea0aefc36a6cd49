"""Pig for two players as a game model (``engine/model.py``), its values read from the game's table.

A state is ``(banked of seat 0, of seat 1, turn total, seat to move, rolling)``: ``rolling`` 1 is the chance node
of a roll (outcome ``i``: the rules' ``outcomes()[i]``). Actions: 0 hold (not at turn total 0: a turn starts with
a roll), 1 roll. Reaching the goal wins at once; the returns are win shares (1 the winner, 0 the other).

The mover's values are the table's, summed as the table sums them (``pig --options``): a hold of k is worth
``1 - win(j, i + k, 0)``; a roll the table's ``win(i, j, k)`` where the table rolls, else the mean over one roll's
outcomes, in the rules' order, of ``win(i, j, k + points)`` (1 past the goal), ``1 - win(j, i, 0)`` after a bust
and ``1 - win(j, 0, 0)`` after Two-Dice Pig's reset: the same floats as the command's.
"""

from __future__ import annotations

from typing import Any

from ...engine.model import CHANCE, TERMINAL, State
from .rules import ADD, BUST, DEFAULT_GOAL, Rules
from .table import load

PLAYERS = 2
HOLD, ROLL = 0, 1
TIE = 1e-11  # the table's tie (docs/PIG.md), where its header gives none
_MODELS: dict = {}


def model(rules: Any = None) -> "PigModel":
    """The model of ``rules`` (default: Pig to 100), made once per process; its table is read when a value is
    first asked (the rules alone need none)."""
    rules = Rules() if rules is None else rules
    found = _MODELS.get(rules)
    if found is None:
        found = _MODELS[rules] = PigModel(rules)
    return found


def rule_words(rules: Any) -> list[str]:
    """The command line's options for ``rules``, the defaults left out."""
    words = []
    if rules.variant != "pig":
        words += ["--variant", rules.variant]
    if rules.goal != DEFAULT_GOAL[rules.variant]:
        words += ["--goal", str(rules.goal)]
    if rules.variant == "pig" and rules.sides != 6:
        words += ["--sides", str(rules.sides)]
    return words


class PigModel:
    """``engine.model.GameModel`` for two-player Pig under one rule set."""

    id = "pig"
    players = PLAYERS
    n_actions = 2
    max_length = 100_000  # unbounded in principle (busts come back); no game comes near this many decisions
    min_return, max_return = 0.0, 1.0
    constant_sum = 1.0  # the returns are win shares
    observer = 4  # the observation's field of the observer's own seat (PettingZoo's state() leaves it out)
    value_info = "win_chance"  # every seat's exact value, in each agent's info at every step
    fold_chance = True  # a roll's chance node follows its decision alone (the best response folds them)
    exact = False  # a turn may come back to a state (two busts): best responses in float64, as the table

    def __init__(self, rules: Any) -> None:  # a Rules (a RuleSet: its options are attributes)
        self.rules = rules
        self.goal = goal = rules.goal
        self.rolled = rules.outcomes()
        self.denominator = rules.denominator()
        self.n_outcomes = len(self.rolled)
        self.top = max(points for _, kind, points in self.rolled if kind == ADD)  # the most one roll adds
        self.observation_nvec = (goal + self.top, goal + self.top, goal, 2, 2)
        self._outcomes = [(index, count) for index, (count, _, _) in enumerate(self.rolled)]
        self._table: tuple | None = None

    def __reduce__(self):
        return (model, (self.rules,))

    # -- the table ----------------------------------------------------------------------------------------

    def table(self) -> tuple:
        """``(win, move, tie)``: the table's arrays as lists and its tie, read once."""
        if self._table is None:
            table = load(self.rules)
            tie = float(table.file.header.get("tie", TIE))
            self._table = (table.file.whole("win").tolist(), table.file.whole("move").tolist(), tie)
        return self._table

    @property
    def win(self) -> list:
        return self.table()[0]

    @property
    def move(self) -> list:
        return self.table()[1]

    @property
    def tie(self) -> float:
        return self.table()[2]

    def index(self, mine: int, other: int, turn: int) -> int:
        """The flat index of ``(mine, other, turn)`` in the table (docs/FORMAT.md section 10)."""
        goal = self.goal
        return (mine * goal - mine * (mine - 1) // 2 + turn) * goal + other

    def hold_value(self, mine: int, other: int, turn: int) -> float:
        banked = mine + turn
        return 1.0 if banked >= self.goal else 1.0 - self.win[self.index(other, banked, 0)]

    def roll_value(self, mine: int, other: int, turn: int) -> float:
        win, move = self.table()[:2]
        index = self.index
        at = index(mine, other, turn)
        if move[at]:
            return win[at]
        goal, total = self.goal, 0.0
        for count, kind, points in self.rolled:  # the table's order and sums (PigTable._roll)
            if kind == BUST:
                value = 1.0 - win[index(other, mine, 0)]
            elif kind == ADD:
                value = 1.0 if mine + turn + points >= goal else win[index(mine, other, turn + points)]
            else:  # reset
                value = 1.0 - win[index(other, 0, 0)]
            total += count * value
        return total / self.denominator

    # -- the game model -----------------------------------------------------------------------------------

    def initial(self) -> State:
        return (0, 0, 0, 0, 0)

    def player(self, state: State) -> int:
        first, second, _, seat, rolling = state
        if first >= self.goal or second >= self.goal:
            return TERMINAL
        return CHANCE if rolling else seat

    def legal(self, state: State) -> list[int]:
        return [HOLD, ROLL] if state[2] else [ROLL]

    def outcomes(self, state: State) -> tuple[list[tuple[int, int]], int]:
        return self._outcomes, self.denominator

    def apply(self, state: State, action: int) -> State:
        first, second, turn, seat, rolling = state
        banked = [first, second]
        if not rolling:
            if action == ROLL:
                return (first, second, turn, seat, 1)
            banked[seat] += turn
            return (banked[0], banked[1], 0, 1 - seat, 0)
        _, kind, points = self.rolled[action]
        if kind == ADD:
            if banked[seat] + turn + points >= self.goal:
                banked[seat] += turn + points
                return (banked[0], banked[1], 0, seat, 0)
            return (first, second, turn + points, seat, 0)
        if kind != BUST:  # two-dice's double 1s
            banked[seat] = 0
        return (banked[0], banked[1], 0, 1 - seat, 0)

    def returns(self, state: State) -> list[float]:
        if state[0] >= self.goal:
            return [1.0, 0.0]
        return [0.0, 1.0] if state[1] >= self.goal else [0.0, 0.0]

    def _mover(self, state: State) -> tuple[int, int, int]:
        first, second, turn, seat, _ = state
        return (first, second, turn) if seat == 0 else (second, first, turn)

    def decision_key(self, state: State) -> tuple[int, int, int]:
        """What a decision depends on: the mover's banked score, the other's, the turn total."""
        return self._mover(state)

    def values(self, state: State) -> dict[int, float]:
        mine, other, turn = self._mover(state)
        values = {ROLL: self.roll_value(mine, other, turn)}
        if turn:
            values[HOLD] = self.hold_value(mine, other, turn)
        return values

    def value(self, state: State) -> list[float]:
        if self.player(state) == TERMINAL:
            return self.returns(state)
        mine, other, turn = self._mover(state)
        chance = self.roll_value(mine, other, turn) if state[4] else self.win[self.index(mine, other, turn)]
        return [chance, 1.0 - chance] if state[3] == 0 else [1.0 - chance, chance]

    def best(self, state: State) -> int:
        mine, other, turn = self._mover(state)
        return ROLL if not turn else self.move[self.index(mine, other, turn)]

    def observation(self, state: State, seat: int) -> list[int]:
        first, second, turn, mover, _ = state
        banked = (first, second)
        return [banked[seat], banked[1 - seat], turn, mover, seat]

    def action_text(self, state: State, action: int) -> str:
        return "roll" if action == ROLL else "hold"

    def outcome_text(self, state: State, outcome: int) -> str:
        _, kind, points = self.rolled[outcome]
        return "+%d" % points if kind == ADD else kind

    def state_text(self, state: State) -> str:
        first, second, turn, seat, rolling = state
        if self.player(state) == TERMINAL:
            return "final: player_0 %d, player_1 %d" % (first, second)
        return "player_0 %d, player_1 %d, player_%d %s, turn total %d" % (
            first, second, seat, "rolling" if rolling else "to move", turn)

    def question(self, state: State) -> list[str]:
        """The command line's words asking for the mover's chances (``pig --options``)."""
        mine, other, turn = self._mover(state)
        return ["pig"] + rule_words(self.rules) + ["--options", str(mine), str(other), str(turn)]

    def board(self, state: State) -> list:
        """The picture's rows: the goal; each seat's banked score, the mover's lit; the turn total."""
        first, second, turn, seat, _ = state
        most = str(self.goal + self.top)  # a score or turn total shown is below it
        return [[("text", "goal"), ("text", str(self.goal))]] + [
            [("tile", "p%d" % each, each == seat), ("text", str(banked), len(most))]
            for each, banked in enumerate((first, second))] + [[("text", "turn"), ("text", str(turn), len(most))]]
