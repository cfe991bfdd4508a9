"""CircuitPython: an SSD1306 OLED on busio.I2C (the Pico's) drawn in a Bitmap laid out as the
panel's own bytes: BitmapDisplay (drawn by bitmaptools in C, sent by busio.I2C straight from its
Bitmap) and SSD1306 (the panel's command bytes). Loaded only by a board with that display
(fdfw.setup_cp); the MacroPad's is fdfw.sh1106_cp."""
# BitmapDisplay is a framebuf-style target for fivedice.gfx / oled_view (fill, fill_rect, pixel,
# rect, hline, vline, show) whose back buffer holds the panel's own bytes, so show() sends memory
# as it is: no displayio display, no per-pixel conversion, no adafruit_displayio_ssd1306.
# - back: a 1-bit displayio.Bitmap 32 wide, 258 tall, in two halves of 129 rows: pages 0-3 (rows
#   0-128) and pages 4-7 (rows 129-257). CircuitPython keeps a 1-bit Bitmap as rows of 32-bit words,
#   values MSB first in each byte, bytes in order (10.2.1 shared-module/displayio/Bitmap.c): a row
#   is 4 bytes; row 129 * h + x + 1 holds screen column x's pages 4h..4h+3, its byte b the panel's
#   byte of page 4h + b (bit k: screen row 8 * (4h + b) + k, as MONO_VLSB). Screen pixel (x, y) is
#   bitmap pixel ((y & 31) ^ 7, 129 * (y >> 5) + x + 1): MSB-first flips the rows inside a page,
#   never the bytes. A half's first row is spare (its last byte is lent to the 0x40).
# - the panel (SSD1306 below) in vertical addressing (0x20 0x01), segment remap 0xA1, COM scan
#   0xC8 (the module upright, as every SSD1306 driver sets it) takes column after column inside the
#   page window (0x22), D0 the top row: half h's columns lo..hi-1, pages 4h..4h+3, are the Bitmap's
#   bytes 4 * (129h + lo + 1) .. 4 * (129h + hi + 1). A half is the fewest pages a window can take
#   from this memory: a Bitmap row is at least a 32-bit word.
# - drawing: bitmaptools.fill_region, one for a rectangle's partial top page, its whole pages and
#   its partial bottom page (in each half it covers); pixel() through memoryview(back) (zero-copy,
#   writable); text: one bitmaptools.blit a glyph from a font Bitmap in the same layout (two where
#   not page-aligned).
# - show(): of the columns drawn since the last show() (lo..hi: every primitive widens them), those
#   in 32-column groups of a half that differ from a shadow of the panel (memoryviews made once,
#   compared and copied in C), each run of them in two I2C writes: the column and page window, then
#   the data straight from the Bitmap's memory (busio.I2C writeto's start/end: no copy), the byte
#   before it lent to the 0x40 control byte. A hold sends its die's 20 columns of the halves it
#   changes; a hint or a picker's lines the lower half; an unchanged frame sends nothing.
# Nothing here allocates per frame (tests/heap_lock/test_heap_display.py).
from fivedice.compat import const
from fivedice.font import ADVANCE, FIRST, FONT, LAST, UNKNOWN, WIDTH

# bitmaptools' fill_region and blit (C), bound by the first BitmapDisplay (_bind): a build without
# them still gets far enough at start-up (fdfw.setup_cp) to say so, with red pixels and beeps
_fill_region = _blit = None
_one = bytearray(1)  # glyph()'s char, drawn by glyphs()
_FONT_W = const(32)  # the font Bitmap's width: glyph k at bits 8 * (k % 4), rows 5 * (k // 4)
_G = const(32)  # columns a compared group of a half (128 bytes): 8 groups, 8 memoryviews a side
_R = const(129)  # Bitmap rows a half: a spare row, then a row a screen column


def _bind():
    global _fill_region, _blit
    import bitmaptools

    _fill_region = bitmaptools.fill_region
    _blit = bitmaptools.blit


# -- the panel: every SSD1306 command byte is here --
# one Co=0 write: off, vertical addressing, start line 0, no offset, segment remap, COM scan from
# COM63, normal, from RAM, multiplex 64, clock, pre-charge, COM pins, VCOMH, charge pump,
# contrast 255 (then poweron())
_INIT = (b"\x00\xae\x20\x01\x40\xd3\x00\xa1\xc8\xa6\xa4\xa8\x3f\xd5\x80\xd9\xf1\xda\x12\xdb\x40"
         b"\x8d\x14\x81\xff")


