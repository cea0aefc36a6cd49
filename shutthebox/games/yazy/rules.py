"""yazy's rules: the 11 categories, how a roll scores in each, and the numbering of rolls and moves.

A set of open categories is a bitmask (bit ``c``: ``CATEGORIES[c]`` is open).
A game may be played with a subset of the categories (``--categories``, the
rule set :class:`Rules`); its sets keep the full game's numbering (subsets of
the game's mask), and its tables hold one row per subset (:func:`subsets`).
A roll is the five dice sorted, numbered by its rank in ``ROLLS`` (the 252
non-decreasing 5-tuples of 1-6 in lexicographic order). A move is a byte
(docs/YAZY.md): ``SCORE + c`` scores category ``c``; 0 to 30 keeps the dice
of the sorted roll whose positions are the set bits (0: keep none).
"""

from ...engine.dice import DICE, ROLLS, SIDES
from ...engine.rules import Option, RuleSet
from ...engine.text import as_whole, shown, shown_value
from ...engine.notation import format_names, parse_names
from ...errors import InvalidQuery

GAME = "yazy"
CATEGORIES = ("ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house",
              "straight", "yazy")
ALL = (1 << len(CATEGORIES)) - 1
REROLLS = 2  # of five 6-sided dice (engine/dice.py: DICE, SIDES, ROLLS)
RULES = {"categories": list(CATEGORIES), "dice": DICE, "sides": SIDES, "rerolls": REROLLS}
SCORE = 32  # move codes SCORE + c score category c; below it, kept positions
NO_MOVE = 255  # no category open: no turn to play
TARGETS = 281  # the target mode's x = 0 .. 280: the most a game scores is 280 (target/build.py's MAX_TOTAL)

_INDEX: dict = {}  # "11233" -> its roll's number: made by the first question with dice


def score(category: int, roll) -> int:
    """What the dice ``roll`` (any order) score in category number ``category``."""
    counts = [0] * (SIDES + 1)
    for die in roll:
        counts[die] += 1
    if category < SIDES:
        return (category + 1) * counts[category + 1]
    most = max(counts)
    name = CATEGORIES[category]
    if name == "three-kind":
        return sum(roll) if most >= 3 else 0
    if name == "four-kind":
        return sum(roll) if most >= 4 else 0
    if name == "full-house":
        return 25 if sorted(counts)[-2:] == [2, 3] else 0
    if name == "straight":
        return 40 if all(counts[2:6]) and (counts[1] or counts[6]) else 0
    return 50 if most == 5 else 0


def roll_index(dice: str) -> int:
    """The rank in ``ROLLS`` of five dice written as digits in any order (``"61352"``)."""
    if not isinstance(dice, str):
        raise InvalidQuery("dice must be five digits 1 to 6 or a list of five faces, not %s" % shown_value(dice))
    if not _INDEX:
        _INDEX.update(("".join(map(str, roll)), index) for index, roll in enumerate(ROLLS))
    index = _INDEX.get("".join(sorted(dice))) if len(dice) == DICE else None
    if index is None:
        raise InvalidQuery(_bad_dice(dice))
    return index


def _bad_dice(dice: str) -> str:
    text = "'%s'" % shown(dice)
    if not (dice.isascii() and dice.isdigit()):
        return "dice %s: write the five dice as digits 1 to 6, such as 13366" % text
    if len(dice) != DICE:
        return "dice %s: there are five dice, not %d" % (text, len(dice))
    return "dice %s: a die shows 1 to 6, not %s" % (text, next(d for d in dice if d not in "123456"))


def categories(text: str) -> int:
    """The bitmask of open categories written as ``ones,full-house``, ``all`` or ``none``."""
    return parse_names(text, CATEGORIES)


def format_categories(mask: int) -> str:
    return format_names(mask, CATEGORIES)


def describe_move(code: int, roll) -> str:
    """``score full-house``, ``keep 3 3 6`` or ``keep none``: the move ``code`` on the sorted ``roll``."""
    if code >= SCORE:
        return "score " + CATEGORIES[code - SCORE]
    kept = [str(die) for position, die in enumerate(roll) if code >> position & 1]
    return "keep " + (" ".join(kept) if kept else "none")


# -- the rule set: the categories a game is played with ------------------------------------------

def game_categories(text: str) -> int:
    """The bitmask of ``--categories LIST``: names separated by commas (any order) or ``all``; at least
    one, none repeated (InvalidQuery in the command line's words)."""
    if not isinstance(text, str):
        raise InvalidQuery("--categories must be category names separated by commas (ones,yazy) or all, not %s"
                           % shown_value(text))
    if text == "all":
        return ALL
    if text in ("", "none"):
        raise InvalidQuery("--categories lists no category: a game is played with at least one")
    mask = 0
    for name in text.split(","):
        if name not in CATEGORIES:
            raise InvalidQuery("--categories: unknown category '%s' (the categories are %s; or all)"
                               % (shown(name), ", ".join(CATEGORIES)))
        bit = 1 << CATEGORIES.index(name)
        if mask & bit:
            raise InvalidQuery("--categories: category %s is listed twice" % name)
        mask |= bit
    return mask


