"""CircuitPython's board glue while the game runs: the small run-time callables fdfw.setup_cp hands
to the built board, and BitmapDisplay, the display's drawing, which each panel's own module
subclasses (fdfw.ssd1306_cp or fdfw.sh1106_cp: a board loads only its own)."""
# hw.sleep_ms, the shake switch's read, hw.battery, hw.make_sleep, hw.start_watchdog. The light
# sleep itself (fdfw.sleep_cp) loads at the first sleep, the setup (fdfw.setup_cp) is dropped after
# start-up: a function keeps its module's globals, hence the whole module, in the heap, so what only
# start-up needs stays out of here. BitmapDisplay is here, not in a module of its own, because every
# CircuitPython board draws with it: a module less on the heap.
from struct import pack_into

from fivedice.compat import const
from fivedice import gfx
from fivedice.font import FONT
from fivedice.power import read_mv
from fivedice import loop as _idle



# fivedice.loop.Idle's slices in s, made once: ms / 1000 would box a new float a slice
_SLICE_S = _idle.SLICE_MS / 1000
_QUICK_S = _idle.QUICK_MS / 1000


def sleep_ms(sleep_s):
    """hw.sleep_ms over time.sleep (seconds)."""

    def sleep(ms):
        sleep_s(
            _SLICE_S if ms == _idle.SLICE_MS else _QUICK_S if ms == _idle.QUICK_MS else ms / 1000
        )

    return sleep


def value_of(io):
    """read() -> io.value: a DigitalInOut as the plain callable fdfw.shake_input takes."""

    def read():
        return io.value

    return read


def battery(ai, div, ref):
    """hw.battery: the supply in mV from an analogio.AnalogIn behind a 1/div divider, reference ref
    mV."""
    def mv():
        return read_mv(ai.value, div, ref)

    return mv


def keys(keypad, pins):
    """A keypad.Keys over the buttons' board pins (at start-up, and again after each light sleep).
    """
    # 10 ms scans: a bounce of up to ~8 ms holds at most one scan (no double press), a 20 ms tap at
    # least one
    return keypad.Keys(pins, value_when_pressed=False, pull=True, interval=0.010)


def light_sleep(pins, hw, monotonic):
    """hw.make_sleep: light sleep until a button on pin alarms (fdfw.sleep_cp.CPSleep, built at the
    first sleep: the `alarm` module and that code take heap only from then); None on a build without
    `alarm` or without `keypad`. pins: the buttons' board pins, in keypad.Keys order."""

    def make(buttons, feed):
        if not hasattr(buttons, "rebind"):
            # buttons on DigitalInOuts (no keypad): the screen goes dark, the board stays awake
            return None
        made = []

        def sleep():
            if not made:
                try:
                    import alarm
                    import alarm.pin  # noqa: F401
                # no light sleep on this build: the screen is dark, wait for a button
                except ImportError:
                    made.append(None)
                else:
                    import keypad

                    from fdfw.sleep_cp import CPSleep

                    made.append(
                        CPSleep(
                            alarm, pins, lambda: keys(keypad, pins), buttons, hw, monotonic
                        ).sleep
                    )
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
        """Stop it for a light sleep. CircuitPython 10 has no WatchDogTimer.deinit() (removed in
        10.0.0): `mode = None` stops it (the RP2040 can; a port that cannot raises)."""
        self._wd.mode = None


def watchdog_start(wd, hw):
    """hw.start_watchdog(ms): microcontroller.watchdog `wd` started in RESET mode as hw.watchdog
    (None where the port refuses)."""

    def start(ms):
        try:
            hw.watchdog = _Watchdog(wd, ms)
            hw.watchdog_ms = ms
        except (ImportError, NotImplementedError, ValueError):
            hw.watchdog = None
        return hw.watchdog

    return start


