"""Goat: ``shutthebox/GoatSolo-v0``, the fewest turns (docs/RL.md; two players: ``games/goat/model.py``).

A roll of k dice either matches (two dice show the same face: the turn ends with nothing) or adds the sum
of k different faces; each such sum has a whole number of the 6^k ordered outcomes. An action's value is
the table's values after it weighted by those counts, summed in the solver's order (the bust first, then by
increasing column) and divided by 6^k.
"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidQuery
from ..games.goat.model import LAW, action_values, model as goat_model
from ..games.goat.rules import DEFAULT_GOAL, DICE, EACH, MAX_GAIN, ROLLS, SLOTS, Rules, check_turn, slot
from ..games.goat.table import load
from ._base import Decision, ExactEnv, Model, cached, state_tuple, whole
from ._picture import number
from ._transitions import Transitions, merged

TIE = 1e-11  # the table's tie (docs/GOAT.md)
TURN_ENDS = ROLLS  # the third roll ends the turn
_MODELS: dict = {}


def roll_dice(die, k: int) -> int:
    """k dice thrown (each one drawn, whatever the others show): their sum, or 0 when two match."""
    faces = [die(6) for _ in range(k)]
    return 0 if len(set(faces)) < k else sum(faces)


class GoatSoloModel(Model):
    """Solo Goat: fewest expected turns; the table's ``solo`` values (this turn counted)."""

    n_actions = 1 + DICE
    more = False

    def __init__(self, goal: int):
        self.goal = goal
        self.table = table = load(Rules(goal))
        self.tie = float(table.file.header.get("tie", TIE))
        super().__init__()
        self.values = table.file.whole("solo").tolist()
        self.moves = table.file.whole("solo_move").tolist()

    def start(self, score: int) -> float:
        return self.values[score * SLOTS] if score < self.goal else 0.0

    def decide(self, state, exact: bool) -> Decision:
        score, turn, rolls = state
        if not exact:
            return Decision(self.n_actions, dict.fromkeys(range(0 if rolls else 1, DICE + 1), 0.0), False, exact=False)
        values, base, goal = self.values, score * SLOTS, self.goal

        def payoff(gain):
            banked = score + gain
            return 1.0 + values[banked * SLOTS] if banked < goal else 1.0

        def later(total, taken):
            return values[base + slot(taken, total)]

        index = base + slot(rolls, turn)
        return Decision(self.n_actions, action_values(rolls > 0, turn, rolls, payoff, later), False, self.tie,
                        value=values[index], table_move=self.moves[index])


# -- the model the toy-text way (Goat solo) -----------------------------------------------------------


def transitions(model) -> Transitions:
    """States ``(banked * 43 + turn) * 3 + rolls``, the banked score the goal once reached: a turn ending
    (a stop, a match, the third roll) costs -1 and banks; the game ends at the goal."""
    goal = model.goal

    def code(banked: int, turn: int, rolls: int) -> int:
        return (min(banked, goal) * 43 + turn) * 3 + rolls

    def bank(banked: int):
        return code(banked, 0, 0), -1.0, banked >= goal

    def moves(s: int) -> dict:
        rest, rolls = divmod(s, 3)
        score, turn = divmod(rest, 43)
        out = {}
        if rolls:
            out[0] = [(1.0, *bank(score + turn))]
        for k in range(1, DICE + 1):
            busts, sums = LAW[k]
            whole = 6.0 ** k
            outcomes = [(busts / whole, *bank(score))]
            for gain, count in sums:
                if rolls + 1 == TURN_ENDS:
                    outcomes.append((count / whole, *bank(score + turn + gain)))
                else:
                    outcomes.append((count / whole, code(score, turn + gain, rolls + 1), 0.0, False))
            out[k] = merged(outcomes)
        return out

    def over(s: int) -> bool:
        rest, rolls = divmod(s, 3)
        score, turn = divmod(rest, 43)
        return score >= goal or (rolls == 0 and turn != 0) or (rolls and not rolls <= turn <= 21 * rolls)

    return Transitions((goal + 1) * 43 * 3, model.n_actions, moves, over)


def model(kind: str, goal: int, choose: str = EACH):
    """Solo Goat's model (``kind`` "solo"), or the two-player game model (``games/goat/model.py``)."""
    # refuses a goal or a --choose the command refuses, in its words (a list too: before it is a key)
    rules = Rules(goal, choose)
    if kind != "solo":
        return goat_model(rules)
    goat_model(rules)  # refuses --choose once, in its words
    return cached(_MODELS, (kind, goal), lambda: GoatSoloModel(goal), model, (kind, goal))


def check_slot(turn, rolls) -> tuple:
    """(turn, rolls) as ints, checked as the command checks them, as a ValueError."""
    turn, rolls = whole(turn, "the turn total", 0, 2 * 21), whole(rolls, "the rolls taken", 0, ROLLS - 1)
    try:
        check_turn(turn, rolls)
    except InvalidQuery as error:
        raise ValueError(str(error)) from None
    return turn, rolls


def action_words(action: int) -> str:
    return "stop" if action == 0 else "roll %d" % action


