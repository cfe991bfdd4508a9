"""Fake CircuitPython `busio.I2C` over fakehw.devices; refuses to start without pull-ups, like the real one."""
import fakehw


class I2C:
    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        if not fakehw.i2c_pullups[0]:
            raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
        fakehw.claim(scl.gpio, "I2C SCL")
        fakehw.claim(sda.gpio, "I2C SDA")
        self.pins = (scl.gpio, sda.gpio)
        self.frequency = frequency
        self._locked = False

    def deinit(self):
        for g in self.pins:
            fakehw.free(g)

    def try_lock(self):
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._locked = False

    def _check(self):
        if not self._locked:
            raise RuntimeError("Function requires lock")

    def scan(self):
        self._check()
        return sorted(fakehw.devices)

    def writeto(self, address, buffer, *, start=0, end=None):
        self._check()
        fakehw.device(address).write(bytes(buffer[start:end]))

    def readfrom_into(self, address, buffer, *, start=0, end=None):
        self._check()
        end = len(buffer) if end is None else end
        tmp = bytearray(end - start)
        fakehw.device(address).read_into(tmp)
        buffer[start:end] = tmp

    def writeto_then_readfrom(self, address, out_buffer, in_buffer, *, out_start=0, out_end=None, in_start=0,
                              in_end=None):
        self._check()
        d = fakehw.device(address)
        d.write(bytes(out_buffer[out_start:out_end]))
        in_end = len(in_buffer) if in_end is None else in_end
        tmp = bytearray(in_end - in_start)
        d.read_into(tmp)
        in_buffer[in_start:in_end] = tmp


class SPI:
    """busio.SPI(clock, MOSI=None, MISO=None, half_duplex=False) of CircuitPython 10: configure(), write() and
    friends need the lock (try_lock()); write() goes to every fakehw.spi_devices device whose CS is low.
    Test aids, not on the real object: `pins`, `writes` (write() calls)."""

    def __init__(self, clock, MOSI=None, MISO=None, half_duplex=False):
        self.pins = [p.gpio for p in (clock, MOSI, MISO) if p is not None]
        for g in self.pins:
            fakehw.claim(g, "SPI")
        self._locked = False
        self._baud = 250000
        self.writes = 0

    def deinit(self):
        for g in self.pins:
            fakehw.free(g)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def try_lock(self):
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._locked = False

    def _check(self):
        if not self._locked:
            raise RuntimeError("Function requires lock")

    def configure(self, *, baudrate=100000, polarity=0, phase=0, bits=8):
        self._check()
        self._baud = baudrate

    @property
    def frequency(self):
        return self._baud

    def write(self, buffer, *, start=0, end=None):
        self._check()
        end = len(buffer) if end is None else end
        self.writes += 1
        for cs, dev in fakehw.spi_devices.items():
            if not fakehw.read_output(cs):
                dev.spi_write(buffer[start:end])

    def readinto(self, buffer, *, start=0, end=None, write_value=0):
        self._check()
        end = len(buffer) if end is None else end
        for i in range(start, end):
            buffer[i] = 0

    def write_readinto(self, out_buffer, in_buffer, *, out_start=0, out_end=None, in_start=0, in_end=None):
        self.write(out_buffer, start=out_start, end=out_end)
        self.readinto(in_buffer, start=in_start, end=in_end)
