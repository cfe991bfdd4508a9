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
adc = {}  # gpio -> the 16-bit reading an ADC on that pin returns (read_u16 / AnalogIn.value)
sleeps = [0, 0, 0]  # ms slept by the firmware's idle (sleep_ms), light sleeps entered, ms spent in light sleep
outputs = {}  # gpio -> the level a DigitalInOut output drives (the firmware's CS, DC, speaker enable)
spi_devices = {}  # chip-select gpio -> device (spi_write(data, dc_level)): selected while its CS is low
encoders = {}  # encoder A gpio -> quadrature transitions counted (turn() adds 4 a detent)
board = ["pico"]  # the fake `board` module's pin names: "pico" (Pico + Feather names) or "macropad"
board_display = [None]  # board.DISPLAY (the MacroPad's, until displayio.release_displays())


# the watchdog: how the last reset came about ("watchdog" after a hang), and the started watchdog's
# [timeout ms, feeds] (empty until started)
last_reset = ["power-on"]
watchdog = []
watchdog_stops = [0]
watchdog_stoppable = [True]  # False: a port whose running watchdog cannot be stopped (fake watchdog.py)
resets = [0]  # microcontroller.reset() / machine.reset() calls


class BoardReset(BaseException):
    """Raised by the fake microcontroller.reset() / machine.reset(): the run ends as a board's would (a test
    boots again, the nvm and the files kept). Not an Exception, so no guard catches it."""


def board_reset():
    resets[0] += 1
    raise BoardReset()


def reset():
    clock[0] = 0
    last_reset[0] = "power-on"
    resets[0] = 0
    del watchdog[:]
    watchdog_stops[0] = 0
    watchdog_stoppable[0] = True
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
    adc.clear()
    sleeps[0] = sleeps[1] = sleeps[2] = 0
    outputs.clear()
    spi_devices.clear()
    encoders.clear()
    board[0] = "pico"
    board_display[0] = None


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


def sleep_ms(ms):
    """The board sleeping ms (time.sleep_ms, time.sleep): the fake clock moves on, edges land meanwhile."""
    sleeps[0] += ms
    advance(ms)


