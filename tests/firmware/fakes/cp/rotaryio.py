"""Fake CircuitPython `rotaryio.IncrementalEncoder` over fakehw.encoders (fakehw.turn() turns it).

CircuitPython 10's object: IncrementalEncoder(pin_a, pin_b, divisor=4), `position` (read/write), `divisor`
(read/write), deinit(), __enter__/__exit__. The count is the quadrature transitions // divisor.
"""
import fakehw


class IncrementalEncoder:
    def __init__(self, pin_a, pin_b, divisor=4):
        fakehw.claim(pin_a.gpio, "IncrementalEncoder")
        fakehw.claim(pin_b.gpio, "IncrementalEncoder")
        self._a = pin_a.gpio
        self._b = pin_b.gpio
        self.divisor = divisor
        self._base = fakehw.encoders.get(self._a, 0)
        self._pos = 0

    def deinit(self):
        fakehw.free(self._a)
        fakehw.free(self._b)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()

    @property
    def position(self):
        return self._pos + (fakehw.encoders.get(self._a, 0) - self._base) // self.divisor

    @position.setter
    def position(self, value):
        self._pos = value
        self._base = fakehw.encoders.get(self._a, 0)
