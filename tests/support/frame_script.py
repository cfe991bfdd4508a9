"""Drive the app through a fixed sequence of screens and print each frame's bytes as hex.

Runs unchanged on MicroPython (display: framebuf.FrameBuffer) and CPython (display: adafruit_framebuf),
so tests/lib/screens/test_frame_parity.py can check both runtimes draw the very same pixels.
With the argument `cp` it draws through the CircuitPython backend instead (firmware/fdfw/board_cp.py, ssd1306_cp.py
over the fake displayio/bitmaptools and busio.I2C of tests/firmware/fakes) and prints what the fake SSD1306 shows,
decoded from the bytes it received (its image(): the RAM as the panel's remap commands show it); the path
must then list tests/firmware/fakes/cp, tests/firmware/fakes and firmware.
With `mp` (MicroPython) it draws through firmware/fdfw/board_mp.py's PagedSSD1306 (only the changed 32-column
blocks sent) and prints the fake SSD1306's display RAM; the path must then list tests/firmware/fakes, firmware
and firmware/vendor. The app draws whenever a tick says a frame is due, so the frames between the printed ones
go through the backends too.
"""
import sys

CP = len(sys.argv) > 1 and sys.argv[1] == "cp"
MP = len(sys.argv) > 1 and sys.argv[1] == "mp"

from fivedice import app as A
from fivedice.rng import ScriptedFaces

if CP:
    import board
    import busio
    import displayio
    import fakehw
    from fdfw.ssd1306_cp import SSD1306

    class Shown:
        """What the panel shows, decoded when printed."""

        def __init__(self, oled):
            self.oled = oled

        def __iter__(self):
            return iter(self.oled.image())

    def make_display():
        fakehw.reset()
        oled = fakehw.FakeSSD1306()
        fakehw.devices[0x3C] = oled
        displayio.release_displays()
        d = SSD1306(busio.I2C(board.GP5, board.GP4), 0x3C, displayio)
        d.buf = Shown(oled)  # page layout, as a MONO_VLSB framebuf's
        return d

if MP:
    import fakehw
    from fdfw.board_mp import PagedSSD1306

    class PanelI2C:
        """machine.I2C's two writes, into a fake SSD1306."""

        def __init__(self, panel):
            self.panel = panel

        def writeto(self, addr, buf, stop=True):
            self.panel.write(bytes(buf))

        def writevto(self, addr, vector, stop=True):
            self.panel.write(b"".join([bytes(v) for v in vector]))

    def make_display():
        oled = fakehw.FakeSSD1306()
        d = PagedSSD1306(128, 64, PanelI2C(oled))
        d.buf = oled.frame
        return d

try:
    import framebuf

    class Display(framebuf.FrameBuffer):
        def __init__(self):
            self.buf = bytearray(1024)
            super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)

        def show(self):
            pass

except ImportError:
    import adafruit_framebuf

    class Display(adafruit_framebuf.FrameBuffer):
        def __init__(self):
            self.buf = bytearray(1024)
            super().__init__(self.buf, 128, 64, adafruit_framebuf.MVLSB)

        def show(self):
            pass


def hexbytes(b):
    return "".join("%02x" % x for x in b)


def main():
    d = make_display() if CP or MP else Display()
    app = A.App(d, dice=ScriptedFaces([6, 6, 2, 6, 4, 6, 3, 6, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4]))
    t = 0
    steps = (
        ("menu", ()),
        ("turn", (A.B_OK,)),
        ("rolled", (A.B_ROLL,)),
        ("held", (A.B_HOLD1, A.B_HOLD2, A.B_HOLD4)),
        ("picker", (A.B_ROLL, A.B_OK)),
        ("scored", (A.B_OK,)),
        ("card", (A.B_DOWN,)),
        ("help", (A.B_BACK, A.B_BACK, A.B_UP, A.B_OK)),
    )
    for name, presses in steps:
        for b in presses:
            app.press(b, t)
            for _ in range(100):  # let tumbles land
                t += 10
                if app.tick(t):
                    app.draw()
        app.draw()
        sys.stdout.write(name + " " + hexbytes(d.buf) + "\n")


main()
