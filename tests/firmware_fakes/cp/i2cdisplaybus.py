"""Fake CircuitPython `i2cdisplaybus` core module (CircuitPython 9+; displayio.I2CDisplay before that).

I2CDisplayBus(i2c_bus, *, device_address, reset=None) over the fake busio.I2C: commands go out as
0x80 <byte> pairs, pixel data as 0x40 + bytes, one I2C write each, as shared-module/i2cdisplaybus does.
Runs on CPython and MicroPython.
"""
DISPLAY_COMMAND = 0
DISPLAY_DATA = 1


class I2CDisplayBus:
    def __init__(self, i2c_bus, *, device_address, reset=None):
        self._i2c = i2c_bus
        self._addr = device_address
        self._reset = reset
        # the C constructor probes the address and refuses a display that does not answer
        while not i2c_bus.try_lock():
            pass
        try:
            i2c_bus.writeto(device_address, b"")
            found = True
        except OSError:
            found = False
        i2c_bus.unlock()
        if not found:
            raise ValueError("Unable to find I2C Display at %x" % device_address)
        self._live = True

    def reset(self):
        pass  # no reset pin on the fake boards

    def send(self, command, data):
        """Send command followed by data, all as command bytes."""
        self._begin()
        self._send(DISPLAY_COMMAND, bytes([command]) + bytes(data))
        self._end()

    def deinit(self):
        self._live = False

    # -- used by busdisplay.BusDisplay --
    def _begin(self):
        if not self._live:
            raise RuntimeError("display bus released (displayio.release_displays)")
        return self._i2c.try_lock()

    def _end(self):
        self._i2c.unlock()

    def _send(self, data_type, data):
        if data_type == DISPLAY_COMMAND:
            out = bytearray(2 * len(data))
            for i in range(len(data)):
                out[2 * i] = 0x80
                out[2 * i + 1] = data[i]
        else:
            out = bytearray(1 + len(data))
            out[0] = 0x40
            out[1:] = data
        self._i2c.writeto(self._addr, out)

