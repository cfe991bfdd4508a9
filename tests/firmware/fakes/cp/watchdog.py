"""Fake CircuitPython 10 `watchdog`: WatchDogMode (RAISE, RESET), WatchDogTimeout and WatchDogTimer, whose one
instance is microcontroller.watchdog. After shared-bindings/watchdog and the RP2040's common-hal (10.x):
- WatchDogTimer has `feed()`, `timeout` and `mode` only; `deinit()` was removed in 10.0.0 (adafruit/circuitpython
  PR #10144): `mode = None` stops it.
- `timeout` (s): at most 8 on the RP2040 (its counter stops at 8.3 s; the port validates int(timeout) <= 8).
- `mode = WatchDogMode.RESET` starts it; `mode = None` stops it; RAISE is NotImplementedError on the RP2040.
- `feed()` silently does nothing while the watchdog is not running.
The fake's world (fakehw): watchdog = [timeout ms, feeds] once started, watchdog_stops[0] counts stops, and a test
sets fakehw.watchdog_stoppable[0] = False for a port whose watchdog cannot be stopped once running (the fake then
raises RuntimeError at `mode = None`, as the nrf port's deinit does)."""


class WatchDogMode:
    RAISE = "RAISE"
    RESET = "RESET"


class WatchDogTimeout(Exception):
    pass


class WatchDogTimer:
    """The sole instance is microcontroller.watchdog (not constructible on a board)."""

    def __init__(self):
        self._timeout = 0.0
        self._mode = None

    @property
    def timeout(self):
        return self._timeout

    @timeout.setter
    def timeout(self, t):
        if int(t) > 8:
            raise ValueError("timeout must be <= 8")
        if t < 0:
            raise ValueError("timeout must be >= 0")
        self._timeout = t

    @property
    def mode(self):
        return self._mode

    @mode.setter
    def mode(self, m):
        import fakehw

        if m == self._mode:
            return
        if m is None:
            if not fakehw.watchdog_stoppable[0]:
                raise RuntimeError("fake: this port's watchdog cannot be stopped")
            self._mode = None
            fakehw.watchdog_stops[0] += 1
            return
        if m == WatchDogMode.RAISE:
            raise NotImplementedError()
        if m != WatchDogMode.RESET:
            raise TypeError("mode must be WatchDogMode or None")
        self._mode = m
        fakehw.watchdog[:] = [int(self._timeout * 1000), 0]

    def feed(self):
        import fakehw

        if self._mode is not None:
            fakehw.watchdog[1] += 1
