"""yazy as a game model (``engine/model.py``), read from its expected-score table (``table.py``).

A state is ``(open, d1, d2, d3, d4, d5, rerolls, total)``: the open categories (a bitmask of the full game's
numbering, within the rules' categories; 0 once every category is scored: the end), the dice showing, sorted,
0 for none (0s last), the rerolls left and the points scored so far.

- Five dice showing: the player's decision. Actions are ``shutthebox/Yazy-v0``'s: ``a`` in
  0..31 (while a reroll is left) keeps the dice at the positions of its bits in the sorted dice and rerolls
  the others, 31 keeping all five (a reroll spent, the same dice showing); ``SCORE + c`` (32 + c) scores open
  category ``c`` and starts the next turn. Of equal faces only the leftmost are kept (one action for each set
  of faces kept, as the table's moves are: OpenSpiel wants a legal action's words to be its own), so the legal
  keeps are those of the 32 masks that take the first of each run of equal faces.
- Fewer dice showing (``k`` of them: those kept, or none at a turn's start, where ``rerolls`` is 2): a chance
  node, the throw of the ``n = 5 - k`` others, ``rerolls`` already counting the reroll spent. Outcome ``o`` is
  the ``o``-th sorted roll of ``n`` dice in lexicographic order (``combinations_with_replacement(1..6, n)``:
  for ``n = 5`` the tables' ``ROLLS``), of weight its multinomial count ``n! / (c1! ... c6!)`` over ``6 ** n``;
  the dice thrown join those kept, sorted.

The one seat's return is the total (the state's last field: ``tally``): more is better. A decision's values are
the total so far plus a score's points and the table's value after it (``yazy --expect CATS``), or a keep's
mean of the table's mid-turn values over the dice thrown (the keep tree, ``engine/dicekeep.py``); a
decision's value is the table's (``yazy --expect CATS DICE REROLLS``), a turn's start the table's value of its
open set, a throw after a keep the keep's mean.
"""

from __future__ import annotations

from ...engine.dicekeep import keep_means
from ...engine.model import CHANCE, TERMINAL, State
from ...engine.throws import faces, keeps, sorted_rolls, throw
from .rules import CATEGORIES, REROLLS, ROLLS, SCORE, Rules, describe_move, format_categories
from .table import load
from .turn import score_row

PLAYERS = 1
DICE, SIDES = 5, 6
# Keeps of k dice (sorted tuples), level by level, as the keep tree numbers them; level 5 is ROLLS.
LEVELS = [sorted_rolls(k, SIDES) for k in range(DICE + 1)]
_WHERE = [{keep: index for index, keep in enumerate(level)} for level in LEVELS]
ROLL_INDEX = _WHERE[DICE]
# A throw of n dice: [(outcome, weight)] (the multinomial counts) and their total 6 ** n.
THROWS = [throw(n, SIDES) for n in range(DICE + 1)]
_KEPT: dict = {}  # sorted roll -> [(mask, level, index of the dice it keeps)] of its legal keeps
_PADDED: dict = {}  # sorted roll -> [the dice each mask keeps, then 0s]
_BITS = [[open_set >> c & 1 for c in range(len(CATEGORIES))] for open_set in range(1 << len(CATEGORIES))]
_MODELS: dict = {}
_MEANS_KEPT = 2048  # keep trees cached per model (an open set and the rerolls after the keep each)
REWARD_THRESHOLD = 164.1  # shutthebox/Yazy-v0's: within 1% of optimal play's 165.757319 (every category)
LABELS = ("1", "2", "3", "4", "5", "6", "3k", "4k", "fh", "st", "yz")  # the categories in a picture (``board``)


def model(rules: Rules | None = None) -> "YazyModel":
    """The model of ``rules`` (default: all eleven categories), made once per process; a game of fewer
    categories has its table solved on first use."""
    rules = Rules() if rules is None else rules
    found = _MODELS.get(rules)
    if found is None:
        found = _MODELS[rules] = YazyModel(load(rules=rules))
    return found


