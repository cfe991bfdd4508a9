"""MicroPython: build the drivers from a board profile (machine.Pin / I2C / PWM, built-in neopixel).

Libraries: ssd1306 (micropython-lib, `mpremote mip install ssd1306`; fdfw.board_mp subclasses it to
send only changed pages) and adafruit_ticks (copied by `make deploy-mp`; it runs unchanged on
MicroPython). The buttons need no debouncer library: fdfw.buttons.EdgeButtons debounces the edges.
"""
import sys
import time

import machine

from fdfw.hardware import Hardware, StartupError, accel_shake, display_missing, oled_addr

# MicroPython looks for an extensible built-in (os, time, ...) on the filesystem at every import
# before it takes its own (py/builtinimport.c): about 5 ms each on a Pico's littlefs, and the
# board's code imports them about 20 times from here on. In sys.modules an import finds one at
# once. (The ones imported from here on: MP_REGISTER_EXTENSIBLE_MODULE in MicroPython's sources.)
sys.modules["time"] = time
sys.modules["machine"] = machine
for _name in ("array", "os"):
    sys.modules[_name] = __import__(_name)
del _name

Pin = machine.Pin


def _lib(name, how):
    try:
        return __import__(name)
    except ImportError:
        raise StartupError("the MicroPython library '" + name + "' is missing: " + how)


def _input(p):
    return Pin(p[1], Pin.IN, Pin.PULL_UP)


def build(prof, save_path):
    from fdfw.store.file import FileStore
    # what this install carries (the deploy may leave out the pixels, sound, shake)
    from fivedice import features

    deploy = "run `make deploy-mp`"
    ticks = _lib("adafruit_ticks", deploy)
    hw = Hardware()
    hw.ticks_ms = ticks.ticks_ms
    hw.sleep_ms = time.sleep_ms
    if features.PIXELS:
        from fdfw.pixels import MPPixels

        neopixel = _lib(
            "neopixel",
            "this MicroPython build has no neopixel module (mpremote mip install neopixel)",
        )
        hw.pixels = MPPixels(
            neopixel.NeoPixel(Pin(prof.PIXELS[1], Pin.OUT), prof.PIXEL_COUNT), prof.PIXEL_COUNT
        )
        hw.pixel_count = prof.PIXEL_COUNT
    if features.SOUND:
        from fdfw.buzzer import MPBuzzer

        hw.buzzer = MPBuzzer(machine.PWM(Pin(prof.BUZZER[1])))
    hw.button_names = [b[0] for b in prof.BUTTONS]
    # every edge, timestamped by a hard IRQ, for fdfw.buttons.EdgeButtons to replay
    from fdfw.buttons import EdgeRing

    hw.button_inputs = EdgeRing(
        [_input(b[1]) for b in prof.BUTTONS], hw.ticks_ms, Pin.IRQ_FALLING | Pin.IRQ_RISING
    )

    i2c = machine.I2C(prof.I2C_ID, sda=Pin(prof.SDA[1]), scl=Pin(prof.SCL[1]), freq=prof.I2C_HZ)
    found = i2c.scan()
    addr = oled_addr(prof.OLED_ADDRS, found)  # 0x3C or 0x3D, whichever the module is jumpered to
    if addr is None:
        raise display_missing(prof.OLED_ADDRS, prof.SDA, prof.SCL, found, hw)
    _lib("ssd1306", "mpremote mip install ssd1306")
    from fdfw import board_mp  # after the check: it subclasses the ssd1306 driver (PagedSSD1306)

    hw.display = board_mp.PagedSSD1306(128, 64, i2c, addr=addr)
    hw.sleep_ms = board_mp.edge_sleep(time.sleep_ms, hw.button_inputs)  # a press ends a slice

    if not features.SHAKE:
        pass
    elif prof.SHAKE == "lis3dh":
        hw.shake = accel_shake(prof, found, i2c, hw)
    else:
        from fdfw.shake_input import SwitchShakeInput

        hw.shake = SwitchShakeInput(_input(prof.SHAKE_PIN).value)
    hw.store = FileStore(save_path)
    hw.log_path = save_path + ".log"
    hw.battery = battery(prof)
    hw.make_sleep = make_sleep(hw)
    watchdog(hw)
    return hw


# Nothing built here may refer back to this module (no closure, lambda or class of it): fdfw.loop
# drops it after start-up, and a function object would keep the whole module in the heap. Run-time
# helpers live in the driver modules and fdfw.board_mp.


def battery(prof):
    """The supply in mV through the profile's BATTERY ADC pin and divider (Pico: VSYS / 3 on GP29),
    or None."""
    b = getattr(prof, "BATTERY", None)
    if b is None:
        return None
    from machine import ADC

    from fdfw import board_mp

    return board_mp.battery(ADC(Pin(b[1])).read_u16, prof.BATTERY_DIVIDER)


def make_sleep(hw):
    """Light sleep until a button: machine.lightsleep in bounded slices (fdfw.board_mp.MPSleep)."""
    import machine

    from fdfw import board_mp

    return board_mp.light_sleep(machine, hw)


def watchdog(hw):
    """The reset cause, and how to start machine.WDT (started by the main loop, after the slow
    start-up)."""
    import machine

    hw.after_watchdog = machine.reset_cause() == getattr(machine, "WDT_RESET", -1)
    hw.reset = getattr(machine, "reset", None)  # a C function: keeps no setup module alive
    from fdfw import board_mp

    hw.start_watchdog = board_mp.watchdog_start(machine, hw)
