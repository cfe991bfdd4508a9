"""Does start-up let go of its own code? Runs a board entry point on the MicroPython unix port over the fake
hardware up to the menu, then reports which start-up-only modules are still loaded and which are still alive.

    micropython startup_drive.py cp|mp [leak]
Run from a folder laid out like the board's flash, with MICROPYPATH as for game_drive.py
(tests/bench/board_heap.py's stage() builds both). Before the entry point runs, each start-up-only module is
imported and given a canary: a file opened in this folder and referred to only from that module's globals.
The unix port's file objects have a finaliser that closes the file descriptor when the garbage collector
reclaims them, so at the menu (after gc.collect()) a descriptor that is still open to its canary file means
the module's globals are still reachable from something the game keeps (a function, closure or class of that
module: a function object holds its module's globals). "leak" is the control: the built board keeps one
function of the setup module, as a closure handed to a driver would.
Prints one JSON line: {"status": "menu" when the check ran, "loaded": [...], "alive": [...], "debouncer": whether
adafruit_debouncer is loaded}.
"""
import gc
import json
import os
import sys

import fakehw

RUNTIME = sys.argv[1] if len(sys.argv) > 1 else "cp"
# FIVEDICE_DRIVE_PAD=N: N bytes held from here on, so that the heap is laid out otherwise (the staged paths are
# short and relative: a folder of another name no longer moves anything; tests/firmware/test_startup_unload.py)
_PAD = bytearray(int(os.getenv("FIVEDICE_DRIVE_PAD") or "0"))
LEAK = len(sys.argv) > 2 and sys.argv[2] == "leak"
SETUP = "fdfw.setup_" + RUNTIME
# (fdfw.i2cmem_cp: CircuitPython's only, not on a MicroPython board)
STARTUP_ONLY = ("fdfw.start", "fdfw.hardware", "fdfw.profile", SETUP, "boards", "boards.pico",
                "board_config") + (("fdfw.i2cmem_cp",) if RUNTIME == "cp" else ())

fakehw.reset()
fakehw.devices[0x3C] = fakehw.FakeSSD1306()
state = {"status": "not-at-menu", "canaries": [], "loaded": None, "alive": None}


def _plant():
    """Import each start-up-only module and hang a canary file on it; keep only (name, fd, inode)."""
    import faketime

    for name in STARTUP_ONLY:
        __import__(name)
        mod = sys.modules[name]
        path = "canary-" + name
        f = open(path, "w")
        mod._startup_canary = f
        state["canaries"].append((name, f.fileno(), os.stat(path)[1]))
        f = mod = None
    setup = sys.modules[SETUP]
    setup.time = faketime  # the board's sleeps move the fake clock, as in game_drive.py
    if LEAK:
        build = setup.build

        def leaky_build(prof, save_path):
            hw = build(prof, save_path)
            hw.leak = build  # a function of the setup module kept by the built board
            return hw

        setup.build = leaky_build


def _open(fd, ino):
    try:
        return os.stat("/proc/self/fd/%d" % fd)[1] == ino
    except OSError:
        return False


def on_iter(i, now):
    fakehw.advance(5)
    if i < 20:
        return False
    gc.collect()
    gc.collect()
    state["loaded"] = [n for n in STARTUP_ONLY if n in sys.modules]
    state["alive"] = [c[0] for c in state["canaries"] if _open(c[1], c[2])]
    state["debouncer"] = "adafruit_debouncer" in sys.modules  # keypad boards (the cp fakes) need none
    state["status"] = "menu"
    return True


_plant()
gc.collect()
import drive  # noqa: E402  tests/firmware/fakes/drive.py

out = drive.run(drive.entry(RUNTIME), 1000, on_iter, "fivedice.sav", "tables")
print(json.dumps({"status": state["status"], "run": out, "loaded": state["loaded"], "alive": state["alive"],
                  "debouncer": state.get("debouncer")}))