# -- the display --
# BitmapDisplay is a framebuf-style target for fivedice.gfx / oled_view (fill, fill_rect, pixel,
# rect, hline, vline, show) drawn by bitmaptools in C: no displayio display, no per-pixel
# conversion, no display library.
# - back: a 1-bit displayio.Bitmap 32 wide, 258 tall, in two halves of 129 rows: pages 0-3 (rows
#   0-128) and pages 4-7 (rows 129-257). CircuitPython keeps a 1-bit Bitmap as rows of 32-bit words,
#   values MSB first in each byte, bytes in order (10.2.1 shared-module/displayio/Bitmap.c): a row
#   is 4 bytes; row 129 * h + x + 1 holds screen column x's pages 4h..4h+3, its byte b the panel's
#   byte of page 4h + b (bit k: screen row 8 * (4h + b) + k, as MONO_VLSB). Screen pixel (x, y) is
#   bitmap pixel ((y & 31) ^ 7, 129 * (y >> 5) + x + 1): MSB-first flips the rows inside a page,
#   never the bytes. A half's first row is spare (the SSD1306 lends its last byte to the 0x40).
# - drawing: bitmaptools.fill_region, one for a rectangle's partial top page, its whole pages and
#   its partial bottom page (in each half it covers); a black rectangle over all four pages of a
#   half is one run of bytes, zeroed by struct.pack_into (a memset: fill_region writes a pixel at a
#   time, 4.5 ms for a half on the emulated Pico), and one whole page (a title bar) is a byte a
#   column set in a loop (1.2 ms of fill_region), or whole words over blank pages; pixel() through
#   memoryview(back) (zero-copy, writable); text: fivedice.font's column bytes (5 a glyph) OR-ed
#   into the Bitmap's (set where the page is bare), shifted into two pages where a line is not
#   page-aligned.
# - a subclass fills in two hooks: _frame(lo, hi, drawn) sends the columns (lo..hi-1) and the
#   pages (drawn: bit p, page p) drawn since the last show() from memoryview(back) (self._mv) and
#   returns the data bytes it sent (show() calls it; a frame that draws nothing calls nothing);
#   command(op, arg=-1) sends a command byte and its argument (the power calls' codes, the same
#   on both panels). Its __init__ readies the panel, calls BitmapDisplay.__init__ (a blank frame
#   drawn), then show() and poweron().
# Nothing here allocates per frame (tests/heap_lock/test_heap_display.py, test_heap_sh1106.py).

# bitmaptools' fill_region (C), bound by the first BitmapDisplay: a build without it still gets
# far enough at start-up (fdfw.setup_cp) to say so, with red pixels and beeps
_fill_region = None
# fivedice.font's FIRST, LAST, UNKNOWN, WIDTH and ADVANCE as literals: an imported name is a dict
# lookup each time, five a char on the text's hot path (tests/firmware/test_display_backends.py
# checks they agree)
_FIRST = const(32)
_LAST = const(126)
_UNKNOWN = const(63)
_WIDTH = const(5)
_ADVANCE = const(6)
_STEP = const(24)  # a char's advance in the Bitmap's bytes: 6 rows of 4
_one = bytearray(1)  # glyph()'s char, drawn by glyphs()
_R = const(129)  # Bitmap rows a half: a spare row, then a row a screen column
_BAR = b"\xff\x00\x00\x00" * 16  # 16 columns of the top page in ink, the three under it blank
_NUM = const(10)  # number()'s chars at most: a sign and 9 digits
_BIG = const(1000000000)  # 10 ** 9: the first number of 10 digits (a small int on the board)


def _zero(mv, a, n):
    """Bytes a..a+n-1 of mv (n a multiple of 4) set to 0 in C: pack_into pads an empty "s" with
    zeros, and allocates nothing."""
    while n >= 256:
        pack_into("256s", mv, a, b"")
        a += 256
        n -= 256
    while n >= 32:
        pack_into("32s", mv, a, b"")
        a += 32
        n -= 32
    while n:
        pack_into("4s", mv, a, b"")
        a += 4
        n -= 4


