"""Fake alarm.pin: PinAlarm(pin, value, edge=False, pull=False), after shared-bindings/alarm/pin/PinAlarm.c."""


class PinAlarm:
    def __init__(self, pin, value, edge=False, pull=False):
        if edge:
            raise NotImplementedError("fake: edge-triggered PinAlarms are not modelled (the firmware uses levels)")
        self.pin = pin
        self.value = value
        self.edge = edge
        self.pull = pull
