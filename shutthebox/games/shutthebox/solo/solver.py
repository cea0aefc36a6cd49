"""Exact single-player solution and exact strategy evaluation (build and analysis time only).

One player, one turn: throw, close tiles summing to the roll, until no move
fits. Two objectives are solved, each with its own optimal moves:

* ``shut``: maximise the probability of shutting the box (every tile closed);
* ``score``: minimise the expected final score (the sum of the open tiles, 0
  when shut).

Why integers suffice: a turn from a position with ``k`` open tiles lasts at
most ``k`` throws, each with probabilities in units of ``1/outcomes``, so both
values times ``outcomes**tiles`` are whole numbers (the score objective's end
values are whole numbers too). The solver checks every division is exact, so
ties between moves are decided exactly. Among exactly equal moves the first in
tie-break order (the highest tiles: the largest bitmask) wins, as in the
two-player solver. Where the rules let the player choose one die or all
(``one_die_optional``), the choice is made before each throw, for each
objective; on exactly equal values all the dice are thrown.

Never imported by the query path: it reads the tables this module's results
are written to (``build.encode_solo``, docs/FORMAT.md section "one-player").
"""

from __future__ import annotations

from fractions import Fraction

from ..rules import Rules
from ..solver import Turn

# Bump when the numbers written for the same rules could change (stamped in the tables).
SOLO_VERSION = 1


class Throws:
    """What one throw can do at each position, precomputed once per rule set.

    ``options[position]`` is ``(stuck, choices)`` for a throw of all the dice the
    rules allow there: ``stuck`` is the weight (in units of ``1/outcomes``) of the
    rolls with no legal move, and ``choices`` lists ``(roll, weight, moves)`` with
    the legal moves in tie-break order (largest bitmask first). Where the rules let
    the player choose one die or all (``one_die_optional``), ``throw(position,
    dice)`` gives the same for each choice and ``dice_choices[position]`` lists
    them, all dice first. A view of the solver's :class:`Turn`, which the
    single-player solver also uses.
    """

    def __init__(self, rules: Rules, turn: Turn | None = None):
        self.rules = rules
        self.turn = turn = turn or Turn(rules)
        self.size = turn.size
        self.width = rules.max_roll + 1
        self.sums = turn.sums
        self.dice = [rules.dice] + [throws[0][0] for throws in turn.throws[1:]]
        self.dice_choices = [(rules.dice,)]
        self.options = [(0, [])]
        self._others: dict = {}  # (position, dice) -> (stuck, choices) of a throw that is not the first choice
        for position, throws in enumerate(turn.throws[1:], 1):
            self.dice_choices.append(tuple(dice for dice, _, _ in throws))
            for index, (dice, stuck, choices) in enumerate(throws):
                entry = (stuck, [(roll, weight, tuple(move for _, move in pairs)) for roll, weight, pairs in choices])
                if index == 0:
                    self.options.append(entry)
                else:
                    self._others[position, dice] = entry

    def throw(self, position: int, dice: int | None = None) -> tuple:
        """``(stuck, choices)`` of throwing ``dice`` dice at ``position`` (None: the first choice, all dice)."""
        if dice is None or dice == self.dice[position]:
            return self.options[position]
        try:
            return self._others[position, dice]
        except KeyError:
            raise ValueError("%d dice cannot be thrown at %s" % (dice, bin(position))) from None

    def rolls(self, position: int, dice: int | None = None) -> dict[int, int]:
        """Every roll ``dice`` dice (None: the first choice) show at ``position`` and its weight."""
        return self.rules.roll_weights(self.dice[position] if dice is None else dice)


class SoloSolution:
    """Exact values and optimal moves of both objectives for every position.

    ``shut[position] / denominator`` is the probability of shutting the box,
    ``score[position] / denominator`` the lowest expected final score, both
    before rolling at ``position``; ``shut_moves[position][roll]`` and
    ``score_moves[position][roll]`` are the optimal moves (bitmasks, 0 = no
    legal move).
    """

    def __init__(self, rules, denominator, shut, shut_moves, score, score_moves, shut_dice=None, score_dice=None):
        self.rules = rules
        self.denominator = denominator
        self.shut, self.shut_moves = shut, shut_moves
        self.score, self.score_moves = score, score_moves
        # The dice thrown at each position (a choice only under one_die_optional; None otherwise).
        self.shut_dice, self.score_dice = shut_dice, score_dice

    def shut_probability(self, position: int) -> Fraction:
        return Fraction(self.shut[position], self.denominator)

    def expected_score(self, position: int) -> Fraction:
        return Fraction(self.score[position], self.denominator)

    def value(self, position: int, objective: str = "shut") -> Fraction:
        return self.shut_probability(position) if objective == "shut" else self.expected_score(position)

    def move(self, position: int, roll: int, objective: str = "shut") -> int:
        moves = self.shut_moves if objective == "shut" else self.score_moves
        return moves[position][roll]

    def dice(self, position: int, objective: str = "shut") -> int:
        """How many dice to throw at ``position`` (all of them unless the rules offer one die as a choice
        and it is better)."""
        thrown = self.shut_dice if objective == "shut" else self.score_dice
        if thrown is None:
            return self.rules.dice_choices(position, _open_sum(position))[0]
        return thrown[position]


