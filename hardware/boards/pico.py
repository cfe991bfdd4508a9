"""Raspberry Pi Pico (RP2040), MicroPython or CircuitPython. Wiring: hardware/README.md.

Pin = (CircuitPython board name, MicroPython machine.Pin id). Physical header pin in the comment.
"""

NAME = "Raspberry Pi Pico (RP2040)"

I2C_ID = 0  # GP4/GP5 are I2C0 on the RP2040
SDA = ("GP4", 4)  # pin 6
SCL = ("GP5", 5)  # pin 7
I2C_HZ = 400000
OLED_ADDRS = (0x3C, 0x3D)  # the SSD1306's SA0 (address jumper) low / high; the first one found is used

PIXELS = ("GP22", 22)  # pin 29, WS2812B DIN through 330 ohm
PIXEL_COUNT = 5
PIXEL_ORDER = b"\x00\x01\x02\x03\x04"  # strip runs left to right under HOLD1..HOLD5

BUZZER = ("GP15", 15)  # pin 20, PWM slice 7 B; nothing else on slice 7 uses PWM

BUTTONS = (
    ("HOLD1", ("GP6", 6)),  # pin 9
    ("HOLD2", ("GP7", 7)),  # pin 10
    ("HOLD3", ("GP8", 8)),  # pin 11
    ("HOLD4", ("GP9", 9)),  # pin 12
    ("HOLD5", ("GP10", 10)),  # pin 14
    ("ROLL", ("GP11", 11)),  # pin 15
    ("UP", ("GP12", 12)),  # pin 16
    ("DOWN", ("GP13", 13)),  # pin 17
    ("OK", ("GP14", 14)),  # pin 19
    ("BACK", ("GP16", 16)),  # pin 21
)

SHAKE = "switch"
SHAKE_PIN = ("GP2", 2)  # pin 4, SW-18010P vibration switch to GND

BOOT_BUTTON = "BACK"

BATTERY = ("VOLTAGE_MONITOR", 29)  # VSYS through the board's own 200k/100k divider to GP29 (ADC3); no header pin
BATTERY_DIVIDER = 3

# Board facts: the deploy and fivedice.features read them; the board's copy ends before them (docs/memory.md)
HEAP_KB = {"cp": 162, "mp": 240}  # free heap before the project starts (measured, emulated Pico)
DRIVE_KB = {"cp": 1024}  # CIRCUITPY on its 2 MB flash (MicroPython's littlefs, ~1.4 MB, holds any table)
# left out so that a table game keeps its margin (16 KB CircuitPython, 64 KB MicroPython): most heap for least
_LEAN = ("records", "proftest", "sound", "pixels", "shake")
LEAVE_OUT = {"cp": _LEAN, "mp": _LEAN}
MPY_ARCH = {"mp": "armv6m"}  # the RP2040's Cortex-M0+: MicroPython's native code (glyphs_mp)
