"""Fake CircuitPython 10 `alarm` (light sleep only) over fakehw, after shared-bindings/alarm. Its public names are
the real module's on an RP2040: wake_alarm, light_sleep_until_alarms, exit_and_deep_sleep_until_alarms, pin, time,
SleepMemory, sleep_memory (no `touch`: TouchAlarm is not available on the RP2040).

light_sleep_until_alarms(*alarms): "Performs a light sleep until woken by one of the alarms. The alarm that
woke the board is returned, and is also available as alarm.wake_alarm." An alarm already true when the sleep
starts returns at once; a PinAlarm (value, edge=False: level-triggered) fires while its pin reads `value`; a
TimeAlarm fires when time.monotonic() reaches monotonic_time. The alarms' pins must not be in use (a
keypad.Keys or DigitalInOut holding one makes the real call raise "Pin in use"): the fake claims them for
the sleep and frees them after. Light sleep keeps RAM and the program: it returns, and code goes on.
Here the fake clock moves 1 ms at a time (scheduled edges land) until an alarm fires; sleeping more than an
hour of fake time with nothing to wake it is a test error (on a board it would sleep forever).
What tests read is in fakehw, not here: sleeps[1] (light sleeps entered), sleeps[2] (fake ms spent in them).
"""
import fakehw as _hw

from alarm import pin, time  # noqa: F401  (submodules, as `import alarm` gives on a board)

wake_alarm = None
_MAX_SLEEP_MS = 3600 * 1000


def _fired(a, t0, elapsed):
    if isinstance(a, pin.PinAlarm):
        return _hw.read(a.pin.gpio) == (1 if a.value else 0)
    if isinstance(a, time.TimeAlarm):
        return t0 + elapsed / 1000 >= a.monotonic_time
    raise TypeError("not an alarm")


def light_sleep_until_alarms(*alarms):
    global wake_alarm
    if not alarms:
        raise ValueError("no alarms")
    t0 = _hw.clock[0] / 1000
    claimed = []
    try:
        for a in alarms:
            if isinstance(a, pin.PinAlarm):
                if a.pin.gpio in _hw.claimed:
                    raise ValueError("%r in use" % (a.pin,))
                _hw.claim(a.pin.gpio, "PinAlarm")
                claimed.append(a.pin.gpio)
                if a._pull:
                    _hw.pulls[a.pin.gpio] = "down" if a.value else "up"
        _hw.sleeps[1] += 1
        elapsed = 0
        while True:
            for a in alarms:
                if _fired(a, t0, elapsed):
                    wake_alarm = a
                    _hw.sleeps[2] += elapsed
                    return a
            if elapsed >= _MAX_SLEEP_MS:
                raise RuntimeError("fake alarm: nothing woke the board in an hour of fake time")
            _hw.advance(1)
            elapsed += 1
    finally:
        for g in claimed:
            _hw.free(g)


def exit_and_deep_sleep_until_alarms(*alarms, preserve_dios=()):
    """Deep sleep ends the program on a board (code.py starts again when an alarm fires): not modelled."""
    raise NotImplementedError("fake: deep sleep is not modelled (the firmware light-sleeps only)")


class SleepMemory:
    """RAM kept through deep sleep; the RP2040 port has none ("Sleep Memory not available")."""

    def __len__(self):
        return 0

    def __getitem__(self, i):
        raise IndexError("Sleep Memory not available")

    def __setitem__(self, i, v):
        raise IndexError("Sleep Memory not available")


sleep_memory = SleepMemory()
