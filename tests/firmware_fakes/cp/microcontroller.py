"""Fake CircuitPython `microcontroller`: Pin, and `nvm`, an RP2040's 4 KB of non-volatile memory
(fakeflash.FakeNvm: len, slicing, slice assignment with the port's program-or-erase rule). It lives as
long as this module, so a test's "power cycle" (running code.py again) finds what was saved; a test
sets `microcontroller.nvm = None` for a board without nvm, as CircuitPython has then."""
from fakeflash import FakeNvm


class Pin:
    def __init__(self, gpio, name):
        self.gpio = gpio
        self.name = name

    def __repr__(self):
        return "board." + self.name


nvm = FakeNvm(4096)


def reset():
    """Reset the board: the run ends (fakehw.BoardReset); a test's next run of code.py is the next boot."""
    import fakehw

    fakehw.board_reset()


class ResetReason:
    POWER_ON = "POWER_ON"
    WATCHDOG = "WATCHDOG"
    SOFTWARE = "SOFTWARE"


class _CPU:
    @property
    def reset_reason(self):
        import fakehw

        return ResetReason.WATCHDOG if fakehw.last_reset[0] == "watchdog" else ResetReason.POWER_ON


class _WatchDogTimer:
    """microcontroller.watchdog: set timeout (s) then mode; feed(); fakehw.watchdog holds [timeout ms, feeds]."""

    def __init__(self):
        self.timeout = 0
        self._mode = None

    @property
    def mode(self):
        return self._mode

    @mode.setter
    def mode(self, m):
        import fakehw

        if not self.timeout or self.timeout > 8.3:
            raise ValueError("timeout must be set, and at most 8.3 s on the RP2040")
        self._mode = m
        fakehw.watchdog[:] = [int(self.timeout * 1000), 0]

    def feed(self):
        import fakehw

        if self._mode is None:
            raise ValueError("WatchDogTimer is not initialized")
        fakehw.watchdog[1] += 1

    def deinit(self):
        """Stop the watchdog (RP2040 can); `stoppable = False` makes it raise, as a port that cannot."""
        import fakehw

        if not self.stoppable:
            raise RuntimeError("fake: this watchdog cannot be stopped")
        self._mode = None
        fakehw.watchdog_stops[0] += 1

    stoppable = True


cpu = _CPU()
watchdog = _WatchDogTimer()
