"""Ten (or any number of) active-low buttons, debounced by adafruit_debouncer, read as one press bitmask.

Works on CircuitPython (pass digitalio.DigitalInOut objects with a pull-up) and on MicroPython
(pass machine.Pin's bound `value` method: adafruit_debouncer takes any zero-argument callable and
runs there with adafruit_ticks). A pressed button reads low, so a press is the debouncer's `fell`.
"""
from adafruit_debouncer import Debouncer


class Buttons:
    """inputs[k]: a DigitalInOut or a callable returning the pin level; ids[k]: the app button number (0..29)."""

    def __init__(self, inputs, ids, interval_s=0.01):
        if len(inputs) != len(ids):
            raise ValueError("one id per input")
        self._deb = [Debouncer(i, interval=interval_s) for i in inputs]
        self._ids = bytes(ids)
        self._n = len(inputs)

    def poll(self):
        """Update every debouncer; return a bitmask of the app buttons pressed since the last poll."""
        mask = 0
        deb = self._deb
        ids = self._ids
        for k in range(self._n):
            d = deb[k]
            d.update()
            if d.fell:
                mask |= 1 << ids[k]
        return mask

    def down(self):
        """Bitmask of the app buttons held down now (debounced)."""
        mask = 0
        for k in range(self._n):
            if not self._deb[k].value:
                mask |= 1 << self._ids[k]
        return mask
