"""Two players head to head: fixed strategies and the optimal player (analysis time; numpy; docs/GOAT.md).

    ShutTheBox goat --duel 2,23 optimal      ->  the chance that 2 dice to 23, moving first, beats optimal play

A *side* is ``(k, t)`` (a fixed strategy: k dice every roll, stop once the turn
total reaches t or the goal, or after the third roll; it ignores the other
player's score, as ``--dice K --stop-at T`` means) or ``OPTIMAL`` (the moves of
the shipped two-player table, the answers of ``goat --move``). Under ``--choose
once`` a fixed strategy is the same (it keeps its K dice); the optimal side plays
that table's moves, whose turns keep the dice of their first roll
(:func:`once_laws`).

Turn laws, exactly. Whatever a side's rule, one turn from a position ends in a
gain 0..63 (0: a match); its chance is a whole number of ``1 / DEN``
(``DEN = 6^18``: three rolls of at most six dice), found by playing the rule's
actions forward slot by slot in int64 (:func:`policy_laws`). No rounding.

The duel. With A (first) at a and B at b, both below the goal, at the start of a
round: W(a, b) = sum_g PA(g) X(a + g, b), where X(a', b) is the chance once A
has banked a' and B is to move: X(a', b) = sum_h PB(h) V(a', b + h), V being W
while both are below the goal, else the end of the round: 1 if a' > b', 1/2 if
equal, 0 if below. A match (g = 0, h = 0) comes back to the same pair, so each
pair is solved with its own loop: W = (c1 + PA(0) c2) / (1 - PA(0) PB(0)),
c1 = sum_{g>0} PA(g) X(a+g, b), c2 = sum_{h>0} PB(h) V(a, b+h); pairs are taken
by decreasing a + b, each anti-diagonal at once. The sums are float64, and a
bound on their rounding error is carried alongside every value
(:func:`duel`): the answer prints correctly rounded unless it lies within its
bound of a rounding midpoint, which is checked (:func:`checked`).
"""

import functools

import numpy as np

from ...errors import TableError
from .dice import THROWS
from .rules import DICE, EACH, MAX_GAIN, MAX_SUM, ROLLS, SLOTS, once_slot, once_totals, slot

OPTIMAL = "optimal"
DEN = 6 ** (ROLLS * DICE)  # every turn chance is a whole number of 1 / 6^18
GAINS = MAX_GAIN + 1  # 64 columns: a turn's gain 0..63
_U = 2.0**-53
# Relative rounding of one weighted sum of at most GAINS float64 products (a generous gamma_n), with the
# rounding of the chances themselves (count / DEN) and of the division by the loop's denominator.
_REL = (GAINS + 8) * _U


def _roll_counts():
    """[k] -> (match count, counts of each sum 0..21 out of 6^k), whole numbers."""
    out = [None]
    for k in range(1, DICE + 1):
        bust, sums = THROWS[k]
        counts = np.zeros(MAX_SUM[DICE] + 1, dtype=np.int64)
        for total, share in sums.items():
            counts[total] = int(share * 6**k)
        out.append((int(bust * 6**k), counts))
    return out


_COUNTS = _roll_counts()


