"""Pig: ``shutthebox/Pig-v0``, one agent against the table's optimal player (docs/RL.md, docs/PIG.md).

A decision is ``(i, j, k)``: the mover's banked score, the opponent's, the turn total. Its values are the game
model's (``games/pig/model.py``: the table's, summed as the command's ``--options`` sums them).
"""

from __future__ import annotations

import numpy as np

from ..games.pig.model import HOLD, ROLL, model as pig_model, rule_words
from ..games.pig.rules import ADD, BUST, Rules
from ._base import Decision, ExactEnv, Model, cached, state_tuple, whole
from ._picture import dice, number
from ._transitions import Transitions, merged

_MODELS: dict = {}


# -- the dice ----------------------------------------------------------------------------------------------


def dice_of(variant: str, sides: int) -> tuple:
    """(faces of each die thrown, how many dice) for a roll of ``variant``."""
    if variant == "pig":
        return sides, 1
    if variant == "piglet":
        return 2, 1
    return 6, 2


def classify(variant: str, faces: tuple) -> tuple:
    """What the faces thrown do: ``(kind, points)`` with the kinds of ``Rules.outcomes()`` (a coin's 1 is
    tails, 2 heads)."""
    if variant in ("pig", "piglet"):
        face = faces[0]
        if face == 1:
            return BUST, 0
        return ADD, 1 if variant == "piglet" else face
    a, b = faces
    if a == b == 1:
        return ("reset", 0) if variant == "two-dice" else (ADD, 25)
    if a == 1 or b == 1:
        return BUST, 0
    if a == b and variant == "big-pig":
        return ADD, 4 * a
    return ADD, a + b


def throw(die, variant: str, sides: int) -> tuple:
    """One roll drawn by ``die(faces)``: ``(kind, points, faces)``."""
    face_count, count = dice_of(variant, sides)
    faces = tuple(die(face_count) for _ in range(count))
    return (*classify(variant, faces), faces)


# -- the model ---------------------------------------------------------------------------------------------


class PigModel(Model):
    """One rule set: the table's ``win`` and ``move`` as lists, each decision's values as the table sums
    them, and the distribution of a whole turn played by the table's moves (the opponent of ``Pig-v0``)."""

    n_actions = 2
    more = True

    def __init__(self, rules: Rules):
        self.rules = rules
        self.game = game = pig_model(rules)  # the table's numbers and the values as the table sums them
        self.win, self.move, self.tie = game.win, game.move, game.tie
        self.index, self.hold_value, self.roll_value = game.index, game.hold_value, game.roll_value
        super().__init__()
        self.variant, self.goal, self.sides = rules.variant, rules.goal, rules.sides
        self.outcomes = rules.outcomes()
        self.denominator = rules.denominator()
        self.top = game.top  # the most one roll adds
        self._turns: dict = {}

    def decide(self, state, exact: bool) -> Decision:
        mine, other, turn = state
        if not exact:
            return Decision(2, {HOLD: 0.0, ROLL: 0.0} if turn else {ROLL: 0.0}, True, exact=False)
        values = {ROLL: self.roll_value(mine, other, turn)}
        if turn:
            values[HOLD] = self.hold_value(mine, other, turn)
        at = self.index(mine, other, turn)
        return Decision(2, values, True, self.tie, value=self.win[at], table_move=self.move[at])

    def rolls(self, mine: int, other: int, turn: int) -> bool:
        """The table's move: roll (always at turn total 0)."""
        return not turn or bool(self.move[self.index(mine, other, turn)])

    def turn(self, mine: int, other: int) -> tuple:
        """The mover's whole turn from ``(mine, other, 0)`` by the table's moves: ``(chance to reach the goal,
        {banked score after the turn: chance})``, in floats (cached)."""
        key = (mine, other)
        found = self._turns.get(key)
        if found is not None:
            return found
        goal, denominator = self.goal, self.denominator
        mass = [0.0] * (goal - mine)
        mass[0] = 1.0
        ends: dict = {}
        won = 0.0
        for turn in range(goal - mine):
            weight = mass[turn]
            if not weight:
                continue
            if turn and not self.move[self.index(mine, other, turn)]:
                ends[mine + turn] = ends.get(mine + turn, 0.0) + weight
                continue
            for count, kind, points in self.outcomes:
                chance = weight * count / denominator
                if kind == ADD:
                    if mine + turn + points >= goal:
                        won += chance
                    else:
                        mass[turn + points] += chance
                else:
                    after = mine if kind == BUST else 0
                    ends[after] = ends.get(after, 0.0) + chance
        if len(self._turns) >= 1 << 16:
            self._turns.clear()
        found = self._turns[key] = (won, ends)
        return found


