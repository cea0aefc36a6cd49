"""Single-player tables (build time only): solve both objectives, encode (docs/FORMAT.md, section 6.2)."""

from __future__ import annotations

from ....engine.writer import encode, pack_array, printed_floats
from .solver import SOLO_VERSION, SoloSolution, solve_solo
from .table import GAME, VARIANTS, variant_rules

GENERATOR = "shutthebox solo solver %d" % SOLO_VERSION


def solo_arrays(solution: SoloSolution) -> dict:
    """The arrays of a one-player table, in the layout of docs/FORMAT.md (the dice arrays only when the
    rules let the player choose one die)."""
    rules = solution.rules
    positions, rolls = 1 << rules.tiles, rules.max_roll + 1
    d = solution.denominator
    arrays = {
        "shut": pack_array(printed_floats(solution.shut, d), "<f8", (positions,)),
        "shut_move": pack_array([m for row in solution.shut_moves for m in row], "<u2", (positions, rolls)),
        "score": pack_array(printed_floats(solution.score, d), "<f8", (positions,)),
        "score_move": pack_array([m for row in solution.score_moves for m in row], "<u2", (positions, rolls)),
    }
    if rules.one_die_optional:
        arrays["shut_dice"] = pack_array(solution.shut_dice, "|u1", (positions,))
        arrays["score_dice"] = pack_array(solution.score_dice, "|u1", (positions,))
    return arrays


def encode_solo(solution: SoloSolution) -> bytes:
    rules = solution.rules
    return encode(GAME, rules.as_dict(), solo_arrays(solution), generator=GENERATOR,
                  fields={"max_score": rules.max_score, "max_roll": rules.max_roll})


def solve_table(rules, progress: bool | None = False) -> bytes:
    """The bytes of the single-player table of ``rules`` (the declaration's solver; a solve takes a
    second at most, so ``progress`` shows nothing)."""
    return encode_solo(solve_solo(rules))


def solve_variant(variant: str) -> bytes:
    """The bytes of the single-player table of a named rule set."""
    return solve_table(variant_rules(variant))


# The tables data/ holds: one per named rule set (data/solo-NAME.msgpack).
SHIPPED = tuple(VARIANTS.values())
