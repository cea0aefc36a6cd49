"""Yahtzee's rule sets (query time): the score sheets (Yahtzee's 13 boxes, Scandinavian Yatzy's 15), how
five dice score, the joker rules, and the numbering of turn-start states in a table (docs/YAHTZEE.md,
docs/FORMAT.md).

A rule set is a word (``RULES``): ``official``, ``free``, ``none`` and ``bonus-only`` are Yahtzee under a
joker rule (``--joker``); ``yatzy`` is Scandinavian Yatzy (``--variant yatzy``), which has no Yahtzee bonus
and no joker. ``sheet(rules)`` is its score sheet (:class:`Sheet`).

A card is the set of open boxes, a bitmask (bit ``c``: ``sheet.categories[c]`` is open).
A turn-start state is the card, the points scored so far in the upper section
capped at 63 (``UPPER_GOAL``), and, in Yahtzee, what the yahtzee box holds:
``OPEN``, ``ZERO`` (closed with 0) or ``FIFTY`` (closed with 50); in Yatzy it is
always ``OPEN`` (the yatzy box is a box like the others).
"""

from ...engine.dice import DICE, SIDES
from ...engine.dice import ROLLS as ROLLS  # the 252 sorted rolls, for the modules of the game
from ...engine.text import shown, whole
from ...engine.notation import format_names
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
JOKERS = ("official", "free", "none", "bonus-only")  # Yahtzee's joker rules (--joker)
DEFAULT_JOKER = "official"
VARIANTS = ("yahtzee", "yatzy")  # --variant
YATZY = "yatzy"  # the rule set of Scandinavian Yatzy
RULES = JOKERS + (YATZY,)  # every rule set, the table files' names (yahtzee-RULES.msgpack)
OPEN, ZERO, FIFTY = 0, 1, 2  # what the yahtzee box holds
JOKER_POINTS = {FULL_HOUSE: 25, SMALL: 30, LARGE: 40}

# Scandinavian Yatzy's boxes (ones .. sixes as in Yahtzee, bits 0-5)
YATZY_CATEGORIES = ("ones", "twos", "threes", "fours", "fives", "sixes", "one-pair", "two-pairs", "three-kind",
                    "four-kind", "small-straight", "large-straight", "full-house", "chance", "yatzy")
Y_PAIR, Y_TWO_PAIRS, Y_THREE, Y_FOUR, Y_SMALL, Y_LARGE, Y_HOUSE, Y_CHANCE, Y_YATZY = range(6, 15)
YATZY_UPPER_BONUS, YATZY_POINTS = 50, 50


# -- how five dice score -------------------------------------------------------------------

def counts_of(roll) -> list:
    counts = [0] * (SIDES + 1)
    for die in roll:
        counts[die] += 1
    return counts


def score(category: int, roll) -> int:
    """What the dice ``roll`` (any order) score in Yahtzee's box ``category`` by the printed rules, no joker."""
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


def yatzy_score(category: int, roll) -> int:
    """What the dice ``roll`` (any order) score in Scandinavian Yatzy's box ``category``: a pair, two pairs
    (of two faces), three and four of a kind count only the matching dice (the highest such face); the
    small straight is 1-2-3-4-5 (15), the large 2-3-4-5-6 (20); a full house (three of one face, two of
    another) scores the sum; yatzy 50 for five of a kind."""
    counts = counts_of(roll)
    if category <= SIXES:
        return (category + 1) * counts[category + 1]
    if category in (Y_PAIR, Y_THREE, Y_FOUR):
        need = {Y_PAIR: 2, Y_THREE: 3, Y_FOUR: 4}[category]
        return next((need * face for face in range(SIDES, 0, -1) if counts[face] >= need), 0)
    if category == Y_TWO_PAIRS:
        pairs = [face for face in range(SIDES, 0, -1) if counts[face] >= 2]
        return 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0
    if category == Y_SMALL:
        return 15 if all(counts[1:6]) else 0
    if category == Y_LARGE:
        return 20 if all(counts[2:7]) else 0
    if category == Y_HOUSE:
        return sum(roll) if sorted(count for count in counts if count) == [2, 3] else 0
    if category == Y_YATZY:
        return YATZY_POINTS if max(counts) == DICE else 0
    return sum(roll)


