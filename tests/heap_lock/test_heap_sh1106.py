"""The MacroPad's SH1106 backend (firmware/fdfw/board_cp.py drawing, sh1106_cp.py gathering each page and sending it)
on the MicroPython unix port over the fake displayio and bitmaptools (tests/firmware/fakes/cp): a frame drawn and sent
allocates nothing (the C primitives on a board allocate nothing per call; busio.SPI.write here only counts)."""
import sys

from heaplock import locked

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
_ROOT = _HERE + "/../.."
for _p in ("/firmware", "/tests/firmware/fakes", "/tests/firmware/fakes/cp"):
    if _ROOT + _p not in sys.path:
        sys.path.append(_ROOT + _p)

import displayio  # noqa: E402
from fivedice import gfx  # noqa: E402
from fdfw.sh1106_cp import SH1106  # noqa: E402


class CountingSPI:
    """busio.SPI.write(buffer, *, start=0, end=None) that only counts."""

    def __init__(self):
        self.writes = 0
        self.bytes = 0

    def write(self, buffer, *, start=0, end=None):
        self.writes += 1
        self.bytes += (len(buffer) if end is None else end) - start


class Pin:
    value = True


DICE = bytearray(b"\x01\x02\x03\x04\x05")


def draw(fb):
    fb.fill(0)
    gfx.text(fb, b"P1 Yahtzee", 0, 0, 1)
    gfx.number_right(fb, 123, 128, 0, 1)
    gfx.dice_row(fb, DICE, 0b00100, 4, 10, 20, 5)
    fb.rect(30, 34, 7, 7, 1)
    fb.fill_rect(0, 44, 128, 9, 1)
    gfx.text(fb, b"Box already filled", 1, 45, 0)
    gfx.text(fb, b"Clip", -3, -2, 1)
    fb.pixel(3, 62, 1)


def test_sh1106_backend_draws_and_sends_a_frame_without_allocating():
    spi = CountingSPI()
    fb = SH1106(spi, Pin(), Pin(), 2, displayio)

    def frame():
        DICE[0] = 7 - DICE[0]  # 1 <-> 6
        draw(fb)
        fb.show()
        fb.show()  # and one with nothing drawn
        fb.fill_rect(4, 10, 21, 20, 0)  # a die's columns of pages 1-3, and one (not 4 a pass)
        fb.show()
        fb.contrast(100)

    frame()
    sent = fb.bytes_sent
    data = spi.bytes
    writes = spi.writes
    assert locked(frame) == 0
    assert fb.bytes_sent - sent == 8 * 128 + 3 * 21  # the locked frame did gather and send its pages
    assert spi.bytes - data == 8 * (3 + 128) + 3 * (3 + 21) + 2  # their commands, and the contrast's
    assert spi.writes - writes == 2 * (8 + 3) + 1
    DICE[0] = 1


def test_heap_harness_catches_an_sh1106_allocation():
    fb = SH1106(CountingSPI(), Pin(), Pin(), 2, displayio)
    assert locked(lambda: fb.glyphs(bytes(DICE), 0, 0, 1)) == 1
