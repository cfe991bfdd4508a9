"""Fake CircuitPython `analogio`: AnalogIn(pin).value is fakehw.adc[gpio] (16 bits, 0 if unset), reference 3.3 V."""
import fakehw


class AnalogIn:
    def __init__(self, pin):
        fakehw.claim(pin.gpio, "AnalogIn")
        self.gpio = pin.gpio

    @property
    def value(self):
        return fakehw.adc.get(self.gpio, 0)

    @property
    def reference_voltage(self):
        return 3.3

    def deinit(self):
        fakehw.free(self.gpio)
