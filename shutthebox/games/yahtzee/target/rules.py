"""The target tables' rules: one table a joker rule (``yahtzee-target.{joker}``; Yatzy has none), the target
X, and what a solve costs."""

from ....engine.text import shown, shown_value, whole
from ....errors import InvalidQuery
from ..rules import YATZY, joker_rule

MOST = 1575  # the most a game of Yahtzee scores: every box at its best, the upper bonus, 12 Yahtzee bonuses


def fields_of(rules: str) -> dict:
    return {"joker": rules}


def rules_of(fields: dict) -> str:
    """The joker rule of a table name's slots, or of a table header's rules."""
    if fields.get("variant") == YATZY or fields.get("joker") == YATZY:
        raise InvalidQuery("--target is for Yahtzee's joker rules: Yatzy has no target table")
    return joker_rule(fields.get("joker"))


def target_x(text) -> int:
    """The X of ``--target X``: the points still to come, 0 to 1575 (checked before any table is opened)."""
    x = whole("target X", text) if isinstance(text, str) else text
    if type(x) is not int or not 0 <= x <= MOST:
        raise InvalidQuery("the target X is the points still to come, 0 to %d (the most a game scores), not %s"
                           % (MOST, shown(text) if isinstance(text, str) else shown_value(text)))
    return x


# The whole game's table as built on the build machine (docs/YAHTZEE.md, "Reach a score"): 1.68 GB,
# 30 minutes of CPU on one core; memory: 1.79 GB measured in the process that builds and writes it (the
# layer solved and the one it reads, 0.4 GB each at most, and the memory glibc keeps; the other layers
# wait on disk, the table is written a part at a time), rounded up; each Dask worker holds up to 1.1 GB
# more (bench/README.md, "Big builds within 4 GB"; 10.15 GB when every layer and the table's bytes were
# held at once). ``none`` (no Yahtzee bonus) from its bound: at most 70 million chances, a third.
_ESTIMATE = (1_680_000_000, 1_800_000_000, 1800)
_ESTIMATE_NONE = (560_000_000, 600_000_000, 600)


def estimate(rules: str):
    """What solving a joker rule's target table costs (its bytes, memory, seconds)."""
    from ....engine.game import Estimate

    size, memory, seconds = _ESTIMATE_NONE if rules == "none" else _ESTIMATE
    return Estimate(size, memory, seconds, scratch=size)  # every layer's chances wait on disk until written
