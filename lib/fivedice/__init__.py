"""fivedice: a Yahtzee-family dice game library for CPython, MicroPython and CircuitPython."""
