"""Yahtzee as a game model (``engine/model.py``), read from its turn-start table (``table.py``) and the game's
own question-time turn solver (``turn.py``).

A rule set is a word of ``rules.RULES``: a joker rule of Yahtzee (``official``, shipped; ``free``, ``none``,
``bonus-only``, solved on first use, some seconds) or ``yatzy`` (Scandinavian Yatzy's 15 boxes, solved on first
use). A state is ``(card, upper, box, d1, d2, d3, d4, d5, rerolls, total)``: the open boxes (a bitmask; 0 once
every box is filled: the end), the points scored in ones..sixes (not capped), what the yahtzee box holds
(``rules.OPEN``, ``ZERO``, ``FIFTY``; always ``OPEN`` in Yatzy), the dice showing, sorted, 0 for none (0s last),
the rerolls left and the points scored so far, both bonuses included.

- Five dice showing: the player's decision. Actions are ``shutthebox/Yahtzee-v0``'s: ``a``
  in 0..31 (while a reroll is left) keeps the dice at the positions of its bits in the sorted dice and rerolls
  the others, 31 keeping all five (a reroll spent, the same dice showing); ``SCORE + c`` (32 + c) writes the
  dice in open box ``c`` (for a Yahtzee on a filled yahtzee box, where the joker rule allows). Of equal faces
  only the leftmost are kept (one action for each set of faces kept, as the table's moves are: OpenSpiel wants
  a legal action's words to be its own), so the legal keeps are those of the 32 masks that take the first of each
  run of equal faces.
- Fewer dice showing (``k`` of them: those kept, or none at a turn's start, where ``rerolls`` is 2): a chance
  node, the throw of the ``n = 5 - k`` others, ``rerolls`` already counting the reroll spent. Outcome ``o`` is
  the ``o``-th sorted roll of ``n`` dice in lexicographic order (``combinations_with_replacement(1..6, n)``:
  for ``n = 5`` the tables' ``ROLLS``), of weight its multinomial count ``n! / (c1! ... c6!)`` over ``6 ** n``;
  the dice thrown join those kept, sorted.

The one seat's return is the total (the state's last field: ``tally``): more is better. A decision's values are
the total so far plus a box's points and bonuses and the table's value after it, or a keep's mean over the
dice thrown (the keep tree): with ``rational=True`` (the default; OpenSpiel's) the float64 of the exact
rational the game's turn solver computes, as ``yahtzee --options`` prints it; with ``rational=False`` (the
Gymnasium environments' default, ``OPTIONS``) the same sums in float64 numpy (``floatturn.py``), within
about 1e-12 of it and some times faster. A decision's value is the best of them (``yahtzee --expect CARD
DICE REROLLS``), a turn's start the table's stored value (``yahtzee --expect CARD``), a throw after a keep
the keep's mean.
"""

from __future__ import annotations

from math import inf

from ...engine.dicekeep import keep_text
from ...engine.model import CHANCE, TERMINAL, State
from ...engine.throws import faces, keeps, sorted_rolls, throw
from ...errors import InvalidQuery
from .rules import (
    DEFAULT_JOKER, DICE, FIFTY, OPEN, REROLLS, SIDES, SIXES, UPPER_GOAL, ZERO, format_categories, joker_choices,
    upper_points, yahtzee_bonus,
)
from .table import load, most_to_come
from .turn import TIE, denominator

PLAYERS = 1
SCORE = 32  # actions 32 + c write box c; 0..31 keep the dice of the bits
# The learning environments' options beyond the rules (``model()``'s keywords), with their defaults there.
OPTIONS = {"rational": False}
REWARD_THRESHOLD = 252.1  # shutthebox/Yahtzee-v0's: within 1% of optimal play's 254.587729 (official)
# The boxes in a picture (``board``): Yahtzee's card, Yatzy's.
LABELS = {13: ("1", "2", "3", "4", "5", "6", "3k", "4k", "fh", "ss", "ls", "yz", "ch"),
          15: ("1", "2", "3", "4", "5", "6", "1p", "2p", "3k", "4k", "ss", "ls", "fh", "ch", "yz")}
