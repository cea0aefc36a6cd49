"""Fixed strategies, exactly (build time): the homework's Markov chains over banked scores, in rationals.

A strategy (k, t) rolls k dice every roll and stops when the turn total
reaches t, when banked score plus turn total reaches the goal, or after the
third roll. From banked score s, with P the chance of each turn's gain (0: a
match), the expected turns to the goal, this one included, are

    E(s) = (1 + sum over gains g > 0 with s + g < goal of P(g) E(s + g)) / (1 - P(0))

Each E(s) is kept as an integer over a common denominator (no gcds: it is fast).
"""

from fractions import Fraction

from .dice import THROWS as ROLL
from .rules import MAX_SUM, ROLLS


def turn_gains(k: int, stop: int) -> dict:
    """{gain: chance} of one turn that rolls k dice until the turn total reaches ``stop`` (0: a match)."""
    gains: dict = {}

    def play(turn, rolls, chance):
        if rolls == ROLLS or (rolls and turn >= stop):
            gains[turn] = gains.get(turn, 0) + chance
            return
        bust, sums = ROLL[k]
        gains[0] = gains.get(0, 0) + chance * bust
        for total, share in sums.items():
            play(turn + total, rolls + 1, chance * share)

    play(0, 0, Fraction(1))
    return gains


def useful_threshold(k: int, t: int) -> int:
    """The smallest threshold that plays like ``t`` with k dice (beyond two rolls' best, it never stops early)."""
    return min(t, 2 * MAX_SUM[k] + 1)


def expected_turns(k: int, t: int, goal: int) -> list:
    """[(numerator, denominator)] of E(s) for s = 0 .. goal - 1: exact, not reduced."""
    t = useful_threshold(k, t)
    scale = 6 ** (ROLLS * k)  # every turn chance is a whole number of 1 / 6^(3k)
    counts = {}
    for cap in range(1, t + 1):
        counts[cap] = {gain: int(chance * scale) for gain, chance in turn_gains(k, cap).items()}
    top, bottom = [0] * (goal + 64), [1] * (goal + 64)  # E(s >= goal) = 0/1
    values = [None] * goal
    for s in range(goal - 1, -1, -1):
        gains = counts[min(t, goal - s)]
        # E(s) = (scale + sum n_g E(s+g)) / (scale - n_0); sums of fractions over a common denominator
        common = 1
        for gain in gains:
            if gain and s + gain < goal:
                common = _lcm_cheap(common, bottom[s + gain])
        numerator = scale * common
        for gain, count in gains.items():
            if gain and s + gain < goal:
                numerator += count * top[s + gain] * (common // bottom[s + gain])
        denominator = common * (scale - gains.get(0, 0))
        top[s], bottom[s] = numerator, denominator
        values[s] = (numerator, denominator)
    return values


def _lcm_cheap(a: int, b: int) -> int:
    # denominators here are products along the chain: one usually divides the other
    if a % b == 0:
        return a
    if b % a == 0:
        return b
    return a * b


def as_fraction(value) -> Fraction:
    return Fraction(*value)
