"""The header decoder (engine/decode.py) agrees with msgpack, and survives any bytes."""

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shutthebox.engine import format as table_format
from shutthebox.engine.decode import Short, decode

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-(2**63), 2**64 - 1), st.floats(allow_nan=False),
                    st.text(max_size=300), st.binary(max_size=300))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=20),
                                                       st.dictionaries(st.text(max_size=20), inner, max_size=20)),
                      max_leaves=40)


@pytest.mark.slow
@given(VALUES)
@settings(max_examples=400, deadline=None)
def test_the_decoder_reads_what_msgpack_writes(value):
    data = msgpack.packb(value, use_bin_type=True)
    assert decode(data, 0, False, 0) == (value, len(data))


@given(st.binary(max_size=200))
@settings(max_examples=1000, deadline=None)
def test_any_bytes_decode_or_fail_cleanly(data):
    try:
        decode(data, 0, False, 0)
    except (Short, ValueError, TypeError, UnicodeDecodeError):
        pass


def test_the_fixed_bytes_are_msgpack():
    assert table_format.MAGIC_PREFIX == msgpack.packb("magic") + msgpack.packb(table_format.MAGIC)
    assert table_format.CRC_TAIL == msgpack.packb("crc32") + b"\xce"
    assert table_format.HEADER_CRC_ENTRY == msgpack.packb("header_crc32") + b"\xce"
