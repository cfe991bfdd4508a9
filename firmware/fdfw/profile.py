"""Load and check a board profile by name (see hardware/boards/__init__.py for the fields)."""

_REQUIRED = (
    "NAME",
    "I2C_ID",
    "SDA",
    "SCL",
    "I2C_HZ",
    "OLED_ADDRS",
    "PIXELS",
    "PIXEL_COUNT",
    "PIXEL_ORDER",
    "BUZZER",
    "BUTTONS",
    "SHAKE",
    "BOOT_BUTTON",
)
_SPI_OLED = ("OLED_SCK", "OLED_MOSI", "OLED_CS", "OLED_DC", "OLED_RESET", "OLED_COL", "OLED_HZ")
BUTTON_NAMES = ("HOLD1", "HOLD2", "HOLD3", "HOLD4", "HOLD5", "ROLL", "UP", "DOWN", "OK", "BACK")


class ProfileError(Exception):
    """A plain message about the board profile; printed as is, never as a traceback."""


def configured_name():
    """The profile named in board_config.py."""
    try:
        import board_config
    except ImportError:
        raise ProfileError("board_config.py is missing: copy firmware/board_config.py to the board "
                           "and set BOARD to one of the profiles in hardware/boards/")
    name = getattr(board_config, "BOARD", None)
    if not isinstance(name, str) or not name:
        raise ProfileError("board_config.py must set BOARD = \"<profile name>\"")
    return name


def known_names():
    try:
        import boards
    except ImportError:
        return ()
    return getattr(boards, "NAMES", ())


def load(name):
    """The profile module `boards.<name>`, checked; ProfileError with a plain message otherwise."""
    names = known_names()
    if name not in names:
        if names:
            hint = "known profiles: " + ", ".join(names)
        else:
            hint = "no boards/ folder found: copy hardware/boards/ to the board's /lib/boards/"
        raise ProfileError("unknown board profile '" + name + "' in board_config.py; " + hint)
    try:
        mod = __import__("boards." + name, None, None, ("NAME",))
    except ImportError:
        raise ProfileError(
            "board profile '" + name + "' is listed but boards/" + name + ".py is missing"
        )
    check(mod, name)
    return mod


def check(mod, name):
    for key in _REQUIRED:
        if not hasattr(mod, key):
            raise ProfileError("board profile '" + name + "' lacks " + key)
    got = [b[0] for b in mod.BUTTONS]
    for b in BUTTON_NAMES:
        if b not in got:
            raise ProfileError("board profile '" + name + "' has no pin for button " + b)
    if mod.PIXEL_COUNT < 5 or len(mod.PIXEL_ORDER) != 5:
        raise ProfileError(
            "board profile '" + name + "' needs PIXEL_COUNT >= 5 and 5 PIXEL_ORDER entries"
        )
    if mod.SHAKE == "switch":
        if not hasattr(mod, "SHAKE_PIN"):
            raise ProfileError(
                "board profile '" + name + "' uses a shake switch but has no SHAKE_PIN"
            )
    elif mod.SHAKE == "lis3dh":
        if not hasattr(mod, "LIS3DH_ADDR"):
            raise ProfileError("board profile '" + name + "' uses an LIS3DH but has no LIS3DH_ADDR")
    elif mod.SHAKE == "encoder":
        if not hasattr(mod, "ENCODER_A") or not hasattr(mod, "ENCODER_B"):
            raise ProfileError(
                "board profile '" + name + "' shakes with an encoder but has no ENCODER_A/B"
            )
    else:
        raise ProfileError(
            "board profile '" + name + '\': SHAKE must be "switch", "lis3dh" or "encoder"'
        )
    if getattr(mod, "DISPLAY", "ssd1306_i2c") == "sh1106_spi":
        for key in _SPI_OLED:
            if not hasattr(mod, key):
                raise ProfileError("board profile '" + name + "' has an SPI SH1106 but no " + key)
    if getattr(mod, "BATTERY", None) is not None and not hasattr(mod, "BATTERY_DIVIDER"):
        raise ProfileError("board profile '" + name + "' has a BATTERY pin but no BATTERY_DIVIDER")
    if mod.BOOT_BUTTON not in BUTTON_NAMES:
        raise ProfileError("board profile '" + name + "': BOOT_BUTTON must be a button name")


def runs_on(mod, runtime):
    """True when the profile's board runs `runtime` ("cp" or "mp"): RUNTIMES, both by default."""
    return runtime in getattr(mod, "RUNTIMES", ("cp", "mp"))


def button_pin(mod, name):
    for b in mod.BUTTONS:
        if b[0] == name:
            return b[1]
    raise ProfileError("no pin for button " + name)
