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
index tables of the keep tree and the scores are a constant (``_TABLES``), checked
against ``make_tables()`` by the tests: decoding it costs far less than making it.

Choices are ordered by value, best first; choices within ``TIE`` of each other by the
tie rule: scoring before keeping, boxes in the order of the card, then more dice
kept, then the lowest dice (keeping all five, the same as not rerolling, last).
"""

from itertools import combinations_with_replacement, repeat

try:  # the C module itself: importing operator.py would cost a question 0.3 ms
    from _operator import add, itemgetter, mul
except ImportError:  # pragma: no cover - Pythons without it
    from operator import add, itemgetter, mul

from .rules import (
    CATEGORIES, DICE, FIFTY, OPEN, ROLLS, SIDES, SIXES, UPPER_BONUS, UPPER_GOAL, YAHTZEE, ZERO, joker_choices, score,
    yahtzee_bonus,
)

SCALE_BITS = 52
_ONE = 1 << SCALE_BITS
_SIX5 = 6 ** DICE
TIE = 1e-9  # choices closer than this are tied (values are within 1e-13 of exact; real gaps are far wider)


class Dice:
    """The fixed tables of the dice, decoded once from ``_TABLES`` (made by ``make_tables``): the getters of
    each keep's children (plus one face) and parents (minus one of its dice) level by level (level 5: the
    252 rolls), and each box's printed score of every roll."""

    def __init__(self):
        blob = bytes.fromhex(_TABLES)
        at = 0
        self.children = []
        for k in range(DICE):
            getters = []
            for _ in range(SIDES):
                getters.append(_getter(blob[at:at + _SIZES[k]]))
                at += _SIZES[k]
            self.children.append(getters)
        self.parents = [None]
        for k in range(1, DICE + 1):
            getters = []
            for _ in range(k):
                getters.append(_getter(blob[at:at + _SIZES[k]]))
                at += _SIZES[k]
            self.parents.append(getters)
        rolls = len(ROLLS)
        self.scores = [blob[at + c * rolls:at + (c + 1) * rolls] for c in range(len(CATEGORIES))]
        self.score_of = [itemgetter(*column) for column in self.scores]
        self.rolls = {roll: number for number, roll in enumerate(ROLLS)}
        self.yahtzees = [self.rolls[(face,) * DICE] for face in range(1, SIDES + 1)]
        self._points = {}  # the largest score -> [0, 1, ..., largest] x 2 ** SCALE_BITS
        self._keeps = {}
        self._subs = {}

    def sub_keeps(self, roll) -> list:
        """[(level, position, kept dice, text)] of the proper sub-keeps of the sorted ``roll`` in the tie
        rule's order (more dice first, then the lowest), kept for the 252 rolls."""
        found = self._subs.get(roll)
        if found is None:
            if not self._keeps:
                for k in range(DICE):
                    self._keeps.update(zip(combinations_with_replacement(range(1, SIDES + 1), k), range(_SIZES[k])))
            keeps = sorted({tuple(d for position, d in enumerate(roll) if bits >> position & 1)
                            for bits in range((1 << DICE) - 1)}, key=lambda keep: (-len(keep), keep))
            found = self._subs[roll] = [(len(keep), self._keeps[keep], keep,
                                         "keep " + (" ".join(map(str, keep)) or "none")) for keep in keeps]
        return found

    def points(self, largest: int) -> list:
        """[0, 1, ..., largest] points as numerators over 2 ** SCALE_BITS."""
        found = self._points.get(largest)
        if found is None:
            found = self._points[largest] = [points * _ONE for points in range(largest + 1)]
        return found


_SIZES = (1, 6, 21, 56, 126, 252)  # keeps of 0 .. 5 dice


