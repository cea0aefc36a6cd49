"""Rule sets: tiles, dice, the one-die rule, and what they imply.

A *position* is a bitmask of the open tiles (bit ``i`` set means tile ``i + 1``
is open); a *move* is the bitmask of the tiles it closes, so the position after
a move is ``position & ~move``.

This module is pure and light: the query path imports it to validate rolls,
the solver imports it to enumerate rolls and moves.
"""

from ...engine.text import shown, shown_value, whole_in
from ...errors import InvalidQuery, InvalidRules

# Tiles are stored as uint16 bitmasks in the table file.
MAX_TILES = 16
# The limits of every rule, defined once: the command line and the API accept these.
LIMITS = {"tiles": (1, 12), "dice": (1, 4), "sides": (2, 20), "max_move_tiles": (1, 12), "players": (2, 8)}
# Beyond 12 tiles, solving takes minutes and tables hundreds of MB.
MAX_BUILD_TILES = LIMITS["tiles"][1]
MAX_PLAYERS = LIMITS["players"][1]


class Rules:
    """One rule set of Shut the Box.

    ``Rules()`` is the assignment's game: tiles 1-9, two six-sided dice while
    the open tiles sum to more than 6, one die otherwise.

    The one-die rule: one die is thrown when the open tiles sum to
    ``one_die_at_most`` or less (None: never), or, with ``one_die_high_shut``,
    once every tile above 6 is shut. With ``one_die_optional`` the player may
    then choose one die or all of them; otherwise one die is forced.

    >>> Rules().dice_for(7), Rules().dice_for(6)
    (2, 1)
    >>> Rules(tiles=12).max_score
    78
    """

    __slots__ = ("tiles", "sides", "dice", "one_die_at_most", "max_move_tiles", "one_die_optional",
                 "one_die_high_shut")

    def __init__(
        self,
        tiles: int = 9,
        sides: int = 6,
        dice: int = 2,
        one_die_at_most: int | None = 6,
        max_move_tiles: int | None = None,
        one_die_optional: bool = False,
        one_die_high_shut: bool = False,
    ):
        _check_int("tiles", tiles, 1, MAX_TILES)
        _check_int("sides", sides, *LIMITS["sides"])
        _check_int("dice", dice, *LIMITS["dice"])
        if type(one_die_optional) is not bool or type(one_die_high_shut) is not bool:
            raise InvalidRules("one_die_optional and one_die_high_shut must be true or false")
        if one_die_at_most is not None or one_die_high_shut:
            if dice == 1:
                raise InvalidRules("a one-die rule needs a game of more than one die")
        if one_die_at_most is not None:
            _check_int("one_die_at_most", one_die_at_most, 0, 10_000)
        elif one_die_optional and not one_die_high_shut:
            raise InvalidRules("an optional one die needs a rule for when it may be thrown")
        if max_move_tiles is not None:
            _check_int("max_move_tiles", max_move_tiles, 1, tiles)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "sides", sides)
        object.__setattr__(self, "dice", dice)
        object.__setattr__(self, "one_die_at_most", one_die_at_most)
        object.__setattr__(self, "max_move_tiles", max_move_tiles)
        object.__setattr__(self, "one_die_optional", one_die_optional)
        object.__setattr__(self, "one_die_high_shut", one_die_high_shut)

    def __setattr__(self, name, value):
        raise AttributeError("Rules are immutable")

    def __reduce__(self):  # pickled as the call that makes it: its fields cannot be set one by one
        return (Rules, self._key())

    def _key(self):
        return (self.tiles, self.sides, self.dice, self.one_die_at_most, self.max_move_tiles,
                self.one_die_optional, self.one_die_high_shut)

    def __eq__(self, other):
        return isinstance(other, Rules) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return "Rules(%s)" % ", ".join("%s=%r" % item for item in self.as_dict().items())

    # -- derived facts ---------------------------------------------------

    @property
    def all_open(self) -> int:
        """The starting position: every tile open."""
        return (1 << self.tiles) - 1

    @property
    def max_score(self) -> int:
        """The worst score: the sum of all tiles."""
        return self.tiles * (self.tiles + 1) // 2

    @property
    def max_roll(self) -> int:
        return self.dice * self.sides

    @property
    def outcomes(self) -> int:
        """Equally likely outcomes of one throw of all the dice (36 for 2d6).

        Every roll probability is a whole number of these, one die included.
        """
        return self.sides**self.dice

    def dice_for(self, open_sum: int) -> int:
        """How many dice are thrown when the open tiles sum to ``open_sum``.

        Only for rules where that alone decides (no optional or high-tiles
        one-die rule); :meth:`dice_choices` answers for every rule set.
        """
        if self.one_die_at_most is not None and open_sum <= self.one_die_at_most:
            return 1
        return self.dice

    def dice_choices(self, position: int, open_sum: int) -> tuple[int, ...]:
        """The numbers of dice the player may throw at ``position``.

        All dice come first: on exactly equal values the player throws them.
        """
        few = (self.one_die_at_most is not None and open_sum <= self.one_die_at_most) or (
            self.one_die_high_shut and position >> 6 == 0
        )
        if not few:
            return (self.dice,)
        return (self.dice, 1) if self.one_die_optional else (1,)

    def possible_rolls(self, position: int, open_sum: int) -> frozenset:
        """Every roll the dice can show at ``position``."""
        rolls = set()
        for dice in self.dice_choices(position, open_sum):
            rolls.update(range(dice, dice * self.sides + 1))
        return frozenset(rolls)

    def roll_range(self, dice: int) -> tuple[int, int]:
        """Lowest and highest total that ``dice`` dice can show."""
        return dice, dice * self.sides

    def roll_weights(self, dice: int) -> dict[int, int]:
        """Chance of each total with ``dice`` dice, in units of 1/outcomes."""
        counts = {0: 1}
        for _ in range(dice):
            nxt: dict[int, int] = {}
            for total, count in counts.items():
                for face in range(1, self.sides + 1):
                    nxt[total + face] = nxt.get(total + face, 0) + count
            counts = nxt
        scale = self.sides ** (self.dice - dice)
        return {roll: count * scale for roll, count in sorted(counts.items())}

    # -- the file's view -------------------------------------------------

    def as_dict(self) -> dict:
        """The rules as stored in a table file.

        The two later one-die options appear only when set, so a reader that
        does not know them refuses such a table instead of misreading it.
        """
        fields = {
            "tiles": self.tiles,
            "sides": self.sides,
            "dice": self.dice,
            "one_die_at_most": self.one_die_at_most,
            "max_move_tiles": self.max_move_tiles,
        }
        if self.one_die_optional:
            fields["one_die_optional"] = True
        if self.one_die_high_shut:
            fields["one_die_high_shut"] = True
        return fields

    def key(self) -> str:
        """A short name for file names: ``t9-2d6-one6``, ``t12-2d6-opt6-high-max2``."""
        parts = ["t%d" % self.tiles, "%dd%d" % (self.dice, self.sides)]
        when = []
        if self.one_die_at_most is not None:
            when.append("%d" % self.one_die_at_most)
        if self.one_die_high_shut:
            when.append("high")
        if when:
            parts.append(("opt" if self.one_die_optional else "one") + "-".join(when))
        if self.max_move_tiles is not None:
            parts.append("max%d" % self.max_move_tiles)
        return "-".join(parts)

    @classmethod
    def from_dict(cls, fields: dict) -> "Rules":
        """The rules a table file stores; InvalidRules for a key this program does not know."""
        if not isinstance(fields, dict):
            raise InvalidRules("the rules are not a map")
        unknown = sorted(str(key) for key in fields if key not in cls.__slots__)
        if unknown:
            raise InvalidRules("unknown rules key %s" % ", ".join(repr(key) for key in unknown))
        return cls(**fields)

    def describe(self) -> str:
        """One line in words, as a player would say it."""
        text = "tiles 1-%d, %d %s with %d sides" % (self.tiles, self.dice, "die" if self.dice == 1 else "dice",
                                                    self.sides)
        when = []
        if self.one_die_at_most is not None:
            when.append("the open tiles sum to %d or less" % self.one_die_at_most)
        if self.one_die_high_shut:
            when.append("every tile above 6 is shut")
        if when:
            text += ", %s once %s" % ("one die allowed" if self.one_die_optional else "one die",
                                      " or ".join(when))
        if self.max_move_tiles is not None:
            text += ", at most %d tiles closed per roll" % self.max_move_tiles
        return text