def padded(roll: tuple) -> list:
    """For each mask 0..31, the dice of the sorted ``roll`` it keeps, then 0s to five (a state's dice)."""
    found = _PADDED.get(roll)
    if found is None:
        found = _PADDED[roll] = [faces(roll, mask) + (0,) * (DICE - bin(mask).count("1")) for mask in range(32)]
    return found


def kept(roll: tuple) -> list:
    """The legal keeps on the sorted ``roll``, increasing: (mask, level, index of the kept dice in the keep
    tree) for each mask that keeps no die unless it keeps the equal dice left of it."""
    found = _KEPT.get(roll)
    if found is None:
        found = _KEPT[roll] = []
        for mask in keeps(roll):
            keep = faces(roll, mask)
            found.append((mask, len(keep), _WHERE[len(keep)][keep]))
    return found


class YazyModel:
    """``engine.model.GameModel`` for yazy under one rule set (its categories)."""

    id = "yazy"
    players = PLAYERS
    n_actions = SCORE + len(CATEGORIES)
    n_outcomes = len(ROLLS)
    min_return = 0.0
    tie = 1e-9  # values this close are equally good (sums of the table's floats: within 1e-12 of exact)
    tally = True  # the last field is the total: nothing else depends on it
    min_to_come = 0.0  # points are never taken away

    def __init__(self, table) -> None:
        self.table, self.rules = table, table.rules
        self.sets = table.sets
        self.game = game = table.sets.game
        whole = table.file.whole
        self.turn = whole("turn").tolist()  # the value at a turn's start, by the open set's row
        rows = table.sets.rows  # the same by the open set itself (None where it is no set of the game)
        self.turn_of: list = self.turn if rows is None else [
            None if rows.get(s) is None else self.turn[rows[s]] for s in range(1 << len(CATEGORIES))]
        self.expect = whole("expect")  # [(row * 3 + rerolls) * 252 + roll]
        self.move = whole("move")
        self.scores = [list(score_row(c)) for c in range(len(CATEGORIES))]
        played = [c for c in range(len(CATEGORIES)) if game >> c & 1]
        self.max_length = (2 + 2 * REROLLS) * len(played)  # a turn: a throw, 2 keeps and rethrows, a score
        top = sum(max(self.scores[c]) for c in played)
        self.max_return = float(top)
        self.observation_nvec = (2,) * len(CATEGORIES) + (SIDES + 1,) * DICE + (REROLLS + 1, top + 1)
        self._means: dict = {}

    def __reduce__(self):
        return (model, (self.rules,))

    # -- the table's numbers ----------------------------------------------------------------------------

    def _index(self, open_set: int, roll: tuple, rerolls: int) -> int:
        return (self.sets.row(open_set) * (REROLLS + 1) + rerolls) * len(ROLLS) + ROLL_INDEX[roll]

    def keep_tree(self, open_set: int, after: int) -> list:
        """The keep tree's means (``dicekeep.keep_means``: level k, the mean over the rolls keeping each k
        dice) of the table's values with ``after`` rerolls left."""
        row = self.sets.row(open_set)
        key = row * (REROLLS + 1) + after
        found = self._means.get(key)
        if found is None:
            if len(self._means) >= _MEANS_KEPT:
                self._means.clear()
            start = key * len(ROLLS)
            found = self._means[key] = keep_means(self.expect[start:start + len(ROLLS)].tolist())
        return found

    # -- the game model -----------------------------------------------------------------------------------

    def initial(self) -> State:
        return (self.game,) + (0,) * DICE + (REROLLS, 0)

    @staticmethod
    def dice(state: State) -> tuple:
        """The dice showing, sorted."""
        shown = state[1:1 + DICE]
        return shown if shown[-1] else shown[:shown.index(0)]  # 0s last: all five, or fewer

    def player(self, state: State) -> int:
        if not state[0]:
            return TERMINAL
        return 0 if state[DICE] else CHANCE

    def legal(self, state: State) -> list[int]:
        open_set, rerolls = state[0], state[DICE + 1]
        keeps = [mask for mask, _, _ in kept(self.dice(state))] if rerolls else []
        return keeps + [SCORE + c for c in range(len(CATEGORIES)) if open_set >> c & 1]

    def outcomes(self, state: State) -> tuple[list[tuple[int, int]], int]:
        return THROWS[DICE - len(self.dice(state))]  # shared, read only: the same list for every throw of n dice

    def apply(self, state: State, action: int) -> State:
        open_set, rerolls, total = state[0], state[DICE + 1], state[DICE + 2]
        dice = self.dice(state)
        if len(dice) < DICE:  # a throw: the dice thrown join those kept
            roll = LEVELS[DICE][action] if not dice else tuple(sorted(dice + LEVELS[DICE - len(dice)][action]))
            return (open_set,) + roll + (rerolls, total)
        if action < SCORE:
            return (open_set,) + padded(dice)[action] + (rerolls - 1, total)
        category = action - SCORE
        total += self.scores[category][ROLL_INDEX[dice]]
        open_set &= ~(1 << category)
        return (open_set,) + (0,) * DICE + (REROLLS if open_set else 0, total)

    def returns(self, state: State) -> list[float]:
        return [float(state[DICE + 2])]

    def values(self, state: State) -> dict[int, float]:
        open_set, rerolls, total = state[0], state[DICE + 1], state[DICE + 2]
        roll = self.dice(state)
        number, turn, scores = ROLL_INDEX[roll], self.turn_of, self.scores
        values = {}
        if rerolls:  # the keeps first: the actions increase
            tree = self.keep_tree(open_set, rerolls - 1)
            for mask, level, index in kept(roll):
                values[mask] = tree[level][index] + total
        for c in range(len(CATEGORIES)):
            if open_set >> c & 1:
                values[SCORE + c] = scores[c][number] + turn[open_set & ~(1 << c)] + total
        return values

    def value(self, state: State) -> list[float]:
        open_set, rerolls, total = state[0], state[DICE + 1], state[DICE + 2]
        if not open_set:
            return [float(total)]
        dice = self.dice(state)
        if len(dice) == DICE:
            return [self.expect[self._index(open_set, dice, rerolls)] + total]
        if not dice and rerolls == REROLLS:  # a turn's start: the table's value of the open set
            return [self.turn[self.sets.row(open_set)] + total]
        return [self.keep_tree(open_set, rerolls)[len(dice)][_WHERE[len(dice)][dice]] + total]

    def best(self, state: State) -> int:
        return self.move[self._index(state[0], self.dice(state), state[DICE + 1])]

    def question(self, state: State) -> list[str]:
        """The command line's words asking for the move at the decision ``state``."""
        some = [] if self.rules.categories == "all" else ["--categories", self.rules.categories]
        return ["yazy"] + some + ["--move", format_categories(state[0]), "".join(map(str, self.dice(state))),
                                  str(state[DICE + 1])]

    def board(self, state: State) -> list:
        """The state's picture (``rl/_picture.py``'s rows): the categories, light while open; the dice and a
        marker for each reroll left."""
        open_set, dice, rerolls = state[0], self.dice(state), state[DICE + 1]
        return [[("tile", label, open_set >> c & 1) for c, label in enumerate(LABELS)],
                [("die", die) for die in dice] + [("die", 0)] * (DICE - len(dice))
                + [("tile", "", taken < rerolls) for taken in range(REROLLS)]]

    def observation(self, state: State, seat: int = 0) -> list[int]:
        return _BITS[state[0]] + list(state[1:])

    def action_text(self, state: State, action: int) -> str:
        return describe_move(action, self.dice(state))

    def state_text(self, state: State) -> str:
        open_set, rerolls, total = state[0], state[DICE + 1], state[DICE + 2]
        if not open_set:
            return "total %d, every category scored" % total
        dice = self.dice(state)
        left = "%d reroll%s left" % (rerolls, "" if rerolls == 1 else "s")
        words = "total %d, open %s, " % (total, format_categories(open_set))
        if len(dice) == DICE:
            return words + "dice %s, %s" % ("".join(map(str, dice)), left)
        if not dice and rerolls == REROLLS:
            return words + "5 dice to throw"
        thrown = DICE - len(dice)
        return words + "kept %s, %d di%s to throw, %s" % (
            "".join(map(str, dice)) or "none", thrown, "e" if thrown == 1 else "ce", left)
