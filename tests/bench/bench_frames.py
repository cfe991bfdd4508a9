"""Frame benchmark: estimated RP2040 time per frame for each screen, before and after the display work of issue #7.

Run `make bench-frames` (or `python tests/bench/bench_frames.py`): it runs itself under the MicroPython unix port
with the real libraries and the fakes of tests/firmware_fakes, and prints, per screen:

  before, CircuitPython: app.draw() on adafruit_framebuf (pure Python), + a full 1,025-byte frame on I2C
  after,  CircuitPython: app.draw() on fdfw.display_cp.BitmapDisplay (displayio/bitmaptools), whose C
          primitives are replaced by counting stubs for the timing; + an estimate of their C time;
          + the refresh displayio sends (pixels converted, bytes on the bus, counted on the fake SSD1306)
  before, MicroPython: app.draw() on framebuf + a full frame on I2C (the stock ssd1306 show())
  after,  MicroPython: app.draw() on fdfw.display_mp.PagedSSD1306 (framebuf, text as one blit per glyph,
          only the changed pages sent)

Estimation rule: RP2040 time = unix-port time x 185 (range 150-214x: MicroPython's tests/perf_bench on this port vs
the Pico figures in micropython PR #12846). On MicroPython the framebuf C calls are inside the measured time and so
are scaled x185 too (pessimistic). I2C: 9 bits per byte at 400 kHz = 22.5 us per byte (a 1,025-byte frame = 23 ms),
counting each write's address byte. Figures, not tests: nothing here asserts a time.
"""
import sys

IS_MPY = sys.implementation.name == "micropython"

FACTOR = 185
I2C_US_PER_BYTE = 22.5
FULL_FRAME_BYTES = 1025
# Assumed C costs on a 125 MHz RP2040 (CircuitPython's shared-module sources: argument parsing, then a
# per-pixel displayio_bitmap_write_pixel / get_pixel loop; the refresh converts each pixel through the
# TileGrid and Palette and packs it into the SSD1306 byte layout):
C_CALL_US = 3.0  # fill_region / blit / Bitmap.fill / refresh: argument parsing and set-up, per call
C_PIXEL_US = 0.3  # per pixel written by fill_region or visited by blit
C_FILL_US = 15.0  # Bitmap.fill of a 128x64 1-bit bitmap (256 word stores)
C_REFRESH_PIXEL_US = 1.0  # per pixel of the refreshed area
REPS = 100


def host_main():
    import os
    import shutil
    import subprocess
    import tempfile

    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    fakes = os.path.join(root, "tests", "firmware_fakes")
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    deps = tempfile.mkdtemp()
    try:
        from importlib.util import find_spec

        for mod in ("adafruit_framebuf", "adafruit_displayio_ssd1306"):  # found, not imported (Blinka would load)
            shutil.copy(find_spec(mod).origin, deps)
        path = [os.path.join(root, "lib"), os.path.join(fakes, "cp"), fakes, os.path.join(fakes, "mp"),
                os.path.join(root, "firmware"), os.path.join(root, "firmware", "vendor"), deps]
        env = dict(os.environ, MICROPYPATH=":".join(path + [".frozen"]))
        r = subprocess.run([exe, "-X", "heapsize=4M", os.path.abspath(__file__)], env=env, timeout=1800)
        return r.returncode
    finally:
        shutil.rmtree(deps)


# -- on the MicroPython unix port ------------------------------------------------------------------------