def policy_laws(policy) -> np.ndarray:
    """The law of one turn's gain, (positions, 64) int64 counts out of ``DEN``, for ``policy``
    (positions x ``SLOTS`` actions: 0 stop, K roll K dice), played forward from the first roll.

    The mass of a state after dice d_1.. is DEN * prod(count_i / 6^k_i), a multiple of 6^(18 - 6 r)
    after r rolls, so each division by 6^k is exact."""
    policy = np.asarray(policy)
    count = len(policy)
    law = np.zeros((count, GAINS), dtype=np.int64)
    mass = np.full((count, 1), DEN, dtype=np.int64)  # the states of the current level: turn totals 0..
    for rolls in range(ROLLS):
        turns = [0] if rolls == 0 else list(range(rolls, rolls * MAX_SUM[DICE] + 1))
        nxt = np.zeros((count, (rolls + 1) * MAX_SUM[DICE] + 1), dtype=np.int64)
        for turn in turns:
            here = mass[:, turn]
            if not here.any():
                continue
            action = policy[:, slot(rolls, turn)]
            if rolls == 0 and (action == 0).any():
                raise ValueError("goat: a policy stops before the first roll")
            stop = action == 0
            law[stop, turn] += here[stop]
            for k in range(1, DICE + 1):
                rolling = np.flatnonzero((action == k) & (here > 0))
                if not rolling.size:
                    continue
                part = here[rolling] // 6**k
                bust, sums = _COUNTS[k]
                law[rolling, 0] += part * bust
                landed = part[:, None] * sums[None, :]  # (positions, 22): sums 0..21
                target = law if rolls + 1 == ROLLS else nxt
                target[rolling, turn:turn + len(sums)] += landed
        mass = nxt
    if not (law.sum(axis=1) == DEN).all():
        raise AssertionError("goat: a turn's chances do not add up to 1")
    return law


def once_laws(policy) -> np.ndarray:
    """:func:`policy_laws` for a policy over the slots of the dice chosen once a turn (``rules.once_slot``):
    the first roll's action K (1 to 6) is kept for the turn; after a roll every action must be 0 or K."""
    policy = np.asarray(policy)
    count = len(policy)
    law = np.zeros((count, GAINS), dtype=np.int64)
    first = policy[:, 0]
    if not ((first >= 1) & (first <= DICE)).all():
        raise ValueError("goat: a policy stops before the first roll")
    for k in range(1, DICE + 1):
        rows = np.flatnonzero(first == k)
        if not rows.size:
            continue
        bust, sums = _COUNTS[k]
        own = np.zeros((len(rows), GAINS), dtype=np.int64)  # the law of these positions
        mass = np.full((len(rows), 1), DEN, dtype=np.int64)  # turn totals 0..: before the first roll, only 0
        for rolls in range(ROLLS):
            nxt = np.zeros((len(rows), (rolls + 1) * MAX_SUM[DICE] + 1), dtype=np.int64)
            for turn in (once_totals(rolls, k) if rolls else [0]):
                here = mass[:, turn]
                going = np.ones(len(rows), dtype=bool)
                if rolls:
                    action = policy[rows, once_slot(rolls, turn, k)]
                    if not np.isin(action, (0, k)).all():
                        raise ValueError("goat: a policy changes the dice chosen for the turn")
                    going = action == k
                    own[~going, turn] += here[~going]
                part = here[going] // 6**k
                own[going, 0] += part * bust
                landed = part[:, None] * sums[None, :]  # sums 0..21
                target = own if rolls + 1 == ROLLS else nxt
                target[going, turn:turn + len(sums)] += landed
            mass = nxt
        law[rows] = own
    if not (law.sum(axis=1) == DEN).all():
        raise AssertionError("goat: a turn's chances do not add up to 1")
    return law


def fixed_policy(k: int, t: int, scores, goal: int) -> np.ndarray:
    """The actions (len(scores) x SLOTS) of the fixed strategy (k, t) for a player with banked ``scores``:
    roll k until the turn total reaches t or the score reaches ``goal``, at most three rolls."""
    scores = np.asarray(scores)
    policy = np.full((len(scores), SLOTS), k, dtype=np.uint8)
    for rolls in (1, 2):
        for turn in range(rolls, rolls * MAX_SUM[DICE] + 1):
            policy[:, slot(rolls, turn)] = np.where((turn >= t) | (scores + turn >= goal), 0, k)
    return policy


def fixed_laws(k: int, t: int, goal: int) -> np.ndarray:
    """(goal, 64) counts out of DEN: the turn law of (k, t) from each banked score 0..goal-1."""
    return policy_laws(fixed_policy(k, t, np.arange(goal), goal))


