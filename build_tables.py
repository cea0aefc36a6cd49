#!/usr/bin/env python3
"""Solve Shut the Box exactly and write the shipped tables into data/.

    python3 build_tables.py            # (re)write data/*.msgpack where they changed
    python3 build_tables.py --check    # rebuild in memory; exit 1 if data/ differs

Never imported by the package: the query path only reads what this writes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from shutthebox.api import table_name as two_player_name
from shutthebox.rules import STANDARD, Rules
from shutthebox.solo import encode_solo, solve_solo
from shutthebox.solo_table import VARIANTS, table_name
from shutthebox.solver import solve_two_player
from shutthebox.writer import encode_two_player, write_atomic

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")



def check_rounding(pairs) -> None:
    """Every printed value (``%.6f`` of the stored float64) is the exact value
    rounded to 6 decimals.

    ``pairs`` yields (numerators, denominator). float64 could round across a
    decimal boundary: fail the build rather than ship a wrong digit. A value
    exactly halfway (like 1/128 = 0.0078125, possible since denominators are
    2**a * 3**b) is stored exactly, and ``%.6f`` rounds it half to even, in
    every language; the check expects that.
    """
    for numerators, denominator in pairs:
        for numerator in numerators:
            whole, rest = divmod(numerator * 10**6, denominator)
            if 2 * rest > denominator or (2 * rest == denominator and whole % 2):
                whole += 1
            printed = "%.6f" % (numerator / denominator)
            if int(printed.replace(".", "")) != whole:
                raise AssertionError("float rounding differs from exact for %d/%d" % (numerator, denominator))


def two_player(rules):
    solution = solve_two_player(rules)
    check_rounding([(solution.e1, solution.d1)] + [(row, solution.d2) for row in solution.e2])
    return encode_two_player(solution)


def one_player(rules):
    solution = solve_solo(rules)
    d = solution.denominator
    check_rounding([(solution.shut, d), (solution.score, d)])
    return encode_solo(solution)


# file name in data/ -> function returning the file's bytes
TABLES = {
    "standard.msgpack": lambda: two_player(STANDARD),
}
# the most popular variants: 10 and 12 tiles, otherwise the assignment's rules
for _tiles in (10, 12):
    TABLES[two_player_name(Rules(tiles=_tiles), 2)] = lambda rules=Rules(tiles=_tiles): two_player(rules)
# single-player tables, one per dice rule set (both objectives in one file)
for _variant, _rules in VARIANTS.items():
    TABLES[table_name(_variant)] = lambda rules=_rules: one_player(rules)


def build(name: str) -> bytes:
    return TABLES[name]()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if data/ differs from a fresh build")
    parser.add_argument("--out", default=DATA, help="folder to write (default: data/)")
    args = parser.parse_args(argv)
    stale = []
    try:
        for name in TABLES:
            started = time.perf_counter()
            data = build(name)
            seconds = time.perf_counter() - started
            path = os.path.join(args.out, name)
            if args.check:
                try:
                    with open(path, "rb") as handle:
                        same = handle.read() == data
                except FileNotFoundError:
                    same = False
                print("%s: %s (%d bytes, built in %.2f s)" % (path, "up to date" if same else "DIFFERS", len(data), seconds))
                if not same:
                    stale.append(path)
            else:
                changed = write_atomic(path, data)
                print("%s: %s (%d bytes, built in %.2f s)" % (path, "written" if changed else "unchanged", len(data), seconds))
    except KeyboardInterrupt:
        print("interrupted; no table was left half-written", file=sys.stderr)
        return 130
    if stale:
        print("run `make tables` and commit data/", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
