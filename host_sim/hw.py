"""Simulated board for host_sim (CPython only): clock, pins, buttons, display, pixels, buzzer.

Driving time: adafruit_debouncer reads the clock through `adafruit_ticks.ticks_ms`,
which it imported by name (`from adafruit_ticks import ticks_ms`), so the name to
replace is `adafruit_debouncer.ticks_ms` (and `adafruit_ticks.ticks_ms` for anything
else that calls it). SimClock.install() replaces both with its own `ticks_ms`;
time then moves only when you call clock.advance(ms):

    clock = SimClock()
    with clock:                      # install() ... uninstall()
        board = SimButtons(("hold1", "roll"), bounce=3)
        board.buttons["roll"].press()
        for _ in range(6):
            clock.advance(5)
            pressed = board.poll()   # bitmask of buttons whose press was debounced now

Buttons are wired like the real board: pulled up, the switch shorts the pin to
ground, so a pressed button reads False (active low) and a press is the debouncer's
`fell`. Each Debouncer keeps its default 10 ms interval.
"""
import os
import random

import adafruit_debouncer
import adafruit_framebuf
import adafruit_pixelbuf
import adafruit_ticks

TICKS_MAX = (1 << 29) - 1
FONT_BIN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib", "fivedice", "font5x8.bin")


class SimClock:
    """Deterministic millisecond clock; install() makes adafruit_ticks/debouncer use it."""

    def __init__(self, start_ms=0):
        self.now = start_ms
        self._saved = None

    def ticks_ms(self):
        return self.now & TICKS_MAX

    def advance(self, ms):
        """Move time forward by ms; returns the new tick."""
        self.now += ms
        return self.now & TICKS_MAX

    def install(self):
        if self._saved is None:
            self._saved = (adafruit_ticks.ticks_ms, adafruit_debouncer.ticks_ms)
        adafruit_ticks.ticks_ms = self.ticks_ms
        adafruit_debouncer.ticks_ms = self.ticks_ms
        return self

    def uninstall(self):
        if self._saved is not None:
            adafruit_ticks.ticks_ms, adafruit_debouncer.ticks_ms = self._saved
            self._saved = None

    def __enter__(self):
        return self.install()

    def __exit__(self, *exc):
        self.uninstall()


class SimPin:
    """A digital input. `value` reads like digitalio.DigitalInOut.value.

    drive(level) changes the level with contact bounce: the next `bounce` reads
    chatter between the old and new level before it settles. Setting `value`
    directly changes it cleanly.
    """

    def __init__(self, value=True, bounce=0, seed=1):
        self._level = bool(value)
        self._chatter = []
        self.bounce = bounce
        self.reads = 0
        self._rng = random.Random(seed)

    @property
    def value(self):
        self.reads += 1
        if self._chatter:
            return self._chatter.pop(0)
        return self._level

    @value.setter
    def value(self, level):
        self._level = bool(level)
        self._chatter = []

    @property
    def level(self):
        """The settled level (does not count as a read, ignores chatter)."""
        return self._level

    def drive(self, level, bounce=None):
        n = self.bounce if bounce is None else bounce
        level = bool(level)
        old = self._level
        self._level = level
        # first contact reaches the new level, then springs back a random number of
        # times; never longer than n reads
        chatter = []
        cur = level
        for _ in range(n):
            chatter.append(cur)
            if self._rng.random() < 0.7:
                cur = old if cur == level else level
        self._chatter = chatter


class SimButton:
    """An active-low push button: a SimPin (pulled up) under a real adafruit_debouncer.Debouncer."""

    def __init__(self, name, bounce=3, interval=0.010, seed=1):
        self.name = name
        self.pin = SimPin(True, bounce, seed)
        pin = self.pin
        self.debouncer = adafruit_debouncer.Debouncer(lambda: pin.value, interval=interval)

    def press(self, bounce=None):
        self.pin.drive(False, bounce)

    def release(self, bounce=None):
        self.pin.drive(True, bounce)

    def update(self):
        self.debouncer.update()

    @property
    def pressed(self):
        """True for the one update in which a press got through the debouncer."""
        return self.debouncer.fell

    @property
    def released(self):
        return self.debouncer.rose

    @property
    def down(self):
        return not self.debouncer.value


