"""``shutthebox/ShutTheBoxSolo-v0``: single-player Shut the Box, both objectives, exact info (docs/RL.md)."""

from __future__ import annotations

import numpy as np

from ..engine.notation import format_set
from ..games.shutthebox.rules import moves_by_roll, tile_sums
from ..errors import InvalidQuery
from ..games.shutthebox.solo.table import DEFAULT_VARIANT, check_objective, load_solo, variant_of, variant_rules
from ._base import Decision, ExactEnv, Model
from .players import game_of, one_die_text

_MODELS: dict = {}


class SoloModel(Model):
    """One rule set and one objective: the table's values before each throw give every move's value."""

    def __init__(self, rules, objective: str):
        self.table = table = load_solo(rules=rules)
        self.objective = objective
        self.rules = rules = table.rules
        self.n_actions = 1 << rules.tiles
        self.more = objective == "shut"
        super().__init__()
        self.width = rules.max_roll + 1
        self.values = table.file.whole(objective).tolist()  # before throwing, by position (0: shut)
        self.moves = table.file.whole(objective + "_move").tolist()
        self.sums = sums = tile_sums(rules.tiles)
        self.dice_at = [rules.dice_choices(position, sums[position])[0] for position in range(1 << rules.tiles)]
        self._legal: dict = {}

    def legal(self, position: int) -> dict:
        """{roll: [moves]} at ``position``."""
        found = self._legal.get(position)
        if found is None:
            found = self._legal[position] = moves_by_roll(self.rules, position, self.sums)
        return found

    def dice(self, position: int) -> int:
        return self.dice_at[position]

    def decide(self, state, exact: bool) -> Decision:
        position, roll = state
        moves = self.legal(position).get(roll, ())
        values = self.values
        table_move = self.moves[position * self.width + roll] if exact else None
        decision = Decision(self.n_actions, {move: values[position ^ move] for move in moves}, self.more,
                            table_move=table_move, exact=exact)
        return decision


def model(rules, objective: str) -> SoloModel:
    key = (rules, objective)
    found = _MODELS.get(key)
    if found is None:
        found = _MODELS[key] = SoloModel(rules, objective)
    return found


def solo_rules(variant, tiles, dice, sides, one_die, max_move_tiles):
    """The rules of a named rule set, or of the command line's game options (checked as it checks them)."""
    options = (tiles, dice, sides, one_die, max_move_tiles)
    if all(option is None for option in options):
        return variant_rules(variant or DEFAULT_VARIANT)
    rules, _ = game_of(2, *options)
    if variant is not None and variant_rules(variant) != rules:
        raise InvalidQuery("variant %s is not the rules the options give (%s)" % (variant, rules.describe()))
    if rules.one_die_optional:
        raise InvalidQuery("the one-player environment throws the dice the rules say: an optional one die "
                           "is not among its actions")
    return rules


