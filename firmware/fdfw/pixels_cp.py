"""CircuitPython: the NeoPixels as fivedice.pixels_view drives them (px[i] = (r, g, b), show()),
written from one bytearray by the core module neopixel_write: no neopixel library and no
adafruit_pixelbuf object in the heap."""
# The bytes go out in the WS2812B's order, G R B a pixel, as neopixel.NeoPixel (brightness 1.0)
# sends them.


class CPPixels:
    """write: neopixel_write.neopixel_write; pin: a DigitalInOut output; n: pixels on the strip."""

    def __init__(self, write, pin, n):
        self._write = write
        self._pin = pin
        self.n = n
        self.buf = bytearray(3 * n)

    def __len__(self):
        return self.n

    def __setitem__(self, i, rgb):
        b = self.buf
        i *= 3
        b[i] = rgb[1]
        b[i + 1] = rgb[0]
        b[i + 2] = rgb[2]

    def __getitem__(self, i):
        b = self.buf
        i *= 3
        return (b[i + 1], b[i], b[i + 2])

    def fill(self, rgb):
        for i in range(self.n):
            self[i] = rgb

    def show(self):
        self._write(self._pin, self.buf)
