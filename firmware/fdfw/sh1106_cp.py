"""CircuitPython: an SH1106 OLED on SPI (the MacroPad's) drawn in a Bitmap laid out as the panel's
own bytes."""
# The SH1106 has page addressing only (a page: 8 rows, one byte a column, LSB the top row) and a
# 132-column RAM with the 128-column panel from column `col` (2 on the MacroPad). displayio's
# BusDisplay would convert every pixel of a refresh through its palette; here the back buffer
# already is what the panel takes, so a frame is sent with raw SPI writes of its bytes after
# displayio.release_displays():
# - back: a 1-bit displayio.Bitmap 32 wide, 256 tall. CircuitPython 10 keeps a 1-bit Bitmap as rows
# of 32-bit
#   words, values MSB first in each byte, bytes in order (shared-module/displayio/Bitmap.c): row r
#   is 4 bytes,
#   so page p is rows 32p..32p+31 = bytes 128p..128p+127, its 128 columns in order. Screen pixel (x,
#   y) is
#   bitmap pixel (8 * (x % 4) + 7 - y % 8, 32 * (y // 8) + x // 4).
# - drawing: bitmaptools.fill_region, at most 4 a page a rectangle touches (one per x % 4); text:
# the font in
#   the same layout, one bitmaptools.blit per glyph column and page (a line that is not page-aligned
#   takes two).
# - show(): each page drawn since the last show() (plo..phi) is sent: the page and column commands,
# then the
#   bytes of the columns drawn (lo..hi), straight from the back buffer's memory (busio.SPI.write
#   start/end: no
#   copy). No copy of what the panel holds (1 KB of heap): at 10 MHz a whole page is 0.1 ms of bus,
#   less than
#   comparing it would cost in Python. A frame that draws nothing sends nothing.
# Nothing here allocates per frame (tests/heap_lock/test_heap_display.py).
from fivedice.font import ADVANCE, FIRST, FONT, LAST, UNKNOWN, WIDTH

# the board's own start-up sequence (CircuitPython's adafruit_macropad_rp2040 board.c), display on
# last
INIT = bytes(
    (
        0xAE,
        0xD5,
        0x80,
        0xA8,
        0x3F,
        0xD3,
        0x00,
        0x40,
        0x00,
        0xAD,
        0x8B,
        0xA1,
        0xC8,
        0xDA,
        0x12,
        0x81,
        0xFF,
        0xD9,
        0x1F,
        0xDB,
        0x20,
        0x20,
        0x20,
        0x33,
        0xA6,
        0xA4,
    )
)
_ON = 0xAF
_OFF = 0xAE
_CONTRAST = 0x81
_W = 32  # the back buffer's width: 4 columns of a page a row


