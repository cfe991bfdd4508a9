"""CircuitPython's board glue while the game runs: the display (BitmapDisplay, drawn by bitmaptools
in C and sent by busio.I2C straight from its Bitmap; SSD1306, the panel's command bytes) and the
small run-time callables fdfw.setup_cp hands to the built board."""
# hw.sleep_ms, the shake switch's read, hw.battery, hw.make_sleep, hw.start_watchdog. The light sleep itself
# (fdfw.sleep_cp) loads at the first sleep, the setup (fdfw.setup_cp) is dropped after start-up: a function keeps
# its module's globals, hence the whole module, in the heap, so what only start-up needs stays out of here.
# -- the display ---------------------------------------------------------------------------------
# BitmapDisplay is a framebuf-style target for fivedice.gfx / oled_view (fill, fill_rect, pixel,
# rect, hline, vline, show) whose back buffer holds the panel's own bytes, so show() sends memory
# as it is: no displayio display, no per-pixel conversion, no adafruit_displayio_ssd1306.
# - back: a 1-bit displayio.Bitmap 64 wide, 129 tall. CircuitPython keeps a 1-bit Bitmap as rows of
#   32-bit words, values MSB first in each byte, bytes in order (10.2.1 shared-module/displayio/
#   Bitmap.c): a row is 8 bytes; row x + 1 holds screen column x, its byte p the panel's byte of
#   page p (bit k: screen row 8p + k, as MONO_VLSB). Screen pixel (x, y) is bitmap pixel
#   (y ^ 7, x + 1): MSB-first flips the rows inside a page, never the bytes. Row 0 is spare (its
#   last byte is lent to the 0x40).
# - the panel (SSD1306 below) in vertical addressing (0x20 0x01), segment remap 0xA1, COM scan
#   0xC8 (the module upright, as every SSD1306 driver sets it) takes column after column, page 0
#   first, D0 the top row: columns lo..hi-1 are the Bitmap's bytes 8 * (lo + 1) .. 8 * (hi + 1).
# - drawing: bitmaptools.fill_region, one for a rectangle's partial top page, its whole pages and
#   its partial bottom page; pixel() through memoryview(back) (zero-copy, writable); text: one
#   bitmaptools.blit a glyph from a font Bitmap in the same layout (two where not page-aligned).
# - show(): of the columns drawn since the last show() (lo..hi: every primitive widens them), those
#   in 16-column groups that differ from a shadow of the panel (memoryviews made once, compared and
#   copied in C), each run of them in two I2C writes: the column window, then the data straight from
#   the Bitmap's memory (busio.I2C writeto's start/end: no copy), the byte before it lent to the
#   0x40 control byte. A hold sends its die's 20 columns; an unchanged frame sends nothing.
# Nothing here allocates per frame (tests/heap_lock/test_heap_display.py).
from fivedice.compat import const
from fivedice.font import ADVANCE, FIRST, FONT, LAST, UNKNOWN, WIDTH
from fivedice.power import read_mv
from fdfw import idle as _idle

