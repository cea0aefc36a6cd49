#!/usr/bin/env python3
"""Write the shared test corpus (docs/FORMAT.md section 8): small good tables and damaged ones.

    python3 tests/data/make_corpus.py          # (re)write tests/data/good and tests/data/bad
    python3 tests/data/make_corpus.py --check  # exit 1 if they differ from a fresh build

good/ holds the small valid tables of the games of the registry (shutthebox/registry.py), each
solved by its game's declaration (the table family's solve, as build_tables.py and a first use
solve), under a corpus name, GAME-PARAMETERS.msgpack:

    two-player-t4.msgpack       Shut the Box, tiles 1-4, two players
    multi-player-t4-p3.msgpack  Shut the Box, tiles 1-4, three players
    one-player-t4.msgpack       Shut the Box, tiles 1-4, one player
    toggle-c5-s3.msgpack        toggle, cards 1-5, two 3-sided dice
    goat-g5.msgpack             Goat, goal 5
    yazy-ones.yazy.msgpack      yazy played with two categories, ones and yazy
    yazy-duel-ones.yazy.msgpack two players of that game: the chance to win

Every registered game is in SMALL (its small tables) or in WITHOUT (why it has none: Yahtzee's
solver knows only full-size rule sets, whose tables are the shipped ones in data/, and a reduced
target table is 2.1 MB); the
script refuses to run while a registered game is in neither. NAME-golden.txt beside a table holds
questions and answers for it; its first line is the command that asks them
(``# ShutTheBox ARGUMENTS QUESTION<TAB>answer``). The golden files are written by hand, not by this
script.

bad/ holds damaged tables, each named for what is wrong, all made from the two-player one.

Deterministic: the same code writes the same bytes; tests/test_corpus.py checks it. The toggle and
Goat tables need numpy (the build extra).
"""

from __future__ import annotations

import os
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

import msgpack  # noqa: E402

from shutthebox import registry  # noqa: E402
from shutthebox.engine.format import FORMAT_MAJOR, FORMAT_MINOR  # noqa: E402
from shutthebox.engine.writer import encode  # noqa: E402

# The small good tables, by game of the registry: corpus file name -> the game's own name of the
# table (its family's pattern), which gives the family and the rules to solve it for.
SMALL = {
    "shutthebox": {
        "two-player-t4.msgpack": "t4-2d6-one6-p2.msgpack",
        "multi-player-t4-p3.msgpack": "t4-2d6-one6-p3.msgpack",
        "one-player-t4.msgpack": "solo-t4-2d6-one6.msgpack",
    },
    "toggle": {"toggle-c5-s3.msgpack": "toggle-c5-s3.msgpack"},
    "goat": {"goat-g5.msgpack": "goat-g5.msgpack"},
    "pig": {"pig-two-dice-g8.msgpack": "pig-two-dice-g8-s6.msgpack"},
    "threes": {"threes-d3-s4.msgpack": "threes-d3-s4.msgpack"},
    "yazy": {"yazy-ones.yazy.msgpack": "yazy-ones.yazy.msgpack",
             "yazy-duel-ones.yazy.msgpack": "yazy-duel-ones.yazy.msgpack"},
}
# Registered games with no small table, and why (their golden questions ask the shipped table).
WITHOUT = {
    "yahtzee": "its solver knows full-size rule sets only (the jokers); the shipped table is 4 MB. A reduced "
               "target table (the game from a late card) is 2.1 MB whatever the card: its position array "
               "has one entry for each of the 536,448 states",
}


def unlisted() -> list:
    """Registered games in neither SMALL nor WITHOUT (a game added without its corpus entry)."""
    return [name for name in registry.GAMES if name not in SMALL and name not in WITHOUT]


def good() -> dict:
    """name -> bytes of the small valid tables, walking the registry (games in WITHOUT have none)."""
    tables = {}
    for game in registry.GAMES:
        declaration = registry.declaration(game)
        for file_name, table_name in SMALL.get(game, {}).items():
            family, rules = declaration.family(table_name)
            if family is None:
                raise SystemExit("make_corpus.py: %s is not the name of a %s table" % (table_name, game))
            tables[file_name] = family.builder(rules)()
    return tables


