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
    """Present because adafruit_bus_device names it in annotations (evaluated on CPython); not usable."""

    def __init__(self, *a, **k):
        raise NotImplementedError("the fake board has no SPI")
