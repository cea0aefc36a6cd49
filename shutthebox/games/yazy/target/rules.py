"""The target table's rules: yazy's one rule set (its name has no slots), and what a solve costs."""

from ..rules import ALL, fields_of, rules_of  # noqa: F401 - the family's hooks: yazy's own
from ..turn import TARGETS


def estimate(rules=None):
    """What solving the target table costs: its bytes (one float64 per set and target; the header adds under
    1 kB), memory and time as measured on the build machine (216 MB peak, 12 s), rounded up."""
    from ....engine.game import Estimate

    return Estimate((ALL + 1) * TARGETS * 8, 300 * 10**6, 20)