class GoatSoloEnv(ExactEnv):
    """Goat alone: reach the goal in the fewest turns. Before each roll put 1 to 6 dice in the cup; if two
    match, the turn ends with nothing; else their sum adds to the turn total; stop to bank it; the third roll
    ends the turn (and banks).

    ``gymnasium.make("shutthebox/GoatSolo-v0", goal=100)`` (``--goal`` 2-150; goals other than 100 are
    solved on first use and cached, as ``ShutTheBox goat --goal G`` does). ``choose`` is the rules option
    ``--choose``: only ``"each"`` (the dice chosen before every roll) is played here; ``"once"`` is refused.

    - **Actions**: ``Discrete(7)``: 0 stop (bank the turn total; not before the turn's first roll), ``k``
      (1-6) roll k dice.
    - **Observation**: ``MultiDiscrete([goal + 1, 43, 3])``: the banked score (the goal once reached), the
      turn total, the rolls taken this turn (0-2).
    - **Reward**: -1 as each turn ends (a stop, a match, or the third roll). The return is minus the number
      of turns; fewer is better. The game ends when the banked score reaches the goal; a turn total past the
      goal counts once banked (the optimal play stops there).
    - **Info**: ``q_values`` in expected turns, this turn counted (``goat --solo --expect SCORE TURN ROLLS``
      for the state an action leads to, one roll's chances weighted), +inf where illegal;
      ``optimal_actions``: within the table's tie (1e-11) of the best, the table's ``--solo --move`` among
      them; ``regret`` in expected turns; ``q_return``: minus ``q_values`` (the expected return, -inf where
      illegal: its argmax is the best legal action); ``optimal_mask``.
    - **State** (``get_state()``, ``reset(options={"state": ...})``): ``(banked score, turn total, rolls
      taken this turn)``.
    - **Illegal actions** (``illegal="end"``): the default penalty is -1000 (the registered time limit's
      steps).
    """

    default_penalty = -1000.0

    def __init__(self, goal: int = DEFAULT_GOAL, render_mode: str | None = None, exact_info: bool = True,
                 choose: str = EACH, **options):
        found = model("solo", goal, choose)
        self.goal = goal
        super().__init__(found, [goal + 1, 2 * 21 + 1, ROLLS], render_mode, exact_info, **options)
        self.score = self.turn = self.rolls = 0

    def _start(self) -> float:
        self.score = self.turn = self.rolls = 0
        self._key = (0, 0, 0)
        return 0.0

    def _bank(self, gain: int):
        self.score += gain
        self.turn = self.rolls = 0
        self._key = (self.score, 0, 0)
        return -1.0, self.score >= self.goal

    def _play(self, action: int):
        if action == 0:
            return self._bank(self.turn)
        total = roll_dice(self.dice.die, action)
        if not total:
            return self._bank(0)
        self.turn += total
        self.rolls += 1
        if self.rolls == TURN_ENDS:
            return self._bank(self.turn)
        self._key = (self.score, self.turn, self.rolls)
        return 0.0, False

    def _observe(self) -> np.ndarray:
        return np.array([min(self.score, self.goal), self.turn, self.rolls], dtype=np.int64)

    def get_state(self) -> tuple:
        """``(banked score, turn total, rolls taken this turn)``."""
        return (self.score, self.turn, self.rolls)

    def _load(self, state) -> None:
        score, turn, rolls = state_tuple(state, 3, "(banked score, turn total, rolls taken this turn)")
        score = whole(score, "the banked score", 0, self.goal - 1)
        turn, rolls = check_slot(turn, rolls)
        self.score, self.turn, self.rolls, self._key = score, turn, rolls, (score, turn, rolls)

    # -- the model the toy-text way ---------------------------------------------------------

    @property
    def P(self):
        """``P[s][a]``: ``[(probability, next state, reward, terminated), ...]`` (docs/RL.md), states as
        ``encode`` numbers them."""
        found = getattr(self.model, "transitions", None)
        if found is None:
            found = self.model.transitions = transitions(self.model)
        return found

    def encode(self, state) -> int:
        """The number of ``(banked, turn total, rolls taken)``: ``(min(banked, goal) * 43 + turn) * 3 + rolls``."""
        score, turn, rolls = state
        return (min(int(score), self.goal) * 43 + int(turn)) * 3 + int(rolls)

    def decode(self, number: int) -> tuple:
        rest, rolls = divmod(int(number), 3)
        return (*divmod(rest, 43), rolls)

    def _board(self) -> list:
        return [[("text", "goal"), ("text", str(self.goal)), ("text", "banked"), number(self.score, self.goal + MAX_GAIN)],
                [("text", "turn"), number(self.turn, MAX_GAIN), ("text", "rolls")]
                + [("tile", "", taken < self.rolls) for taken in range(ROLLS)]]

    def question(self) -> list:
        return ["goat", "--goal", str(self.goal), "--solo", "--move", str(self.score), str(self.turn), str(self.rolls)]

    def _words(self) -> str:
        if self.score >= self.goal:
            return "banked %d: the goal %d is reached" % (self.score, self.goal)
        return "banked %d, turn total %d after %d roll%s   (ShutTheBox %s)" % (
            self.score, self.turn, self.rolls, "" if self.rolls == 1 else "s", " ".join(self.question()))


__all__ = ["GoatSoloEnv", "LAW", "action_words"]