def _moves(table, name: str) -> np.ndarray:
    return np.frombuffer(table.file.whole(name).tobytes(), dtype=np.uint8).reshape(-1, table.rules.slots)


class Optimal:
    """The optimal player's turn laws (counts out of DEN) read from a goat table's moves, each found when
    first used: ``first[my, opp]`` (moving first), ``second[my, opp]`` (second, the first player below
    the goal), ``last[need - 1]`` (second, the first player's banked total ``need`` above mine),
    ``solo[score]`` (alone, fewest expected turns). The table's rules say how its turns go (``choose``)."""

    def __init__(self, table):
        self.table, self.goal = table, table.rules.goal
        self.laws = policy_laws if table.rules.choose == EACH else once_laws

    @functools.cached_property
    def first(self):
        return self.laws(_moves(self.table, "one_move")).reshape(self.goal, self.goal, GAINS)

    @functools.cached_property
    def second(self):
        return self.laws(_moves(self.table, "two_move")).reshape(self.goal, self.goal, GAINS)

    @functools.cached_property
    def last(self):
        return self.laws(_moves(self.table, "last_move"))

    @functools.cached_property
    def solo(self):
        return self.laws(_moves(self.table, "solo_move"))


@functools.lru_cache(maxsize=256)
def _fixed_chances(k: int, t: int, goal: int) -> np.ndarray:
    law = fixed_laws(k, t, goal) / DEN
    law.flags.writeable = False
    return law


class Laws:
    """The turn laws of a batch of duels, as chances (float64), each side either a list of fixed strategies
    or the optimal player. ``first(a, b)`` -> (S or 1, n, 64): the first player's law at its a against
    b; ``second(b, a)``: the second player's at b with the first's banked a < goal; ``end(b, a)``: the
    same, a >= goal (the last turn)."""

    def __init__(self, goal: int, a_sides, b_sides, optimal: Optimal | None = None):
        self.goal = goal
        self.count = max(len(a_sides), len(b_sides))
        self.a_fixed = None if a_sides[0] == OPTIMAL else np.stack([_fixed_chances(*side, goal) for side in a_sides])
        self.b_fixed = None if b_sides[0] == OPTIMAL else np.stack([_fixed_chances(*side, goal) for side in b_sides])
        if self.a_fixed is None:
            self.a_optimal = optimal.first / DEN
        if self.b_fixed is None:
            self.b_optimal, self.b_last = optimal.second / DEN, optimal.last / DEN

    def first(self, a, b):
        return self.a_fixed[:, a] if self.a_fixed is not None else self.a_optimal[a, b][None]

    def second(self, b, a):
        return self.b_fixed[:, b] if self.b_fixed is not None else self.b_optimal[b, a][None]

    def end(self, b, a):
        """(S or 1, len(b), 64) for one total a >= goal of the first player."""
        if self.b_fixed is not None:
            return self.b_fixed[:, b]
        return self.b_last[np.clip(a - b, 1, GAINS) - 1][None]


