"""Drive firmware/main.py on the MicroPython unix port over the fake `machine` (see test_firmware.py).

    micropython mp_drive.py SCENARIO SAVE_PATH
MICROPYPATH must list: a folder with board_config.py, tests/firmware_fakes/mp, tests/firmware_fakes,
firmware, hardware, lib, and a folder with adafruit_debouncer.py + adafruit_ticks.py.
Prints one JSON line with what happened. Scenarios: play, shake, nodisplay, resume (no input), heap, heap-control.
"""
import json
import sys

import fakehw

scenario = sys.argv[1]
save_path = sys.argv[2]
fakehw.reset()
oled = None
if scenario != "nodisplay":
    oled = fakehw.FakeSSD1306()
    fakehw.devices[0x3C] = oled

import fivedice.app as appmod  # noqa: E402

Base = appmod.App
apps = []
pressed = []
shakes = []


class Recording(Base):
    def __init__(self, *a, **k):
        Base.__init__(self, *a, **k)
        apps.append(self)

    def press(self, b, now_ms):
        pressed.append(b)
        return Base.press(self, b, now_ms)

    def shake(self, on, now_ms):
        shakes.append(on)
        return Base.shake(self, on, now_ms)


appmod.App = Recording

OK, HOLD1, ROLL, SHAKE_SW = 14, 6, 11, 2
script = {}


def tap(gpio, at):
    script[at] = (fakehw.press, gpio)
    script[at + 6] = (fakehw.release, gpio)


def level(gpio, v):
    fakehw.levels[gpio] = v


iters = 10
if scenario == "play":
    tap(OK, 10)
    tap(HOLD1, 30)
    tap(ROLL, 50)
    iters = 200
elif scenario == "shake":
    tap(OK, 10)
    for k in range(12):
        script[40 + 6 * k] = (level, SHAKE_SW, k & 1)
    script[40 + 72] = (fakehw.release, SHAKE_SW)
    iters = 260
elif scenario in ("heap", "heap-control"):
    # The firmware's own per-pass work under heap_lock (passes 20..299): the real loop, Buttons
    # (adafruit_debouncer over fake machine.Pin) and the shake switch input, with an app that does
    # nothing, so only the firmware layer is measured (the app's own proof is tests/mpy/test_heap_app.py;
    # the fakes' recorders allocate, so outputs stay out of this window). Pins keep their dict keys.
    import micropython

    class NullApp:
        def __init__(self, display, pixels=None, buzzer=None, dice=None, store=None, accel=False, tables=None):
            self.presses = 0
            self.shakes = 0
            apps.append(self)
            self.game = None
            self.mode = -1
            self.tables_mask = 0

        def press(self, b, now_ms):
            self.presses += 1
            if scenario == "heap-control":
                self.last = [b]  # allocates: the harness must catch this

        def shake(self, on, now_ms):
            self.shakes += 1

        def tick(self, now_ms):
            return False

        def draw(self):
            pass

    appmod.App = NullApp
    for g in (OK, ROLL, SHAKE_SW):
        fakehw.levels[g] = 1
    script[20] = (micropython.heap_lock,)
    script[50] = (level, ROLL, 0)
    script[56] = (level, ROLL, 1)
    for k in range(12):
        script[100 + 6 * k] = (level, SHAKE_SW, k & 1)
    script[300] = (micropython.heap_unlock,)
    iters = 320


def on_iter(i, now):
    fakehw.advance(5)
    step = script.get(i)
    if step is not None:  # no slicing or *args: this runs inside the heap-locked window too
        n = len(step)
        if n == 1:
            step[0]()
        elif n == 2:
            step[0](step[1])
        else:
            step[0](step[1], step[2])
    return False


import main  # noqa: E402  firmware/main.py

try:
    status = main.run(iters, on_iter, save_path)
except MemoryError:
    try:
        import micropython

        micropython.heap_unlock()
    except (ImportError, AttributeError):
        pass
    status = "allocated-while-locked at pass %d" % (fakehw.clock[0] // 5)
out = {"status": status, "pressed": pressed, "shakes": shakes, "tones": fakehw.tones(),
       "pixel_writes": len(fakehw.pixel_writes)}
if fakehw.pixel_writes:
    out["last_pixels"] = list(fakehw.pixel_writes[-1][1])
    out["pixel_gpio"] = fakehw.pixel_writes[-1][0]
if oled is not None:
    out["frames"] = oled.frames
    out["lit"] = oled.lit()
if scenario.startswith("heap") and apps:
    out["null_presses"] = apps[0].presses
    out["null_shakes"] = apps[0].shakes
elif apps:
    g = apps[0].game
    out["mode"] = apps[0].mode
    out["rolls"] = g.rolls if g is not None else None
    out["dice"] = list(g.dice) if g is not None else None
    out["has_game"] = g is not None
    out["saved_at_start"] = list(apps[0].save_bytes())  # scenario "resume": the state it booted into

print(json.dumps(out))
