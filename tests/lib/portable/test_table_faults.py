"""A damaged strategy table is found, never trusted (portable: CPython and the MicroPython port).

Header (CRC, offsets, file size) checked at open; each data block checked against its CRC-32 the first
time a read touches it. Every failure is a TableError (an OSError), never a wrong value or another error.
"""
import io

from coachfix import DATA, START
from fivedice import rules
from fivedice import strategy_table as st
from fivedice.rng import SeededBytes

HEAD = 48  # bytes of the FDT3 header


def _data(name="yacht"):
    with open(DATA + "/" + name + ".fdt", "rb") as f:
        return f.read()


def _open(data, name="yacht"):
    return st.StrategyTable(io.BytesIO(data), rules.get(START[name][0]))


def _raises_table_error(fn):
    try:
        fn()
    except st.TableError:
        return True
    return False


def test_a_good_table_verifies_every_block():
    t = _open(_data())
    t.verify_all()
    assert t.blocks > 10 and t.value(0, 0, 0) > 0


def test_a_truncated_table_is_refused_at_open():
    data = _data()
    for n in (0, 3, 40, 47, 48, 1000, len(data) // 2, len(data) - 4, len(data) - 1):
        assert _raises_table_error(lambda: _open(data[:n])), n
    assert _raises_table_error(lambda: _open(data + b"\0"))


def test_every_changed_header_byte_is_refused_at_open():
    data = _data()
    for i in range(48):
        for bit in (0x01, 0x80):
            bad = bytearray(data)
            bad[i] ^= bit
            assert _raises_table_error(lambda: _open(bytes(bad))), (i, bit)


def test_an_old_format_table_says_rebuild_it():
    for old in "12":
        data = bytearray(_data())
        data[3] = ord(old)
        try:
            _open(bytes(data))
            assert False, "an FDT%s table was accepted" % old
        except st.TableError as e:
            assert "make tables" in str(e.args[0]) and ("FDT" + old) in str(e.args[0])


def test_random_byte_changes_after_the_header_are_found_by_a_read():
    data = _data()
    src = SeededBytes(2026)
    tried = 0
    for trial in range(40):
        bad = bytearray(data)
        r = src(8)
        pos = HEAD + (r[0] | r[1] << 8 | r[2] << 16) % (len(data) - HEAD)
        bad[pos] ^= r[3] or 1
        if r[4] & 1:  # a second change elsewhere
            pos2 = HEAD + (r[5] | r[6] << 8) % (len(data) - HEAD)
            bad[pos2] ^= r[7] or 0x40
        t = _open(bytes(bad))  # the header is intact: it opens
        assert _raises_table_error(t.verify_all), trial
        tried += 1
    assert tried == 40


def test_a_read_of_a_damaged_block_raises_and_other_blocks_still_read():
    data = _data()
    t0 = _open(data)
    good = t0.value(0, 0, 0)
    bad = bytearray(data)
    last = len(data) - 4 * t0.blocks - 1  # the last data byte: a value far from the start state's rows
    bad[last] ^= 0xFF
    t = _open(bytes(bad))
    assert t.value(0, 0, 0) == good  # its blocks are intact
    assert _raises_table_error(t.verify_all)
    bad = bytearray(data)
    bad[HEAD] ^= 0x01  # the first lower index row: the start state's
    t = _open(bytes(bad))
    assert _raises_table_error(lambda: t.value(0, 0, 0))
    assert _raises_table_error(lambda: t.value(0, 0, 0))  # and again: a bad block never turns good


def test_a_damaged_block_crc_is_found():
    data = bytearray(_data())
    data[-1] ^= 0x10  # the last block's CRC
    t = _open(bytes(data))
    assert _raises_table_error(t.verify_all)


def test_the_fallback_crc32_matches_binascii():
    from fivedice.compat import crc32, crc32_py

    src = SeededBytes(7)
    for n in (0, 1, 5, 64, 517):
        data = src(n)
        assert crc32_py(data) == crc32(data), n
    data = src(100)
    c = crc32_py(data)
    sealed = data + bytes([c & 0xFF, (c >> 8) & 0xFF, (c >> 16) & 0xFF, c >> 24])
    assert crc32_py(sealed) == st.RESIDUE == crc32(sealed)  # the residue the block check relies on
