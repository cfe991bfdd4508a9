"""Fake CircuitPython `watchdog`: the WatchDogMode names (the timer itself is microcontroller.watchdog)."""


class WatchDogMode:
    RAISE = "RAISE"
    RESET = "RESET"