# -- the score sheets ------------------------------------------------------------------------

class Sheet:
    """The boxes of a variant and how the table numbers its states.

    ``categories``: the boxes in the card's order (bit c: ``categories[c]``); ``score(c, roll)``: the printed
    score; ``upper_bonus``: paid once ones..sixes reach 63; ``yahtzee``: the box whose 50 arms the Yahtzee bonus
    and the jokers (its state is the state's ``box``), None in Yatzy; ``lower``: the other lower boxes, in the
    order of the bits of a state's lower mask; ``most``: the most each box can score (the joker points
    included)."""

    def __init__(self, name, categories, score, upper_bonus, yahtzee, most, aliases, codes):
        self.name, self.categories, self.score, self.upper_bonus, self.yahtzee = (
            name, categories, score, upper_bonus, yahtzee)
        self.aliases = aliases  # other words for boxes: {word: box name}
        self.codes = codes  # one letter per box, in the card's order (Verhoeff's), or "" for none
        self.words = {**{name: c for c, name in enumerate(categories)},
                      **{word: categories.index(name) for word, name in aliases.items()}}
        self.all = (1 << len(categories)) - 1
        self.lower = tuple(c for c in range(SIXES + 1, len(categories)) if c != yahtzee)
        self.boxes = 1 if yahtzee is None else 3  # what the yahtzee box can hold: OPEN only, or OPEN ZERO FIFTY
        self.most = most

    def __repr__(self):
        return "<Sheet %s>" % self.name

    def lower_mask(self, card: int) -> int:
        """The open lower boxes other than yahtzee, bit i for ``lower[i]``."""
        if self.yahtzee is None:
            return card >> (SIXES + 1)
        return (card >> THREE_KIND) & 31 | (card >> (CHANCE - 5)) & 32

    def card_of(self, lower: int, upper_open: int, box: int) -> int:
        """The card of a lower mask, an upper-open mask and the yahtzee box's state."""
        card = upper_open
        for bit, c in enumerate(self.lower):
            if lower >> bit & 1:
                card |= 1 << c
        if self.yahtzee is not None and box == OPEN:
            card |= 1 << self.yahtzee
        return card

    def states(self) -> int:
        """The number of turn-start states in a table: 192 x P = 536448 (Yahtzee), 512 x P = 1430528 (Yatzy)."""
        return self.boxes * (1 << len(self.lower)) * pairs()

    def state_index(self, card: int, upper: int, box: int) -> int:
        """The position in the table's ``turn`` array of the turn-start state (card, upper total, yahtzee box)
        (``upper`` capped at 63 here; it must be reachable for the card)."""
        base, ranks, count = _index_tables()
        upper_open = card & UPPER
        capped = UPPER_GOAL if upper > UPPER_GOAL else upper
        return ((box << len(self.lower)) + self.lower_mask(card)) * count + base[upper_open] + \
            (ranks[upper_open] & ((1 << capped) - 1)).bit_count()


_ALIASES = {"aces": "ones", "3k": "three-kind", "4k": "four-kind", "fh": "full-house", "ss": "small-straight",
            "ls": "large-straight"}
YAHTZEE_SHEET = Sheet("yahtzee", CATEGORIES, score, UPPER_BONUS, YAHTZEE,
                      (5, 10, 15, 20, 25, 30, 30, 30, 25, 30, 40, 50, 30), _ALIASES, "123456tfhslyc")
YATZY_SHEET = Sheet("yatzy", YATZY_CATEGORIES, yatzy_score, YATZY_UPPER_BONUS, None,
                    (5, 10, 15, 20, 25, 30, 12, 22, 18, 24, 15, 20, 28, 30, 50), {**_ALIASES, "pair": "one-pair"}, "")


def sheet(rules: str) -> Sheet:
    """The score sheet of a rule set."""
    return YATZY_SHEET if rules == YATZY else YAHTZEE_SHEET


# -- the rule sets ---------------------------------------------------------------------------

