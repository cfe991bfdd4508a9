"""Fake CircuitPython `digitalio` over fakehw (pins are refused twice, like the real one)."""
import fakehw


class Direction:
    INPUT = "input"
    OUTPUT = "output"


class Pull:
    UP = "up"
    DOWN = "down"


class DigitalInOut:
    def __init__(self, pin):
        fakehw.claim(pin.gpio, "DigitalInOut")
        self.gpio = pin.gpio
        self._dir = Direction.INPUT
        self._pull = None
        self._out = False

    def deinit(self):
        fakehw.free(self.gpio)
        fakehw.pulls.pop(self.gpio, None)
        fakehw.outputs.pop(self.gpio, None)

    def switch_to_input(self, pull=None):
        self.direction = Direction.INPUT
        self.pull = pull

    def switch_to_output(self, value=False, drive_mode=None):
        self.direction = Direction.OUTPUT
        self.value = value

    @property
    def direction(self):
        return self._dir

    @direction.setter
    def direction(self, d):
        self._dir = d

    @property
    def pull(self):
        return self._pull

    @pull.setter
    def pull(self, p):
        self._pull = p
        fakehw.pulls[self.gpio] = p

    @property
    def value(self):
        if self._dir == Direction.OUTPUT:
            return self._out
        return bool(fakehw.read(self.gpio))

    @value.setter
    def value(self, v):
        self._out = bool(v)
        if self._dir == Direction.OUTPUT:
            fakehw.outputs[self.gpio] = self._out