# fivedice.gfx's text and numbers as they are before a display takes them over (_own_gfx)
_GFX = (gfx.text, gfx.number, gfx.number_right)


def _own_gfx(d):
    """gfx.text, number and number_right in their place: for display d (the one made last) at scale
    1 they call its glyphs() and number() at once, without gfx's str check and getattr (65 us a
    call on the emulated Pico); anything else goes to gfx's own. What they use is bound as default
    arguments: a closure of more than 5 cells and arguments is called through a heap array."""

    def text(fb, s, x, y, c, scale=1, d=d):
        if fb is d and scale == 1 and type(s) is not str:
            return d.glyphs(s, x, y, c)
        return _GFX[0](fb, s, x, y, c, scale)

    def number(fb, n, x, y, c, scale=1, d=d):
        if fb is d and scale == 1:
            return d.number(n, x, y, c)
        return _GFX[1](fb, n, x, y, c, scale)

    def number_right(fb, n, xr, y, c, scale=1, d=d):
        if fb is d and scale == 1:
            return d.number(n, xr, y, c, True)
        return _GFX[2](fb, n, xr, y, c, scale)

    # (attributes gfx has: its globals do not grow, and its own calls of text() take these too)
    gfx.text = text
    gfx.number = number
    gfx.number_right = number_right