def rules_dict(rules: str) -> dict:
    """The table header's ``rules`` for a rule set (Yahtzee's as they always were; Yatzy's name its variant)."""
    if rules == YATZY:
        return {"variant": YATZY, "categories": list(YATZY_CATEGORIES), "dice": DICE, "sides": SIDES,
                "rerolls": REROLLS, "upper_bonus": [UPPER_GOAL, YATZY_UPPER_BONUS], "yahtzee_bonus": 0,
                "joker": "none"}
    return {"categories": list(CATEGORIES), "dice": DICE, "sides": SIDES, "rerolls": REROLLS,
            "upper_bonus": [UPPER_GOAL, UPPER_BONUS], "yahtzee_bonus": 0 if rules == "none" else YAHTZEE_BONUS,
            "joker": rules}


def describe(rules: str) -> str:
    if rules == YATZY:
        return ("Scandinavian Yatzy: 15 turns of five 6-sided dice, 2 rerolls, boxes %s; upper bonus %d at %d; "
                "one pair, two pairs, three and four of a kind count the matching dice; small straight 1-5 (15), "
                "large 2-6 (20), full house the sum, yatzy 50; no Yahtzee bonus, no jokers"
                % (", ".join(YATZY_CATEGORIES), YATZY_UPPER_BONUS, UPPER_GOAL))
    words = {"official": "official jokers (a Yahtzee on a filled yahtzee box goes in its upper box if open, "
                         "else any lower box, full house and straights paying 25/30/40, else a zero above)",
             "free": "free jokers (Verhoeff: a Yahtzee on a filled yahtzee box goes in any box; full house and "
                     "straights pay 25/30/40 once its upper box is filled)",
             "bonus-only": "no jokers (a Yahtzee on a filled yahtzee box goes in any box at its printed score)",
             "none": "no jokers and no Yahtzee bonus"}
    return ("13 turns of five 6-sided dice, 2 rerolls, boxes %s; upper bonus %d at %d; %s%s"
            % (", ".join(CATEGORIES), UPPER_BONUS, UPPER_GOAL,
               "" if rules == "none" else "Yahtzee bonus %d; " % YAHTZEE_BONUS, words[rules]))


def joker_rule(text: str | None) -> str:
    """The ``--joker`` option's value (default official)."""
    if text is None:
        return DEFAULT_JOKER
    if text not in JOKERS:
        raise InvalidQuery("--joker must be official, free, none or bonus-only, not '%s'" % shown(text))
    return text


def variant_rule(variant: str | None, joker: str | None) -> str:
    """The rule set of ``--variant`` and ``--joker`` (texts or None)."""
    if variant is None or variant == "yahtzee":
        return joker_rule(joker)
    if variant != YATZY:
        raise InvalidQuery("--variant must be yahtzee or yatzy, not '%s'" % shown(variant))
    if joker is not None:
        raise InvalidQuery("--joker is a rule of Yahtzee: Yatzy has no Yahtzee bonus and no jokers")
    return YATZY


# The game's rules are a rule set (text, RULES); the options that choose them:
OPTIONS = ("--joker", "--variant")


def rules_from_options(options: dict) -> str:
    return variant_rule(options.get("--variant"), options.get("--joker"))


def options_of(rules: str) -> list:
    """The game options that choose ``rules`` (``["--joker", "free"]``), as a log or a message writes them."""
    return ["--variant", YATZY] if rules == YATZY else ["--joker", rules]


def fields_of(rules: str) -> dict:
    """The slots of the table's file name (``yahtzee-{joker}.msgpack``: yahtzee-official, yahtzee-yatzy, ...)."""
    return {"joker": rules}


def rules_of(fields: dict) -> str:
    """The rule set of a table name's slots, or of a table header's rules."""
    if fields.get("variant") is not None:
        return variant_rule(fields["variant"], None if fields["variant"] == YATZY else fields.get("joker"))
    if fields.get("joker") == YATZY:
        return YATZY
    return joker_rule(fields.get("joker"))