def pig_rules(variant, goal, sides) -> Rules:
    """The rules as the command line's ``--variant``, ``--goal``, ``--sides`` give them (InvalidQuery in its
    words)."""
    return Rules(variant=variant, goal=goal, sides=sides)


def model(variant: str = "pig", goal=None, sides=None) -> PigModel:
    rules = pig_rules(variant, goal, sides)
    key = (rules.variant, rules.goal, rules.sides)
    return cached(_MODELS, key, lambda: PigModel(rules), model, key)


def check_state(state, goal: int) -> tuple:
    """``(mine, other, turn)`` as ints, a decision of the game (ValueError saying why not)."""
    mine, other, turn = state_tuple(state, 3, "(the mover's banked score, the opponent's, the turn total)")
    mine = whole(mine, "the mover's banked score", 0, goal - 1)
    other = whole(other, "the opponent's banked score", 0, goal - 1)
    turn = whole(turn, "the turn total", 0, goal - 1)
    if mine + turn >= goal:
        raise ValueError("banked %d and turn total %d reach the goal %d: the mover has won there (no decision)"
                         % (mine, turn, goal))
    return mine, other, turn


def action_words(action: int) -> str:
    return "roll" if action == ROLL else "hold"


def faces_words(faces) -> str:
    return "+".join(map(str, faces))


def story(events) -> str:
    """``[(who, [faces thrown], how the turn went on or ended, points)]`` in words."""
    said = []
    for who, thrown, end, points in events:
        rolled = "%s rolled %s" % (who, " ".join(map(faces_words, thrown))) if thrown else who
        if end == "held":
            said.append("%s%s held %d" % (rolled, " and" if thrown else "", points))
        elif end == "reached":
            said.append("%s and reached %d" % (rolled, points))
        else:
            said.append("%s: %s" % (rolled, "bust" if end == BUST else "reset to 0"))
    return "; ".join(said)


# -- Pig-v0 ------------------------------------------------------------------------------------------------


