"""Fake CircuitPython `neopixel_write`: records the bytes sent to the strip (GRB order)."""
import fakehw


def neopixel_write(digitalinout, buf):
    fakehw.pixel_writes.append((digitalinout.gpio, bytes(buf)))