def solve_solo(rules: Rules, throws: Throws | None = None) -> SoloSolution:
    """Solve both single-player objectives exactly for ``rules``.

    Both are one turn of the solver's DP: shutting is worth 1 and any other end
    0; for the score, maximising ``max_score - score`` minimises the score with
    the same exact ties, so the same first-best tie-break applies.
    """
    turn = (throws or Throws(rules)).turn
    denominator = rules.outcomes**rules.tiles
    top = rules.max_score * denominator
    shut, shut_moves, shut_dice = turn.solve(denominator, lambda score: 0)
    kept, score_moves, score_dice = turn.solve(top, lambda score: top - score * denominator)
    score = [top - value for value in kept]
    if not rules.one_die_optional:
        shut_dice = score_dice = None
    return SoloSolution(rules, denominator, shut, shut_moves, score, score_moves, shut_dice, score_dice)


def _open_sum(position: int) -> int:
    return sum(index + 1 for index in range(position.bit_length()) if position >> index & 1)


# -- exact evaluation of any strategy --------------------------------------------


class Evaluation:
    """Exact values of one strategy: ``shut[position]`` and ``score[position]``
    are Fractions (probability of shutting the box, expected final score)."""

    def __init__(self, rules, name, shut, score):
        self.rules, self.name = rules, name
        self.shut, self.score = shut, score

    @property
    def start_shut(self) -> Fraction:
        return self.shut[self.rules.all_open]

    @property
    def start_score(self) -> Fraction:
        return self.score[self.rules.all_open]


def evaluate(strategy, throws: Throws | None = None) -> Evaluation:
    """Exact probability of shutting the box and expected final score of ``strategy``
    from every position, by dynamic programming over its choices.

    ``strategy.choices(position, roll)`` gives ``[(move, probability), ...]``,
    so a random strategy is averaged over its choices exactly; a deterministic
    one (``strategy.deterministic``) is followed by its ``choose``, in whole
    numbers over ``outcomes ** tiles`` as the solver counts.
    """
    rules = strategy.rules
    throws = throws or Throws(rules)
    if strategy.deterministic:  # its choose() is its whole play: exact in whole numbers, faster
        return _evaluate_whole(strategy, throws)
    size, sums, options = throws.size, throws.sums, throws.options
    outcomes = rules.outcomes
    one = Fraction(1)
    shut = [one] + [Fraction(0)] * (size - 1)
    score = [Fraction(0)] * size
    choosing = rules.one_die_optional
    for position in range(1, size):
        if choosing and len(throws.dice_choices[position]) > 1:
            stuck, choices = throws.throw(position, strategy.dice(position))
        else:
            stuck, choices = options[position]
        shut_total = Fraction(0)
        score_total = Fraction(stuck * sums[position])
        for roll, weight, moves in choices:
            picks = strategy.choices(position, roll)
            if not picks:
                raise ValueError("strategy %s chose no move at %s, roll %d" % (strategy.name, bin(position), roll))
            for move, chance in picks:
                if move not in moves:
                    raise ValueError("strategy %s chose an illegal move %s at %s, roll %d"
                                     % (strategy.name, bin(move), bin(position), roll))
                successor = position ^ move
                shut_total += weight * chance * shut[successor]
                score_total += weight * chance * score[successor]
        shut[position] = shut_total / outcomes
        score[position] = score_total / outcomes
    return Evaluation(rules, strategy.name, shut, score)


def _evaluate_whole(strategy, throws: Throws) -> Evaluation:
    """:func:`evaluate` of a strategy that plays one move for each roll, in whole numbers: numerators over
    ``outcomes ** tiles``, as the solver keeps its values (every division exact), made Fractions at the end."""
    rules = strategy.rules
    size, sums, options = throws.size, throws.sums, throws.options
    outcomes = rules.outcomes
    denominator = outcomes**rules.tiles
    shut = [denominator] + [0] * (size - 1)
    score = [0] * size
    choosing = rules.one_die_optional
    choose = strategy.choose
    for position in range(1, size):
        if choosing and len(throws.dice_choices[position]) > 1:
            stuck, choices = throws.throw(position, strategy.dice(position))
        else:
            stuck, choices = options[position]
        shut_total = 0
        score_total = stuck * sums[position] * denominator
        for roll, weight, moves in choices:
            move = choose(position, roll)
            if move not in moves:
                raise ValueError("strategy %s chose %s at %s, roll %d" % (
                    strategy.name, "an illegal move %s" % bin(move) if move else "no move", bin(position), roll))
            successor = position ^ move
            shut_total += weight * shut[successor]
            score_total += weight * score[successor]
        shut[position], rest = divmod(shut_total, outcomes)
        score[position], rest_score = divmod(score_total, outcomes)
        if rest or rest_score:
            raise ArithmeticError("inexact value at position %d" % position)
    return Evaluation(rules, strategy.name, [Fraction(value, denominator) for value in shut],
                      [Fraction(value, denominator) for value in score])
