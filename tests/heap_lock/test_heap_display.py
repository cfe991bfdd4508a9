"""Display drivers on the MicroPython unix port: bytes on the I2C bus, panel contents, and heap-lock proofs.

PagedSSD1306 (firmware/fdfw/board_mp.py) is the vendored micropython ssd1306 driver with a show() that sends only
the pages that changed. SSD1306 (firmware/fdfw/ssd1306_cp.py, drawn by board_cp.py's BitmapDisplay) is the
CircuitPython backend; here it runs on the fake displayio/bitmaptools (tests/firmware/fakes/cp) on an I2C
with busio.I2C's methods that only counts, so the heap-lock proof covers the backend's own Python code (the C primitives and busio's writeto on a
board allocate nothing per call).
"""
import sys

import micropython

from heaplock import locked

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
_ROOT = _HERE + "/../.."
for _p in ("/firmware", "/firmware/vendor", "/tests/firmware/fakes", "/tests/firmware/fakes/cp", "/tests/firmware/fakes/mp"):
    if _ROOT + _p not in sys.path:
        sys.path.append(_ROOT + _p)

import fakehw  # noqa: E402
from fivedice import gfx  # noqa: E402
from fivedice.font import FONT  # noqa: E402
from fdfw import board_mp, glyphs_mp  # noqa: E402
from fdfw.board_mp import PagedSSD1306  # noqa: E402
from fdfw.ssd1306_cp import SSD1306  # noqa: E402
import displayio  # noqa: E402


class CountingI2C:
    """machine.I2C's writeto/writevto that only count (no allocation) and, when given a panel, feed it."""

    def __init__(self, panel=None):
        self.panel = panel
        self.writes = 0
        self.bytes = 0  # payload + 1 address byte per write
        self.data = 0  # bytes after a 0x40 control byte

    def writeto(self, addr, buf, stop=True):
        b = bytes(buf) if self.panel is not None else None  # (as the bus: fails before it counts)
        self.writes += 1
        self.bytes += len(buf) + 1
        if buf[0] == 0x40:
            self.data += len(buf) - 1
        if b is not None:
            self.panel.write(b)

    def writevto(self, addr, vector, stop=True):
        self.writes += 1
        self.bytes += 1
        for b in vector:
            self.bytes += len(b)
        if vector[0][0] == 0x40:
            for i in range(1, len(vector)):
                self.data += len(vector[i])
        if self.panel is not None:
            data = b""
            for b in vector:
                data += bytes(b)
            self.panel.write(data)


DICE = bytearray(b"\x01\x02\x03\x04\x05")


def draw(fb):
    fb.fill(0)
    gfx.text(fb, b"P1 Yahtzee", 0, 0, 1)
    gfx.number_right(fb, 123, 128, 0, 1)
    gfx.dice_row(fb, DICE, 0b00100, 4, 10, 20, 5)
    fb.rect(30, 34, 7, 7, 1)
    fb.hline(0, 43, 128, 1)
    fb.vline(127, 44, 10, 1)
    fb.pixel(3, 62, 1)
    fb.fill_rect(0, 54, 128, 10, 1)
    gfx.text(fb, b"Box already filled", 1, 55, 0)
    gfx.number(fb, -42, 110, 55, 0)


def test_paged_ssd1306_puts_each_frame_on_the_panel():
    panel = fakehw.FakeSSD1306()
    d = PagedSSD1306(128, 64, CountingI2C(panel))
    # started dark, no frame sent (a blank one would be 29 ms of a boot); the first show() sends the
    # whole screen, then lights it
    assert panel.data_bytes == 0 and panel.commands[-1] == 0xAE
    draw(d)
    d.show()
    assert panel.data_bytes == 1024 and panel.commands[-1] == 0xAF and panel.frame == d.buffer
    assert d._dsize == 20  # the dice sprites, made after that first frame
    for face in (1, 6, 3):
        DICE[0] = face
        draw(d)
        d.show()
        assert panel.frame == d.buffer
    DICE[0] = 1


