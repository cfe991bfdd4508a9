"""Drive firmware/main.py on the MicroPython unix port over the fake `machine` (see test_firmware.py).

    micropython mp_drive.py SCENARIO SAVE_PATH [OLED_ADDR]
MICROPYPATH must list: a folder with board_config.py, tests/firmware/fakes/mp, firmware/vendor (ssd1306),
tests/firmware/fakes, firmware, hardware, lib, and a folder with adafruit_debouncer.py + adafruit_ticks.py.
Prints one JSON line with what happened. Scenarios: play, shake, nodisplay, unknown (any name but those), heap,
heap-control, heap-irq, heap-irq-control; with 150 ms frames (every pass draws, a draw takes 150 ms of fake time):
slowtap, slowbounce, multi, ringfull; resume (no input). The fake SSD1306 answers at OLED_ADDR (default 0x3c; the
SA0 jumper's other address is 0x3d), or nowhere in the nodisplay scenario.
"""
import json
import sys

import fakehw

scenario = sys.argv[1]
save_path = sys.argv[2]
oled_addr = int(sys.argv[3], 16) if len(sys.argv) > 3 else 0x3C
fakehw.reset()
oled = None
if scenario != "nodisplay":
    oled = fakehw.FakeSSD1306()
    fakehw.devices[oled_addr] = oled

import fivedice.app as appmod  # noqa: E402

Base = appmod.App
apps = []
pressed = []
shakes = []


pressed_at = []
polls = []  # fake time at the start of each pass; the loop polls the buttons right after reading it
draws = [0, 0]  # App.draw() calls, the frames they drew (App._frame)
frame_ms = [0]  # >0: every pass draws, and a draw takes this much fake time (a slow CircuitPython-like frame)


class Recording(Base):
    def __init__(self, *a, **k):
        Base.__init__(self, *a, **k)
        apps.append(self)

    def press(self, b, now_ms):
        pressed.append(b)
        pressed_at.append(now_ms)
        if scenario == "oom" and self.session.game is not None and self.session.game.rolls == 1:
            raise MemoryError("injected: the heap ran out")
        return Base.press(self, b, now_ms)

    def tick(self, now_ms):
        d = Base.tick(self, now_ms)
        return True if frame_ms[0] else d

    def draw(self):
        if frame_ms[0]:
            fakehw.advance(frame_ms[0])  # taps scheduled in this window land during the draw
        draws[0] += 1
        return Base.draw(self)

    def _frame(self):
        draws[1] += 1  # more than draws[0]: a frame ran out of the locked heap and was drawn again
        return Base._frame(self)

    def shake(self, on, now_ms):
        shakes.append(on)
        return Base.shake(self, on, now_ms)

    def _lights_off(self):
        Base._lights_off(self)  # the loop light-sleeps right after this pass's tick
        if scenario in ("sleep", "battery") and "asleep_at" not in marks_sleep:
            marks_sleep["rolls_before_wake"] = self.session.game.rolls if self.session.game is not None else None
            marks_sleep["asleep_at"] = self.now
            marks_sleep["saved_when_asleep"] = _saved() == bytes(self.session.save_bytes())


appmod.App = Recording

import fdfw.buttons as fb  # noqa: E402
import fdfw.setup_mp as setup_mp  # noqa: E402
import faketime  # noqa: E402

setup_mp.time = faketime  # the board's sleeps move the fake clock (fakehw.sleep_ms), not the test's

made = []
_make = fb.make



class _NoSeats:
    """What fdfw.loop reads of the app's seats: no strategy table."""

    tables_mask = 0

def _made(inputs, ids):
    b = _make(inputs, ids)
    made.append(b)
    return b


fb.make = _made

OK, HOLD1, ROLL, UP, DOWN, SHAKE_SW = 14, 6, 11, 12, 13, 2
script = {}


def tap(gpio, at):
    script[at] = (fakehw.press, gpio)
    script[at + 6] = (fakehw.release, gpio)


def level(gpio, v):
    fakehw.set_level(gpio, v)  # fires the pin's IRQ, as a real edge would


iters = 10
marks_sleep = {}


def _saved():
    from fdfw.store.file import FileStore

    return FileStore(save_path).read()


if scenario == "play":
    tap(OK, 10)
    tap(HOLD1, 30)
    tap(ROLL, 50)
    iters = 200
elif scenario == "oom":  # New game, roll; the next press runs out of memory
    tap(OK, 10)
    tap(ROLL, 30)
    tap(HOLD1, 100)
    iters = 200
elif scenario == "shake":
    tap(OK, 10)
    for k in range(12):
        script[40 + 6 * k] = (level, SHAKE_SW, k & 1)
    script[40 + 72] = (fakehw.release, SHAKE_SW)
    iters = 260
