"""Draw the pages' app icons (static/icons/*.png) once: a die showing five on green felt.

Run from the repository's root: ``python3 web/icons.py``; the PNGs are committed, so nothing runs this at
build time. Standard library only: each shape is drawn by its signed distance (one sample a pixel, edges
anti-aliased by the distance), the PNG written with zlib and struct.
"""

from __future__ import annotations

import math
import os
import struct
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "shutthebox", "web", "static", "icons")
FELT, IVORY, INK = (31, 94, 59), (246, 240, 224), (29, 43, 34)


def rounded_box(x, y, cx, cy, half, radius):
    """Signed distance from (x, y) to a square centred at (cx, cy) with corners of ``radius``."""
    qx, qy = abs(x - cx) - half + radius, abs(y - cy) - half + radius
    return math.hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0) - radius


def draw(size, maskable):
    """RGBA rows: full-bleed felt for the maskable icon (its die inside the safe circle), else a rounded tile."""
    c = size / 2
    die, pip = size * (0.25 if maskable else 0.31), size * 0.052
    spot = die * 0.5
    pips = [(c, c)] + [(c + dx * spot, c + dy * spot) for dx in (-1, 1) for dy in (-1, 1)]
    rows = []
    for j in range(size):
        row = bytearray()
        for i in range(size):
            x, y = i + 0.5, j + 0.5
            cover = 1.0 if maskable else min(max(0.5 - rounded_box(x, y, c, c, c, size * 0.18), 0), 1)
            colour = FELT
            inside = min(max(0.5 - rounded_box(x, y, c, c, die, die * 0.22), 0), 1)
            colour = mix(colour, IVORY, inside)
            for px, py in pips:
                colour = mix(colour, INK, min(max(0.5 - (math.hypot(x - px, y - py) - pip), 0), 1))
            row += bytes(colour) + bytes([round(255 * cover)])
        rows.append(bytes(row))
    return rows


def mix(a, b, t):
    return tuple(round(p + (q - p) * t) for p, q in zip(a, b))


def png(rows, size) -> bytes:
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    raw = b"".join(b"\0" + row for row in rows)
    head = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    # icon-32: the tab's icon (link rel=icon), a few hundred bytes where the 192 one would cost a phone 3 KB
    # before the first answer; the manifest's are the larger ones.
    for name, size, maskable in (("icon-32.png", 32, False), ("icon-192.png", 192, False), ("icon-512.png", 512, False),
                                 ("maskable-512.png", 512, True)):
        with open(os.path.join(OUT, name), "wb") as handle:
            handle.write(png(draw(size, maskable), size))
