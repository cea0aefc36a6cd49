"""One turn of full Yahtzee, solved at question time from the table's turn-start values (pure Python).

Given a turn-start state (the card, the upper total, the yahtzee box), the values
of the states after each box (read from the table) give every choice of the turn:

    V0(r)    = max over the boxes c roll r may go in of  points(c, r) + T(the state after c)
    E_R(K)   = the mean of V(R-1)(K + the rolled dice) over the keep tree:
               E(K) = (E(K + 1) + ... + E(K + 6)) / 6,  E(K) = V(R-1)(K) for five dice
    VR(r)    = max(V0(r), max over keeps K, proper sub-multisets of r, of E_R(K))

The arithmetic is exact: each stored float64 is an integer multiple of
``2**-SCALE_BITS`` (every non-zero turn value is at least 1), the means are kept as
integers over growing powers of 6 (no division), so the printed digits and the
comparisons are those of the exact rational computed from the stored values. The
best proper sub-keep of every roll comes from the keep tree too: ``B(K) = max(E(K),
B(K - one of its dice))``, about 2,000 operations a level instead of 252 x 31. The
keep tree, its means and best sub-keeps are ``engine/dicekeep.py``'s; each box's
score of every roll is a constant (``engine/dicescores.py``; Yatzy's here), checked against
``make_scores()`` by the tests: decoding it costs far less than making it.

Choices are ordered by value, best first; choices within ``TIE`` of each other by the
tie rule: scoring before keeping, boxes in the order of the card, then more dice
kept, then the lowest dice (keeping all five, the same as not rerolling, last).
"""

from itertools import repeat

try:  # the C module itself: importing operator.py would cost a question 0.3 ms
    from _operator import add, itemgetter, mul
except ImportError:  # pragma: no cover - Pythons without it
    from operator import add, itemgetter, mul

from ...engine.dicekeep import best_sub_keeps, keep_means, keep_text, tree
from ...engine.dicescores import SCORES as _SCORES  # Yahtzee's 13 boxes, shared with yazy
from .rules import (
    DICE, FIFTY, OPEN, ROLLS, SIDES, SIXES, UPPER_GOAL, YATZY, ZERO, has_bonus, joker_choices, sheet, yahtzee_bonus,
)

SCALE_BITS = 52
_ONE = 1 << SCALE_BITS
_SIX5 = 6 ** DICE
TIE = 1e-9  # choices closer than this are tied (values are within 1e-13 of exact; real gaps are far wider)


class Scores:
    """Each box's printed score of every roll, decoded once from ``_SCORES`` (Yahtzee; Yatzy's upper boxes
    too) and ``_YATZY_OWN`` (Yatzy's other boxes), as ``make_scores`` makes them: the bytes and their
    getter a box, the rolls that are a Yahtzee, and [0 .. n] points as numerators."""

    def __init__(self, blob: str, boxes: int):
        blob, rolls = bytes.fromhex(blob), len(ROLLS)
        self.scores = [blob[c * rolls:(c + 1) * rolls] for c in range(boxes)]
        self.score_of = [itemgetter(*column) for column in self.scores]
        self.yahtzees = [tree().rolls[(face,) * DICE] for face in range(1, SIDES + 1)]
        self._points = {}  # the largest score -> [0, 1, ..., largest] x 2 ** SCALE_BITS

    def points(self, largest: int) -> list:
        """[0, 1, ..., largest] points as numerators over 2 ** SCALE_BITS."""
        found = self._points.get(largest)
        if found is None:
            found = self._points[largest] = [points * _ONE for points in range(largest + 1)]
        return found


def make_scores(rules: str = "official") -> bytes:
    """The bytes of :class:`Scores` (``_SCORES``; for ``yatzy``, its upper rows and ``_YATZY_OWN``): for
    each box, its printed score of each roll (docs/YAHTZEE.md)."""
    found = sheet(rules)
    return bytes(found.score(c, roll) for c in range(len(found.categories)) for roll in ROLLS)


