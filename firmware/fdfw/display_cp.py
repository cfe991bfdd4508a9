"""CircuitPython display backend: the app's frames drawn by C code (displayio + bitmaptools), not Python loops."""
# BitmapDisplay is a framebuf-style target for fivedice.gfx / oled_view (fill, fill_rect, pixel, rect, hline,
# vline, show). Drawing goes into a back displayio.Bitmap with bitmaptools.fill_region; text is one
# bitmaptools.blit per glyph from a font Bitmap built once here from fivedice.font (gfx takes that path when
# the target says GLYPH_BLIT). show() compares the back bitmap with the one on screen, 8 rows (one SSD1306
# page) at a time through memoryviews made at start-up, blits each run of changed pages to the front
# bitmap (the one in the TileGrid) and refreshes: displayio sends only that dirty area over I2C. An unchanged
# frame sends nothing. Nothing here allocates per frame.
#
# `display` is a busdisplay.BusDisplay (adafruit_displayio_ssd1306.SSD1306) made with auto_refresh=False.
import bitmaptools
import displayio

from fivedice.font import FIRST, FONT, LAST, WIDTH

_fill_region = bitmaptools.fill_region
_blit = bitmaptools.blit
_ADV = 6  # glyph advance (5 columns + 1 gap), as fivedice.gfx
_QMARK = 63


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
        self.display = display
        self.width = width
        self.height = height
        self.back = displayio.Bitmap(width, height, 2)
        self.front = displayio.Bitmap(width, height, 2)
        self.back.fill(0)
        self.front.fill(0)
        palette = displayio.Palette(2)
        palette[0] = 0x000000
        palette[1] = 0xFFFFFF
        group = displayio.Group()
        group.append(displayio.TileGrid(self.front, pixel_shader=palette))
        display.root_group = group
        # the bitmaps' memory in 8-row bands (rows are whole 32-bit words, so a band is contiguous)
        self.pages = height // 8
        band = len(memoryview(self.back)) // self.pages
        mb = memoryview(self.back)
        mf = memoryview(self.front)
        self._bp = [mb[p * band:(p + 1) * band] for p in range(self.pages)]
        self._fp = [mf[p * band:(p + 1) * band] for p in range(self.pages)]
        self._ink = (_font_bitmap(0), _font_bitmap(1))  # by colour: text in c is blitted from _ink[c]
        self.pages_sent = 0  # pages handed to displayio since start-up
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
            _fill_region(self.back, x, y, x2, y2, c)

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
            if c is None:
                return self.back[y * self.width + x]
            self.back[y * self.width + x] = c
        return None

    # -- text: one blit per glyph --
    def glyph(self, code, x, y, c):
        """Draw char code (32..126, else '?') with its top-left at x, y in colour c; paper is untouched."""
        if code < FIRST or code > LAST:
            code = _QMARK
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
            _blit(self.back, self._ink[c], x, y, x1=sx, y1=sy, x2=sx2, y2=8, skip_source_index=1 - c)

    def glyphs(self, s, x, y, c):
        """Draw bytes s on one line from x, y; returns the x after the last char (as gfx.text)."""
        w = self.width
        if x < 0 or y < 0 or y >= self.height:  # partly off the top/left edge: clip glyph by glyph
            for code in s:
                self.glyph(code, x, y, c)
                x += _ADV
            return x
        back = self.back
        ink = self._ink[c]
        skip = 1 - c
        for code in s:  # the common case, one blit per glyph; blit clips at the right and bottom edges
            if x < w:
                if code < FIRST or code > LAST:
                    code = _QMARK
                sx = (code - FIRST) * WIDTH
                _blit(back, ink, x, y, x1=sx, x2=sx + WIDTH, skip_source_index=skip)
            x += _ADV
        return x

    # -- sending --
    def show(self):
        bp = self._bp
        fp = self._fp
        n = self.pages
        p = 0
        while p < n:
            if bp[p] == fp[p]:
                p += 1
                continue
            q = p + 1
            while q < n and bp[q] != fp[q]:
                q += 1
            _blit(self.front, self.back, 0, p * 8, x1=0, y1=p * 8, x2=self.width, y2=q * 8)
            self.display.refresh(target_frames_per_second=None)
            self.pages_sent += q - p
            p = q