class SimButtons:
    """A set of named buttons; poll() updates every debouncer and returns the pressed
    bitmask (bit i = names[i]), like a board file's button reader."""

    def __init__(self, names, bounce=3, interval=0.010):
        self.names = tuple(names)
        self.buttons = {}
        for i, n in enumerate(self.names):
            self.buttons[n] = SimButton(n, bounce, interval, seed=i + 1)
        self.pressed_mask = 0
        self.released_mask = 0

    def bit(self, name):
        return 1 << self.names.index(name)

    def poll(self):
        pressed = released = 0
        for i, n in enumerate(self.names):
            b = self.buttons[n]
            b.update()
            if b.pressed:
                pressed |= 1 << i
            if b.released:
                released |= 1 << i
        self.pressed_mask = pressed
        self.released_mask = released
        return pressed

    @property
    def down_mask(self):
        m = 0
        for i, n in enumerate(self.names):
            if self.buttons[n].down:
                m |= 1 << i
        return m

    def run(self, clock, ms, poll_ms=5, on_poll=None):
        """Advance clock by ms in poll_ms steps, polling each step; on_poll(pressed, released)
        is called after every poll. Returns the OR of the pressed masks."""
        seen = 0
        t = 0
        while t < ms:
            clock.advance(poll_ms)
            seen |= self.poll()
            if on_poll is not None:
                on_poll(self.pressed_mask, self.released_mask)
            t += poll_ms
        return seen

    def tap(self, name, clock, hold_ms=80, gap_ms=80, poll_ms=5, on_poll=None):
        """Press and release a button the way a person would (with bounce), polling as
        the firmware does. Returns (pressed_mask_seen, released_mask_seen)."""
        pressed = released = 0

        def watch(p, r):
            nonlocal pressed, released
            pressed |= p
            released |= r
            if on_poll is not None:
                on_poll(p, r)

        self.buttons[name].press()
        self.run(clock, hold_ms, poll_ms, watch)
        self.buttons[name].release()
        self.run(clock, gap_ms, poll_ms, watch)
        return pressed, released


class SimDisplay(adafruit_framebuf.FrameBuffer):
    """A 128x64 mono OLED: an adafruit_framebuf.FrameBuffer over an MVLSB bytearray
    (the SSD1306 page layout: byte x + 128 * (y // 8), bit y % 8). show() "sends" the
    frame: it counts frames and keeps a copy of the bytes shown."""

    def __init__(self, width=128, height=64):
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, adafruit_framebuf.MVLSB)
        self.frames = 0
        self.shown = bytes(self.buffer)
        self.contrast_level = 255  # the SSD1306's contrast (0x81), 255 after its init sequence
        self.powered = True  # False after poweroff() (0xAE): the panel is dark, its RAM kept

    # the SSD1306 power calls of micropython-lib's driver (fdfw.board_cp.BitmapDisplay has the same)
    def contrast(self, level):
        self.contrast_level = level

    def poweroff(self):
        self.powered = False

    def poweron(self):
        self.powered = True

    @property
    def state(self):
        """"on", "dim" (contrast lowered) or "off" (panel switched off)."""
        if not self.powered:
            return "off"
        return "dim" if self.contrast_level < 128 else "on"

    def show(self):
        self.frames += 1
        self.shown = bytes(self.buffer)

    def text(self, string, x, y, color, *, font_name=FONT_BIN, size=1):
        """adafruit_framebuf text, defaulting to the fivedice font file."""
        return super().text(string, x, y, color, font_name=font_name, size=size)

    def get(self, x, y, shown=False):
        """Pixel 0/1 of the working buffer, or of the last shown frame."""
        buf = self.shown if shown else self.buffer
        return (buf[(y >> 3) * self.stride + x] >> (y & 7)) & 1

    def raw(self, shown=True):
        """The frame bytes in SSD1306 (MVLSB) layout; what the panel shows: all dark while it is off."""
        if shown and not self.powered:
            return bytes(len(self.shown))
        return bytes(self.shown if shown else self.buffer)

    def rows(self, shown=True):
        """The frame as strings, '#' ink and '.' paper (for snapshots in tests)."""
        return frame_rows(self.raw(shown), self.width, self.height)


