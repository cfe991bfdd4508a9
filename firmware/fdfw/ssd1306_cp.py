"""CircuitPython: an SSD1306 OLED on busio.I2C (the Pico's): fdfw.board_cp's BitmapDisplay with
the panel's command bytes, its frames sent by busio.I2C straight from the Bitmap. Loaded only by a
board with that display (fdfw.setup_cp); the MacroPad's is fdfw.sh1106_cp."""
# - the panel in vertical addressing (0x20 0x01), segment remap 0xA1, COM scan 0xC8 (the module
#   upright, as every SSD1306 driver sets it) takes column after column inside the page window
#   (0x22), D0 the top row: half h's columns lo..hi-1, pages 4h..4h+3, are the Bitmap's bytes
#   4 * (129h + lo + 1) .. 4 * (129h + hi + 1) (fdfw.board_cp's layout). A half is the fewest
#   pages a window can take from this memory: a Bitmap row is at least a 32-bit word.
# - _frame(): of the columns drawn since the last show() (lo..hi), those in 32-column groups of a
#   drawn half that differ from a shadow of the panel (memoryviews made once, compared and copied
#   in C), each run of them in two I2C writes: the column and page window, then the data straight
#   from the Bitmap's memory (busio.I2C writeto's start/end: no copy), the byte before it lent to
#   the 0x40 control byte. A hold sends its die's 20 columns of the halves it changes; a hint or a
#   picker's lines the lower half; an unchanged frame sends nothing. Where only one or two pages of
#   a half were drawn (a hint's keep marks, the top half's last page), their bytes are gathered
#   from each column's four into a buffer made once and sent alone: a quarter or half of the bus.
# Nothing here allocates per frame (tests/heap_lock/test_heap_display.py).
from fdfw.board_cp import BitmapDisplay
from fivedice.compat import const

_G = const(32)  # columns a compared group of a half (128 bytes): 8 groups, 8 memoryviews a side
_R = const(129)  # Bitmap rows a half (fdfw.board_cp): a spare row, then a row a screen column

# one Co=0 write: off, vertical addressing, start line 0, no offset, segment remap, COM scan from
# COM63, normal, from RAM, multiplex 64, clock, pre-charge, COM pins, VCOMH, charge pump,
# contrast 255 (then poweron())
_INIT = (b"\x00\xae\x20\x01\x40\xd3\x00\xa1\xc8\xa6\xa4\xa8\x3f\xd5\x80\xd9\xf1\xda\x12\xdb\x40"
         b"\x8d\x14\x81\xff")


class SSD1306(BitmapDisplay):
    """A 128x64 SSD1306 at `addr` on a busio.I2C."""

    def __init__(self, i2c, addr, displayio):
        self._i2c = i2c
        self.addr = addr
        self._win = bytearray(b"\x00\x21\x00\x7f\x22\x00\x07")  # Co=0: columns c0..c1, pages p0..p1
        self._cmd = bytearray(3)  # Co=0 and a command of one or two bytes
        self._tmp = bytearray(1 + 2 * 128)  # the control byte, then up to two pages of 128 columns
        self._command(_INIT, len(_INIT))
        BitmapDisplay.__init__(self, displayio)
        mv = self._mv
        # what the panel holds (a half's 128 columns of 4 bytes, then the other's): unknown, so
        # unlike any frame
        self._shadow = bytearray(b"\xff" * 1024)
        ms = memoryview(self._shadow)
        n = _G * 4
        self._bg = [mv[4 * _R * (g >> 2) + 4 + (g & 3) * n:][:n] for g in range(8)]
        self._sg = [ms[g * n:(g + 1) * n] for g in range(8)]
        self.show()
        self.poweron()

    def _command(self, buf, n):
        i2c = self._i2c
        while not i2c.try_lock():
            pass
        try:
            i2c.writeto(self.addr, buf, end=n)
        finally:
            i2c.unlock()

    def command(self, op, arg=-1):
        """One command, and its argument if arg >= 0 (0x81 contrast, 0xAE off, 0xAF on)."""
        c = self._cmd
        c[1] = op
        c[2] = arg & 0xFF
        self._command(c, 2 if arg < 0 else 3)

    def send(self, c0, c1, p0, p1, buf, start, end):
        """Columns c0..c1, pages p0..p1 (vertical addressing): their bytes are buf[start:end];
        buf[start - 1] is lent to the data's control byte for the write."""
        w = self._win
        w[2] = c0
        w[3] = c1
        w[5] = p0
        w[6] = p1
        i2c = self._i2c
        k = start - 1
        keep = buf[k]
        while not i2c.try_lock():
            pass
        try:
            i2c.writeto(self.addr, w)
            buf[k] = 0x40  # Co=0, D/C#=1: the rest is display data
            i2c.writeto(self.addr, buf, start=k, end=end)
        finally:
            buf[k] = keep
            i2c.unlock()

    def _frame(self, lo, hi, drawn):
        """Send what changed of columns lo..hi-1 of the pages in drawn (bit p: page p); returns the
        data bytes sent."""
        bg = self._bg
        sg = self._sg
        sent = 0
        h = 0  # the half's first group: 0, then 4
        while h < 8:
            g = h + lo // _G
            last = h + (hi - 1) // _G
            d = (drawn >> h) & 0x0F  # the half's pages drawn: j..j+k-1 of its four hold them all
            if not d:  # no page of this half drawn: it is as the panel's
                g = last + 1
            j = 0
            k = 4
            while d and not (d >> j) & 1:
                j += 1
                k -= 1
            while d and not (d >> (j + k - 1)) & 1:
                k -= 1
            if k > 2:  # three pages or four: the half whole, straight from the Bitmap
                j = 0
                k = 4
            while g <= last:
                if bg[g] == sg[g]:
                    g += 1
                    continue
                q = g + 1
                while q <= last and bg[q] != sg[q]:
                    q += 1
                a = (g - h) * _G  # groups g..q-1 changed: send their columns drawn, a..b-1
                if a < lo:
                    a = lo
                b = (q - h) * _G
                if b > hi:
                    b = hi
                r = _R if h else 0
                if k == 4:
                    self.send(a, b - 1, h, h + 3, self._mv, (r + a + 1) << 2, (r + b + 1) << 2)
                else:
                    e = self._gather(((r + a + 1) << 2) + j, ((r + b + 1) << 2) + j, k)
                    self.send(a, b - 1, h + j, h + j + k - 1, self._tmp, 1, e)
                sent += (b - a) * k
                while g < q:
                    sg[g][:] = bg[g]  # the panel holds it now (columns not drawn were the same)
                    g += 1
            h += 4
        return sent

    def _gather(self, i, e, k):
        """Every fourth byte of the Bitmap from i up to e (k = 2: and the byte after each) into
        _tmp from 1 on; returns where they end."""
        t = self._tmp
        mv = self._mv
        o = 1
        if k == 1:
            while i < e:
                t[o] = mv[i]
                o += 1
                i += 4
        else:
            while i < e:
                t[o] = mv[i]
                t[o + 1] = mv[i + 1]
                o += 2
                i += 4
        return o
