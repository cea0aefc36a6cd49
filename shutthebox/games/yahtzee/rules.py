"""Full Yahtzee's rules (query time): the 13 boxes, how five dice score, the joker rules, and the
numbering of turn-start states in the table (docs/YAHTZEE.md, docs/FORMAT.md).

A card is the set of open boxes, a bitmask (bit ``c``: ``CATEGORIES[c]`` is open).
A turn-start state is the card, the points scored so far in the upper section
capped at 63 (``UPPER_GOAL``), and what the yahtzee box holds: ``OPEN``,
``ZERO`` (closed with 0) or ``FIFTY`` (closed with 50).
"""

from ...engine.dicekeep import DICE, SIDES
from ...engine.dicekeep import ROLLS as ROLLS  # the 252 sorted rolls, for the modules of the game
from ...engine.text import shown, whole
from ...engine.notation import format_names, parse_names
from ...errors import InvalidQuery

GAME = "yahtzee"
CATEGORIES = ("ones", "twos", "threes", "fours", "fives", "sixes", "three-kind", "four-kind", "full-house",
              "small-straight", "large-straight", "yahtzee", "chance")
ONES, SIXES, THREE_KIND, FOUR_KIND, FULL_HOUSE, SMALL, LARGE, YAHTZEE, CHANCE = 0, 5, 6, 7, 8, 9, 10, 11, 12
ALL = (1 << len(CATEGORIES)) - 1
UPPER = (1 << 6) - 1  # the bits of ones .. sixes
LOWER = ALL & ~UPPER
REROLLS = 2  # of five 6-sided dice (engine/dicekeep.py: DICE, SIDES, ROLLS, the 252 sorted rolls)
UPPER_GOAL, UPPER_BONUS, YAHTZEE_BONUS = 63, 35, 100
JOKERS = ("official", "free", "none")
DEFAULT_JOKER = "official"
OPEN, ZERO, FIFTY = 0, 1, 2  # what the yahtzee box holds
JOKER_POINTS = {FULL_HOUSE: 25, SMALL: 30, LARGE: 40}


def rules_dict(joker: str) -> dict:
    """The table header's ``rules`` for a joker rule."""
    return {"categories": list(CATEGORIES), "dice": DICE, "sides": SIDES, "rerolls": REROLLS,
            "upper_bonus": [UPPER_GOAL, UPPER_BONUS], "yahtzee_bonus": 0 if joker == "none" else YAHTZEE_BONUS,
            "joker": joker}


def describe(joker: str) -> str:
    words = {"official": "official jokers (a Yahtzee on a filled yahtzee box goes in its upper box if open, "
                         "else any lower box, full house and straights paying 25/30/40, else a zero above)",
             "free": "free jokers (Verhoeff: a Yahtzee on a filled yahtzee box goes in any box; full house and "
                     "straights pay 25/30/40 once its upper box is filled)",
             "none": "no jokers and no Yahtzee bonus"}
    return ("13 turns of five 6-sided dice, 2 rerolls, boxes %s; upper bonus %d at %d; %s%s"
            % (", ".join(CATEGORIES), UPPER_BONUS, UPPER_GOAL,
               "" if joker == "none" else "Yahtzee bonus %d; " % YAHTZEE_BONUS, words[joker]))


def joker_rule(text: str | None) -> str:
    """The ``--joker`` option's value (default official)."""
    if text is None:
        return DEFAULT_JOKER
    if text not in JOKERS:
        raise InvalidQuery("--joker must be official, free or none, not '%s'" % shown(text))
    return text


# The game's rules are its joker rule (text); the options that choose them:
OPTIONS = ("--joker",)


def rules_from_options(options: dict) -> str:
    return joker_rule(options.get("--joker"))


def fields_of(rules: str) -> dict:
    """The slots of the table's file name (``yahtzee-{joker}.msgpack``)."""
    return {"joker": rules}


def rules_of(fields: dict) -> str:
    return joker_rule(fields.get("joker"))


def estimate(rules: str):
    """What solving a joker rule's table costs: its bytes (one float64 per turn-start state, the same
    for every rule), memory and time measured on the build machine and rounded up (81 MB, 6 s)."""
    from ...engine.game import Estimate

    size = 8 * 536_448  # states(): known without building the index tables
    return Estimate(size, 150 * 10**6, 15)


