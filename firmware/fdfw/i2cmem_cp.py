"""CircuitPython busio.I2C with MicroPython's I2C method names (scan, readfrom_mem_into,
writeto_mem).

Takes the bus lock around each transfer, as busio requires; buffers are allocated once.
"""


class I2CMem:
    def __init__(self, i2c):
        self._i2c = i2c
        self._reg = bytearray(1)
        self._wr = bytearray(2)

    def _lock(self):
        while not self._i2c.try_lock():
            pass

    def scan(self):
        self._lock()
        try:
            return self._i2c.scan()
        finally:
            self._i2c.unlock()

    def readfrom_mem_into(self, addr, reg, buf):
        self._reg[0] = reg
        self._lock()
        try:
            self._i2c.writeto_then_readfrom(addr, self._reg, buf)
        finally:
            self._i2c.unlock()

    def writeto_mem(self, addr, reg, buf):
        if len(buf) != 1:
            raise ValueError("writeto_mem writes one register byte here")
        self._wr[0] = reg
        self._wr[1] = buf[0]
        self._lock()
        try:
            self._i2c.writeto(addr, self._wr)
        finally:
            self._i2c.unlock()
