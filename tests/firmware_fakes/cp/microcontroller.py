"""Fake CircuitPython `microcontroller`: just Pin."""


class Pin:
    def __init__(self, gpio, name):
        self.gpio = gpio
        self.name = name

    def __repr__(self):
        return "board." + self.name
