"""The one-player tables' rules (query time): their names' slots, both ways, and what a solve costs. The
rules themselves are Shut the Box's (``..rules``), without players."""

from ..rules import Rules
from ..rules import fields_of as game_fields_of
from ..rules import rules_of as game_rules_of


def fields_of(rules) -> dict:
    """The slots of a table's file name (``solo-t12-2d6-opt6-high-max2``) for ``rules``."""
    fields = game_fields_of((rules, 2))
    del fields["players"]
    return fields


def rules_of(fields: dict) -> Rules:
    """The rules of a table's file name slots, checked as the command line checks its options."""
    rules, _ = game_rules_of(dict(fields, players="2"))
    return rules


def estimate(rules: Rules):
    """What solving the table of ``rules`` costs: the arrays' bytes (exact, from their shapes), peak
    memory and time from ratios measured on the build machine, rounded up (12 tiles, four 20-sided dice:
    1.4 MB, about 130 MB and 1 second)."""
    from ....engine.game import Estimate

    positions, rolls = 1 << rules.tiles, rules.max_roll + 1
    size = positions * (2 * 8 + 2 * 2 * rolls + (2 if rules.one_die_optional else 0))
    return Estimate(size, 20 * 10**6 + 80 * size, 0.02 + size / 1.2e6)
