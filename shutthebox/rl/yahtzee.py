"""``shutthebox/Yahtzee-v0``: full Yahtzee (13 turns, both bonuses, jokers), exact info (docs/RL.md).

Every choice's value comes from the game's own question-time turn solver (``YahtzeeTable.turn``): the
exact rational computed from the table's turn-start values, as ``ShutTheBox yahtzee --options`` prints it.
"""

from __future__ import annotations

import numpy as np

from ..games.yahtzee.rules import (
    ALL, CATEGORIES, DEFAULT_JOKER, FIFTY, JOKERS, OPEN, REROLLS, ROLLS, SIXES, UPPER_GOAL, YAHTZEE, ZERO, format_categories,
    joker_choices, score, upper_points, yahtzee_bonus,
)
from ..games.yahtzee.table import load
from ..games.yahtzee.turn import TIE, denominator
from ..errors import InvalidQuery
from ._base import Decision, ExactEnv, Model, cached, state_tuple, whole
from ._dicetree import KEEP, FloatTurn
from .yazy import DICE, ROLL_INDEX, SIDES, check_dice, dice_row, reroll, throw

SCORE = 32  # actions 32 + c score box c; 0..31 keep the dice of the bits
_MODELS: dict = {}
_MASKS: dict = {}
LABELS = ("1", "2", "3", "4", "5", "6", "3k", "4k", "fh", "ss", "ls", "yz", "ch")  # the boxes in a picture


def masks_of(roll: tuple) -> list:
    """[(mask, kept dice)] for the 32 keep actions on the sorted ``roll``."""
    found = _MASKS.get(roll)
    if found is None:
        found = _MASKS[roll] = [(mask, tuple(d for position, d in enumerate(roll) if mask >> position & 1))
                                for mask in range(1 << DICE)]
    return found


class YahtzeeModel(Model):
    """One joker rule. ``rational``: every value the exact rational of the game's own turn solver (as
    ``yahtzee --options`` prints it), about 1 ms for each new turn; else float64 numpy from the same table
    values (``_dicetree``), within about 1e-12 of those rationals and several times faster."""

    n_actions = SCORE + len(CATEGORIES)
    more = True
    tie = TIE

    def __init__(self, joker: str, rational: bool = False):
        self.joker, self.rational = joker, rational
        self.table = load(joker)
        super().__init__()
        self.scores = np.array([[score(c, roll) for roll in ROLLS] for c in range(len(CATEGORIES))])
        self._turns: dict = {}

    # -- the float64 path ----------------------------------------------------------------------

    def _after(self, card: int, upper: int, box: int, category: int, points: int) -> float:
        """``points`` written in ``category`` (the upper bonus included) plus the table's value after it."""
        later = self.table.value
        card &= ~(1 << category)
        if category <= SIXES:
            upper, bonus = upper_points(upper, category, points)
            return points + bonus + later(card, upper, box)
        if category == YAHTZEE:
            return points + later(card, upper, FIFTY if points else ZERO)
        return points + later(card, upper, box)

    def float_turn(self, card: int, upper: int, box: int) -> FloatTurn:
        key = (card, upper, box)
        found = self._turns.get(key)
        if found is not None:
            return found
        if len(self._turns) >= 4096:
            self._turns.clear()
        boxes = np.full((len(CATEGORIES), len(ROLLS)), -np.inf)
        for c in range(len(CATEGORIES)):
            if not card >> c & 1:
                continue
            scores = self.scores[c]
            if c <= SIXES or c == YAHTZEE:
                after = np.zeros(int(scores.max()) + 1)
                for points in set(scores.tolist()):
                    after[points] = self._after(card, upper, box, c, points)
                boxes[c] = after[scores]
            else:
                boxes[c] = scores + self._after(card, upper, box, c, 0)
        if box != OPEN and self.joker != "none":  # a Yahtzee on a filled yahtzee box: the joker rule
            for face in range(1, SIDES + 1):
                r = ROLL_INDEX[(face,) * DICE]
                boxes[:, r] = -np.inf
                extra = yahtzee_bonus(self.joker, box, (face,) * DICE)
                for c, points in joker_choices(self.joker, card, box, face):
                    boxes[c, r] = self._after(card, upper, box, c, points) + extra
        found = self._turns[key] = FloatTurn(boxes)
        return found

    def decide(self, state, exact: bool) -> Decision:
        if self.rational and exact:
            return self._decide_rational(state, exact)
        card, upper, box, roll, rerolls = state
        if not exact:
            if roll[0] == roll[-1]:
                boxes = [c for c, _ in joker_choices(self.joker, card, box, roll[0])]
            else:
                boxes = [c for c in range(len(CATEGORIES)) if card >> c & 1]
            values = dict.fromkeys([SCORE + c for c in boxes] + (list(range(1 << DICE)) if rerolls else []), 0.0)
            return Decision(self.n_actions, values, True, exact=False)
        turn = self.float_turn(card, upper, box)
        r = ROLL_INDEX[roll]
        column = turn.boxes[:, r].tolist()
        values = {SCORE + c: v for c, v in enumerate(column) if v != -np.inf}
        if rerolls:
            values.update(enumerate(turn.tree[rerolls][KEEP[r]].tolist()))
        return Decision(self.n_actions, values, True, self.tie)

    # -- the rational path ---------------------------------------------------------------------

    def _decide_rational(self, state, exact: bool) -> Decision:
        card, upper, box, roll, rerolls = state
        turn = self.table.turn(card, upper, box)
        scale = denominator(rerolls)
        values, keeps = {}, {}
        listed = turn.listed(roll, rerolls)
        best = max(choice[0] for choice in listed)
        top = best - int(TIE * scale)  # the table's move: the first choice within TIE of the best (turn.best)
        table_move = None
        for numerator, _, move in listed:
            if move[0] == "score":
                action = SCORE + move[1]
                values[action] = numerator / scale
            else:
                keeps[move[1]] = numerator / scale
                action = None
            if table_move is None and numerator >= top:
                table_move = action if action is not None else next(
                    mask for mask, keep in masks_of(roll) if keep == move[1])
        if rerolls:
            for mask, keep in masks_of(roll):
                values[mask] = keeps[keep]
        return Decision(self.n_actions, values, True, self.tie, value=best / scale, table_move=table_move)


