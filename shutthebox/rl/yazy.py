"""``shutthebox/Yazy-v0``: yazy (11 turns of five dice, no bonuses), exact info (docs/RL.md); and the
numbering of dice and keeps that Yahtzee's environment shares."""

from __future__ import annotations

from itertools import combinations_with_replacement
from operator import itemgetter

import numpy as np

from ..games.yazy.rules import ALL, CATEGORIES, REROLLS, ROLLS, SCORE, describe_move, format_categories, score
from ..games.yazy.table import load
from ._base import Decision, ExactEnv, Model, cached, state_tuple, whole

DICE, SIDES = 5, 6
KEEP_ALL = (1 << DICE) - 1
TIE = 1e-9  # our sums of the table's float64 values are within 1e-12 of its own; real gaps exceed 1e-5
ROLL_INDEX = {roll: index for index, roll in enumerate(ROLLS)}
# Keeps of k dice (sorted tuples), level by level; level 5 is the 252 rolls in the tables' order.
LEVELS = [list(combinations_with_replacement(range(1, SIDES + 1), k)) for k in range(DICE + 1)]
_WHERE = [{keep: index for index, keep in enumerate(level)} for level in LEVELS]
_CHILDREN = [[itemgetter(*[_WHERE[k + 1][tuple(sorted(keep + (face,)))] for keep in LEVELS[k]])
              for face in range(1, SIDES + 1)] for k in range(DICE)]
_KEPT: dict = {}
LABELS = ("1", "2", "3", "4", "5", "6", "3k", "4k", "fh", "st", "yz")  # the categories in a picture


def kept(roll: tuple) -> list:
    """For each keep action 0..31 on the sorted ``roll``: (level, index) of the kept dice."""
    found = _KEPT.get(roll)
    if found is None:
        found = _KEPT[roll] = []
        for mask in range(1 << DICE):
            keep = tuple(die for position, die in enumerate(roll) if mask >> position & 1)
            found.append((len(keep), _WHERE[len(keep)][keep]))
    return found


def means(row: list) -> list:
    """The keep tree: [E over level 0, ..., level 4, row], E(K) the mean of ``row`` over the rolls that keep K
    (one die at a time: E(K) = (E(K+1) + ... + E(K+6)) / 6)."""
    levels = [None] * DICE + [row]
    for k in range(DICE - 1, -1, -1):
        above = levels[k + 1]
        if k == 0:
            levels[0] = [sum(above) / 6]
            continue
        one, two, three, four, five, six = (get(above) for get in _CHILDREN[k])
        levels[k] = [(a + b + c + d + e + f) / 6 for a, b, c, d, e, f in zip(one, two, three, four, five, six)]
    return levels


def reroll(die, roll: tuple, mask: int) -> tuple:
    """The dice of ``mask`` kept, the others thrown again, sorted."""
    return tuple(sorted([d for position, d in enumerate(roll) if mask >> position & 1]
                        + [die(SIDES) for position in range(DICE) if not mask >> position & 1]))


def throw(die) -> tuple:
    return tuple(sorted(die(SIDES) for _ in range(DICE)))


class YazyModel(Model):
    n_actions = SCORE + len(CATEGORIES)
    more = True
    tie = TIE

    def __init__(self):
        self.table = table = load()
        super().__init__()
        whole = table.file.whole
        self.turn = whole("turn").tolist()  # the value at a turn's start, by open set (0: nothing to come)
        self.expect = whole("expect")  # [(open * 3 + rerolls) * 252 + roll]
        self.move = whole("move")
        self.scores = [[score(c, roll) for roll in ROLLS] for c in range(len(CATEGORIES))]
        self._means: dict = {}

    def keep_means(self, open_set: int, rerolls: int) -> list:
        key = open_set * 4 + rerolls
        found = self._means.get(key)
        if found is None:
            if len(self._means) >= 2048:
                self._means.clear()
            start = (open_set * 3 + rerolls - 1) * len(ROLLS)
            found = self._means[key] = means(self.expect[start:start + len(ROLLS)].tolist())
        return found

    def decide(self, state, exact: bool) -> Decision:
        open_set, roll, rerolls = state
        number = ROLL_INDEX[roll]
        turn, scores = self.turn, self.scores
        values = {SCORE + c: scores[c][number] + turn[open_set & ~(1 << c)] if exact else 0.0
                  for c in range(len(CATEGORIES)) if open_set >> c & 1}
        if rerolls:
            if exact:
                tree = self.keep_means(open_set, rerolls)
                for mask, (level, index) in enumerate(kept(roll)):
                    values[mask] = tree[level][index]
            else:
                values.update(dict.fromkeys(range(1 << DICE), 0.0))
        if not exact:
            return Decision(self.n_actions, values, True, exact=False)
        index = (open_set * 3 + rerolls) * len(ROLLS) + number
        return Decision(self.n_actions, values, True, self.tie, value=self.expect[index], table_move=self.move[index])


_MODELS: dict = {}


def model() -> YazyModel:
    return cached(_MODELS, "yazy", YazyModel, model, ())


def check_dice(roll, rerolls) -> tuple:
    """(the five dice sorted, rerolls) checked, as a ValueError."""
    if isinstance(roll, np.ndarray):
        roll = roll.tolist()
    if not isinstance(roll, (tuple, list)) or len(roll) != DICE:
        raise ValueError("the dice are five numbers from 1 to 6, not %r" % (roll,))
    roll = tuple(sorted(whole(die, "a die", 1, SIDES) for die in roll))
    return roll, whole(rerolls, "the rerolls left", 0, REROLLS)


