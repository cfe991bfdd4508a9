"""The fake board's world, shared by every fake hardware module (CPython and the MicroPython unix port).

Tests drive it: advance the clock, press/release a GPIO, add or remove I2C devices; the fakes
record what the firmware did: PWM tones, NeoPixel bytes, I2C frames, remounts.
Pins are keyed by RP2040 GPIO number, the same on both runtimes.
"""

clock = [0]
levels = {}  # gpio -> level driven from outside (a pressed button is 0)
pulls = {}  # gpio -> "up" / "down"
claimed = {}  # gpio -> owner description (CircuitPython refuses a pin twice)
i2c_pullups = [True]
devices = {}  # 7-bit address -> device (write(data), read_into(buf))
pwm_log = []  # (gpio, freq, duty) on every duty change
pixel_writes = []  # (gpio, bytes) on every strip write
remounts = []  # (path, readonly)
irqs = {}  # gpio -> fire(level): a fake machine.Pin's IRQ, called when the level changes
irq_fired = [0]  # pin IRQ handlers run so far
tick_hooks = []  # fire(now_ms) after every 1 ms of advance(): background scanners (fake keypad)
timeline = {}  # ms -> [(gpio, level), ...]: level changes that happen *during* an advance() (schedule())


def reset():
    clock[0] = 0
    levels.clear()
    pulls.clear()
    claimed.clear()
    i2c_pullups[0] = True
    devices.clear()
    del pwm_log[:]
    del pixel_writes[:]
    del remounts[:]
    irqs.clear()
    irq_fired[0] = 0
    del tick_hooks[:]
    timeline.clear()


def ticks_ms():
    return clock[0]


def advance(ms):
    """Move the clock on. With background hooks or a timeline it moves 1 ms at a time: scheduled level
    changes land at their own millisecond (firing pin IRQs), then each hook sees the new time.
    Allocates nothing (it runs inside the MicroPython heap-lock proofs)."""
    if not tick_hooks and not timeline:
        clock[0] = (clock[0] + ms) & 0x1FFFFFFF
        return
    for _ in range(ms):
        t = (clock[0] + 1) & 0x1FFFFFFF
        clock[0] = t
        steps = timeline.get(t)
        if steps is not None:
            for st in steps:
                set_level(st[0], st[1])
        for h in tick_hooks:
            h(t)


def schedule(at_ms, gpio, level):
    """Drive `gpio` to `level` (None: let go, back to its pull) when the clock reaches at_ms."""
    at_ms &= 0x1FFFFFFF
    if at_ms not in timeline:
        timeline[at_ms] = []
    timeline[at_ms].append((gpio, level))


def bounce(at_ms, gpio, level, chatter=(1, 1, 1)):
    """Schedule a contact change with bounce: the level flips at at_ms, then flips back and forth after
    each gap in `chatter` (ms), ending on `level` (None: released, back to the pull)."""
    other = 1 if level == 0 else 0  # a press chatters back to open (1), a release (1 or None) back to shorted (0)
    t = at_ms
    lv = level
    schedule(t, gpio, lv)
    for i, gap in enumerate(chatter):
        t += gap
        schedule(t, gpio, other if i % 2 == 0 else lv)
    if len(chatter) % 2:
        schedule(t + 1, gpio, lv)


def read(gpio):
    if gpio in levels:
        return levels[gpio]
    return 1 if pulls.get(gpio) == "up" else 0


def set_level(gpio, level):
    """Drive `gpio` from outside (None: let go); a registered pin IRQ sees the change."""
    old = read(gpio)
    if level is None:
        if gpio in levels:
            del levels[gpio]
    else:
        levels[gpio] = level
    new = read(gpio)
    if new != old:
        fire = irqs.get(gpio)
        if fire is not None:
            fire(new)


def press(gpio):
    set_level(gpio, 0)


def release(gpio):
    set_level(gpio, None)


def claim(gpio, what):
    if gpio in claimed:
        raise ValueError("GP%d in use" % gpio)
    claimed[gpio] = what


def free(gpio):
    if gpio in claimed:
        del claimed[gpio]


def tones():
    """Frequencies that were switched on (duty > 0), in order."""
    return [f for (_, f, d) in pwm_log if d]


class FakeSSD1306:
    """Keeps the 1024-byte frame the driver sends (horizontal addressing) and the commands."""

    def __init__(self):
        self.frame = bytearray(1024)
        self.commands = []
        self.frames = 0
        self._pos = 0

    def write(self, data):
        if not data:
            return  # address probe
        if data[0] == 0x40:
            for b in data[1:]:
                self.frame[self._pos] = b
                self._pos = (self._pos + 1) % 1024
            if self._pos == 0:
                self.frames += 1
        else:
            for i in range(1, len(data), 2):
                self.commands.append(data[i])
            if 0x21 in data[1:2]:  # column address: a new frame starts
                self._pos = 0

    def read_into(self, buf):
        for i in range(len(buf)):
            buf[i] = 0

    def lit(self):
        n = 0
        for b in self.frame:
            while b:
                n += b & 1
                b >>= 1
        return n


class FakeLIS3DH:
    """Registers of an LIS3DH; set .x .y .z (raw counts, 16384 per g) to what the sensor feels."""

    def __init__(self):
        self.regs = bytearray(64)
        self.regs[0x0F] = 0x33
        self.ptr = 0
        self.x = 0
        self.y = 0
        self.z = 16384
        self.reads = 0

    def write(self, data):
        if not data:
            return
        self.ptr = data[0] & 0x7F
        for i in range(1, len(data)):
            self.regs[self.ptr] = data[i]
            self.ptr += 1

    def read_into(self, buf):
        if self.ptr == 0x28:
            self.reads += 1
            for i, v in enumerate((self.x, self.y, self.z)):
                v &= 0xFFFF
                self.regs[0x28 + 2 * i] = v & 0xFF
                self.regs[0x29 + 2 * i] = v >> 8
        for i in range(len(buf)):
            buf[i] = self.regs[self.ptr + i]


def device(addr):
    d = devices.get(addr)
    if d is None:
        raise OSError(19)  # ENODEV: no ACK
    return d