# -- rules chosen on the command line: --tiles 12 --one-die optional:6 ---------------

ONE_DIE_HELP = ("never, K (when the open tiles sum to K or less), high (once every tile above 6 is shut), "
                "K,high (either), each optionally prefixed optional: (the player may throw one die or all)")


def _number(option: str, text: str) -> int:
    low, high = LIMITS[option[2:].replace("-", "_")]
    return whole_in(option, text, low, high)


def parse_one_die(text: str) -> dict:
    """``"optional:6,high"`` -> the Rules fields of that one-die rule."""
    optional = text.startswith("optional:")
    when = text[len("optional:") :] if optional else text
    fields = {"one_die_at_most": None, "one_die_optional": optional, "one_die_high_shut": False}
    if when == "never" and not optional:
        return fields
    parts = when.split(",")
    for part in parts:
        if part == "high" and not fields["one_die_high_shut"]:
            fields["one_die_high_shut"] = True
        elif part.isascii() and part.isdigit() and fields["one_die_at_most"] is None and len(part) < 6:
            fields["one_die_at_most"] = int(part)
        else:
            raise InvalidQuery("--one-die '%s' is not a one-die rule; use %s" % (shown(text), ONE_DIE_HELP))
    return fields


def rules_from_options(game: dict) -> tuple[Rules, int]:
    """Rules and number of players from the raw option values."""
    fields = {}
    if "--tiles" in game:
        fields["tiles"] = _number("--tiles", game["--tiles"])
    if "--dice" in game:
        fields["dice"] = _number("--dice", game["--dice"])
    if "--sides" in game:
        fields["sides"] = _number("--sides", game["--sides"])
    if "--max-move-tiles" in game:
        fields["max_move_tiles"] = _number("--max-move-tiles", game["--max-move-tiles"])
    if "--one-die" in game:
        fields.update(parse_one_die(game["--one-die"]))
    elif fields.get("dice") == 1:
        fields["one_die_at_most"] = None  # one die already: the one-die rule has nothing to do
    players = _number("--players", game["--players"]) if "--players" in game else 2
    try:
        return Rules(**fields), players
    except InvalidRules as error:
        raise InvalidQuery("these rules do not make a game: %s" % error) from None


