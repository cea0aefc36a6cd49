"""Goat's rules and the encoding of a turn (query time; docs/GOAT.md).

Before each roll the player chooses 1 to 6 dice; a roll whose dice all differ
adds their sum to the turn total, a match ends the turn with nothing. A turn
is at most ``ROLLS`` rolls. A state inside a turn is (rolls taken, turn total),
stored at ``slot(rolls, turn)`` of ``SLOTS`` slots: 0 (no roll yet), 1..21 (one
roll), 22..62 (two rolls, totals 2..42). An action is 0 (stop) or K (roll K dice).
"""

from ...engine.rules import Option, RuleSet
from ...engine.text import as_whole, shown_value
from ...errors import InvalidQuery

GAME = "goat"
DEFAULT_GOAL = 100
# Goal 150 makes a 26 MiB table solved in seconds; beyond, the cache grows as the goal squared.
GOAL_LIMITS = (2, 150)
ROLLS, DICE = 3, 6
# Highest sum of K different faces; a roll of any number of dice shows 1 to 21.
MAX_SUM = (0, 6, 11, 15, 18, 20, 21)
SLOTS = 63
MAX_GAIN = ROLLS * MAX_SUM[DICE]  # 63: the most a turn can bank
# A fixed strategy's threshold beyond 2 * MAX_SUM[k] + 1 never stops a turn early: thresholds 1..43 are stored.
THRESHOLDS = 2 * MAX_SUM[DICE] + 1
# The last turn's table rows: what the second player must beat, 1..64 (64 and more: out of reach).
NEEDS = MAX_GAIN + 1


def slot(rolls: int, turn: int) -> int:
    return 0 if rolls == 0 else (turn if rolls == 1 else turn + 20)


def check_turn(turn: int, rolls: int) -> tuple[int, int]:
    """(turn, rolls) as ints (a numpy integer is a whole number); InvalidQuery unless ``rolls`` rolls of a turn
    can make the total ``turn``."""
    numbers = []
    for name, value in (("TURN", turn), ("ROLLS", rolls)):
        number = as_whole(value)
        if number is None:
            raise InvalidQuery("%s must be a whole number, not %s" % (name, shown_value(value)))
        numbers.append(number)
    turn, rolls = numbers
    if not 0 <= rolls < ROLLS:
        raise InvalidQuery("ROLLS is the rolls taken this turn, 0 to %d, not %s" % (ROLLS - 1, shown_value(rolls)))
    low, high = (0, 0) if rolls == 0 else (rolls, rolls * MAX_SUM[DICE])
    if not low <= turn <= high:
        if rolls == 0:
            raise InvalidQuery("before the first roll the turn total is 0, not %s" % shown_value(turn))
        raise InvalidQuery("%d roll%s cannot make a turn total of %s (only %d to %d)"
                           % (rolls, "s" if rolls > 1 else "", shown_value(turn), low, high))
    return turn, rolls


class Rules(RuleSet):
    """``Rules(goal=100)``: the homework's game."""

    __slots__ = ()
    GAME = GAME
    OPTIONS = (Option("goal", DEFAULT_GOAL, low=GOAL_LIMITS[0], high=GOAL_LIMITS[1], help="the score to reach"),)
    CONSTANTS = {"dice": DICE, "rolls": ROLLS}

    def describe(self) -> str:
        return "first to %d; 1 to %d dice a roll, at most %d rolls a turn; a match scores 0 for the turn" % (
            self.goal, DICE, ROLLS)


# -- the goal chosen on the command line (--goal 50) and in table names (goat-g50) ------------------

OPTIONS = Rules.option_flags()


def fields_of(rules: Rules) -> dict:
    return rules.fields()


def estimate(rules: Rules):
    """What solving the table of ``rules`` costs: its bytes (from the arrays' shapes, docs/FORMAT.md),
    memory and time from ratios measured on the build machine, rounded up (goal 150: 26 MB, 0.5 GB, 8 s)."""
    from ...engine.game import Estimate

    goal = rules.goal
    size = 8 * DICE * THRESHOLDS * goal + 9 * SLOTS * (goal + 2 * goal * goal + NEEDS)
    return Estimate(size, 80 * 10**6 + 20 * size, 1 + size / 2.5e6)


def rules_of(fields: dict) -> Rules:
    return Rules.from_fields(fields)
