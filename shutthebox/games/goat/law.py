"""A roll of K dice in floats and whole counts, as the game models read it (``model.py``, ``solo.py``), and one
Bellman step of a turn's slot over it (the exact law in fractions, for the build, is ``dice.py``)."""

from itertools import combinations
from math import factorial

from .rules import DICE, ROLLS


def _law(k: int):
    """(ordered outcomes that match, [(sum, ordered outcomes)] by increasing sum) for k six-sided dice."""
    counts: dict = {}
    for faces in combinations(range(1, 7), k):
        counts[sum(faces)] = counts.get(sum(faces), 0) + factorial(k)
    sums = sorted(counts.items())
    return 6 ** k - sum(count for _, count in sums), [(total, float(count)) for total, count in sums]


# A roll of k dice: the matches' count and each sum's, as floats (the solver's sums are in floats).
LAW = {k: _law(k) for k in range(1, DICE + 1)}
# The same as a chance node's outcomes: [(0 a match, or the sum; its whole count of the 6^k)], and 6^k.
THROWS = {k: ([(0, busts)] + [(total, int(count)) for total, count in sums], 6 ** k)
          for k, (busts, sums) in LAW.items()}


def action_values(stop_allowed: bool, turn: int, rolls: int, payoff, later) -> dict:
    """{0: stop, k: roll k} from ``payoff(gain)`` (the value of the turn ending with that gain) and
    ``later(turn, rolls)`` (the value at a slot of the turn)."""
    values = {}
    if stop_allowed:
        values[0] = payoff(turn)
    bust = payoff(0)
    last = rolls + 1 == ROLLS
    for k in range(1, DICE + 1):
        busts, sums = LAW[k]
        total = bust * busts
        if last:
            for gain, count in sums:
                total += payoff(turn + gain) * count
        else:
            for gain, count in sums:
                total += later(turn + gain, rolls + 1) * count
        values[k] = total / 6 ** k
    return values
