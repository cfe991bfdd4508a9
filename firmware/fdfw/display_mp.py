"""MicroPython display: micropython-lib's SSD1306 driver, sending only the 8-row pages that changed.

A full 128x64 frame is 1,025 bytes on the bus, about 23 ms at 400 kHz I2C. PagedSSD1306.show() compares
each page of the frame buffer with a shadow copy of what the panel holds (memoryviews made once, compared
in C), and for each run of changed pages sends one command write (column and page window, Co=0) and one
data write of just those pages; then it copies them to the shadow with FrameBuffer.blit (C). An unchanged
frame sends nothing. It allocates nothing per frame.

The driver is `ssd1306` from micropython-lib (`mpremote mip install ssd1306`); only show() is replaced.
"""
import framebuf
from ssd1306 import SSD1306_I2C


class PagedSSD1306(SSD1306_I2C):
    def init_display(self):
        # runs inside SSD1306.__init__, after self.buffer exists and before its first show()
        w = self.width
        n = self.pages
        self.col0 = 0 if w == 128 else (128 - w) // 2  # narrow panels sit centred in the 128 columns
        self.shadow = bytearray(n * w)
        mv = memoryview(self.buffer)
        ms = memoryview(self.shadow)
        self._page = [mv[p * w:(p + 1) * w] for p in range(n)]
        self._shadow_page = [ms[p * w:(p + 1) * w] for p in range(n)]
        # runs of pages p..q-1 as one buffer each, at index p * (n + 1) + q
        self._runs = [None] * ((n + 1) * (n + 1))
        for p in range(n):
            for q in range(p + 1, n + 1):
                self._runs[p * (n + 1) + q] = mv[p * w:q * w]
        # copying a page is a blit of one GS8 row (a byte per "pixel") into the shadow, seen as n GS8 rows
        self._row = [framebuf.FrameBuffer(self._page[p], w, 1, framebuf.GS8) for p in range(n)]
        self._shadow_fb = framebuf.FrameBuffer(self.shadow, w, n, framebuf.GS8)
        self._cmd = bytearray(b"\x00\x21\x00\x7f\x22\x00\x07")  # Co=0: all command bytes
        self._all = True  # the panel's RAM is unknown until the first show()
        self.pages_sent = 0
        super().init_display()

    def show(self):
        page = self._page
        shadow = self._shadow_page
        n = self.pages
        p = 0
        while p < n:
            if not self._all and page[p] == shadow[p]:
                p += 1
                continue
            q = p + 1
            while q < n and (self._all or page[q] != shadow[q]):
                q += 1
            self._send(p, q)
            p = q
        self._all = False

    def _send(self, p, q):
        cmd = self._cmd
        cmd[2] = self.col0
        cmd[3] = self.col0 + self.width - 1
        cmd[5] = p
        cmd[6] = q - 1
        self.i2c.writeto(self.addr, cmd)
        self.write_data(self._runs[p * (self.pages + 1) + q])
        for k in range(p, q):
            self._shadow_fb.blit(self._row[k], 0, k)
        self.pages_sent += q - p