def model(joker: str, rational: bool = False) -> YahtzeeModel:
    if not isinstance(joker, str) or joker not in JOKERS:
        raise InvalidQuery("the joker rule must be %s or %s, not %r" % (", ".join(JOKERS[:-1]), JOKERS[-1], joker))
    if not isinstance(rational, (bool, np.bool_)):
        raise InvalidQuery("rational must be True or False, not %r" % (rational,))
    key = (joker, bool(rational))
    return cached(_MODELS, key, lambda: YahtzeeModel(*key), model, key)


class YahtzeeEnv(ExactEnv):
    """Full Yahtzee as printed in the box: 13 turns of five dice, two rerolls each, then one open box; the
    upper bonus (35 at 63), the Yahtzee bonus (100 each once the yahtzee box holds 50) and jokers. The most
    points. ``gymnasium.make("shutthebox/Yahtzee-v0", joker="official")`` (``free``, ``none``: solved on first
    use and cached, as ``ShutTheBox yahtzee --joker`` does).

    - **Actions**: ``Discrete(45)``: ``a`` in 0..31 keeps the dice at the positions of its bits in the sorted
      dice and rerolls the rest (31 keeps all five), legal while a reroll is left; ``32 + c`` writes the dice
      in box ``c`` (``ones .. sixes, three-kind, four-kind, full-house, small-straight, large-straight,
      yahtzee, chance``), legal when the box is open and, for a Yahtzee on a filled yahtzee box, the joker
      rule allows it.
    - **Observation**: ``MultiDiscrete([2] * 13 + [64, 3] + [7] * 5 + [3])``: ``obs[c]`` 1 while box ``c`` is
      open; the upper section's points capped at 63; the yahtzee box (0 open, 1 holds 0, 2 holds 50); the
      five dice sorted (0 once the game is over); the rerolls left.
    - **Reward**: the points a move writes, with the upper bonus when it reaches 63 and the Yahtzee bonus;
      0 for a keep. The return is the final total; more is better.
    - **Info**: ``q_values``: every legal choice's expected points to come after it, bonuses included
      (``yahtzee --options``): with ``rational=True`` the float64 of the exact rational the command prints
      (about 1 ms for each new turn); by default computed in float64 from the same table values, within
      about 1e-12 of it and several times faster; -inf where illegal. ``optimal_actions``: within
      1e-9 of the best (``--move`` among them); ``regret`` in expected points; ``q_return`` (the same
      values), ``optimal_mask``.
    - **State** (``get_state()``, ``reset(options={"state": ...})``): ``(open boxes as a bitmask, upper
      section's points, yahtzee box (0 open, 1 holds 0, 2 holds 50), the five dice sorted, rerolls left)``.
    - **Illegal actions** (``illegal="end"``): the default penalty is -1 (the points still to come are lost
      too).
    """

    def __init__(self, joker: str = DEFAULT_JOKER, rational: bool = False, render_mode: str | None = None,
                 exact_info: bool = True, **options):
        found = model(joker, rational)
        self.joker = joker
        super().__init__(found, [2] * len(CATEGORIES) + [UPPER_GOAL + 1, 3] + [SIDES + 1] * DICE + [REROLLS + 1],
                         render_mode, exact_info, **options)
        self.card, self.upper, self.box, self.roll, self.rerolls = ALL, 0, OPEN, (0,) * DICE, 0

    def _set_state(self):
        self._key = (self.card, min(self.upper, UPPER_GOAL), self.box, self.roll, self.rerolls)

    def _start(self) -> float:
        self.card, self.upper, self.box = ALL, 0, OPEN
        self.roll, self.rerolls = throw(self.dice.die), REROLLS
        self._set_state()
        return 0.0

    def written(self, category: int) -> int:
        """The points box ``category`` gets for the dice showing (a joker's points or zero included), no bonus."""
        roll = self.roll
        if roll[0] == roll[-1]:
            return dict(joker_choices(self.joker, self.card, self.box, roll[0]))[category]
        return score(category, roll)

    def points(self, category: int) -> int:
        """What writing the dice showing in ``category`` earns now, bonuses included."""
        points = self.written(category)
        extra = yahtzee_bonus(self.joker, self.box, self.roll)
        if category <= SIXES:
            extra += upper_points(min(self.upper, UPPER_GOAL), category, points)[1]
        return points + extra

    def _play(self, action: int):
        if action < SCORE:
            self.roll = reroll(self.dice.die, self.roll, action)
            self.rerolls -= 1
            self._set_state()
            return 0.0, False
        category = action - SCORE
        earned, points = self.points(category), self.written(category)
        if category <= SIXES:
            self.upper += points
        elif category == YAHTZEE:
            self.box = FIFTY if points else ZERO
        self.card &= ~(1 << category)
        if not self.card:
            self.roll, self.rerolls = (0,) * DICE, 0
            self._key = None
            return float(earned), True
        self.roll, self.rerolls = throw(self.dice.die), REROLLS
        self._set_state()
        return float(earned), False

    def _observe(self) -> np.ndarray:
        card = self.card
        return np.array([card >> c & 1 for c in range(len(CATEGORIES))] + [min(self.upper, UPPER_GOAL), self.box]
                        + list(self.roll) + [self.rerolls], dtype=np.int64)

    def get_state(self) -> tuple:
        """``(open boxes as a bitmask, upper section's points, yahtzee box, the five dice sorted, rerolls left)``:
        bit ``c`` is box ``c``; the yahtzee box 0 open, 1 holding 0, 2 holding 50."""
        return (self.card, self.upper, self.box, self.roll, self.rerolls)

    def _load(self, state) -> None:
        card, upper, box, roll, rerolls = state_tuple(state, 5, "(open boxes as a bitmask, upper points, yahtzee "
                                                                "box, five dice, rerolls left)")
        card = whole(card, "the open boxes (a bitmask)", 1, ALL)
        upper = whole(upper, "the upper section's points", 0, 5 * (1 + 2 + 3 + 4 + 5 + 6))
        box = whole(box, "the yahtzee box", OPEN, FIFTY)
        if (box == OPEN) != bool(card >> YAHTZEE & 1):
            raise ValueError("the yahtzee box is %s but the open boxes say it is %s"
                             % ("open" if box == OPEN else "filled", "filled" if box == OPEN else "open"))
        self.roll, self.rerolls = check_dice(roll, rerolls)
        self.card, self.upper, self.box = card, upper, box
        self._set_state()

    def _board(self) -> list:
        return [[("tile", LABELS[c], self.card >> c & 1) for c in range(len(CATEGORIES))],
                [("text", "upper"), ("text", str(self.upper), len(str(DICE * SIDES * (SIDES + 1) // 2)))]
                + dice_row(self.roll, self.rerolls)]

    def question(self) -> list:
        words = ["yahtzee", "--joker", self.joker, "--move", format_categories(self.card), "--upper", str(self.upper)]
        if self.box != OPEN:
            words += ["--yahtzee-box", "50" if self.box == FIFTY else "0"]
        return words + ["".join(map(str, self.roll)), str(self.rerolls)]

    def _words(self) -> str:
        if not self.card:
            return "every box is filled"
        return "open %s, upper %d, dice %s, %d reroll%s left   (ShutTheBox %s)" % (
            format_categories(self.card), self.upper, "".join(map(str, self.roll)), self.rerolls,
            "" if self.rerolls == 1 else "s", " ".join(self.question()))


__all__ = ["YahtzeeEnv"]
