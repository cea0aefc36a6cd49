"""Shut the Box tables (build time only): solve, check, encode (docs/FORMAT.md, sections 7 and 7b)."""

from __future__ import annotations

from ...engine.writer import pack_array, printed_floats
from ...engine.writer import encode as encode_file
from .rules import STANDARD, Rules
from .solver import SOLVER_VERSION, PlayersSolution, TwoPlayerSolution, solve_players, solve_two_player
from .table import header_fields

GENERATOR = "shutthebox solver %d" % SOLVER_VERSION


def two_player_arrays(solution: TwoPlayerSolution) -> dict:
    """The four arrays of a two-player table, in the layout of docs/FORMAT.md."""
    rules = solution.rules
    positions = 1 << rules.tiles
    scores = rules.max_score + 1
    rolls = rules.max_roll + 1
    d1, d2 = solution.d1, solution.d2
    e1 = printed_floats(solution.e1, d1)
    e2_rows = [printed_floats(row, d2) for row in solution.e2]
    e2 = [e2_rows[score][position] for position in range(positions) for score in range(scores)]
    m1 = [move for row in solution.m1 for move in row]
    m2 = [move for position in range(positions) for score in range(scores) for move in solution.m2[score][position]]
    arrays = {
        "e1": pack_array(e1, "<f8", (positions,)),
        "m1": pack_array(m1, "<u2", (positions, rolls)),
        "e2": pack_array(e2, "<f8", (positions, scores)),
        "m2": pack_array(m2, "<u2", (positions, scores, rolls)),
    }
    if rules.one_die_optional:  # the dice thrown is a decision only then
        c2 = [solution.c2[score][position] for position in range(positions) for score in range(scores)]
        arrays["c1"] = pack_array(solution.c1, "|u1", (positions,))
        arrays["c2"] = pack_array(c2, "|u1", (positions, scores))
    return arrays


def players_arrays(solution: PlayersSolution) -> dict:
    """The arrays of an N-player table: one row per turn state (docs/FORMAT.md)."""
    rules = solution.rules
    states, positions, rolls = len(solution.values), 1 << rules.tiles, rules.max_roll + 1
    values = [value for row, unit in zip(solution.values, solution.units) for value in printed_floats(row, unit)]
    moves = [move for rows in solution.moves for row in rows for move in row]
    arrays = {
        "e": pack_array(values, "<f8", (states, positions)),
        "m": pack_array(moves, "<u2", (states, positions, rolls)),
    }
    if rules.one_die_optional:
        arrays["c"] = pack_array([dice for row in solution.thrown for dice in row], "|u1", (states, positions))
    return arrays


def encode(solution, players: int = 2) -> bytes:
    """The table file of a solution, with the header fields a reader checks."""
    rules = solution.rules
    fields = header_fields(rules, players)
    game, stored_rules = fields.pop("game"), fields.pop("rules")
    fields.update(max_score=rules.max_score, max_roll=rules.max_roll)
    arrays = two_player_arrays(solution) if players == 2 else players_arrays(solution)
    return encode_file(game, stored_rules, arrays, generator=GENERATOR, fields=fields)


def table_bytes(rules: Rules, players: int = 2, progress=None) -> bytes:
    """Solve, check and encode the table for ``rules`` and ``players``.

    ``progress``: True/False/None (on a terminal) for a progress bar on stderr.
    """
    from ...engine.progress import Progress

    with Progress(1, "solving", unit="turns", enabled=progress) as bar:

        def report(done, total):
            bar.total = total
            bar.update(done)

        if players == 2:
            solution = solve_two_player(rules, report)
        else:
            solution = solve_players(rules, players, report)
    return encode(solution, players)


def solve_table(game: tuple, progress: bool | None = None) -> bytes:
    """The bytes of the table of ``(rules, players)`` (the declaration's hook)."""
    rules, players = game
    return table_bytes(rules, players, progress)


# The tables data/ holds: the assignment's game, and its most popular variants (10 and 12 tiles).
SHIPPED = tuple((rules, 2) for rules in (STANDARD, Rules(tiles=10), Rules(tiles=12)))
