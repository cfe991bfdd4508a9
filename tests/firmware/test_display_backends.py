"""The CircuitPython display backend (firmware/fdfw/ssd1306_cp.py: the SSD1306, drawn by board_cp.py's BitmapDisplay)
over the fake displayio / bitmaptools and the fake busio.I2C, on CPython: what the fake panel shows (decoded from
the bytes it received), how many bytes cross the bus, and the fake busio.I2C's CircuitPython 10.2.1 behaviour. (Its
MicroPython twin and both heap-lock proofs: tests/heap_lock/test_heap_display.py.)
"""
import os
import sys

import adafruit_framebuf
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fivedice import gfx

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAKES = os.path.join(ROOT, "tests", "firmware", "fakes")
_MODULES = ("fakehw", "board", "microcontroller", "busio", "displayio", "bitmaptools", "fdfw")


@pytest.fixture
def fakes(monkeypatch):
    for name in list(sys.modules):
        if name.split(".")[0] in _MODULES:
            monkeypatch.delitem(sys.modules, name)
    for p in (os.path.join(ROOT, "firmware"), FAKES, os.path.join(FAKES, "cp")):
        monkeypatch.syspath_prepend(p)
    import fakehw

    fakehw.reset()
    yield fakehw
    for name in list(sys.modules):
        if name.split(".")[0] in _MODULES:
            del sys.modules[name]


@pytest.fixture
def stack(fakes):
    import board
    import busio
    import displayio
    from fdfw.ssd1306_cp import SSD1306

    oled = fakes.FakeSSD1306()
    fakes.devices[0x3C] = oled
    displayio.release_displays()
    fb = SSD1306(busio.I2C(board.GP5, board.GP4), 0x3C, displayio)
    return fb, oled


def reference(draw):
    """The same drawing on adafruit_framebuf (gfx's fill_rect path): the page-layout bytes the panel must hold."""
    buf = bytearray(1024)
    fb = adafruit_framebuf.FrameBuffer(buf, 128, 64, adafruit_framebuf.MVLSB)
    draw(fb)
    return buf


DICE = bytearray(b"\x01\x02\x03\x04\x05")


def turn(fb):
    fb.fill(0)
    gfx.text(fb, b"P1 Yahtzee", 0, 0, 1)
    gfx.number_right(fb, 123, 128, 0, 1)
    gfx.dice_row(fb, DICE, 0b00100, 4, 10, 20, 5)
    fb.rect(30, 34, 7, 7, 1)
    fb.fill_rect(0, 44, 128, 9, 1)
    gfx.text(fb, b"Box already filled", 1, 45, 0)


def test_cp_backend_starts_the_panel_upright_blank_and_lit_in_vertical_addressing(stack):
    fb, oled = stack
    assert oled.data_bytes == 1024 and oled.image() == bytearray(1024)  # a blank screen, whole
    assert oled.mode == 1 and oled.seg_remap == 1 and oled.com_remap and oled.start_line == 0
    assert oled.commands[-1] == 0xAF  # on only after the blank frame: the panel's old RAM never shows
    assert oled.writes == 6  # the init, each half's window and data, display on


def test_cp_backend_sends_the_changed_columns_drawn_since_the_last_frame(stack):
    fb, oled = stack
    turn(fb)
    fb.show()
    assert oled.image() == reference(turn)
    before = (oled.data_bytes, oled.writes)
    fb.show()
    assert (oled.data_bytes, oled.writes) == before  # nothing drawn since: not one byte on the bus
    turn(fb)
    fb.show()
    assert (oled.data_bytes, oled.writes) == before  # all drawn again, the same: not one byte either
    DICE[0] = 6  # the die at x 4-23 changes from 1 to 6
    try:
        turn(fb)  # everything drawn, one die changed: its 32-column group, columns 0-31, pages 0-3
        fb.show()
        assert (oled.data_bytes - before[0], oled.writes - before[1]) == (32 * 4, 2)  # window, data
        assert oled.image() == reference(turn)
    finally:
        DICE[0] = 1
    before = (oled.data_bytes, oled.writes)
    fb.pixel(5, 3, 1)  # group 0
    fb.pixel(100, 60, 1)  # the lower half's group 3: drawn columns 5-100, a run in each half
    fb.show()
    # one page drawn in each half (0 and 7): that page alone, gathered from each column's four bytes
    assert (oled.data_bytes - before[0], oled.writes - before[1]) == ((32 - 5) + (101 - 96), 4)
    assert oled.image() == bytes(fb_frame(fb))
    before = (oled.data_bytes, oled.writes)
    fb.fill_rect(40, 20, 10, 12, 1)  # rows 20-31: pages 2 and 3 of the upper half, group 1
    fb.show()
    assert (oled.data_bytes - before[0], oled.writes - before[1]) == (10 * 2, 2)  # two pages of 4
    assert oled.image() == bytes(fb_frame(fb))
    before = (oled.data_bytes, oled.writes)
    fb.fill_rect(60, 8, 4, 24, 1)  # rows 8-31: three pages of four, sent whole from the Bitmap
    fb.show()
    assert (oled.data_bytes - before[0], oled.writes - before[1]) == (4 * 4, 2)
    assert oled.image() == bytes(fb_frame(fb))


