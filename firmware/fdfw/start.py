"""Start-up, shared by code.py (CircuitPython) and main.py (MicroPython): board profile -> hardware -> the app's
module -> button reader, and the built board's record (Hardware). fdfw.loop drops this module, with the profile,
the setup module and board_config (fivedice.lazy "startup"), once the board is built: its code does not stay in
the heap while the game runs. The setup modules build the board with its helpers (StartupError, accel_shake, ...).
"""


class Hardware:
    """The built board: every field is a driver object or None. Defaults are class attributes and the class
    has no functions, so a built board does not keep this start-up module loaded (fdfw.loop drops it)."""

    display = None
    pixels = None  # px[i] = (r, g, b); show()
    pixel_count = 0
    buzzer = None  # tone(freq, ms) / off()
    button_inputs = None  # profile.BUTTONS order: keypad.Keys, buttons.EdgeRing, or DigitalInOuts/callables
    button_names = None
    shake = None  # .update(now_ms) -> 1 / -1 / 0
    encoder = None  # fdfw.encoder.Encoder (also hw.shake): its detents are UP/DOWN presses off the dice screen
    pixel_colors = None  # the profile's (PIXEL_ORDER, FACE_COLORS, KEY_COLORS) for fivedice.app.App, or None
    store = None
    ticks_ms = None
    sleep_ms = None  # sleep_ms(ms): the idle loop's slices (fdfw.idle.Idle); None: the loop spins
    idle = None
    make_sleep = None  # make_sleep(buttons, feed) -> sleep(): light sleep until a button, or None
    battery = None  # battery() -> supply mV (the profile's BATTERY input), or None: no such input
    # recovery (fdfw.recover): the watchdog once started, how to start it, whether the last reset was
    # the watchdog's, and where the error log goes (None: the console only)
    watchdog = None
    start_watchdog = None
    after_watchdog = False
    watchdog_ms = 0  # the timeout it was started with (a sleep that stops it starts it again)
    reset = None  # reset(): start the board again from power-on (MemoryError; None: the guard restarts in-process)
    log_path = None


class StartupError(Exception):
    """A plain message for the person holding the board; `hw` holds what was built (to signal with)."""

    def __init__(self, message, hw=None, status="startup-failed"):
        super().__init__(message)
        self.message = message
        self.hw = hw
        self.status = status


def pin_label(p):
    """A profile pin (board name, GPIO) for messages: "GP4", or "SDA/GPIO2" where the names differ."""
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
    return StartupError(
        "no display: %s no SSD1306 at %s (SDA %s, SCL %s). Check the OLED's wiring and power; "
        "the saved game is untouched." % (seen, " or ".join(["0x%02x" % a for a in addrs]), pin_label(sda),
                                          pin_label(scl)),
        hw,
        "no-display",
    )


def signal_failure(hw):
    """Red pixels and three low beeps: the board's way to say 'look at the serial console'."""
    if hw is None:
        return
    px = hw.pixels
    if px is not None:
        for i in range(hw.pixel_count):
            px[i] = (48, 0, 0)
        px.show()
    bz = hw.buzzer
    sleep = hw.sleep_ms
    if bz is not None and sleep is not None:
        for _ in range(3):
            bz.tone(220, 150)
            sleep(150)
            bz.off()
            sleep(100)


def accel_shake(prof, found, bus, hw):
    """The LIS3DH shake input on `bus` (either runtime's I2C reader); StartupError if it is not on the bus."""
    from fdfw.lis3dh import LIS3DH
    from fdfw.shake_input import AccelShakeInput

    if prof.LIS3DH_ADDR not in found:
        raise StartupError("no LIS3DH accelerometer at 0x%02x on the I2C bus: check its wiring" % prof.LIS3DH_ADDR,
                           hw, "no-accelerometer")
    return AccelShakeInput(LIS3DH(bus, prof.LIS3DH_ADDR))


def build(runtime, save_path, say):
    """(hw, the fivedice.app module, the button reader, the profile's NAME) for runtime "cp" or "mp"; else the
    status word of why it could not start ("bad-profile", "no-display", "no-app", ...), said on the console."""
    from fdfw import profile

    try:
        prof = profile.load(profile.configured_name())
    except profile.ProfileError as e:
        say(str(e))
        return "bad-profile"
    if not profile.runs_on(prof, runtime):
        say("the " + prof.NAME + " profile runs on " + " and ".join(
            ["CircuitPython" if r == "cp" else "MicroPython" for r in prof.RUNTIMES]) + " only: install that")
        return "bad-profile"
    # The app's code first, then the drivers: the big imports load onto a clean heap, and the
    # long-lived driver objects do not end up scattered between their leftovers. Before it, the rarely used
    # screens once, so that what their imports leave for good lies under the game's code (intern_rare).
    why = None
    try:
        import gc

        from fivedice.screens import intern_rare

        intern_rare()
        gc.collect()  # their room, for the game's code
        import fivedice.app as appmod
    except ImportError as e:
        why = str(e)
    if runtime == "cp":
        from fdfw import setup_cp as setup
    else:
        from fdfw import setup_mp as setup
    try:
        hw = setup.build(prof, save_path)
    except StartupError as e:
        say(e.message)
        signal_failure(e.hw)
        return e.status
    except profile.ProfileError as e:
        say(str(e))
        return "bad-profile"

    if why is not None:
        say("cannot import fivedice.app (" + why + "): copy lib/fivedice to the board's /lib")
        signal_failure(hw)
        return "no-app"
    ids = [getattr(appmod, "B_" + name) for name in hw.button_names]
    buttons = reader(hw.button_inputs, ids)
    if hw.encoder is not None:  # the MacroPad's knob: its detents are UP/DOWN presses
        from fdfw.encoder import Keys

        buttons = Keys(buttons, hw.encoder, appmod.B_UP, appmod.B_DOWN)
    return hw, appmod, buttons, prof.NAME


def reader(inputs, ids):
    """The buttons' reader for hw.button_inputs: on a keypad.Keys fdfw.keys' alone (fdfw.buttons' other readers
    are never loaded: their code would be heap), else fdfw.buttons.make's."""
    if hasattr(inputs, "events"):
        from fdfw.keys import KeypadButtons

        return KeypadButtons(inputs, ids)
    from fdfw import buttons

    return buttons.make(inputs, ids)
