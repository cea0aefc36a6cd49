"""Goat for two players as a game model (``engine/model.py``), its values read from the game's table.

A state is ``(banked of seat 0, of seat 1, turn total, rolls taken, seat to move (2: over), dice rolling)``:
dice rolling k > 0 is the chance node of a roll of k dice, outcome 0 a match (the turn ends with nothing) and
s > 0 the sum s of k different faces, of weight its share of the 6^k ordered outcomes. Actions: 0 stop (bank
the turn total; not before the turn's first roll), k roll k dice; the third roll ends the turn and banks. After
seat 1's turn the game ends if either has reached the goal: the higher total wins, a tie is half a win each.

The mover's values are one Bellman step from the table's (``goat --one/--two --expect``): the values after an
action weighted by the roll's counts, summed in the solver's order (the match first, then by increasing sum)
and divided by 6^k. Only ``--choose each`` is played (the dice chosen before every roll).
"""

from __future__ import annotations

from typing import Any

from ...engine.model import CHANCE, TERMINAL, State
from ...errors import InvalidQuery
from .law import THROWS, action_values
from .rules import DICE, EACH, MAX_GAIN, NEEDS, ROLLS, SLOTS, Rules, slot
from .table import load

PLAYERS = 2
# ``model()``'s keywords beyond the rules, with the learning environments' defaults: ``players=1`` is Goat alone
# (``solo.py``), served as ``SOLO`` says.
OPTIONS = {"players": 2}
# The one-player game's Gymnasium id, time limit (far above optimal play's mean of 8.5 turns) and reward threshold
# (within 1% of optimal play's -8.497837 at goal 100).
SOLO = {"id": "GoatSolo-v0", "max_episode_steps": 1000, "reward_threshold": -8.58}
TIE = 1e-11  # the table's tie (docs/GOAT.md), where its header gives none
OVER = 2  # the seat field once the game is over
SHARES = ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])  # the returns: seat 0 wins, seat 1 wins, a tie
_MODELS: dict = {}




def model(rules: Any = None, players: int = PLAYERS) -> Any:
    """The model of ``rules`` (default: goal 100) for ``players`` (2, or 1: Goat alone, ``solo.py``), made once
    per process; the two-player table is read when a value is first asked. ``--choose once`` is refused, in the
    command's words."""
    rules = Rules() if rules is None else rules
    if rules.choose != EACH:
        raise InvalidQuery("the Goat environments play --choose each only (the dice chosen before every roll); "
                           "--choose once is answered by ShutTheBox goat --choose once and "
                           "shutthebox.open('goat', choose='once')")
    if players not in (1, 2) or isinstance(players, bool):
        raise ValueError("Goat is played by 1 or 2 players here, not %r" % (players,))
    found = _MODELS.get((rules, players))
    if found is None:
        if players == 1:
            from .solo import GoatSoloModel

            found = GoatSoloModel(rules)
        else:
            found = GoatModel(rules)
        _MODELS[rules, players] = found
    return found