class PigEnv(ExactEnv):
    """Pig against the table's optimal player: win the race to the goal. On a turn roll as often as you like,
    adding to the turn total, then hold to bank it; a 1 ends the turn and loses the turn total (Two-Dice Pig:
    double 1s also reset the banked score to 0; Big Pig: double 1s add 25, other doubles twice their sum).
    Reaching the goal wins at once.

    ``gymnasium.make("shutthebox/Pig-v0", variant="pig", goal=100, sides=6, seat=0)``: the command line's
    ``pig --variant --goal --sides`` (rules other than Pig to 100 are solved on first use and cached, as
    ``ShutTheBox pig`` does); ``seat`` 0 moves first, 1 second (refused where the opponent could reach the
    goal in its first turn, which would end a game before the agent's first action).

    - **Actions**: ``Discrete(2)``: 0 hold (bank the turn total; illegal at turn total 0: a turn starts with
      a roll), 1 roll.
    - **Observation**: ``MultiDiscrete([goal + most, goal + most, goal])`` (``most``: the most one roll adds):
      the agent's banked score, the opponent's, the turn total. At the end the winner's score shows as banked,
      past the goal where the last roll took it.
    - **Dynamics**: after the agent's hold or bust the opponent plays its whole turn by the table's moves
      (``pig --move``; among tied choices it holds) with the environment's dice, inside the same step; the
      agent is next asked at the start of its own turn (turn total 0, where the only legal action is roll).
    - **Reward**: 1 when the agent wins, 0 when it loses (at the end). The return is the win.
    - **Info**: ``q_values`` (each action's chance to win: ``pig --options``' values, -inf where illegal),
      ``optimal_actions`` (within the table's tie, 1e-11; its ``--move`` among them), ``regret`` (in chance
      to win), ``q_return`` (the same: more is better), ``optimal_mask``. ``value()`` is the agent's exact
      chance to win, the table's ``--expect``.
    - **State** (``get_state()``, ``reset(options={"state": ...})``): ``(agent's banked score, opponent's,
      turn total)``, the agent to move.
    - **Illegal actions** (``illegal="end"``): the default penalty is -1.
    """

    def __init__(self, variant: str = "pig", goal=None, sides=None, seat: int = 0, render_mode: str | None = None,
                 exact_info: bool = True, **options):
        found = model(variant, goal, sides)
        if isinstance(seat, bool) or seat not in (0, 1):
            raise ValueError("seat must be 0 (the agent moves first) or 1 (second), not %r" % (seat,))
        if seat == 1 and found.turn(0, 0)[0] > 0.0:
            raise ValueError("moving second is refused for %s: the opponent may reach the goal in its first turn, "
                             "ending a game before the agent's first action, which an episode cannot say"
                             % found.rules.describe())
        self.rules, self.seat = found.rules, seat
        self.variant, self.goal, self.sides = found.variant, found.goal, found.sides
        top = self.goal + found.top
        super().__init__(found, [top, top, self.goal], render_mode, exact_info, **options)
        self._dice = dice_of(self.variant, self.sides)
        self.mine = self.other = self.turn = 0
        self.faces, self.events = (), []

    # -- the game ---------------------------------------------------------------------------

    def _opponent(self) -> bool:
        """The opponent's whole turn by the table's moves; True when it reaches the goal."""
        model, goal, variant = self.model, self.goal, self.variant
        move, index, die = model.move, model.index, self.dice.die
        faces_count, count = self._dice
        other, mine, turn = self.other, self.mine, 0
        thrown = []
        while True:
            if turn and not move[index(other, mine, turn)]:
                self.other = other + turn
                self.events.append(("the opponent", thrown, "held", turn))
                return False
            faces = (die(faces_count),) if count == 1 else (die(faces_count), die(faces_count))
            kind, points = classify(variant, faces)
            thrown.append(faces)
            if kind == ADD:
                turn += points
                if other + turn >= goal:
                    self.other = other + turn
                    self.events.append(("the opponent", thrown, "reached", other + turn))
                    return True
                continue
            if kind != BUST:  # two-dice's double 1s: the banked score back to 0
                other = 0
            self.other = other
            self.events.append(("the opponent", thrown, kind, 0))
            return False

    def _their_turn(self):
        self.turn = 0
        if self._opponent():
            self._key = None
            return 0.0, True
        self._key = (self.mine, self.other, 0)
        return 0.0, False

    def _start(self) -> float:
        self.mine = self.other = self.turn = 0
        self.faces, self.events = (), []
        if self.seat == 1:
            self._opponent()  # never reaches the goal: refused when the environment was made
        self._key = (self.mine, self.other, 0)
        return 0.0

    def _play(self, action: int):
        if action == HOLD:
            self.mine += self.turn
            self.faces, self.events = (), [("you", [], "held", self.turn)]
            return self._their_turn()
        kind, points, faces = throw(self.dice.die, self.variant, self.sides)
        if kind == ADD:
            self.faces, self.events = faces, []
            self.turn += points
            if self.mine + self.turn >= self.goal:
                self.mine += self.turn
                self.turn = 0
                self.events = [("you", [faces], "reached", self.mine)]
                self._key = None
                return 1.0, True
            self._key = (self.mine, self.other, self.turn)
            return 0.0, False
        if kind != BUST:
            self.mine = 0
        self.faces, self.events = (), [("you", [faces], kind, 0)]
        return self._their_turn()

    @property
    def story(self) -> str:
        """What happened in the last step beyond the agent's own roll: its hold or bust, the opponent's turn."""
        return story(self.events)

    def _observe(self) -> np.ndarray:
        return np.array([self.mine, self.other, self.turn], dtype=np.int64)

    def get_state(self) -> tuple:
        """``(agent's banked score, opponent's, turn total)``."""
        return (self.mine, self.other, self.turn)

    def _load(self, state) -> None:
        self.mine, self.other, self.turn = check_state(state, self.goal)
        self.faces, self.events = (), []
        self._key = (self.mine, self.other, self.turn)

    # -- the model the toy-text way ---------------------------------------------------------

    @property
    def P(self):
        """``P[s][a]``: ``[(probability, next state, reward, terminated), ...]`` (docs/RL.md), states as
        ``encode`` numbers them, the opponent's turns folded in."""
        found = getattr(self.model, "transitions", None)
        if found is None:
            found = self.model.transitions = transitions(self.model)
        return found

    def encode(self, state) -> int:
        """The number of ``(agent's banked, opponent's banked, turn total)``: ``(min(mine, goal) * (goal + 1) +
        min(other, goal)) * goal + turn``; a banked score at the goal is a game over."""
        mine, other, turn = (int(x) for x in state)
        goal = self.goal
        return (min(mine, goal) * (goal + 1) + min(other, goal)) * goal + turn

    def decode(self, number: int) -> tuple:
        rest, turn = divmod(int(number), self.goal)
        return (*divmod(rest, self.goal + 1), turn)

    # -- words and pictures -----------------------------------------------------------------

    def question(self) -> list:
        return ["pig"] + rule_words(self.rules) + ["--options", str(self.mine), str(self.other), str(self.turn)]

    def _words(self) -> str:
        said = (self.story + "; ") if self.story else ""
        if self._done:
            winner = "you" if self.mine >= self.goal else "the opponent"
            return "%sfinal: you %d, the opponent %d: %s won" % (said, self.mine, self.other, winner)
        rolled = "rolled %s, " % faces_words(self.faces) if self.faces else ""
        return "%syou %d, the opponent %d, %sturn total %d   (ShutTheBox %s)" % (
            said, self.mine, self.other, rolled, self.turn, " ".join(self.question()))

    def _board(self) -> list:
        most = self.goal + self.model.top  # a score or turn total shown is below it
        return [[("text", "goal"), ("text", str(self.goal))],
                [("tile", "you", True), number(self.mine, most), ("text", "turn"), number(self.turn, most)]
                + dice(self.faces, self._dice[1]),
                [("tile", "opp", False), number(self.other, most)]]


