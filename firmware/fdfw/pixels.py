"""MicroPython's built-in neopixel.NeoPixel with the show() that fivedice.pixels_view expects.

(CircuitPython's neopixel.NeoPixel already has show(); create it with auto_write=False,
brightness=1.0.)
"""


class MPPixels:
    def __init__(self, np, n):
        self._np = np
        self.show = np.write  # cached bound method: show() allocates nothing
        self.n = n

    def __setitem__(self, i, rgb):
        self._np[i] = rgb

    def __getitem__(self, i):
        return self._np[i]

    def __len__(self):
        return self.n

    def fill(self, rgb):
        for i in range(self.n):
            self._np[i] = rgb