def make_tables() -> bytes:
    """The bytes of ``_TABLES``, from the rules (docs/YAHTZEE.md): with the keeps of k dice sorted
    lexicographically (level k), for k = 0..4 and each face 1..6, the position in level k + 1 of each keep
    plus that face; for k = 1..5 and i = 0..k-1, the position in level k - 1 of each keep without its
    (i+1)-th smallest die; for each box, its printed score of each roll."""
    levels = [list(combinations_with_replacement(range(1, SIDES + 1), k)) for k in range(DICE + 1)]
    where = [{keep: number for number, keep in enumerate(level)} for level in levels]
    out = bytearray()
    for k in range(DICE):
        for face in range(1, SIDES + 1):
            out.extend(where[k + 1][tuple(sorted(keep + (face,)))] for keep in levels[k])
    for k in range(1, DICE + 1):
        for i in range(k):
            out.extend(where[k - 1][keep[:i] + keep[i + 1:]] for keep in levels[k])
    for c in range(len(CATEGORIES)):
        out.extend(score(c, roll) for roll in ROLLS)
    return bytes(out)


def _getter(indexes):
    if len(indexes) == 1:
        only = indexes[0]
        return lambda values: (values[only],)
    return itemgetter(*indexes)


_DICE: list = []


def dice() -> Dice:
    if not _DICE:
        _DICE.append(Dice())
    return _DICE[0]


def _means(values, tables: Dice) -> list:
    """[E_0, ..., E_4] as numerators: level k over (the denominator of ``values``) x 6 ** (5 - k)."""
    levels = [None] * DICE + [values]
    for k in range(DICE - 1, -1, -1):
        above = levels[k + 1]
        one, two, three, four, five, six = (get(above) for get in tables.children[k])
        levels[k] = list(map(add, map(add, map(add, one, two), map(add, three, four)), map(add, five, six)))
    return levels[:DICE]


