"""What the Shut the Box environments (one player, several players) share: the rules as the command line's game
options give them, the actions, the dice and the exact value of a choice of dice (docs/RL.md).

Actions: ``a < 2 ** tiles`` closes the tiles of its bits (bit ``i``: tile ``i + 1``); with an optional one die
two more, ``2 ** tiles`` throws all the dice and ``2 ** tiles + 1`` one die, legal before a throw where the
rules let the player choose (the decision state shows roll 0). A choice's value weighs each roll by its
chance: the best move's value where a move fits, the turn's end where none does.
"""

from __future__ import annotations

from ..games.shutthebox.rules import moves_by_roll, rules_from_options, tile_sums
from ._base import Model

CHOOSING = "throw one die or all"  # the words of a decision between throws


def game_of(players=2, tiles=None, dice=None, sides=None, one_die=None, max_move_tiles=None):
    """(rules, players) from the command line's options, checked as it checks them (InvalidQuery)."""
    options = {"--players": players, "--tiles": tiles, "--dice": dice, "--sides": sides, "--one-die": one_die,
               "--max-move-tiles": max_move_tiles}
    return rules_from_options({name: str(value) for name, value in options.items() if value is not None})


FIELDS = ("tiles", "sides", "dice", "one_die_at_most", "max_move_tiles", "one_die_optional", "one_die_high_shut")


def rules_fields(rules) -> tuple:
    """The rules as plain values (a model pickles with them): ``Rules(*rules_fields(rules)) == rules``."""
    return tuple(getattr(rules, name) for name in FIELDS)


def one_die_text(rules) -> str:
    """The command line's ``--one-die`` value of ``rules``."""
    when = []
    if rules.one_die_at_most is not None:
        when.append(str(rules.one_die_at_most))
    if rules.one_die_high_shut:
        when.append("high")
    if not when:
        return "never"
    return ("optional:" if rules.one_die_optional else "") + ",".join(when)


def rule_words(rules) -> list:
    """The command line's game options for ``rules`` (``--players`` aside)."""
    words = ["--tiles", str(rules.tiles), "--dice", str(rules.dice), "--sides", str(rules.sides),
             "--one-die", one_die_text(rules)]
    if rules.max_move_tiles is not None:
        words += ["--max-move-tiles", str(rules.max_move_tiles)]
    return words


def throw(die, sides: int, dice: int) -> int:
    """The total of ``dice`` dice of ``sides`` sides, each drawn by ``die(sides)``."""
    if dice == 2:
        return die(sides) + die(sides)
    return sum(die(sides) for _ in range(dice))


class BoxModel(Model):
    """A Shut the Box rule set's actions: the legal moves of each roll and the dice of each position. A
    subclass sets ``more`` before calling ``__init__``."""

    def __init__(self, rules):
        self.rules = rules
        self.n_actions = (1 << rules.tiles) + (2 if rules.one_die_optional else 0)
        self.throw = 1 << rules.tiles  # action: throw all the dice; throw + 1: one die
        super().__init__()
        self.positions, self.width = 1 << rules.tiles, rules.max_roll + 1
        self.sums = sums = tile_sums(rules.tiles)
        # the dice that may be thrown at each position, all of them first (two choices: the player's decision)
        self.choices = [rules.dice_choices(position, sums[position]) for position in range(self.positions)]
        self.weights = {dice: rules.roll_weights(dice) for dice in {1, rules.dice}}
        self._legal: dict = {}

    def legal(self, position: int) -> dict:
        """{roll: [moves]} at ``position``, best tie-break first."""
        found = self._legal.get(position)
        if found is None:
            found = self._legal[position] = moves_by_roll(self.rules, position, self.sums)
        return found

    def throw_action(self, dice: int) -> int:
        """The action that throws ``dice`` dice (a choice only where the rules offer one)."""
        return self.throw + (dice == 1)

    def dice_of(self, action: int) -> int:
        """The dice a throwing action throws."""
        return 1 if action == self.throw + 1 else self.rules.dice

    def throw_values(self, position: int, after, end) -> dict:
        """{throwing action: value} of each choice of dice at ``position``: each roll's best move by
        ``after(position it leaves)``, a roll no move fits by ``end()``, weighed by the roll's chance."""
        best = max if self.more else min
        legal = self.legal(position)
        values = {}
        for dice in self.choices[position]:
            total = 0.0
            for roll, weight in self.weights[dice].items():
                moves = legal.get(roll)
                if moves:
                    total += weight * best(after(position ^ move) for move in moves)
                else:
                    total += weight * end()
            values[self.throw_action(dice)] = total / self.rules.outcomes
        return values
