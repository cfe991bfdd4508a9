"""Fake alarm.pin: PinAlarm(pin, value, edge=False, pull=False), after shared-bindings/alarm/pin/PinAlarm.c,
whose objects have two properties, `pin` and `value` (edge and pull are kept privately, as in C)."""


class PinAlarm:
    def __init__(self, pin, value, edge=False, pull=False):
        if edge:
            raise NotImplementedError("fake: edge-triggered PinAlarms are not modelled (the firmware uses levels)")
        self._pin = pin
        self._value = value
        self._edge = edge
        self._pull = pull

    @property
    def pin(self):
        return self._pin

    @property
    def value(self):
        return self._value
