"""Query-time Goat tables: ``load()`` and the questions (expected turns, win chances, the action).

>>> from shutthebox.games.goat.table import load
>>> round(load().probe_fixed(0, 2, 23), 6)
8.783638
"""

from ...engine.table import CHANCE, Table, Values, check_shapes, load_table
from ...engine.text import as_whole, shown_value
from ...errors import InvalidQuery
from . import DECLARATION
from .rules import DICE, MAX_GAIN, NEEDS, THRESHOLDS, Rules, check_state

SLOT = "slot"  # a shape's slots: 63 (each), 118 (once)


def load(rules: Rules | None = None, path: str | None = None, build: bool = True) -> "GoatTable":
    """The verified table of ``rules`` (default: goal 100); other goals, and the dice chosen once a turn
    (``Rules(choose="once")``), are solved on first use and cached."""
    return load_table(DECLARATION.tables[0], GoatTable, rules, path, build, rules_class=Rules)


def open_rules(rules) -> "GoatTable":
    """The table of ``rules`` as the command line opens it (the declaration's hook)."""
    return load(rules)


def action_text(action: int) -> str:
    return "stop" if action == 0 else "roll %d" % action


class GoatTable(Table):
    """Exact and optimal answers for one goal.

    Scores, turn totals and rolls are whole numbers; ``probe_*`` raises InvalidQuery for a state
    that cannot occur, ``get_*`` returns ``default``. Actions are 0 (stop) or K (roll K dice).
    Under ``--choose once`` a state inside a turn after its first roll also says the dice chosen for the
    turn, ``dice`` (1 to 6), given exactly when ``rolls`` is 1 or 2 (never under ``each``).
    """

    SHAPES = {"fixed": (DICE, THRESHOLDS, None), "solo": (None, SLOT), "solo_move": (None, SLOT),
              "one": (None, None, SLOT), "one_move": (None, None, SLOT), "two": (None, None, SLOT),
              "two_move": (None, None, SLOT), "last": (NEEDS, SLOT), "last_move": (NEEDS, SLOT)}

    TURNS = Values("an expected number of turns", 0.0)
    ACTION = Values("an action (0 stop, K roll K dice)", 0, DICE)
    VALUES = {"fixed": TURNS, "solo": TURNS, "one": CHANCE, "two": CHANCE, "last": CHANCE, "solo_move": ACTION,
              "one_move": ACTION, "two_move": ACTION, "last_move": ACTION}

    def __init__(self, tablefile, rules: Rules):
        super().__init__(tablefile)
        self.rules = rules
        goal, self.slots = rules.goal, rules.slots
        sizes = {None: goal, SLOT: self.slots}
        check_shapes(self, {name: tuple(sizes.get(size, size) for size in shape)
                            for name, shape in self.SHAPES.items()}, "goal %d" % goal)
        self.arrays = tablefile.arrays

    def preload(self) -> None:
        """Read and verify the whole table now, for many lookups."""
        self.arrays = {name: self.file.whole(name) for name in self.SHAPES}

    def _score(self, name: str, score: int) -> int:
        """``score`` as an int (a numpy integer is a whole number), a banked score below the goal."""
        number = as_whole(score)
        if number is None or number < 0:
            raise InvalidQuery("%s is a banked score, 0 or more, not %s" % (name, shown_value(score)))
        if number >= self.rules.goal:
            raise InvalidQuery("%s %s has reached the goal %d: the game is over" % (name, shown_value(number),
                                                                                  self.rules.goal))
        return number

    def probe_fixed(self, score: int, dice: int, stop_at: int) -> float:
        """Expected turns to reach the goal from ``score`` (this turn counted) rolling ``dice`` dice
        each roll and stopping once the turn total reaches ``stop_at``: exact, correctly rounded."""
        score = self._score("SCORE", score)
        number = as_whole(dice)
        if number is None or not 1 <= number <= DICE:
            raise InvalidQuery("K is the number of dice, 1 to %d, not %s" % (DICE, shown_value(dice)))
        dice, number = number, as_whole(stop_at)
        if number is None or number < 1:
            raise InvalidQuery("T is the turn total to stop at, 1 or more, not %s" % shown_value(stop_at))
        t = min(number, THRESHOLDS)
        return self.arrays["fixed"][((dice - 1) * THRESHOLDS + t - 1) * self.rules.goal + score]

    def _solo(self, score, turn, rolls, dice):
        score = self._score("SCORE", score)
        return score * self.slots + check_state(turn, rolls, dice, self.rules.choose)

    def probe_solo(self, score: int, turn: int = 0, rolls: int = 0, dice: int | None = None) -> float:
        """Expected turns to the goal playing optimally, the current turn counted."""
        return self.arrays["solo"][self._solo(score, turn, rolls, dice)]

    def probe_solo_move(self, score: int, turn: int, rolls: int, dice: int | None = None) -> int:
        return self.arrays["solo_move"][self._solo(score, turn, rolls, dice)]

    def _two(self, player: int, my: int, opp: int, turn: int, rolls: int, dice):
        """(array name, index) of the mover's state: ``player`` 1 or 2 is to move."""
        goal = self.rules.goal
        number = as_whole(player)
        if number not in (1, 2):
            raise InvalidQuery("the player to move is 1 or 2, not %s" % shown_value(player))
        player, my, number = number, self._score("MY", my), as_whole(opp)
        if number is None or number < 0:
            raise InvalidQuery("OPP is a banked score, 0 or more, not %s" % shown_value(opp))
        opp, slots = number, self.slots
        here = check_state(turn, rolls, dice, self.rules.choose)
        if player == 1:
            if opp >= goal:
                raise InvalidQuery("OPP %s has reached the goal %d: the second player's total ends the game "
                                   "before the first player moves again" % (shown_value(opp), goal))
            return "one", (my * goal + opp) * slots + here
        if opp < goal:
            return "two", (my * goal + opp) * slots + here
        if opp > goal - 1 + MAX_GAIN:
            raise InvalidQuery("OPP %s is out of reach: the first player banks at most %d" % (shown_value(opp),
                                                                                            goal - 1 + MAX_GAIN))
        return "last", (min(opp - my, NEEDS) - 1) * slots + here

    def probe_win(self, player: int, my: int, opp: int, turn: int = 0, rolls: int = 0,
                  dice: int | None = None) -> float:
        """The mover's chance to win (a tie counts half) with both playing optimally."""
        name, index = self._two(player, my, opp, turn, rolls, dice)
        return self.arrays[name][index]

    def probe_move(self, player: int, my: int, opp: int, turn: int, rolls: int, dice: int | None = None) -> int:
        name, index = self._two(player, my, opp, turn, rolls, dice)
        return self.arrays[name + "_move"][index]