class GoatModel:
    """``engine.model.GameModel`` for two-player Goat under one goal."""

    id = "goat"
    players = PLAYERS
    n_actions = 1 + DICE
    n_outcomes = 1 + max(total for throws, _ in THROWS.values() for total, _ in throws)
    max_length = 100_000  # unbounded in principle, as Pig
    min_return, max_return = 0.0, 1.0
    constant_sum = 1.0  # the returns are win shares
    observer = 5  # the observation's field of the observer's own seat
    fold_chance = True  # a roll's chance node follows its decision alone
    exact = False  # a turn may come back to a state: best responses in float64, as the table

    def __init__(self, rules: Any) -> None:  # a Rules (a RuleSet: its options are attributes)
        self.rules = rules
        self.goal = goal = rules.goal
        self.observation_nvec = (goal + MAX_GAIN, goal + MAX_GAIN, 2 * 21 + 1, ROLLS, 2, 2)
        self._table: tuple | None = None

    def __reduce__(self):
        return (model, (self.rules,))

    # -- the table ----------------------------------------------------------------------------------------

    def table(self) -> tuple:
        """``(arrays, moves, tie)``: the table's ``one``, ``two``, ``last`` and their moves as lists, read once."""
        if self._table is None:
            table = load(self.rules)
            whole = table.file.whole
            names = ("one", "two", "last")
            self._table = ({name: whole(name).tolist() for name in names},
                           {name: whole(name + "_move").tolist() for name in names},
                           float(table.file.header.get("tie", TIE)))
        return self._table

    @property
    def tie(self) -> float:
        return self.table()[2]

    def where(self, player: int, my: int, opp: int, turn: int, rolls: int) -> tuple[str, int]:
        """(array, index) of the mover's state, ``player`` 1 or 2."""
        goal = self.goal
        if player == 1:
            return "one", (my * goal + opp) * SLOTS + slot(rolls, turn)
        if opp < goal:
            return "two", (my * goal + opp) * SLOTS + slot(rolls, turn)
        return "last", (min(opp - my, NEEDS) - 1) * SLOTS + slot(rolls, turn)

    def _mover(self, state: State) -> tuple[int, int, int, int, int]:
        """(player 1 or 2, the mover's banked score, the other's, turn total, rolls taken)."""
        first, second, turn, rolls, seat, _ = state
        return (1, first, second, turn, rolls) if seat == 0 else (2, second, first, turn, rolls)

    # -- the game model -----------------------------------------------------------------------------------

    def initial(self) -> State:
        return (0, 0, 0, 0, 0, 0)

    def player(self, state: State) -> int:
        seat, dice = state[4], state[5]
        if seat == OVER:
            return TERMINAL
        return CHANCE if dice else seat

    def legal(self, state: State) -> list[int]:
        return list(range(0 if state[3] else 1, DICE + 1))

    def outcomes(self, state: State) -> tuple[list[tuple[int, int]], int]:
        return THROWS[state[5]]

    def _end_turn(self, banked: list, seat: int) -> State:
        if seat == 1 and max(banked) >= self.goal:
            return (banked[0], banked[1], 0, 0, OVER, 0)
        return (banked[0], banked[1], 0, 0, 1 - seat, 0)

    def apply(self, state: State, action: int) -> State:
        first, second, turn, rolls, seat, dice = state
        banked = [first, second]
        if not dice:
            if action:
                return (first, second, turn, rolls, seat, action)
            banked[seat] += turn
            return self._end_turn(banked, seat)
        if not action:  # a match: the turn ends with nothing
            return self._end_turn(banked, seat)
        if rolls + 1 == ROLLS:  # the third roll ends the turn and banks
            banked[seat] += turn + action
            return self._end_turn(banked, seat)
        return (first, second, turn + action, rolls + 1, seat, 0)

    def returns(self, state: State) -> list[float]:
        if state[4] != OVER:
            return [0.0, 0.0]
        first, second = state[0], state[1]
        return list(SHARES[2] if first == second else SHARES[0] if first > second else SHARES[1])

    def values(self, state: State) -> dict[int, float]:
        player, my, opp, turn, rolls = self._mover(state)
        arrays = self.table()[0]
        goal, one, two, last = self.goal, arrays["one"], arrays["two"], arrays["last"]

        if player == 1:
            def payoff(gain):
                total = my + gain
                if total >= goal:
                    return 1.0 - last[(min(total - opp, NEEDS) - 1) * SLOTS]
                return 1.0 - two[(opp * goal + total) * SLOTS]
        elif opp < goal:
            def payoff(gain):
                total = my + gain
                return 1.0 if total >= goal else 1.0 - one[(opp * goal + total) * SLOTS]
        else:
            need = min(opp - my, NEEDS)

            def payoff(gain):
                return 1.0 if gain > need else 0.5 if gain == need else 0.0

        name, index = self.where(player, my, opp, turn, rolls)
        values = arrays[name]
        offset = index - slot(rolls, turn)

        def later(total, taken):
            return values[offset + slot(taken, total)]

        return action_values(rolls > 0, turn, rolls, payoff, later)

    def value(self, state: State) -> list[float]:
        if state[4] == OVER:
            return self.returns(state)
        dice = state[5]
        if dice:  # the roll of k dice: its value to the mover
            chance = self.values(state[:5] + (0,))[dice]
        else:
            name, index = self.where(*self._mover(state))
            chance = self.table()[0][name][index]
        return [chance, 1.0 - chance] if state[4] == 0 else [1.0 - chance, chance]

    def best(self, state: State) -> int:
        name, index = self.where(*self._mover(state))
        return self.table()[1][name][index]

    def observation(self, state: State, seat: int) -> list[int]:
        first, second, turn, rolls, mover, _ = state
        banked = (first, second)
        return [banked[seat], banked[1 - seat], turn, rolls, min(mover, 1), seat]  # over: seat 1 moved last

    def action_text(self, state: State, action: int) -> str:
        return "roll %d" % action if action else "stop"

    def outcome_text(self, state: State, outcome: int) -> str:
        return "+%d" % outcome if outcome else "match"

    def state_text(self, state: State) -> str:
        first, second, turn, rolls, seat, dice = state
        if seat == OVER:
            return "final: player_0 %d, player_1 %d" % (first, second)
        rolling = ", rolling %d dice" % dice if dice else ""
        return "player_0 %d, player_1 %d, player_%d to move, turn total %d after %d roll%s%s" % (
            first, second, seat, turn, rolls, "" if rolls == 1 else "s", rolling)

    def question(self, state: State) -> list[str]:
        """The command line's words asking for the mover's move (``goat --one/--two --move``)."""
        player, my, opp, turn, rolls = self._mover(state)
        return ["goat", "--goal", str(self.goal), "--one" if player == 1 else "--two", "--move", str(my), str(opp),
                str(turn), str(rolls)]

    def board(self, state: State) -> list:
        """The picture's rows: the goal; each seat's banked score, the mover's lit; the turn total and its rolls."""
        first, second, turn, rolls, seat, _ = state
        most = len(str(self.goal + MAX_GAIN))
        return [[("text", "goal"), ("text", str(self.goal))]] + [
            [("tile", "p%d" % each, each == seat), ("text", str(banked), most)]
            for each, banked in enumerate((first, second))] + [
            [("text", "turn"), ("text", str(turn), len(str(MAX_GAIN)))]
            + [("tile", "", taken < rolls) for taken in range(ROLLS)]]