# -- the model the toy-text way (Pig-v0) -------------------------------------------------------------------


def transitions(model: PigModel) -> Transitions:
    """States ``(min(mine, goal) * (goal + 1) + min(other, goal)) * goal + turn``, the agent to move. A roll
    adds (the agent wins where it reaches the goal: reward 1) or ends the turn; a hold or the turn's end is
    followed by the opponent's whole turn by the table's moves (``PigModel.turn``): it reaches the goal (the
    game is over, reward 0) or the agent's next turn starts at the opponent's new score."""
    goal, denominator = model.goal, model.denominator

    def code(mine: int, other: int, turn: int) -> int:
        return (min(mine, goal) * (goal + 1) + min(other, goal)) * goal + turn

    def their_turn(mine: int, other: int, chance: float) -> list:
        won, ends = model.turn(other, mine)
        out = [(chance * won, code(mine, goal, 0), 0.0, True)] if won else []
        return out + [(chance * p, code(mine, after, 0), 0.0, False) for after, p in sorted(ends.items())]

    def moves(s: int) -> dict:
        rest, turn = divmod(s, goal)
        mine, other = divmod(rest, goal + 1)
        out = {}
        if turn:
            out[HOLD] = their_turn(mine + turn, other, 1.0)
        rolled = []
        for count, kind, points in model.outcomes:
            chance = count / denominator
            if kind == ADD:
                if mine + turn + points >= goal:
                    rolled.append((chance, code(goal, other, 0), 1.0, True))
                else:
                    rolled.append((chance, code(mine, other, turn + points), 0.0, False))
            else:
                rolled += their_turn(mine if kind == BUST else 0, other, chance)
        out[ROLL] = merged(rolled)
        return out

    def over(s: int) -> bool:
        rest, turn = divmod(s, goal)
        mine, other = divmod(rest, goal + 1)
        return mine >= goal or other >= goal or mine + turn >= goal

    return Transitions((goal + 1) * (goal + 1) * goal, 2, moves, over)


__all__ = ["HOLD", "PigEnv", "PigModel", "ROLL", "classify", "model", "throw"]
