"""Raspberry Pi Pico 2 (RP2350, 4 MB flash, 520 KB SRAM), MicroPython or CircuitPython: the Pico's wiring."""
# The Pico 2 keeps the Pico's header pinout and GPIO functions (GP4/GP5 are I2C0, GP15 is PWM slice 7 B on both
# chips), so its profile is the Pico's (hardware/boards/pico.py) under its own name. CircuitPython's `board` for
# raspberry_pi_pico2 names the pins GP0..GP28 like the Pico's; MicroPython's rp2 port (board RPI_PICO2) takes
# the GPIO number. Every input uses the internal pull-up to an active-low button, so the RP2350-A2 erratum
# E9 (inputs that rely on the internal pull-DOWN can latch high) does not apply.
# Recommended build for CircuitPython: its 520 KB of SRAM leaves a game with hints and the perfect CPU the heap
# a Pico's 264 KB does not (docs/memory.md); the Yahtzee table fits either board's flash.
from boards.pico import *  # noqa: F401,F403  (the deploy copies boards/pico.py with this file)

NAME = "Raspberry Pi Pico 2 (RP2350)"

# Board facts: the deploy and fivedice.features read them; the board's copy ends before them (docs/memory.md)
HEAP_KB = {}  # 520 KB of SRAM: room for every feature (not measured)
DRIVE_KB = {}  # 4 MB of flash: any table fits
LEAVE_OUT = {}
MPY_ARCH = {"mp": "armv7emsp"}  # the RP2350's Cortex-M33 (RPI_PICO2): MicroPython's native code (glyphs_mp)
