"""Shake sensors fed into the library's detectors (fivedice.shake).

update(now_ms) returns 1 on the pass where a shake starts, -1 where it stops, else 0.
wait_ms(now_ms): how soon the next update is needed (the idle loop sleeps no longer); changed(): the
switch moved since the last update (the idle loop wakes for it).
"""
from fivedice.shake import AccelShake, SwitchShake
from fivedice.ticks import ticks_add, ticks_diff


class SwitchShakeInput:
    """A tilt / vibration switch: read() returns the raw pin level (any truthy/falsy)."""

    def __init__(self, read, detector=None):
        self._read = read
        self._det = detector if detector is not None else SwitchShake()
        self.accel = False
        self.active_ms = 10  # sampling while a shake may be under way

    def changed(self):
        d = self._det
        return d._level >= 0 and (1 if self._read() else 0) != d._level

    def wait_ms(self, now_ms):
        d = self._det
        return self.active_ms if d.shaking or d._filled else 1000000

    def update(self, now_ms):
        d = self._det
        d.update(self._read(), now_ms)
        if d.started:
            return 1
        if d.stopped:
            return -1
        return 0


class AccelShakeInput:
    """An accelerometer with read() filling .x .y .z (see lis3dh.LIS3DH), sampled every period_ms.
    """

    def __init__(self, sensor, detector=None, period_ms=10, quiet_ms=30):
        self._sensor = sensor
        # LIS3DH +-2 g high resolution: 16384 counts per g, >> 4 gives 1024 per g (close to milli-g)
        self._det = detector if detector is not None else AccelShake(shift=4)
        self._period = period_ms
        # while nothing is over the threshold, sample every quiet_ms (an I2C read each: the idle
        # loop's main cost on this board, make bench-power); from the first hit until the shake
        # ends, every period_ms
        self._quiet = quiet_ms
        self._next = None
        self.accel = True

    def wait_ms(self, now_ms):
        if self._next is None:
            return 0
        t = ticks_diff(self._next, now_ms)
        return t if t > 0 else 0

    def update(self, now_ms):
        if self._next is not None and ticks_diff(now_ms, self._next) < 0:
            return 0
        s = self._sensor
        s.read()
        d = self._det
        d.update_accel(s.x, s.y, s.z, now_ms)
        self._next = ticks_add(now_ms, self._period if d.shaking or d._filled else self._quiet)
        if d.started:
            return 1
        if d.stopped:
            return -1
        return 0
