"""CircuitPython light sleep until a button (docs/power.md): pin alarms, keypad released and
rebuilt. Imported at the first sleep, not at start-up (the alarm module and this code are only
needed then)."""

WATCHDOG_SLICE_S = 4  # when the watchdog cannot be stopped: wake to feed it this often


class CPSleep:
    """CircuitPython light sleep until a button. `pins`: the buttons' board pins; `make_keys()`
    builds the keypad.Keys again; `reader`: the fdfw.buttons.KeypadButtons to hand it to;
    `watchdog`: the Hardware's recovery fields (hw), so the watchdog can be stopped and started
    again around the sleep."""

    def __init__(self, alarm, pins, make_keys, reader, hw=None, monotonic=None):
        self._alarm = alarm
        self._pins = pins
        self._make_keys = make_keys
        self._reader = reader
        self._hw = hw
        self._monotonic = monotonic
        self.sleeps = 0
        self.woke_by = None  # the alarm light_sleep_until_alarms returned last

    def sleep(self):
        alarm = self._alarm
        self._reader.release()  # keypad.Keys.deinit(): the alarms need the pins
        hw = self._hw
        wd = hw.watchdog if hw is not None else None
        stopped = False
        if wd is not None:
            try:
                wd.stop()
                stopped = True
            except (NotImplementedError, RuntimeError, ValueError):
                pass
        try:
            while True:
                alarms = [alarm.pin.PinAlarm(p, value=False, pull=True) for p in self._pins]
                if wd is not None and not stopped:
                    import alarm.time as _t  # noqa: F401  (a module of the alarm package)

                    alarms.append(
                        alarm.time.TimeAlarm(monotonic_time=self._monotonic() + WATCHDOG_SLICE_S)
                    )
                woke = alarm.light_sleep_until_alarms(*alarms)
                self.sleeps += 1
                self.woke_by = woke
                alarms = None
                if wd is not None and not stopped:
                    wd.feed()
                    if woke is not None and hasattr(woke, "monotonic_time"):
                        continue  # the watchdog's time alarm: sleep again
                return
        finally:
            self._reader.rebind(self._make_keys())
            if stopped and hw.start_watchdog is not None:
                hw.start_watchdog(hw.watchdog_ms)