_SCORES_MADE: dict = {}
_UPPER = 2 * 6 * len(ROLLS)  # the six upper boxes' rows in ``_SCORES``: Yatzy's are Yahtzee's


def box_scores(rules: str = "official") -> Scores:
    key = rules == YATZY
    found = _SCORES_MADE.get(key)
    if found is None:
        blob = _SCORES[:_UPPER] + _YATZY_OWN if key else _SCORES
        found = _SCORES_MADE[key] = Scores(blob, len(sheet(rules).categories))
    return found


class Turn:
    """The choices of one turn-start state: ``later(card, upper, box)`` gives the table's turn-start value
    (a float) of a state one box later."""

    def __init__(self, joker: str, card: int, upper: int, box: int, later):
        self.joker, self.card, self.upper, self.box = joker, card, min(upper, UPPER_GOAL), box
        self.sheet = sheet(joker)
        self._later = later
        self._after: dict = {}
        self._v0 = None
        self._keeps: dict = {}  # R -> the values of the keeps, by level
        self._values: dict = {}  # R -> the values of the rolls

    # -- the points and the state after a box ----------------------------------------------

    def _value(self, card: int, upper: int, box: int) -> int:
        value = self._later(card, upper, box)
        if value and not value >= 1.0:
            raise ValueError("a turn-start value below 1 (%r) is not a multiple of 2**-52" % value)
        return int(value * _ONE)

    def after(self, category: int, points: int) -> int:
        """The numerator (over 2 ** SCALE_BITS) of ``points`` scored in ``category`` (the upper bonus
        included, the Yahtzee bonus not) plus the table's value of the state after it."""
        yahtzee = self.sheet.yahtzee
        if category <= SIXES or category == yahtzee:
            key = category * 64 + points
        else:  # the state after a lower box does not depend on its points
            key = category * 64
        found = self._after.get(key)
        if found is None:
            upper, box = self.upper, self.box
            if category <= SIXES:
                upper = min(self.upper + points, UPPER_GOAL)
                if self.upper < UPPER_GOAL <= self.upper + points:
                    points += self.sheet.upper_bonus
            elif category == yahtzee:
                box = FIFTY if points else ZERO
            else:
                found = self._after[key] = self._value(self.card & ~(1 << category), upper, box)
                return points * _ONE + found
            found = self._after[key] = points * _ONE + self._value(self.card & ~(1 << category), upper, box)
            return found
        return found if category <= SIXES or category == yahtzee else points * _ONE + found

    def scoring(self, roll) -> list:
        """[(category, numerator over 2 ** SCALE_BITS)]: where the sorted ``roll`` may be scored, each box's
        points (bonuses included) plus the value after it, in the order of the card."""
        if roll[0] == roll[-1]:
            extra = yahtzee_bonus(self.joker, self.box, roll) * _ONE
            return [(c, self.after(c, points) + extra)
                    for c, points in joker_choices(self.joker, self.card, self.box, roll[0])]
        score = self.sheet.score
        return [(c, self.after(c, score(c, roll))) for c in range(len(self.sheet.categories)) if self.card >> c & 1]

    # -- the values of every roll and keep ---------------------------------------------------

    def v0(self) -> list:
        """V0 of the 252 rolls, numerators over 2 ** SCALE_BITS."""
        if self._v0 is None:
            tables = box_scores(self.joker)
            columns = []
            for c in range(len(self.sheet.categories)):
                if self.card >> c & 1:
                    scores = tables.scores[c]
                    if c <= SIXES or c == self.sheet.yahtzee:
                        by_points = [0] * (max(scores) + 1)
                        for points in set(scores):
                            by_points[points] = self.after(c, points)
                    else:  # the state after a lower box does not depend on its points
                        by_points = list(map(add, tables.points(max(scores)), repeat(self.after(c, 0))))
                    columns.append(tables.score_of[c](by_points))
            values = list(map(max, *columns)) if len(columns) > 1 else list(columns[0])
            if self.box != OPEN and has_bonus(self.joker):  # jokers, the Yahtzee bonus
                for r in tables.yahtzees:
                    values[r] = max(value for _, value in self.scoring(ROLLS[r]))
            self._v0 = values
        return self._v0

    def keeps(self, rerolls: int) -> list:
        """[E_R of the keeps of 0..4 dice, by level], numerators over 2 ** SCALE_BITS x 6 ** (5 R), R >= 1."""
        found = self._keeps.get(rerolls)
        if found is None:
            means = keep_means(self.values(rerolls - 1), exact=True)
            found = self._keeps[rerolls] = [means[0]] + [list(map(mul, means[k], repeat(6 ** k)))
                                                         for k in range(1, DICE)]
        return found

    def values(self, rerolls: int) -> list:
        """V_R of the 252 rolls, numerators over 2 ** SCALE_BITS x 6 ** (5 R)."""
        if rerolls == 0:
            return self.v0()
        found = self._values.get(rerolls)
        if found is None:
            now = list(map(mul, self.v0(), repeat(6 ** (DICE * rerolls))))
            found = self._values[rerolls] = list(map(max, now, best_sub_keeps(self.keeps(rerolls))))
        return found

    def start(self):
        """(numerator, denominator): the turn-start value computed from the states one box later (the table
        stores it; this is its check)."""
        means = keep_means(self.values(2), exact=True)
        return means[0][0], _ONE * 6 ** (3 * DICE)

    # -- one roll's choices ------------------------------------------------------------------

    def listed(self, roll, rerolls: int) -> list:
        """[(numerator over 2 ** SCALE_BITS x 6 ** (5 R), text, move)] of every legal choice for the sorted
        ``roll`` with ``rerolls`` left, in the tie rule's order: scores (boxes in the card's order), proper
        keeps (more dice first, then the lowest), keeping all five last."""
        scale = 6 ** (DICE * rerolls)
        names = self.sheet.categories
        listed = [(value * scale, "score " + names[c], ("score", c)) for c, value in self.scoring(roll)]
        if rerolls:
            keeps, keep_tree = self.keeps(rerolls), tree()
            listed.extend((keeps[level][position], text, ("keep", keep))
                          for level, position, keep, text in keep_tree.sub_keeps(roll))
            listed.append((self.values(rerolls - 1)[keep_tree.rolls[roll]] * _SIX5, keep_text(roll),
                           ("keep", roll)))
        return listed

    def choices(self, roll, rerolls: int):
        """(denominator, [(numerator, text, move)]): every legal choice for the sorted ``roll`` with
        ``rerolls`` left, best first, ties (within TIE) in the tie rule's order. ``move`` is
        ``("score", category)`` or ``("keep", kept dice)``; ``text`` is ``score NAME`` or ``keep D D``."""
        return denominator(rerolls), ordered(self.listed(roll, rerolls), denominator(rerolls))

    def best(self, roll, rerolls: int):
        """(numerator, text, move) of the best choice (``choices``' first), over 2 ** SCALE_BITS x 6 ** (5 R)."""
        listed = self.listed(roll, rerolls)
        top = max(choice[0] for choice in listed) - int(TIE * denominator(rerolls))
        return next(choice for choice in listed if choice[0] >= top)


