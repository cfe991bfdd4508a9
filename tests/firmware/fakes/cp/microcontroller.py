"""Fake CircuitPython `microcontroller`: Pin, and `nvm`, an RP2040's 4 KB of non-volatile memory
(fakeflash.FakeNvm: len, slicing, slice assignment with the port's program-or-erase rule). It lives as
long as this module, so a test's "power cycle" (running code.py again) finds what was saved; a test
sets `microcontroller.nvm = None` for a board without nvm, as CircuitPython has then. `watchdog` is the
fake watchdog module's WatchDogTimer."""
import watchdog as _watchdog
from fakeflash import FakeNvm as _FakeNvm


class Pin:
    def __init__(self, gpio, name):
        self.gpio = gpio
        self.name = name

    def __repr__(self):
        return "board." + self.name


nvm = _FakeNvm(4096)


def reset():
    """Reset the board: the run ends (fakehw.BoardReset); a test's next run of code.py is the next boot."""
    import fakehw

    fakehw.board_reset()


class ResetReason:
    POWER_ON = "POWER_ON"
    WATCHDOG = "WATCHDOG"
    SOFTWARE = "SOFTWARE"


class Processor:
    """microcontroller.cpu (only reset_reason is modelled)."""

    @property
    def reset_reason(self):
        import fakehw

        return ResetReason.WATCHDOG if fakehw.last_reset[0] == "watchdog" else ResetReason.POWER_ON


cpu = Processor()
watchdog = _watchdog.WatchDogTimer()  # fakes/cp/watchdog.py: feed, timeout and mode, as on CircuitPython 10