class BitmapDisplay:
    GLYPH_BLIT = True  # fivedice.gfx draws text through glyph() / glyphs() here
    NUMBER_BLIT = True  # and numbers through number()

    def __init__(self, displayio):
        global _fill_region
        if _fill_region is None:
            import bitmaptools

            _fill_region = bitmaptools.fill_region
        self.width = 128
        self.height = 64
        self.back = displayio.Bitmap(32, 2 * _R, 2)  # two halves of 4 pages (see above)
        self._mv = memoryview(self.back)
        # number()'s chars, right-aligned: a sign and up to 9 digits (glyphs() draws from the first)
        self._digits = bytearray(_NUM)
        self._ext = bytearray(8)  # a page's columns from which it is bare (see fill())
        self.bytes_sent = 0  # data bytes sent since start-up
        self.fill(0)  # the first show() blanks the panel, whatever it held
        _own_gfx(self)

    # -- the SSD1306 power calls of micropython-lib's driver (fivedice.power dims and sleeps through
    # them): the SH1106 has the same command codes --
    def contrast(self, level):
        self.command(0x81, level)

    def poweroff(self):
        self.command(0xAE)  # the panel dark, its RAM kept

    def poweron(self):
        self.command(0xAF)

    # -- framebuf-style primitives (clipped like MicroPython's framebuf) --
    def fill(self, c):
        self.back.fill(c)
        self.lo = 0
        self.hi = 128
        # bit p: page p drawn since the last show(); bit 8 + p: page p inked since fill(0) by
        # more than text, else bare: no ink from column _ext[p] on (glyphs() sets its bytes)
        self.pages = 0xFFFF if c else 0xFF
        pack_into("8s", self._ext, 0, b"")

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
        m = (2 << ((y2 - 1) >> 3)) - (1 << (y >> 3))  # pages y >> 3 .. (y2 - 1) >> 3
        self.pages |= m * 257  # (m | m << 8)
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
            if e - y == 32 and not c:  # the half's four pages: bitmap rows x..x2-1, 4 bytes each
                _zero(self._mv, x << 2, (x2 - x) << 2)
            elif e - y == 8:  # one page (a title bar): its byte in each column, not 8 pixels
                mv = self._mv
                v = 255 if c else 0
                i = (x << 2) + (y >> 3)
                end = x2 << 2
                ext = self._ext
                h = 4 if x > _R else 0  # the half's first page
                if c and not y and not (self.pages >> (8 + h)) & 0x0E and not (
                    ext[h + 1] | ext[h + 2] | ext[h + 3]
                ):
                    # the top page in ink over three bare pages (a title bar after fill(0)): whole
                    # words, 16 columns a copy (pack_into: C), 0.1 ms where the bytes take 0.7
                    while i <= end - 64:
                        pack_into("64s", mv, i, _BAR)
                        i += 64
                while i < end:
                    mv[i] = v
                    i += 4
            else:
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
            self.pages |= 257 << (y >> 3)
        return None

    # -- text: fivedice.font's column bytes into the Bitmap's --
    def glyph(self, code, x, y, c):
        """Draw char code (32..126, else '?') with its top-left at x, y in colour c; paper is
        untouched."""
        _one[0] = code
        self.glyphs(_one, x, y, c)

    def glyphs(self, s, x, y, c, a=0):
        """Draw bytes s[a:] on one line from x, y; returns the x after the last char (as gfx.text).
        A glyph is its 5 column bytes of fivedice.font, cut at the screen's edges."""
        e = x + (len(s) - a) * _ADVANCE
        if not y & 7 and 0 <= y < 64 and 0 <= x and e <= 128:
            # a page-aligned line inside the screen (checked first: most text is): each glyph's 5
            # column bytes OR-ed into (or cleared from) the page's byte of 5 Bitmap rows (a char
            # checked as it comes: min() and max() of a line were 60 us a call). On a bare page
            # from x on the bytes are set, not OR-ed: a third less time a char.
            if x < self.lo:
                self.lo = x
            if e > self.hi:
                self.hi = e
            p = y >> 3
            pages = self.pages | 1 << p
            self.pages = pages
            ext = self._ext
            bare = not (pages >> (8 + p)) & 1 and x >= ext[p]
            if e > ext[p]:
                ext[p] = e
            if bare and not c:
                return e  # paper on paper
            mv = self._mv
            f = FONT
            i = ((x + 1 + (_R if p & 4 else 0)) << 2) + (p & 3)
            for o in s:
                if a:  # (number()'s chars before its first)
                    a -= 1
                    continue
                if o != 32:  # a space has no ink (half a line's chars on the scorecard)
                    if o < _FIRST or o > _LAST:
                        o = _UNKNOWN
                    o = o * _WIDTH - _FIRST * _WIDTH
                    if bare:
                        mv[i] = f[o]
                        mv[i + 4] = f[o + 1]
                        mv[i + 8] = f[o + 2]
                        mv[i + 12] = f[o + 3]
                        mv[i + 16] = f[o + 4]
                    elif c:
                        mv[i] |= f[o]
                        mv[i + 4] |= f[o + 1]
                        mv[i + 8] |= f[o + 2]
                        mv[i + 12] |= f[o + 3]
                        mv[i + 16] |= f[o + 4]
                    else:
                        mv[i] &= ~f[o]
                        mv[i + 4] &= ~f[o + 1]
                        mv[i + 8] &= ~f[o + 2]
                        mv[i + 12] &= ~f[o + 3]
                        mv[i + 16] &= ~f[o + 4]
                i += _STEP
            return e
        if y <= -8 or y >= 64 or e <= 0 or x >= 128:
            return e
        if x < self.lo:
            self.lo = x if x > 0 else 0
        if e > self.hi:
            self.hi = e
        # anywhere else (across two pages, or cut at an edge): each column byte shifted into the
        # pages it spans (rows 0..7-m of the glyph into page p's rows m..7, the rest into page
        # p + 1's first rows), the columns off the screen left out
        m = y & 7
        p = y >> 3
        ia = ib = -1  # page p's and page p + 1's byte of screen column 0, where on the screen
        if p >= 0:
            ia = ((1 + (_R if p & 4 else 0)) << 2) + (p & 3)
            self.pages |= 257 << p
        p += 1
        if m and p < 8:
            ib = ((1 + (_R if p & 4 else 0)) << 2) + (p & 3)
            self.pages |= 257 << p
        mv = self._mv
        f = FONT
        for o in s:
            if a:
                a -= 1
                continue
            if o != 32 and -_WIDTH < x < 128:  # (a space: no ink)
                if o < _FIRST or o > _LAST:
                    o = _UNKNOWN
                o = o * _WIDTH - _FIRST * _WIDTH
                if ib >= 0 and ia >= 0 and 0 <= x <= 128 - _WIDTH:  # whole, on two pages
                    i = ia + (x << 2)
                    j = ib + (x << 2)
                    # a column byte shifted: its low byte is page p's, the rest page p + 1's
                    if c:
                        u = f[o] << m
                        mv[i] |= u & 0xFF
                        mv[j] |= u >> 8
                        u = f[o + 1] << m
                        mv[i + 4] |= u & 0xFF
                        mv[j + 4] |= u >> 8
                        u = f[o + 2] << m
                        mv[i + 8] |= u & 0xFF
                        mv[j + 8] |= u >> 8
                        u = f[o + 3] << m
                        mv[i + 12] |= u & 0xFF
                        mv[j + 12] |= u >> 8
                        u = f[o + 4] << m
                        mv[i + 16] |= u & 0xFF
                        mv[j + 16] |= u >> 8
                    else:
                        u = f[o] << m
                        mv[i] &= ~u
                        mv[j] &= ~(u >> 8)
                        u = f[o + 1] << m
                        mv[i + 4] &= ~u
                        mv[j + 4] &= ~(u >> 8)
                        u = f[o + 2] << m
                        mv[i + 8] &= ~u
                        mv[j + 8] &= ~(u >> 8)
                        u = f[o + 3] << m
                        mv[i + 12] &= ~u
                        mv[j + 12] &= ~(u >> 8)
                        u = f[o + 4] << m
                        mv[i + 16] &= ~u
                        mv[j + 16] &= ~(u >> 8)
                else:  # cut at an edge, or on one page: a column at a time
                    for k in range(x, x + _WIDTH):
                        if 0 <= k < 128:
                            u = f[o] << m
                            if ia >= 0:
                                i = ia + (k << 2)
                                if c:
                                    mv[i] |= u & 0xFF
                                else:
                                    mv[i] &= ~u
                            if ib >= 0:
                                i = ib + (k << 2)
                                if c:
                                    mv[i] |= u >> 8
                                else:
                                    mv[i] &= ~(u >> 8)
                        o += 1
            x += _ADVANCE
        return x

    def number(self, n, x, y, c, right=False):
        """Draw int n in decimal from x, y as gfx.number does; returns the x after it. Its chars go
        to glyphs() as one line: gfx's way is a glyph() call, and its checks, a digit. right: x is
        where its advance ends, and the left x is returned (gfx.number_right)."""
        m = -n if n < 0 else n
        pad = m >= _BIG
        if right and pad:  # its width first: the line below draws from the left
            x -= gfx.number_width(n)
            self.number(n, x, y, c)
            return x
        if pad:  # (no score comes near) the digits before the last nine, then those nine
            x = self.number(-(m // _BIG) if n < 0 else m // _BIG, x, y, c)
            m %= _BIG
            n = 0
        d = self._digits
        k = _NUM
        while k > 1:
            k -= 1
            d[k] = 48 + m % 10
            m //= 10
            if not m and not pad:
                break
        if n < 0:
            k -= 1
            d[k] = 45  # '-'
        if right:
            x -= (_NUM - k) * _ADVANCE
            self.glyphs(d, x, y, c, k)
            return x
        return self.glyphs(d, x, y, c, k)

    # -- sending --
    def show(self):
        lo = self.lo
        hi = self.hi
        if hi > 128:
            hi = 128
        drawn = self.pages & 0xFF
        self.lo = 128
        self.hi = 0
        self.pages &= 0xFF00
        if lo < hi:
            self.bytes_sent += self._frame(lo, hi, drawn)
