"""CircuitPython's board glue while the game runs: the display (BitmapDisplay, drawn by displayio and bitmaptools
in C, not Python loops) and the small run-time callables fdfw.setup_cp hands to the built board."""
# hw.sleep_ms, the shake switch's read, hw.battery, hw.make_sleep, hw.start_watchdog. The light sleep itself
# (fdfw.sleep_cp) loads at the first sleep, the setup (fdfw.setup_cp) is dropped after start-up: a function keeps
# its module's globals, hence the whole module, in the heap, so what only start-up needs stays out of here.
# -- the display ----------------------------------------------------------------------------------------
# BitmapDisplay is a framebuf-style target for fivedice.gfx / oled_view (fill, fill_rect, pixel, rect, hline,
# vline, show). The screen is cut into two 64-column strips, so that a change sends only the strips it touches:
# the back buffer is one displayio.Bitmap 64 wide with the strips stacked (screen x, y is strip x // 64 at
# row y + height * (x // 64)), drawn with bitmaptools.fill_region, text as one bitmaptools.blit per glyph (two
# where it straddles the strips) from a font Bitmap built once here from fivedice.font (gfx takes that path when
# the target says GLYPH_BLIT). Each strip is shown by its own Bitmap in its own single-cell TileGrid, whose
# bitmap's dirty area is what displayio refreshes (shared-module/displayio/TileGrid.c). show() compares the
# back buffer with the strips on screen one 64x8 block at a time (an SSD1306 page of a strip: 8 rows of two
# 32-bit words, 64 contiguous bytes) through memoryviews made at start-up, blits each run of changed blocks
# of a strip to that strip's bitmap and refreshes: displayio converts and sends each strip's dirty area. Every
# primitive widens `lo`..`hi`, the columns drawn since the last show(), and show() blits only those columns
# and skips a strip with none, so a hold (one die, 20 columns) sends 20 columns of each of its three pages.
# Two strips, not four: as many memoryviews as whole
# pages took (the CircuitPython heap is the tight one) and half the areas when the whole width changes. An
# unchanged frame sends nothing. Nothing here allocates per frame.
#
# `display` is a busdisplay.BusDisplay (adafruit_displayio_ssd1306.SSD1306) made with auto_refresh=False.
from fivedice.font import ADVANCE, FIRST, FONT, LAST, UNKNOWN, WIDTH
from fivedice.power import read_mv
from fdfw import idle as _idle

# displayio and bitmaptools' fill_region and blit (C), bound by the first BitmapDisplay (_bind): a build without
# them still gets far enough at start-up (fdfw.setup_cp) to say so, with red pixels and beeps
displayio = _fill_region = _blit = None
_S = 64  # strip width: a row of a 1-bit Bitmap is whole 32-bit words, so a strip's 8-row band is contiguous


def _bind():
    global displayio, _fill_region, _blit
    import bitmaptools
    import displayio as dio

    displayio = dio
    _fill_region = bitmaptools.fill_region
    _blit = bitmaptools.blit


def _font_bitmap(ink):
    """The font as one Bitmap, glyph k at x = 5k: ink pixels = ink, the rest = 1 - ink."""
    n = LAST - FIRST + 1
    bm = displayio.Bitmap(n * WIDTH, 8, 2)
    bm.fill(1 - ink)
    w = n * WIDTH
    for col in range(w):
        bits = FONT[col]
        for row in range(8):
            if bits & (1 << row):
                bm[row * w + col] = ink
    return bm