# Keeps of k dice (sorted tuples), level by level, as the keep tree numbers them; level 5 is ROLLS.
LEVELS = [sorted_rolls(k, SIDES) for k in range(DICE + 1)]
_WHERE = [{keep: index for index, keep in enumerate(level)} for level in LEVELS]
ROLL_INDEX = _WHERE[DICE]
# A throw of n dice: [(outcome, weight)] (the multinomial counts) and their total 6 ** n.
THROWS = [throw(n, SIDES) for n in range(DICE + 1)]
_KEPT: dict = {}  # sorted roll -> ([legal keep masks], {kept dice: mask})
_MODELS: dict = {}


def model(rules: str | None = None, rational: bool = True) -> "YahtzeeModel":
    """The model of the rule set ``rules`` (default ``official``, the shipped table), made once per process;
    another rule set has its table solved on first use. ``rational``: the values the turn solver's exact
    rationals (else float64 sums, ``floatturn.py``)."""
    if str(rational) not in ("True", "False"):  # a bool, numpy's too
        raise InvalidQuery("rational must be True or False, not %r" % (rational,))
    rules = DEFAULT_JOKER if rules is None else rules
    rational = str(rational) == "True"
    found = _MODELS.get((rules, rational)) if isinstance(rules, str) else None
    if found is None:
        found = YahtzeeModel(load(rules), str(rational) == "True")  # load refuses a rule set that is none of rules.RULES
        _MODELS[found.rules, found.rational] = found
    return found


def _tie_order(roll: tuple):
    """The turn solver's tie rule (``turn.py``) as a sort key of actions on ``roll``: boxes in the card's order,
    then proper keeps (more dice first, then the lowest), keeping all five last."""
    everything = (1 << DICE) - 1

    def order(action: int) -> tuple:
        if action >= SCORE:
            return (0, action)
        kept_dice = faces(roll, action)
        return (2,) if action == everything else (1, -len(kept_dice), kept_dice)
    return order


def kept(roll: tuple) -> tuple[list, dict]:
    """The legal keeps on the sorted ``roll``: the masks, increasing, that keep no die unless they keep the
    equal dice left of it, and the mask of each set of kept dice."""
    found = _KEPT.get(roll)
    if found is None:
        masks = keeps(roll)
        of = {faces(roll, mask): mask for mask in masks}
        found = _KEPT[roll] = (masks, of)
    return found