class SSD1306:
    """A 128x64 SSD1306 at `addr` on a busio.I2C: the init, column windows, contrast, power."""

    def __init__(self, i2c, addr):
        self._i2c = i2c
        self.addr = addr
        self._win = bytearray(b"\x00\x21\x00\x7f\x22\x00\x07")  # Co=0: columns c0..c1, pages p0..p1
        self._cmd = bytearray(3)  # Co=0 and a command of one or two bytes
        self._command(_INIT, len(_INIT))

    def _command(self, buf, n):
        i2c = self._i2c
        while not i2c.try_lock():
            pass
        try:
            i2c.writeto(self.addr, buf, end=n)
        finally:
            i2c.unlock()

    def _op(self, op, arg=-1):
        c = self._cmd
        c[1] = op
        c[2] = arg & 0xFF
        self._command(c, 2 if arg < 0 else 3)

    def send(self, c0, c1, p0, p1, buf, start, end):
        """Columns c0..c1, pages p0..p1 (vertical addressing): their bytes are buf[start:end];
        buf[start - 1] is lent to the data's control byte for the write."""
        w = self._win
        w[2] = c0
        w[3] = c1
        w[5] = p0
        w[6] = p1
        i2c = self._i2c
        k = start - 1
        keep = buf[k]
        while not i2c.try_lock():
            pass
        try:
            i2c.writeto(self.addr, w)
            buf[k] = 0x40  # Co=0, D/C#=1: the rest is display data
            i2c.writeto(self.addr, buf, start=k, end=end)
        finally:
            buf[k] = keep
            i2c.unlock()

    def contrast(self, level):
        self._op(0x81, level)

    def poweroff(self):
        self._op(0xAE)  # the panel dark, its RAM kept

    def poweron(self):
        self._op(0xAF)


def _font_bitmap(displayio, ink):
    """The font in the back buffer's layout: glyph k's column i at row 5 * (k // 4) + i, byte k % 4
    (fivedice's column byte as it is); ink pixels = ink, the rest 1 - ink (blits skip them:
    the paper is left as it was)."""
    n = LAST - FIRST + 1
    bm = displayio.Bitmap(_FONT_W, WIDTH * ((n + 3) >> 2), 2)
    bm.fill(1 - ink)
    mv = memoryview(bm)
    for k in range(n):
        for i in range(WIDTH):
            b = FONT[k * WIDTH + i]
            mv[(WIDTH * (k >> 2) + i) * 4 + (k & 3)] = b if ink else b ^ 0xFF
    return bm


