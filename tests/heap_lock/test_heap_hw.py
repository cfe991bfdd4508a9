"""Heap-lock proofs for the hardware-facing modules (MicroPython unix port only).

Each test builds its objects and warms them up, then runs the hot path with
micropython.heap_lock(): any allocation raises MemoryError. Globals are assigned
before locking and no message is built while locked (a flag is checked after).
Also checks gfx draws pixel-identical frames on the real framebuf and the test fake.
"""
import framebuf

from fakefb import FakeFB

from heaplock import locked
from fivedice import gfx
from fivedice.pixels_view import PixelsView
from fivedice.shake import AccelShake, SwitchShake
from fivedice.sounds import FIVE_KIND, ROLL, SCORE, Sounder

BUF = bytearray(128 * 64 // 8)
FB = framebuf.FrameBuffer(BUF, 128, 64, framebuf.MONO_VLSB)
DICE = bytearray(b"\x01\x02\x03\x04\x05")


def draw_turn_screen():
    FB.fill(0)
    gfx.text(FB, b"Player 1  Roll 2/3", 0, 0, 1)
    gfx.text(FB, b"Full House", 0, 9, 1, 2)
    gfx.number(FB, 1234, 0, 30, 1)
    gfx.number(FB, -56, 40, 30, 1)
    gfx.number_right(FB, 375, 128, 30, 1)
    gfx.text_right(FB, b"Total", 128, 0, 1)
    gfx.text_center(FB, b"shake!", 64, 20, 1)
    for f in range(7):
        gfx.die(FB, f * 18, 40, 16, f, f & 1)
    gfx.dice_row(FB, DICE, 0b10101, 2, 44, 19, 6, True, 5)
    for k in range(8):
        gfx.tumbling_die(FB, 100, 40, 20, k)


def test_gfx_draws_without_allocating():
    draw_turn_screen()  # warm up
    assert locked(draw_turn_screen) == 0


def test_gfx_frame_is_identical_on_real_framebuf_and_fake():
    draw_turn_screen()
    fake = FakeFB(128, 64)
    saved = FB
    globals()["FB"] = fake
    try:
        draw_turn_screen()
    finally:
        globals()["FB"] = saved
    ink = 0
    for y in range(64):
        for x in range(128):
            a = FB.pixel(x, y)
            assert a == fake.get(x, y), (x, y)
            ink += a
    assert ink > 500


SW = SwitchShake()
AC = AccelShake()
LEVELS = bytearray(b"\x01\x00\x01\x01\x00\x00\x01\x00\x01\x01\x01\x00")
XS = (0, 900, 1700, 2300, 2600, 2300, 1700, 900, 0, -900, -1700, -2300, -2600, -2300, -1700, -900)
COUNT = [0]


def shake_loop():
    t = 0x1FFFFF00  # crosses the tick wrap
    starts = 0
    for i in range(600):
        SW.update(LEVELS[i % 12], t)
        AC.update_accel(XS[i & 15], 150, 1000, t)
        if SW.started:
            starts += 1
        if AC.started:
            starts += 1
        t = (t + 10) & 0x1FFFFFFF
    for i in range(100):  # quiet: both stop
        SW.update(1, t)
        AC.update_accel(0, 0, 1000, t)
        t = (t + 10) & 0x1FFFFFFF
    COUNT[0] = starts


def test_shake_updates_do_not_allocate():
    shake_loop()
    SW.reset()
    AC.reset()
    assert locked(shake_loop) == 0
    assert COUNT[0] >= 2 and not SW.shaking and not AC.shaking


class Buzz:
    def __init__(self):
        self.f = 0
        self.n = 0

    def tone(self, f, ms):
        self.f = f
        self.n += 1

    def off(self):
        self.f = 0


BZ = Buzz()
SND = Sounder(BZ)


def sound_loop():
    SND.play(ROLL, 0)
    for t in range(0, 3000, 5):
        if t == 600:
            SND.play(SCORE, t)
        if t == 1200:
            SND.play(FIVE_KIND, t)
        SND.update(t)
    SND.stop()


def test_sounder_does_not_allocate():
    sound_loop()
    BZ.n = 0
    assert locked(sound_loop) == 0
    assert BZ.n > 10 and BZ.f == 0


class Strip:
    def __init__(self, n):
        self.buf = bytearray(3 * n)
        self.shows = 0

    def __setitem__(self, i, c):
        self.buf[3 * i] = c >> 16
        self.buf[3 * i + 1] = (c >> 8) & 255
        self.buf[3 * i + 2] = c & 255

    def show(self):
        self.shows += 1


STRIP = Strip(8)
VIEW = PixelsView(STRIP, 8)
HELD = [0]


def pixels_loop():
    VIEW.set_dice(DICE, 0b00101)
    VIEW.update(0)
    VIEW.tumble(True, 10)
    for t in range(10, 1000, 10):
        VIEW.update(t)
    VIEW.tumble(False, 1000)
    VIEW.update(1000)
    VIEW.celebrate(1010)
    for t in range(1010, 4000, 15):
        VIEW.update(t)
    VIEW.set_dice(DICE, 0b11111)
    VIEW.update(4100)
    VIEW.brightness = 40  # the menu's brightness: the colour table rescaled in place
    VIEW.update(4200)
    VIEW.brightness = 96
    VIEW.update(4300)


def test_pixels_view_does_not_allocate():
    pixels_loop()
    STRIP.shows = 0
    assert locked(pixels_loop) == 0
    assert STRIP.shows > 50


def _allocates():
    COUNT.append([1, 2, 3])


def test_the_lock_really_catches_allocation():
    # negative control: proves the proofs above can fail
    assert locked(_allocates) == 1
