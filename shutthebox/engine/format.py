"""The table file envelope (docs/FORMAT.md, sections 1-6): the one place it is defined in code.

A table file is one msgpack map. It starts with ``magic`` and ``format``; the
header fields (``generator``, ``game``, ``rules``, the game's own fields) follow;
``header_crc32`` is the CRC-32 of every byte before its key; ``arrays`` holds
the little-endian arrays in ``bin`` values, each with a CRC-32 per block of
its ``block_size`` bytes; ``crc32``, always a 5-byte msgpack uint32, is the CRC-32 of every byte
before its 4 bytes. Block and array checksums are seeded with the CRC-32 of
the bytes before the ``arrays`` key, so each one also vouches for the header.

Both the reader (query time) and the writer (build time) depend on this
module, never on each other.
"""

MAGIC = "ShutTheBox table"
FORMAT_MAJOR = 1
FORMAT_MINOR = 2

# Header keys, in file order (game fields go between RULES and HEADER_CRC).
MAGIC_KEY, FORMAT_KEY, GENERATOR_KEY, GAME_KEY, RULES_KEY = "magic", "format", "generator", "game", "rules"
HEADER_CRC_KEY, ARRAYS_KEY, CRC_KEY = "header_crc32", "arrays", "crc32"

# dtype string -> (Python array/memoryview typecode, item size in bytes)
DTYPES = {
    "<f8": ("d", 8),
    "<f4": ("f", 4),
    "<u4": ("I", 4),
    "<i4": ("i", 4),
    "<u2": ("H", 2),
    "<i2": ("h", 2),
    "|u1": ("B", 1),
}
# Arrays carry one CRC-32 per block of their descriptor's ``block_size`` bytes (the last may be
# shorter): a power of two from MIN_BLOCK_SIZE to MAX_BLOCK_SIZE (format 1.1 files: always the largest).
# The writer writes BLOCK_SIZE: a web page reading by ranges pays a whole block for each value it reads.
MIN_BLOCK_SIZE, MAX_BLOCK_SIZE = 1 << 12, 1 << 16
BLOCK_SIZE = 1 << 13

# The msgpack bytes of fixed parts (spelled out: the reader does not import msgpack).
# Every file starts with a map header, then "magic" and MAGIC:
MAGIC_PREFIX = b"\xa5magic\xb0" + MAGIC.encode("ascii")
# ...and ends with "crc32", a uint32 marker and the 4 big-endian bytes of the CRC-32.
CRC_TAIL = b"\xa5crc32\xce"
# "header_crc32" is followed by a uint32, always in 5 bytes, like crc32.
HEADER_CRC_ENTRY = b"\xacheader_crc32\xce"

REBUILD = "rebuild it with `make tables`"
SUFFIX = ".msgpack"


def element_count(shape) -> int:
    count = 1
    for dimension in shape:
        count *= dimension
    return count


def block_count(size: int, block_size: int = BLOCK_SIZE) -> int:
    return -(-size // block_size)


def valid_block_size(block_size) -> bool:
    """Whether a descriptor's ``block_size`` is one the format allows."""
    return (type(block_size) is int and MIN_BLOCK_SIZE <= block_size <= MAX_BLOCK_SIZE
            and block_size & (block_size - 1) == 0)


def table_file_name(stem: str) -> str:
    """``t12-2d6-one6-p2`` -> ``t12-2d6-one6-p2.msgpack``: every table's file name."""
    return stem + SUFFIX
