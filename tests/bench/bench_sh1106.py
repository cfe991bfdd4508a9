"""The MacroPad's SH1106 backend (fdfw.board_cp.BitmapDisplay with fdfw.sh1106_cp.SH1106) against the SSD1306 one
(the same BitmapDisplay with fdfw.ssd1306_cp.SSD1306), the same frames drawn and sent, on the MicroPython unix port:
what each costs a frame.

    micropython tests/bench/bench_sh1106.py        (MICROPYPATH: lib, firmware, tests/firmware/fakes/cp)
    python tests/bench/bench_sh1106.py             (runs the above)

Both draw the same Bitmap the same way; they differ in show(): the SSD1306 compares 32-column groups with its
shadow and sends the changed ones over I2C straight from the Bitmap, the SH1106 gathers each drawn page's bytes
(stride 4) into one bytearray in Python and sends it over SPI. For each frame (a whole turn screen, then a changed
die, then the hint line and the message line drawn again) it prints: the Python time of drawing and show() with
bitmaptools replaced by stubs (unix-port us, fastest of REPS), of it show()'s, the bitmaptools calls and the pixels
they touch, and the bytes sent to the panel: the SH1106's over SPI at 10 MHz (its page and column commands
included: 3 a page); the SSD1306's over I2C at 400 kHz, straight from its Bitmap (its column window and control
bytes included), with I2C_WRITE_US a write. Then an RP2040 estimate with bench_frames.py's constants (K, the C
costs): an estimate, not a measurement (no MacroPad here).
"""
import sys

IS_MPY = sys.implementation.name == "micropython"
REPS = 5
K = 185  # RP2040 us per unix-port us: bench_frames.py's default (docs/benchmarks.md; the fit moves run to run)
C_CALL_US = 3.0  # bench_frames.py's assumed C costs
C_PIXEL_US = 0.3
C_FILL_US = 15.0
SPI_US_PER_BYTE = 0.8  # 10 MHz, 8 bits
I2C_US_PER_BYTE = 22.5  # 400 kHz, 9 bits
I2C_WRITE_US = 30.0  # bench_frames.py's Python a write on the SSD1306's bus
SSD1306_ADDR = 0x3C


def host_main():
    import os
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, MICROPYPATH=":".join(os.path.join(root, p) for p in (
        "lib", "firmware", "tests/firmware/fakes", "tests/firmware/fakes/cp")))
    mp = os.path.join(os.path.dirname(sys.executable), "micropython")
    return subprocess.call([mp, "-X", "heapsize=4M", os.path.abspath(__file__)], env=env)


def mp_main():
    import time

    import bitmaptools
    import displayio

    from fivedice import gfx
    from fdfw import board_cp, sh1106_cp, ssd1306_cp

    def stub_fill_region(bm, x1, y1, x2, y2, v):
        pass

    def stub_fill(bm, v):
        pass

    class SPI:
        def __init__(self):
            self.bytes = 0

        def write(self, buf, *, start=0, end=None):
            self.bytes += (len(buf) if end is None else end) - start

    class I2C:
        """busio.I2C as fdfw.ssd1306_cp uses it: the bytes and the writes it is handed."""

        def __init__(self):
            self.bytes = 0
            self.writes = 0

        def try_lock(self):
            return True

        def unlock(self):
            pass

        def writeto(self, address, buffer, *, start=0, end=None):
            self.bytes += (len(buffer) if end is None else end) - start
            self.writes += 1

    class Pin:
        value = True

    dice = bytearray(b"\x01\x02\x03\x04\x05")

    def whole(fb):
        fb.fill(0)
        gfx.text(fb, b"P1 Yahtzee", 0, 0, 1)
        gfx.number_right(fb, 123, 128, 0, 1)
        gfx.dice_row(fb, dice, 0b00100, 4, 10, 20, 5)
        gfx.text(fb, b"Roll", 0, 34, 1)
        gfx.text(fb, b"Turn 3/13", 68, 34, 1)
        fb.fill_rect(0, 44, 128, 9, 1)
        gfx.text(fb, b"Box already filled", 1, 45, 0)
        gfx.text(fb, b"OK score ^hint v card", 0, 56, 1)

    def hold(fb):
        dice[0] = 7 - dice[0]  # one die changes (1 <-> 6)
        fb.fill_rect(4, 10, 20, 20, 0)
        gfx.die(fb, 4, 10, 20, dice[0], 1)

    def lines(fb):
        fb.fill_rect(0, 34, 128, 30, 0)
        gfx.text(fb, b"Roll", 0, 34, 1)
        gfx.text(fb, b"Turn 4/13", 68, 34, 1)
        gfx.text(fb, b"P1 Chance +23", 0, 45, 1)
        gfx.text(fb, b"1-5 hold  ROLL roll", 0, 56, 1)

    spi = SPI()
    i2c = I2C()
    sh = sh1106_cp.SH1106(spi, Pin(), Pin(), 2, displayio)
    ssd = ssd1306_cp.SSD1306(i2c, SSD1306_ADDR, displayio)
    real = (bitmaptools.fill_region,)
    print("frame       backend  python us (port)  of it show()  C calls  pixels  bytes sent  Pico estimate ms")
    for name, draw in (("whole turn", whole), ("a hold", hold), ("two lines", lines)):
        for label, fb in (("SH1106", sh), ("SSD1306", ssd)):
            # counts: the real (fake) bitmaptools, the frame drawn over the turn screen (the whole one over a blank)
            fb.fill(0) if draw is whole else whole(fb)
            fb.show()
            bitmaptools.reset_counts()
            sent0 = spi.bytes
            i2c0 = i2c.bytes
            writes0 = i2c.writes
            draw(fb)
            fb.show()
            n = bitmaptools.calls["fill_region"] + bitmaptools.calls["blit"]
            px = bitmaptools.pixels[0]
            sent = spi.bytes - sent0
            i2c_sent = i2c.bytes - i2c0
            writes = i2c.writes - writes0
            # time: the Python alone, bitmaptools replaced by stubs (fastest of REPS), and show()'s part of it
            board_cp._fill_region = stub_fill_region
            best = best_show = None
            real_fill = displayio.Bitmap.fill
            for _ in range(REPS):
                fb.fill(0) if draw is whole else None
                fb.show()
                displayio.Bitmap.fill = stub_fill  # C on the board (C_FILL_US), Python in the fake
                t = time.ticks_us()
                draw(fb)
                t1 = time.ticks_us()
                fb.show()
                t2 = time.ticks_us()
                displayio.Bitmap.fill = real_fill
                us = time.ticks_diff(t2, t)
                best = us if best is None or us < best else best
                us = time.ticks_diff(t2, t1)
                best_show = us if best_show is None or us < best_show else best_show
            board_cp._fill_region = real[0]
            if label == "SH1106":
                bus = sent * SPI_US_PER_BYTE
                nbytes = sent
            else:
                bus = i2c_sent * I2C_US_PER_BYTE + writes * I2C_WRITE_US
                nbytes = i2c_sent
            est = (best * K + C_CALL_US * n + C_PIXEL_US * px + (C_FILL_US if draw is whole else 0) + bus) / 1000
            print("%-11s %-8s %16d %13d %8d %7d %11d %17.1f" % (name, label, best, best_show, n, px, nbytes, est))


if __name__ == "__main__":
    if IS_MPY:
        mp_main()
    else:
        sys.exit(host_main())
