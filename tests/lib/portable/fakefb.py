"""A tiny pure-Python framebuf stand-in for the core tests (CPython has no `framebuf`).

One byte per pixel, clipped like MicroPython's framebuf; counts the calls it gets.
"""


class FakeFB:
    def __init__(self, width=128, height=64):
        self.width = width
        self.height = height
        self.buf = bytearray(width * height)
        self.calls = 0

    def fill(self, c):
        self.calls += 1
        for i in range(len(self.buf)):
            self.buf[i] = c

    def pixel(self, x, y, c=None):
        if 0 <= x < self.width and 0 <= y < self.height:
            if c is None:
                return self.buf[y * self.width + x]
            self.calls += 1
            self.buf[y * self.width + x] = c
        return None

    def fill_rect(self, x, y, w, h, c):
        self.calls += 1
        for yy in range(max(0, y), min(self.height, y + h)):
            for xx in range(max(0, x), min(self.width, x + w)):
                self.buf[yy * self.width + xx] = c

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

    def get(self, x, y):
        return self.buf[y * self.width + x]

    def count(self, c=1):
        n = 0
        for v in self.buf:
            if v == c:
                n += 1
        return n

    def rows(self, x, y, w, h):
        """The region as a list of strings, '#' for ink, '.' for paper."""
        out = []
        for yy in range(y, y + h):
            line = ""
            for xx in range(x, x + w):
                line += "#" if self.get(xx, yy) else "."
            out.append(line)
        return out

    def bbox(self, c=1):
        """(x0, y0, x1, y1) inclusive bounding box of pixels equal to c, or None."""
        x0 = y0 = 1 << 20
        x1 = y1 = -1
        for yy in range(self.height):
            for xx in range(self.width):
                if self.buf[yy * self.width + xx] == c:
                    if xx < x0:
                        x0 = xx
                    if xx > x1:
                        x1 = xx
                    if yy < y0:
                        y0 = yy
                    if yy > y1:
                        y1 = yy
        if x1 < 0:
            return None
        return (x0, y0, x1, y1)
