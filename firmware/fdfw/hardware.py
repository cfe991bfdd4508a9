"""The built board's record (Hardware) and what the setup modules share: StartupError, the display's
and the LIS3DH's checks. fdfw.start and the setup modules (setup_cp, setup_mp, setup_spi) import it;
no setup module imports fdfw.start (no import circle). Dropped with them after start-up
(fivedice.lazy "startup")."""


class Hardware:
    """The built board: every field is a driver object or None. Defaults are class attributes and
    the class has no functions, so a built board does not keep this start-up module loaded."""

    display = None
    pixels = None  # px[i] = 0xRRGGBB; show()
    pixel_count = 0
    buzzer = None  # tone(freq, ms) / off()
    # profile.BUTTONS order: keypad.Keys, buttons.EdgeRing, or DigitalInOuts/callables
    button_inputs = None
    button_names = None
    shake = None  # .update(now_ms) -> 1 / -1 / 0
    # fdfw.encoder.Encoder (also hw.shake): its detents are UP/DOWN off the dice screen
    encoder = None
    pixel_colors = None  # the profile's (PIXEL_ORDER, FACE_COLORS, KEY_COLORS) for the App, or None
    store = None
    ticks_ms = None
    sleep_ms = None  # sleep_ms(ms): the idle loop's slices (fdfw.idle.Idle); None: the loop spins
    idle = None
    make_sleep = None  # make_sleep(buttons, feed) -> sleep(): light sleep until a button, or None
    battery = None  # battery() -> supply mV (the profile's BATTERY input), or None: no such input
    # recovery (fdfw.recover): the watchdog once started, how to start it, whether the last reset
    # was the watchdog's, and where the error log goes (None: the console only)
    watchdog = None
    start_watchdog = None
    after_watchdog = False
    watchdog_ms = 0  # the timeout it was started with (a sleep that stops it starts it again)
    reset = None  # reset(): power-on again (MemoryError; None: the guard restarts in-process)
    log_path = None


class StartupError(Exception):
    """A plain message for the person holding the board; `hw` holds what was built (to signal with).
    """

    def __init__(self, message, hw=None, status="startup-failed"):
        super().__init__(message)
        self.message = message
        self.hw = hw
        self.status = status


def pin_label(p):
    """A profile pin (board name, GPIO) for messages: "GP4", or "SDA/GPIO2" where they differ."""
    if p[0] == "GP%d" % p[1]:
        return p[0]
    return "%s/GPIO%d" % (p[0], p[1])


def oled_addr(addrs, found):
    """The first of the profile's OLED_ADDRS that answered the I2C scan `found`, else None."""
    for a in addrs:
        if a in found:
            return a
    return None


def display_missing(addrs, sda, scl, found, hw):
    if found:
        seen = "the bus has " + ", ".join(["0x%02x" % a for a in found]) + " but"
    else:
        seen = "nothing answers on the I2C bus and"
    where = " or ".join(["0x%02x" % a for a in addrs])
    return StartupError(
        "no display: %s no SSD1306 at %s (SDA %s, SCL %s). Check the OLED's wiring and power; "
        "the saved game is untouched." % (seen, where, pin_label(sda), pin_label(scl)),
        hw,
        "no-display",
    )


def accel_shake(prof, found, bus, hw):
    """The LIS3DH shake input on `bus` (either runtime's I2C reader); StartupError if it is absent.
    """
    from fdfw.lis3dh import LIS3DH
    from fdfw.shake_input import AccelShakeInput

    if prof.LIS3DH_ADDR not in found:
        raise StartupError("no LIS3DH accelerometer at 0x%02x on the I2C bus: check its wiring"
                           % prof.LIS3DH_ADDR, hw, "no-accelerometer")
    return AccelShakeInput(LIS3DH(bus, prof.LIS3DH_ADDR))
