"""Decoding a table's header (query time): the msgpack subset it uses, read from a file descriptor.

:class:`Cursor` reads one msgpack object at a time from an absolute offset of
an open file, through small ``pread`` windows, and steps over ``bin``
payloads (the arrays) unread; :func:`decode` decodes one object from bytes in
memory. What the header means, and every check of it, is the reader's
(``reader.py``); nothing here trusts or verifies a byte.

The header is decoded here rather than by the msgpack package: it uses a
handful of types, and importing msgpack would cost a question more time than
all of our own work (docs/FORMAT.md lists the types a table uses).
"""

import os

WINDOW = 1 << 12  # header objects are small; a bigger one widens the window
# Header objects are small (the biggest is a large array's block checksums):
# a window wider than this means a damaged file.
MAX_WINDOW = 1 << 20


class Short(Exception):
    """The window ends inside the object being decoded: read a wider one."""


class Cursor:
    """Reads one msgpack object at a time from the file at an absolute offset,
    through small ``pread`` windows, stepping over ``bin`` payloads unread."""

    def __init__(self, fd, size):
        self.fd, self.size, self.position = fd, size, 0
        self._start, self._bytes = 0, b""

    def window(self, start: int, length: int) -> bytes:
        """Bytes ``[start, start + length)`` of the file (fewer at its end)."""
        if start < 0:
            return b""
        offset = start - self._start
        if offset >= 0 and offset + length <= len(self._bytes):
            return self._bytes[offset : offset + length]
        self._start, self._bytes = start, self.pread(max(length, WINDOW), start)
        return self._bytes[:length]

    def pread(self, length: int, start: int) -> bytes:
        """The file's bytes from ``start`` (a reader of another kind of file overrides this)."""
        return os.pread(self.fd, length, start)

    def _read(self, header_only: bool):
        offset = self.position - self._start
        if 0 <= offset < len(self._bytes):  # most objects lie whole in the window read for the one before
            try:
                found, end = decode(self._bytes, offset, header_only, 0)
            except Short:
                pass
            else:
                self.position += end - offset
                return found
        window = WINDOW
        while True:
            data = self.window(self.position, window)
            try:
                found, used = decode(data, 0, header_only, 0)
            except Short:
                if self.position + window >= self.size:
                    raise ValueError("the file ends inside its header") from None
                if window >= MAX_WINDOW:
                    raise ValueError("a header object is larger than %d bytes" % MAX_WINDOW) from None
                window *= 16
                continue
            self.position += used
            return found

    def value(self):
        return self._read(False)

    def map_header(self) -> int:
        return self._read(True)

    def bin_span(self) -> tuple[int, int]:
        """Step over a ``bin`` value; return where its payload starts and ends."""
        head = self.window(self.position, 5)
        size = _BIN_LENGTH.get(head[:1])
        if size is None:
            raise ValueError("array data is not a msgpack bin")
        if len(head) < 1 + size:  # a file cut short
            raise ValueError("the file ends inside its header")
        length, start = int.from_bytes(head[1 : 1 + size], "big"), self.position + 1 + size
        if start + length > self.size:
            raise ValueError("array data runs past the end of the file")
        self.position = start + length
        return start, start + length


# a bin's first byte -> the size of its length
_BIN_LENGTH = {b"\xc4": 1, b"\xc5": 2, b"\xc6": 4}
# msgpack's fixed-size types: first byte -> (kind, size of the length or value)
_SIZED = {0xC4: ("bin", 1), 0xC5: ("bin", 2), 0xC6: ("bin", 4), 0xD9: ("str", 1), 0xDA: ("str", 2),
          0xDB: ("str", 4), 0xDC: ("array", 2), 0xDD: ("array", 4), 0xDE: ("map", 2), 0xDF: ("map", 4),
          0xCC: ("uint", 1), 0xCD: ("uint", 2), 0xCE: ("uint", 4), 0xCF: ("uint", 8), 0xD0: ("int", 1),
          0xD1: ("int", 2), 0xD2: ("int", 4), 0xD3: ("int", 8), 0xCA: ("float", 4), 0xCB: ("float", 8)}
_CONSTANTS = {0xC0: None, 0xC2: False, 0xC3: True}


def _take(data, position, size):
    end = position + size
    if end > len(data):
        raise Short
    return data[position:end], end


def decode(data, position, header_only, depth):
    """(object, position after it) of the msgpack object at ``position`` of ``data``; with
    ``header_only``, a map's entry count instead of the map. Raises :class:`Short` when
    ``data`` ends inside the object, ValueError (or TypeError, UnicodeDecodeError) when
    it is not the msgpack the header uses."""
    if depth > 8:
        raise ValueError("objects nested too deep")
    if position >= len(data):
        raise Short
    first = data[position]
    position += 1
    if header_only and not (0x80 <= first <= 0x8F or first in (0xDE, 0xDF)):
        raise ValueError("expected a msgpack map")
    if first <= 0x7F:
        return first, position
    if first >= 0xE0:
        return first - 0x100, position
    if first <= 0x8F:
        kind, count = "map", first & 0x0F
    elif first <= 0x9F:
        kind, count = "array", first & 0x0F
    elif first <= 0xBF:
        kind, count = "str", first & 0x1F
    elif first in _CONSTANTS:
        return _CONSTANTS[first], position
    elif first in _SIZED:
        kind, size = _SIZED[first]
        raw, position = _take(data, position, size)
        if kind == "float":
            from struct import unpack  # no table header holds a float today

            return unpack(">d" if size == 8 else ">f", raw)[0], position
        number = int.from_bytes(raw, "big", signed=kind == "int")
        if kind in ("uint", "int"):
            return number, position
        count = number
    else:
        raise ValueError("unexpected msgpack type 0x%02x in the header" % first)
    if kind == "map" and header_only:
        return count, position
    if kind in ("str", "bin"):
        raw, position = _take(data, position, count)
        return (raw.decode("utf-8") if kind == "str" else bytes(raw)), position
    if count > len(data) - position:  # every element takes a byte at least
        raise Short
    if kind == "array":
        items = []
        for _ in range(count):
            item, position = decode(data, position, False, depth + 1)
            items.append(item)
        return items, position
    mapping = {}
    for _ in range(count):
        key, position = decode(data, position, False, depth + 1)
        value, position = decode(data, position, False, depth + 1)
        try:
            mapping[key] = value
        except TypeError:
            raise ValueError("a map key is not a string or number") from None
    return mapping, position
