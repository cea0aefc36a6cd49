"""Sets of numbered things (tiles, cards) as players write them: ``146789``, ``1,4,10,12``, ``12,``.

The rule (docs/SHUTTHEBOX.md, "Positions"): numbers are separated by commas (or
spaces). Where every number of the game is a single digit (9 or fewer), the
digits may also run together (``146789``). Where numbers go above 9, a run of
several digits is ambiguous (``12``: tiles 1 and 2, or tile 12?) and is
refused with a message showing both ways to write it; a lone number is
written with a trailing comma (``12,``), or with commas between single
digits (``1,2``). Two words name the ends in every game: ``all`` (every number of the game: the full board,
all cards face up) and ``none`` (the empty set: the shut box). A set is a bitmask: bit ``i`` set means
number ``i + 1``.
"""

from ..errors import InvalidQuery
from .text import as_whole, shown_value
from .text import shown as shown_text

# Longest text a set can take (a comma-separated list of every number up to 64).
MAX_TEXT = 200


def numbers_of(mask: int) -> tuple[int, ...]:
    """The numbers in a bitmask, increasing: ``numbers_of(0b100000100) == (3, 9)``."""
    numbers = []
    number = 1
    while mask:
        if mask & 1:
            numbers.append(number)
        mask >>= 1
        number += 1
    return tuple(numbers)


def format_set(mask: int, highest: int) -> str:
    """A set as players write it in a game of numbers 1 to ``highest``: digits run together while the
    game has no number above 9 (``146789``); else commas always (``1,2,10,12``), a lone number above 9
    with a trailing comma (``12,``: ``12`` alone would read as 1 and 2). The empty set is ``none``."""
    numbers = numbers_of(mask)
    if not numbers:
        return "none"
    if highest <= 9:
        return "".join(map(str, numbers))
    if len(numbers) == 1 and numbers[0] > 9:
        return "%d," % numbers[0]
    return ",".join(map(str, numbers))


def format_list(numbers) -> str:
    """The assignment's move format: ``[3, 9]``."""
    return "[%s]" % ", ".join(map(str, numbers))


def parse_set(text: str, highest: int, noun: str = "tile", what: str = "position", plural: str = "open tiles") -> int:
    """Bitmask of a set written as text, numbers 1 to ``highest``; may be empty. ``all`` (exactly) is every
    number 1 to ``highest``, ``none`` the empty set.

    Raises InvalidQuery, in the player's words, for anything else.
    """
    if text == "all":
        return (1 << highest) - 1
    shown = "'%s'" % shown_text(text)
    if len(text) > MAX_TEXT:
        raise InvalidQuery("%s %s is too long to be a set of %ss 1 to %d" % (what, shown, noun, highest))
    stripped = text.strip()
    if stripped == "none":
        return 0
    if "," in stripped or " " in stripped:
        parts = [part for part in stripped.replace(",", " ").split()]
    elif highest <= 9:
        parts = list(stripped)
    elif len(stripped) > 1 and stripped.isascii() and stripped.isdigit():
        raise InvalidQuery(
            "%s %s is ambiguous: with %ss above 9, separate them with commas, like %s or %s"
            % (what, shown, noun, ",".join(stripped), stripped + ",")
        )
    else:
        parts = [stripped] if stripped else []
    if not parts:
        raise InvalidQuery("%s %s lists no %s; write none for the empty set" % (what, shown, noun))
    mask = 0
    for part in parts:
        if not (part.isascii() and part.isdigit()) or len(part) > 3:
            if len(part) == 1:
                raise InvalidQuery("%s %s: '%s' is not a %s; write the %s as digits, like 146789"
                                   % (what, shown, part, noun, plural))
            raise InvalidQuery("%s %s: '%s' is not a %s number" % (what, shown, part if len(part) <= 12 else
                                                                 part[:9] + "...", noun))
        mask = _add(mask, int(part), highest, noun, what, shown)
    return mask


def parse_collection(numbers, highest: int, noun: str = "tile", what: str = "position") -> int:
    """Bitmask of a set given as a collection of whole numbers (the API's form: ints, numpy integers); may be
    empty."""
    shown = shown_value(numbers)
    mask = 0
    count = 0
    try:
        iterator = iter(numbers)
    except TypeError:
        raise InvalidQuery("a %s is a string like '146789' or a collection of %ss, not %s"
                           % (what, noun, shown)) from None
    for number in iterator:
        count += 1
        if count > highest:
            raise InvalidQuery("%s %s: more %ss than the game has (%d)" % (what, shown, noun, highest))
        if type(number) is not int:
            whole = as_whole(number)
            if whole is None:
                raise InvalidQuery("%s %s: %s is not a %s number" % (what, shown, shown_value(number), noun))
            number = whole
        mask = _add(mask, number, highest, noun, what, shown)
    return mask


def _add(mask: int, number: int, highest: int, noun: str, what: str, shown: str) -> int:
    """``mask`` with ``number`` added; a number out of range or given twice is refused."""
    if not 1 <= number <= highest:
        if not -10**12 < number < 10**12:  # (%d of a 5000-digit number raises)
            raise InvalidQuery("%s %s: a %s number far out of range (the %ss are 1 to %d)" % (what, shown, noun, noun,
                                                                                            highest))
        raise InvalidQuery("%s %s: there is no %s %d (the %ss are 1 to %d)" % (what, shown, noun, number, noun,
                                                                           highest))
    bit = 1 << (number - 1)
    if mask & bit:
        raise InvalidQuery("%s %s: %s %d is listed twice" % (what, shown, noun, number))
    return mask | bit


def parse_names(text: str, names, noun: str = "category") -> int:
    """Bitmask of named things (``ones,full-house``; ``all``; ``none``), bit ``i`` for ``names[i]``;
    InvalidQuery for an unknown or repeated name."""
    if text == "all":
        return (1 << len(names)) - 1
    if text == "none":
        return 0
    mask = 0
    for name in text.split(","):
        try:
            bit = names.index(name)
        except ValueError:
            raise InvalidQuery("unknown %s '%s' (the %s are %s; or all, none)"
                               % (noun, shown_text(name), _plural(noun), ", ".join(names))) from None
        if mask >> bit & 1:
            raise InvalidQuery("%s %s is listed twice" % (noun, name))
        mask |= 1 << bit
    return mask


def format_names(mask: int, names) -> str:
    """``ones,full-house``, ``all`` or ``none``: the inverse of :func:`parse_names`."""
    if mask == (1 << len(names)) - 1:
        return "all"
    return ",".join(name for bit, name in enumerate(names) if mask >> bit & 1) or "none"


def _plural(noun: str) -> str:
    return noun[:-1] + "ies" if noun.endswith("y") else noun + "s"
