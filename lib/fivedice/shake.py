"""Shake detection as pure logic: a tilt/vibration switch or an accelerometer."""
# Feed samples with the time they were taken (ticks in ms, wrap-safe: see fivedice.ticks).
# After each update read `.shaking` (level), `.started` / `.stopped` (true for the one
# update where the shake began / ended, like adafruit_debouncer's rose/fell).
#
# How both detectors decide (the same burst logic, different "hits"):
# - a hit is a switch edge (either direction), or an accelerometer sample whose
#   magnitude is over the threshold (or, optionally, under a free-fall floor);
# - hits closer than `min_gap_ms` to the last counted hit are chatter: they keep the
#   shake alive but are not counted again (a knock rings for a few ms: one count);
# - a shake starts when `count` counted hits fall within `window_ms`;
# - it stops once no hit at all has arrived for `holdoff_ms`.
#
# Integers only; no allocation per update after construction (the hit times live in a
# preallocated array).
from array import array

from fivedice.compat import const
from fivedice.ticks import ticks_diff

_CLAMP = const(16383)  # per-axis clamp: 3 * 16383**2 < 2**30 keeps x*x+y*y+z*z a small int


class _Burst:
    """Counts hits in a sliding window; shared by both detectors."""

    def __init__(self, count, window_ms, min_gap_ms, holdoff_ms):
        if count < 1:
            raise ValueError("count must be >= 1")
        self._n = count
        self._window = window_ms
        self._gap = min_gap_ms
        self._holdoff = holdoff_ms
        self._times = array("i", [0] * count)
        self.shaking = False
        self.started = False
        self.stopped = False
        self.reset()

    def reset(self):
        """Forget all history; not shaking."""
        self._head = 0
        self._filled = 0
        self._last = 0  # time of the last counted hit
        self._last_any = 0  # time of the last hit of any kind
        self.shaking = False
        self.started = False
        self.stopped = False

    def _hit(self, now):
        self._last_any = now
        if self._filled and ticks_diff(now, self._last) < self._gap:
            return  # chatter: keeps a shake alive, not counted
        self._last = now
        n = self._n
        h = self._head
        self._times[h] = now
        h += 1
        if h == n:
            h = 0
        self._head = h
        if self._filled < n:
            self._filled += 1
        if not self.shaking and self._filled == n:
            # the ring is full, so _head points at the oldest counted hit
            if ticks_diff(now, self._times[h]) <= self._window:
                self.shaking = True
                self.started = True

    def _idle(self, now):
        if self.shaking:
            if ticks_diff(now, self._last_any) >= self._holdoff:
                self.shaking = False
                self.stopped = True
                self._filled = 0
        elif self._filled and ticks_diff(now, self._last) > self._window:
            # all history is older than the window: drop it, so stale ticks never
            # get compared after the clock has wrapped
            self._filled = 0


class SwitchShake(_Burst):
    """Tilt / ball / spring vibration switch: a shake is a burst of edges.

    update(level, now_ms): level is the raw pin value (any truthy/falsy).
    Defaults: 4 counted edges within 700 ms start a shake; edges closer than 25 ms are
    chatter; 400 ms without any edge ends it.
    """

    def __init__(self, edges=4, window_ms=700, min_gap_ms=25, holdoff_ms=400):
        self._level = -1
        _Burst.__init__(self, edges, window_ms, min_gap_ms, holdoff_ms)

    def reset(self):
        _Burst.reset(self)
        self._level = -1

    def update(self, level, now_ms):
        """Feed one pin sample; returns .shaking."""
        self.started = False
        self.stopped = False
        level = 1 if level else 0
        if self._level < 0:
            self._level = level  # first sample sets the reference, not an edge
        elif level != self._level:
            self._level = level
            self._hit(now_ms)
        self._idle(now_ms)
        return self.shaking


class AccelShake(_Burst):
    """Accelerometer: a shake is a burst of samples whose magnitude is over a threshold."""
    # update_accel(x, y, z, now_ms): integer axes. With shift=0 they are milli-g; raw
    # sensor counts can be brought near milli-g with `shift` (arithmetic right shift,
    # e.g. LIS3DH +-2g 16-bit: 16384 counts/g, shift=4 gives 1024 per g); thresholds are
    # in the same (shifted) units. Axes are clamped to +-16383 so the squared magnitude
    # stays a small int; it is compared with threshold**2 (no sqrt, no float).
    # At rest the magnitude is about 1 g (1000), so thresholds sit well above that.
    # low_mg > 0 also counts samples whose magnitude is under it (free fall while tossed).
    # Defaults: 4 counted samples over 1800 mg within 700 ms start a shake; samples
    # closer than 60 ms to the last counted one are not counted again; 350 ms with no
    # sample over threshold ends it.

    def __init__(
        self,
        threshold_mg=1800,
        samples=4,
        window_ms=700,
        min_gap_ms=60,
        holdoff_ms=350,
        shift=0,
        low_mg=0,
    ):
        t = threshold_mg if threshold_mg < _CLAMP else _CLAMP
        self._thr2 = t * t
        self._low2 = low_mg * low_mg if low_mg > 0 else -1
        self._shift = shift
        self.magnitude2 = 0  # last squared magnitude, for tuning
        _Burst.__init__(self, samples, window_ms, min_gap_ms, holdoff_ms)

    def update_accel(self, x, y, z, now_ms):
        """Feed one sample; returns .shaking."""
        self.started = False
        self.stopped = False
        s = self._shift
        if s:
            x >>= s
            y >>= s
            z >>= s
        if x > _CLAMP:
            x = _CLAMP
        elif x < -_CLAMP:
            x = -_CLAMP
        if y > _CLAMP:
            y = _CLAMP
        elif y < -_CLAMP:
            y = -_CLAMP
        if z > _CLAMP:
            z = _CLAMP
        elif z < -_CLAMP:
            z = -_CLAMP
        m2 = x * x + y * y + z * z
        self.magnitude2 = m2
        if m2 >= self._thr2 or m2 <= self._low2:
            self._hit(now_ms)
        self._idle(now_ms)
        return self.shaking
