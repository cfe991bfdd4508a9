"""Minimal LIS3DH accelerometer reader (ST LIS3DH datasheet, DocID17530): 100 Hz, +-2 g, high
resolution.

`i2c` speaks MicroPython's memory API: readfrom_mem_into(addr, reg, buf) and writeto_mem(addr, reg,
buf) (machine.I2C as is; on CircuitPython wrap busio.I2C in i2cmem_cp.I2CMem). read() fills .x .y .z
with the raw left-justified 16-bit counts (16384 per g) and allocates nothing.
"""
from fivedice.compat import const

_WHO_AM_I = const(0x0F)
_CHIP_ID = const(0x33)
_CTRL_REG1 = const(0x20)
_CTRL_REG4 = const(0x23)
_OUT_X_L = const(0x28)
_AUTO_INC = const(0x80)  # set on the register address: read consecutive registers


class LIS3DH:
    def __init__(self, i2c, addr=0x18):
        self._i2c = i2c
        self._addr = addr
        self._buf = bytearray(6)
        self._one = bytearray(1)
        i2c.readfrom_mem_into(addr, _WHO_AM_I, self._one)
        if self._one[0] != _CHIP_ID:
            raise OSError(
                "device at 0x%02x is not an LIS3DH (WHO_AM_I 0x%02x)" % (addr, self._one[0])
            )
        self._one[0] = 0x57  # ODR 100 Hz, normal mode, X Y Z enabled
        i2c.writeto_mem(addr, _CTRL_REG1, self._one)
        self._one[0] = 0x88  # block data update, +-2 g, high resolution
        i2c.writeto_mem(addr, _CTRL_REG4, self._one)
        self.x = 0
        self.y = 0
        self.z = 0

    def read(self):
        b = self._buf
        self._i2c.readfrom_mem_into(self._addr, _OUT_X_L | _AUTO_INC, b)
        self.x = _s16(b[0] | (b[1] << 8))
        self.y = _s16(b[2] | (b[3] << 8))
        self.z = _s16(b[4] | (b[5] << 8))


def _s16(v):
    return v - 65536 if v & 0x8000 else v