# -- how five dice score -------------------------------------------------------------------

def counts_of(roll) -> list:
    counts = [0] * (SIDES + 1)
    for die in roll:
        counts[die] += 1
    return counts


def score(category: int, roll) -> int:
    """What the dice ``roll`` (any order) score in box ``category`` by the printed rules, no joker."""
    counts = counts_of(roll)
    if category <= SIXES:
        return (category + 1) * counts[category + 1]
    most = max(counts)
    if category == THREE_KIND:
        return sum(roll) if most >= 3 else 0
    if category == FOUR_KIND:
        return sum(roll) if most >= 4 else 0
    if category == FULL_HOUSE:
        return 25 if most == 3 and 2 in counts else 0
    if category == SMALL:
        return 30 if any(all(counts[face:face + 4]) for face in (1, 2, 3)) else 0
    if category == LARGE:
        return 40 if all(counts[1:6]) or all(counts[2:7]) else 0
    if category == YAHTZEE:
        return 50 if most == 5 else 0
    return sum(roll)


def joker_choices(joker: str, card: int, box: int, face: int) -> list:
    """[(category, points)]: where a Yahtzee of ``face`` may be scored, and for how much, on ``card`` with the
    yahtzee box holding ``box`` (the Yahtzee bonus not included). Without a joker (the yahtzee box open, or
    rule ``none``) it is every open box at its printed score."""
    roll = (face,) * DICE
    if box == OPEN or joker == "none":
        return [(c, score(c, roll)) for c in range(len(CATEGORIES)) if card >> c & 1]
    lower = [(c, JOKER_POINTS.get(c, DICE * face)) for c in range(THREE_KIND, len(CATEGORIES))
             if card >> c & 1 and c != YAHTZEE]
    if joker == "official":
        if card >> (face - 1) & 1:
            return [(face - 1, DICE * face)]
        if lower:
            return lower
        return [(c, 0) for c in range(SIXES + 1) if card >> c & 1]
    # free: any open box; full house and the straights pay only once the matching upper box is filled
    upper_filled = not card >> (face - 1) & 1
    return [(c, DICE * face if c == face - 1 else 0) for c in range(SIXES + 1) if card >> c & 1] + \
        [(c, points if upper_filled or c not in JOKER_POINTS else 0) for c, points in lower]


def yahtzee_bonus(joker: str, box: int, roll) -> int:
    """The Yahtzee bonus a roll earns when scored: 100 for five of a kind while the yahtzee box holds 50."""
    return YAHTZEE_BONUS if joker != "none" and box == FIFTY and len(set(roll)) == 1 else 0


def upper_points(upper: int, category: int, points: int) -> tuple[int, int]:
    """(the new upper total, capped at 63, the bonus paid now) when ``points`` go in box ``category``."""
    if category > SIXES:
        return upper, 0
    after = upper + points
    return min(after, UPPER_GOAL), UPPER_BONUS if upper < UPPER_GOAL <= after else 0


# -- the text of a card --------------------------------------------------------------------


def categories(text: str) -> int:
    """The bitmask of open categories written as ``ones,full-house``, ``all`` or ``none``."""
    return parse_names(text, CATEGORIES)


def format_categories(mask: int) -> str:
    return format_names(mask, CATEGORIES)


# -- upper totals --------------------------------------------------------------------------

_REACH: list = []


def reach() -> list:
    """``reach()[closed]``: a bit set (bit ``t``) of the upper totals the closed upper boxes ``closed``
    (bitmask, bit ``j - 1``: box ``j``) can hold together; box j holds j x 0 .. j x 5."""
    if not _REACH:
        sets = [1]
        for closed in range(1, UPPER + 1):
            j = closed.bit_length()  # the highest closed box
            before = sets[closed ^ (1 << (j - 1))]
            total, shifted = before, before
            for _ in range(DICE):
                shifted <<= j
                total |= shifted
            sets.append(total)
        _REACH.extend(sets)
    return _REACH


