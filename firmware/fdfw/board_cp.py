"""CircuitPython's board glue while the game runs: the small run-time callables fdfw.setup_cp hands
to the built board. The display is its own modules (fdfw.bitmap_cp with fdfw.ssd1306_cp or
fdfw.sh1106_cp): a board loads only its own panel's."""
# hw.sleep_ms, the shake switch's read, hw.battery, hw.make_sleep, hw.start_watchdog. The light
# sleep itself (fdfw.sleep_cp) loads at the first sleep, the setup (fdfw.setup_cp) is dropped after
# start-up: a function keeps its module's globals, hence the whole module, in the heap, so what only
# start-up needs stays out of here.
from fivedice.power import read_mv
from fivedice import loop as _idle



# fivedice.loop.Idle's slices in s, made once: ms / 1000 would box a new float a slice
_SLICE_S = _idle.SLICE_MS / 1000
_QUICK_S = _idle.QUICK_MS / 1000


def sleep_ms(sleep_s):
    """hw.sleep_ms over time.sleep (seconds)."""

    def sleep(ms):
        sleep_s(
            _SLICE_S if ms == _idle.SLICE_MS else _QUICK_S if ms == _idle.QUICK_MS else ms / 1000
        )

    return sleep


def value_of(io):
    """read() -> io.value: a DigitalInOut as the plain callable fdfw.shake_input takes."""

    def read():
        return io.value

    return read


def battery(ai, div, ref):
    """hw.battery: the supply in mV from an analogio.AnalogIn behind a 1/div divider, reference ref
    mV."""
    def mv():
        return read_mv(ai.value, div, ref)

    return mv


def keys(keypad, pins):
    """A keypad.Keys over the buttons' board pins (at start-up, and again after each light sleep).
    """
    # 10 ms scans: a bounce of up to ~8 ms holds at most one scan (no double press), a 20 ms tap at
    # least one
    return keypad.Keys(pins, value_when_pressed=False, pull=True, interval=0.010)


def light_sleep(pins, hw, monotonic):
    """hw.make_sleep: light sleep until a button on pin alarms (fdfw.sleep_cp.CPSleep, built at the
    first sleep: the `alarm` module and that code take heap only from then); None on a build without
    `alarm` or without `keypad`. pins: the buttons' board pins, in keypad.Keys order."""

    def make(buttons, feed):
        if not hasattr(buttons, "rebind"):
            # buttons on DigitalInOuts (no keypad): the screen goes dark, the board stays awake
            return None
        made = []

        def sleep():
            if not made:
                try:
                    import alarm
                    import alarm.pin  # noqa: F401
                # no light sleep on this build: the screen is dark, wait for a button
                except ImportError:
                    made.append(None)
                else:
                    import keypad

                    from fdfw.sleep_cp import CPSleep

                    made.append(
                        CPSleep(
                            alarm, pins, lambda: keys(keypad, pins), buttons, hw, monotonic
                        ).sleep
                    )
            if made[0] is None:
                while not buttons.pending():
                    hw.sleep_ms(_idle.SLICE_MS)
                return
            made[0]()

        return sleep

    return make


class _Watchdog:
    """microcontroller.watchdog in RESET mode, with MicroPython's WDT names (feed)."""

    def __init__(self, wd, ms):
        from watchdog import WatchDogMode

        wd.timeout = ms / 1000
        wd.mode = WatchDogMode.RESET
        self.feed = wd.feed
        self._wd = wd

    def stop(self):
        """Stop it for a light sleep. CircuitPython 10 has no WatchDogTimer.deinit() (removed in
        10.0.0): `mode = None` stops it (the RP2040 can; a port that cannot raises)."""
        self._wd.mode = None


def watchdog_start(wd, hw):
    """hw.start_watchdog(ms): microcontroller.watchdog `wd` started in RESET mode as hw.watchdog
    (None where the port refuses)."""

    def start(ms):
        try:
            hw.watchdog = _Watchdog(wd, ms)
            hw.watchdog_ms = ms
        except (ImportError, NotImplementedError, ValueError):
            hw.watchdog = None
        return hw.watchdog

    return start
