"""MicroPython's board glue while the game runs: the display (PagedSSD1306, micropython-lib's
SSD1306 driver sending only the blocks that changed), light sleep until a button (MPSleep) and the
run-time callables."""
# fdfw.setup_mp hands the built board hw.battery, hw.make_sleep and hw.start_watchdog from here. The
# setup is dropped after start-up: a function keeps its module's globals, hence the whole module, in
# the heap, so what only start-up needs stays out of here.
# -- the display
# ----------------------------------------------------------------------------------------
# A full 128x64 frame is 1,025 bytes on the bus, about 23 ms at 400 kHz I2C. PagedSSD1306.show()
# compares each page of the frame buffer with a shadow copy of what the panel holds (memoryviews
# made once, compared in C), and in a changed page each 32-column block, so a hold (one die) sends a
# block of each of its pages, not the whole width. Each run of pages whose changed blocks span the
# same columns is one window command (column and page range, Co=0) and one data write per page of
# just those columns; then the pages are copied to the shadow by slice assignment (memcpy). An
# unchanged frame sends nothing. Text (gfx's GLYPH_BLIT path) is fdfw.glyphs_mp's native loop where
# the deploy built it for the board's CPU, else one FrameBuffer.blit per glyph from 5x8 FrameBuffers
# over a copy of fivedice.font made at start-up; either instead of a fill_rect per run of ink. It
# allocates nothing per frame.
#
# The driver is `ssd1306` from micropython-lib (`mpremote mip install ssd1306`); show(), fill() and
# fill_rect() are replaced.
import framebuf
from ssd1306 import SSD1306_I2C

from fivedice import gfx
from fivedice.compat import const, heap_lock, heap_unlock
from fivedice.loop import QUICK_MS as _QUICK_MS
from fivedice.font import ADVANCE, FIRST, FONT, LAST, UNKNOWN, WIDTH
from fivedice.oled_view import DIE
from fivedice.power import read_mv

try:
    # text in native code built for this CPU (firmware/deploy.py NATIVE): a tenth of a blit's time
    from fdfw.glyphs_mp import number as _number, sprite as _sprite, text as _text
except (ImportError, ValueError):  # left out, or a .mpy for another CPU: a blit a glyph
    _number = _sprite = _text = None

_BLOCK = 32  # columns per compared and sent block (a die is 20 wide: one or two blocks)
# fivedice.font's FIRST, LAST, UNKNOWN and ADVANCE, as literals for the glyph paths
# (tests/test_display_backends.py checks them); _MINUS and _DIGIT0: '-' and '0' as indexes into
# _glyph
_FIRST = const(32)
_LAST = const(126)
_UNKNOWN = const(63)
_ADVANCE = const(6)
_MINUS = const(45 - 32)
_DIGIT0 = const(48 - 32)


# fivedice.gfx's text and numbers as they are before a display takes them over (_native_gfx)
_GFX = (gfx.text, gfx.number, gfx.number_right)


def _native_gfx(d):
    """fivedice.gfx.text, number and number_right in their place: for display d (the one made
    last) at scale 1 they call fdfw.glyphs_mp at once, anything else goes to gfx's own. A gfx call
    was 189 us on the emulated Pico, its native drawing 38 (gfx's checks, getattr and the method
    call the rest). Sprites and other FrameBuffers are drawn by gfx as before."""
    # what they use is bound as default arguments, not closed over: MicroPython calls a closure
    # with more than 5 cells and arguments through a heap array (a frame would allocate)
    def text(fb, s, x, y, c, scale=1, d=d, b=d.buffer, w=d.width, h=d.height, t=_text, f=FONT):
        if fb is d and scale == 1 and type(s) is not str:
            return t(b, w, h, f, s, len(s), x, y, c)
        return _GFX[0](fb, s, x, y, c, scale)

    def number(fb, n, x, y, c, scale=1, d=d, b=d.buffer, w=d.width, h=d.height, g=d._digits):
        if fb is d and scale == 1:
            return _number(b, w, h, FONT, g, n, x, y, c, False)
        return _GFX[1](fb, n, x, y, c, scale)

    def number_right(fb, n, xr, y, c, scale=1, d=d, b=d.buffer, w=d.width, h=d.height,
                     g=d._digits):
        if fb is d and scale == 1:
            return _number(b, w, h, FONT, g, n, xr, y, c, True)
        return _GFX[2](fb, n, xr, y, c, scale)

    # (attributes gfx has: its globals do not grow, and its own calls of text() take these too)
    gfx.text = text
    gfx.number = number
    gfx.number_right = number_right


