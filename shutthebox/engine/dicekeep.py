"""The dice-keeping turn of the five-dice games (yazy, Yahtzee), at query time (standard library only).

Five 6-sided dice are rolled; twice at most the player keeps some and rolls the others again, then
scores the roll. A keep is a multiset of 0 to 5 dice (a sorted tuple); the keeps of k dice are level k,
each level sorted lexicographically (level 5 is ``ROLLS``, the 252 sorted rolls, in the games' order).
Given ``V0(r)``, the value of scoring roll ``r`` now (a game's rules and scores), a turn is

    E_R(K) = (E_R(K + 1) + ... + E_R(K + 6)) / 6 over the keeps K of fewer than five dice, E_R(r) = V(R-1)(r)
    VR(r)  = max(V0(r), max over the proper sub-keeps K of r of E_R(K))

``keep_means`` computes E over every keep from the values of the rolls, level by level, and
``best_sub_keeps`` each roll's best proper sub-keep from the tree: ``B(K) = max(E(K), B(K less one of its
dice))``, smallest keeps first. Choices among sub-keeps are listed in the tie rule's order: more dice
first, then the lowest (``sub_keeps``).

The tree's index tables are a constant (``_TREE``), checked against ``make_tree()`` by the tests:
decoding it costs far less than making it. ``engine/dicekeep_arrays.py`` is the same turn over numpy
arrays, for the builds.
"""

from itertools import combinations_with_replacement, repeat

try:  # the C module itself: importing operator.py would cost a question 0.3 ms
    from _operator import add, itemgetter, truediv
except ImportError:  # pragma: no cover - Pythons without it
    from operator import add, itemgetter, truediv

from .dice import DICE, ROLLS, SIDES  # noqa: F401 - ROLLS: level 5, for the importers of this module

SIZES = (1, 6, 21, 56, 126, 252)  # keeps of 0 .. 5 dice


def levels() -> list:
    """The keeps of 0 .. 5 dice, level by level, each level sorted (level 5: ``ROLLS``)."""
    return [list(combinations_with_replacement(range(1, SIDES + 1), k)) for k in range(DICE + 1)]


def sub_keeps(roll) -> list:
    """The proper sub-multisets of the sorted ``roll`` (each once), in the tie rule's order: more dice first,
    then the lowest."""
    return sorted({tuple(die for position, die in enumerate(roll) if bits >> position & 1)
                   for bits in range((1 << DICE) - 1)}, key=lambda keep: (-len(keep), keep))


def keep_text(keep) -> str:
    """``keep 3 3 6`` or ``keep none``."""
    return "keep " + (" ".join(map(str, keep)) or "none")


def make_tree() -> bytes:
    """The bytes of ``_TREE``: for k = 0..4 and each face 1..6, the position in level k + 1 of each keep of
    level k plus that face; for k = 1..5 and i = 0..k-1, the position in level k - 1 of each keep of level k
    without its (i+1)-th smallest die."""
    where = [{keep: number for number, keep in enumerate(level)} for level in levels()]
    out = bytearray()
    for k in range(DICE):
        for face in range(1, SIDES + 1):
            out.extend(where[k + 1][tuple(sorted(keep + (face,)))] for keep in where[k])
    for k in range(1, DICE + 1):
        for i in range(k):
            out.extend(where[k - 1][keep[:i] + keep[i + 1:]] for keep in where[k])
    return bytes(out)


def _getter(indexes):
    if len(indexes) == 1:
        only = indexes[0]
        return lambda values: (values[only],)
    return itemgetter(*indexes)


class Tree:
    """The keep tree, decoded once from ``_TREE``: ``children[k]`` the getters, one a face, of each keep of
    level k plus that face (k = 0..4); ``parents[k]`` the getters, one a die, of each keep of level k without
    that die (k = 1..5); ``rolls`` the number of each sorted roll."""

    def __init__(self):
        blob = bytes.fromhex(_TREE)
        at = 0
        self.children = []
        for k in range(DICE):
            getters = []
            for _ in range(SIDES):
                getters.append(_getter(blob[at:at + SIZES[k]]))
                at += SIZES[k]
            self.children.append(getters)
        self.parents = [None]
        for k in range(1, DICE + 1):
            getters = []
            for _ in range(k):
                getters.append(_getter(blob[at:at + SIZES[k]]))
                at += SIZES[k]
            self.parents.append(getters)
        self.rolls = {roll: number for number, roll in enumerate(ROLLS)}
        self._where: dict = {}
        self._subs: dict = {}

    def sub_keeps(self, roll) -> list:
        """[(level, position, kept dice, text)] of the proper sub-keeps of the sorted ``roll`` in the tie
        rule's order (``sub_keeps``), kept for the 252 rolls."""
        found = self._subs.get(roll)
        if found is None:
            if not self._where:
                for k in range(DICE):
                    self._where.update(zip(combinations_with_replacement(range(1, SIDES + 1), k), range(SIZES[k])))
            found = self._subs[roll] = [(len(keep), self._where[keep], keep, keep_text(keep))
                                        for keep in sub_keeps(roll)]
        return found


_TREES: list = []


def tree() -> Tree:
    if not _TREES:
        _TREES.append(Tree())
    return _TREES[0]


def keep_means(values, exact: bool = False) -> list:
    """[E_0, ..., E_4, values]: from the values of the 252 rolls, E over the keeps of each level, each keep's
    ``(((((E(K + 1) + E(K + 2)) + E(K + 3)) + E(K + 4)) + E(K + 5)) + E(K + 6)) / 6`` in that order (floats).
    ``exact``: the values are integer numerators and the sums are kept undivided, so that level k is over
    6 ** (5 - k) times their denominator."""
    children = tree().children
    out = [None] * DICE + [values]
    for k in range(DICE - 1, -1, -1):
        one, two, three, four, five, six = (get(out[k + 1]) for get in children[k])
        sums = map(add, map(add, map(add, map(add, map(add, one, two), three), four), five), six)
        out[k] = list(sums) if exact else list(map(truediv, sums, repeat(SIDES)))
    return out


def best_sub_keeps(means) -> list:
    """For each of the 252 rolls, the best of ``means`` (``keep_means``' levels 0..4, over one denominator)
    over its proper sub-keeps: ``B(K) = max(E(K), B(K less one of its dice))``, smallest keeps first."""
    parents = tree().parents
    best = means[0]
    for k in range(1, DICE):
        best = list(map(max, means[k], *(get(best) for get in parents[k])))
    return list(map(max, *(get(best) for get in parents[DICE])))


_TREE = (  # make_tree().hex(): checked by tests/test_yahtzee.py
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
    "5d5e5f5f5f606061626263646565656666676868696a6b6b6c6d6e6f6f6f70707172727374757576777879797a7b7c7d"
)