def dice_row(roll: tuple, rerolls: int) -> list:
    """A picture's row: the five dice, then a marker for each reroll left."""
    return [("die", die) for die in roll] + [("tile", "", taken < rerolls) for taken in range(REROLLS)]


def dice_fields(roll: tuple, rerolls: int) -> list:
    return list(roll) + [rerolls]


class YazyEnv(ExactEnv):
    """yazy: 11 turns; each rolls five dice, then up to two rerolls (keep any dice, roll the rest), then
    scores one open category (ones..sixes, three-kind, four-kind, full-house, straight, yazy). No bonuses.
    The most points. ``gymnasium.make("shutthebox/Yazy-v0")`` (one rule set: the shipped table).

    - **Actions**: ``Discrete(43)``, the table's move codes: ``a`` in 0..31 keeps the dice at the positions
      of its bits in the sorted dice (bit ``i``: the ``i + 1``-th smallest die) and rerolls the rest (31
      keeps all five: a reroll spent), legal while a reroll is left; ``32 + c`` scores category ``c``
      (``ones, twos, threes, fours, fives, sixes, three-kind, four-kind, full-house, straight, yazy``), legal
      while it is open.
    - **Observation**: ``MultiDiscrete([2] * 11 + [7] * 5 + [3])``: ``obs[c]`` 1 while category ``c`` is
      open, then the five dice sorted (1-6; 0 once the game is over), then the rerolls left.
    - **Reward**: the points scored (0 for a keep). The return is the final total; more is better.
    - **Info**: ``q_values``: a score's points plus the table's value after it (``yazy --expect CATS``), a
      keep's mean of the table's mid-turn values over the dice thrown (``yazy --expect CATS DICE REROLLS``),
      -inf where illegal; ``optimal_actions``: within 1e-9 of the best, the table's ``--move`` among them;
      ``regret`` in expected points; ``q_return`` (the same values: points are the reward), ``optimal_mask``.
    - **State** (``get_state()``, ``reset(options={"state": ...})``): ``(open categories as a bitmask, the
      five dice sorted, rerolls left)``.
    - **Illegal actions** (``illegal="end"``): the default penalty is -1 (the points still to come are lost
      too).
    """

    def __init__(self, render_mode: str | None = None, exact_info: bool = True, **options):
        super().__init__(model(), [2] * len(CATEGORIES) + [SIDES + 1] * DICE + [REROLLS + 1], render_mode,
                         exact_info, **options)
        self.open, self.roll, self.rerolls = ALL, (0,) * DICE, 0

    def _start(self) -> float:
        self.open, self.roll, self.rerolls = ALL, throw(self.dice.die), REROLLS
        self._key = (self.open, self.roll, self.rerolls)
        return 0.0

    def _play(self, action: int):
        if action < SCORE:
            self.roll = reroll(self.dice.die, self.roll, action)
            self.rerolls -= 1
            self._key = (self.open, self.roll, self.rerolls)
            return 0.0, False
        category = action - SCORE
        points = self.model.scores[category][ROLL_INDEX[self.roll]]
        self.open &= ~(1 << category)
        if not self.open:
            self.roll, self.rerolls = (0,) * DICE, 0
            self._key = None
            return float(points), True
        self.roll, self.rerolls = throw(self.dice.die), REROLLS
        self._key = (self.open, self.roll, self.rerolls)
        return float(points), False

    def _observe(self) -> np.ndarray:
        open_set = self.open
        return np.array([open_set >> c & 1 for c in range(len(CATEGORIES))] + dice_fields(self.roll, self.rerolls),
                        dtype=np.int64)

    def get_state(self) -> tuple:
        """``(open categories as a bitmask, the five dice sorted, rerolls left)``: bit ``c`` is category ``c``."""
        return (self.open, self.roll, self.rerolls)

    def _load(self, state) -> None:
        open_set, roll, rerolls = state_tuple(state, 3, "(open categories as a bitmask, five dice, rerolls left)")
        open_set = whole(open_set, "the open categories (a bitmask)", 1, ALL)
        self.roll, self.rerolls = check_dice(roll, rerolls)
        self.open = open_set
        self._key = (self.open, self.roll, self.rerolls)

    def _board(self) -> list:
        return [[("tile", LABELS[c], self.open >> c & 1) for c in range(len(CATEGORIES))],
                dice_row(self.roll, self.rerolls)]

    def question(self) -> list:
        return ["yazy", "--move", format_categories(self.open), "".join(map(str, self.roll)), str(self.rerolls)]

    def action_words(self, action: int) -> str:
        """An action in the command line's words (``keep 6 6``, ``score straight``) for the dice showing."""
        return describe_move(action, self.roll) if action != KEEP_ALL else "keep " + " ".join(map(str, self.roll))

    def _words(self) -> str:
        if not self.open:
            return "every category is scored"
        return "open %s, dice %s, %d reroll%s left   (ShutTheBox %s)" % (
            format_categories(self.open), "".join(map(str, self.roll)), self.rerolls,
            "" if self.rerolls == 1 else "s", " ".join(self.question()))
