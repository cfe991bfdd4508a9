"""Fake alarm.time: TimeAlarm(*, monotonic_time=None, epoch_time=None) (monotonic_time only here)."""


class TimeAlarm:
    def __init__(self, *, monotonic_time=None, epoch_time=None):
        if monotonic_time is None:
            raise ValueError("fake: give monotonic_time")
        self.monotonic_time = monotonic_time
