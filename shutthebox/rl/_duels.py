"""The two-player games as pure functions of a state, for the best-response engine (``exploit.py``): the parts
of the game model (``engine/model.py``) that it reads, and what a policy sees.

Each class has ``initial``, ``player`` (a seat, ``CHANCE`` or ``TERMINAL``), ``legal``, ``outcomes`` (exact
integer weights and their sum), ``apply`` and ``returns`` (win shares: 1 a win, 1/2 each a tie) as a game
model has them, and ``observation(state, seat)``: the PettingZoo environment's (``pig_v0``, ``goat_v0``,
``shutthebox_v0``), so that an agent trained there plays here. Pig's and Goat's OpenSpiel games
(``openspiel.py``, ``spiel_name``) play these states by these rules, so an OpenSpiel policy is asked their
pyspiel states. No table is read but yazy's one-player table, whose model plays a turn.
"""

from __future__ import annotations

from ..engine.model import CHANCE, TERMINAL, State
from ..errors import InvalidQuery
from ..games.pig.rules import ADD, BUST

WIN = ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])  # returns by result: seat 0 wins, seat 1 wins, a tie


class PigDuel:
    """``(banked of seat 0, of seat 1, turn total, seat to move, rolling)``: ``rolling`` 1 is a roll's chance
    node (outcome ``i``: the rules' ``outcomes()[i]``). Actions: 0 hold, 1 roll."""

    name, players, n_actions, exact = "pig", 2, 2, False
    fold_chance = True  # a roll's chance node follows its decision alone
    spiel_name = "python_shutthebox_pig"

    def __init__(self, variant: str = "pig", goal=None, sides=None):
        from ..games.pig.rules import Rules

        rules = Rules(variant=variant, goal=goal, sides=sides)
        self.goal = rules.goal
        self.rolled = rules.outcomes()
        self.denominator = rules.denominator()
        self.spiel_params = {"variant": rules.variant, "goal": rules.goal, "sides": rules.sides}

    def initial(self) -> State:
        return (0, 0, 0, 0, 0)

    def player(self, state: State) -> int:
        first, second, turn, seat, rolling = state
        if first >= self.goal or second >= self.goal:
            return TERMINAL
        return CHANCE if rolling else seat

    def legal(self, state: State) -> list[int]:
        return [0, 1] if state[2] else [1]

    def outcomes(self, state: State):
        return [(index, count) for index, (count, _, _) in enumerate(self.rolled)], self.denominator

    def apply(self, state: State, action: int) -> State:
        first, second, turn, seat, rolling = state
        banked = [first, second]
        if not rolling:
            if action == 1:
                return (first, second, turn, seat, 1)
            banked[seat] += turn
            return (*banked, 0, 1 - seat, 0)
        _, kind, points = self.rolled[action]
        if kind == ADD:
            if banked[seat] + turn + points >= self.goal:
                banked[seat] += turn + points
                return (*banked, 0, seat, 0)
            return (first, second, turn + points, seat, 0)
        if kind != BUST:  # two-dice's double 1s
            banked[seat] = 0
        return (*banked, 0, 1 - seat, 0)

    def returns(self, state: State) -> list[float]:
        return WIN[0] if state[0] >= self.goal else WIN[1]

    def observation(self, state: State, seat: int) -> list[int]:
        first, second, turn, mover, _ = state
        banked = (first, second)
        return [banked[seat], banked[1 - seat], turn, mover, seat]

    def state_text(self, state: State) -> str:
        first, second, turn, seat, _ = state
        return "banked %d against %d, turn total %d (seat %d to move)" % (
            (first, second)[seat], (first, second)[1 - seat], turn, seat)


