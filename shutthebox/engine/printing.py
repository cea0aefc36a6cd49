"""Every printed digit right: a value is printed with ``%.6f`` only when its error bound keeps it away from
a 6-decimal rounding midpoint (then the float's digits are the exact value's). Written once for every game.

``midpoint_distance`` and ``checked`` are query time (standard library only); ``check_printing`` and
``printed`` (the float64s to store so that ``%.6f`` prints the exact values' rounding) are build time
(numpy, imported when called).
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
    distance = _distances(flat)
    if not flat.size:
        return math.inf
    ratio = distance / np.maximum(bounds, 1e-300)
    worst = int(np.argmin(ratio))
    if ratio[worst] <= 1:
        raise AssertionError("%s value %r lies within its error bound %.3g of a 6-decimal rounding midpoint"
                             % (what, float(flat[worst]), float(bounds[worst])))
    return float(ratio[worst])


def printed(stored, exact, bound, what: str, near: float):
    """The float64s to store (``stored``, an array, changed in place and returned) for values known exactly:
    each stays, unless ``%.6f`` of it would not print its exact value rounded to 6 decimals (or it is itself a
    midpoint); there the neighbour that does. Only values within ``near`` of a rounding midpoint are looked
    at (``near`` far above the float64 rounding of the stored values): ``exact(i)`` gives the exact value (a
    Fraction) of the ``i``-th of the flattened array. Fails the build (AssertionError naming ``what``) when an
    exact value lies within its error ``bound`` (one number or one per value) of a midpoint, its rounding
    then unknown, or when no float64 nearby prints it."""
    from fractions import Fraction

    import numpy as np

    stored = np.ascontiguousarray(stored, dtype=np.float64)
    flat = stored.reshape(-1)  # a view: what is changed in it is changed in ``stored``
    bounds = np.broadcast_to(np.asarray(bound, dtype=np.float64), stored.shape).reshape(-1)
    for i in np.flatnonzero(_distances(flat) < near):
        value = exact(i)
        whole, rest = divmod(value * 1_000_000, 1)
        if abs(rest - Fraction(1, 2)) / 1_000_000 <= Fraction(float(bounds[i])):
            raise AssertionError("%s value %r lies within its error bound %.3g of a 6-decimal rounding midpoint"
                                 % (what, float(value), float(bounds[i])))
        digits = int(whole) + (rest > Fraction(1, 2))
        here = float(flat[i])
        for candidate in (here, math.nextafter(here, math.inf), math.nextafter(here, -math.inf)):
            if round(float("%.6f" % candidate) * 1_000_000) == digits and \
                    (Fraction(candidate) * 2_000_000).denominator != 1:
                flat[i] = candidate
                break
        else:
            raise AssertionError("no float64 near %r prints its 6-decimal rounding" % float(value))
    return stored


def _distances(flat):
    """``midpoint_distance`` of every value of a float64 array."""
    import numpy as np

    scaled = flat * 1e6
    return np.abs(scaled - np.floor(scaled) - 0.5) * 1e-6