def denominator(rerolls: int) -> int:
    """The denominator of the values of a turn's choices with ``rerolls`` left: 2 ** SCALE_BITS x 6 ** (5 R)."""
    return _ONE * 6 ** (DICE * rerolls)


def ordered(listed, denominator: int) -> list:
    """The choices (numerator, ...) given in the tie rule's order, sorted best first: stable, by value,
    values within TIE of a group's best counting as equal."""
    tie = int(TIE * denominator)
    by_value = sorted(range(len(listed)), key=lambda i: -listed[i][0])
    out, group, top = [], [], None
    for i in by_value:
        if top is not None and top - listed[i][0] > tie:
            out.extend(listed[j] for j in sorted(group))
            group = []
        if not group:
            top = listed[i][0]
        group.append(i)
    out.extend(listed[j] for j in sorted(group))
    return out


def decimal(numerator: int, denominator: int) -> str:
    """``%.6f`` of the exact fraction (halves to even)."""
    if numerator < 0:
        return "-" + decimal(-numerator, denominator)
    whole, rest = divmod(numerator * 1_000_000, denominator)
    if 2 * rest > denominator or (2 * rest == denominator and whole & 1):
        whole += 1
    return "%d.%06d" % divmod(whole, 1_000_000)


_YATZY_OWN = (  # make_scores("yatzy")[6 * 252:].hex(): the boxes after the six upper ones
    "0202020202020402020202060202020802020a020c0404040404060202020802020a020c060606060802020a020c0808080a020c0a0a0c0c"
    "0404040404060404040804040a040c060606060800000a000c0808080a000c0a0a0c0c060606060806060a060c0808080a000c0a0a0c0c08"
    "08080a080c0a0a0c0c0a0a0c0c0c0404040404060404040804040a040c060606060804040a040c0808080a040c0a0a0c0c06060606080606"
    "0a060c0808080a000c0a0a0c0c0808080a080c0a0a0c0c0a0a0c0c0c060606060806060a060c0808080a060c0a0a0c0c0808080a080c0a0a"
    "0c0c0a0a0c0c0c0808080a080c0a0a0c0c0a0a0c0c0c0a0a0c0c0c0c0000000000000600000000080000000a00000c000e06060606060800"
    "00000a00000c000e080808080a00000c000e0a0a0a0c000e0c0c0e0e00000000000a0000000c00000e001000000000000000000000000000"
    "00000000000000000000000e00001000120000000000000000000000000012001400000000000016000000000000000a0000000c00000e00"
    "100a0a0a0a0c00000e00100c0c0c0e00100e0e1010000000000e000010001200000000000000000000000000120014000000000000160000"
    "000000000e00001000120e0e0e10001210101212000000120014000000000000160000000000120014121214140000160000000016160000"
    "030303030303030303030303030303030303030303060000000000000000000000000000090000000000000000000c00000000000f000012"
    "060606060600000000000000000000090000000000000000000c00000000000f000012090909090000000000000c00000000000f0000120c"
    "0c0c0000000f0000120f0f001212060606060606060606060606060606090000000000000000000c00000000000f00001209090909000000"
    "0000000c00000000000f0000120c0c0c0000000f0000120f0f001212090909090909090909090c00000000000f0000120c0c0c0000000f00"
    "00120f0f0012120c0c0c0c0c0c0f0000120f0f0012120f0f0f12121204040404040400000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000008000000000000000000000000000000000000000000000000000000"
    "000000000000000c000000000000000000000000000000000000001000000000000000000014000000180808080808000000000000000000"
    "0000000000000000000000000000000000000000000c00000000000000000000000000000000000000100000000000000000001400000018"
    "0c0c0c0c00000000000000000000000000000000100000000000000000001400000018101010000000000000001400000018141400001818"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "00000000000000000000000000000000000000000f0000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000140000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000700000000090000000b00000d000f0800000000000000000000000000000b0000000000000000000e000000000011000014"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000c0000000e00001000120d0000000000000000001000000000001300001600000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000110000130015120000000000150000180000000000000000"
    "000000000000000000001600181700001a000000000000001b1c000005060708090a0708090a0b090a0b0c0b0c0d0d0e0f08090a0b0c0a0b"
    "0c0d0c0d0e0e0f100b0c0d0e0d0e0f0f10110e0f1010111211121314090a0b0c0d0b0c0d0e0d0e0f0f10110c0d0e0f0e0f101011120f1011"
    "111213121314150d0e0f100f1011111213101112121314131415161112131314151415161715161718190a0b0c0d0e0c0d0e0f0e0f101011"
    "120d0e0f100f1011111213101112121314131415160e0f10111011121213141112131314151415161712131414151615161718161718191a"
    "0f10111211121313141512131414151615161718131415151617161718191718191a1b1415161617181718191a18191a1b1c191a1b1c1d1e"
    "3200000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000320000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000032000000000000000000000000000000000000000000000000000000"
    "00000000000000320000000000000000000000000000320000000032"
)