class ShutTheBoxSoloEnv(ExactEnv):
    """Single-player Shut the Box: one turn from every tile open, exact info from the shipped table.

    ``gymnasium.make("shutthebox/ShutTheBoxSolo-v0", variant="standard", objective="shut")``. The rules are a
    named single-player rule set (``variant``: ``standard``, ``two-dice``, ``two-tiles``; the command line's
    ``--solo --variant``) or any rule set the command's game options give (``tiles``, ``dice``, ``sides``,
    ``one_die``, ``max_move_tiles``, as for ``shutthebox_v0``; not an optional one die), whose table is
    solved on first use and cached. ``objective``: ``shut`` (the highest chance of closing every tile) or
    ``score`` (the lowest expected final score).

    - **Actions**: ``Discrete(2 ** tiles)`` (512): action ``a`` closes the tiles of its bits (bit ``i``: tile
      ``i + 1``); legal when those tiles are open and sum to the roll (``two-tiles``: at most two of them).
    - **Observation**: ``MultiDiscrete([2] * tiles + [max_roll + 1])``: ``obs[i]`` is 1 while tile ``i + 1`` is
      open, ``obs[tiles]`` the dice total showing (at the end: the roll no move fits, 0 once shut).
    - **Dynamics**: reset throws the dice (one die once the open tiles sum to 6 or less, ``standard`` and
      ``two-tiles``); each legal action closes its tiles and the dice are thrown again; the episode ends
      when the box is shut or no move fits the roll.
    - **Reward**: ``shut``: 1 when the box is shut, else 0 (more is better). ``score``: minus the final score
      (the sum of the tiles left open) at the end, 0 before (fewer is better: values are expected scores).
    - **Info**: ``action_mask`` (int8), ``q_values`` (each legal move's exact value: the table's value of the
      position it leaves, ``--solo --expect``; illegal ones -inf for ``shut``, +inf for ``score``),
      ``optimal_actions`` (the moves of the best value; the table's ``--solo --move`` among them), ``regret``
      (the last action's loss against the best, in chance to shut or points of score), ``illegal``.
    """

    def __init__(self, variant: str | None = None, objective: str = "shut", render_mode: str | None = None,
                 exact_info: bool = True, *, tiles=None, dice=None, sides=None, one_die=None, max_move_tiles=None):
        check_objective(objective)
        rules = solo_rules(variant, tiles, dice, sides, one_die, max_move_tiles)
        self.model = found = model(rules, objective)
        self.variant = variant_of(rules)  # None: the rules are said by the game options
        self.tiles, self.objective, self.sides = rules.tiles, objective, rules.sides
        super().__init__(found, [2] * rules.tiles + [rules.max_roll + 1], render_mode, exact_info)
        self._bits = [[position >> i & 1 for i in range(rules.tiles)] for position in range(1 << rules.tiles)]

    def _throw(self) -> int:
        die, sides = self.dice.die, self.sides
        if self.model.dice_at[self.position] == 2:
            return die(sides) + die(sides)
        return sum(die(sides) for _ in range(self.model.dice_at[self.position]))

    def _start(self) -> float:
        self.position = self.model.rules.all_open
        self.roll = self._throw()
        if self.roll not in self.model.legal(self.position):
            raise RuntimeError("no move fits the first roll under these rules")
        self.state = (self.position, self.roll)
        return 0.0

    def _play(self, action: int):
        position = self.position ^ action
        self.position = position
        if not position:
            self.roll = 0
            self.state = (0, 0)
            return (1.0 if self.objective == "shut" else 0.0), True
        self.roll = roll = self._throw()
        self.state = (position, roll)
        if roll not in self.model.legal(position):
            return (0.0 if self.objective == "shut" else -float(self.model.sums[position])), True
        return 0.0, False

    def _observe(self) -> np.ndarray:
        return np.array(self._bits[self.position] + [self.roll], dtype=np.int64)

    def question(self) -> list:
        """The command line's words for the position: ``[GAME OPTIONS] --solo --move POSITION ROLL --variant V
        --objective O``."""
        rules = self.model.rules
        if self.variant is not None:
            chosen = ["--variant", self.variant]
        else:
            chosen = ["--tiles", str(rules.tiles), "--dice", str(rules.dice), "--sides", str(rules.sides),
                      "--one-die", one_die_text(rules)]
            if rules.max_move_tiles is not None:
                chosen += ["--max-move-tiles", str(rules.max_move_tiles)]
        return chosen + ["--solo", "--move", format_set(self.position, self.tiles), str(self.roll),
                         "--objective", self.objective]

    def _words(self) -> str:
        tiles = format_set(self.position, self.tiles)
        if not self.position:
            return "the box is shut"
        if self._done:
            return "open %s, roll %d: no move fits, score %d" % (tiles, self.roll, self.model.sums[self.position])
        return "open %s, roll %d   (ShutTheBox %s)" % (tiles, self.roll, " ".join(self.question()))
