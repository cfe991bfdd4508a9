"""Adafruit Feather RP2040 (product 4884), CircuitPython or MicroPython. Wiring: hardware/README.md.

The OLED and an LIS3DH accelerometer share the STEMMA QT / SDA-SCL bus; no shake switch.
Pin = (CircuitPython board name, MicroPython machine.Pin id = the RP2040 GPIO).
"""

NAME = "Adafruit Feather RP2040"

I2C_ID = 1  # GPIO2/GPIO3 are I2C1 on the RP2040
SDA = ("SDA", 2)
SCL = ("SCL", 3)
I2C_HZ = 400000
OLED_ADDRS = (0x3C, 0x3D)  # the SSD1306's SA0 (address jumper) low / high; the first one found is used

PIXELS = ("A2", 28)
PIXEL_COUNT = 5
PIXEL_ORDER = b"\x00\x01\x02\x03\x04"

BUZZER = ("A1", 27)

BUTTONS = (
    ("HOLD1", ("D4", 6)),
    ("HOLD2", ("D5", 7)),
    ("HOLD3", ("D6", 8)),
    ("HOLD4", ("D9", 9)),
    ("HOLD5", ("D10", 10)),
    ("ROLL", ("D11", 11)),
    ("UP", ("D12", 12)),
    ("DOWN", ("D24", 24)),
    ("OK", ("D25", 25)),
    ("BACK", ("A0", 26)),
)

SHAKE = "lis3dh"
LIS3DH_ADDR = 0x18  # Adafruit breakout default (SDO pulled low); 0x19 with SDO high

BOOT_BUTTON = "BACK"

# No battery gauge: unlike many Feathers, the Feather RP2040 has no divider from BAT to an analog pin. Wire one
# (2 x 100k from BAT to A3 = GPIO29, the only free ADC pin) and set BATTERY = ("A3", 29), BATTERY_DIVIDER = 2.
BATTERY = None

# Board facts: the deploy and fivedice.features read them; the board's copy ends before them (docs/memory.md)
HEAP_KB = {"cp": 162, "mp": 240}  # an RP2040's, as the Pico's (not measured on this board)
DRIVE_KB = {"cp": 7 * 1024}  # CIRCUITPY on its 8 MB flash
_LEAN = ("records", "proftest", "sound", "pixels", "shake")
LEAVE_OUT = {"cp": _LEAN, "mp": _LEAN}  # what its heap allows: the Pico's
MPY_ARCH = {"mp": "armv6m"}  # the RP2040's Cortex-M0+: MicroPython's native code (glyphs_mp)
