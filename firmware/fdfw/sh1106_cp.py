"""CircuitPython: an SH1106 OLED on SPI (the MacroPad's): fdfw.board_cp's BitmapDisplay with
the panel's command bytes, its frames gathered page by page from the Bitmap."""
# The SH1106 has page addressing only (a page: 8 rows, one byte a column, LSB the top row) and a
# 132-column RAM with the 128-column panel from column `col` (2 on the MacroPad). displayio's
# BusDisplay would convert every pixel of a refresh through its palette; here the frame is drawn as
# the SSD1306's (fdfw.board_cp: a Bitmap row a screen column, its 4 bytes 4 pages of a half) and
# sent with raw SPI writes after displayio.release_displays():
# - _frame(): for each page p drawn since the last show(), byte p & 3 of each drawn column's row
#   (lo..hi-1, stride 4) is gathered into one bytearray after the page and column commands (a
#   Python loop: no C call copies with a stride), then one busio.SPI.write of the commands and one
#   of the page. No copy of what the panel holds (1 KB of heap): at 10 MHz a whole page is 0.1 ms
#   of bus. A frame that draws nothing sends nothing.
# Nothing here allocates per frame (tests/heap_lock/test_heap_sh1106.py).
from fdfw.board_cp import BitmapDisplay
from fivedice.compat import const

_R = const(129)  # Bitmap rows a half (fdfw.board_cp): a spare row, then a row a screen column
# the board's own start-up sequence (CircuitPython's adafruit_macropad_rp2040 board.c), display
# off: blanked, then turned on
_INIT = bytes((0xAE, 0xD5, 0x80, 0xA8, 0x3F, 0xD3, 0x00, 0x40, 0x00, 0xAD, 0x8B, 0xA1, 0xC8, 0xDA,
              0x12, 0x81, 0xFF, 0xD9, 0x1F, 0xDB, 0x20, 0x20, 0x20, 0x33, 0xA6, 0xA4))


class SH1106(BitmapDisplay):
    """A 128x64 SH1106 on a busio.SPI (locked and configured by the caller, kept locked: nothing
    else uses this bus), DC and CS DigitalInOut outputs, the panel from RAM column `col`."""

    def __init__(self, spi, dc, cs, col, displayio):
        self._write = spi.write
        # DC low = command, high = data; CS low while a transfer lasts
        self._dc = dc
        self._cs = cs
        self.col = col
        # a command's bytes (0-2), then a page's bytes (column x at 3 + x) gathered from the Bitmap
        self._buf = bytearray(131)
        dc.value = False
        cs.value = False
        self._write(_INIT)
        cs.value = True
        BitmapDisplay.__init__(self, displayio)
        self.show()
        self.poweron()

    def command(self, op, arg=-1):
        """One command byte, and its argument if arg >= 0 (the SSD1306's codes: 0x81 contrast,
        0xAE off, 0xAF on)."""
        c = self._buf
        c[0] = op
        c[1] = arg & 0xFF
        self._dc.value = False
        self._cs.value = False
        self._write(c, end=1 if arg < 0 else 2)
        self._cs.value = True

    def _frame(self, lo, hi, drawn):
        """Send columns lo..hi-1 of the pages in drawn (bit p: page p); returns the data bytes
        sent."""
        mv = self._mv
        buf = self._buf
        write = self._write
        dc = self._dc
        c = lo + self.col
        buf[1] = c & 0x0F  # the column's low and high nibbles, the same for every page
        buf[2] = 0x10 | (c >> 4)
        self._cs.value = False
        n = 0
        p = 0
        while drawn:
            if drawn & 1:
                j = ((_R if p & 4 else 0) + lo + 1) * 4 + (p & 3)  # column lo's byte of page p
                for i in range(lo + 3, hi + 3):
                    buf[i] = mv[j]
                    j += 4
                buf[0] = 0xB0 | p
                dc.value = False
                write(buf, end=3)
                dc.value = True
                write(buf, start=lo + 3, end=hi + 3)
                n += hi - lo
            drawn >>= 1
            p += 1
        self._cs.value = True
        return n
