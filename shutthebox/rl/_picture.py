"""``render_mode="rgb_array"``: a small picture of the board in numpy alone (uint8, height x width x 3).

A board is rows of items, each drawn as a square cell: ``("tile", text, up)`` a tile, card or category with its
label (light while open or face up, dark once shut, turned or scored), ``("die", face)`` a die (pips up to 6,
digits above; 0: no die showing), ``("text", text)`` a number or a short word on the background. Labels use
a 3 x 5 pixel font of digits and a few letters, drawn twice as large.

Every picture of an environment has one shape (Gymnasium's ``RecordVideo`` needs it): a board has the same
rows and items in every position, a label whose length changes says how many characters its cell keeps
room for (``("text", text, chars)``, ``("tile", label, up, chars)``; :func:`number`), and a row of dice keeps
a place for every die (:func:`dice`).
"""

from __future__ import annotations

import numpy as np

CELL, GAP, SCALE = 24, 4, 2  # pixels
BACKGROUND = (24, 96, 56)  # felt green
OPEN, SHUT = (238, 226, 190), (84, 60, 40)  # wood: a tile up, a tile down
INK, DIM = (20, 20, 20), (150, 120, 90)
DIE, PIP = (250, 250, 250), (20, 20, 20)
TEXT = (250, 250, 250)

# 3 x 5 glyphs: one string of 15 bits a glyph, row by row
FONT = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111", "3": "111001111001111",
    "4": "101101111001001", "5": "111100111001111", "6": "111100111101111", "7": "111001010010010",
    "8": "111101111101111", "9": "111101111001111", "+": "000010111010000", "-": "000000111000000",
    "/": "001001010100100", " ": "000000000000000", "a": "010101111101101", "b": "110101110101110",
    "c": "011100100100011", "d": "110101101101110", "e": "111100110100111", "f": "111100110100100",
    "g": "011100101101011", "h": "101101111101101", "k": "101101110101101", "l": "100100100100111",
    "n": "110101101101101", "o": "010101101101010", "p": "110101110100100", "r": "110101110101101",
    "s": "011100010001110", "t": "111010010010010", "u": "101101101101111", "x": "101101010101101",
    "y": "101101010010010", "z": "111001010100111", "?": "111001010000010",
}
GLYPH = {char: np.array([int(bit) for bit in bits], dtype=bool).reshape(5, 3) for char, bits in FONT.items()}
# pips of a die face on a 3 x 3 grid
PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (0, 2), (2, 0), (2, 2)],
        5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)], 6: [(0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)]}


def number(value: int, most: int) -> tuple:
    """A number as a text item whose cell keeps room for ``most``'s digits, whatever it shows."""
    return ("text", str(value), len(str(most)))


def dice(faces, count: int) -> list:
    """A row's dice: those showing, then an empty place for each of ``count`` not thrown."""
    return [("die", face) for face in faces] + [("die", 0)] * (count - len(faces))


def _text(canvas, text: str, top: int, left: int, width: int, colour) -> None:
    """``text`` centred in the ``width`` pixels from ``left``, its glyphs ``SCALE`` times as large (cut at the
    cell's edge: a label longer than its cell keeps room for never widens the picture)."""
    text = text.lower()
    wide = len(text) * 4 * SCALE - SCALE
    x = left + max((width - wide) // 2, 0)
    y = top + (CELL - 5 * SCALE) // 2
    for char in text:
        glyph = GLYPH.get(char, GLYPH["?"])
        big = np.kron(glyph, np.ones((SCALE, SCALE), dtype=bool))
        region = canvas[y:y + big.shape[0], x:min(x + big.shape[1], left + width)]
        region[big[:region.shape[0], :region.shape[1]]] = colour
        x += 4 * SCALE


def _width(item) -> int:
    """A cell's width: a square, wider for a label of over two characters (or room kept for one)."""
    kind = item[0]
    if kind == "die":
        return CELL
    kept = item[2:3] if kind == "text" else item[3:4]
    chars = kept[0] if kept else len(item[1])
    if kind == "text":
        return max(CELL, chars * 4 * SCALE + SCALE)
    return chars * 4 * SCALE + SCALE if chars > 2 else CELL


def board(rows) -> np.ndarray:
    """The picture of ``rows`` (a list of lists of items), uint8 (height, width, 3)."""
    widths = [sum(_width(item) for item in row) + GAP * (len(row) - 1) for row in rows]
    width = max(widths + [CELL]) + 2 * GAP
    height = len(rows) * (CELL + GAP) + GAP
    canvas = np.empty((height, width, 3), dtype=np.uint8)
    canvas[:] = BACKGROUND
    for number, row in enumerate(rows):
        top, left = GAP + number * (CELL + GAP), GAP
        for item in row:
            wide = _width(item)
            cell = canvas[top:top + CELL, left:left + wide]
            kind = item[0]
            if kind == "tile":
                label, up = item[1:3]
                cell[:] = OPEN if up else SHUT
                _text(canvas, label, top, left, wide, INK if up else DIM)
            elif kind == "die":
                face = item[1]
                if face:
                    cell[1:-1, 1:-1] = DIE
                    if face in PIPS:
                        step = CELL // 4
                        for row_at, column in PIPS[face]:
                            y, x = top + step * (row_at + 1) - 2, left + step * (column + 1) - 2
                            canvas[y:y + 4, x:x + 4] = PIP
                    else:
                        _text(canvas, str(face), top, left, wide, PIP)
            else:
                _text(canvas, item[1], top, left, wide, TEXT)
            left += wide + GAP
    return canvas
