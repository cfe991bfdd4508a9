"""Fake CircuitPython `microcontroller`: Pin, and `nvm`, an RP2040's 4 KB of non-volatile memory
(fakeflash.FakeNvm: len, slicing, slice assignment with the port's program-or-erase rule). It lives as
long as this module, so a test's "power cycle" (running code.py again) finds what was saved; a test
sets `microcontroller.nvm = None` for a board without nvm, as CircuitPython has then."""
from fakeflash import FakeNvm


class Pin:
    def __init__(self, gpio, name):
        self.gpio = gpio
        self.name = name

    def __repr__(self):
        return "board." + self.name


nvm = FakeNvm(4096)
