"""MicroPython's built-in neopixel.NeoPixel as fivedice.pixels_view drives it (px[i] = 0xRRGGBB,
show()): a colour goes straight into the strip's buffer in its ORDER, with no (r, g, b) tuple."""


class MPPixels:
    def __init__(self, np, n):
        self._buf = np.buf  # n x bpp bytes, written by np.write()
        self._order = np.ORDER  # the buffer offsets of r, g, b in a pixel
        self._bpp = np.bpp
        self.show = np.write  # cached bound method: show() allocates nothing
        self.n = n

    def __setitem__(self, i, c):
        b = self._buf
        o = self._order
        i *= self._bpp
        b[i + o[0]] = (c >> 16) & 255
        b[i + o[1]] = (c >> 8) & 255
        b[i + o[2]] = c & 255

    def __len__(self):
        return self.n