def duel(laws: Laws):
    """(W, bound): W[s, a, b] the chance that the first player of duel s wins from banked (a, b) at the
    start of a round (a tie counts half), and a bound on each value's rounding error."""
    goal, count = laws.goal, laws.count
    high = goal + MAX_GAIN  # the first player's totals after a turn are below goal + 63
    g = np.arange(1, GAINS)
    # X[s, a', b]: the chance once A has banked a' and B is to move; its error bound alongside.
    x, x_err = np.zeros((count, high + GAINS, goal)), np.zeros((count, high + GAINS, goal))
    # B's last turn after A reached the goal: no loop, the round ends.
    bs = np.arange(goal)
    totals = bs[:, None] + np.arange(GAINS)[None, :]  # B's total after each gain
    for a in range(goal, high):
        outcome = np.where(a > totals, 1.0, np.where(a == totals, 0.5, 0.0))
        column = (laws.end(bs, a) * outcome).sum(axis=2)
        x[:, a], x_err[:, a] = column, _REL * column
    # V[s, a, b'] for b' from 0 to goal + 63: W while B is below the goal, else B has won (A is below it).
    v, v_err = np.zeros((count, goal, goal + GAINS)), np.zeros((count, goal, goal + GAINS))
    for d in range(2 * goal - 2, -1, -1):
        a = np.arange(max(0, d - goal + 1), min(d, goal - 1) + 1)
        b = d - a
        pa, pb = laws.first(a, b), laws.second(b, a)  # (S or 1, n, 64)
        rows, cols = a[:, None] + g[None, :], b[:, None]
        c1 = (pa[..., 1:] * x[:, rows, cols]).sum(axis=2)
        e1 = (pa[..., 1:] * x_err[:, rows, cols]).sum(axis=2) + _REL * c1
        rows, cols = a[:, None], b[:, None] + g[None, :]
        c2 = (pb[..., 1:] * v[:, rows, cols]).sum(axis=2)
        e2 = (pb[..., 1:] * v_err[:, rows, cols]).sum(axis=2) + _REL * c2
        pa0, pb0 = pa[..., 0], pb[..., 0]
        loop = 1.0 - pa0 * pb0
        w = (c1 + pa0 * c2) / loop
        w_err = (e1 + pa0 * e2 + _REL * (c1 + pa0 * c2)) / loop + w * 4 * _U / loop
        v[:, a, b], v_err[:, a, b] = w, w_err
        x[:, a, b] = c2 + pb0 * w
        x_err[:, a, b] = e2 + pb0 * w_err + _REL * x[:, a, b]
    return v[:, :, :goal], v_err[:, :, :goal] * 1.01


def checked(value: float, bound: float, what: str) -> float:
    """``value``, unless %.6f might print it wrong: within ``bound`` of a 6-decimal rounding midpoint."""
    scaled = value * 1e6
    if abs(scaled - np.floor(scaled) - 0.5) * 1e-6 <= bound:
        raise TableError("goat: %s = %.12f lies within its error bound %.2g of a rounding midpoint; its 6th "
                         "decimal cannot be vouched for" % (what, value, bound))
    return value


def chances(goal: int, pairs, optimal: Optimal | None = None, batch: int = 48) -> list:
    """[(value, bound)]: for each pair (A, B) of sides, the chance that A moving first beats B (a tie counts
    half); ``optimal``: the optimal player's laws for ``goal`` (needed when a side is OPTIMAL). Pairs of
    the same kind (fixed or optimal on each side) are solved together, ``batch`` at a time."""
    out = [None] * len(pairs)
    kinds: dict = {}
    for number, (a, b) in enumerate(pairs):
        kinds.setdefault((a == OPTIMAL, b == OPTIMAL), []).append(number)
    for numbers in kinds.values():
        for start in range(0, len(numbers), batch):
            part = numbers[start:start + batch]
            laws = Laws(goal, [pairs[n][0] for n in part], [pairs[n][1] for n in part], optimal)
            w, err = duel(laws)
            for row, n in enumerate(part):
                row = min(row, len(w) - 1)
                out[n] = (float(w[row, 0, 0]), float(err[row, 0, 0]))
    return out


def chance(goal: int, a_side, b_side, optimal: Optimal | None = None) -> tuple:
    """(value, bound) of one duel (:func:`chances`)."""
    return chances(goal, [(a_side, b_side)], optimal)[0]


def side_text(side) -> str:
    return OPTIMAL if side == OPTIMAL else "%d,%d" % side


def answer(goal: int, a_side, b_side, optimal: Optimal | None = None) -> float:
    """The question ``--duel A B``: the checked value."""
    value, bound = chance(goal, a_side, b_side, optimal)
    return checked(value, bound, "the duel %s against %s" % (side_text(a_side), side_text(b_side)))