def edges(fb):
    draw(fb)
    gfx.text(fb, b"Clip", -3, -2, 1)
    gfx.text(fb, b"Edge", 110, 60, 1)
    gfx.text(fb, b"\x7f\x10ok", 20, 20, 1)  # outside the font: '?'
    gfx.text(fb, b" ~}", 60, 20, 1)  # the font's first and last chars
    fb.fill_rect(60, 28, 40, 12, 1)
    gfx.text(fb, b"inv", 62, 30, 0)
    gfx.text(fb, b"x", 125, 30, 0)
    gfx.text(fb, b"\x80a", 84, 30, 0)  # outside the font, inverted: '?'
    gfx.glyph(fb, 200, 100, 10, 1)  # one glyph outside the font: the target draws '?'
    gfx.glyph(fb, 300, 110, 10, 1)  # and one outside a byte
    gfx.number(fb, -1203, 0, 40, 1)  # NUMBER_BLIT: a digit a blit, '-' first
    gfx.number(fb, 0, 40, 40, 1)
    fb.fill_rect(0, 48, 80, 8, 1)
    gfx.number(fb, 98765, 1, 48, 0)
    gfx.number(fb, -7, 40, 48, 0)
    gfx.number(fb, 1234567890, 90, 48, 1)  # off the right edge: clipped
    gfx.number(fb, 42, -4, 57, 1)  # off the left edge
    gfx.number_right(fb, -375, 128, 57, 1)  # right-aligned: number(..., right=True)
    gfx.number_right(fb, 8, 75, 48, 0)


def each_text_path(test):
    """test() with the text and the dice in native code (fdfw.glyphs_mp, as the deploy installs it for a known
    CPU), then with a FrameBuffer blit a glyph and a die (a board without it)."""
    test(True)
    board_mp._text, board_mp._number, board_mp._sprite = None, None, None
    try:
        test(False)
    finally:
        board_mp._text, board_mp._number, board_mp._sprite = glyphs_mp.text, glyphs_mp.number, glyphs_mp.sprite


def test_paged_ssd1306_text_draws_the_same_pixels_as_gfx_fill_rects_native_or_blitted():
    import framebuf

    def check(native):
        d = PagedSSD1306(128, 64, CountingI2C())
        assert (d._glyph is None) == native  # the blits' 95 FrameBuffers only where they draw
        plain = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)  # no GLYPH_BLIT: fill_rect runs
        edges(d)
        edges(plain)
        ink = 0
        for y in range(64):
            for x in range(128):
                assert d.pixel(x, y) == plain.pixel(x, y), (native, x, y)
                ink += d.pixel(x, y)
        assert ink > 1000

    each_text_path(check)


