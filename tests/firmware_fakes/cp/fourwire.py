"""Fake CircuitPython `fourwire` core module: present because adafruit_displayio_ssd1306 names FourWire in a
type annotation (evaluated on CPython); the fake boards have no SPI display."""


class FourWire:
    def __init__(self, *a, **k):
        raise NotImplementedError("the fake board has no SPI display bus")
