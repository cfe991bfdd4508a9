"""The board's idle wait between loop passes (Idle), and how its light sleep works (the board glue's
MPSleep / CPSleep). The app decides when (fivedice.power, app.wait_ms / app.asleep); the board does
it."""
# Idle(sleep_ms, buttons, shake, feed).idle(ms): the main loop calls it when no frame is due, with
# the ms to the app's next deadline. It sleeps in slices and returns early as soon as a button edge
# is pending (MicroPython: the pin IRQ ring holds an edge; CircuitPython: keypad's event queue is
# not empty) or the shake switch changed level, so a press waits at most a slice to be seen:
# QUICK_MS while someone plays (until QUICK_FOR_MS of quiet after the last press or shake), SLICE_MS
# once nobody has for that long (fewer wakes while the game waits). The watchdog is fed every slice.
# Nothing is allocated per call.
#
# Light sleep (called by the loop once the app has saved, darkened the pixels and switched the OLED
# off):
# - fdfw.board_mp.MPSleep: machine.lightsleep(SLEEP_SLICE_MS) in bounded slices (about 1 mA on a
# Pico,
#   micropython PR #8832). rp2 lightsleep has no dependable wake-on-pin (micropython #7035; a pin
#   IRQ with a handler wakes a *timed*
#   lightsleep, which is what the slices are), so after each slice the ring and the button levels
#   are checked, and
#   the watchdog is fed. A port without lightsleep (or one that refuses it) falls back to
#   time.sleep_ms slices.
# - fdfw.sleep_cp.CPSleep (imported at the first sleep): keypad.Keys is released (its pins are
# needed by the
#   alarms), one alarm.pin.PinAlarm per button (value=False, pull=True: pressed reads low),
#   alarm.light_sleep_until_alarms(), then a new keypad.Keys is handed to the button reader. The
#   watchdog is stopped for the sleep where the port allows it (RP2040 does);
#   otherwise a TimeAlarm wakes the board every WATCHDOG_SLICE_S to feed it and it sleeps again.
# In both, the press that woke the board is dropped by the loop (fdfw.loop): it does nothing else.
from fivedice.compat import const

SLICE_MS = const(20)  # the slice when nobody plays (make bench-power: 10 ms slices cost 2x the CPU)
QUICK_MS = const(5)  # the slice while someone plays: a press is seen within 5 ms, 2.5 on average
QUICK_FOR_MS = const(3000)  # quick slices go on this long after the last press or shake


class Idle:
    def __init__(self, sleep_ms, buttons, shake=None, feed=None):
        self._sleep = sleep_ms
        self._pending = buttons.pending
        self._changed = shake.changed if shake is not None and hasattr(shake, "changed") else None
        self._feed = feed
        # ms slept since a press or a shake last ended a wait, up to QUICK_FOR_MS (then slow slices)
        self.quiet = 0

    def idle(self, ms):
        """Sleep up to ms; return early when a button edge or a shake-switch change is pending."""
        sleep = self._sleep
        pending = self._pending
        changed = self._changed
        feed = self._feed
        while ms > 0:
            if pending() or (changed is not None and changed()):
                self.quiet = 0
                return
            sl = QUICK_MS if self.quiet < QUICK_FOR_MS else SLICE_MS
            s = sl if ms > sl else ms
            sleep(s)
            # it stops there: an int that grew for days would leave the small ints
            if self.quiet < QUICK_FOR_MS:
                self.quiet += s
            ms -= s
            if feed is not None:
                feed()
