"""Goat's rules and the encoding of a turn (query time; docs/GOAT.md).

Before each roll the player chooses 1 to 6 dice; a roll whose dice all differ
adds their sum to the turn total, a match ends the turn with nothing. A turn
is at most ``ROLLS`` rolls. A state inside a turn is (rolls taken, turn total),
stored at ``slot(rolls, turn)`` of ``SLOTS`` slots: 0 (no roll yet), 1..21 (one
roll), 22..62 (two rolls, totals 2..42). An action is 0 (stop) or K (roll K dice).

The rules option ``choose`` (``--choose each|once``): ``each`` (the default, the game above) chooses the
number of dice before every roll; ``once`` chooses it before the turn's first roll and keeps it for the
turn's rolls (the player may still stop after any roll). Under ``once`` the dice chosen are part of a state
inside a turn, (rolls taken, turn total, dice), stored at ``once_slot(rolls, turn, dice)`` of ``ONCE_SLOTS``
slots: 0 (no roll yet), then for each K = 1..6 the totals one roll of K dice makes, then two rolls' (only the
totals those dice can make: 118 slots).
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
# Lowest sum of K different faces (1 + 2 + ... + K).
MIN_SUM = (0, 1, 3, 6, 10, 15, 21)
SLOTS = 63
MAX_GAIN = ROLLS * MAX_SUM[DICE]  # 63: the most a turn can bank
# A fixed strategy's threshold beyond 2 * MAX_SUM[k] + 1 never stops a turn early: thresholds 1..43 are stored.
THRESHOLDS = 2 * MAX_SUM[DICE] + 1
# The last turn's table rows: what the second player must beat, 1..64 (64 and more: out of reach).
NEEDS = MAX_GAIN + 1


def slot(rolls: int, turn: int) -> int:
    return 0 if rolls == 0 else (turn if rolls == 1 else turn + 20)


# When the number of dice is chosen (the rules option ``choose``): before each roll, or once a turn.
EACH, ONCE = "each", "once"
CHOICES = (EACH, ONCE)


def _once_layout():
    """({(dice, rolls): the slot of turn total 0's place}, the number of slots) of the ``once`` turn."""
    base, at = {}, 1
    for dice in range(1, DICE + 1):
        for rolls in range(1, ROLLS):
            base[dice, rolls] = at - rolls * MIN_SUM[dice]
            at += rolls * (MAX_SUM[dice] - MIN_SUM[dice]) + 1
    return base, at


_ONCE_BASE, ONCE_SLOTS = _once_layout()  # 118 slots


def once_slot(rolls: int, turn: int, dice: int) -> int:
    """The slot of a state inside a turn under ``--choose once``: ``rolls`` rolls of ``dice`` dice have made
    the total ``turn`` (rolls 0: slot 0, no dice chosen yet)."""
    return 0 if rolls == 0 else _ONCE_BASE[dice, rolls] + turn


def once_totals(rolls: int, dice: int) -> range:
    """The turn totals ``rolls`` rolls (1 or 2) of ``dice`` dice make: every one from the lowest to the highest."""
    return range(rolls * MIN_SUM[dice], rolls * MAX_SUM[dice] + 1)


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


def check_state(turn, rolls, dice, choose: str) -> int:
    """The slot of the state (TURN, ROLLS[, DICE]) inside a turn under ``choose``; InvalidQuery unless it can
    occur. Under ``once`` the dice chosen this turn are part of the state: DICE is given exactly when ROLLS is 1
    or 2; under ``each`` it is never given."""
    turn, rolls = check_turn(turn, rolls)
    if choose == EACH:
        if dice is not None:
            raise InvalidQuery("DICE (the dice chosen for the turn) is part of a state only under --choose once; "
                               "under --choose each the dice are chosen before every roll")
        return slot(rolls, turn)
    if rolls == 0:
        if dice is not None:
            raise InvalidQuery("before the first roll no dice are chosen yet: give DICE only with ROLLS 1 or 2")
        return 0
    if dice is None:
        raise InvalidQuery("under --choose once the dice chosen this turn are part of the state: give DICE, "
                           "1 to %d, after ROLLS" % DICE)
    number = as_whole(dice)
    if number is None or not 1 <= number <= DICE:
        raise InvalidQuery("DICE is the number of dice chosen this turn, 1 to %d, not %s" % (DICE, shown_value(dice)))
    totals = once_totals(rolls, number)
    if turn not in totals:
        raise InvalidQuery("%d roll%s of %d %s cannot make a turn total of %d (only %d to %d)"
                           % (rolls, "s" if rolls > 1 else "", number, "die" if number == 1 else "dice", turn,
                              totals[0], totals[-1]))
    return once_slot(rolls, turn, number)


class Rules(RuleSet):
    """``Rules(goal=100, choose="each")``: the homework's game; ``choose="once"``: the number of dice chosen once
    a turn, before its first roll, and kept for its rolls."""

    __slots__ = ()
    GAME = GAME
    OPTIONS = (Option("goal", DEFAULT_GOAL, low=GOAL_LIMITS[0], high=GOAL_LIMITS[1], help="the score to reach"),
               Option("choose", EACH, choices=CHOICES, help="when the number of dice is chosen: before each roll, "
                      "or once a turn (kept for its rolls)"))
    CONSTANTS = {"dice": DICE, "rolls": ROLLS}

    def describe(self) -> str:
        if self.choose == ONCE:
            return ("first to %d; 1 to %d dice chosen once a turn, kept for its rolls, at most %d rolls a turn; a "
                    "match scores 0 for the turn" % (self.goal, DICE, ROLLS))
        return "first to %d; 1 to %d dice a roll, at most %d rolls a turn; a match scores 0 for the turn" % (
            self.goal, DICE, ROLLS)

    def as_dict(self) -> dict:
        """The header's rules: ``choose`` only when it is ``once`` (the default's header is the one before the
        option existed)."""
        rules = super().as_dict()
        if self.choose == EACH:
            del rules["choose"]
        return rules

    @property
    def slots(self) -> int:
        """The slots of a turn: 63 (each), 118 (once)."""
        return ONCE_SLOTS if self.choose == ONCE else SLOTS


# -- the goal chosen on the command line (--goal 50) and in table names (goat-g50, goat-g100-once) ----

OPTIONS = Rules.option_flags()


def fields_of(rules: Rules) -> dict:
    """The table name's slots: ``{choose}`` is empty for each (the name before the option existed), ``-once``."""
    return {"goal": str(rules.goal), "choose": "" if rules.choose == EACH else "-" + rules.choose}


def estimate(rules: Rules):
    """What solving the table of ``rules`` costs: its bytes (from the arrays' shapes, docs/FORMAT.md),
    memory and time from ratios measured on the build machine, rounded up (goal 150: 26 MB, 0.5 GB, 34 s; the dice
    chosen once a turn, 118 slots for 63: 48 MB, 1.05 GB, 20 s, measured 0.63 GB and 19 s)."""
    from ...engine.game import Estimate

    goal = rules.goal
    size = 8 * DICE * THRESHOLDS * goal + 9 * rules.slots * (goal + 2 * goal * goal + NEEDS)
    return Estimate(size, 80 * 10**6 + 20 * size, 1.2 + size * goal / 1.1e8)


def rules_of(fields: dict) -> Rules:
    """The rules of a table name's slots (``{"goal": "100", "choose": "-once"}``) or of a header's rules
    (``{"goal": "100", "choose": "once", ...}``; no ``choose``: each)."""
    options = {"--goal": fields["goal"]} if "goal" in fields else {}
    choose = fields.get("choose") or EACH
    options["--choose"] = choose[1:] if choose.startswith("-") else choose
    return Rules.from_options(options)
