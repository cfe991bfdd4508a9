"""MicroPython light sleep until a button (see fdfw.idle): machine.lightsleep in bounded slices."""
from fivedice.compat import const

SLEEP_SLICE_MS = const(100)  # each wake checks the buttons and feeds the watchdog


class MPSleep:
    """MicroPython light sleep until a button: `ring` is the buttons' fdfw.buttons.EdgeRing."""

    def __init__(self, lightsleep, sleep_ms, ring, feed=None, slice_ms=SLEEP_SLICE_MS):
        self._light = lightsleep
        self._sleep_ms = sleep_ms
        self._ring = ring
        self._feed = feed
        self._slice = slice_ms
        self.slices = 0  # light sleep slices so far (tests)
        self.fallback = lightsleep is None

    def sleep(self):
        ring = self._ring
        st = ring.state
        pins = ring.pins
        n = ring.n
        while True:
            if not self.fallback:
                try:
                    self._light(self._slice)
                except (OSError, ValueError, NotImplementedError):
                    self.fallback = True  # this port cannot light-sleep: plain sleeps (no saving, still correct)
            if self.fallback:
                self._sleep_ms(self._slice)
            self.slices += 1
            if self._feed is not None:
                self._feed()
            if st[0] != st[1]:
                return  # an edge: the pin IRQ ran on waking
            for k in range(n):
                if not pins[k].value():
                    return  # held down (its edge came while the IRQ could not see it)