def test_cp_backend_hold_sends_only_the_dies_columns(stack):
    fb, oled = stack
    shown = bytearray([gfx.UNSHOWN] * 5)  # the dice as the turn screen keeps them: none shown yet
    fb.fill(0)
    gfx.dice_row(fb, DICE, 0, 4, 10, 20, 5, shown=shown)
    fb.show()
    before = oled.data_bytes
    gfx.dice_row(fb, DICE, 0b00001, 4, 10, 20, 5, shown=shown)  # hold die 1: only its box (x 4-23) is drawn
    fb.show()
    assert oled.data_bytes - before == 20 * 4  # its 20 columns, pages 0-3
    assert oled.image() == reference(lambda ref: gfx.dice_row(ref, DICE, 0b00001, 4, 10, 20, 5))


def test_cp_backend_bytes_are_the_panels_without_conversion(stack):
    """The Bitmap's memory is what the panel takes, in two halves of 4 pages: screen pixel (x, y) is bit y % 8 of
    byte 4 * (129 * (y // 32) + x + 1) + y // 8 % 4 (MONO_VLSB, a column's 4 pages in a row of 32 bits), which
    is bitmap pixel ((y % 32) ^ 7, 129 * (y // 32) + x + 1) by CircuitPython's MSB-first rows; sent in vertical
    addressing with a page window a half, with 0xA1 / 0xC8, the panel shows it upright."""
    fb, oled = stack
    mv = memoryview(fb.back)
    assert (fb.back.width, fb.back.height, len(mv)) == (32, 258, 1032)
    fb.fill(0)
    for x, y in ((0, 0), (127, 63), (5, 9), (64, 31), (64, 32), (0, 32), (127, 31)):
        fb.pixel(x, y, 1)
        row = 129 * (y // 32) + x + 1
        assert mv[4 * row + y // 8 % 4] == 1 << (y % 8) and fb.back[(y % 32) ^ 7, row] == 1
        assert sum(mv) == 1 << (y % 8)
        fb.pixel(x, y, 0)
    fb.fill_rect(10, 3, 4, 20, 1)  # rows 3-22: a partial top page, a whole page, a partial bottom page
    fb.fill_rect(10, 29, 4, 6, 1)  # rows 29-34: across the halves
    for x in range(11, 15):
        assert bytes(mv[4 * x:4 * x + 4]) == b"\xf8\xff\x7f\xe0"
        assert bytes(mv[4 * (129 + x):4 * (129 + x) + 4]) == b"\x07\x00\x00\x00"
    fb.show()
    assert oled.frame == oled.image() == bytes(fb_frame(fb))  # the RAM is the image: no remap needed
    fb.fill_rect(0, 0, 128, 64, 1)
    fb.show()  # columns 0-127: a half's spare row's last byte is lent to the 0x40 control byte
    half = bytes(4) + b"\xff" * 512
    assert oled.image() == b"\xff" * 1024 and bytes(mv) == half + half  # and given back


def test_fake_panel_shows_what_its_remap_commands_say(fakes):
    """The fake SSD1306 mirrors and shifts as the datasheet says, so a wrong pick of remaps in the driver shows
    as a wrong image (the parity tests compare images, not the RAM)."""
    oled = fakes.FakeSSD1306()
    oled.write(b"\x00\x20\x00\x21\x00\x7f\x22\x00\x07")
    oled.write(b"\x40\x01")  # RAM column 0, page 0: row 0
    assert oled.image()[7 * 128 + 127] == 0x80  # power-on 0xA0 / 0xC0: the far right column, the bottom row
    oled.write(b"\x00\xa1")
    assert oled.image()[7 * 128] == 0x80  # the left column, the bottom row
    oled.write(b"\x00\xc8")
    assert oled.image()[0] == 0x01  # upright: top-left
    oled.write(b"\x00\x41")
    assert oled.image()[7 * 128] == 0x80  # start line 1: RAM row 0 is the last row shown


def fb_frame(fb):
    """The backend's frame as the panel's page-layout bytes, read back pixel by pixel."""
    out = bytearray(1024)
    for y in range(64):
        for x in range(128):
            if fb.pixel(x, y):
                out[(y // 8) * 128 + x] |= 1 << (y % 8)
    return out


def edges(fb):
    fb.fill(0)
    gfx.text(fb, b"Clip", -3, -2, 1)  # off the top-left corner
    gfx.text(fb, b"Edge", 110, 60, 1)  # off the right and bottom edges
    gfx.text(fb, b"\x7f\x10ok", 20, 20, 1)  # codes outside the font draw '?'
    gfx.glyph(fb, 200, 100, 10, 1)  # one glyph outside the font: the target draws '?'
    fb.fill_rect(-5, 30, 10, 40, 1)
    fb.fill_rect(50, 30, 0, 5, 1)  # empty
    fb.hline(120, 50, 20, 1)
    fb.vline(127, -4, 10, 1)
    fb.pixel(-1, 5, 1)
    fb.pixel(128, 5, 1)
    fb.fill_rect(60, 28, 40, 12, 1)
    gfx.text(fb, b"inv", 62, 30, 0)  # paper-coloured text on ink
    gfx.text(fb, b"\x80a", 84, 30, 0)  # outside the font, inverted: '?'
    gfx.text(fb, b"strips", 22, 50, 1)  # glyphs across the strip edge at x 64, and far from it
    gfx.text(fb, b"low", 60, 61, 1)  # across the edge and off the bottom
    gfx.text(fb, b"Wide", 58, 44, 0)  # and across it in paper on paper
    fb.fill_rect(0, 56, 60, 8, 1)
    gfx.text(fb, b"on a page", 2, 56, 0)  # page-aligned: the bytes cleared, ink as paper
    fb.fill_rect(30, 8, 70, 3, 1)  # a fill across the strip edge


def test_cp_backend_clips_like_framebuf_at_every_edge(stack):
    fb, oled = stack
    edges(fb)
    fb.show()
    assert oled.image() == reference(edges)
    assert fb.pixel(127, 0) == 1 and fb.pixel(-1, 0) is None
    for y in range(-9, 66):  # a glyph at every row offset, and across every edge
        fb.fill(0)
        gfx.text(fb, b"Ag", 124, y, 1)
        gfx.text(fb, b"Wq", -4, y, 1)
        gfx.text(fb, b"#", 60, y, 1)
        fb.show()
        assert oled.image() == reference(lambda ref: (gfx.text(ref, b"Ag", 124, y, 1), gfx.text(ref, b"Wq", -4, y, 1),
                                                      gfx.text(ref, b"#", 60, y, 1))), y


def test_cp_backend_draws_text_as_the_fonts_bytes_on_a_page_or_shifted_across_two(stack):
    """Text is fivedice.font's column bytes put into the Bitmap's, no C call: on a page, across two
    pages, cut at an edge."""
    fb, oled = stack
    import bitmaptools

    bitmaptools.reset_counts()
    gfx.text(fb, b"Hello", 0, 0, 1)  # a page-aligned line inside the screen
    gfx.number(fb, 42, 0, 16, 0)
    gfx.text(fb, b"inked", 60, 40, 0)
    gfx.text(fb, b"Hello", 0, 10, 1)  # rows 10-17: pages 1 and 2
    gfx.text(fb, b"Hi", 125, 8, 1)  # past the right edge ("i" is off the screen)
    gfx.text(fb, b"\x7fok", 0, 24, 1)  # a char outside the font on a page: a '?'
    gfx.text(fb, b"a  b", 0, 34, 1)
    assert bitmaptools.calls == {"fill_region": 0, "blit": 0}
    fb.show()

    def same(ref):
        gfx.text(ref, b"Hello", 0, 0, 1)
        gfx.number(ref, 42, 0, 16, 0)
        gfx.text(ref, b"inked", 60, 40, 0)
        gfx.text(ref, b"Hello", 0, 10, 1)
        gfx.text(ref, b"Hi", 125, 8, 1)
        gfx.text(ref, b"\x7fok", 0, 24, 1)
        gfx.text(ref, b"a  b", 0, 34, 1)

    assert oled.image() == reference(same)


# drawing in any order: text on a page that had only text since fill(0) is set as bytes, not OR-ed,
# where nothing was drawn from its x on; overlapping text, a rectangle, a pixel or an inverted line
# on that page must still come out as framebuf draws them
_X = st.one_of(st.sampled_from((0, 6, 12, 24, 60, 100, 116)), st.integers(-8, 130))
_Y = st.sampled_from((0, 8, 16, 32, 40, 56, 3, 60, -4))
_C = st.integers(0, 1)
_DRAWING = st.lists(st.one_of(
    st.tuples(st.just("fill"), _C),
    st.tuples(st.just("text"), st.sampled_from((b"Ag", b"11", b"a b", b"W", b"-4.2", b"")), _X, _Y, _C),
    st.tuples(st.just("number"), st.integers(-999, 99999), _X, _Y, _C),
    st.tuples(st.just("rect"), _X, st.one_of(_Y, st.integers(-4, 66)), st.integers(1, 40),
              st.integers(1, 12), _C),
    st.tuples(st.just("pixel"), _X, st.one_of(_Y, st.integers(-1, 64)), _C),
    st.tuples(st.just("show"),),
), max_size=14)


def _draw(fb, ops):
    fb.fill(0)
    for op in ops:
        if op[0] == "fill":
            fb.fill(op[1])
        elif op[0] == "text":
            gfx.text(fb, *op[1:])
        elif op[0] == "number":
            gfx.number(fb, *op[1:])
        elif op[0] == "rect":
            fb.fill_rect(*op[1:])
        elif op[0] == "pixel":
            fb.pixel(*op[1:])
        elif hasattr(fb, "show"):
            fb.show()


@settings(max_examples=1000, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=_DRAWING)
@example(ops=[("pixel", 0, 0, 1), ("text", b"Ag", 0, 0, 1)])  # a pixel under the text's columns
@example(ops=[("rect", 0, 29, 2, 12, 1), ("text", b"Ag", 0, 40, 0)])  # an inverted line on ink
@example(ops=[("text", b"Ag", 0, 8, 1), ("rect", 0, 0, 40, 8, 1)])  # a title bar over text's half
@example(ops=[("text", b"Ag", 6, 40, 1), ("rect", 0, 32, 40, 8, 1)])  # (the lower half)
@example(ops=[("rect", 0, 32, 128, 8, 1), ("rect", 0, 0, 128, 8, 1)])  # bars on blank halves
def test_cp_backend_draws_text_right_in_any_order_with_anything_else(stack, ops):
    fb, oled = stack
    _draw(fb, ops)
    fb.show()
    assert oled.image() == reference(lambda ref: _draw(ref, ops))


NUMBERS = (0, 7, 42, -42, 1575, -1, 999999999, -999999999, 1000000000, -1234567890123, 10 ** 20)


def test_cp_backend_draws_a_number_as_one_line_of_text_the_pixels_of_gfxs_digits(stack):
    """number() hands its digits to glyphs() as one line; every number, also past nine digits, and
    on and across the pages, is what gfx.number draws a glyph at a time."""
    fb, oled = stack
    import bitmaptools

    assert fb.NUMBER_BLIT
    for y in (0, 8, 13, 56, 60):
        for x in (0, 3, 100):
            # from x, and right-aligned (number(..., right=True)) with its advance ending at x + 60: the x
            # after it, or its left x
            for draw, at, sign in ((gfx.number, x, 1), (gfx.number_right, x + 60, -1)):
                for c in (1, 0):
                    fb.fill(1 - c)
                    xs = [draw(fb, n, at, y, c) for n in NUMBERS]
                    fb.show()

                    def same(ref):
                        ref.fill(1 - c)
                        return [draw(ref, n, at, y, c) for n in NUMBERS]

                    assert oled.image() == reference(same), (draw, at, y, c)
                    assert xs == [at + sign * gfx.number_width(n) for n in NUMBERS]
    bitmaptools.reset_counts()
    gfx.number_right(fb, -1575, 128, 16, 1)  # on a page: its bytes, no C call
    assert bitmaptools.calls == {"fill_region": 0, "blit": 0}


def test_cp_backend_blackens_a_halfs_four_pages_as_one_run_of_bytes(stack):
    """A black rectangle over rows 0-31 or 32-63 is its columns' bytes zeroed in one go (struct.pack_into), not
    pixel by pixel: the turn screen's lower part is a half, 4.5 ms of fill_region on the emulated Pico."""
    fb, oled = stack
    import bitmaptools

    def lit(f):
        f.fill(0)
        f.fill_rect(0, 0, 128, 64, 1)
        gfx.text(f, b"keep", 3, 4, 0)

    # the rectangle, and the fill_region calls left for its partial pages and its pages short of a half
    # (a single whole page is its bytes too: (17, -3, 99, 50)'s page 4, (120, 20, 20, 60)'s page 3)
    for x, y, w, h, calls in ((0, 30, 128, 34, 1), (0, 0, 128, 32, 0), (5, 32, 1, 40, 0), (17, -3, 99, 50, 1),
                              (120, 20, 20, 60, 1), (0, 32, 71, 32, 0), (-4, 0, 9, 64, 0)):
        def draw(f):
            lit(f)
            f.fill_rect(x, y, w, h, 0)

        lit(fb)
        fb.show()
        bitmaptools.reset_counts()
        fb.fill_rect(x, y, w, h, 0)
        assert bitmaptools.calls["fill_region"] == calls, (x, y, w, h)
        fb.show()
        assert oled.image() == reference(draw), (x, y, w, h)


def test_cp_backend_fills_a_single_whole_page_as_a_byte_a_column(stack):
    """A rectangle over one whole page in ink or paper (a title bar: 1,024 pixels of fill_region, 1.2 ms on the
    emulated Pico) is a byte set in each of its columns; in both halves, at the edges, and clipped."""
    fb, oled = stack
    import bitmaptools

    for x, y, w, h in ((0, 0, 128, 8), (5, 24, 40, 8), (-3, 32, 20, 8), (120, 56, 30, 8), (60, 8, 1, 8)):
        for c in (1, 0):
            def draw(f):
                f.fill(1 - c)
                gfx.text(f, b"page", 30, 3, c)  # ink on the pages around it stays
                f.fill_rect(x, y, w, h, c)

            draw(fb)
            bitmaptools.reset_counts()
            fb.fill_rect(x, y, w, h, c)
            assert bitmaptools.calls["fill_region"] == 0, (x, y, c)
            fb.show()
            assert oled.image() == reference(draw), (x, y, w, h, c)


def test_cp_backend_power_calls_are_the_ssd1306_commands(stack):
    fb, oled = stack
    del oled.commands[:]
    fb.contrast(1)
    fb.poweroff()
    fb.poweron()
    fb.contrast(255)
    assert oled.commands == [0x81, 1, 0xAE, 0xAF, 0x81, 255]


def test_fake_busio_i2c_is_circuitpython_10s(fakes):
    """writeto's start/end as normalize_buffer_bounds (shared/runtime/buffer_helper.c), the lock, deinit."""
    import board
    import busio

    got = []

    class Dev:
        def write(self, data):
            got.append(bytes(data))

    fakes.devices[0x3C] = Dev()
    i2c = busio.I2C(board.GP5, board.GP4)
    with pytest.raises(RuntimeError, match="Function requires lock"):
        i2c.writeto(0x3C, b"ab")
    assert i2c.try_lock() and not i2c.try_lock()
    buf = bytearray(b"0123456789")
    for kw, want in (({}, b"0123456789"), ({"start": 2, "end": 5}, b"234"), ({"start": -3}, b"789"),
                     ({"end": -8}, b"01"), ({"start": 4, "end": 99}, b"456789"), ({"start": 6, "end": 3}, b"")):
        i2c.writeto(0x3C, buf, **kw)
        assert got[-1] == want, kw
    assert i2c.probe(0x3C) and not i2c.probe(0x3D) and i2c.scan() == [0x3C]
    with pytest.raises(OSError):
        i2c.writeto(0x3D, buf)
    with pytest.raises(TypeError):
        i2c.writeto(0x3C, buf, 2)  # start and end are keyword-only
    i2c.unlock()
    i2c.deinit()
    with pytest.raises(ValueError, match="deinitialized"):
        i2c.try_lock()


def test_the_boards_font_literals_are_fivedice_fonts():
    """board_cp and board_mp draw text with fivedice.font's range, '?' and advance as const() literals (an
    imported name is a dict lookup a use, on the hot path); they must be the font's."""
    import re

    from fivedice import font

    want = {"_FIRST": font.FIRST, "_LAST": font.LAST, "_UNKNOWN": font.UNKNOWN, "_ADVANCE": font.ADVANCE}
    for name, extra in (("board_cp.py", {"_WIDTH": font.WIDTH, "_STEP": font.ADVANCE * 4}), ("board_mp.py", {})):
        src = open(os.path.join(ROOT, "firmware", "fdfw", name)).read()
        got = {k: int(v) for k, v in re.findall(r"^(_[A-Z]+) = const\((\d+)\)", src, re.M)}
        for k, v in dict(want, **extra).items():
            assert got[k] == v, (name, k)
