"""Fake CircuitPython `busio.I2C` over fakehw.devices; refuses to start without pull-ups, like the real one.

CircuitPython 10.2.1's methods (shared-bindings/busio/I2C.c): deinit, __enter__/__exit__, probe, scan,
try_lock, unlock, readfrom_into, writeto, writeto_then_readfrom. Each checks deinit, then the lock; start/end
are bounded as shared/runtime/buffer_helper.c's normalize_buffer_bounds does (negative from the end, end past
the buffer cut to it, end before start: nothing) in the buffer's items (a Bitmap's typecode is 'B'); a device
that does not answer is OSError(ENODEV) (ports/raspberrypi/common-hal/busio/I2C.c).
"""
import fakehw

_INT_MAX = 0x7FFFFFFF  # the C default of end (INT_MAX)


def _bounds(buffer, start, end):
    """normalize_buffer_bounds: (start, end) of the items sent or filled."""
    n = len(buffer)
    if end < 0:
        end += n
    elif end > n:
        end = n
    if start < 0:
        start += n
    if end < start:
        end = start
    return start, end


class I2C:
    def __init__(self, scl, sda, *, frequency=100000, timeout=255):
        if not fakehw.i2c_pullups[0]:
            raise RuntimeError("No pull up found on SDA or SCL; check your wiring")
        fakehw.claim(scl.gpio, "I2C SCL")
        fakehw.claim(sda.gpio, "I2C SDA")
        self.pins = (scl.gpio, sda.gpio)
        self.frequency = frequency
        self._locked = False
        self._deinited = False

    def deinit(self):
        if not self._deinited:
            for g in self.pins:
                fakehw.free(g)
        self._deinited = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    def _check_deinit(self):
        if self._deinited:
            raise ValueError("Object has been deinitialized and can no longer be used. Create a new object.")

    def try_lock(self):
        self._check_deinit()
        if self._locked:
            return False
        self._locked = True
        return True

    def unlock(self):
        self._check_deinit()
        self._locked = False

    def _check(self):
        self._check_deinit()
        if not self._locked:
            raise RuntimeError("Function requires lock")

    def probe(self, address):
        self._check()
        return address in fakehw.devices

    def scan(self):
        self._check()
        return sorted(a for a in fakehw.devices if 0x08 <= a < 0x78)

    def writeto(self, address, buffer, *, start=0, end=_INT_MAX):
        self._check()
        start, end = _bounds(buffer, start, end)
        # a device takes the bytes as the bus delivers them (a copy: the fake panel keeps no view of the buffer)
        fakehw.device(address).write(bytes(memoryview(buffer)[start:end]))

    def readfrom_into(self, address, buffer, *, start=0, end=_INT_MAX):
        self._check()
        start, end = _bounds(buffer, start, end)
        if end - start < 1:
            raise ValueError("buffer length must be >= 1")
        tmp = bytearray(end - start)
        fakehw.device(address).read_into(tmp)
        buffer[start:end] = tmp

    def writeto_then_readfrom(self, address, out_buffer, in_buffer, *, out_start=0, out_end=_INT_MAX, in_start=0,
                              in_end=_INT_MAX):
        self._check()
        out_start, out_end = _bounds(out_buffer, out_start, out_end)
        in_start, in_end = _bounds(in_buffer, in_start, in_end)
        if in_end - in_start < 1:
            raise ValueError("out_buffer length must be >= 1")
        d = fakehw.device(address)
        d.write(bytes(memoryview(out_buffer)[out_start:out_end]))
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
        data = memoryview(buffer)[start:end]  # read in place, as the C write does (no copy on the heap)
        for cs, dev in fakehw.spi_devices.items():
            if not fakehw.read_output(cs):
                dev.spi_write(data)

    def readinto(self, buffer, *, start=0, end=None, write_value=0):
        self._check()
        end = len(buffer) if end is None else end
        for i in range(start, end):
            buffer[i] = 0

    def write_readinto(self, out_buffer, in_buffer, *, out_start=0, out_end=None, in_start=0, in_end=None):
        self.write(out_buffer, start=out_start, end=out_end)
        self.readinto(in_buffer, start=in_start, end=in_end)
