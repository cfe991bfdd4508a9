"""Fake CircuitPython `supervisor`: ticks_ms from the fake clock (adafruit_ticks picks it up first)."""
import fakehw


def ticks_ms():
    return fakehw.clock[0]
