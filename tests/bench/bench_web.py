"""The page in build/web/ in headless Chromium (make bench-web): start-up time to the first frame, and time per frame.

Figures, from the page's own performance.now() (window.fivedice.stats, web/main.js):
- start-up: from the module's first line to the first frame on the canvas (MicroPython's WebAssembly fetched and
  compiled, lib/fivedice written into its file system, the strategy tables fetched, the App built, the menu drawn),
  and the wall time of the whole page load as Playwright sees it; median and range over --loads fresh loads;
- per frame: one main-loop pass that drew (the presses handed to the app, tick, draw on MicroPython, the
  1,024-byte frame copied out and put on the canvas), averaged over the frames of a scripted game (dice
  tumbling, holds, menus, the perfect CPU's turn); and a plain loop pass that drew nothing.
- start-up whatever localStorage holds: a save (and records) of 10 NUL characters, 100,000 / 400,000 characters of
  hex, 1.5 million characters, each set aside on that load (web/fivedice_web.py: at most MAX_TEXT characters
  are ever decoded; a longer value crosses into MicroPython only as its length).
Figures vary with the machine and its load; they are printed, never asserted.
"""
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "web"))

import web_browser  # noqa: E402


def main(loads=5):
    why = web_browser.why_not()
    if why:
        print("bench_web: cannot run: " + why)
        return
    b = web_browser.Browser()
    try:
        first, wall = [], []
        for _ in range(loads):
            wall.append(b.open("?test=1") * 1000)
            first.append(b.stats()["firstFrameMs"])
        print("start-up to the first frame: median %.0f ms (%.0f-%.0f) over %d loads; page load to running: "
              "median %.0f ms" % (statistics.median(first), min(first), max(first), loads, statistics.median(wall)))
        b.page.evaluate("() => localStorage.clear()")
        b.open("?test=1")
        s0 = b.stats()
        for keys in (["ArrowDown"] * 4 + ["Enter", "Enter"] + ["ArrowUp"] * 4 + ["Enter"],
                     ["Space"], ["ArrowUp"], ["1"], ["3"], ["Space"], ["Enter"], ["ArrowDown"], ["Enter"],
                     ["Space"], ["s"], ["j"], ["b"], ["Backspace"]):
            for k in keys:
                b.key(k)
                b.wait_idle()
        s1 = b.stats()
        frames = s1["frames"] - s0["frames"]
        steps = s1["steps"] - s0["steps"]
        fms = s1["frameMsTotal"] - s0["frameMsTotal"]
        sms = s1["stepMsTotal"] - s0["stepMsTotal"] - fms
        bms = s1["blitMsTotal"] - s0["blitMsTotal"]
        each = s1["frameMs"][len(s0["frameMs"]):]
        print("per frame (loop pass that drew, canvas included): median %.2f ms, mean %.2f ms, max %.1f ms over %d "
              "frames; copying the frame out and onto the canvas: %.2f ms mean; a pass that drew nothing: %.3f ms "
              "mean over %d passes" % (statistics.median(each), fms / frames, max(each), frames, bms / frames,
                                       sms / max(1, steps - frames), steps - frames))
        for label, v in (("10 NUL characters", "\x00" * 10), ("100,000 characters of hex", "ff" * 50000),
                         ("400,000 characters of hex", "ff" * 200000), ("1.5 million characters", "x" * 1500000)):
            times = []
            for _ in range(3):
                b.page.evaluate("() => localStorage.clear()")
                b.page.evaluate("(v) => { localStorage.setItem('fivedice.save', v); "
                                "localStorage.setItem('fivedice.records', v); }", v)
                wall = b.open("?test=1") * 1000
                times.append((b.stats()["firstFrameMs"], wall))
            print("start-up with a save and records of %s: first frame median %.0f ms (max %.0f), page load "
                  "median %.0f ms" % (label, statistics.median(t[0] for t in times), max(t[0] for t in times),
                                      statistics.median(t[1] for t in times)))
        b.page.evaluate("() => localStorage.clear()")
    finally:
        b.close()


if __name__ == "__main__":
    main()