class CategoriesOption(Option):
    """``--categories LIST``: its value is the canonical text of the set (categories in their order, ``all``
    for all eleven), so equal games are equal rules whatever order the names were given in."""

    __slots__ = ()

    def value(self, value):
        return format_categories(game_categories(value))

    parse = value

    def words(self) -> str:
        return "category names separated by commas, or all"


class Rules(RuleSet):
    """``Rules(categories="ones,yazy")``: yazy played with those categories, one turn each (default all)."""

    __slots__ = ()
    GAME = GAME
    OPTIONS = (CategoriesOption("categories", "all", help="the categories played, one turn each"),)

    @property
    def mask(self) -> int:
        """The game's categories as a bitmask of the full game's numbering."""
        return categories(self.categories)

    def names(self) -> list:
        return [name for c, name in enumerate(CATEGORIES) if self.mask >> c & 1]

    def as_dict(self) -> dict:
        """The table header's rules: the full game's are ``RULES`` (the shipped table's), a subset's list its
        categories."""
        return {"categories": self.names(), "dice": DICE, "sides": SIDES, "rerolls": REROLLS}

    def describe(self) -> str:
        names = self.names()
        return "%d turn%s of five 6-sided dice, 2 rerolls, categories %s; no bonuses" % (
            len(names), "s" * (len(names) != 1), ", ".join(names))


FULL = Rules()


def subsets(mask: int) -> list:
    """The subsets of ``mask``, increasing: a game's tables have one row for each, in this order."""
    found, sub = [], mask
    while True:
        found.append(sub)
        if not sub:
            return found[::-1]
        sub = (sub - 1) & mask


def rows(mask: int):
    """set -> its row in the tables of the game of categories ``mask`` (None for the full game: the set itself,
    no lookup)."""
    return None if mask == ALL else {sub: row for row, sub in enumerate(subsets(mask))}


class Sets:
    """The sets of open categories of one game (``rules``): what a question's CATS may be, and their rows."""

    def __init__(self, rules: Rules):
        self.rules, self.game = rules, rules.mask
        self.rows = rows(self.game)  # None: all eleven, the row is the set
        self._sets: dict = {}

    def row(self, mask: int) -> int:
        return mask if self.rows is None else self.rows[mask]

    def categories(self, cats) -> int:
        """The bitmask of ``cats`` (text or a bitmask), within the game's categories (``all``: the game's)."""
        if type(cats) is int and 0 <= cats <= ALL:
            return self._within(cats)
        if as_whole(cats) is not None and 0 <= as_whole(cats) <= ALL:  # a numpy integer
            return self._within(as_whole(cats))
        if not isinstance(cats, str):
            raise InvalidQuery("categories must be text such as ones,yazy or all, or a bitmask from 0 to %d, not %s"
                               % (ALL, shown_value(cats)))
        mask = self._sets.get(cats)
        if mask is None:
            mask = self.game if cats == "all" else self._within(categories(cats))
            if len(self._sets) < 1 << 12:
                self._sets[cats] = mask
        return mask

    def _within(self, mask: int) -> int:
        outside = [name for c, name in enumerate(CATEGORIES) if (mask & ~self.game) >> c & 1]
        if outside:
            raise InvalidQuery("%s not played in this game (--categories %s)" % (
                "category %s is" % outside[0] if len(outside) == 1 else "categories %s are" % ",".join(outside),
                self.rules.categories))
        return mask


# The table name's slot: the categories joined by dots (a file name the server serves takes no commas).
def fields_of(rules: Rules) -> dict:
    return {"categories": rules.categories.replace(",", ".")}


def rules_of(fields: dict) -> Rules:
    """The rules of a table name's slots, or of a header's rules as ``Tables.rules_in`` gives them (each
    value as text: ``{"categories": "['ones', 'yazy']", "dice": "5", ...}``)."""
    text = fields["categories"]
    if set(fields) != {"categories"}:
        if {key: fields.get(key) for key in ("dice", "sides", "rerolls")} != {
                "dice": str(DICE), "sides": str(SIDES), "rerolls": str(REROLLS)} or len(fields) != 4:
            raise InvalidQuery("a yazy table is of five 6-sided dice and 2 rerolls")
        text = ",".join(name.strip(" '\"") for name in text.strip("[]").split(","))
    return Rules.from_options({"--categories": text.replace(".", ",")})


def estimate(rules: Rules):
    """What solving the table of ``rules`` costs: its bytes (a float64 a set, a float64 and a move byte a
    (set, reroll, roll); the header adds under 2 kB), memory and time as measured for all eleven (282 MB
    peak, 1.3 s), rounded up."""
    from ...engine.game import Estimate

    sets = 1 << bin(rules.mask).count("1")
    return Estimate(sets * (8 + (REROLLS + 1) * len(ROLLS) * 9), 60 * 10**6 + 120_000 * sets, 0.02 + sets / 1200)


def describe(rules: Rules = FULL) -> str:
    return rules.describe()
