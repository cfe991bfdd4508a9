"""Fake MicroPython `machine` (Pin, I2C with scan(), PWM) over fakehw; put its folder first on MICROPYPATH."""
import fakehw


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4  # the rp2 port's values
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self._mode = self.IN
        self._out = 0
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        if mode != -1:
            self._mode = mode
        if pull == self.PULL_UP:
            fakehw.pulls[self.id] = "up"
        elif pull == self.PULL_DOWN:
            fakehw.pulls[self.id] = "down"
        if value is not None:
            self._out = 1 if value else 0

    def value(self, v=None):
        if v is None:
            if self._mode == self.OUT:
                return self._out
            return fakehw.read(self.id)
        self._out = 1 if v else 0

    def __call__(self, v=None):
        return self.value(v)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        """Like the rp2 port: handler(pin) runs on each edge the trigger selects; handler=None disables.
        `hard` is recorded (a hard handler may not allocate: the tests check that under heap_lock)."""
        self._handler = handler
        self._trigger = trigger
        self.hard = hard
        if handler is None:
            fakehw.irqs.pop(self.id, None)
        else:
            fakehw.irqs[self.id] = self._fire  # bound once, here
        self.irq_calls = 0

    def _fire(self, level):
        if self._trigger & (self.IRQ_RISING if level else self.IRQ_FALLING):
            self.irq_calls += 1
            fakehw.irq_fired[0] += 1
            self._handler(self)

    def on(self):
        self._out = 1

    def off(self):
        self._out = 0


class I2C:
    def __init__(self, id, scl=None, sda=None, freq=400000, timeout=50000):
        self.id = id
        self.pins = (scl.id if scl else None, sda.id if sda else None)
        self.freq = freq

    def scan(self):
        return sorted(fakehw.devices)

    def writeto(self, addr, buf, stop=True):
        fakehw.device(addr).write(bytes(buf))
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        data = b"".join([bytes(v) for v in vector])
        fakehw.device(addr).write(data)
        return len(data)

    def readfrom_into(self, addr, buf, stop=True):
        fakehw.device(addr).read_into(buf)

    def readfrom_mem_into(self, addr, memaddr, buf, addrsize=8):
        d = fakehw.device(addr)
        d.write(bytes([memaddr]))
        d.read_into(buf)

    def writeto_mem(self, addr, memaddr, buf, addrsize=8):
        fakehw.device(addr).write(bytes([memaddr]) + bytes(buf))


class PWM:
    def __init__(self, pin, freq=None, duty_u16=None):
        self.gpio = pin.id
        self._freq = freq or 1000
        self._duty = 0
        if duty_u16 is not None:
            self.duty_u16(duty_u16)

    def freq(self, f=None):
        if f is None:
            return self._freq
        if not 8 <= f <= 62500000:
            raise ValueError("freq out of range")
        self._freq = f

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d
        fakehw.pwm_log.append((self.gpio, self._freq, d))

    def deinit(self):
        pass


class ADC:
    """machine.ADC on a pin (or a channel number): read_u16() returns fakehw.adc[gpio] (0 if unset)."""

    def __init__(self, pin):
        self.gpio = pin.id if isinstance(pin, Pin) else pin

    def read_u16(self):
        return fakehw.adc.get(self.gpio, 0)


def lightsleep(ms=None):
    """rp2: a timed light sleep; the clock keeps running (PR #8832). Here: the fake clock moves ms on (edges
    scheduled meanwhile fire their pin IRQs, and one ends the sleep), counted in fakehw.sleeps[1] (entries) and
    [2] (ms).
    lightsleep() without a period is dormant mode with no wake source on rp2: refused here."""
    if ms is None:
        raise ValueError("fake rp2: lightsleep() without a period never wakes")
    fakehw.sleeps[1] += 1
    fired = fakehw.irq_fired[0]
    for _ in range(ms):  # a pin IRQ with a handler ends a timed lightsleep early (micropython PR #16442 notes)
        fakehw.advance(1)
        fakehw.sleeps[2] += 1
        if fakehw.irq_fired[0] != fired:
            return


PWRON_RESET = 1  # the rp2 port's values
WDT_RESET = 3


def reset():
    """Reset the board: the run ends (fakehw.BoardReset); a test's next run of main.py is the next boot."""
    fakehw.board_reset()


def reset_cause():
    return WDT_RESET if fakehw.last_reset[0] == "watchdog" else PWRON_RESET


class WDT:
    """machine.WDT: started with a timeout, fed by the loop; fakehw.watchdog holds [timeout, feeds]."""

    def __init__(self, id=0, timeout=5000):
        if fakehw.watchdog:
            raise OSError("the watchdog is already running")  # rp2: one WDT, never stopped
        fakehw.watchdog[:] = [timeout, 0]

    def feed(self):
        fakehw.watchdog[1] += 1
