"""The real firmware loop (firmware/main.py) over the fake board on the MicroPython unix port, idling on the dice
screen; prints one JSON line with the loop's busy time. Run by tests/bench/bench_power.py (`make bench-power`).

    micropython power_drive.py MODE SAVE_PATH
MODE "idle": the loop as built (fivedice.loop.Idle between passes); "spin": hw.sleep_ms = None, the loop before
issue #9 (it never sleeps). MICROPYPATH as for tests/firmware/fakes/mp_drive.py.

Time on the fake board is simulated: a pass advances the fake clock by its own estimated RP2040 duration (the
port's real microseconds for the pass x FACTOR), a sleep by the ms slept. Busy = the sum of the passes' estimated
durations (the idle slices' own checks included; the fake clock's bookkeeping inside sleeps excluded); the busy
fraction of a window = busy / the window's simulated length. The fakes (pins, I2C, the SSD1306) run as Python
here but are C or hardware on a board, so the figure is an upper bound.
"""
import json
import sys
import time

import fakehw

FACTOR = 185  # RP2040 time ~ unix port time x 185 (150-214x: micropython tests/perf_bench vs PR #12846)

mode = sys.argv[1]
save_path = sys.argv[2]
fakehw.reset()
oled = fakehw.FakeSSD1306()
fakehw.devices[0x3C] = oled
fakehw.devices[0x18] = fakehw.FakeLIS3DH()  # the Feather profile's shake sensor (the Pico's switch ignores it)

import fdfw.setup_mp as setup_mp  # noqa: E402

acct = {"excluded": 0, "mark": 0, "busy_est_us": 0, "passes": 0, "carry_us": 0, "window": False,
        "win_busy": 0, "win_start": 0, "win_passes": 0}
WINDOW = (8000, 28000)  # on the dice screen after the roll, before the 30 s dim timer
END_MS = 29000


class BenchTime:
    """setup_mp's `time`: sleep_ms moves the fake clock; its real cost is not the board's."""

    @staticmethod
    def sleep_ms(ms):
        t0 = time.ticks_us()
        fakehw.sleep_ms(ms)
        acct["excluded"] += time.ticks_diff(time.ticks_us(), t0)


setup_mp.time = BenchTime
if mode == "spin":
    _build = setup_mp.build

    def build(prof, path):
        hw = _build(prof, path)
        hw.sleep_ms = None  # the loop as it was: no idle, no sleep
        return hw

    setup_mp.build = build

OK, ROLL = 14, 11
fakehw.schedule(1000, OK, 0)  # New game
fakehw.schedule(1060, OK, None)
fakehw.schedule(3000, ROLL, 0)  # roll; then nothing more
fakehw.schedule(3060, ROLL, None)


def on_iter(i, now):
    t = time.ticks_us()
    if i == 1:  # start-up (imports, the app, the first frame) is not a loop pass
        acct["excluded"] = 0
        acct["mark"] = t
        return False
    pass_us = time.ticks_diff(t, acct["mark"]) - acct["excluded"]
    est = pass_us * FACTOR
    acct["busy_est_us"] += est
    acct["passes"] += 1
    clk = fakehw.clock[0]
    if WINDOW[0] <= clk < WINDOW[1]:
        if not acct["window"]:
            acct["window"] = True
            acct["win_start"] = clk
        else:
            acct["win_busy"] += est
            acct["win_passes"] += 1
    elif acct["window"] and clk >= WINDOW[1]:
        acct["window"] = False
        acct["win_end"] = clk
    c = acct["carry_us"] + est
    acct["carry_us"] = c % 1000
    if c >= 1000:
        fakehw.advance(c // 1000)  # the pass took this long on the board
    acct["excluded"] = 0
    acct["mark"] = time.ticks_us()
    return fakehw.clock[0] >= END_MS


import drive  # noqa: E402  tests/firmware/fakes/drive.py

acct["mark"] = time.ticks_us()
status = drive.run(drive.entry("mp"), 0, on_iter, save_path)
end = acct.get("win_end", fakehw.clock[0])
span = end - acct["win_start"]
print(json.dumps({"mode": mode, "status": status, "window_ms": span, "window_busy_ms": acct["win_busy"] / 1000,
                  "window_passes": acct["win_passes"], "busy_fraction": acct["win_busy"] / 1000 / span if span else None,
                  "passes": acct["passes"], "slept_ms": fakehw.sleeps[0], "clock": fakehw.clock[0]}))
