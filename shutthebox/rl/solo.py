"""``shutthebox/ShutTheBoxSolo-v0``: single-player Shut the Box, both objectives, exact info (docs/RL.md)."""

from __future__ import annotations

import numpy as np

from ..engine.notation import format_set
from ..errors import InvalidQuery
from ..games.shutthebox.model import Box
from ..games.shutthebox.rules import Rules, rule_words, rules_of_keywords
from ..games.shutthebox.solo.table import DEFAULT_VARIANT, check_objective, load_solo, variant_of, variant_rules
from ._base import Decision, ExactEnv, Model, cached, state_tuple, whole

_MODELS: dict = {}
CHOOSING = "throw one die or all"  # the words of a decision between throws
FIELDS = ("tiles", "sides", "dice", "one_die_at_most", "max_move_tiles", "one_die_optional", "one_die_high_shut")


def rules_fields(rules) -> tuple:
    """The rules as plain values (a model pickles with them): ``Rules(*rules_fields(rules)) == rules``."""
    return tuple(getattr(rules, name) for name in FIELDS)


def throw(die, sides: int, dice: int) -> int:
    """The total of ``dice`` dice of ``sides`` sides, each drawn by ``die(sides)``."""
    if dice == 2:
        return die(sides) + die(sides)
    return sum(die(sides) for _ in range(dice))


class SoloModel(Box, Model):
    """One rule set and one objective: the table's values before each throw give every move's value, and
    (an optional one die) each choice of dice's value by weighing its rolls."""

    def __init__(self, rules, objective: str):
        self.table = table = load_solo(rules=rules)
        self.objective = objective
        self.more = objective == "shut"
        Box.__init__(self, table.rules)
        Model.__init__(self)
        self.values = table.file.whole(objective).tolist()  # before throwing, by position (0: shut)
        self.moves = table.file.whole(objective + "_move").tolist()
        # the dice the table throws at each position: its choice where the rules give one
        self.chosen = (table.file.whole(objective + "_dice").tolist() if self.rules.one_die_optional
                       else [choices[0] for choices in self.choices])
        self.stuck = [0.0 if self.more else float(score) for score in self.sums]  # a turn's end, by position

    def dice(self, position: int) -> int:
        """The dice the table throws at ``position``."""
        return self.chosen[position]

    def decide(self, state, exact: bool) -> Decision:
        position, roll = state
        n, more, values = self.n_actions, self.more, self.values
        if not roll:  # before a throw, one die optional: throw all (action ``throw``) or one (``throw + 1``)
            throws = map(self.throw_action, self.choices[position])
            if not exact:
                return Decision(n, dict.fromkeys(throws, 0.0), more, exact=False)
            stuck = self.stuck[position]
            return Decision(n, self.throw_values(position, values.__getitem__, lambda: stuck, more), more,
                            value=values[position], table_move=self.throw_action(self.chosen[position]))
        moves = self.legal(position).get(roll, ())
        table_move = self.moves[position * self.width + roll] if exact else None
        return Decision(n, {move: values[position ^ move] for move in moves}, more, table_move=table_move,
                        exact=exact)


def model(rules, objective: str) -> SoloModel:
    return cached(_MODELS, (rules, objective), lambda: SoloModel(rules, objective), model_of,
                  (rules_fields(rules), objective))


def model_of(fields: tuple, objective: str) -> SoloModel:
    """The model of the rules ``Rules(*fields)`` (how a pickled model comes back)."""
    return model(Rules(*fields), objective)


def solo_rules(variant, tiles, dice, sides, one_die, max_move_tiles):
    """The rules of a named rule set, or of the command line's game options (checked as it checks them)."""
    options = (tiles, dice, sides, one_die, max_move_tiles)
    if all(option is None for option in options):
        return variant_rules(variant or DEFAULT_VARIANT)
    rules, _ = rules_of_keywords(tiles=tiles, dice=dice, sides=sides, one_die=one_die, max_move_tiles=max_move_tiles)
    if variant is not None and variant_rules(variant) != rules:
        raise InvalidQuery("variant %s is not the rules the options give (%s)" % (variant, rules.describe()))
    return rules


