"""The target table's rules: yazy's (the categories played, in its name's slot), and what a solve costs."""

from ..rules import TARGETS
from ..rules import fields_of, rules_of  # noqa: F401 - the family's hooks: yazy's own


def estimate(rules):
    """What solving the target table of ``rules`` costs: its bytes (one float64 per set and target; the header
    adds under 2 kB), memory and time as measured for all eleven categories on the build machine (216 MB peak,
    12 s), rounded up."""
    from ....engine.game import Estimate

    sets = 1 << bin(rules.mask).count("1")
    share = sets / 2048  # of the full game's sets: the work and the arrays scale with it
    return Estimate(sets * TARGETS * 8, round(60 * 10**6 + 240 * 10**6 * share), 20 * share)
