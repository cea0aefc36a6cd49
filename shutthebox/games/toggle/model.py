"""Toggle (Project Euler 640) as a game model (``engine/model.py``), read from its table (``table.py``).

A state is ``(up, x, y, rolls)``: the cards face up (bit ``i``: card ``i + 1``; 0 once every card is down: the
end), the dice showing (``0, 0``: none) and the rolls spent so far.

- Dice showing: the player's decision. Action ``c`` turns card ``c + 1``, legal when ``c + 1`` is ``x``, ``y`` or
  ``x + y`` (a card of the game); the roll is spent: ``(up ^ 1 << c, 0, 0, rolls + 1)``.
- No dice showing: a chance node, the throw of two dice. Outcome ``(x - 1) * sides + y - 1``, each of weight 1
  of ``sides ** 2``. A throw that lets no card turn (a pass: only where a die can show more than the cards) is
  spent at once and the dice are thrown again: ``(up, 0, 0, rolls + 1)``.

A roll counts when it is spent (at its flip, or at once for a pass), so a step of ``shutthebox/Toggle-v0``
costs its own roll and the passes after it, and the passes before the first decision are owed to it (docs/RL.md).
The one seat's return is minus the rolls: ``tally`` -1, the last field is minus the return and nothing else
depends on it. With ``max_rolls`` (OpenSpiel's, ``SPIEL_OPTIONS``) the game stops before the throw once that
many rolls are spent, returning minus those and the rolls optimal play still expects (the table's), so every
state's value is unchanged: a random player's game lasts thousands of rolls, and OpenSpiel's ``random_sim_test``
keeps a clone of each state with its history. A decision's values are minus the rolls so far, its own roll and
the table's expected rolls after its flip (``toggle --expect``); the table's move is its ``flip``.
"""

from __future__ import annotations

import math

from ...engine.model import CHANCE, TERMINAL, State
from ...engine.notation import format_set
from .rules import Rules
from .table import load

PLAYERS = 1
TIE = 1e-10  # the table's tie where its header has none: cards whose values differ by less are equally good
MAX_EPISODE_STEPS = 1000  # shutthebox/Toggle-v0's time limit: far above optimal play's 50 rolls
REWARD_THRESHOLD = -50.82  # shutthebox/Toggle-v0's: within 1% of optimal play's -50.317928 (12 cards, 6 sides)
# OpenSpiel's parameters beyond the rules, with their defaults there (``rl/openspiel.py``'s ``ModelAdapter``).
SPIEL_OPTIONS = {"max_rolls": 1000}
UNBOUNDED = 1 << 62  # no bound on the rolls: the most a field or a game's length can be
_MODELS: dict = {}


def model(rules: Rules | None = None, max_rolls: int = 0) -> "ToggleModel":
    """The model of ``rules`` (default: 12 cards, 6-sided dice), made once per process; ``max_rolls`` (0: none)
    stops a game before the throw once that many rolls are spent. A game not shipped is solved on first use."""
    rules = Rules() if rules is None else rules
    if isinstance(max_rolls, bool) or not isinstance(max_rolls, int) or max_rolls < 0:
        raise ValueError("max_rolls must be a whole number from 0 (no bound), not %r" % (max_rolls,))
    found = _MODELS.get((rules, max_rolls))
    if found is None:
        found = _MODELS[rules, max_rolls] = ToggleModel(load(rules), max_rolls)
    return found


