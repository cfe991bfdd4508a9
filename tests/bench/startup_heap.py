"""What start-up leaves behind (issue #7): the firmware and board modules still loaded once the game runs,
and the live heap at the menu and during play, for each board entry point on the MicroPython unix port.

    python tests/bench/startup_heap.py [--runtime cp|mp] [--kind py|mpy] [--heap KB]
Stages the board's flash like tests/bench/board_heap.py and plays one whole game with
tests/firmware/fakes/game_drive.py at a roomy heap (so the figures are the live bytes, not a fit test):
"menu" is the live heap (gc.mem_alloc() after a collection) at the menu right after start-up, "play" the
largest live heap at a turn's start, "peak" the largest of all samples (game over and the initials included). Code that only start-up needs should not be in the list of modules.
64-bit port figures; a 32-bit board needs about 0.58-0.68 x them (see board_heap.py). The fakes of the
board's C modules are counted as board_heap.py counts them ("fakes" below, the same in every row).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import board_heap  # noqa: E402

C_FAKES = ("board",)  # the fake of CircuitPython's `board` C module matches the "board" prefix


def measure(runtime, kind, heap_kb=1024, build=None):
    """game_drive's JSON for one game, plus "menu", "play" (bytes) and "modules" (firmware/board modules left)."""
    build = build or os.path.join(board_heap.ROOT, "build", "startup-heap")
    top = "%s-%s-%s" % (build, runtime, kind)
    path = board_heap.stage(top, kind == "mpy", runtime=runtime)
    out = board_heap.run(top, path, heap_kb, runtime)
    live = out.get("live") or [0]
    out["menu"] = live[0]
    out["play"] = max(live[1:-1] or live)  # the turns' starts (the last sample is the game-over screen)
    out["modules"] = sorted(m for m in (out.get("resident") or ()) if m not in C_FAKES)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runtime", choices=("cp", "mp"), action="append")
    ap.add_argument("--kind", choices=("py", "mpy"), action="append")
    ap.add_argument("--heap", type=int, default=1024, help="-X heapsize in KB (roomy: this measures, not fits)")
    a = ap.parse_args(argv)
    print("live heap on the 64-bit unix port, one game (human with hints vs CPU perfect), -X heapsize=%dK:" % a.heap)
    for runtime in a.runtime or ("cp", "mp"):
        for kind in a.kind or ("py", "mpy"):
            out = measure(runtime, kind, a.heap)
            print("  %s %-4s %-6s menu %6.1f KB, play max %6.1f KB, peak %6.1f KB (fakes %4.1f KB); firmware/board "
                  "modules loaded: %s" % (runtime, "." + kind, out["status"], out["menu"] / 1024, out["play"] / 1024,
                                          out.get("peak_live", 0) / 1024, out.get("fake_bytes", 0) / 1024,
                                          " ".join(out["modules"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