class PagedSSD1306(SSD1306_I2C):
    GLYPH_BLIT = True  # fivedice.gfx draws text through glyph() / glyphs() here
    NUMBER_BLIT = True  # and numbers through number()
    DIE_SPRITES = True  # and a die as one blit of a copy made once (sprite_die / sprite_tumble)

    def init_display(self):
        # runs inside SSD1306.__init__, after self.buffer exists and before its first show()
        w = self.width
        n = self.pages
        # narrow panels sit centred in the 128 columns
        self.col0 = 0 if w == 128 else (128 - w) // 2
        self.shadow = bytearray(n * w)
        mv = memoryview(self.buffer)
        ms = memoryview(self.shadow)
        self._page = [mv[p * w:(p + 1) * w] for p in range(n)]
        self._shadow_page = [ms[p * w:(p + 1) * w] for p in range(n)]
        # a page seen as one GS8 row (a byte a "pixel"): part of it blitted into the data write
        self._row = [framebuf.FrameBuffer(self._page[p], w, 1, framebuf.GS8) for p in range(n)]
        # the buffer as n GS8 rows, a byte a "pixel": whole pages filled a row of bytes at a time
        # (MONO_VLSB fills a pixel row at a time: 8x the work; a frame's fill(0) 1 ms on a Pico)
        self._pages = framebuf.FrameBuffer(self.buffer, w, n, framebuf.GS8)
        # page p's blocks at p * nb + b, in the buffer and in the shadow; a block's span in a page:
        # b0 | b1 << 4
        nb = (w + _BLOCK - 1) // _BLOCK
        self.blocks = nb
        self._blk = [
            mv[p * w + b * _BLOCK : p * w + min(w, (b + 1) * _BLOCK)]
            for p in range(n)
            for b in range(nb)
        ]
        self._shadow_blk = [
            ms[p * w + b * _BLOCK : p * w + min(w, (b + 1) * _BLOCK)]
            for p in range(n)
            for b in range(nb)
        ]
        self._span = bytearray(n)  # per page: 0 unchanged, else first block | (last block + 1) << 4
        # per page: 0, or where unchanged blocks split its span: the first run's end | the second's
        # start << 4 (two windows for a page alone: a hint's marks under dice 1 and 5 are 2 blocks,
        # not 4)
        self._gap = bytearray(n)
        # a data write is one writeto of a buffer made once: 0x40, then the span's columns, put
        # there by a GS8 blit (rp2's writevto joins its buffers in a new heap block every call);
        # blocks b0..b1-1 go as _tx[b0 * (nb + 1) + b1]
        tx = bytearray(1 + w)
        tx[0] = 0x40
        mt = memoryview(tx)
        self._tx_fb = framebuf.FrameBuffer(mt[1:], w, 1, framebuf.GS8)
        self._tx_all = mt[1 : 1 + w]  # a whole-width page goes in by a slice copy (memcpy)
        self._tx = [
            mt[: 1 + min(w, b1 * _BLOCK) - b0 * _BLOCK] if b0 < b1 else None
            for b0 in range(nb)
            for b1 in range(nb + 1)
        ]
        self._cmd = bytearray(b"\x00\x21\x00\x7f\x22\x00\x07")  # Co=0: all command bytes
        self._one = bytearray(1)  # glyph()'s char
        self._digits = bytearray(12)  # number()'s chars: a sign and a 32-bit int's digits
        self._glyph = self._inverse = None
        if _text is None:
            # the font: glyph k is FONT's 5 column bytes k*5.. -- exactly a 5x8 MONO_VLSB
            # FrameBuffer (95 of them, about 4 KB with their memoryviews: only without glyphs_mp)
            font = memoryview(bytearray(FONT))
            mono = framebuf.MONO_VLSB
            self._glyph = [
                framebuf.FrameBuffer(font[k * WIDTH : (k + 1) * WIDTH], WIDTH, 8, mono)
                for k in range(LAST - FIRST + 1)
            ]
            # 0 -> 1, 1 -> 0
            self._inverse = framebuf.FrameBuffer(bytearray(b"\x01\x00"), 2, 1, framebuf.MONO_VLSB)
        else:
            _native_gfx(self)
        # the same buffer as a plain FrameBuffer for the blits: self.blit looks blit up through this
        # class's bases (40 % of a glyph's time on a Pico), self._fb.blit finds it at once
        self._fb = framebuf.FrameBuffer(self.buffer, w, self.height, framebuf.MONO_VLSB)
        # the dice sprites' size (0: not made yet) and colour; _dice[face + 7 * held], _tumble[k]
        self._dsize = 0
        self._dcol = 1
        self._dice = None
        self._tumble = None
        self._all = True  # the panel's RAM is unknown until the first show()
        self.blocks_sent = 0  # 32-column page blocks sent since start-up
        # 0: starting (init_display's blank frame is not sent), 1: the next show() is the app's
        # first frame, 2: after it
        self._first = 0
        super().init_display()
        # dark until the app's first frame is in its RAM (a blank frame first was 29 ms of a boot)
        self.poweroff()
        self._first = 1

    def fill(self, c):
        self._pages.fill(0xFF if c else 0)

    def fill_rect(self, x, y, w, h, c):
        """framebuf's fill_rect, its whole pages filled as bytes (a turn's lower half: 0.6 ->
        0.1 ms on a Pico by the x185 estimate)."""
        p0 = (y + 7) >> 3
        p1 = (y + h) >> 3
        if p1 <= p0:
            self._fb.fill_rect(x, y, w, h, c)
            return
        self._pages.fill_rect(x, p0, w, p1 - p0, 0xFF if c else 0)
        if y < p0 << 3:
            self._fb.fill_rect(x, y, w, (p0 << 3) - y, c)
        if y + h > p1 << 3:
            self._fb.fill_rect(x, p1 << 3, w, y + h - (p1 << 3), c)

    def glyph(self, code, x, y, c):
        """Draw char code (32..126, else '?') at x, y in colour c; the paper pixels are left as they
        are."""
        if _text is not None:
            self._one[0] = code if _FIRST <= code <= _LAST else _UNKNOWN  # (a byte: 300 is '?' too)
            _text(self.buffer, self.width, self.height, FONT, self._one, 1, x, y, c)
            return
        # the font's range as literals: an imported name is a dict lookup each time (a third of a
        # glyph's cost)
        i = code - _FIRST if _FIRST <= code <= _LAST else _UNKNOWN - _FIRST
        if c:
            self._fb.blit(self._glyph[i], x, y, 0)  # key 0: the paper is transparent
        else:
            # ink drawn as 0; key on the mapped paper
            self._fb.blit(self._glyph[i], x, y, 1, self._inverse)

    def glyphs(self, s, x, y, c):
        """Draw bytes s on one line from x, y; returns the x after the last char (as gfx.text).
        One blit a glyph, without a call of glyph() each (a third of the Python a glyph)."""
        if _text is not None:
            return _text(self.buffer, self.width, self.height, FONT, s, len(s), x, y, c)
        if not s:
            return x
        if min(s) < _FIRST or max(s) > _LAST:  # checked once, in C (40 % of a glyph's time)
            for code in s:  # a char outside the font: each checked ('?')
                self.glyph(code, x, y, c)
                x += _ADVANCE
            return x
        g = self._glyph
        fb = self._fb
        if c:
            for code in s:
                fb.blit(g[code - _FIRST], x, y, 0)
                x += _ADVANCE
        else:
            inv = self._inverse
            for code in s:
                fb.blit(g[code - _FIRST], x, y, 1, inv)
                x += _ADVANCE
        return x

    def number(self, n, x, y, c, right=False):
        """Draw int n in decimal from x, y as gfx.number does (a '-' first when negative); returns
        the x after it. A blit a digit, in one call: gfx.number's way is two calls a digit (4x the
        time). right: x is where its advance ends, and the left x is returned (gfx.number_right)."""
        if _number is not None:
            return _number(
                self.buffer, self.width, self.height, FONT, self._digits, n, x, y, c, right
            )
        if right:
            x -= gfx.number_width(n)
            self.number(n, x, y, c)
            return x
        g = self._glyph
        fb = self._fb
        # the key: 0, the paper is transparent; 1 on the mapped paper (ink drawn as 0)
        k = 0 if c else 1
        inv = None if c else self._inverse
        if n < 0:
            fb.blit(g[_MINUS], x, y, k, inv)
            x += _ADVANCE
            n = -n
        p = 1
        while p * 10 <= n:
            p *= 10
        while p:
            d = n // p
            fb.blit(g[_DIGIT0 + d], x, y, k, inv)
            x += _ADVANCE
            n -= d * p
            p //= 10
        return x

    # -- dice: a sprite of each face, held or not, and of each tumbling frame, in one size and
    # colour (gfx draws them into small FrameBuffers: the same pixels); then a die is one blit
    # instead of a dozen fill_rect and pixel calls. Another size or colour: gfx draws it as before.
    def make_sprites(self, size, c=1):
        """The dice's sprites in one size and colour, made after the app's first frame (show()):
        else the first die drawn makes them, in a frame that then allocates."""
        if size == self._dsize and c == self._dcol:
            return  # (a restart after a failure keeps them)
        # 22 sprites of size x size (20: 60 bytes each), drawn through a FrameBuffer each; kept as
        # bytes where glyphs_mp copies them, else as FrameBuffers (about 2.5 KB with their objects)
        rows = (size + 7) // 8 * size
        self._dice = [bytearray(rows) for _ in range(14)]
        self._tumble = [bytearray(rows) for _ in range(8)]
        mono = framebuf.MONO_VLSB
        for k in range(14):
            gfx.die(framebuf.FrameBuffer(self._dice[k], size, size, mono), 0, 0, size, k % 7,
                    k // 7, c)
        for k in range(8):
            gfx.tumbling_die(framebuf.FrameBuffer(self._tumble[k], size, size, mono), 0, 0, size,
                             k, c)
        if _sprite is None or size > 24:  # framebuf's blit copies them (a pixel at a time)
            self._dice = [framebuf.FrameBuffer(b, size, size, mono) for b in self._dice]
            self._tumble = [framebuf.FrameBuffer(b, size, size, mono) for b in self._tumble]
        self._dsize = size
        self._dcol = c

    def sprite_die(self, x, y, size, face, held, c):
        if size != self._dsize or c != self._dcol:
            if self._dsize or size < 4:
                return False
            self.make_sprites(size, c)
        if face < 0 or face > 6:
            return False
        self._copy(self._dice[face + 7 if held else face], x, y, size)
        return True

    def sprite_tumble(self, x, y, size, k, c):
        if size != self._dsize or c != self._dcol:
            if self._dsize or size < 4:
                return False
            self.make_sprites(size, c)
        self._copy(self._tumble[k], x, y, size)
        return True

    def _copy(self, spr, x, y, size):
        """A die's sprite over the frame at x, y: glyphs_mp's native copy of its bytes (a die was
        0.6 ms of framebuf's blit on the emulated Pico), else the blit."""
        if _sprite is not None and size <= 24:  # (24 rows: a column in a machine word)
            _sprite(self.buffer, self.width, self.height, spr, size, size, x, y)
        else:
            self._fb.blit(spr, x, y)

    def show(self):
        # with the heap locked, as App.draw's frame: the call frames take no heap (machine.I2C's
        # writeto allocates nothing); should a bus allocate after all, the rest goes unlocked (the
        # shadow knows which pages went)
        if not self._first:
            return  # (the driver's own blank frame at start: the app's first frame sends it all)
        heap_lock()
        try:
            self._show()
            sent = True
        except MemoryError:
            sent = False
        finally:
            heap_unlock()
        if not sent:
            self._show()
        if self._first == 1:
            # the app's first frame (the menu) is out: the panel on, and the dice sprites now, on
            # the heap as start-up left it, so that no frame of a game makes them
            self._first = 2
            self.poweron()
            self.make_sprites(DIE)

    def _show(self):
        page = self._page
        shadow = self._shadow_page
        blk = self._blk
        sblk = self._shadow_blk
        span = self._span
        gap = self._gap
        n = self.pages
        nb = self.blocks
        full = nb << 4
        for p in range(n):
            gap[p] = 0
            if self._all:
                span[p] = full
            elif page[p] == shadow[p]:
                span[p] = 0
            else:  # the first and last changed block of the page
                o = p * nb
                b0 = 0
                while blk[o + b0] == sblk[o + b0]:
                    b0 += 1
                b1 = nb
                while blk[o + b1 - 1] == sblk[o + b1 - 1]:
                    b1 -= 1
                span[p] = b0 | b1 << 4
                e = b0 + 1  # the first run's end, and unchanged blocks after it: a gap
                while e < b1 and blk[o + e] != sblk[o + e]:
                    e += 1
                if e < b1:
                    g = e + 1
                    while blk[o + g] == sblk[o + g]:
                        g += 1
                    gap[p] = e | g << 4
        p = 0
        while p < n:
            sp = span[p]
            if not sp:
                p += 1
                continue
            q = p + 1
            while q < n and span[q] == sp:
                q += 1
            g = gap[p]
            if g and q == p + 1:
                # a page alone in its span, unchanged blocks inside: two windows (with pages of
                # the same span, as in a whole frame, one window for them all sends less)
                self._send(p, p + 1, sp & 15, g & 15)
                self._send(p, p + 1, g >> 4, sp >> 4)
            else:
                self._send(p, q, sp & 15, sp >> 4)
            p = q
        self._all = False

    def _send(self, p, q, b0, b1):
        """Pages p..q-1, blocks b0..b1-1: one window, then one data write a page (the RAM pointer
        wraps to the window's first column on the next page)."""
        cmd = self._cmd
        w = self.width
        cmd[2] = self.col0 + b0 * _BLOCK
        e = b1 * _BLOCK
        cmd[3] = self.col0 + (e if e < w else w) - 1
        cmd[5] = p
        cmd[6] = q - 1
        self.i2c.writeto(self.addr, cmd)
        tx = self._tx_fb
        out = self._tx[b0 * (self.blocks + 1) + b1]
        x = -b0 * _BLOCK
        whole = b0 == 0 and b1 == self.blocks
        page = self._page
        for k in range(p, q):
            if whole:
                self._tx_all[:] = page[k]  # (memcpy; a blit moves a "pixel" at a time)
            else:
                tx.blit(self._row[k], x, 0)  # the page's columns from block b0, after the 0x40
            self.i2c.writeto(self.addr, out)
            self._shadow_page[k][:] = page[k]
        self.blocks_sent += (q - p) * (b1 - b0)


# -- light sleep (docs/power.md): machine.lightsleep in bounded slices
# --------------------------------------
SLEEP_SLICE_MS = const(100)  # each wake checks the buttons and feeds the watchdog


class MPSleep:
    """MicroPython light sleep until a button: `ring` is the buttons' fdfw.buttons.EdgeRing."""

    def __init__(self, lightsleep, sleep_ms, ring, feed=None, slice_ms=SLEEP_SLICE_MS):
        self._light = lightsleep
        self._sleep_ms = sleep_ms
        self._ring = ring
        self._feed = feed
        self._slice = slice_ms
        self.slices = 0  # light sleep slices so far (tests)
        self.fallback = lightsleep is None

    def sleep(self):
        ring = self._ring
        st = ring.state
        pins = ring.pins
        n = ring.n
        while True:
            if not self.fallback:
                try:
                    self._light(self._slice)
                except (OSError, ValueError, NotImplementedError):
                    # this port cannot light-sleep: plain sleeps (no saving, still correct)
                    self.fallback = True
            if self.fallback:
                self._sleep_ms(self._slice)
            self.slices += 1
            if self._feed is not None:
                self._feed()
            if st[0] != st[1]:
                return  # an edge: the pin IRQ ran on waking
            for k in range(n):
                if not pins[k].value():
                    return  # held down (its edge came while the IRQ could not see it)


# -- the run-time callables
# ------------------------------------------------------------------------------
def edge_sleep(sleep_ms, ring):
    """hw.sleep_ms over time.sleep_ms that a button edge ends (the pins' hard IRQ writes it into
    `ring`, an fdfw.buttons.EdgeRing): the idle loop's quick slices (someone plays) are slept a ms
    at a time, so a press waits up to a ms, not to the slice's end (2.5 ms on average); a longer
    sleep is slept whole."""
    st = ring.state

    def sleep(ms):
        if ms > _QUICK_MS:
            sleep_ms(ms)
            return
        while ms > 0 and st[0] == st[1]:
            sleep_ms(1)
            ms -= 1

    return sleep


def battery(read, div):
    """hw.battery: the supply in mV from read() (ADC.read_u16) behind a 1/div divider."""
    def mv():
        return read_mv(read(), div)

    return mv


def light_sleep(machine, hw):
    """hw.make_sleep: light sleep until a button, machine.lightsleep in bounded slices
    (fdfw.board_mp.MPSleep)."""

    def make(buttons, feed):
        ring = getattr(buttons, "_ring", None)
        if ring is None:
            return None
        return MPSleep(getattr(machine, "lightsleep", None), hw.sleep_ms, ring, feed).sleep

    return make


def watchdog_start(machine, hw):
    """hw.start_watchdog(ms): a machine.WDT as hw.watchdog."""

    def start(ms):
        hw.watchdog = machine.WDT(timeout=ms)
        hw.watchdog_ms = ms
        return hw.watchdog

    return start