class GoatDuel:
    """``(banked of seat 0, of seat 1, turn total, rolls taken, seat to move (2: over), dice rolling)``: dice
    rolling k > 0 is the chance node of k dice (outcome 0 a match, s > 0 the sum s). Actions: 0 stop, k roll
    k dice."""

    name, players, n_actions, exact = "goat", 2, 7, False
    fold_chance = True
    spiel_name = "python_shutthebox_goat"

    def __init__(self, goal=None):
        from ..games.goat.rules import DEFAULT_GOAL, DICE, ROLLS, Rules
        from .goat import LAW

        self.goal = Rules(DEFAULT_GOAL if goal is None else goal).goal
        self.rolls = ROLLS
        self.law = {k: [(0, busts)] + [(total, int(count)) for total, count in sums] for k, (busts, sums) in LAW.items()}
        self.dice = DICE
        self.spiel_params = {"goal": self.goal}

    def initial(self) -> State:
        return (0, 0, 0, 0, 0, 0)

    def player(self, state: State) -> int:
        seat, dice = state[4], state[5]
        if seat == 2:
            return TERMINAL
        return CHANCE if dice else seat

    def legal(self, state: State) -> list[int]:
        return list(range(0 if state[3] else 1, self.dice + 1))

    def outcomes(self, state: State):
        return self.law[state[5]], 6 ** state[5]

    def _end_turn(self, banked: list, seat: int) -> State:
        if seat == 1 and max(banked) >= self.goal:
            return (*banked, 0, 0, 2, 0)
        return (*banked, 0, 0, 1 - seat, 0)

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
        if rolls + 1 == self.rolls:  # the third roll ends the turn and banks
            banked[seat] += turn + action
            return self._end_turn(banked, seat)
        return (first, second, turn + action, rolls + 1, seat, 0)

    def returns(self, state: State) -> list[float]:
        first, second = state[0], state[1]
        return WIN[2] if first == second else WIN[0] if first > second else WIN[1]

    def observation(self, state: State, seat: int) -> list[int]:
        first, second, turn, rolls, mover, _ = state
        banked = (first, second)
        return [banked[seat], banked[1 - seat], turn, rolls, mover, seat]

    def state_text(self, state: State) -> str:
        first, second, turn, rolls, seat, _ = state
        return "banked %d against %d, turn total %d after %d rolls (seat %d to move)" % (
            (first, second)[seat], (first, second)[1 - seat], turn, rolls, seat)


class BoxDuel:
    """Shut the Box for two players: ``(seat to move (2: over), open tiles, roll, dice, seat 0's score)``: roll
    r > 0 a move for r; dice d > 0 the chance node of throwing d dice; both 0 the choice of one die or all.
    Over: ``(2, result, 0, 0, 0)``, result 0 or 1 the winner, 2 a tie. Actions: the tiles shut (bits), then
    the throws (``rl/_box.py``); the lower score wins, shutting the box wins at once."""

    name, players, exact = "shutthebox", 2, True

    def __init__(self, tiles=None, dice=None, sides=None, one_die=None, max_move_tiles=None):
        from ._box import BoxModel, game_of

        self.rules, _ = game_of(2, tiles, dice, sides, one_die, max_move_tiles)
        self.box = BoxModel(self.rules)
        self.n_actions = self.box.n_actions

    def _ready(self, seat: int, position: int, posted: int) -> State:
        choices = self.box.choices[position]
        return (seat, position, 0, 0 if len(choices) > 1 else choices[0], posted)

    def initial(self) -> State:
        return self._ready(0, self.rules.all_open, 0)

    def player(self, state: State) -> int:
        if state[0] == 2:
            return TERMINAL
        return CHANCE if state[3] else state[0]

    def legal(self, state: State) -> list[int]:
        _, position, roll, _, _ = state
        if roll:
            return sorted(self.box.legal(position)[roll])
        return sorted(map(self.box.throw_action, self.box.choices[position]))

    def outcomes(self, state: State):
        return sorted(self.box.weights[state[3]].items()), self.rules.outcomes

    def apply(self, state: State, action: int) -> State:
        seat, position, roll, dice, posted = state
        box = self.box
        if dice:  # the roll: a move, or the turn's end where none fits
            if action in box.legal(position):
                return (seat, position, action, 0, posted)
            score = box.sums[position]
            if not seat:
                return self._ready(1, self.rules.all_open, score)
            return (2, 2 if score == posted else int(score < posted), 0, 0, 0)
        if not roll:
            return (seat, position, 0, box.dice_of(action), posted)
        position ^= action
        return self._ready(seat, position, posted) if position else (2, seat, 0, 0, 0)

    def returns(self, state: State) -> list[float]:
        return WIN[state[1]]

    def observation(self, state: State, seat: int) -> list[int]:
        mover, position, roll, _, posted = state
        return [position >> i & 1 for i in range(self.rules.tiles)] + [roll, mover, seat, posted, 0]

    def state_text(self, state: State) -> str:
        from ..engine.notation import format_set

        seat, position, roll, _, posted = state
        return "seat %d, open %s, %s%s" % (seat, format_set(position, self.rules.tiles),
                                           "roll %d" % roll if roll else "throw one die or all",
                                           ", seat 0 scored %d" % posted if seat else "")


