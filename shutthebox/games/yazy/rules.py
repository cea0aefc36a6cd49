"""yazy's rules: the 11 categories, how a roll scores in each, and the numbering of rolls and moves.

A set of open categories is a bitmask (bit ``c``: ``CATEGORIES[c]`` is open).
A roll is the five dice sorted, numbered by its rank in ``ROLLS`` (the 252
non-decreasing 5-tuples of 1-6 in lexicographic order). A move is a byte
(docs/YAZY.md): ``SCORE + c`` scores category ``c``; 0 to 30 keeps the dice
of the sorted roll whose positions are the set bits (0: keep none).
"""

from ...engine.dicekeep import DICE, ROLLS, SIDES
from ...engine.text import shown, shown_value
from ...engine.notation import format_names, parse_names
from ...errors import InvalidQuery

GAME = "yazy"
CATEGORIES = ("ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house",
              "straight", "yazy")
ALL = (1 << len(CATEGORIES)) - 1
REROLLS = 2  # of five 6-sided dice (engine/dicekeep.py: DICE, SIDES, ROLLS)
RULES = {"categories": list(CATEGORIES), "dice": DICE, "sides": SIDES, "rerolls": REROLLS}
SCORE = 32  # move codes SCORE + c score category c; below it, kept positions
NO_MOVE = 255  # no category open: no turn to play

_INDEX = {"".join(map(str, roll)): index for index, roll in enumerate(ROLLS)}


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


# The one rule set: the table's name is its game's.
def fields_of(rules) -> dict:
    return {}


def rules_of(fields: dict) -> dict:
    return RULES


def describe() -> str:
    return "11 turns of five 6-sided dice, 2 rerolls, categories %s; no bonuses" % ", ".join(CATEGORIES)
