"""The board's idle wait between loop passes (Idle), and how its light sleep works (the board glue's MPSleep /
CPSleep). The app decides when (fivedice.power, app.wait_ms / app.asleep); the board does it."""
# Idle(sleep_ms, buttons, shake, feed).idle(ms): the main loop calls it when no frame is due, with the ms to the
# app's next deadline. It sleeps in slices of SLICE_MS and returns early as soon as a button edge is pending
# (MicroPython: the pin IRQ ring holds an edge; CircuitPython: keypad's event queue is not empty) or the shake
# switch changed level; the watchdog is fed every slice. Nothing is allocated per call.
#
# Light sleep (called by the loop once the app has saved, darkened the pixels and switched the OLED off):
# - fdfw.board_mp.MPSleep: machine.lightsleep(SLEEP_SLICE_MS) in bounded slices (about 1 mA on a Pico,
#   micropython PR #8832). rp2 lightsleep has no dependable wake-on-pin (micropython #7035; a pin IRQ with a handler wakes a *timed*
#   lightsleep, which is what the slices are), so after each slice the ring and the button levels are checked, and
#   the watchdog is fed. A port without lightsleep (or one that refuses it) falls back to time.sleep_ms slices.
# - fdfw.sleep_cp.CPSleep (imported at the first sleep): keypad.Keys is released (its pins are needed by the
#   alarms), one alarm.pin.PinAlarm per button (value=False, pull=True: pressed reads low),
#   alarm.light_sleep_until_alarms(), then a new keypad.Keys is handed to the button reader. The watchdog is stopped for the sleep where the port allows it (RP2040 does);
#   otherwise a TimeAlarm wakes the board every WATCHDOG_SLICE_S to feed it and it sleeps again.
# In both, the press that woke the board is dropped by the loop (fdfw.loop): it does nothing else.
from fivedice.compat import const

SLICE_MS = const(20)  # a press waits at most this long to be seen (make bench-power: 10 ms slices cost 2x the CPU)


class Idle:
    def __init__(self, sleep_ms, buttons, shake=None, feed=None, slice_ms=SLICE_MS):
        self._sleep = sleep_ms
        self._pending = buttons.pending
        self._changed = shake.changed if shake is not None and hasattr(shake, "changed") else None
        self._feed = feed
        self._slice = slice_ms
        self.slept = 0  # ms asked of sleep_ms so far (for benchmarks and tests)

    def idle(self, ms):
        """Sleep up to ms; return early when a button edge or a shake-switch change is pending."""
        sleep = self._sleep
        pending = self._pending
        changed = self._changed
        feed = self._feed
        sl = self._slice
        while ms > 0:
            if pending():
                return
            if changed is not None and changed():
                return
            s = sl if ms > sl else ms
            sleep(s)
            self.slept += s
            ms -= s
            if feed is not None:
                feed()