elif scenario == "slowtap":
    frame_ms[0] = 150
    fakehw.schedule(1000, OK, 0)  # a clean 20 ms tap
    fakehw.schedule(1020, OK, None)
    fakehw.schedule(1500, ROLL, 0)  # 5 ms: a quick tap, shorter than the debounce window
    fakehw.schedule(1505, ROLL, None)
    iters = 20
elif scenario == "slowbounce":
    frame_ms[0] = 150
    for i in range(10):  # every phase against the frame and the ms clock; 4 ms of chatter at each contact change
        fakehw.bounce(1000 + 201 * i, HOLD1, 0, (1, 1, 1))
        fakehw.bounce(1000 + 201 * i + 25, HOLD1, None, (1, 1, 1))
    iters = 25
elif scenario == "multi":
    frame_ms[0] = 150
    fakehw.schedule(1000, OK, 0)
    fakehw.schedule(1020, OK, None)
    fakehw.schedule(1005, HOLD1, 0)
    fakehw.schedule(1030, HOLD1, None)
    fakehw.bounce(1010, ROLL, 0)
    fakehw.bounce(1035, ROLL, None)
    fakehw.schedule(1050, DOWN, 0)
    fakehw.schedule(1070, DOWN, None)
    iters = 12
elif scenario == "ringfull":
    frame_ms[0] = 150
    fakehw.schedule(900, UP, 0)  # held through the overflow, released after it
    fakehw.schedule(1200, UP, None)
    for k in range(140):  # 140 edges 1 ms apart between the polls at 925 and 1080: more than the ring holds
        fakehw.schedule(930 + k, HOLD1, 0 if k % 2 == 0 else None)
    fakehw.schedule(1400, OK, 0)
    fakehw.schedule(1430, OK, None)
    iters = 14
elif scenario in ("sleep", "battery"):
    # A game idles on the dice screen: it dims at 30 s, goes dark and light-sleeps at 3 min (the loop's
    # sleep: machine.lightsleep slices); ROLL at 250 s wakes it and does nothing else; ROLL at 260 s rolls.
    # "battery": the same Pico on a low 3 x AA pack (3.4 V on VSYS, read as VSYS / 3 on GP29).
    if scenario == "battery":
        fakehw.adc[29] = fakehw.adc_for_mv(3400, 3)  # on a Feather RP2040, A3 reads this: no profile input there
        fakehw.devices[0x18] = fakehw.FakeLIS3DH()  # the Feather's shake sensor (the Pico ignores it)
    tap(OK, 10)
    tap(ROLL, 30)
    fakehw.schedule(250000, ROLL, 0)
    fakehw.schedule(250080, ROLL, None)
    fakehw.schedule(260000, ROLL, 0)
    fakehw.schedule(260080, ROLL, None)

    def stop_late(i, now):
        if "rolls_after_wake" not in marks_sleep and now >= 255000:
            marks_sleep["rolls_after_wake"] = apps[0].session.game.rolls
            marks_sleep["awake_at_255s"] = not apps[0].asleep()
        return now >= 270000

    iters = 100000
