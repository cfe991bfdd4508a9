"""The CircuitPython display backend (firmware/fdfw/board_cp.py) on the real adafruit_displayio_ssd1306 over the
fake displayio / bitmaptools / busdisplay / i2cdisplaybus and the fake I2C bus, on CPython: what reaches the panel
and how many bytes cross the bus. (Its MicroPython twin and both heap-lock proofs: tests/mpy/test_heap_display.py.)
"""
import os
import sys

import adafruit_framebuf
import pytest

from fivedice import gfx

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAKES = os.path.join(ROOT, "tests", "firmware_fakes")
_MODULES = ("fakehw", "board", "microcontroller", "busio", "displayio", "bitmaptools", "busdisplay", "i2cdisplaybus",
            "fourwire", "adafruit_displayio_ssd1306", "fdfw")


@pytest.fixture
def stack(monkeypatch):
    for name in list(sys.modules):
        if name.split(".")[0] in _MODULES:
            monkeypatch.delitem(sys.modules, name)
    for p in (os.path.join(ROOT, "firmware"), FAKES, os.path.join(FAKES, "cp")):
        monkeypatch.syspath_prepend(p)
    import adafruit_displayio_ssd1306
    import board
    import busio
    import displayio
    import fakehw
    import i2cdisplaybus
    from fdfw.board_cp import BitmapDisplay

    fakehw.reset()
    oled = fakehw.FakeSSD1306()
    fakehw.devices[0x3C] = oled
    displayio.release_displays()
    bus = i2cdisplaybus.I2CDisplayBus(busio.I2C(board.GP5, board.GP4), device_address=0x3C)
    fb = BitmapDisplay(adafruit_displayio_ssd1306.SSD1306(bus, width=128, height=64, auto_refresh=False))
    yield fb, oled
    for name in list(sys.modules):
        if name.split(".")[0] in _MODULES:
            del sys.modules[name]


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


def test_cp_backend_sends_nothing_for_an_unchanged_frame_and_only_the_changed_dies_pages(stack):
    fb, oled = stack
    assert oled.data_bytes == 1024 and oled.frame == bytearray(1024)  # start-up: a blank screen, whole
    turn(fb)
    fb.show()
    assert oled.frame == reference(turn)
    before = (oled.data_bytes, oled.writes)
    turn(fb)
    fb.show()
    assert (oled.data_bytes, oled.writes) == before  # the same frame again: not one byte on the bus
    DICE[0] = 6  # the die at x 4-23 changes from 1 to 6: pips in rows 12-15, 18-21 and 24-27, pages 1-3
    try:
        turn(fb)
        fb.show()
        assert oled.data_bytes - before[0] == 3 * 64  # of the left 64-column strip only
        assert oled.frame == reference(turn)
    finally:
        DICE[0] = 1
    DICE[2] = 6  # the die at x 54-73 straddles the two strips
    try:
        before = oled.data_bytes
        turn(fb)
        fb.show()
        assert 3 * 64 < oled.data_bytes - before <= 2 * 3 * 64  # blocks of both strips (5: one page of one
        # half shows the same pip in both faces)
        assert oled.frame == reference(turn)
    finally:
        DICE[2] = 3


def test_cp_backend_sends_separate_runs_of_changed_pages(stack):
    fb, oled = stack
    turn(fb)
    fb.show()
    before = oled.data_bytes
    fb.pixel(5, 3, 1)  # page 0
    fb.pixel(5, 60, 1)  # page 7
    fb.pixel(100, 20, 1)  # page 2 of the right strip
    fb.show()
    # three one-block windows, not pages 0-7, each of the columns drawn: 5-63 on the left, 0-36 on the right
    assert oled.data_bytes - before == 2 * (64 - 5) + 37
    assert oled.frame == bytes(fb_frame(fb))


def test_cp_backend_sends_only_the_columns_drawn_since_the_last_frame(stack):
    fb, oled = stack
    shown = bytearray([gfx.UNSHOWN] * 5)  # the dice as the turn screen keeps them: none shown yet
    fb.fill(0)
    gfx.dice_row(fb, DICE, 0, 4, 10, 20, 5, shown=shown)
    fb.show()
    before = oled.data_bytes
    fb.show()
    assert oled.data_bytes == before and fb.hi <= fb.lo  # nothing drawn since: nothing sent
    gfx.dice_row(fb, DICE, 0b00001, 4, 10, 20, 5, shown=shown)  # hold die 1: only its box (x 4-23) is drawn
    fb.show()
    assert oled.data_bytes - before == 3 * 20  # its 20 columns of pages 1-3, not the strip's 64
    assert oled.frame == reference(lambda ref: gfx.dice_row(ref, DICE, 0b00001, 4, 10, 20, 5))
    before = oled.data_bytes
    gfx.dice_row(fb, DICE, 0b00001, 4, 10, 20, 5)  # all five drawn again, as they are: nothing to send
    fb.show()
    assert oled.data_bytes == before


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
    fb.fill_rect(-5, 30, 10, 40, 1)
    fb.fill_rect(50, 30, 0, 5, 1)  # empty
    fb.hline(120, 50, 20, 1)
    fb.vline(127, -4, 10, 1)
    fb.pixel(-1, 5, 1)
    fb.pixel(128, 5, 1)
    fb.fill_rect(60, 28, 40, 12, 1)
    gfx.text(fb, b"inv", 62, 30, 0)  # paper-coloured text on ink
    gfx.text(fb, b"strips", 22, 50, 1)  # glyphs across the strip edge at x 64, and far from it
    gfx.text(fb, b"low", 60, 61, 1)  # across the edge and off the bottom
    gfx.text(fb, b"Wide", 58, 44, 0)  # and across it in paper on paper
    fb.fill_rect(30, 8, 70, 3, 1)  # a fill across the strip edge


def test_cp_backend_clips_like_framebuf_at_every_edge(stack):
    fb, oled = stack
    edges(fb)
    fb.show()
    assert oled.frame == reference(edges)
    assert fb.pixel(127, 0) == 1 and fb.pixel(-1, 0) is None


def test_cp_backend_draws_text_with_one_blit_per_glyph(stack):
    fb, oled = stack
    import bitmaptools

    bitmaptools.reset_counts()
    gfx.text(fb, b"Hello", 0, 0, 1)
    gfx.number(fb, 42, 0, 10, 0)
    assert bitmaptools.calls == {"fill_region": 0, "blit": 7}  # (none of them at the strip edge)