class YazyDuel:
    """Two-player yazy: ``(seat to move, the other's open categories, the other's total)`` then the mover's
    state as yazy's game model has it (``games/yazy/model.py``: open categories, dice, rerolls, total), whose
    actions these are. A score passes the turn; the higher total wins once both have scored every category."""

    name, players, exact = "yazy", 2, True

    def __init__(self, categories=None):
        from ..games.yazy.model import model
        from ..games.yazy.rules import REROLLS, SCORE, Rules

        self.score, self.rerolls = SCORE, REROLLS
        self.turn = model(Rules() if categories is None else Rules(categories=categories))
        self.n_actions = self.turn.n_actions

    def initial(self) -> State:
        inner = self.turn.initial()
        return (0, inner[0], 0) + inner

    def player(self, state: State) -> int:
        if not state[1] and not state[3]:
            return TERMINAL
        return CHANCE if self.turn.player(state[3:]) == CHANCE else state[0]

    def legal(self, state: State) -> list[int]:
        return self.turn.legal(state[3:])

    def outcomes(self, state: State):
        return self.turn.outcomes(state[3:])

    def apply(self, state: State, action: int) -> State:
        seat, other, other_total = state[:3]
        chance = self.player(state) == CHANCE
        inner = self.turn.apply(state[3:], action)
        if chance or action < self.score:
            return state[:3] + inner
        opened, total = inner[0], inner[-1]
        return (1 - seat, opened, total, other) + (0,) * 5 + (self.rerolls if other else 0, other_total)

    def returns(self, state: State) -> list[float]:
        seat, _, other_total = state[:3]
        total = state[-1]
        if total == other_total:
            return WIN[2]
        return WIN[seat] if total > other_total else WIN[1 - seat]

    def observation(self, state: State, seat: int) -> list[int]:
        mover, other, other_total = state[:3]
        bits = [other >> c & 1 for c in range(11)]
        return self.turn.observation(state[3:]) + bits + [other_total, mover, seat]

    def state_text(self, state: State) -> str:
        return "seat %d, %s; the other: %s" % (state[0], self.turn.state_text(state[3:]), "open %s, total %d" % (
            self._categories(state[1]), state[2]))

    @staticmethod
    def _categories(mask: int) -> str:
        from ..games.yazy.rules import format_categories

        return format_categories(mask) if mask else "none"


GAMES = {"shutthebox": BoxDuel, "goat": GoatDuel, "pig": PigDuel, "yazy": YazyDuel}


def duel(game: str, **rules):
    """The game ``game`` (``shutthebox``, ``goat``, ``pig``, ``yazy``) under ``rules`` (its environment's
    options: ``goal``, ``variant``, ``tiles``, ``categories``, ...), checked as the command checks them."""
    found = GAMES.get(game) if isinstance(game, str) else None
    if found is None:
        raise InvalidQuery("exploitability is worked out for the two-player games %s, not %r"
                           % (", ".join(GAMES), game))
    try:
        return found(**rules)
    except TypeError:
        raise InvalidQuery("%s takes the options %s, not %s" % (game, ", ".join(_options(found)),
                                                                ", ".join(sorted(rules)))) from None


def _options(cls) -> list:
    import inspect

    return [name for name in inspect.signature(cls.__init__).parameters if name != "self"]