def _font_pages(displayio, ink):
    """The font in the page layout: font column f (glyph k's are 5k..5k+4) at row f // 4, byte f %
    4, so the Bitmap's byte f, its bits the column's (LSB the top row); ink pixels = ink, the rest
    1 - ink (the blits skip them: paper is left as it was). Written a byte at a time through
    memoryview (zero-copy): 475 stores, not 3,800 pixel stores at boot."""
    n = (LAST - FIRST + 1) * WIDTH
    bm = displayio.Bitmap(_W, (n + 3) // 4, 2)
    mv = memoryview(bm)
    for f in range(n):
        mv[f] = FONT[f] if ink else FONT[f] ^ 0xFF
    return bm


class PageDisplay:
    GLYPH_BLIT = True  # fivedice.gfx draws text through glyph() / glyphs() here

    def __init__(self, spi, dc, cs, col=2, width=128, height=64):
        import bitmaptools
        import displayio

        self._fill_region = bitmaptools.fill_region
        self._blit = bitmaptools.blit
        # locked and configured by the caller, kept locked: nothing else uses this bus
        self._spi = spi
        self._write = spi.write
        # DigitalInOut outputs: DC low = command, high = data; CS low while a transfer lasts
        self._dc = dc
        self._cs = cs
        self.col = col
        self.width = width
        self.height = height
        self.pages = height >> 3
        rows = self.pages * 32
        self.back = displayio.Bitmap(_W, rows, 2)
        self.back.fill(0)
        self._mem = memoryview(self.back)
        self._band = len(self._mem) // self.pages  # 128 bytes a page
        self._ink = (_font_pages(displayio, 0), _font_pages(displayio, 1))
        self._cmd = bytearray(3)
        self.pages_sent = 0  # page transfers since start-up
        self.lo = width  # the columns drawn since the last show(): lo..hi-1 (none: lo >= hi)
        self.hi = 0
        self.plo = self.pages  # the pages drawn since the last show(): plo..phi-1
        self.phi = 0
        self._command(INIT)
        for p in range(self.pages):  # a blank screen, whatever the panel held
            self._page(p, 0, width)
        self._cmd[0] = _ON
        self._command(self._cmd, 1)

    # -- the bus --
    def _command(self, buf, n=None):
        self._dc.value = False
        self._cs.value = False
        self._write(buf, end=len(buf) if n is None else n)
        self._cs.value = True

    def _page(self, p, a, b):
        """Send columns a..b-1 of page p from the back buffer."""
        c = a + self.col
        cmd = self._cmd
        cmd[0] = 0xB0 | p
        cmd[1] = c & 0x0F
        cmd[2] = 0x10 | (c >> 4)
        self._dc.value = False
        self._cs.value = False
        self._write(cmd)
        self._dc.value = True
        o = p * self._band
        self._write(self._mem, start=o + a, end=o + b)
        self._cs.value = True
        self.pages_sent += 1

    # -- the power calls of micropython-lib's ssd1306 (fivedice.power dims and sleeps through them)
    # --
    def contrast(self, level):
        self._cmd[0] = _CONTRAST
        self._cmd[1] = level
        self._command(self._cmd, 2)

    def poweroff(self):
        self._cmd[0] = _OFF
        self._command(self._cmd, 1)

    def poweron(self):
        self._cmd[0] = _ON
        self._command(self._cmd, 1)

    # -- framebuf-style primitives (clipped like MicroPython's framebuf) --
    def fill(self, c):
        self.back.fill(c)
        self.lo = 0
        self.hi = self.width
        self.plo = 0
        self.phi = self.pages

    def _drawn(self, x, x2, y, y2):
        # columns x..x2-1, rows y..y2-1 (y2 > y) drawn: widen what show() sends
        if x < self.lo:
            self.lo = x
        if x2 > self.hi:
            self.hi = x2
        y >>= 3
        if y < self.plo:
            self.plo = y
        y2 = (y2 + 7) >> 3
        if y2 > self.phi:
            self.phi = y2

    def fill_rect(self, x, y, w, h, c):
        x2 = x + w
        y2 = y + h
        if x < 0:
            x = 0
        if y < 0:
            y = 0
        if x2 > self.width:
            x2 = self.width
        if y2 > self.height:
            y2 = self.height
        if x >= x2 or y >= y2:
            return
        self._drawn(x, x2, y, y2)
        fr = self._fill_region
        back = self.back
        p = y >> 3
        while (p << 3) < y2:
            k0 = y - (p << 3) if (p << 3) < y else 0  # the page's rows k0..k1-1
            k1 = y2 - (p << 3) if y2 - (p << 3) < 8 else 8
            r = p << 5
            # whole bytes of whole rows: one region
            if k0 == 0 and k1 == 8 and not (x & 3) and not (x2 & 3):
                fr(back, 0, r + (x >> 2), _W, r + (x2 >> 2), c)
            else:
                for j in range(4):  # the columns x % 4 == j: one run of rows, the same bits in each
                    a = x + ((j - x) & 3)
                    if a < x2:
                        b = x2 - 1 - ((x2 - 1 - j) & 3)
                        fr(back, 8 * j + 8 - k1, r + (a >> 2), 8 * j + 8 - k0, r + (b >> 2) + 1, c)
            p += 1

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    def pixel(self, x, y, c=None):
        if 0 <= x < self.width and 0 <= y < self.height:
            i = (((y >> 3) << 5) + (x >> 2)) * _W + 8 * (x & 3) + 7 - (y & 7)
            if c is None:
                return self.back[i]
            self.back[i] = c
            self._drawn(x, x + 1, y, y + 1)
        return None

    # -- text: a blit per glyph column and page --
    def _glyph(self, ink, skip, code, x, y):
        if code < FIRST or code > LAST:
            code = UNKNOWN
        f = (code - FIRST) * WIDTH
        p = y >> 3
        s = y & 7
        blit = self._blit
        back = self.back
        n = self.pages
        w = self.width
        for col in range(WIDTH):
            xx = x + col
            if 0 <= xx < w:
                sx = 8 * (f & 3)
                sy = f >> 2
                d = 8 * (xx & 3)
                r = xx >> 2
                if 0 <= p < n:  # glyph rows 0..7-s: the page's rows s..7
                    blit(
                        back,
                        ink,
                        d,
                        (p << 5) + r,
                        x1=sx + s,
                        y1=sy,
                        x2=sx + 8,
                        y2=sy + 1,
                        skip_source_index=skip,
                    )
                if s and 0 <= p + 1 < n:  # rows 8-s..7: the next page's rows 0..s-1
                    blit(
                        back,
                        ink,
                        d + 8 - s,
                        ((p + 1) << 5) + r,
                        x1=sx,
                        y1=sy,
                        x2=sx + s,
                        y2=sy + 1,
                        skip_source_index=skip,
                    )
            f += 1

    def glyph(self, code, x, y, c):
        """Draw char code (32..126, else '?') with its top-left at x, y in colour c; paper is
        untouched."""
        if x < self.width and x + WIDTH > 0 and y < self.height and y + 8 > 0:
            self._drawn(x, x + WIDTH, y, y + 8)
            self._glyph(self._ink[c], 1 - c, code, x, y)

    def glyphs(self, s, x, y, c):
        """Draw bytes s on one line from x, y; returns the x after the last char (as gfx.text)."""
        if y < self.height and y + 8 > 0:
            ink = self._ink[c]
            skip = 1 - c
            self._drawn(x, x + len(s) * ADVANCE, y, y + 8)
            w = self.width
            for code in s:
                if -WIDTH < x < w:
                    self._glyph(ink, skip, code, x, y)
                x += ADVANCE
            return x
        return x + len(s) * ADVANCE

    # -- sending --
    def show(self):
        a = self.lo if self.lo > 0 else 0
        b = self.hi if self.hi < self.width else self.width
        p = self.plo if self.plo > 0 else 0
        q = self.phi if self.phi < self.pages else self.pages
        self.lo = self.width
        self.hi = 0
        self.plo = self.pages
        self.phi = 0
        if a >= b:
            return  # nothing drawn: nothing sent
        while p < q:
            self._page(p, a, b)
            p += 1