def _flip(data: bytes, offset: int, bit: int = 0) -> bytes:
    changed = bytearray(data)
    changed[offset] ^= 1 << bit
    return bytes(changed)


def _offset_of(data: bytes, needle: bytes, after: int = 0) -> int:
    return data.index(needle, after)


def _replaced(data: bytes, old: bytes, new: bytes) -> bytes:
    """``data`` with its one ``old`` replaced by ``new`` (a damaged copy that is not damaged is an error)."""
    if data.count(old) != 1:
        raise SystemExit("make_corpus.py: %r is not in the table once" % old)
    return data.replace(old, new)


def _with_trailing_crc(data: bytes) -> bytes:
    """``data`` with its trailing CRC-32 made right: only the header or array checksums can tell."""
    return data[:-4] + zlib.crc32(data[:-4]).to_bytes(4, "big")


def bad(tables: dict) -> dict:
    """name -> bytes of damaged tables, each named for what is wrong; all made from the two-player one."""
    base = tables["two-player-t4.msgpack"]
    _, (rules, _players) = registry.declaration("shutthebox").family(SMALL["shutthebox"]["two-player-t4.msgpack"])
    tiles_at = _offset_of(base, msgpack.packb("tiles")) + len(msgpack.packb("tiles"))
    e1 = _offset_of(base, msgpack.packb("e1"))
    data_at = _offset_of(base, msgpack.packb("data"), e1) + len(msgpack.packb("data")) + 2  # bin8 header
    block_at = _offset_of(base, msgpack.packb("block_size"), e1) + len(msgpack.packb("block_size"))
    block_size = msgpack.unpackb(base, raw=False)["arrays"]["e1"]["block_size"]
    arrays = {name: {"dtype": "<f8", "shape": [1], "data": b"\0" * 8} for name in ("x",)}
    return {
        "empty.msgpack": b"",
        "not-a-table.msgpack": b"PK\x03\x04 this is a zip file, not a table\n" * 4,
        "truncated.msgpack": base[: len(base) // 2],
        "truncated-tail.msgpack": base[:-1],
        "header-bit.msgpack": _flip(base, tiles_at),  # tiles 4 -> 5: the header checksum catches it
        "array-bit.msgpack": _flip(base, data_at + 3, 5),  # a value of e1: its block checksum catches it
        "future-version.msgpack": _replaced(base, msgpack.packb("format") + msgpack.packb([FORMAT_MAJOR, FORMAT_MINOR]),
                                            msgpack.packb("format") + msgpack.packb([FORMAT_MAJOR + 1, 0])),
        # e1's block_size not a power of two (of the same width; its one checksum still the right count)
        "block-size.msgpack": _with_trailing_crc(base[:block_at] + msgpack.packb(block_size - 1000)
                                                 + base[block_at + len(msgpack.packb(block_size)):]),
        "unknown-rules-key.msgpack": encode("two-player", dict(rules.as_dict(), jokers=2), arrays,
                                            generator="corpus", fields={"max_score": 10, "max_roll": 12}),
        "other-game.msgpack": encode("poker", {"cards": 52}, arrays, generator="corpus"),
    }


def corpus() -> dict:
    """relative path -> bytes, the whole corpus."""
    tables = good()
    files = {os.path.join("good", name): data for name, data in tables.items()}
    files.update({os.path.join("bad", name): data for name, data in bad(tables).items()})
    return files


def main(argv=None) -> int:
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    if unlisted():
        print("make_corpus.py: registered game(s) %s: give each its small tables in SMALL, or say in WITHOUT "
              "why it has none" % ", ".join(unlisted()), file=sys.stderr)
        return 1
    stale = []
    for name, data in corpus().items():
        path = os.path.join(HERE, name)
        if check:
            try:
                with open(path, "rb") as handle:
                    same = handle.read() == data
            except FileNotFoundError:
                same = False
            if not same:
                stale.append(path)
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as handle:
                handle.write(data)
    for path in stale:
        print("%s differs from a fresh build: run python3 tests/data/make_corpus.py" % path, file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
