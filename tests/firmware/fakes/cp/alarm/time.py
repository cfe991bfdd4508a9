"""Fake alarm.time: TimeAlarm(*, monotonic_time=None, epoch_time=None) (monotonic_time only here), whose objects
have one property, `monotonic_time`."""


class TimeAlarm:
    def __init__(self, *, monotonic_time=None, epoch_time=None):
        if monotonic_time is None:
            raise ValueError("fake: give monotonic_time")
        self._t = monotonic_time

    @property
    def monotonic_time(self):
        return self._t