class BitmapDisplay:
    GLYPH_BLIT = True  # fivedice.gfx draws text through glyph() / glyphs() here

    def __init__(self, panel, displayio):
        if _blit is None:
            _bind()
        self.panel = panel
        self.width = 128
        self.height = 64
        self.back = displayio.Bitmap(32, 2 * _R, 2)  # two halves of 4 pages (see above)
        self._mv = memoryview(self.back)
        # what the panel holds (a half's 128 columns of 4 bytes, then the other's): unknown, so
        # unlike any frame
        self._shadow = bytearray(b"\xff" * 1024)
        ms = memoryview(self._shadow)
        n = _G * 4
        self._bg = [self._mv[4 * _R * (g >> 2) + 4 + (g & 3) * n:][:n] for g in range(8)]
        self._sg = [ms[g * n:(g + 1) * n] for g in range(8)]
        self._ink = (_font_bitmap(displayio, 0), _font_bitmap(displayio, 1))  # c's text: _ink[c]
        self.bytes_sent = 0  # data bytes sent since start-up
        self.fill(0)
        self.show()  # a blank screen, whatever the panel held
        panel.poweron()

    # -- the SSD1306 power calls of micropython-lib's driver (fivedice.power dims and sleeps through
    # them) --
    def contrast(self, level):
        self.panel.contrast(level)

    def poweroff(self):
        self.panel.poweroff()

    def poweron(self):
        self.panel.poweron()

    # -- framebuf-style primitives (clipped like MicroPython's framebuf) --
    def fill(self, c):
        self.back.fill(c)
        self.lo = 0
        self.hi = 128

    def fill_rect(self, x, y, w, h, c):
        x2 = x + w
        y2 = y + h
        if x < 0:
            x = 0
        if y < 0:
            y = 0
        if x2 > 128:
            x2 = 128
        if y2 > 64:
            y2 = 64
        if x >= x2 or y >= y2:
            return
        if x < self.lo:
            self.lo = x
        if x2 > self.hi:
            self.hi = x2
        x += 1  # bitmap rows
        x2 += 1
        if y >= 32:  # the lower half: its rows from 0
            x += _R
            x2 += _R
            y -= 32
            y2 -= 32
        elif y2 > 32:  # across both halves: the lower half's part first, then the upper's
            self.fill_rect(x - 1, 32, x2 - x, y2 - 32, c)
            y2 = 32
        back = self.back
        if y & 7:  # a partial top page: rows y..e-1 are bitmap x (e - 1) ^ 7 .. y ^ 7
            e = (y | 7) + 1
            if e > y2:
                e = y2
            _fill_region(back, (e - 1) ^ 7, x, (y ^ 7) + 1, x2, c)
            y = e
        e = y2 & ~7
        if e > y:  # whole pages: the same bitmap x as the half's screen y
            _fill_region(back, y, x, e, x2, c)
            y = e
        if y < y2:  # a partial bottom page
            _fill_region(back, (y2 - 1) ^ 7, x, (y ^ 7) + 1, x2, c)

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
        if 0 <= x < 128 and 0 <= y < 64:
            i = ((x + 1 + (_R if y & 32 else 0)) << 2) | ((y >> 3) & 3)
            b = 1 << (y & 7)
            mv = self._mv
            if c is None:
                return 1 if mv[i] & b else 0
            if c:
                mv[i] |= b
            else:
                mv[i] &= ~b & 0xFF
            if x < self.lo:
                self.lo = x
            if x >= self.hi:
                self.hi = x + 1
        return None

    # -- text: one blit per glyph, two where it is not page-aligned --
    def glyph(self, code, x, y, c):
        """Draw char code (32..126, else '?') with its top-left at x, y in colour c; paper is
        untouched."""
        _one[0] = code
        self.glyphs(_one, x, y, c)

    def glyphs(self, s, x, y, c):
        """Draw bytes s on one line from x, y; returns the x after the last char (as gfx.text).
        A glyph is font bitmap x sx..sx+7, rows r..r+4, cut at the screen's edges (a half's row 0
        is the spare one; the upper half's rows stop at 128) and at the pages."""
        e = x + len(s) * ADVANCE
        if y <= -8 or y >= 64 or e <= 0 or x >= 128:
            return e
        if x < self.lo:
            self.lo = x if x > 0 else 0
        if e > self.hi:
            self.hi = e
        back = self.back
        ink = self._ink[c]
        skip = 1 - c
        m = y & 7
        p = y - m  # the first page's first screen row: glyph rows 0..7-m are its rows m..7
        up = p >= 0
        ya = p & 31
        ra = (_R if p & 32 else 0) + 1  # bitmap row - screen x
        p += 8  # glyph rows 8-m..7: the next page's rows 0..m-1
        down = m and p < 64
        yb = (p & 31) + 8 - m
        rb = (_R if p & 32 else 0) + 1
        for code in s:
            if -WIDTH < x < 128:
                if code < FIRST or code > LAST:
                    code = UNKNOWN
                code -= FIRST
                r = WIDTH * (code >> 2)
                sx = (code & 3) << 3
                r2 = r + WIDTH
                d = x
                if d < 0:
                    r -= d
                    d = 0
                elif d > 128 - WIDTH:
                    r2 -= d + WIDTH - 128
                if up:
                    _blit(back, ink, ya, d + ra, x1=sx + m, y1=r, x2=sx + 8, y2=r2,
                          skip_source_index=skip)
                if down:
                    _blit(back, ink, yb, d + rb, x1=sx, y1=r, x2=sx + m, y2=r2,
                          skip_source_index=skip)
            x += ADVANCE
        return x

    # -- sending --
    def show(self):
        lo = self.lo
        hi = self.hi
        if hi > 128:
            hi = 128
        self.lo = 128
        self.hi = 0
        if lo >= hi:
            return
        bg = self._bg
        sg = self._sg
        h = 0  # the half's first group: 0, then 4
        while h < 8:
            g = h + lo // _G
            last = h + (hi - 1) // _G
            while g <= last:
                if bg[g] == sg[g]:
                    g += 1
                    continue
                q = g + 1
                while q <= last and bg[q] != sg[q]:
                    q += 1
                a = (g - h) * _G  # groups g..q-1 changed: send their columns drawn, a..b-1
                if a < lo:
                    a = lo
                b = (q - h) * _G
                if b > hi:
                    b = hi
                r = _R if h else 0
                self.panel.send(a, b - 1, h, h + 3, self._mv, (r + a + 1) << 2,
                                (r + b + 1) << 2)
                self.bytes_sent += (b - a) << 2
                while g < q:
                    sg[g][:] = bg[g]  # the panel holds it now (columns not drawn were the same)
                    g += 1
            h += 4