class ToggleModel:
    """``engine.model.GameModel`` for one toggle game (its cards and sides) and bound on the rolls."""

    id = "toggle"
    players = PLAYERS
    max_return = 0.0

    def __init__(self, table, max_rolls: int = 0) -> None:
        self.table, self.rules, self.max_rolls = table, table.rules, max_rolls
        rules = self.rules
        self.cards, self.sides = cards, sides = rules.cards, rules.sides
        self.tie = float(table.file.header.get("tie", TIE))
        self.rolls = table.file.whole("rolls").tolist()  # expected further rolls before a throw, by face-up set
        self.flip = table.file.whole("flip")  # the table's card (1..cards; 0 for a pass) by state and dice
        self.n_actions, self.n_outcomes = cards, sides * sides
        # each outcome's dice, and the cards they let turn (as actions, increasing; none for a pass)
        self.faces = [(o // sides + 1, o % sides + 1) for o in range(self.n_outcomes)]
        self.turns = {(x, y): [card - 1 for card in rules.choices(x, y)] for x, y in self.faces}
        self.throw = ([(o, 1) for o in range(self.n_outcomes)], self.n_outcomes)  # shared, read only
        self._bits: dict = {}
        self._last: tuple = ((), {})  # the last decision's state and values
        self.tally = False if max_rolls else -1  # the rolls, minus the return, unless the bound reads them
        self.numbers = not max_rolls  # states numbered less their rolls: only where nothing else reads them
        most = max(self.rolls)
        if max_rolls:
            self.max_length = 2 * max_rolls  # a throw and a flip for each roll
            self.min_return = -float(max_rolls + math.ceil(most))
            self.observation_nvec = (2,) * cards + (sides + 1,) * 2 + (max_rolls + 1,)
        else:
            self.max_length = UNBOUNDED
            self.min_return = -math.inf
            self.observation_nvec = (2,) * cards + (sides + 1,) * 2 + (UNBOUNDED,)
            # a game's rolls have no bound: an illegal action's default penalty in the learning environments is
            # minus the registered time limit's steps
            self.illegal_penalty = -float(MAX_EPISODE_STEPS)

    def __reduce__(self):
        return (model, (self.rules, self.max_rolls))

    def initial(self) -> State:
        return ((1 << self.cards) - 1, 0, 0, 0)

    def player(self, state: State) -> int:
        up, x, _, rolls = state
        if not up:
            return TERMINAL
        if x:
            return 0
        return TERMINAL if self.max_rolls and rolls >= self.max_rolls else CHANCE

    def legal(self, state: State) -> list[int]:
        x, y = state[1], state[2]
        found = self.turns.get((x, y))
        if not found:
            raise ValueError("dice %d %d turn no card: they are thrown again, never a decision" % (x, y)
                             if found is not None else "the dice show 1 to %d each, not %d %d" % (self.sides, x, y))
        return found

    def outcomes(self, state: State) -> tuple[list[tuple[int, int]], int]:
        return self.throw

    def apply(self, state: State, action: int) -> State:
        up, x, _, rolls = state
        if x:
            return (up ^ 1 << action, 0, 0, rolls + 1)
        x, y = self.faces[action]
        return (up, x, y, rolls) if self.turns[x, y] else (up, 0, 0, rolls + 1)

    def returns(self, state: State) -> list[float]:
        up, x, _, rolls = state
        if up and not x and self.max_rolls and rolls >= self.max_rolls:  # stopped: what optimal play still expects
            return [-float(rolls) - self.rolls[up]]
        return [-float(rolls)]

    def values(self, state: State) -> dict[int, float]:
        up, _, _, rolls = state
        table = self.rolls
        found = {card: -rolls - (1.0 + table[up ^ 1 << card]) for card in self.legal(state)}
        self._last = (state, found)
        return found

    def value(self, state: State) -> list[float]:
        up, x, _, rolls = state
        if x:  # the best card's: the learning environments ask just after values(state)
            last, found = self._last
            return [max((found if last == state else self.values(state)).values())]
        return [-float(rolls) - self.rolls[up] if up else -float(rolls)]

    def best(self, state: State) -> int:
        up, x, y, _ = state
        return int(self.flip[(up * self.sides + x - 1) * self.sides + y - 1]) - 1

    def bits(self, up: int) -> list[int]:
        """The face-up flags of the cards 1..N."""
        found = self._bits.get(up)
        if found is None:
            found = self._bits[up] = [up >> card & 1 for card in range(self.cards)]
        return found

    def observation(self, state: State, seat: int = 0) -> list[int]:
        return self.bits(state[0]) + list(state[1:])

    def action_text(self, state: State, action: int) -> str:
        return "turn %d" % (action + 1)

    def state_text(self, state: State) -> str:
        up, x, y, rolls = state
        spent = "%d roll%s" % (rolls, "" if rolls == 1 else "s")
        if not up:
            return "every card is face down after %s" % spent
        cards = format_set(up, self.cards)
        if x:
            return "face up %s, dice %d %d, %s so far" % (cards, x, y, spent)
        if self.player(state) == TERMINAL:
            return "face up %s, stopped after %s (max_rolls)" % (cards, spent)
        return "face up %s, the dice to throw, %s so far" % (cards, spent)

    def question(self, state: State) -> list[str]:
        """The command line's words asking for the card to turn at the decision ``state``."""
        return ["toggle", "--cards", str(self.cards), "--sides", str(self.sides), "--move",
                format_set(state[0], self.cards), str(state[1]), str(state[2])]

    def board(self, state: State) -> list:
        """The state's picture (``rl/_picture.py``'s rows): the cards, light while face up, eight a row; the dice."""
        up, x, y = state[0], state[1], state[2]
        cards = [("tile", str(card + 1), up >> card & 1) for card in range(self.cards)]
        return [cards[at:at + 8] for at in range(0, self.cards, 8)] + [[("die", x), ("die", y)]]

    # -- every state numbered (``engine/model.py``, "numbers"): a state less its rolls ---------------------------

    @property
    def n_states(self) -> int:
        return (1 << self.cards) * (self.sides + 1) ** 2

    def number(self, state: State) -> int:
        """``(up * (sides + 1) + x) * (sides + 1) + y``: the state's number, whatever its rolls."""
        side = self.sides + 1
        return (state[0] * side + state[1]) * side + state[2]

    def numbered(self, number: int) -> State:
        """The state of ``number``, its rolls 0."""
        rest, y = divmod(number, self.sides + 1)
        return (*divmod(rest, self.sides + 1), y, 0)

    def dense(self) -> dict:
        """Every numbered state at once, as numpy arrays (``engine/model.py``, "numbers"): what ``player``,
        ``returns``, ``observation``, ``values``, ``value``, ``best``, ``apply`` and ``outcomes`` say of each, the
        same floats."""
        import numpy as np

        cards, sides, side = self.cards, self.sides, self.sides + 1
        ups = np.arange(1 << cards)
        size = len(ups) * side * side
        rolls = np.array(self.rolls)

        def number(up, x, y):
            return (up * side + x) * side + y

        kind = np.full(size, TERMINAL, dtype=np.int64)
        kind[number(ups[1:], 0, 0)] = CHANCE
        seen = np.zeros((size, cards + 2), dtype=np.int64)
        grid = np.arange(size)
        seen[:, :cards] = (grid[:, None] // (side * side)) >> np.arange(cards) & 1
        seen[:, cards], seen[:, cards + 1] = grid // side % side, grid % side
        q = np.full((size, cards), -np.inf)
        after = np.zeros((size, cards), dtype=np.int64)
        gain = np.zeros((size, cards), dtype=np.int64)
        best = np.zeros(size, dtype=np.int64)
        flip = np.asarray(self.flip, dtype=np.int64).reshape(len(ups), sides, sides)
        for (x, y), turned in self.turns.items():
            if not turned:
                continue
            rows = number(ups[1:], x, y)
            kind[rows] = 0
            best[rows] = flip[1:, x - 1, y - 1] - 1
            for card in turned:
                flipped = ups[1:] ^ 1 << card
                q[rows, card] = -(1.0 + rolls[flipped])  # the rolls so far 0: ``values``' sum
                after[rows, card], gain[rows, card] = number(flipped, 0, 0), -1
        chance = number(ups[1:], 0, 0)
        leads = np.empty((len(chance), self.n_outcomes), dtype=np.int64)
        adds = np.zeros((len(chance), self.n_outcomes), dtype=np.int64)
        for outcome, (x, y) in enumerate(self.faces):
            if self.turns[x, y]:
                leads[:, outcome] = number(ups[1:], x, y)
            else:  # a pass: a roll spent, the same throw again
                leads[:, outcome], adds[:, outcome] = chance, -1
        return {"kind": kind, "returns": np.zeros(size), "seen": seen, "q": q, "value": q.max(axis=1),
                "best": best, "after": after, "gain": gain, "chance": chance,
                "weights": np.ones((len(chance), self.n_outcomes), dtype=np.int64), "leads": leads, "adds": adds}
