"""``shutthebox/Toggle-v0``: the card-flip game of Project Euler 640, exact info (docs/RL.md)."""

from __future__ import annotations

import numpy as np

from ..engine.notation import format_set
from ..games.toggle.rules import DEFAULT_CARDS, DEFAULT_SIDES, Rules
from ..games.toggle.table import load
from ._base import Decision, ExactEnv, Model, cached, state_tuple, whole

_MODELS: dict = {}
TIE = 1e-10  # the table's tie: cards whose values differ by less are equally good (docs/TOGGLE.md)


class ToggleModel(Model):
    more = False

    def __init__(self, rules: Rules):
        self.rules = rules
        self.table = table = load(rules)
        self.n_actions = rules.cards
        self.tie = float(table.file.header.get("tie", TIE))
        super().__init__()
        self.rolls = table.file.whole("rolls").tolist()  # expected further rolls, before rolling
        self.flip = table.file.whole("flip")
        self.sides = sides = rules.sides
        self.cards = {(x, y): rules.choices(x, y) for x in range(1, sides + 1) for y in range(1, sides + 1)}

    def decide(self, state, exact: bool) -> Decision:
        up, x, y = state
        rolls = self.rolls
        sides = self.sides
        values = {card - 1: 1.0 + rolls[up ^ (1 << (card - 1))] for card in self.cards[x, y]}
        table_move = self.flip[(up * sides + x - 1) * sides + y - 1] - 1 if exact else None
        return Decision(self.n_actions, values, False, self.tie, table_move=table_move, exact=exact)


def model(rules: Rules) -> ToggleModel:
    return cached(_MODELS, rules, lambda: ToggleModel(rules), model_of, (rules.cards, rules.sides))


def model_of(cards: int, sides: int) -> ToggleModel:
    """The model of ``Rules(cards, sides)`` (how a pickled model comes back)."""
    return model(Rules(cards, sides))


class ToggleEnv(ExactEnv):
    """Toggle (Project Euler 640): cards 1..N face up; each roll of two dice (x, y) turns card x, y or x+y
    over; the game ends when every card is face down. Fewest rolls.

    ``gymnasium.make("shutthebox/Toggle-v0", cards=12, sides=6)``: any game the command line takes
    (``--cards`` 1-16, ``--sides`` 2-12, cards at most 2 x sides); tables not shipped are solved on first use
    and cached, as ``ShutTheBox toggle`` does.

    - **Actions**: ``Discrete(cards)``: action ``c`` turns card ``c + 1``; legal when ``c + 1`` is x, y or x + y.
    - **Observation**: ``MultiDiscrete([2] * cards + [sides + 1] * 2)``: ``obs[i]`` is 1 while card ``i + 1``
      is face up; ``obs[cards]``, ``obs[cards + 1]`` the dice x and y (0 and 0 once the game is over).
    - **Reward**: -1 for each roll: the roll the action uses, and each roll after it that lets no card be
      turned (a pass: only when a die can show more than the cards); passes drawn by ``reset`` are charged
      to the first step. The return is minus the number of rolls. Fewer is better.
    - **Info**: ``q_values[c]`` is 1 + the table's expected further rolls after turning card ``c + 1``
      (``toggle --expect``), +inf where illegal; ``optimal_actions``: the cards within the table's tie (1e-10)
      of the best, the table's ``--move`` among them; ``regret`` in expected rolls; ``q_return``: minus
      ``q_values`` (the expected return, -inf where illegal: its argmax is the best legal card), with the
      passes ``reset`` drew, owed to the first step, in it as in ``value()``; ``optimal_mask``.
    - **State** (``get_state()``, ``reset(options={"state": ...})``): ``(cards face up as a bitmask, x, y)``.
    - **Illegal actions** (``illegal="end"``): the default penalty is -1000 (the registered time limit's
      steps).
    """

    default_penalty = -1000.0

    def __init__(self, cards: int = DEFAULT_CARDS, sides: int = DEFAULT_SIDES, render_mode: str | None = None,
                 exact_info: bool = True, **options):
        rules = Rules(cards, sides)
        found = model(rules)
        self.cards, self.sides = cards, sides
        super().__init__(found, [2] * cards + [sides + 1] * 2, render_mode, exact_info, **options)
        self._bits = None
        self.up, self.x, self.y = rules.states - 1, 0, 0

    def _roll(self) -> float:
        """Throw until some card may be turned: minus the passes."""
        die, sides, cards = self.dice.die, self.sides, self.model.cards
        passes = 0.0
        while True:
            x, y = die(sides), die(sides)
            if cards[x, y]:
                self.x, self.y = x, y
                self._key = (self.up, x, y)
                return passes
            passes -= 1.0

    def _start(self) -> float:
        self.up = self.model.rules.states - 1
        return self._roll()

    def _play(self, action: int):
        self.up ^= 1 << action
        if not self.up:
            self.x = self.y = 0
            self._key = (0, 0, 0)
            return -1.0, True
        return -1.0 + self._roll(), False

    def _observe(self) -> np.ndarray:
        up = self.up
        return np.array([up >> i & 1 for i in range(self.cards)] + [self.x, self.y], dtype=np.int64)

    def get_state(self) -> tuple:
        """``(cards face up as a bitmask, x, y)``: bit ``i`` is card ``i + 1``; the dice 0 once every card is down."""
        return (self.up, self.x, self.y)

    def _load(self, state) -> None:
        up, x, y = state_tuple(state, 3, "(cards face up as a bitmask, x, y)")
        up = whole(up, "the cards face up (a bitmask)", 1, self.model.rules.states - 1)
        x, y = whole(x, "die x", 1, self.sides), whole(y, "die y", 1, self.sides)
        if not self.model.cards[x, y]:
            raise ValueError("dice %d %d turn no card: they are thrown again, never a decision" % (x, y))
        self.up, self.x, self.y, self._key = up, x, y, (up, x, y)

    # -- the model the toy-text way ---------------------------------------------------------

    @property
    def P(self):
        """``P[s][a]``: ``[(probability, next state, reward, terminated), ...]`` (docs/RL.md), states as
        ``encode`` numbers them; passes folded into the reward as their expected count."""
        found = getattr(self.model, "transitions", None)
        if found is None:
            from ._transitions import toggle

            found = self.model.transitions = toggle(self.model)
        return found

    def encode(self, state) -> int:
        """The number of ``(cards face up as a bitmask, x, y)``: ``(up * (sides + 1) + x) * (sides + 1) + y``."""
        up, x, y = state
        return (int(up) * (self.sides + 1) + int(x)) * (self.sides + 1) + int(y)

    def decode(self, number: int) -> tuple:
        rest, y = divmod(int(number), self.sides + 1)
        return (*divmod(rest, self.sides + 1), y)

    def _board(self) -> list:
        cards = [("tile", str(i + 1), self.up >> i & 1) for i in range(self.cards)]
        return [cards[:8], cards[8:], [("die", self.x), ("die", self.y)]] if self.cards > 8 else [
            cards, [("die", self.x), ("die", self.y)]]

    def question(self) -> list:
        """The command line's words: ``toggle --cards N --sides S --move STATE X Y``."""
        return ["toggle", "--cards", str(self.cards), "--sides", str(self.sides), "--move",
                format_set(self.up, self.cards), str(self.x), str(self.y)]

    def _words(self) -> str:
        if not self.up:
            return "every card is face down"
        return "face up %s, dice %d %d   (ShutTheBox %s)" % (format_set(self.up, self.cards), self.x, self.y,
                                                          " ".join(self.question()))