class YahtzeeModel:
    """``engine.model.GameModel`` for Yahtzee under one rule set (a joker rule, or ``yatzy``)."""

    id = "yahtzee"
    players = PLAYERS
    n_outcomes = len(LEVELS[DICE])
    min_return = 0.0
    tie = TIE  # values this close are equally good (the turn solver's tie)
    tally = True  # the last field is the total: nothing else depends on it
    min_to_come = 0.0  # points are never taken away

    def __init__(self, table, rational: bool = True) -> None:
        self.table, self.rules, self.rational = table, table.joker, rational
        self.floats = None
        self._last: tuple = ((), {})  # the float path's last state and its values
        if not rational:
            from .floatturn import FloatTurns  # numpy: learning time only

            self.floats = FloatTurns(table)
        self.sheet = sheet = table.sheet
        self.boxes = len(sheet.categories)
        self.n_actions = SCORE + self.boxes
        self.max_length = (2 + 2 * REROLLS) * self.boxes  # a turn: a throw, 2 keeps and rethrows, a box
        top = most_to_come(self.rules)  # every box at its best, both bonuses: 1575 under a Yahtzee bonus
        self.max_return = float(top)
        self.observation_nvec = (2,) * self.boxes + (UPPER_GOAL + 1, 3) + (SIDES + 1,) * DICE + (REROLLS + 1, top + 1)

    def __reduce__(self):
        return (model, (self.rules, self.rational))

    # -- the game model -----------------------------------------------------------------------------------

    def initial(self) -> State:
        return (self.sheet.all, 0, OPEN) + (0,) * DICE + (REROLLS, 0)

    @staticmethod
    def dice(state: State) -> tuple:
        """The dice showing, sorted."""
        shown = state[3:3 + DICE]
        return shown if shown[-1] else shown[:shown.index(0)]  # 0s last: all five, or fewer

    def player(self, state: State) -> int:
        if not state[0]:
            return TERMINAL
        return 0 if state[2 + DICE] else CHANCE

    def _boxes(self, state: State, roll: tuple) -> list:
        """[(box, points written)] where the sorted ``roll`` may go (no bonus), in the card's order."""
        card, box = state[0], state[2]
        if roll[0] == roll[-1]:
            return joker_choices(self.rules, card, box, roll[0])
        score = self.sheet.score
        return [(c, score(c, roll)) for c in range(self.boxes) if card >> c & 1]

    def legal(self, state: State) -> list[int]:
        roll = self.dice(state)
        keeps = kept(roll)[0] if state[3 + DICE] else []
        return keeps + sorted(SCORE + c for c, _ in self._boxes(state, roll))

    def outcomes(self, state: State) -> tuple[list[tuple[int, int]], int]:
        return THROWS[DICE - len(self.dice(state))]  # shared, read only: the same list for every throw of n dice

    def apply(self, state: State, action: int) -> State:
        card, upper, box = state[:3]
        rerolls, total = state[3 + DICE], state[4 + DICE]
        dice = self.dice(state)
        if len(dice) < DICE:  # a throw: the dice thrown join those kept
            roll = LEVELS[DICE][action] if not dice else tuple(sorted(dice + LEVELS[DICE - len(dice)][action]))
            return (card, upper, box) + roll + (rerolls, total)
        if action < SCORE:
            keep = tuple(die for position, die in enumerate(dice) if action >> position & 1)
            return (card, upper, box) + keep + (0,) * (DICE - len(keep)) + (rerolls - 1, total)
        category = action - SCORE
        points = dict(self._boxes(state, dice))[category]
        total += points + yahtzee_bonus(self.rules, box, dice)
        if category <= SIXES:
            total += upper_points(min(upper, UPPER_GOAL), category, points, self.sheet.upper_bonus)[1]
            upper += points
        elif category == self.sheet.yahtzee:
            box = FIFTY if points else ZERO
        card &= ~(1 << category)
        return (card, upper, box) + (0,) * DICE + (REROLLS if card else 0, total)

    def returns(self, state: State) -> list[float]:
        return [float(state[4 + DICE])]

    def values(self, state: State) -> dict[int, float]:
        card, upper, box = state[:3]
        rerolls, total = state[3 + DICE], state[4 + DICE]
        roll = self.dice(state)
        if card > self.sheet.all:
            raise ValueError("%d is no card of %d boxes" % (card, self.boxes))
        if self.floats is not None:
            return self._float_values(state, roll)
        masks = kept(roll)[1]
        scale = denominator(rerolls)
        values = {}
        for numerator, _, move in self.table.turn(card, upper, box).listed(roll, rerolls):
            values[SCORE + move[1] if move[0] == "score" else masks[move[1]]] = numerator / scale + total
        return dict(sorted(values.items()))

    def _float_values(self, state: State, roll: tuple) -> dict[int, float]:
        """``values`` on the float path: the float turn's boxes and keep means (``floatturn.py``); the last
        state's kept, as ``best`` asks for them again."""
        if self._last[0] == state:
            return self._last[1]
        card, upper, box = state[:3]
        rerolls, total = state[3 + DICE], state[4 + DICE]
        assert self.floats is not None
        turn = self.floats.turn(card, min(upper, UPPER_GOAL), box)
        r = ROLL_INDEX[roll]
        values = {}
        if rerolls:  # the keeps first: the actions increase
            means = turn.tree[rerolls][self.floats.keep[r]].tolist()
            for mask in kept(roll)[0]:
                values[mask] = means[mask] + total
        for c, value in enumerate(turn.boxes[:, r].tolist()):
            if value != -inf:
                values[SCORE + c] = value + total
        self._last = (state, values)
        return values

    def value(self, state: State) -> list[float]:
        card, upper, box = state[:3]
        rerolls, total = state[3 + DICE], state[4 + DICE]
        if not card:
            return [float(total)]
        dice = self.dice(state)
        if len(dice) == DICE:
            if self.floats is not None:  # the best of the values: VR
                return [max(self._float_values(state, dice).values())]
            return [max(self.values(state).values())]
        if not dice and rerolls == REROLLS:  # a turn's start: the table's value
            return [self.table.value(card, upper, box) + total]
        # the throw after keeping ``dice``, ``rerolls`` left after it: the keep's mean
        mean = self.table.turn(card, upper, box).keeps(rerolls + 1)[len(dice)][_WHERE[len(dice)][dice]]
        return [mean / denominator(rerolls + 1) + total]

    def best(self, state: State) -> int:
        card, upper, box = state[:3]
        roll = self.dice(state)
        if self.floats is not None:  # the turn solver's tie rule (turn.py) among the float values
            values = self._float_values(state, roll)
            top = max(values.values()) - TIE
            tied = [action for action, value in values.items() if value >= top]
            return tied[0] if len(tied) == 1 else min(tied, key=_tie_order(roll))
        move = self.table.turn(card, upper, box).best(roll, state[3 + DICE])[2]
        return SCORE + move[1] if move[0] == "score" else kept(roll)[1][move[1]]

    def question(self, state: State) -> list[str]:
        """The command line's words asking for the move at the decision ``state``."""
        card, upper, box = state[:3]
        words = ["yahtzee"] + (["--variant", "yatzy"] if self.sheet.yahtzee is None else ["--joker", self.rules])
        words += ["--move", format_categories(card, self.rules), "--upper", str(upper)]
        if box != OPEN:
            words += ["--yahtzee-box", "50" if box == FIFTY else "0"]
        return words + ["".join(map(str, self.dice(state))), str(state[3 + DICE])]

    def board(self, state: State) -> list:
        """The state's picture (``rl/_picture.py``'s rows): the boxes, light while open; the upper points; the
        dice and a marker for each reroll left."""
        card, upper, dice, rerolls = state[0], state[1], self.dice(state), state[3 + DICE]
        return [[("tile", label, card >> c & 1) for c, label in enumerate(LABELS[self.boxes])],
                [("text", "upper"), ("text", str(upper), len(str(DICE * SIDES * (SIDES + 1) // 2)))]
                + [("die", die) for die in dice] + [("die", 0)] * (DICE - len(dice))
                + [("tile", "", taken < rerolls) for taken in range(REROLLS)]]

    def observation(self, state: State, seat: int = 0) -> list[int]:
        card, upper, box = state[:3]
        return [card >> c & 1 for c in range(self.boxes)] + [min(upper, UPPER_GOAL), box] + list(state[3:])

    def action_text(self, state: State, action: int) -> str:
        if action >= SCORE:
            return "score " + self.sheet.categories[action - SCORE]
        return keep_text(tuple(die for position, die in enumerate(self.dice(state)) if action >> position & 1))

    def state_text(self, state: State) -> str:
        card, upper, box = state[:3]
        rerolls, total = state[3 + DICE], state[4 + DICE]
        if not card:
            return "total %d, every box filled" % total
        words = "total %d, open %s, upper %d, " % (total, format_categories(card, self.rules), upper)
        if box != OPEN:
            words += "yahtzee box %d, " % (50 if box == FIFTY else 0)
        dice = self.dice(state)
        left = "%d reroll%s left" % (rerolls, "" if rerolls == 1 else "s")
        if len(dice) == DICE:
            return words + "dice %s, %s" % ("".join(map(str, dice)), left)
        if not dice and rerolls == REROLLS:
            return words + "5 dice to throw"
        thrown = DICE - len(dice)
        return words + "kept %s, %d di%s to throw, %s" % (
            "".join(map(str, dice)) or "none", thrown, "e" if thrown == 1 else "ce", left)