class Turn:
    """The choices of one turn-start state: ``later(card, upper, box)`` gives the table's turn-start value
    (a float) of a state one box later."""

    def __init__(self, joker: str, card: int, upper: int, box: int, later):
        self.joker, self.card, self.upper, self.box = joker, card, min(upper, UPPER_GOAL), box
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
        if category <= SIXES or category == YAHTZEE:
            key = category * 64 + points
        else:  # the state after a lower box does not depend on its points
            key = category * 64
        found = self._after.get(key)
        if found is None:
            upper, box = self.upper, self.box
            if category <= SIXES:
                upper = min(self.upper + points, UPPER_GOAL)
                if self.upper < UPPER_GOAL <= self.upper + points:
                    points += UPPER_BONUS
            elif category == YAHTZEE:
                box = FIFTY if points else ZERO
            else:
                found = self._after[key] = self._value(self.card & ~(1 << category), upper, box)
                return points * _ONE + found
            found = self._after[key] = points * _ONE + self._value(self.card & ~(1 << category), upper, box)
            return found
        return found if category <= SIXES or category == YAHTZEE else points * _ONE + found

    def scoring(self, roll) -> list:
        """[(category, numerator over 2 ** SCALE_BITS)]: where the sorted ``roll`` may be scored, each box's
        points (bonuses included) plus the value after it, in the order of the card."""
        if roll[0] == roll[-1]:
            extra = yahtzee_bonus(self.joker, self.box, roll) * _ONE
            return [(c, self.after(c, points) + extra)
                    for c, points in joker_choices(self.joker, self.card, self.box, roll[0])]
        return [(c, self.after(c, score(c, roll))) for c in range(len(CATEGORIES)) if self.card >> c & 1]

    # -- the values of every roll and keep ---------------------------------------------------

    def v0(self) -> list:
        """V0 of the 252 rolls, numerators over 2 ** SCALE_BITS."""
        if self._v0 is None:
            tables = dice()
            columns = []
            for c in range(len(CATEGORIES)):
                if self.card >> c & 1:
                    scores = tables.scores[c]
                    if c <= SIXES or c == YAHTZEE:
                        by_points = [0] * (max(scores) + 1)
                        for points in set(scores):
                            by_points[points] = self.after(c, points)
                    else:  # the state after a lower box does not depend on its points
                        by_points = list(map(add, tables.points(max(scores)), repeat(self.after(c, 0))))
                    columns.append(tables.score_of[c](by_points))
            values = list(map(max, *columns)) if len(columns) > 1 else list(columns[0])
            if self.box != OPEN and self.joker != "none":
                for r in tables.yahtzees:
                    values[r] = max(value for _, value in self.scoring(ROLLS[r]))
            self._v0 = values
        return self._v0

    def keeps(self, rerolls: int) -> list:
        """[E_R of the keeps of 0..4 dice, by level], numerators over 2 ** SCALE_BITS x 6 ** (5 R), R >= 1."""
        found = self._keeps.get(rerolls)
        if found is None:
            means = _means(self.values(rerolls - 1), dice())
            found = self._keeps[rerolls] = [means[0]] + [list(map(mul, means[k], repeat(6 ** k)))
                                                         for k in range(1, DICE)]
        return found

    def values(self, rerolls: int) -> list:
        """V_R of the 252 rolls, numerators over 2 ** SCALE_BITS x 6 ** (5 R)."""
        if rerolls == 0:
            return self.v0()
        found = self._values.get(rerolls)
        if found is None:
            tables, scaled = dice(), self.keeps(rerolls)
            best = scaled[0]
            for k in range(1, DICE):  # B(K) = max(E(K), B(K without one of its dice))
                best = list(map(max, scaled[k], *(get(best) for get in tables.parents[k])))
            now = list(map(mul, self.v0(), repeat(6 ** (DICE * rerolls))))
            found = self._values[rerolls] = list(map(max, now, *(get(best) for get in tables.parents[DICE])))
        return found

    def start(self):
        """(numerator, denominator): the turn-start value computed from the states one box later (the table
        stores it; this is its check)."""
        means = _means(self.values(2), dice())
        return means[0][0], _ONE * 6 ** (3 * DICE)

    # -- one roll's choices ------------------------------------------------------------------

    def listed(self, roll, rerolls: int) -> list:
        """[(numerator over 2 ** SCALE_BITS x 6 ** (5 R), text, move)] of every legal choice for the sorted
        ``roll`` with ``rerolls`` left, in the tie rule's order: scores (boxes in the card's order), proper
        keeps (more dice first, then the lowest), keeping all five last."""
        scale = 6 ** (DICE * rerolls)
        listed = [(value * scale, "score " + CATEGORIES[c], ("score", c)) for c, value in self.scoring(roll)]
        if rerolls:
            tables = dice()
            keeps = self.keeps(rerolls)
            listed.extend((keeps[level][position], text, ("keep", keep))
                          for level, position, keep, text in tables.sub_keeps(roll))
            listed.append((self.values(rerolls - 1)[tables.rolls[roll]] * _SIX5, "keep " + " ".join(map(str, roll)),
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


_TABLES = (  # make_tables().hex(): checked by tests/test_yahtzee.py
    "00010203040500010203040501060708090a02070b0c0d0e03080c0f101104090d101213050a0e111314000102030405060708090a0b0c0d"
    "0e0f101112131401060708090a15161718191a1b1c1d1e1f2021222302070b0c0d0e161a1b1c1d2425262728292a2b2c2d03080c0f101117"
    "1b1e1f202528292a2e2f3031323304090d101213181c1f212226292b2c2f3132343536050a0e111314191d202223272a2c2d303233353637"
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637"
    "01060708090a15161718191a1b1c1d1e1f2021222338393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a"
    "02070b0c0d0e161a1b1c1d2425262728292a2b2c2d393d3e3f404748494a4b4c4d4e4f505b5c5d5e5f606162636465666768696a6b6c6d6e"
    "03080c0f1011171b1e1f202528292a2e2f303132333a3e414243484b4c4d5152535455565c5f606165666768696a6f707172737475767778"
    "04090d101213181c1f212226292b2c2f31323435363b3f424445494c4e4f5254555758595d6062636668696b6c6d707273757677797a7b7c"
    "050a0e111314191d202223272a2c2d3032333536373c404345464a4d4f5053555658595a5e61636467696a6c6d6e7173747677787a7b7c7d"
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f3031323334353637"
    "38393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f"
    "707172737475767778797a7b7c7d01060708090a15161718191a1b1c1d1e1f2021222338393a3b3c3d3e3f404142434445464748494a4b4c"
    "4d4e4f505152535455565758595a7e7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7"
    "a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c302070b0c0d0e161a1b1c1d2425262728292a2b2c2d393d3e3f404748"
    "494a4b4c4d4e4f505b5c5d5e5f606162636465666768696a6b6c6d6e7f838485868d8e8f90919293949596a1a2a3a4a5a6a7a8a9aaabacad"
    "aeafb0b1b2b3b4c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e603080c0f1011171b1e1f20252829"
    "2a2e2f303132333a3e414243484b4c4d5152535455565c5f606165666768696a6f70717273747576777880848788898e9192939798999a9b"
    "9ca2a5a6a7abacadaeafb0b5b6b7b8b9babbbcbdbec5c8c9cacecfd0d1d2d3d8d9dadbdcdddedfe0e1e7e8e9eaebecedeeeff0f1f2f3f4f5"
    "04090d101213181c1f212226292b2c2f31323435363b3f424445494c4e4f5254555758595d6062636668696b6c6d707273757677797a7b7c"
    "8185888a8b8f929495989a9b9d9e9fa3a6a8a9acaeafb1b2b3b6b8b9bbbcbdbfc0c1c2c6c9cbcccfd1d2d4d5d6d9dbdcdedfe0e2e3e4e5e8"
    "eaebedeeeff1f2f3f4f6f7f8f9fa050a0e111314191d202223272a2c2d3032333536373c404345464a4d4f5053555658595a5e6163646769"
    "6a6c6d6e7173747677787a7b7c7d8286898b8c90939596999b9c9e9fa0a4a7a9aaadafb0b2b3b4b7b9babcbdbec0c1c2c3c7cacccdd0d2d3"
    "d5d6d7dadcdddfe0e1e3e4e5e6e9ebeceeeff0f2f3f4f5f7f8f9fafb00000000000000010203040501020304050203040503040504050500"
    "0000000000010101010102020202030303040405000102030405060708090a0b0c0d0e0f1011121314060708090a0b0c0d0e0f1011121314"
    "0b0c0d0e0f10111213140f101112131412131414000102030405010203040502030405030405040505060708090a0708090a08090a090a0a"
    "0b0c0d0e0c0d0e0d0e0e0f10111011111213131400000000000001010101010202020203030304040506060606060707070708080809090a"
    "0b0b0b0b0c0c0c0d0d0e0f0f0f10101112121314000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223"
    "2425262728292a2b2c2d2e2f303132333435363715161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363724"
    "25262728292a2b2c2d2e2f30313233343536372e2f30313233343536373435363737000102030405060708090a0b0c0d0e0f101112131406"
    "0708090a0b0c0d0e0f10111213140b0c0d0e0f10111213140f10111213141213141415161718191a1b1c1d1e1f202122231a1b1c1d1e1f20"
    "2122231e1f20212223212223232425262728292a2b2c2d28292a2b2c2d2b2c2d2d2e2f303132333132333334353636370001020304050102"
    "03040502030405030405040505060708090a0708090a08090a090a0a0b0c0d0e0c0d0e0d0e0e0f1011101111121313141516171819161718"
    "191718191819191a1b1c1d1b1c1d1c1d1d1e1f201f2020212222232425262725262726272728292a292a2a2b2c2c2d2e2f302f3030313232"
    "33343535363700000000000001010101010202020203030304040506060606060707070708080809090a0b0b0b0b0c0c0c0d0d0e0f0f0f10"
    "1011121213141515151515161616161717171818191a1a1a1a1b1b1b1c1c1d1e1e1e1f1f2021212223242424242525252626272828282929"
    "2a2b2b2c2d2e2e2e2f2f30313132333434353637000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223"
    "2425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a5b"
    "5c5d5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d38393a3b3c3d3e3f404142434445464748494a4b4c4d"
    "4e4f505152535455565758595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d5b5c5d5e5f606162"
    "636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d6f707172737475767778797a7b7c7d797a7b7c7d7d0001020304050607"
    "08090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363715161718191a1b1c"
    "1d1e1f202122232425262728292a2b2c2d2e2f30313233343536372425262728292a2b2c2d2e2f30313233343536372e2f30313233343536"
    "37343536373738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f505152535455565758595a4748494a4b4c4d4e4f505152535455"
    "565758595a5152535455565758595a5758595a5a5b5c5d5e5f606162636465666768696a6b6c6d6e65666768696a6b6c6d6e6b6c6d6e6e6f"
    "7071727374757677787576777878797a7b7c7c7d000102030405060708090a0b0c0d0e0f1011121314060708090a0b0c0d0e0f1011121314"
    "0b0c0d0e0f10111213140f10111213141213141415161718191a1b1c1d1e1f202122231a1b1c1d1e1f202122231e1f202122232122232324"
    "25262728292a2b2c2d28292a2b2c2d2b2c2d2d2e2f3031323331323333343536363738393a3b3c3d3e3f404142434445463d3e3f40414243"
    "444546414243444546444546464748494a4b4c4d4e4f504b4c4d4e4f504e4f505051525354555654555656575859595a5b5c5d5e5f606162"
    "63645f60616263646263646465666768696a68696a6a6b6c6d6d6e6f7071727374727374747576777778797a7b7b7c7d0001020304050102"
    "03040502030405030405040505060708090a0708090a08090a090a0a0b0c0d0e0c0d0e0d0e0e0f1011101111121313141516171819161718"
    "191718191819191a1b1c1d1b1c1d1c1d1d1e1f201f2020212222232425262725262726272728292a292a2a2b2c2c2d2e2f302f3030313232"
    "33343535363738393a3b3c393a3b3c3a3b3c3b3c3c3d3e3f403e3f403f4040414243424343444545464748494a48494a494a4a4b4c4d4c4d"
    "4d4e4f4f5051525352535354555556575858595a5b5c5d5e5c5d5e5d5e5e5f6061606161626363646566676667676869696a6b6c6c6d6e6f"
    "7071707171727373747576767778797a7a7b7c7d00000000000001010101010202020203030304040506060606060707070708080809090a"
    "0b0b0b0b0c0c0c0d0d0e0f0f0f101011121213141515151515161616161717171818191a1a1a1a1b1b1b1c1c1d1e1e1e1f1f202121222324"
    "24242425252526262728282829292a2b2b2c2d2e2e2e2f2f303131323334343536373838383838393939393a3a3a3b3b3c3d3d3d3d3e3e3e"
    "3f3f40414141424243444445464747474748484849494a4b4b4b4c4c4d4e4e4f5051515152525354545556575758595a5b5b5b5b5c5c5c5d"
    "5d5e5f5f5f606061626263646565656666676868696a6b6b6c6d6e6f6f6f70707172727374757576777879797a7b7c7d0504040404040303"
    "0303030303030303030303030302020202020202020202020202020202020202020202020202020202020202020202020101010101010101"
    "0101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101010101"
    "0101010101010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000200000000040202020200000000000000000000060404040402020202020202020202"
    "0000000000000000000000000000000000000000080606060604040404040404040404020202020202020202020202020202020202020200"
    "000000000000000000000000000000000000000000000000000000000000000000000a080808080606060606060606060604040404040404"
    "0404040404040404040404040402020202020202020202020202020202020202020202020202020202020202020202020000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000030000000003"
    "0000000603030300000000000000030000000603030300000000000009060606030303030303000000000000000000000003000000060303"
    "0300000000000009060606030303030303000000000000000000000c09090906060606060603030303030303030303000000000000000000"
    "00000000000000030000000603030300000000000009060606030303030303000000000000000000000c0909090606060606060303030303"
    "03030303030000000000000000000000000000000f0c0c0c0909090909090606060606060606060603030303030303030303030303030300"
    "0000000000000000000000000000000000000000000000040000000004000000040000080404000000000004000000040000080404000000"
    "000400000804040000000c080804040400000000000004000000040000080404000000000400000804040000000c08080404040000000000"
    "0400000804040000000c080804040400000000100c0c08080804040404000000000000000400000004000008040400000000040000080404"
    "0000000c080804040400000000000400000804040000000c080804040400000000100c0c0808080404040400000000000004000008040400"
    "00000c080804040400000000100c0c0808080404040400000000001410100c0c0c0808080804040404040000000000000000000005000000"
    "000500000005000005000a05000000000500000005000005000a0500000005000005000a05000005000a05000f0a05000000000500000005"
    "000005000a0500000005000005000a05000005000a05000f0a0500000005000005000a05000005000a05000f0a05000005000a05000f0a05"
    "00140f0a05000000000500000005000005000a0500000005000005000a05000005000a05000f0a0500000005000005000a05000005000a05"
    "000f0a05000005000a05000f0a0500140f0a0500000005000005000a05000005000a05000f0a05000005000a05000f0a0500140f0a050000"
    "05000a05000f0a0500140f0a050019140f0a050000000000000600000000060000000600000600060c00000000060000000600000600060c"
    "0000000600000600060c00000600060c00060c1200000000060000000600000600060c0000000600000600060c00000600060c00060c1200"
    "00000600000600060c00000600060c00060c1200000600060c00060c1200060c121800000000060000000600000600060c00000006000006"
    "00060c00000600060c00060c120000000600000600060c00000600060c00060c1200000600060c00060c1200060c12180000000600000600"
    "060c00000600060c00060c1200000600060c00060c1200060c121800000600060c00060c1200060c121800060c12181e05060708090a0708"
    "090a0b090a0b0c0b0c0d0d0e0f0800000000000000000000000000000b0000000000000000000e000000000011000014090a0b0c0d000000"
    "000000000000000c0000000000000000000f0000000000120000150d0e0f1000000000000010000000000013000016111213000000140000"
    "1715160018190a0b0c0d0e0c0d0e0f0e0f101011120d000000000000000000100000000000130000160e0f10110000000000001100000000"
    "001400001712131400000015000018161700191a0f10111211121313141512000000000015000018131415000000160000191718001a1b14"
    "15161617181700001a1819001b1c191a1b1c1d1e05060708090a000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000000009000000000000000000000000000000000000000000000000000000000000000000000d"
    "000000000000000000000000000000000000001100000000000000000015000000190a0b0c0d0e0000000000000000000000000000000000"
    "000000000000000000000000000e0000000000000000000000000000000000000012000000000000000000160000001a0f10111200000000"
    "00000000000000000000000013000000000000000000170000001b14151600000000000000180000001c191a00001d1e0000000000001900"
    "0000001900000019000019001919000000000000000000000000000019000000000000000000190000000000190000190000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000190000001900001900191900000000000000000019000000000019000019000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000001900001900191900000000001900001900000000000000000000000000000000"
    "00001900191900001900000000000000191900000000000000000000000000000000000000000000000000000000001e0000000000000000"
    "00000000000000000000000000000000000000000000000000001e0000000000000000001e00001e1e1e0000000000000000000000000000"
    "000000000000000000000000001e000000000000000000000000000000000000000000000000000000000000000000000000000000001e00"
    "0000000000000000000000000000000000001e00000000001e001e1e00000000000000000000000000000000000000000000000000000000"
    "0000000000001e0000000000000000001e00001e1e0000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000002800000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000028"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000320000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000032000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003200000000000000"
    "00000000000000000000000000000000000000000000000000000032000000000000000000000000000032000000003205060708090a0708"
    "090a0b090a0b0c0b0c0d0d0e0f08090a0b0c0a0b0c0d0c0d0e0e0f100b0c0d0e0d0e0f0f10110e0f1010111211121314090a0b0c0d0b0c0d"
    "0e0d0e0f0f10110c0d0e0f0e0f101011120f1011111213121314150d0e0f100f101111121310111212131413141516111213131415141516"
    "1715161718190a0b0c0d0e0c0d0e0f0e0f101011120d0e0f100f1011111213101112121314131415160e0f10111011121213141112131314"
    "151415161712131414151615161718161718191a0f10111211121313141512131414151615161718131415151617161718191718191a1b14"
    "15161617181718191a18191a1b1c191a1b1c1d1e"
)
