"""Adafruit MacroPad RP2040 (product 5128), CircuitPython 10 only: nothing to wire. Keys: README.md.

12 keys with a NeoPixel under each (3 across, 4 down, KEY1 top left), a rotary encoder with a push switch, an
SH1106 128x64 OLED on SPI, a speaker with an enable pin. Pin = (CircuitPython board name, RP2040 GPIO), as the
board's pins.c names them (CircuitPython 10.x, adafruit_macropad_rp2040).
"""

NAME = "Adafruit MacroPad RP2040"
RUNTIMES = ("cp",)  # MicroPython has no MacroPad board definition here: `make deploy-mp` refuses it

# the STEMMA QT port (nothing on it is used); the OLED is on SPI (DISPLAY below)
I2C_ID = 0
SDA = ("SDA", 20)
SCL = ("SCL", 21)
I2C_HZ = 400000
OLED_ADDRS = ()

# The SH1106 CircuitPython brings up at boot as board.DISPLAY; fdfw.sh1106_cp drives it itself
DISPLAY = "sh1106_spi"
OLED_SCK = ("SCK", 26)
OLED_MOSI = ("MOSI", 27)
OLED_CS = ("OLED_CS", 22)
OLED_DC = ("OLED_DC", 24)
OLED_RESET = ("OLED_RESET", 23)
OLED_COL = 2  # the panel's first column in the SH1106's 132-column RAM
OLED_HZ = 10000000  # what the board's own display bus uses (board.c)

PIXELS = ("NEOPIXEL", 19)
PIXEL_COUNT = 12  # pixel k is under KEY(k+1)
PIXEL_ORDER = b"\x00\x01\x02\x03\x04"  # the dice are KEY1..KEY5
# Face colours (0xRRGGBB: off, then faces 1..6) told apart by lightness and the blue-yellow axis, not
# red against green: tests/firmware/test_macropad.py checks every pair under simulated protanopia and
# deuteranopia.
FACE_COLORS = (0x000000, 0x0000FF, 0x00BEFF, 0xFFFFFF, 0xFFAA00, 0xFF3200, 0xFF00C8)
# the other keys, lit in their job's colour (pixel k: KEY(k+1)); 0: unused, dark
KEY_COLORS = (0, 0, 0, 0, 0, 0xFFFFFF, 0x0078FF, 0x0078FF, 0xFFAA00, 0xFF0000, 0, 0)

SPEAKER = ("SPEAKER", 16)
SPEAKER_ENABLE = ("SPEAKER_ENABLE", 14)  # the amplifier is on only while a tone plays
BUZZER = SPEAKER

# KEY1..KEY12 (pressed = low, pull-ups) and the encoder's switch; two pins may share a job (OK)
BUTTONS = (
    ("HOLD1", ("KEY1", 1)),
    ("HOLD2", ("KEY2", 2)),
    ("HOLD3", ("KEY3", 3)),
    ("HOLD4", ("KEY4", 4)),
    ("HOLD5", ("KEY5", 5)),
    ("ROLL", ("KEY6", 6)),
    ("UP", ("KEY7", 7)),  # "^": the hint on the dice screen, up elsewhere
    ("DOWN", ("KEY8", 8)),  # "v": the card on the dice screen, down elsewhere
    ("OK", ("KEY9", 9)),
    ("BACK", ("KEY10", 10)),
    ("OK", ("ENCODER_SWITCH", 0)),
)
# the key picture (README, the simulator): each key's label, KEY1..KEY12
KEY_LABELS = ("1", "2", "3", "4", "5", "ROLL", "^ hint", "v card", "OK", "BACK", "", "")

# The encoder: a detent is UP (turned left) or DOWN (right) on every screen but the dice, where a spin
# shakes the dice (they tumble while it turns, and land when it stops: fdfw.encoder)
SHAKE = "encoder"
ENCODER_A = ("ENCODER_A", 17)
ENCODER_B = ("ENCODER_B", 18)

BOOT_BUTTON = "BACK"
BATTERY = None  # USB powered

# Board facts: the deploy and fivedice.features read them; the board's copy ends before them (docs/memory.md)
HEAP_KB = {"cp": 162}  # an RP2040's, as the Pico's (not measured on this board)
DRIVE_KB = {"cp": 7 * 1024}  # CIRCUITPY on its 8 MB flash
LEAVE_OUT = {"cp": ("records", "proftest")}  # it keeps its lit keys, speaker and knob: they are its controls