def upper_total(text: str, card: int) -> int:
    """``--upper N``: the points scored in the upper section, checked against the closed upper boxes."""
    total = whole("upper total", text)
    closed = UPPER & ~card
    if total < 0 or not reach()[closed] >> total & 1:
        boxes = [CATEGORIES[c] for c in range(SIXES + 1) if closed >> c & 1]
        if not boxes:
            raise InvalidQuery("--upper %s: no upper box is closed, so the upper section holds 0" % shown(text))
        raise InvalidQuery("--upper %s: the closed upper boxes (%s) cannot hold %s points together (box j holds "
                           "a multiple of j from 0 to 5j)" % (shown(text), ",".join(boxes), shown(text)))
    return total


def yahtzee_box(text: str | None, card: int) -> int:
    """``--yahtzee-box 50|0``: OPEN when the yahtzee box is open (then the option is refused), else FIFTY or
    ZERO (then the option is required)."""
    if card >> YAHTZEE & 1:
        if text is not None:
            raise InvalidQuery("--yahtzee-box is for a closed yahtzee box, and yahtzee is open on this card")
        return OPEN
    if text is None:
        raise InvalidQuery("the yahtzee box is closed on this card: say what it holds, --yahtzee-box 50 or 0")
    if text == "50":
        return FIFTY
    if text == "0":
        return ZERO
    raise InvalidQuery("--yahtzee-box must be 50 or 0, not '%s'" % shown(text))


# -- the numbering of turn-start states (docs/FORMAT.md) -------------------------------------

_INDEX: list = []


def _index_tables():
    """(base, rank): ``base[U]`` the first pair number of upper-open mask ``U``; ``rank[U]`` the bit set of
    the reachable capped totals (bit t), whose count below ``u`` is u's rank."""
    if not _INDEX:
        sets, base, ranks, pairs = reach(), [], [], 0
        below_goal = (1 << UPPER_GOAL) - 1
        for upper_open in range(UPPER + 1):
            totals = sets[UPPER & ~upper_open]
            capped = totals & below_goal | (1 << UPPER_GOAL if totals >> UPPER_GOAL else 0)
            base.append(pairs)
            ranks.append(capped)
            pairs += capped.bit_count()
        _INDEX.extend((base, ranks, pairs))
    return _INDEX


def pairs() -> int:
    """P: the number of (upper-open mask, reachable capped upper total) pairs, 2794."""
    return _index_tables()[2]


def states() -> int:
    """The number of turn-start states in a table: 192 x P = 536448."""
    return 3 * 64 * pairs()


def state_index(card: int, upper: int, box: int) -> int:
    """The position in the table's ``turn`` array of the turn-start state (card, upper total, yahtzee box)
    (``upper`` capped at 63 here; it must be reachable for the card)."""
    base, ranks, count = _index_tables()
    upper_open = card & UPPER
    lower = (card >> THREE_KIND) & 31 | (card >> (CHANCE - 5)) & 32
    capped = UPPER_GOAL if upper > UPPER_GOAL else upper
    return (box * 64 + lower) * count + base[upper_open] + (ranks[upper_open] & ((1 << capped) - 1)).bit_count()


# -- dice ----------------------------------------------------------------------------------

_FACES = frozenset("123456")


def parse_dice(text: str) -> tuple:
    """Five dice written as digits in any order (``"61352"``) -> the sorted roll."""
    if len(text) == DICE and _FACES.issuperset(text):
        return tuple(sorted(map(int, text)))
    quoted = "'%s'" % shown(text)
    if not (text.isascii() and text.isdigit()):
        raise InvalidQuery("dice %s: write the five dice as digits 1 to 6, such as 13366" % quoted)
    if len(text) != DICE:
        raise InvalidQuery("dice %s: there are five dice, not %d" % (quoted, len(text)))
    raise InvalidQuery("dice %s: a die shows 1 to 6, not %s" % (quoted, next(d for d in text if d not in _FACES)))


def rerolls_left(text) -> int:
    number = whole("number of rerolls", text) if isinstance(text, str) else text
    if type(number) is not int or not 0 <= number <= REROLLS:
        raise InvalidQuery("rerolls left must be 0, 1 or 2, not %s" % shown(text))
    return number
