#!/usr/bin/env python3
"""How build time and table size grow with tiles and players (for the README).

    python3 bench/growth.py                 # tiles 2..12 with 2 players; players 2..8 with 9 tiles
    python3 bench/growth.py --tiles 12 --players 8 --cross   # also every (tiles, players) pair asked for

Each figure is one exact build (solve + encode) in this process; sizes are the
file sizes the command would cache.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from shutthebox.games.shutthebox.rules import Rules  # noqa: E402
from shutthebox.games.shutthebox.build import table_bytes as build_table  # noqa: E402


def measure(tiles: int, players: int) -> tuple[float, int]:
    started = time.perf_counter()
    size = len(build_table(Rules(tiles=tiles), players))
    return time.perf_counter() - started, size


def row(tiles: int, players: int) -> str:
    seconds, size = measure(tiles, players)
    return "| %d | %d | %.2f s | %s |" % (tiles, players, seconds, "{:,}".format(size))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tiles", type=int, default=12, help="largest box (default 12)")
    parser.add_argument("--players", type=int, default=8, help="most players (default 8)")
    parser.add_argument("--cross", action="store_true", help="every pair, not just the two lines")
    args = parser.parse_args(argv)
    pairs = [(tiles, 2) for tiles in range(2, args.tiles + 1)]
    pairs += [(9, players) for players in range(3, args.players + 1)]
    if args.cross:
        pairs = [(t, p) for t in range(2, args.tiles + 1) for p in range(2, args.players + 1)]
    print("| tiles | players | exact build | table bytes |")
    print("| ---: | ---: | ---: | ---: |")
    for tiles, players in pairs:
        print(row(tiles, players), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