# bitmaptools' fill_region and blit (C), bound by the first BitmapDisplay (_bind): a build without
# them still gets far enough at start-up (fdfw.setup_cp) to say so, with red pixels and beeps
_fill_region = _blit = None
_FONT_W = const(32)  # the font Bitmap's width: glyph k at bits 8 * (k % 4), rows 5 * (k // 4)
_G = const(16)  # columns a compared group (128 bytes): 8 groups, 16 memoryviews (a hold: 1 or 2)


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
        self._win = bytearray(b"\x00\x21\x00\x7f\x22\x00\x07")  # Co=0: columns c0..c1, pages 0..7
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

    def send(self, c0, c1, buf, start, end):
        """Columns c0..c1 (vertical addressing, all pages): their bytes are buf[start:end];
        buf[start - 1] is lent to the data's control byte for the write."""
        w = self._win
        w[2] = c0
        w[3] = c1
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
        self.back = displayio.Bitmap(64, 129, 2)  # row x + 1: screen column x, 8 bytes (see above)
        self._mv = memoryview(self.back)
        # what the panel holds (the back buffer's bytes past row 0): unknown, so unlike any frame
        self._shadow = bytearray(b"\xff" * 1024)
        ms = memoryview(self._shadow)
        n = _G * 8
        self._bg = [self._mv[8 + g * n:8 + (g + 1) * n] for g in range(128 // _G)]
        self._sg = [ms[g * n:(g + 1) * n] for g in range(128 // _G)]
        self._ink = (_font_bitmap(displayio, 0), _font_bitmap(displayio, 1))  # c's text: _ink[c]
        self.cols_sent = 0  # columns sent since start-up
        self.fill(0)
        self.show()  # a blank screen, whatever the panel held
        panel.poweron()

    # -- the SSD1306 power calls of micropython-lib's driver (fivedice.power dims and sleeps through them) --
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
        back = self.back
        x += 1  # bitmap rows
        x2 += 1
        if y & 7:  # a partial top page: rows y..e-1 are bitmap x (e - 1) ^ 7 .. y ^ 7
            e = (y | 7) + 1
            if e > y2:
                e = y2
            _fill_region(back, (e - 1) ^ 7, x, (y ^ 7) + 1, x2, c)
            y = e
        e = y2 & ~7
        if e > y:  # whole pages: the same bitmap x as screen y
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
            i = ((x + 1) << 3) | (y >> 3)
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
        """Draw char code (32..126, else '?') with its top-left at x, y in colour c; paper is untouched."""
        if x <= -WIDTH or x >= 128 or y <= -8 or y >= 64:
            return
        if code < FIRST or code > LAST:
            code = UNKNOWN
        if x < self.lo:
            self.lo = x if x > 0 else 0
        if x + WIDTH > self.hi:
            self.hi = x + WIDTH
        k = code - FIRST
        self._put(self._ink[c], (k & 3) << 3, WIDTH * (k >> 2), x, y, 1 - c)

    def _put(self, ink, sx, r, x, y, skip):
        # font bitmap x sx..sx+7, rows r..r+4 (a glyph) to screen x, y, cut at the left edge
        # (row 0 is the spare one) and at the pages; the right edge cuts itself (no rows past 128)
        r2 = r + WIDTH
        if x < 0:
            r -= x
            x = 0
        x += 1
        m = y & 7
        p = y - m  # the page's first screen row
        if m == 0:
            _blit(self.back, ink, p, x, x1=sx, y1=r, x2=sx + 8, y2=r2, skip_source_index=skip)
            return
        if p >= 0:  # glyph rows 0..7-m: page p's rows m..7
            _blit(self.back, ink, p, x, x1=sx + m, y1=r, x2=sx + 8, y2=r2, skip_source_index=skip)
        if p < 56:  # glyph rows 8-m..7: the next page's rows 0..m-1
            _blit(self.back, ink, p + 16 - m, x, x1=sx, y1=r, x2=sx + m, y2=r2,
                  skip_source_index=skip)

    def glyphs(self, s, x, y, c):
        """Draw bytes s on one line from x, y; returns the x after the last char (as gfx.text)."""
        if x < 0 or y < 0 or y > 56:  # clipped at the left, the top or the bottom: glyph by glyph
            for code in s:
                self.glyph(code, x, y, c)
                x += ADVANCE
            return x
        back = self.back
        ink = self._ink[c]
        skip = 1 - c
        if x < self.lo:
            self.lo = x
        e = x + len(s) * ADVANCE
        if e > self.hi:
            self.hi = e
        m = y & 7
        y2 = y - m + 16 - m  # a glyph across two pages: its lower rows' bitmap x (see _put)
        x += 1  # bitmap rows
        for code in s:
            if x <= 128:
                if code < FIRST or code > LAST:
                    code = UNKNOWN
                code -= FIRST
                r = WIDTH * (code >> 2)
                sx = (code & 3) << 3
                r2 = r + WIDTH
                if m:
                    _blit(back, ink, y - m, x, x1=sx + m, y1=r, x2=sx + 8, y2=r2,
                          skip_source_index=skip)
                    _blit(back, ink, y2, x, x1=sx, y1=r, x2=sx + m, y2=r2, skip_source_index=skip)
                else:
                    _blit(back, ink, y, x, x1=sx, y1=r, x2=sx + 8, y2=r2, skip_source_index=skip)
            x += ADVANCE
        return x - 1

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
        g = lo // _G
        last = (hi - 1) // _G
        while g <= last:
            if bg[g] == sg[g]:
                g += 1
                continue
            q = g + 1
            while q <= last and bg[q] != sg[q]:
                q += 1
            a = g * _G  # groups g..q-1 changed: send their columns drawn, a..b-1
            if a < lo:
                a = lo
            b = q * _G
            if b > hi:
                b = hi
            self.panel.send(a, b - 1, self._mv, (a + 1) << 3, (b + 1) << 3)
            self.cols_sent += b - a
            while g < q:
                sg[g][:] = bg[g]  # the panel holds the group now (columns not drawn were the same)
                g += 1


# -- the run-time callables ------------------------------------------------------------------------------
_SLICE_S = _idle.SLICE_MS / 1000  # fdfw.idle's slices in s, made once: ms / 1000 would box a new float a slice
_QUICK_S = _idle.QUICK_MS / 1000


def sleep_ms(sleep_s):
    """hw.sleep_ms over time.sleep (seconds)."""

    def sleep(ms):
        sleep_s(_SLICE_S if ms == _idle.SLICE_MS else _QUICK_S if ms == _idle.QUICK_MS else ms / 1000)

    return sleep


def value_of(io):
    """read() -> io.value: a DigitalInOut as the plain callable fdfw.shake_input takes."""

    def read():
        return io.value

    return read


def battery(ai, div, ref):
    """hw.battery: the supply in mV from an analogio.AnalogIn behind a 1/div divider, reference ref mV."""
    def mv():
        return read_mv(ai.value, div, ref)

    return mv


def keys(keypad, pins):
    """A keypad.Keys over the buttons' board pins (at start-up, and again after each light sleep)."""
    # 10 ms scans: a bounce of up to ~8 ms holds at most one scan (no double press), a 20 ms tap at least one
    return keypad.Keys(pins, value_when_pressed=False, pull=True, interval=0.010)


def light_sleep(pins, hw, monotonic):
    """hw.make_sleep: light sleep until a button on pin alarms (fdfw.sleep_cp.CPSleep, built at the first sleep:
    the `alarm` module and that code take heap only from then); None on a build without `alarm` or without
    `keypad`. pins: the buttons' board pins, in keypad.Keys order."""

    def make(buttons, feed):
        if not hasattr(buttons, "rebind"):
            return None  # buttons on DigitalInOuts (no keypad): the screen goes dark, the board stays awake
        made = []

        def sleep():
            if not made:
                try:
                    import alarm
                    import alarm.pin  # noqa: F401
                except ImportError:  # no light sleep on this build: the screen is dark, wait for a button
                    made.append(None)
                else:
                    import keypad

                    from fdfw.sleep_cp import CPSleep

                    made.append(CPSleep(alarm, pins, lambda: keys(keypad, pins), buttons, hw, monotonic).sleep)
            if made[0] is None:
                while not buttons.pending():
                    hw.sleep_ms(_idle.SLICE_MS)
                return
            made[0]()

        return sleep

    return make


class _Watchdog:
    """microcontroller.watchdog in RESET mode, with MicroPython's WDT names (feed)."""

    def __init__(self, wd, ms):
        from watchdog import WatchDogMode

        wd.timeout = ms / 1000
        wd.mode = WatchDogMode.RESET
        self.feed = wd.feed
        self._wd = wd

    def stop(self):
        """Stop it for a light sleep. CircuitPython 10 has no WatchDogTimer.deinit() (removed in 10.0.0):
        `mode = None` stops it (the RP2040 can; a port that cannot raises)."""
        self._wd.mode = None


def watchdog_start(wd, hw):
    """hw.start_watchdog(ms): microcontroller.watchdog `wd` started in RESET mode as hw.watchdog (None where the
    port refuses)."""

    def start(ms):
        try:
            hw.watchdog = _Watchdog(wd, ms)
            hw.watchdog_ms = ms
        except (ImportError, NotImplementedError, ValueError):
            hw.watchdog = None
        return hw.watchdog

    return start
