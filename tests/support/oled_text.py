"""What the simulated OLED shows: a text in the device's font at x, y, read back pixel by pixel."""
from fivedice import gfx
from fivedice.font import ADVANCE


class Canvas:
    """A blank 128x64 target to draw the expected text on (one byte per pixel)."""

    def __init__(self):
        self.px = bytearray(128 * 64)

    def fill_rect(self, x, y, w, h, c):
        for yy in range(max(0, y), min(64, y + h)):
            for xx in range(max(0, x), min(128, x + w)):
                self.px[yy * 128 + xx] = c

    def pixel(self, x, y, c):
        self.fill_rect(x, y, 1, 1, c)

    def rect(self, x, y, w, h, c):
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)


def pixel(dev, x, y):
    raw = dev.board.display.raw()
    return (raw[(y >> 3) * 128 + x] >> (y & 7)) & 1


def shows(dev, text, x, y, ink=1):
    """The display has exactly `text` (our font) at x, y in colour `ink` on paper `ink ^ 1`."""
    cv = Canvas()
    end = gfx.text(cv, text, x, y, 1)
    for yy in range(y, y + 8):
        for xx in range(x, min(end, 128)):
            want = ink if cv.px[yy * 128 + xx] else ink ^ 1
            if pixel(dev, xx, yy) != want:
                return False
    return True


def shows_right(dev, text, xr, y, ink=1):
    return shows(dev, text, xr - len(text) * ADVANCE, y, ink)
