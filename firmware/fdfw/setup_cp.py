"""CircuitPython: build the drivers from a board profile (board, busio, digitalio, pwmio,
neopixel_write).

Libraries (installed by `make deploy-cp` with circup): adafruit_debouncer and adafruit_ticks
(without keypad); the NeoPixels are written by the core module neopixel_write (fdfw.pixels_cp). The
display is fdfw.ssd1306_cp's (the MacroPad's: fdfw.sh1106_cp), a BitmapDisplay (fdfw.board_cp):
drawn by bitmaptools into a Bitmap in the panel's layout, sent raw (no displayio display).
"""
import time

import board
import busio
import digitalio
import pwmio

from fdfw import board_cp
from fdfw.hardware import Hardware, StartupError, accel_shake, display_missing, oled_addr
from fdfw.profile import ProfileError


def _lib(name):
    try:
        return __import__(name)
    except ImportError:
        raise StartupError(
            "the CircuitPython library '" + name + "' is missing from /lib: run `make deploy-cp` "
            "(circup install adafruit_debouncer adafruit_ticks)"
        )


def _core(name, hw):
    try:
        return __import__(name)
    except ImportError:
        raise StartupError(
            "this CircuitPython build has no '" + name + "' module: use CircuitPython 9 or newer "
            "(a build with displayio)",
            hw,
        )


def _display(addr, i2c, displayio, hw):
    """The OLED at `addr` as a framebuf-style target drawn in a Bitmap (see fdfw/board_cp.py)."""
    if not hasattr(_core("bitmaptools", hw), "fill_region"):  # what fdfw.board_cp draws with
        raise StartupError("this CircuitPython build has no 'bitmaptools.fill_region': use "
                           "CircuitPython 9 or newer", hw)
    # this display's module only: the MacroPad loads its own
    from fdfw.ssd1306_cp import SSD1306

    return SSD1306(i2c, addr, displayio)


def pin(prof, p):
    try:
        return getattr(board, p[0])
    except AttributeError:
        raise ProfileError(
            "this board has no pin board." + p[0] + ": is '" + prof.NAME + "' the right profile?"
        )


def _input(prof, p):
    io = digitalio.DigitalInOut(pin(prof, p))
    io.switch_to_input(pull=digitalio.Pull.UP)
    return io


def _buttons(prof):
    """keypad.Keys (scanned in C every 10 ms, events queued: no tap lost to a slow frame) where the
    build has it; else one pulled-up DigitalInOut per button for adafruit_debouncer (see
    fdfw.buttons)."""
    try:
        import keypad
    except ImportError:
        _lib("adafruit_debouncer")  # only this fallback uses it (fdfw.buttons.Buttons)
        return [_input(prof, b[1]) for b in prof.BUTTONS]
    return _keys(keypad, prof)


def _keys(keypad, prof):
    return board_cp.keys(keypad, [pin(prof, b[1]) for b in prof.BUTTONS])


def _battery(prof):
    """The supply in mV through the profile's BATTERY pin (Pico: board.VOLTAGE_MONITOR, VSYS / 3),
    or None."""
    b = getattr(prof, "BATTERY", None)
    if b is None:
        return None
    import analogio

    ai = analogio.AnalogIn(pin(prof, b))
    ref = int(ai.reference_voltage * 1000 + 0.5)
    return board_cp.battery(ai, prof.BATTERY_DIVIDER, ref)


# Nothing built here may refer back to this module (no closure, lambda or class of it): fdfw.loop
# drops it after start-up, and a function object would keep the whole module in the heap. Run-time
# helpers live in the driver modules and fdfw.board_cp.