# The learning surfaces' keywords (the game options above, ``--one-die`` as ``one_die``) and their defaults: the
# command's where it has one, "" or 0 where the command's default depends on the other rules (OpenSpiel's
# parameters cannot be None).
KEYWORDS = {"players": 2, "tiles": 9, "dice": 2, "sides": 6, "one_die": "", "max_move_tiles": 0}


def rules_of_keywords(**keywords) -> tuple[Rules, int]:
    """``(rules, players)`` of the learning surfaces' keywords (``players=3, one_die="optional:6"``), checked as
    the command line checks its options (InvalidQuery, in its words); a keyword None is not given."""
    unknown = sorted(set(keywords) - set(KEYWORDS))
    if unknown:
        raise InvalidQuery("shutthebox has no option %s (its options: %s)" % (", ".join(unknown), ", ".join(KEYWORDS)))
    return rules_from_options({"--" + name.replace("_", "-"): str(value) for name, value in keywords.items()
                               if value is not None})


def one_die_text(rules: Rules) -> str:
    """The command line's ``--one-die`` value of ``rules``."""
    when = []
    if rules.one_die_at_most is not None:
        when.append(str(rules.one_die_at_most))
    if rules.one_die_high_shut:
        when.append("high")
    if not when:
        return "never"
    return ("optional:" if rules.one_die_optional else "") + ",".join(when)


