"""Raspberry Pi Pico 2 (RP2350, 4 MB flash, 520 KB SRAM), MicroPython or CircuitPython."""
# The same wiring as the Pico (hardware/boards/pico.py): the Pico 2 keeps the Pico's header pinout and GPIO
# functions (GP4/GP5 are I2C0, GP15 is PWM slice 7 B on both chips). CircuitPython's `board` for
# raspberry_pi_pico2 names them GP0..GP28 like the Pico's; MicroPython's rp2 port (board RPI_PICO2) takes
# the GPIO number. Every input uses the internal pull-up to an active-low button, so the RP2350-A2 erratum
# E9 (inputs that rely on the internal pull-DOWN can latch high) does not apply.
# Recommended build for CircuitPython: its 520 KB of SRAM leaves a game with hints and the perfect CPU the heap
# a Pico's 264 KB does not (docs/memory.md); the Yahtzee table fits either board's flash.
#
# Pin = (CircuitPython board name, MicroPython machine.Pin id). Physical header pin in the comment.

NAME = "Raspberry Pi Pico 2 (RP2350)"

I2C_ID = 0  # GP4/GP5 are I2C0 on the RP2350 too
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