def estimate(rules: str):
    """What solving a rule set's table costs: its bytes (one float64 per turn-start state), memory and time
    measured on the build machine and rounded up (Yahtzee: 81 MB, 6 s; Yatzy: 157 MB, 12 s)."""
    from ...engine.game import Estimate

    if rules == YATZY:
        return Estimate(8 * 1_430_528, 320 * 10**6, 30)
    size = 8 * 536_448  # states(): known without building the index tables
    return Estimate(size, 150 * 10**6, 15)


def joker_choices(joker: str, card: int, box: int, face: int) -> list:
    """[(category, points)]: where a Yahtzee of ``face`` may be scored, and for how much, on ``card`` with the
    yahtzee box holding ``box`` (the Yahtzee bonus not included). Without a joker (the yahtzee box open, or
    rule ``none``, ``bonus-only`` or ``yatzy``) it is every open box at its printed score."""
    roll = (face,) * DICE
    if joker == YATZY:
        return [(c, yatzy_score(c, roll)) for c in range(len(YATZY_CATEGORIES)) if card >> c & 1]
    if box == OPEN or joker in ("none", "bonus-only"):
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


def has_bonus(rules: str) -> bool:
    """Whether a rule set pays the Yahtzee bonus (official, free, bonus-only)."""
    return rules not in ("none", YATZY)


def yahtzee_bonus(joker: str, box: int, roll) -> int:
    """The Yahtzee bonus a roll earns when scored: 100 for five of a kind while the yahtzee box holds 50."""
    return YAHTZEE_BONUS if box == FIFTY and has_bonus(joker) and len(set(roll)) == 1 else 0


def upper_points(upper: int, category: int, points: int, bonus: int = UPPER_BONUS) -> tuple[int, int]:
    """(the new upper total, capped at 63, the bonus paid now) when ``points`` go in box ``category``;
    ``bonus``: the sheet's upper bonus."""
    if category > SIXES:
        return upper, 0
    after = upper + points
    return min(after, UPPER_GOAL), bonus if upper < UPPER_GOAL <= after else 0


# -- the text of a card --------------------------------------------------------------------


def categories(text: str, rules: str = DEFAULT_JOKER) -> int:
    """The bitmask of the open boxes of a card as a player types it (docs/YAHTZEE.md, "Questions": CARD), in any letter
    case:

    - ``all``, ``none``, or box names separated by commas in any order (``ones,full-house``); a name may be
      an alias (``aces``, ``3k``, ``4k``, ``fh``, ``ss``, ``ls``; Yatzy's ``pair`` too) and, in Yahtzee, one
      of Verhoeff's one-letter codes ``123456TFHSLYC`` (ones .. sixes, three-kind, four-kind, full-house,
      small-straight, large-straight, yahtzee, chance); a list may end with a comma;
    - in Yahtzee, the codes run together, one word without commas: ``1TFC``;
    - ``all -LIST`` (or ``all-LIST``): every box but those LIST names (the closed ones): ``all -twos,chance``.

    A word that reads two ways is refused, never guessed: ``fh`` alone is the alias full-house or the
    codes F and H (four-kind, full-house), so it is written ``fh,`` (or ``full-house``) or ``F,H``; so is
    ``ls``. InvalidQuery names the word, and the boxes for an unknown one."""
    found = sheet(rules)
    lowered = text.lower() if not text.islower() else text
    if lowered == "all":
        return found.all
    if lowered == "none":
        return 0
    if lowered.startswith("all") and lowered[3:].lstrip(" ")[:1] == "-":
        closed = _card_list(lowered[3:].lstrip(" ")[1:], found)
        return found.all & ~closed
    return _card_list(lowered, found)


def _card_list(text: str, found: Sheet) -> int:
    """The boxes of ``a,b,c`` (names, aliases, one code letter each; a comma may end it) or of one word (a
    name, an alias, or codes run together)."""
    if "," not in text:
        return _card_word(text, found)
    items = text.split(",")
    if items[-1] == "" and len(items) > 1 and items[-2] != "":
        items.pop()  # fh, : the alias alone
    mask = 0
    for item in items:
        c = found.words.get(item)
        if c is None and len(item) == 1 and item in found.codes:
            c = found.codes.index(item)
        if c is None:
            raise _unknown(item, found, " (in a list, one code letter a box: 1,2,t)"
                           if found.codes and len(item) > 1 and all(letter in found.codes for letter in item) else "")
        mask = _add_box(mask, c, found)
    return mask