def test_native_text_is_gfxs_text_at_every_row_edge_and_colour():
    """fdfw.glyphs_mp against gfx's fill_rect runs on a plain FrameBuffer: every char code, every row offset
    from above the top to below the bottom, both edges, ink and paper, three panel sizes; numbers too."""
    import framebuf

    codes = bytes(range(256))
    for w, h in ((128, 64), (72, 40), (128, 32)):
        buf = bytearray(w * h // 8)
        ref = framebuf.FrameBuffer(bytearray(w * h // 8), w, h, framebuf.MONO_VLSB)
        for c in (1, 0):
            for y in range(-9, h + 2):
                for x in (-8, -3, 0, 5, w - 20, w - 3):
                    for k in range(0, 256, 20):
                        s = codes[k:k + 20]
                        ref.fill(1 - c)
                        gfx.text(ref, s, x, y, c)
                        ref_bytes = bytes(ref)
                        for i in range(len(buf)):
                            buf[i] = 0xFF * (1 - c)
                        assert glyphs_mp.text(buf, w, h, FONT, s, len(s), x, y, c) == x + 6 * len(s)
                        assert bytes(buf) == ref_bytes, (w, h, c, y, x, k)
                    for v in (0, 7, -5, 10, 99, 100, 12345, -987654, 1073741823):
                        ref.fill(1 - c)
                        gfx.number(ref, v, x, y, c)
                        ref_bytes = bytes(ref)
                        for i in range(len(buf)):
                            buf[i] = 0xFF * (1 - c)
                        e = glyphs_mp.number(buf, w, h, FONT, bytearray(12), v, x, y, c, False)
                        assert e == x + gfx.number_width(v) and bytes(buf) == ref_bytes, (w, h, c, y, x, v)
                        # right-aligned: its advance ends at e, the left x returned (gfx.number_right)
                        for i in range(len(buf)):
                            buf[i] = 0xFF * (1 - c)
                        assert glyphs_mp.number(buf, w, h, FONT, bytearray(12), v, e, y, c, True) == x
                        assert bytes(buf) == ref_bytes, (w, h, c, y, x, v, "right")


def test_native_sprite_is_framebufs_blit_at_every_row_and_edge():
    """fdfw.glyphs_mp.sprite against FrameBuffer.blit (no key): every pixel of the sprite's rectangle copied,
    the frame's rows around it kept, at every row offset from above the top to below the bottom and across both
    edges, sprites 8 to 24 rows high, three panel sizes."""
    import framebuf

    for w, h in ((128, 64), (72, 40), (128, 32)):
        for sw, sh in ((20, 20), (8, 8), (5, 24), (13, 11)):
            data = bytearray((k * 37 + 11) & 0xFF for k in range((sh + 7) // 8 * sw))
            spr = framebuf.FrameBuffer(data, sw, sh, framebuf.MONO_VLSB)
            for y in range(-sh - 1, h + 2):
                for x in (-sw, -3, 0, 7, w - sw, w - 4, w):
                    buf = bytearray((k * 89 + 5) & 0xFF for k in range(w * h // 8))  # ink and paper around it
                    ref = bytearray(buf)
                    framebuf.FrameBuffer(ref, w, h, framebuf.MONO_VLSB).blit(spr, x, y)
                    glyphs_mp.sprite(buf, w, h, data, sw, sh, x, y)
                    assert buf == ref, (w, h, sw, sh, x, y)


def test_native_text_allocates_nothing():
    buf = bytearray(1024)
    digits = bytearray(12)
    die = bytearray(60)

    def draw():
        glyphs_mp.text(buf, 128, 64, FONT, b"Keep 6 6 6", 10, 3, 35, 1)
        glyphs_mp.number(buf, 128, 64, FONT, digits, -1203, 60, 40, 0, False)
        glyphs_mp.number(buf, 128, 64, FONT, digits, 375, 127, 48, 1, True)
        glyphs_mp.sprite(buf, 128, 64, die, 20, 20, 4, 10)

    draw()
    assert locked(draw) == 0


def test_paged_ssd1306_sends_nothing_unchanged_and_only_a_changed_dies_blocks():
    panel = fakehw.FakeSSD1306()
    i2c = CountingI2C(panel)
    d = PagedSSD1306(128, 64, i2c)
    draw(d)
    d.show()
    data, writes = i2c.data, i2c.writes
    draw(d)
    d.show()
    assert (i2c.data, i2c.writes) == (data, writes)  # not one byte
    DICE[0] = 6  # 1 -> 6 in the die at x 4-23: pages 1-3 change, only in columns 0-31
    draw(d)
    d.show()
    DICE[0] = 1
    assert i2c.data - data == 3 * 32
    assert i2c.writes - writes == 1 + 3  # one window command write, one data write a page
    assert panel.frame == d.buffer
    data = i2c.data
    d.pixel(127, 0, 1)  # page 0 (a blank column): its last block
    d.pixel(64, 63, 0)  # page 7 (inside the ink bar): its third block
    d.pixel(33, 63, 0)  # and its second
    d.show()
    assert i2c.data - data == 32 + 2 * 32  # two separate windows
    assert panel.frame == d.buffer
    data, writes = i2c.data, i2c.writes
    d.pixel(5, 40, 1)  # page 5's blocks 0 and 3, not 1 and 2 (a hint's marks under dice 1 and 5):
    d.pixel(100, 40, 1)  # two windows of a block, not one of four
    d.show()
    assert i2c.data - data == 2 * 32 and i2c.writes - writes == 2 * 2
    assert panel.frame == d.buffer
    d.pixel(5, 40, 0)  # blocks 0 and 2 of pages 5 and 6: one window for both pages' blocks 0-2 (a
    d.pixel(100, 40, 0)  # whole frame's pages go together, gaps or not)
    d.show()
    data, writes = i2c.data, i2c.writes
    for y in (40, 48):
        d.pixel(5, y, 1)
        d.pixel(70, y, 1)
    d.show()
    assert i2c.data - data == 2 * 3 * 32 and i2c.writes - writes == 1 + 2
    assert panel.frame == d.buffer
    DICE[1] = 6  # the die at x 29-48 spans blocks 0 and 1
    draw(d)
    d.show()
    DICE[1] = 2
    assert panel.frame == d.buffer


def test_paged_ssd1306_fills_as_framebuf_does_its_whole_pages_as_bytes():
    """fill() and fill_rect() fill whole pages as rows of bytes (a GS8 view of the buffer) and the rest as framebuf
    does: the same pixels for rectangles across, inside and off the pages and the edges, in both colours."""
    import framebuf

    d = PagedSSD1306(128, 64, CountingI2C())
    plain = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    rects = ((0, 30, 128, 34), (0, 0, 128, 64), (5, 8, 20, 16), (3, 9, 50, 7), (-4, -5, 30, 30), (100, 40, 60, 40),
             (10, 17, 9, 22), (0, 56, 128, 8), (60, 0, 1, 64), (20, 63, 10, 5), (7, 24, 0, 16), (1, 2, 3, -4))
    for c in (1, 0):
        for f in (d, plain):
            f.fill(c)
            for i, (x, y, w, h) in enumerate(rects):
                f.fill_rect(x, y, w, h, (c + i) & 1)
        assert bytes(d.buffer) == bytes(plain), c


def test_paged_ssd1306_on_a_narrow_panel_sends_its_columns_only():
    panel = fakehw.FakeSSD1306()
    d = PagedSSD1306(72, 40, CountingI2C(panel))  # 72x40: centred at columns 28-99, blocks 32 + 32 + 8
    d.fill(0)
    d.fill_rect(70, 0, 2, 40, 1)  # the last (8-column) block of every page
    d.show()
    for p in range(5):
        assert panel.frame[p * 128 + 28:p * 128 + 100] == d.buffer[p * 72:(p + 1) * 72]


def test_paged_ssd1306_draws_and_shows_without_allocating():
    def check(native):
        i2c = CountingI2C()
        d = PagedSSD1306(128, 64, i2c)

        def frame():
            DICE[0] = 7 - DICE[0]  # 1 <-> 6: every frame differs
            draw(d)
            gfx.glyph(d, 65, 0, 20, 1)
            d.show()
            d.show()  # and an unchanged one

        frame()
        sent = d.blocks_sent
        assert locked(frame) == 0, native
        assert d.blocks_sent - sent == 3  # the locked frame did send its blocks

    each_text_path(check)


class CountingBusio:
    """busio.I2C's lock and writeto (CircuitPython 10.2.1: start and end keyword-only) that only count."""

    def __init__(self):
        self.locked = False
        self.writes = 0
        self.data = 0  # bytes of the writes that start with the 0x40 control byte, less that byte

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

    def writeto(self, address, buffer, *, start=0, end=0x7FFFFFFF):
        if not self.locked:
            raise RuntimeError("Function requires lock")
        if end > len(buffer):
            end = len(buffer)
        self.writes += 1
        if buffer[start] == 0x40:
            self.data += end - start - 1


def test_circuitpython_backend_draws_and_shows_without_allocating():
    i2c = CountingBusio()
    fb = SSD1306(i2c, 0x3C, displayio)
    assert i2c.data == 1024  # the blank start-up screen

    def frame():
        DICE[0] = 7 - DICE[0]
        draw(fb)
        gfx.text(fb, b"Clip", -3, -2, 1)
        gfx.text(fb, b"Off", 2, 21, 1)  # across two pages
        fb.contrast(200)
        fb.show()
        fb.show()

    frame()
    sent = fb.bytes_sent
    writes = i2c.writes
    assert locked(frame) == 0
    # die 1's 32-column group of pages 0-3 (all drawn, only they changed): the window and the data; the
    # contrast
    assert fb.bytes_sent - sent == 32 * 4 and i2c.writes - writes == 2 + 1
    DICE[0] = 1


def test_heap_harness_catches_a_display_allocation():
    fb = SSD1306(CountingBusio(), 0x3C, displayio)
    assert locked(lambda: fb.glyphs(bytes(DICE), 0, 0, 1)) == 1  # bytes() allocates: the harness must see it


def dice(fb):
    fb.fill(0)
    gfx.dice_row(fb, DICE, 0b01010, 4, 10, 20, 5)
    gfx.die(fb, 20, 40, 20, 6, 1)
    gfx.die(fb, -6, 50, 20, 3, 0)
    gfx.die(fb, 118, -4, 20, 5, 1)
    for k in range(8):
        gfx.tumbling_die(fb, 27 + 9 * k, 44, 20, 5 + k)
    gfx.die(fb, 60, 30, 16, 2, 1)  # another size: drawn by gfx itself
    gfx.die(fb, 90, 30, 20, 4, 0, 0)  # another colour: likewise


def test_paged_ssd1306_dice_sprites_draw_what_gfx_draws_everywhere():
    import framebuf

    d = PagedSSD1306(128, 64, CountingI2C())
    plain = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    dice(d)
    dice(plain)
    for y in range(64):
        for x in range(128):
            assert d.pixel(x, y) == plain.pixel(x, y), (x, y)


class AllocatingI2C(CountingI2C):
    """A bus whose writes allocate (as a fake that copies what it is sent)."""

    def __init__(self):
        super().__init__()
        self.locked_tries = 0

    def writeto(self, addr, buf, stop=True):
        try:
            bytes(4)
        except MemoryError:
            self.locked_tries += 1
            raise
        super().writeto(addr, buf, stop)


def test_paged_ssd1306_sends_with_the_heap_locked_and_unlocked_if_the_bus_allocates():
    i2c = AllocatingI2C()
    d = PagedSSD1306(128, 64, i2c)
    d.show()  # its first frame: the whole panel
    assert i2c.locked_tries == 1  # the first write, locked, failed; then every page went unlocked
    assert i2c.data == 1024
    d.fill_rect(0, 0, 8, 8, 1)
    d.show()
    assert i2c.locked_tries == 2 and i2c.data == 1024 + 32  # once more: one block, sent once
