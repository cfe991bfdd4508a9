"""CircuitPython: the NeoPixels as fivedice.pixels_view drives them (px[i] = 0xRRGGBB, show()),
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

    def __setitem__(self, i, c):
        b = self.buf
        i *= 3
        b[i] = (c >> 8) & 255
        b[i + 1] = (c >> 16) & 255
        b[i + 2] = c & 255

    def show(self):
        self._write(self._pin, self.buf)
