"""Positions and moves as players write them: ``146789``, ``[3, 9]``.

Up to 9 tiles a position is its digits (any order, usually increasing); with
more tiles, or by choice, the tiles are separated by commas (``1,2,10,12``).
"""

from __future__ import annotations

from .errors import InvalidQuery


def tiles_of(mask: int) -> tuple[int, ...]:
    """The tiles in a bitmask, increasing: ``tiles_of(0b100000100) == (3, 9)``."""
    tiles = []
    tile = 1
    while mask:
        if mask & 1:
            tiles.append(tile)
        mask >>= 1
        tile += 1
    return tuple(tiles)


def mask_of(tiles) -> int:
    mask = 0
    for tile in tiles:
        mask |= 1 << (tile - 1)
    return mask


def format_position(mask: int) -> str:
    tiles = tiles_of(mask)
    if tiles and tiles[-1] > 9:
        return ",".join(map(str, tiles))
    return "".join(map(str, tiles))


def format_move(tiles) -> str:
    """The assignment's move format: ``[3, 9]``."""
    return "[%s]" % ", ".join(map(str, tiles))


def position_table(tiles: int) -> dict[str, int]:
    """Canonical text of every non-empty position, mapped to its bitmask."""
    return {format_position(mask): mask for mask in range(1, 1 << tiles)}


def parse_position(position, tiles: int) -> int:
    """Bitmask of a position given as text (``"146789"``, ``"1,4,10"``) or tiles.

    Raises InvalidQuery, in the player's words, for anything that is not a
    non-empty set of tiles from 1 to ``tiles``.
    """
    if isinstance(position, str):
        text = position.strip()
        if "," in text or " " in text:
            parts = [part for part in text.replace(",", " ").split()]
        else:
            parts = list(text)
        shown = "'%s'" % position
        numbers = []
        for part in parts:
            if not (part.isascii() and part.isdigit()):
                if len(part) == 1:
                    raise InvalidQuery(
                        "position %s: '%s' is not a tile; write the open tiles as digits, like 146789"
                        % (shown, part)
                    )
                raise InvalidQuery("position %s: '%s' is not a tile number" % (shown, part))
            numbers.append(int(part))
    else:
        try:
            numbers = list(position)
        except TypeError:
            raise InvalidQuery(
                "a position is a string of tiles like '146789' or a collection of tiles, not %r" % (position,)
            ) from None
        shown = repr(position)
        for tile in numbers:
            if type(tile) is not int:
                raise InvalidQuery("position %s: %r is not a tile number" % (shown, tile))
    if not numbers:
        raise InvalidQuery("the position is empty: with no tile open the box is already shut")
    mask = 0
    for tile in numbers:
        if not 1 <= tile <= tiles:
            raise InvalidQuery("position %s: there is no tile %d (the tiles are 1 to %d)" % (shown, tile, tiles))
        bit = 1 << (tile - 1)
        if mask & bit:
            raise InvalidQuery("position %s: tile %d is listed twice" % (shown, tile))
        mask |= bit
    return mask