def rule_words(rules: Rules) -> list[str]:
    """The command line's game options for ``rules`` (``--players`` aside)."""
    words = ["--tiles", str(rules.tiles), "--dice", str(rules.dice), "--sides", str(rules.sides),
             "--one-die", one_die_text(rules)]
    if rules.max_move_tiles is not None:
        words += ["--max-move-tiles", str(rules.max_move_tiles)]
    return words


def fields_of(game: tuple) -> dict:
    """The slots of a table's file name (``t12-2d6-opt6-high-max2-p3``) for ``(rules, players)``."""
    rules, players = game
    rest = rules.key().split("-")[2:]  # after t12 and 2d6: opt6, high, max2
    one = "".join("-" + part for part in rest if not part.startswith("max"))
    most = "".join("-" + part for part in rest if part.startswith("max"))
    return {"tiles": str(rules.tiles), "dice": str(rules.dice), "sides": str(rules.sides), "one": one,
            "most": most, "players": str(players)}


def estimate(game: tuple):
    """What solving the table of ``(rules, players)`` costs: its arrays' bytes (exact, from their shapes),
    peak memory and time from ratios measured on the build machine, rounded up (12 tiles, 8 players:
    304 MB, 4 GB, 2 minutes)."""
    from ...engine.game import Estimate

    rules, players = game
    positions, scores, rolls = 1 << rules.tiles, rules.max_score + 1, rules.max_roll + 1
    choice = 1 if rules.one_die_optional else 0  # the dice-count arrays, one byte an entry
    if players == 2:
        size = positions * (8 + 2 * rolls + choice) * (1 + scores)
    else:
        size = (1 + (scores - 1) * players * (players - 1) // 2) * positions * (8 + 2 * rolls + choice)
    return Estimate(size, 60 * 10**6 + 14 * size, 0.05 + size / 3e6)


def rules_of(fields: dict) -> tuple:
    """``(rules, players)`` of a table's file name slots, checked as the command line checks its options."""
    options = {"--tiles": fields["tiles"], "--dice": fields["dice"], "--sides": fields["sides"],
               "--players": fields["players"]}
    one = fields["one"][1:]
    options["--one-die"] = ("optional:" if one.startswith("opt") else "") + one[3:].replace("-", ",") or "never"
    if fields["most"]:
        options["--max-move-tiles"] = fields["most"][len("-max"):]
    return rules_from_options(options)


def _check_int(name, value, low, high):
    if type(value) is not int or not low <= value <= high:
        raise InvalidRules("%s must be a whole number from %d to %d, not %s" % (name, low, high, shown_value(value)))


STANDARD = Rules()


def tile_sums(tiles: int) -> list[int]:
    """``tile_sums(n)[mask]`` is the sum of the tiles in ``mask``."""
    sums = [0] * (1 << tiles)
    for mask in range(1, 1 << tiles):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + low.bit_length()
    return sums


def moves_by_roll(rules: Rules, position: int, sums: list[int]) -> dict[int, list[int]]:
    """Legal moves at ``position`` for each roll total, best tie-break first.

    The tie-break closes the highest tiles: compare the closed tiles sorted in
    decreasing order, the lexicographically greatest wins. For two different
    sets the first difference of those lists is at the highest tile in only one
    of them, so the order is exactly the order of the bitmasks as integers.
    Submasks are enumerated in decreasing integer order, hence already sorted.
    """
    limit = rules.max_move_tiles
    moves: dict[int, list[int]] = {}
    move = position
    while move:
        if limit is None or move.bit_count() <= limit:
            moves.setdefault(sums[move], []).append(move)
        move = (move - 1) & position
    return moves
