"""The reduced target tables (build time): the game from the normalised card, solved as ``..build`` solves it."""

import os

from ..build import solve_table as solve_from


def solve_table(rules: tuple, out=None, **options) -> bytes | None:
    """The table of the game from the turn-start state of ``rules`` (joker, card, upper, box); its header's
    ``start`` names that state. ``out``: written there (as ``..build.solve_table``), else its bytes."""
    joker, card, upper, box = rules
    # at most a minute's work (rules.FIRST_USE_SECONDS): here, unless told otherwise; starting workers costs more
    options.setdefault("workers", os.environ.get("SHUTTHEBOX_WORKERS") or 1)
    return solve_from(joker, (card, upper, box), out=out, **options)