def frame_rows(data, width=128, height=64):
    out = []
    for y in range(height):
        base = (y >> 3) * width
        bit = 1 << (y & 7)
        out.append("".join("#" if data[base + x] & bit else "." for x in range(width)))
    return out


class SimPixels(adafruit_pixelbuf.PixelBuf):
    """NeoPixels: the pure-Python PixelBuf whose _transmit keeps the bytes it would send."""

    def __init__(self, n=5, byteorder="GRB", brightness=1.0):
        self.transmits = 0
        self.last = None  # bytes of the last transmission, in wire order
        super().__init__(n, byteorder=byteorder, brightness=brightness, auto_write=False)

    def _transmit(self, buffer):
        self.last = bytes(buffer)
        self.transmits += 1

    def colors(self):
        """The last transmitted colours as [(r, g, b), ...] (all off before any show())."""
        n = len(self)
        if self.last is None:
            return [(0, 0, 0)] * n
        bpp = self.bpp
        r_i, g_i, b_i = self._byteorder[0], self._byteorder[1], self._byteorder[2]
        out = []
        for i in range(n):
            o = i * bpp
            out.append((self.last[o + r_i], self.last[o + g_i], self.last[o + b_i]))
        return out


class SimBuzzer:
    """Records tones: tones is a list of (freq_hz, ms) and events of (tick, freq_hz, ms);
    off() is logged as freq 0."""

    def __init__(self, clock=None):
        self.clock = clock
        self.tones = []
        self.events = []
        self.freq = 0

    def _now(self):
        return self.clock.ticks_ms() if self.clock is not None else 0

    def tone(self, freq, ms):
        self.freq = freq
        self.tones.append((freq, ms))
        self.events.append((self._now(), freq, ms))

    def off(self):
        self.freq = 0
        self.events.append((self._now(), 0, 0))


class SimTilt:
    """A ball/tilt vibration switch being shaken by hand: after shake(ms) its `value`
    flips every period_ms (a stroke) with a little contact chatter, for ms of clock
    time, then rests closed-high. Feed it to fivedice.shake.SwitchShake:
    `det.update(tilt.value, clock.ticks_ms())`."""

    def __init__(self, clock, rest=True):
        self.clock = clock
        self.rest = bool(rest)
        self._start = None
        self._until = None
        self._period = 90

    def shake(self, ms=700, period_ms=90):
        self._start = self.clock.now
        self._until = self.clock.now + ms
        self._period = period_ms

    @property
    def shaking(self):
        return self._until is not None and self.clock.now < self._until

    @property
    def value(self):
        if not self.shaking:
            return self.rest
        el = self.clock.now - self._start
        stroke = el // self._period
        into = el % self._period
        level = self.rest ^ bool(stroke & 1)
        if into < 4 and into % 2:  # chatter for a few ms at each stroke end
            level = not level
        return level


DEFAULT_BUTTONS = ("hold1", "hold2", "hold3", "hold4", "hold5", "roll", "up", "down", "ok", "back")


class SimBoard:
    """Everything a board profile offers, simulated: clock (installed for the
    debouncers), buttons (SimButtons; bit i = names[i]), tilt (SimTilt), display
    (SimDisplay), pixels (SimPixels), buzzer (SimBuzzer). Call close() (or use
    `with`) to give adafruit_ticks its real clock back."""

    def __init__(self, names=DEFAULT_BUTTONS, n_pixels=5, bounce=3, start_ms=0):
        self.clock = SimClock(start_ms).install()
        self.buttons = SimButtons(names, bounce=bounce)
        self.tilt = SimTilt(self.clock)
        self.display = SimDisplay()
        self.pixels = SimPixels(n_pixels)
        self.buzzer = SimBuzzer(self.clock)

    def ticks_ms(self):
        return self.clock.ticks_ms()

    def close(self):
        self.clock.uninstall()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