elif scenario.startswith("heap"):
    # The firmware's own per-pass work under heap_lock (passes 20..299): the real loop, Buttons
    # (adafruit_debouncer over fake machine.Pin) and the shake switch input, with an app that does
    # nothing, so only the firmware layer is measured (the app's own proof is tests/heap_lock/test_heap_app.py;
    # the fakes' recorders allocate, so outputs stay out of this window). Pins keep their dict keys.
    import micropython

    class NullApp:
        def __init__(self, display, pixels=None, buzzer=None, dice=None, store=None, tables=None,
                     battery=None, pixel_colors=None):
            self.presses = 0
            self.shakes = 0
            self.sleepy = False  # set by the script: the screen is "off", the loop light-sleeps
            self.wakes = 0
            apps.append(self)
            self.session = self  # the game in progress, as the App's (none here)
            self.game = None
            self.mode = -1
            self.seats = _NoSeats()

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

        def wait_ms(self, now_ms, most=1000):
            return 5  # every pass idles 5 ms (fivedice.loop.Idle under the lock too)

        def asleep(self):
            return self.sleepy

        def wake(self, now_ms):
            self.sleepy = False
            self.wakes += 1

    def sleepy():
        apps[0].sleepy = True

    appmod.App = NullApp
    for g in (OK, ROLL, SHAKE_SW, HOLD1, UP):
        fakehw.levels[g] = 1
    marks = [0, 0]  # pin IRQs run before the lock, and by the unlock

    def lock():
        marks[0] = fakehw.irq_fired[0]
        micropython.heap_lock()

    def unlock():
        micropython.heap_unlock()
        marks[1] = fakehw.irq_fired[0]

    if scenario in ("heap", "heap-control"):
        script[20] = (lock,)  # at 100 ms of fake time
        script[50] = (level, ROLL, 0)
        script[56] = (level, ROLL, 1)
        for k in range(12):
            script[100 + 6 * k] = (level, SHAKE_SW, k & 1)
        # a press and a release with 4 ms of contact chatter each, landing inside advance() (pin IRQs,
        # the ring, then the next poll's replay through adafruit_debouncer, all while the heap is locked)
        fakehw.bounce(1000, OK, 0)
        fakehw.bounce(1040, OK, 1)
        # light sleep (fdfw.board_mp.MPSleep: machine.lightsleep slices) from pass 250 (about 2.5 s) until UP is
        # pressed at 4 s; the waking press is dropped by the loop (the app sees no press for it)
        script[250] = (sleepy,)
        fakehw.schedule(4000, UP, 0)
        fakehw.schedule(4060, UP, None)
        script[300] = (unlock,)
        iters = 320
    else:  # heap-irq, heap-irq-control: the IRQ handler alone, 300 edges (the ring overflows) under the lock

        def storm():
            lock()
            for i in range(300):
                fakehw.set_level(HOLD1, i & 1)
            unlock()

        def bad_handler():
            made[0]._ring.pins[0].irq(handler=lambda pin: [pin], trigger=12, hard=True)  # allocates per edge

        if scenario == "heap-irq-control":
            script[10] = (bad_handler,)
        script[20] = (storm,)
        iters = 30


def on_iter(i, now):
    if frame_ms[0]:
        polls.append(now)
    fakehw.advance(5)
    if scenario in ("sleep", "battery") and stop_late(i, now):
        return True
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


import drive  # noqa: E402  tests/firmware/fakes/drive.py

try:
    status = drive.run(drive.entry("mp"), iters, on_iter, save_path)
except MemoryError:
    if not scenario.startswith("heap"):  # only those lock: unlocking an unlocked heap would lock it for good
        raise
    try:
        import micropython

        micropython.heap_unlock()
    except (ImportError, AttributeError):
        pass
    status = "allocated-while-locked at pass %d" % (fakehw.clock[0] // 5)
except fakehw.BoardReset:
    status = "reset"
out = {"status": status, "watchdog": list(fakehw.watchdog), "pressed": pressed, "shakes": shakes, "tones": fakehw.tones(),
       "pixel_writes": len(fakehw.pixel_writes)}
if fakehw.pixel_writes:
    out["last_pixels"] = list(fakehw.pixel_writes[-1][1])
    out["pixel_gpio"] = fakehw.pixel_writes[-1][0]
if oled is not None:
    out["frames"] = oled.frames
    out["lit"] = oled.lit()
    out["data_bytes"] = oled.data_bytes
    out["draws"] = draws
    if apps and hasattr(apps[0], "fb"):
        out["panel_matches"] = oled.frame == apps[0].fb.buffer  # the panel shows the driver's frame buffer
if made and hasattr(made[0], "_ring"):
    out["ring_dropped"] = made[0]._ring.state[2]
    out["irq_hard"] = made[0]._ring.pins[0].hard
out["irq_fired"] = fakehw.irq_fired[0]
out["builtins_in_sys_modules"] = sorted(n for n in ("array", "binascii", "os", "time") if n in sys.modules)
if scenario in ("sleep", "battery"):
    out.update(marks_sleep)
    out["sleeps"] = list(fakehw.sleeps)
    out["pressed_at"] = pressed_at
    out["oled_commands"] = oled.commands
    out["toast"] = apps[0].toast
    out["battery_level"] = apps[0].pw.level
    out["battery_warned"] = apps[0].pw.warned
    out["pixel_log"] = [list(w[1]) for w in fakehw.pixel_writes]
if frame_ms[0]:
    out["polls"] = polls
    out["pressed_at"] = pressed_at
if scenario.startswith("heap") and apps:
    out["null_presses"] = apps[0].presses
    out["null_shakes"] = apps[0].shakes
    out["irqs_in_lock"] = marks[1] - marks[0]
    out["null_wakes"] = apps[0].wakes
    out["sleeps"] = list(fakehw.sleeps)
    out["clock"] = fakehw.clock[0]
elif apps:
    g = apps[0].session.game
    out["mode"] = apps[0].mode
    out["rolls"] = g.rolls if g is not None else None
    out["dice"] = list(g.dice) if g is not None else None
    out["has_game"] = g is not None
    out["saved_at_start"] = list(apps[0].session.save_bytes())  # scenario "resume": the state it booted into

print(json.dumps(out))
