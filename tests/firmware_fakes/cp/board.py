"""Fake CircuitPython `board`: the Pico's GPn names and the Feather RP2040's names, by RP2040 GPIO.

On a board `board` is C and its pins cost no heap; here each pin object is made the first time a
name is asked for (a module __getattr__, on CPython and MicroPython alike), and names of the same
GPIO share one object as on the real board, so the heap proxy (tests/bench/cp_heap.py) counts only
the pins the firmware touches.
"""
from microcontroller import Pin

board_id = "fake_rp2040"

_FEATHER = {"TX": 0, "RX": 1, "D0": 0, "D1": 1, "SDA": 2, "SCL": 3, "D4": 6, "D5": 7, "D6": 8, "D9": 9, "D10": 10,
            "D11": 11, "D12": 12, "D13": 13, "LED": 13, "NEOPIXEL": 16, "SCK": 18, "MOSI": 19, "MISO": 20,
            "D24": 24, "D25": 25, "A0": 26, "A1": 27, "A2": 28, "A3": 29}
_made = {}


_PICO = {"VOLTAGE_MONITOR": 29, "SMPS_MODE": 23, "VBUS_SENSE": 24}  # the Pico's own signals (not on the header)


def _gpio(name):
    if name in _FEATHER:
        return _FEATHER[name]
    if name in _PICO:
        return _PICO[name]
    if name.startswith("GP") and name[2:].isdigit() and int(name[2:]) < 30:
        return int(name[2:])
    return -1


def __getattr__(name):
    g = _gpio(name)
    if g < 0:
        raise AttributeError("'module' object has no attribute '%s'" % name)
    p = _made.get(g)
    if p is None:
        p = _made[g] = Pin(g, name)
    return p