def adc_for_mv(mv, divider, ref_mv=3300):
    """The 16-bit ADC reading of a supply of mv behind a 1/divider divider (to set fakehw.adc[gpio])."""
    return min(65535, mv * 65535 // (divider * ref_mv))


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


# SSD1306 commands that take argument bytes, and how many (datasheet, section 9)
_SSD_ARGS = {0x81: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0x8D: 1,
             0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0xA3: 2, 0xAD: 1}


class FakeSSD1306:
    """An SSD1306's display RAM (8 pages x 128 columns) fed through its I2C protocol.

    Each write is control byte(s) + payload: 0x80 = one command byte follows (then another
    control byte), 0x00 = the rest are command bytes, 0x40 = the rest are RAM data. Commands
    and their argument bytes are parsed; data lands at the column/page pointer and moves it as
    the addressing mode says (horizontal/vertical inside the 0x21/0x22 window, or page mode).
    `frame` is the RAM; `image()` is what a viewer sees, by the segment remap (0xA0/0xA1), the COM scan
    direction (0xC0/0xC8) and the display start line (0x40-0x7F): upright on the module with 0xA1 and
    0xC8 (what every driver sends), mirrored or shifted otherwise (the power-on state is 0xA0, 0xC0).
    Counts what crossed the bus: `bus_bytes` (payload + 1 address byte per write), `data_bytes`
    (RAM bytes) and `frames` (data writes that finished their address window)."""

    def __init__(self):
        self.frame = bytearray(1024)
        self.commands = []  # every command and argument byte, in order
        self.frames = 0
        self.bus_bytes = 0
        self.data_bytes = 0
        self.writes = 0
        self.mode = 2  # page addressing after reset
        self.col0, self.col1, self.page0, self.page1 = 0, 127, 0, 7
        self.col = 0
        self.page = 0
        self.seg_remap = 0  # 0xA0 (power-on) / 0xA1
        self.com_remap = 0  # 0xC0 (power-on) / 0xC8
        self.start_line = 0  # 0x40 | line
        self._cmd = []  # the command being collected, with its arguments

    def write(self, data):
        if not data:
            return  # address probe
        self.writes += 1
        self.bus_bytes += len(data) + 1
        i = 0
        n = len(data)
        while i < n:
            ctl = data[i]
            i += 1
            if ctl & 0x80:  # Co = 1: one byte follows, then another control byte
                if i < n:
                    self._byte(data[i], ctl & 0x40)
                i += 1
            else:  # Co = 0: every remaining byte is of the same kind
                for k in range(i, n):
                    self._byte(data[k], ctl & 0x40)
                i = n
        if data[0] == 0x40 and self.col == self.col0 and self.page == self.page0:
            self.frames += 1  # this data write ended exactly at its window's end

    def _byte(self, b, is_data):
        if is_data:
            self.data_bytes += 1
            self.frame[self.page * 128 + self.col] = b
            self._advance()
            return
        self.commands.append(b)
        self._cmd.append(b)
        need = _SSD_ARGS.get(self._cmd[0], 0)
        if len(self._cmd) <= need:
            return
        c = self._cmd
        self._cmd = []
        op = c[0]
        if op == 0x20:
            self.mode = c[1] & 3
        elif op == 0x21:
            self.col0, self.col1 = c[1] & 127, c[2] & 127
            self.col = self.col0
        elif op == 0x22:
            self.page0, self.page1 = c[1] & 7, c[2] & 7
            self.page = self.page0
        elif op in (0xA0, 0xA1):
            self.seg_remap = op & 1
        elif op in (0xC0, 0xC8):
            self.com_remap = op & 8
        elif 0x40 <= op <= 0x7F:
            self.start_line = op & 0x3F
        elif self.mode == 2 and 0xB0 <= op <= 0xB7:
            self.page = op & 7
        elif self.mode == 2 and op <= 0x0F:
            self.col = (self.col & 0x70) | op
        elif self.mode == 2 and 0x10 <= op <= 0x17:
            self.col = (self.col & 0x0F) | ((op & 7) << 4)

    def _advance(self):
        if self.mode == 2:  # page mode: the column wraps inside the page
            self.col = (self.col + 1) & 127
            return
        if self.mode == 0:  # horizontal
            if self.col < self.col1:
                self.col += 1
                return
            self.col = self.col0
            self.page = self.page + 1 if self.page < self.page1 else self.page0
        else:  # vertical
            if self.page < self.page1:
                self.page += 1
                return
            self.page = self.page0
            self.col = self.col + 1 if self.col < self.col1 else self.col0

    def read_into(self, buf):
        for i in range(len(buf)):
            buf[i] = 0

    def image(self):
        """What the panel shows, as page-layout bytes (byte x + 128 * (y // 8), bit y % 8; x 0 at the left,
        y 0 at the top of the module): on screen row y, COM scan 0xC8 shows RAM row (y + start) % 64 and
        0xC0 RAM row (63 - y + start) % 64; column x shows RAM column x with 0xA1, 127 - x with 0xA0."""
        out = bytearray(1024)
        f = self.frame
        for y in range(64):
            r = (y if self.com_remap else 63 - y) + self.start_line
            r &= 63
            src = (r >> 3) * 128
            bit = 1 << (r & 7)
            dst = (y >> 3) * 128
            put = 1 << (y & 7)
            for x in range(128):
                if f[src + (x if self.seg_remap else 127 - x)] & bit:
                    out[dst + x] |= put
        return out

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


def turn(gpio_a, detents):
    """Turn the encoder on gpio_a by `detents` (> 0 clockwise), 4 transitions each."""
    encoders[gpio_a] = encoders.get(gpio_a, 0) + 4 * detents


# SH1106 commands that take an argument byte (datasheet, commands 9, 10, 13, 14, 16, 17, 18)
_SH_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class FakeSH1106:
    """An SH1106 on SPI: 8 pages x 132 columns of RAM, page addressing only (a data byte lands at the page and
    column pointers, the column moves on and stops at 131); DC low = command bytes, high = data. The panel
    shows columns col..col+127 (`frame`: 8 pages x 128, as FakeSSD1306's). Counts data bytes and transfers."""

    def __init__(self, dc, col=2):
        self.dc = dc
        self.col0 = col
        self.ram = bytearray(8 * 132)
        self.commands = []  # every command and argument byte, in order; None: not kept (the heap proxy)
        self.data_bytes = 0
        self.writes = 0
        self.page = 0
        self.col = 0
        self.on = False
        self.contrast = 0x80
        # the command being collected (its op, its argument) and its bytes so far: parsed without a heap object
        # a byte, as the panel does (the heap proxy measures the board's code, not the fake's)
        self._cmd = bytearray(2)
        self._got = 0

    def spi_write(self, data):
        self.writes += 1
        if read_output(self.dc):
            for b in data:
                self.data_bytes += 1
                self.ram[self.page * 132 + self.col] = b
                if self.col < 131:
                    self.col += 1
            return
        c = self._cmd
        for b in data:
            if self.commands is not None:
                self.commands.append(b)
            c[self._got] = b
            self._got += 1
            if self._got <= _SH_ARGS.get(c[0], 0):
                continue
            self._got = 0
            op = c[0]
            if 0xB0 <= op <= 0xB7:
                self.page = op & 7
            elif op <= 0x0F:
                self.col = (self.col & 0xF0) | op
            elif 0x10 <= op <= 0x18:
                self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
            elif op == 0xAF:
                self.on = True
            elif op == 0xAE:
                self.on = False
            elif op == 0x81:
                self.contrast = c[1]

    @property
    def frame(self):
        out = bytearray(1024)
        for p in range(8):
            out[p * 128:(p + 1) * 128] = self.ram[p * 132 + self.col0:p * 132 + self.col0 + 128]
        return out

    def lit(self):
        n = 0
        for b in self.frame:
            while b:
                n += b & 1
                b >>= 1
        return n


class BoardDisplay:
    """board.DISPLAY as CircuitPython brings it up at boot on the MacroPad: a BusDisplay on a FourWire bus that
    holds the OLED's pins until displayio.release_displays() (the fake displayio calls release())."""

    PINS = (26, 27, 22, 24, 23)  # SCK, MOSI, OLED_CS, OLED_DC, OLED_RESET

    def __init__(self):
        for g in self.PINS:
            claim(g, "board.DISPLAY")
        self.width = 128
        self.height = 64

    def release(self):
        for g in self.PINS:
            free(g)
        board_display[0] = None


def macropad_boot():
    """The MacroPad as CircuitPython leaves it at boot: its `board` names, board.DISPLAY holding the OLED's
    pins, and the SH1106 behind it (returned) on CS GP22, DC GP24."""
    board[0] = "macropad"
    board_display[0] = BoardDisplay()
    panel = FakeSH1106(24, 2)
    spi_devices[22] = panel
    outputs[22] = True
    return panel


def read_output(gpio):
    return outputs.get(gpio, False)


def device(addr):
    d = devices.get(addr)
    if d is None:
        raise OSError(19)  # ENODEV: no ACK
    return d
