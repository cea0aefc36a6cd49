"""The reduced target tables' rules (query time): the game from one turn-start state, normalised so that every
card leading to the same game names one table, ``yahtzee-target.JOKER.CARD-uUPPER-yBOX`` (``4hlc-u51-y50``: fours,
full-house, large-straight and chance open, 51 in the upper section, 50 in the yahtzee box), and what its solve
costs.

The game from a card depends on its open boxes, the joker rule, what the yahtzee box holds (under ``none`` 0 and 50
alike) and the upper total capped at 63, but only while the upper bonus can still be earned: once the open upper
boxes cannot bring it to 63, any total is the same game as 0 (the solver shares those states' values too)."""

from .....engine.text import shown
from .....errors import InvalidQuery
from ..rules import rules_of as joker_of
from ...rules import FIFTY, OPEN, UPPER, UPPER_BONUS, UPPER_GOAL, YAHTZEE, ZERO, has_bonus, reach, sheet

BOXES = {OPEN: "open", ZERO: "0", FIFTY: "50"}  # the name's word for what the yahtzee box holds
_MOST_UPPER = [sum(5 * (j + 1) for j in range(6) if u >> j & 1) for u in range(64)]


def normal(joker: str, card: int, upper: int, box: int) -> tuple:
    """The rules (joker, card, upper, box) of the game from the turn-start state (``card``, ``upper``, ``box``),
    the same for every state that is the same game."""
    upper = min(upper, UPPER_GOAL)
    if upper < UPPER_GOAL and upper + _MOST_UPPER[card & UPPER] < UPPER_GOAL:
        upper = 0  # the bonus is out of reach: the total changes nothing
    if box != OPEN and not has_bonus(joker):
        box = ZERO  # no bonus, no joker: 0 and 50 alike
    return joker, card, upper, box


def fields_of(rules: tuple) -> dict:
    joker, card, upper, box = rules
    letters = "".join(code for c, code in enumerate(sheet(joker).codes) if card >> c & 1)
    return {"joker": joker, "card": letters or "none", "upper": "%d" % upper, "box": BOXES[box]}


def rules_of(fields: dict) -> tuple:
    """The normalised rules of a table name's slots, checked (InvalidQuery)."""
    joker = joker_of(fields)
    codes, letters = sheet(joker).codes, fields.get("card", "")
    card = 0
    for letter in "" if letters == "none" else letters:
        if letter not in codes or card >> codes.index(letter) & 1:
            raise InvalidQuery("'%s' is not a card of Yahtzee's letters (%s, each once)" % (shown(letters), codes))
        card |= 1 << codes.index(letter)
    text = str(fields.get("upper", ""))
    upper = int(text) if text.isascii() and text.isdigit() and len(text) <= 2 else -1
    totals = reach()[UPPER & ~card]  # what the closed upper boxes can hold, capped at 63 below
    if not (0 <= upper < UPPER_GOAL and totals >> upper & 1 or upper == UPPER_GOAL and totals >> UPPER_GOAL):
        raise InvalidQuery("upper %s is not a total the closed upper boxes of %s can hold" % (shown(text), shown(letters)))
    box = next((state for state, word in BOXES.items() if word == fields.get("box")), None)
    if box is None or (box == OPEN) != bool(card >> YAHTZEE & 1):
        raise InvalidQuery("the yahtzee box is open exactly when yahtzee is on the card, not '%s'" % shown(str(fields.get("box"))))
    return normal(joker, card, upper, box)


# Measured here on reduced games of 2 to 7 open boxes (docs/YAHTZEE.md, "Reach a score"): the solve's seconds and
# memory grow with the (state, x) rows it works out, the file with the chances it keeps, and each file holds the
# whole game's state index (4 bytes a state). Rounded up: an order of magnitude.
SECONDS_PER_ROW = 12e-6
MEMORY_PER_ROW = 50  # the whole game's peak over its rows (10.15 GB, 210 million), the small games' less
INDEX_BYTES = 4 * 536_448
# A card whose game would take longer is answered from the whole game's table (about 8 boxes open and more).
FIRST_USE_SECONDS = 60


def rows(rules: tuple) -> int:
    """At most how many (state, x) rows the solve works out: for every set of boxes still open, each upper
    total and yahtzee box it can be reached with, the most those boxes and the bonuses can still add."""
    joker, card, upper, box = rules
    most, bonus = sheet(joker).most, 100 if has_bonus(joker) else 0
    sets, upper_open, count = reach(), card & UPPER, 0
    still = card
    while True:  # every subset of the card, the card first
        totals = sets[upper_open & ~still] << upper  # the totals this set can be reached with
        need = max(UPPER_GOAL - _MOST_UPPER[still & UPPER], 0)  # the least total from which the bonus is live
        capped = totals & ((1 << UPPER_GOAL) - 1)
        live = (capped >> need).bit_count() + (totals >> UPPER_GOAL != 0)
        dead = capped & ((1 << need) - 1) != 0  # the totals that no longer matter: one state for them all
        boxes = 1 if box != OPEN or still >> YAHTZEE & 1 else 2
        points = sum(most[c] for c in range(len(most)) if still >> c & 1)
        points += bonus * bin(still).count("1") + (UPPER_BONUS if live else 0)
        count += (live + dead) * boxes * (points + 1)
        if not still:
            return count
        still = (still - 1) & card


def estimate(rules: tuple):
    """What solving the reduced table of ``rules`` costs (its bytes, memory, seconds)."""
    from .....engine.game import Estimate

    count = rows(rules)
    return Estimate(INDEX_BYTES + 8 * count, 100 * 10**6 + MEMORY_PER_ROW * count, 0.5 + SECONDS_PER_ROW * count)