class BitmapDisplay:
    GLYPH_BLIT = True  # fivedice.gfx draws text through glyph() / glyphs() here

    def __init__(self, display, width=128, height=64):
        if displayio is None:
            _bind()
        self.display = display
        self.width = width
        self.height = height
        ns = (width + _S - 1) // _S  # strips: len(self.front)
        pages = height // 8
        self.back = displayio.Bitmap(_S, height * ns, 2)  # the strips stacked: strip k at rows k * height..
        self.back.fill(0)
        palette = displayio.Palette(2)
        palette[0] = 0x000000
        palette[1] = 0xFFFFFF
        group = displayio.Group()
        self.front = []
        for k in range(ns):
            bm = displayio.Bitmap(_S, height, 2)
            bm.fill(0)
            self.front.append(bm)
            group.append(displayio.TileGrid(bm, pixel_shader=palette, x=k * _S))
        display.root_group = group
        # 64x8 blocks: strip k, page p at k * pages + p (a block is 8 rows of two 32-bit words: 64 bytes)
        band = len(memoryview(self.front[0])) // pages
        mb = memoryview(self.back)
        self._bp = [mb[i * band:(i + 1) * band] for i in range(ns * pages)]
        self._fp = [memoryview(self.front[k])[p * band:(p + 1) * band] for k in range(ns) for p in range(pages)]
        self._ink = (_font_bitmap(0), _font_bitmap(1))  # by colour: text in c is blitted from _ink[c]
        self.blocks_sent = 0  # 64x8 blocks handed to displayio since start-up (whole or in part)
        self.lo = width  # the columns drawn since the last show(): lo..hi-1 (none: lo >= hi)
        self.hi = 0
        display.refresh(target_frames_per_second=None)  # a blank screen, whatever the panel held

    # -- the SSD1306 power calls of micropython-lib's driver (fivedice.power dims and sleeps through them) --
    def contrast(self, level):
        """Contrast 0..255: BusDisplay.brightness sends the SSD1306's 0x81 with int(0xFF * brightness)."""
        self.display.brightness = level / 255

    def poweroff(self):
        self.display.sleep()  # adafruit_displayio_ssd1306: 0xAE, the panel dark, its RAM kept

    def poweron(self):
        self.display.wake()  # 0xAF

    # -- framebuf-style primitives (clipped like MicroPython's framebuf) --
    def fill(self, c):
        self.back.fill(c)
        self.lo = 0
        self.hi = self.width

    def _drawn(self, x, x2):
        # columns x..x2-1 are drawn: widen lo..hi (past a glyph's clipped edge or the screen's is harmless:
        # show() clips to each strip, and columns drawn in neither frame compare equal)
        if x < self.lo:
            self.lo = x
        if x2 > self.hi:
            self.hi = x2

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
        if x < x2 and y < y2:
            self._drawn(x, x2)
            k = x // _S
            o = k * _S  # the strip's first screen column
            d = k * self.height  # and its first row in the back buffer
            while o < x2:  # one fill_region a strip the rectangle touches
                e = o + _S
                _fill_region(self.back, x - o if x > o else 0, y + d, (x2 if x2 < e else e) - o, y2 + d, c)
                o = e
                d += self.height

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
            i = (y + (x // _S) * self.height) * _S + x % _S
            if c is None:
                return self.back[i]
            self.back[i] = c
            self._drawn(x, x + 1)
        return None

    # -- text: one blit per glyph (two across a strip edge) --
    def glyph(self, code, x, y, c):
        """Draw char code (32..126, else '?') with its top-left at x, y in colour c; paper is untouched."""
        if code < FIRST or code > LAST:
            code = UNKNOWN
        sx = (code - FIRST) * WIDTH
        sx2 = sx + WIDTH
        sy = 0
        if x < 0:
            sx -= x
            x = 0
        if y < 0:
            sy = -y
            y = 0
        if sx < sx2 and sy < 8 and x < self.width and y < self.height:
            self._drawn(x, x + WIDTH)
            self._blit(self._ink[c], x, y, sx, sy, sx2, 1 - c)

    def _blit(self, ink, x, y, sx, sy, sx2, skip):
        # font columns sx..sx2-1, rows sy..7 to screen x >= 0, y >= 0 (both on screen), cut at the strip edge,
        # the right edge and the bottom (which a strip's rows do not end at in the back buffer)
        h = self.height
        sy2 = h - y + sy
        if sy2 > 8:
            sy2 = 8
        k = x // _S
        lx = x - k * _S
        by = y + k * h
        if lx + sx2 - sx <= _S:
            _blit(self.back, ink, lx, by, x1=sx, y1=sy, x2=sx2, y2=sy2, skip_source_index=skip)
            return
        m = sx + _S - lx  # the columns left of the edge end at m
        _blit(self.back, ink, lx, by, x1=sx, y1=sy, x2=m, y2=sy2, skip_source_index=skip)
        if (k + 1) * _S < self.width:
            _blit(self.back, ink, 0, by + h, x1=m, y1=sy, x2=sx2, y2=sy2, skip_source_index=skip)

    def glyphs(self, s, x, y, c):
        """Draw bytes s on one line from x, y; returns the x after the last char (as gfx.text)."""
        w = self.width
        if x < 0 or y < 0 or y >= self.height:  # partly off the top/left edge: clip glyph by glyph
            for code in s:
                self.glyph(code, x, y, c)
                x += ADVANCE
            return x
        back = self.back
        ink = self._ink[c]
        skip = 1 - c
        h = self.height
        self._drawn(x, x + len(s) * ADVANCE)
        for code in s:
            if x < w:
                if code < FIRST or code > LAST:
                    code = UNKNOWN
                sx = (code - FIRST) * WIDTH
                lx = x % _S
                if lx <= _S - WIDTH and y + 8 <= h:  # the common case: inside one strip, one blit
                    _blit(back, ink, lx, y + (x // _S) * h, x1=sx, x2=sx + WIDTH, skip_source_index=skip)
                else:
                    self._blit(ink, x, y, sx, 0, sx + WIDTH, skip)
            x += ADVANCE
        return x

    # -- sending --
    def show(self):
        bp = self._bp
        fp = self._fp
        h = self.height
        n = h >> 3  # pages
        lo = self.lo
        hi = self.hi
        sent = False
        for k in range(len(self.front)):
            a = lo - k * _S  # the strip's columns drawn since the last show: a..b-1
            if a < 0:
                a = 0
            b = hi - k * _S
            if b > _S:
                b = _S
            if a >= b:
                continue  # nothing drawn here: nothing changed
            o = k * n
            runs = 0
            p = 0
            while p < n:
                if bp[o + p] == fp[o + p]:
                    p += 1
                    continue
                q = p + 1
                while q < n and bp[o + q] != fp[o + q]:
                    q += 1
                if runs:  # a strip's dirty area is one rectangle: send the run before before this one
                    self.display.refresh(target_frames_per_second=None)
                _blit(self.front[k], self.back, a, p * 8, x1=a, y1=k * h + p * 8, x2=b, y2=k * h + q * 8)
                self.blocks_sent += q - p
                runs += 1
                sent = True
                p = q
        self.lo = self.width
        self.hi = 0
        if sent:
            self.display.refresh(target_frames_per_second=None)


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
