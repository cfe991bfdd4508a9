"""Heap-lock proof for the main loop every port runs (fivedice.loop.Loop and Idle) on the MicroPython unix port:
a pass allocates nothing, with a board's button mask, a queue of taps (the page's), two shake sensors, the idle
wait, the watchdog feed and a light sleep with its wake. The inputs here are allocation-free fakes; the board's
own readers are proved with the real firmware (tests/firmware/test_firmware.py, the "heap" scenario)."""
import micropython

from fivedice.loop import Idle, Loop

MASKS = bytearray(b"\x00\x21\x00\x00\x02\x00\x80\x00")  # a pass's press mask, in turn
TAPS = bytearray(b"\x05\x00\x07\x07\x02")  # a queue's taps, as they came
EVENTS = bytearray(b"\x00\x01\x00\x00\x02\x00")  # a sensor's update: 1 started, 2 stopped (-1), 0 nothing


class App:
    def __init__(self, alloc=False):
        self.presses = 0
        self.shakes = 0
        self.frames = 0
        self.n = 0
        self.off = False
        self.wakes = 0
        self.alloc = alloc

    def press(self, b, now):
        self.presses += 1
        if self.alloc:
            self.last = [b]  # allocates: the harness must catch it
        return 0

    def shake(self, on, now):
        self.shakes += 1

    def tick(self, now):
        self.n += 1
        if self.n % 50 == 25:
            self.off = True  # the sleep timer ran out
        return self.n % 3 == 0

    def draw(self):
        self.frames += 1

    def wait_ms(self, now, most=1000):
        return 7

    def asleep(self):
        return self.off

    def wake(self, now):
        self.off = False
        self.wakes += 1


class Buttons:
    def __init__(self):
        self.i = 0

    def poll(self):
        self.i += 1
        return MASKS[self.i % len(MASKS)]

    def down(self):
        return 0

    def wait_ms(self):
        return 5

    def pending(self):
        return False


class Taps:
    def __init__(self):
        self.i = 0
        self.n = 0  # taps waiting

    def poll(self):
        if not self.n:
            return 0
        self.n -= 1
        self.i += 1
        return 1 << TAPS[self.i % len(TAPS)]

    def more(self):
        return self.n > 0

    def down(self):
        return 0

    def wait_ms(self):
        return 5

    def pending(self):
        return self.n > 0


class Sensor:
    def __init__(self, k):
        self.i = k

    def update(self, now):
        self.i += 1
        e = EVENTS[self.i % len(EVENTS)]
        return -1 if e == 2 else e

    def wait_ms(self, now):
        return 9

    def changed(self):
        return False


T = [0]
SLEEPS = [0, 0, 0]  # idle ms, light sleeps, feeds


def ticks_ms():
    T[0] += 5
    return T[0]


def sleep_ms(ms):
    SLEEPS[0] += ms


def light_sleep():
    SLEEPS[1] += 1
    T[0] += 1000


def feed():
    SLEEPS[2] += 1


def _passes(lp, taps, n):
    """n passes; a burst of three taps every fourth (inside a frame, as a page delivers them)."""
    for i in range(n):
        if taps is not None and i % 4 == 0:
            taps.n = 3
        lp.step()


def _run(app, buttons, taps):
    sensors = (Sensor(0), Sensor(3))
    idle = Idle(sleep_ms, buttons, sensors[0], feed).idle
    lp = Loop(app, buttons, sensors, ticks_ms, idle, feed, light_sleep)
    _passes(lp, taps, 60)  # warm up
    before = (app.presses, app.shakes, app.frames, app.wakes, SLEEPS[0], SLEEPS[1])
    micropython.heap_lock()
    try:
        _passes(lp, taps, 300)
    finally:
        micropython.heap_unlock()
    return before


def test_a_board_pass_allocates_nothing():
    app = App()
    before = _run(app, Buttons(), None)
    # the locked passes did press, shake, draw, wait, sleep and wake
    assert app.presses > before[0] and app.shakes > before[1] and app.frames > before[2]
    assert app.wakes > before[3] and SLEEPS[0] > before[4] and SLEEPS[1] > before[5]


def test_a_pass_over_a_queue_of_taps_allocates_nothing():
    app = App()
    taps = Taps()
    before = _run(app, taps, taps)
    assert app.presses >= before[0] + 3 * 50 and app.shakes > before[1]


def test_the_harness_catches_an_allocation():
    app = App()
    lp = Loop(app, Buttons(), None, ticks_ms)
    _passes(lp, None, 10)
    app.alloc = True
    caught = False
    micropython.heap_lock()
    try:
        _passes(lp, None, 20)
    except MemoryError:
        caught = True
    finally:
        micropython.heap_unlock()
    assert caught
