"""Every printed digit right: a value is printed with ``%.6f`` only when its error bound keeps it away from
a 6-decimal rounding midpoint (then the float's digits are the exact value's). Written once for every game.

``midpoint_distance`` and ``checked`` are query time (standard library only); ``check_printing`` is build
time (numpy, imported when called).
"""

import math


def midpoint_distance(value: float) -> float:
    """How far ``value`` lies from the nearest 6-decimal rounding midpoint (``x.xxxxxx5``)."""
    scaled = value * 1e6
    return abs(scaled - math.floor(scaled) - 0.5) * 1e-6


def checked(value: float, bound: float, what: str, error=AssertionError) -> float:
    """``value``, unless ``%.6f`` might print it wrong: it lies within ``bound`` of a rounding midpoint
    (``error`` is raised then, naming ``what``)."""
    if midpoint_distance(value) <= bound:
        raise error("%s = %.15f lies within its error bound %.3g of a 6-decimal rounding midpoint; its 6th decimal "
                    "cannot be vouched for" % (what, value, bound))
    return value


def check_printing(values, bound, what: str) -> float:
    """Fail the build (AssertionError naming ``what``) if a printed value could differ from the exact one's:
    none may lie within its error bound of a 6-decimal rounding midpoint. ``bound`` is one number or one per
    value (an array of ``values``' shape). Returns the smallest distance over bound (inf for no values)."""
    import numpy as np

    flat = np.asarray(values, dtype=np.float64).ravel()
    bounds = np.broadcast_to(np.asarray(bound, dtype=np.float64), np.shape(values)).ravel()
    scaled = flat * 1e6
    distance = np.abs(scaled - np.floor(scaled) - 0.5) * 1e-6
    if not flat.size:
        return math.inf
    ratio = distance / np.maximum(bounds, 1e-300)
    worst = int(np.argmin(ratio))
    if ratio[worst] <= 1:
        raise AssertionError("%s value %r lies within its error bound %.3g of a 6-decimal rounding midpoint"
                             % (what, float(flat[worst]), float(bounds[worst])))
    return float(ratio[worst])