class ShutTheBoxSoloEnv(ExactEnv):
    """Single-player Shut the Box: one turn from every tile open, exact info from the shipped table.

    ``gymnasium.make("shutthebox/ShutTheBoxSolo-v0", variant="standard", objective="shut")``. The rules are a
    named single-player rule set (``variant``: ``standard``, ``two-dice``, ``two-tiles``; the command line's
    ``--solo --variant``) or any rule set the command's game options give (``tiles``, ``dice``, ``sides``,
    ``one_die``, ``max_move_tiles``, as for ``shutthebox_v0``; ``one_die="optional:6"`` lets the player choose
    one die or all), whose table is solved on first use and cached. ``objective``: ``shut`` (the highest
    chance of closing every tile) or ``score`` (the lowest expected final score).

    - **Actions**: ``Discrete(2 ** tiles)`` (512), plus 2 when one die is optional: ``a < 2 ** tiles`` closes
      the tiles of its bits (bit ``i``: tile ``i + 1``), legal when those tiles are open and sum to the roll
      (``two-tiles``: at most two of them); ``2 ** tiles`` throws all the dice, ``2 ** tiles + 1`` one die
      (only before a throw where the rules let the player choose), as in ``shutthebox_v0``.
    - **Observation**: ``MultiDiscrete([2] * tiles + [max_roll + 1])``: ``obs[i]`` is 1 while tile ``i + 1`` is
      open, ``obs[tiles]`` the dice total showing (0 while the dice are to be chosen, no dice showing yet; at
      the end: the roll no move fits, 0 once shut).
    - **Dynamics**: reset throws the dice (one die once the open tiles sum to 6 or less, ``standard`` and
      ``two-tiles``); each legal move closes its tiles and the dice are thrown again. Where the rules let the
      player choose, the dice wait instead (after reset or a move) for a throwing action, which throws them.
      The episode ends when the box is shut or no move fits the roll.
    - **Reward**: ``shut``: 1 when the box is shut, else 0 (more is better). ``score``: minus the final score
      (the sum of the tiles left open) at the end, 0 before (fewer is better: values are expected scores).
    - **Info**: ``action_mask`` (int8), ``q_values`` (each legal move's exact value: the table's value of the
      position it leaves, ``--solo --expect``; a choice of dice's: each roll's best move weighed by its
      chance, the best choice's being the table's value before the throw; illegal ones -inf for ``shut``,
      +inf for ``score``), ``optimal_actions`` (the actions of the best value; the table's ``--solo --move``
      and its own choice of dice among them), ``regret`` (the last action's loss against the best, in chance
      to shut or points of score), ``illegal``; ``q_return`` (the values as returns: ``score``'s negated),
      ``optimal_mask``.
    - **State** (``get_state()``, ``reset(options={"state": ...})``): ``(open tiles as a bitmask, roll)``, the
      roll 0 while the player chooses the dice.
    - **Illegal actions** (``illegal="end"``): the default penalty is -1 for ``shut`` and minus (the largest
      score + 1) for ``score``.
    """

    def __init__(self, variant: str | None = None, objective: str = "shut", render_mode: str | None = None,
                 exact_info: bool = True, *, tiles=None, dice=None, sides=None, one_die=None, max_move_tiles=None,
                 **options):
        check_objective(objective)
        rules = solo_rules(variant, tiles, dice, sides, one_die, max_move_tiles)
        self.model = found = model(rules, objective)
        start = rules.all_open
        if len(found.choices[start]) == 1:  # no choice of dice first: the first roll must fit a move
            stuck = sorted(set(found.weights[found.choices[start][0]]) - set(found.legal(start)))
            if stuck:
                raise InvalidQuery("under these rules no move fits a first roll of %s, so a game could end before "
                                   "its first action, which an episode cannot say; add tiles or change the dice"
                                   % " or ".join(map(str, stuck)))
        self.variant = variant_of(rules)  # None: the rules are said by the game options
        self.tiles, self.objective, self.sides = rules.tiles, objective, rules.sides
        self.default_penalty = -1.0 if objective == "shut" else -(rules.max_score + 1.0)
        super().__init__(found, [2] * rules.tiles + [rules.max_roll + 1], render_mode, exact_info, **options)
        self._bits = [[position >> i & 1 for i in range(rules.tiles)] for position in range(1 << rules.tiles)]
        self.position, self.roll = rules.all_open, 0

    def _throw(self, dice: int):
        """Throw ``dice`` dice: (the reward, True) when no move fits the roll (the score left), else (0, False)."""
        self.roll = roll = throw(self.dice.die, self.sides, dice)
        self._key = (self.position, roll)
        if roll not in self.model.legal(self.position):
            stuck = self.model.stuck[self.position]
            return (-stuck if stuck else 0.0), True
        return 0.0, False

    def _ready(self):
        """Before a throw: the choice of dice waits for the player where the rules give one (roll 0), else the
        dice are thrown."""
        choices = self.model.choices[self.position]
        if len(choices) > 1:
            self.roll = 0
            self._key = (self.position, 0)
            return 0.0, False
        return self._throw(choices[0])

    def _start(self) -> float:
        self.position = self.model.rules.all_open
        self._ready()  # never ends the game: the rules were checked when the environment was made
        return 0.0

    def _play(self, action: int):
        if action >= self.model.throw:
            return self._throw(self.model.dice_of(action))
        self.position = position = self.position ^ action
        if not position:
            self.roll = 0
            self._key = (0, 0)
            return (1.0 if self.objective == "shut" else 0.0), True
        return self._ready()

    def _observe(self) -> np.ndarray:
        return np.array(self._bits[self.position] + [self.roll], dtype=np.int64)

    def get_state(self) -> tuple:
        """``(open tiles as a bitmask, roll)``: bit ``i`` is tile ``i + 1``; roll 0 while the dice are to be
        chosen (one die optional), and once the box is shut."""
        return (self.position, self.roll)

    def _load(self, state) -> None:
        model = self.model
        position, roll = state_tuple(state, 2, "(open tiles as a bitmask, roll)")
        position = whole(position, "the open tiles (a bitmask)", 1, model.positions - 1)
        choices = model.choices[position]
        rolls = set().union(*(model.weights[dice] for dice in choices))
        roll = whole(roll, "the roll", 0, model.rules.max_roll)
        if roll == 0 and len(choices) == 1:
            raise ValueError("roll 0 (the dice to be chosen) is a state only where the rules let the player choose "
                             "one die or all; here the dice throw %d" % choices[0])
        if roll and roll not in rolls:
            raise ValueError("the dice thrown at open %s cannot roll %d" % (format_set(position, self.tiles), roll))
        if roll and roll not in model.legal(position):
            raise ValueError("no move fits roll %d at open %s: the game is over there"
                             % (roll, format_set(position, self.tiles)))
        self.position, self.roll, self._key = position, roll, (position, roll)

    # -- the model the toy-text way ---------------------------------------------------------

    @property
    def P(self):
        """``P[s][a]``: ``[(probability, next state, reward, terminated), ...]`` (docs/RL.md), states as
        ``encode`` numbers them."""
        found = getattr(self.model, "transitions", None)
        if found is None:
            from ._transitions import solo

            found = self.model.transitions = solo(self.model, self.objective == "shut")
        return found

    def encode(self, state) -> int:
        """The number of ``(open tiles as a bitmask, roll)``: ``position * (max_roll + 1) + roll``."""
        position, roll = state
        return int(position) * self.model.width + int(roll)

    def decode(self, number: int) -> tuple:
        return divmod(int(number), self.model.width)

    def _board(self) -> list:
        tiles = [("tile", str(i + 1), self.position >> i & 1) for i in range(self.tiles)]
        roll = ("text", str(self.roll) if self.roll else "-", len(str(self.model.rules.max_roll)))
        return [tiles, [("text", "roll"), roll]]

    def question(self) -> list:
        """The command line's words for the position: ``[GAME OPTIONS | --variant V] --solo --move POSITION ROLL
        --objective O``, or ``--solo --expect POSITION`` before a throw whose dice the player chooses."""
        rules = self.model.rules
        chosen = ["--variant", self.variant] if self.variant is not None else rule_words(rules)
        position = format_set(self.position, self.tiles)
        asked = ["--move", position, str(self.roll)] if self.roll else ["--expect", position]
        return chosen + ["--solo"] + asked + ["--objective", self.objective]

    def _words(self) -> str:
        tiles = format_set(self.position, self.tiles)
        if not self.position:
            return "the box is shut"
        if self._done:
            return "open %s, roll %d: no move fits, score %d" % (tiles, self.roll, self.model.sums[self.position])
        if not self.roll:
            return "open %s, %s   (ShutTheBox %s)" % (tiles, CHOOSING, " ".join(self.question()))
        return "open %s, roll %d   (ShutTheBox %s)" % (tiles, self.roll, " ".join(self.question()))