def mp_main():
    import framebuf
    from time import ticks_diff, ticks_us

    import adafruit_displayio_ssd1306
    import adafruit_framebuf
    import bitmaptools
    import board
    import busio
    import displayio
    import fakehw
    import i2cdisplaybus
    from fdfw import display_cp
    from fdfw.display_mp import PagedSSD1306
    from fivedice import app as A
    from fivedice.rng import Dice

    class AdaFB(adafruit_framebuf.FrameBuffer):
        def __init__(self):
            self.buf = bytearray(1024)
            super().__init__(self.buf, 128, 64, adafruit_framebuf.MVLSB)

        def show(self):
            pass

    class MpFB(framebuf.FrameBuffer):
        def __init__(self):
            self.buf = bytearray(1024)
            super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)

        def show(self):
            pass

    class CountingFB(framebuf.FrameBuffer):
        """framebuf with every drawing call counted (a separate, untimed pass)."""

        def __init__(self):
            super().__init__(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
            self.n = 0

        def fill(self, c):
            self.n += 1
            super().fill(c)

        def fill_rect(self, x, y, w, h, c):
            self.n += 1
            super().fill_rect(x, y, w, h, c)

        def rect(self, x, y, w, h, c, f=False):
            self.n += 1
            super().rect(x, y, w, h, c, f)

        def hline(self, x, y, w, c):
            self.n += 1
            super().hline(x, y, w, c)

        def vline(self, x, y, h, c):
            self.n += 1
            super().vline(x, y, h, c)

        def pixel(self, x, y, c=None):
            self.n += 1
            return super().pixel(x, y, c)

        def show(self):
            pass

    class CountingPaged(PagedSSD1306):
        """PagedSSD1306 with its framebuf drawing calls (glyph blits included) counted (untimed pass)."""

        n = 0

        def fill(self, c):
            self.n += 1
            super().fill(c)

        def fill_rect(self, x, y, w, h, c):
            self.n += 1
            super().fill_rect(x, y, w, h, c)

        def rect(self, x, y, w, h, c, f=False):
            self.n += 1
            super().rect(x, y, w, h, c, f)

        def hline(self, x, y, w, c):
            self.n += 1
            super().hline(x, y, w, c)

        def vline(self, x, y, h, c):
            self.n += 1
            super().vline(x, y, h, c)

        def pixel(self, x, y, c=None):
            self.n += 1
            return super().pixel(x, y, c)

        def blit(self, *a):
            self.n += 1
            super().blit(*a)

    class CountingI2C:
        def __init__(self):
            self.bytes = 0

        def writeto(self, addr, buf, stop=True):
            self.bytes += len(buf) + 1

        def writevto(self, addr, vector, stop=True):
            self.bytes += 1
            for b in vector:
                self.bytes += len(b)

    def cp_display():
        fakehw.reset()
        oled = fakehw.FakeSSD1306()
        fakehw.devices[0x3C] = oled
        displayio.release_displays()
        bus = i2cdisplaybus.I2CDisplayBus(busio.I2C(board.GP5, board.GP4), device_address=0x3C)
        fb = display_cp.BitmapDisplay(adafruit_displayio_ssd1306.SSD1306(bus, width=128, height=64,
                                                                          auto_refresh=False))
        fb.oled = oled
        return fb

    # stand-ins for the C primitives while timing the Python side of the CircuitPython backend
    stub_calls = [0]

    def stub_fill_region(bitmap, x1, y1, x2, y2, value):
        stub_calls[0] += 1

    def stub_blit(dest, source, x, y, *, x1=0, y1=0, x2=None, y2=None, skip_source_index=None,
                  skip_dest_index=None):
        stub_calls[0] += 1

    class StubBitmap:
        def fill(self, c):
            stub_calls[0] += 1

        def __setitem__(self, i, c):
            stub_calls[0] += 1

        def __getitem__(self, i):
            return 0

    class StubDisplay:
        def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
            stub_calls[0] += 1
            return True

    def timed_draw(app):
        """ms per app.draw() on the unix port: the fastest of REPS (the least disturbed by other processes)."""
        app.draw()
        best = None
        for _ in range(REPS):
            t0 = ticks_us()
            app.draw()
            dt = ticks_diff(ticks_us(), t0)
            if best is None or dt < best:
                best = dt
        return best / 1000

    fills = [0]
    real_fill = displayio.Bitmap.fill

    def counting_fill(self, c):
        fills[0] += 1
        real_fill(self, c)

    def measure_cp(app, fb):
        """One real draw (counted: calls, pixels, refresh, bus bytes), then the timing with stubs."""
        bitmaptools.reset_counts()
        fills[0] = 0
        sent0 = fb.pages_sent
        bus0 = fb.oled.bus_bytes
        refreshes0 = fb.display.refreshes
        displayio.Bitmap.fill = counting_fill
        app.draw()
        displayio.Bitmap.fill = real_fill
        back = fb.back
        calls = bitmaptools.calls["fill_region"] + bitmaptools.calls["blit"] + fills[0]
        refresh_calls = fb.display.refreshes - refreshes0
        pages = fb.pages_sent - sent0
        bus = fb.oled.bus_bytes - bus0
        c_us = (C_CALL_US * (calls + refresh_calls) + C_PIXEL_US * bitmaptools.pixels[0] + C_FILL_US * fills[0]
                + C_REFRESH_PIXEL_US * pages * 128 * 8)
        saved = (display_cp._fill_region, display_cp._blit, fb.display)
        display_cp._fill_region = stub_fill_region
        display_cp._blit = stub_blit
        fb.back = StubBitmap()
        fb.display = StubDisplay()
        try:
            py_ms = timed_draw(app)
        finally:
            display_cp._fill_region, display_cp._blit, fb.display = saved
            fb.back = back
        return {"calls": calls, "blits": bitmaptools.calls["blit"], "fills": bitmaptools.calls["fill_region"],
                "pages": pages, "bus": bus, "py_ms": py_ms, "c_ms": c_us / 1000}

    def entropy(n, state=[12345]):
        out = bytearray(n)
        s = state[0]
        for i in range(n):
            s = (s * 1103515245 + 12345) & 0x7FFFFFFF
            out[i] = s >> 16 & 0xFF
        state[0] = s
        return bytes(out)

    def play(app, t):
        """Step the app through the benchmark's screens; yields (name, t) at each."""
        def run(t, ms):
            end = t + ms
            while t < end:
                app.tick(t)
                t += 10
            return t

        yield "menu", t
        app.press(A.B_OK, t)  # new game
        t = run(t, 50)
        app.press(A.B_ROLL, t)
        t = run(t, 1000)
        app.press(A.B_HOLD1, t)
        app.press(A.B_HOLD4, t)
        yield "turn", t
        app.press(A.B_ROLL, t)
        t = run(t, 60)
        yield "tumble", t  # an animation frame: only the rolling dice change
        t = run(t, 1000)
        app.press(A.B_OK, t)
        yield "picker", t
        app.press(A.B_OK, t)  # score the first box
        t = run(t, 50)
        app.press(A.B_DOWN, t)
        yield "scorecard", t
        app.press(A.B_BACK, t)
        app.press(A.B_BACK, t)
        app.press(A.B_UP, t)
        app.press(A.B_OK, t)
        yield "help", t
        # a whole game by the CPU, for the game-over screen
        app.press(A.B_BACK, t)
        app.kinds[0] = 1
        app.new_game()
        for _ in range(4000):
            t = run(t, 200)
            if app.game.over:
                break
        yield "game over", t

    results = {}
    order = []
    for backend in ("ada", "cp", "mp", "mpcount", "mppaged", "mppagedcount"):
        fb = {"ada": AdaFB, "mp": MpFB, "mpcount": CountingFB}.get(backend)
        i2c = None
        if backend == "cp":
            fb = cp_display()
        elif backend == "mppaged":
            i2c = CountingI2C()
            fb = PagedSSD1306(128, 64, i2c)
        elif backend == "mppagedcount":
            fb = CountingPaged(128, 64, CountingI2C())
        else:
            fb = fb()
        state = [12345]
        app = A.App(fb, dice=Dice(lambda n: entropy(n, state)), cpu_step_ms=40)
        for name, t in play(app, 0):
            if backend == "ada":
                order.append(name)
                results[name] = {"ada_ms": timed_draw(app)}
            elif backend == "cp":
                results[name]["cp"] = measure_cp(app, fb)
            elif backend == "mp":
                results[name]["mp_ms"] = timed_draw(app)
            elif backend in ("mpcount", "mppagedcount"):
                fb.n = 0
                app.draw()
                results[name][backend] = fb.n
            else:
                b0 = i2c.bytes
                app.draw()
                results[name]["mp_bus"] = i2c.bytes - b0
                results[name]["mppaged_ms"] = timed_draw(app)  # repeats send nothing: the draw + compare

    full_i2c = FULL_FRAME_BYTES * I2C_US_PER_BYTE / 1000
    print("Estimated RP2040 time per frame (ms) = unix-port time x %d (150-214x: MicroPython tests/perf_bench on"
          % FACTOR)
    print("  this port vs the Pico figures in micropython PR #12846) + assumed C time + I2C at 400 kHz")
    print("  (%.1f us/byte incl. address bytes; a full %d-byte frame = %.1f ms). C assumptions (CircuitPython):"
          % (I2C_US_PER_BYTE, FULL_FRAME_BYTES, full_i2c))
    print("  %.0f us per call, %.1f us per pixel written/blitted, %.0f us per Bitmap.fill, %.1f us per refreshed pixel."
          % (C_CALL_US, C_PIXEL_US, C_FILL_US, C_REFRESH_PIXEL_US))
    print("The CircuitPython 'after' bytes are what displayio sends when this screen replaces the previous one")
    print("(tumble: one animation frame after the turn screen); an unchanged redraw sends 0 bytes.")
    print("")
    print("CircuitPython            | before: adafruit_framebuf      | after: displayio backend")
    print("screen      | unix ms | py ms x185 + I2C = total | calls (fill/blit) py ms x185 + C ms + bytes I2C ms"
          " = total")
    for name in order:
        r = results[name]
        before = r["ada_ms"] * FACTOR
        c = r["cp"]
        py = c["py_ms"] * FACTOR
        i2c_ms = c["bus"] * I2C_US_PER_BYTE / 1000
        print("%-11s | %7.3f | %6.1f + %4.1f = %6.1f | %3d (%3d/%3d) %6.1f + %4.1f + %4d B %4.1f = %6.1f" % (
            name, r["ada_ms"], before, full_i2c, before + full_i2c, c["calls"], c["fills"], c["blits"], py,
            c["c_ms"], c["bus"], i2c_ms, py + c["c_ms"] + i2c_ms))
    print("")
    print("MicroPython   | before: framebuf, fill_rect text, full frame | after: PagedSSD1306, glyph blits, changed pages")
    print("screen      | calls | unix ms | x185 + I2C = total | calls | unix ms | x185 + bytes I2C ms = total")
    for name in order:
        r = results[name]
        before = r["mp_ms"] * FACTOR
        after = r["mppaged_ms"] * FACTOR
        i2c_ms = r["mp_bus"] * I2C_US_PER_BYTE / 1000
        print("%-11s | %5d | %7.3f | %5.1f + %4.1f = %5.1f | %5d | %7.3f | %5.1f + %4d B %4.1f = %5.1f" % (
            name, r["mpcount"], r["mp_ms"], before, full_i2c, before + full_i2c, r["mppagedcount"],
            r["mppaged_ms"], after, r["mp_bus"], i2c_ms, after + i2c_ms))
    return 0


if __name__ == "__main__":
    sys.exit(mp_main() if IS_MPY else host_main())