def build(prof, save_path):
    import supervisor

    # what this install carries (the deploy may leave out the pixels, sound, shake)
    from fivedice import features

    hw = Hardware()
    # C's (adafruit_ticks' own choice on CircuitPython), no library in the heap
    hw.ticks_ms = supervisor.ticks_ms
    hw.sleep_ms = board_cp.sleep_ms(time.sleep)
    # the outputs first, so a later failure can still be shown and heard
    if features.PIXELS:
        from fdfw.pixels_cp import CPPixels

        io = digitalio.DigitalInOut(pin(prof, prof.PIXELS))
        io.switch_to_output(value=False)
        hw.pixels = CPPixels(_core("neopixel_write", hw).neopixel_write, io, prof.PIXEL_COUNT)
        hw.pixel_count = prof.PIXEL_COUNT
        # the MacroPad: its dice's keys, face colours and the other keys' colours
        if hasattr(prof, "KEY_COLORS"):
            hw.pixel_colors = (
                prof.PIXEL_ORDER,
                getattr(prof, "FACE_COLORS", None),
                prof.KEY_COLORS,
            )
    if features.SOUND:
        from fdfw.buzzer import CPBuzzer

        pwm = pwmio.PWMOut(
            pin(prof, prof.BUZZER), duty_cycle=0, frequency=440, variable_frequency=True
        )
        en = getattr(prof, "SPEAKER_ENABLE", None)
        if en is not None:
            from fdfw import setup_spi_cp

            en = setup_spi_cp.output(pin(prof, en), False)
        hw.buzzer = CPBuzzer(pwm, en)
    hw.button_names = [b[0] for b in prof.BUTTONS]
    hw.button_inputs = _buttons(prof)

    displayio = _core("displayio", hw)
    # a display left from the last run (or board.DISPLAY) holds the pins
    displayio.release_displays()
    # the MacroPad's (its own start-up module)
    if getattr(prof, "DISPLAY", "ssd1306_i2c") == "sh1106_spi":
        from fdfw import setup_spi_cp

        hw.display = setup_spi_cp.display(prof, hw, pin)
        _rest(prof, hw, None, (), save_path, features)
        return hw
    try:
        i2c = busio.I2C(pin(prof, prof.SCL), pin(prof, prof.SDA), frequency=prof.I2C_HZ)
    # "No pull up found on SDA or SCL": the OLED module (which has them) is absent
    except RuntimeError:
        raise display_missing(prof.OLED_ADDRS, prof.SDA, prof.SCL, (), hw)
    from fdfw.i2cmem_cp import I2CMem

    bus = I2CMem(i2c)
    found = bus.scan()
    addr = oled_addr(prof.OLED_ADDRS, found)  # 0x3C or 0x3D, whichever the module is jumpered to
    if addr is None:
        raise display_missing(prof.OLED_ADDRS, prof.SDA, prof.SCL, found, hw)
    hw.display = _display(addr, i2c, displayio, hw)
    _rest(prof, hw, bus, found, save_path, features)
    return hw


def _rest(prof, hw, bus, found, save_path, features):
    """The shake input, the store, the battery, the light sleep and the watchdog."""
    from fdfw.store.nvm_cp import NvmStore

    if not features.SHAKE:
        pass
    elif prof.SHAKE == "lis3dh":
        hw.shake = accel_shake(prof, found, bus, hw)
    elif prof.SHAKE == "encoder":
        from fdfw import setup_spi_cp

        hw.shake = hw.encoder = setup_spi_cp.encoder(prof, hw, pin)
    else:
        from fdfw.shake_input import SwitchShakeInput

        sw = _input(prof, prof.SHAKE_PIN)
        hw.shake = SwitchShakeInput(board_cp.value_of(sw))
    import microcontroller

    # save_path: the old file, read once
    hw.store = NvmStore(getattr(microcontroller, "nvm", None), legacy=save_path)
    # written only where the drive is writable by code (not by default)
    hw.log_path = save_path + ".log"
    hw.battery = _battery(prof)
    hw.make_sleep = board_cp.light_sleep(
        [pin(prof, b[1]) for b in prof.BUTTONS], hw, time.monotonic
    )
    watchdog(hw, microcontroller)


def watchdog(hw, microcontroller):
    """The reset cause, and how to start the watchdog (by the main loop, after the slow start-up).
    """
    cpu = getattr(microcontroller, "cpu", None)
    reasons = getattr(microcontroller, "ResetReason", None)
    hw.after_watchdog = (cpu is not None and reasons is not None
                         and getattr(cpu, "reset_reason", None) == getattr(reasons, "WATCHDOG", -1))
    hw.reset = getattr(microcontroller, "reset", None)  # a C function: keeps no setup module alive
    wd = getattr(microcontroller, "watchdog", None)
    if wd is None:
        return  # a port without a watchdog: the guard still restarts the app after an exception
    hw.start_watchdog = board_cp.watchdog_start(wd, hw)
