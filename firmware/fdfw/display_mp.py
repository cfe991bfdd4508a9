"""MicroPython display: micropython-lib's SSD1306 driver, sending only the 8-row pages that changed."""
# A full 128x64 frame is 1,025 bytes on the bus, about 23 ms at 400 kHz I2C. PagedSSD1306.show() compares
# each page of the frame buffer with a shadow copy of what the panel holds (memoryviews made once, compared
# in C), and for each run of changed pages sends one command write (column and page window, Co=0) and one
# data write of just those pages; then it copies them to the shadow with FrameBuffer.blit (C). An unchanged
# frame sends nothing. Text is one FrameBuffer.blit per glyph (gfx's GLYPH_BLIT path) from 5x8 FrameBuffers over
# a copy of fivedice.font made at start-up, instead of a fill_rect per run of ink. It allocates nothing per frame.
#
# The driver is `ssd1306` from micropython-lib (`mpremote mip install ssd1306`); only show() is replaced.
import framebuf
from ssd1306 import SSD1306_I2C

from fivedice.font import FIRST, FONT, LAST, WIDTH

_ADV = 6  # glyph advance, as fivedice.gfx
_QMARK = 63


class PagedSSD1306(SSD1306_I2C):
    GLYPH_BLIT = True  # fivedice.gfx draws text through glyph() / glyphs() here

    def init_display(self):
        # runs inside SSD1306.__init__, after self.buffer exists and before its first show()
        w = self.width
        n = self.pages
        self.col0 = 0 if w == 128 else (128 - w) // 2  # narrow panels sit centred in the 128 columns
        self.shadow = bytearray(n * w)
        mv = memoryview(self.buffer)
        ms = memoryview(self.shadow)
        self._page = [mv[p * w:(p + 1) * w] for p in range(n)]
        self._shadow_page = [ms[p * w:(p + 1) * w] for p in range(n)]
        # runs of pages p..q-1 as one buffer each, at index p * (n + 1) + q
        self._runs = [None] * ((n + 1) * (n + 1))
        for p in range(n):
            for q in range(p + 1, n + 1):
                self._runs[p * (n + 1) + q] = mv[p * w:q * w]
        # copying a page is a blit of one GS8 row (a byte per "pixel") into the shadow, seen as n GS8 rows
        self._row = [framebuf.FrameBuffer(self._page[p], w, 1, framebuf.GS8) for p in range(n)]
        self._shadow_fb = framebuf.FrameBuffer(self.shadow, w, n, framebuf.GS8)
        self._cmd = bytearray(b"\x00\x21\x00\x7f\x22\x00\x07")  # Co=0: all command bytes
        # the font: glyph k is FONT's 5 column bytes k*5.. -- exactly a 5x8 MONO_VLSB FrameBuffer
        font = memoryview(bytearray(FONT))
        self._glyph = [framebuf.FrameBuffer(font[k * WIDTH:(k + 1) * WIDTH], WIDTH, 8, framebuf.MONO_VLSB)
                       for k in range(LAST - FIRST + 1)]
        self._inverse = framebuf.FrameBuffer(bytearray(b"\x01\x00"), 2, 1, framebuf.MONO_VLSB)  # 0 -> 1, 1 -> 0
        self._all = True  # the panel's RAM is unknown until the first show()
        self.pages_sent = 0
        super().init_display()

    def glyph(self, code, x, y, c):
        """Draw char code (32..126, else '?') at x, y in colour c; the paper pixels are left as they are."""
        if code < FIRST or code > LAST:
            code = _QMARK
        if c:
            self.blit(self._glyph[code - FIRST], x, y, 0)  # key 0: the paper is transparent
        else:
            self.blit(self._glyph[code - FIRST], x, y, 1, self._inverse)  # ink drawn as 0; key on the mapped paper

    def glyphs(self, s, x, y, c):
        """Draw bytes s on one line from x, y; returns the x after the last char (as gfx.text)."""
        for code in s:
            self.glyph(code, x, y, c)
            x += _ADV
        return x

    def show(self):
        page = self._page
        shadow = self._shadow_page
        n = self.pages
        p = 0
        while p < n:
            if not self._all and page[p] == shadow[p]:
                p += 1
                continue
            q = p + 1
            while q < n and (self._all or page[q] != shadow[q]):
                q += 1
            self._send(p, q)
            p = q
        self._all = False

    def _send(self, p, q):
        cmd = self._cmd
        cmd[2] = self.col0
        cmd[3] = self.col0 + self.width - 1
        cmd[5] = p
        cmd[6] = q - 1
        self.i2c.writeto(self.addr, cmd)
        self.write_data(self._runs[p * (self.pages + 1) + q])
        for k in range(p, q):
            self._shadow_fb.blit(self._row[k], 0, k)
        self.pages_sent += q - p
