#!/usr/bin/env python3
"""Solve every game of the registry and write its shipped tables into data/.

    python3 build_tables.py                  # (re)write data/*.msgpack where they changed
    python3 build_tables.py --check          # rebuild in memory; exit 1 if data/ differs
    python3 build_tables.py --game toggle    # only that game's tables

Never imported by the package: the query path only reads what this writes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from shutthebox import registry
from shutthebox.engine.writer import write_atomic

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def shipped(games=None) -> dict:
    """file name -> (game, function returning the file's bytes), for every game's shipped tables."""
    tables = {}
    for game in games or registry.GAMES:
        if registry.has(game, "build"):
            for name, build in registry.module(game, "build").SHIPPED.items():
                tables[name] = (game, build)
    return tables


def _same(path: str, data: bytes) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(len(data) + 1) == data
    except FileNotFoundError:
        return False
    except OSError as error:
        raise SystemExit("build_tables.py: cannot read %s (%s)" % (path, error.strerror or error)) from None


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if data/ differs from a fresh build")
    parser.add_argument("--out", default=DATA, help="folder to write (default: data/)")
    parser.add_argument("--game", action="append", choices=sorted(registry.GAMES), help="only this game (repeatable)")
    args = parser.parse_args(argv)
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        parser.error("--out %s is not a folder" % args.out)
    stale = []
    try:
        for name, (game, build) in shipped(args.game).items():
            started = time.perf_counter()
            data = build()
            seconds = time.perf_counter() - started
            path = os.path.join(args.out, name)
            if args.check:
                same = _same(path, data)
                print("%s: %s (%d bytes, built in %.2f s)" % (path, "up to date" if same else "DIFFERS", len(data),
                                                               seconds))
                if not same:
                    stale.append(path)
                continue
            try:
                changed = write_atomic(path, data)
            except OSError as error:
                print("build_tables.py: cannot write %s (%s)" % (path, error.strerror or error), file=sys.stderr)
                return 1
            print("%s: %s (%d bytes, built in %.2f s)" % (path, "written" if changed else "unchanged", len(data),
                                                           seconds))
    except KeyboardInterrupt:
        print("interrupted; no table was left half-written", file=sys.stderr)
        return 130
    if stale:
        print("run `make tables` and commit data/", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