def _card_word(word: str, found: Sheet) -> int:
    named = found.words.get(word)
    coded = None
    if found.codes and word and all(letter in found.codes for letter in word) and len(set(word)) == len(word):
        coded = 0
        for letter in word:
            coded |= 1 << found.codes.index(letter)
    if named is not None and coded is not None and coded != 1 << named:
        raise InvalidQuery("'%s' reads two ways: the box %s (write %s, or %s,) or the codes %s (write %s); say "
                           "which" % (word, found.categories[named], found.categories[named], word,
                                      format_names(coded, found.categories), ",".join(word.upper())))
    if named is not None:
        return 1 << named
    if coded is not None:
        return coded
    if found.codes and word and all(letter in found.codes for letter in word):
        repeated = next(letter for letter in word if word.count(letter) > 1)
        raise InvalidQuery("category %s is listed twice" % found.categories[found.codes.index(repeated)])
    raise _unknown(word, found)


def _add_box(mask: int, c: int, found: Sheet) -> int:
    if mask >> c & 1:
        raise InvalidQuery("category %s is listed twice" % found.categories[c])
    return mask | 1 << c


def _unknown(word: str, found: Sheet, hint: str = "") -> InvalidQuery:
    return InvalidQuery("unknown category '%s'%s (the categories are %s; or all, none%s)"
                        % (shown(word), hint, ", ".join(found.categories),
                           "; short forms in --help" if found.codes else ""))


def format_categories(mask: int, rules: str = DEFAULT_JOKER) -> str:
    return format_names(mask, sheet(rules).categories)


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
        raise InvalidQuery("--upper %s: the closed upper boxes (%s) cannot hold %s point%s together (box j holds "
                           "a multiple of j from 0 to 5j)" % (shown(text), ",".join(boxes), shown(text),
                                                             "" if total == 1 else "s"))
    return total


def yahtzee_box(text: str | None, card: int, rules: str = DEFAULT_JOKER) -> int:
    """``--yahtzee-box 50|0``: OPEN when the yahtzee box is open (then the option is refused), else FIFTY or
    ZERO (then the option is required, but under ``--joker none``, where what it holds changes nothing:
    ZERO when not given). Yatzy has no such box: always OPEN, the option refused."""
    if rules == YATZY:
        if text is not None:
            raise InvalidQuery("--yahtzee-box is for Yahtzee: Yatzy has no Yahtzee bonus, and its yatzy box is a box "
                               "like the others")
        return OPEN
    if card >> YAHTZEE & 1:
        if text is not None:
            raise InvalidQuery("--yahtzee-box is for a closed yahtzee box, and yahtzee is open on this card")
        return OPEN
    if text is None:
        if rules == "none":
            return ZERO
        raise InvalidQuery("the yahtzee box is closed on this card: say what it holds, --yahtzee-box 50 or 0")
    if text == "50":
        return FIFTY
    if text == "0":
        return ZERO
    raise InvalidQuery("--yahtzee-box must be 50 or 0, not '%s'" % shown(text))


def same_box(rules: str, one: int, other: int) -> bool:
    """Whether two states of the yahtzee box are the same game: under ``none`` 0 and 50 are alike."""
    return one == other or (rules == "none" and OPEN not in (one, other))


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


def states(rules: str = DEFAULT_JOKER) -> int:
    """The number of turn-start states in a table: 192 x P = 536448 (Yahtzee), 512 x P = 1430528 (Yatzy)."""
    return sheet(rules).states()


def state_index(card: int, upper: int, box: int) -> int:
    """The position in a Yahtzee table's ``turn`` array of the turn-start state (card, upper total, yahtzee
    box) (``upper`` capped at 63 here; it must be reachable for the card). Yatzy: ``YATZY_SHEET.state_index``."""
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
