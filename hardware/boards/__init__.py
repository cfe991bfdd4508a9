"""Board profiles: one small data module per board (pins and buses only, no code)."""
# Each profile names the same things, so the firmware never hard-codes a pin:
#   NAME                  human name of the board
#   SDA, SCL, I2C_ID      the I2C bus of the SSD1306 (and the LIS3DH if fitted); I2C_ID is MicroPython's bus number
#   I2C_HZ, OLED_ADDRS    bus speed; the SSD1306's possible 7-bit addresses, in the order they are tried (0x3C, 0x3D)
#   PIXELS, PIXEL_COUNT   NeoPixel data pin and how many pixels (>= 5)
#   PIXEL_ORDER           bytes: the pixel index under hold button 1..5
#   BUZZER                passive piezo on a PWM-capable pin
#   BUTTONS               (name, pin) pairs; names are the fivedice.app button names without "B_"
#                         (HOLD1..HOLD5, ROLL, UP, DOWN, OK, BACK); all active-low with the internal pull-up
#   SHAKE                 "switch" (SHAKE_PIN, a tilt/vibration switch to GND), "lis3dh" (LIS3DH_ADDR on the I2C bus)
#                         or "encoder" (ENCODER_A/B, a rotary encoder: a spin on the dice screen shakes, else UP/DOWN)
#   optional: RUNTIMES    ("cp", "mp") by default; DISPLAY "ssd1306_i2c" by default, or "sh1106_spi" (OLED_SCK,
#                         OLED_MOSI, OLED_CS, OLED_DC, OLED_RESET, OLED_COL, OLED_HZ); SPEAKER_ENABLE (on while a
#                         tone plays); FACE_COLORS, KEY_COLORS (fivedice.pixels_view); KEY_LABELS (the key picture)
#   BOOT_BUTTON           the button which, held at reset, kept CircuitPython's drive writable over USB under the
#                         boot.py of fivedice before nvm saves (fivedice ships no boot.py now)
#   BATTERY               optional: the ADC pin reading the supply through a divider of 1/BATTERY_DIVIDER (the Pico's
#                         VSYS / 3 on GP29), for the battery gauge; None (or absent) where the board has no such input
#   board facts, last, after the line "# Board facts" (the deploy and fivedice.features read them; the board's
#   copy of the profile ends before that line): HEAP_KB, DRIVE_KB, LEAVE_OUT, MPY_ARCH, each a dict by runtime
#                         ("cp", "mp") of the free heap before the project (KB), the drive's size (KB; none:
#                         any table fits), the features an install leaves out (fivedice.features.MODULES) and
#                         the CPU native code is built for (mpy-cross -march: firmware/deploy.py NATIVE); a
#                         runtime missing from a dict: not known, nothing left out, no native code
# A pin is a pair (CircuitPython `board` attribute name, MicroPython `machine.Pin` id).

NAMES = ("pico", "feather_rp2040", "pico2", "macropad")
