"""Fake CircuitPython `alarm` (light sleep only) over fakehw, after shared-bindings/alarm:

light_sleep_until_alarms(*alarms): "Performs a light sleep until woken by one of the alarms. The alarm that
woke the board is returned, and is also available as alarm.wake_alarm." An alarm already true when the sleep
starts returns at once; a PinAlarm (value, edge=False: level-triggered) fires while its pin reads `value`; a
TimeAlarm fires when time.monotonic() reaches monotonic_time. The alarms' pins must not be in use (a
keypad.Keys or DigitalInOut holding one makes the real call raise "Pin in use"): the fake claims them for
the sleep and frees them after. Light sleep keeps RAM and the program: it returns, and code goes on.
Here the fake clock moves 1 ms at a time (scheduled edges land) until an alarm fires; sleeping more than
MAX_SLEEP_MS with nothing to wake it is a test error (on a board it would sleep forever).
Test aids: `sleeps` (calls), `slept_ms` (fake ms spent asleep).
"""
import fakehw

from alarm import pin, time  # noqa: F401  (submodules, as `import alarm` gives on a board)

wake_alarm = None
sleeps = [0]
slept_ms = [0]
MAX_SLEEP_MS = 3600 * 1000


def _fired(a, t0, elapsed):
    if isinstance(a, pin.PinAlarm):
        return fakehw.read(a.pin.gpio) == (1 if a.value else 0)
    if isinstance(a, time.TimeAlarm):
        return t0 + elapsed / 1000 >= a.monotonic_time
    raise TypeError("not an alarm")


def light_sleep_until_alarms(*alarms):
    global wake_alarm
    if not alarms:
        raise ValueError("no alarms")
    t0 = fakehw.clock[0] / 1000
    claimed = []
    try:
        for a in alarms:
            if isinstance(a, pin.PinAlarm):
                if a.pin.gpio in fakehw.claimed:
                    raise ValueError("%r in use" % (a.pin,))
                fakehw.claim(a.pin.gpio, "PinAlarm")
                claimed.append(a.pin.gpio)
                if a.pull:
                    fakehw.pulls[a.pin.gpio] = "down" if a.value else "up"
        sleeps[0] += 1
        elapsed = 0
        while True:
            for a in alarms:
                if _fired(a, t0, elapsed):
                    wake_alarm = a
                    slept_ms[0] += elapsed
                    return a
            if elapsed >= MAX_SLEEP_MS:
                raise RuntimeError("fake alarm: nothing woke the board in an hour of fake time")
            fakehw.advance(1)
            elapsed += 1
    finally:
        for g in claimed:
            fakehw.free(g)
