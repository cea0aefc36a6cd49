"""Single-player tables (build time only): solve both objectives, encode (docs/FORMAT.md, section 7a)."""

from __future__ import annotations

from ....engine.writer import encode, pack_array, printed_floats
from .solver import SOLO_VERSION, SoloSolution, solve_solo
from .table import GAME, VARIANTS

GENERATOR = "shutthebox solo solver %d" % SOLO_VERSION


def solo_arrays(solution: SoloSolution) -> dict:
    """The four arrays of a one-player table, in the layout of docs/FORMAT.md."""
    rules = solution.rules
    positions, rolls = 1 << rules.tiles, rules.max_roll + 1
    d = solution.denominator
    return {
        "shut": pack_array(printed_floats(solution.shut, d), "<f8", (positions,)),
        "shut_move": pack_array([m for row in solution.shut_moves for m in row], "<u2", (positions, rolls)),
        "score": pack_array(printed_floats(solution.score, d), "<f8", (positions,)),
        "score_move": pack_array([m for row in solution.score_moves for m in row], "<u2", (positions, rolls)),
    }


def encode_solo(solution: SoloSolution) -> bytes:
    rules = solution.rules
    return encode(GAME, rules.as_dict(), solo_arrays(solution), generator=GENERATOR,
                  fields={"max_score": rules.max_score, "max_roll": rules.max_roll})


def solve_variant(variant: str) -> bytes:
    """The bytes of the single-player table of a named rule set."""
    return encode_solo(solve_solo(VARIANTS[variant]))


# The tables data/ holds: one per named rule set.
SHIPPED = tuple(VARIANTS)
