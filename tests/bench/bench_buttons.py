"""Button reading cost on the MicroPython unix port: µs per poll() and heap bytes, old vs new reader.

    make bench   (or: python tests/bench/bench_buttons.py, which re-runs itself on the unix port)
Ten buttons on fake pins (tests/firmware/fakes). Buttons = adafruit_debouncer polled once a pass (the old
MicroPython reader, still the fallback); EdgeButtons = hard-IRQ edge ring, lock-out debounced.
RP2040 estimate = unix-port time x 185 (150-214x; see the common brief). Figures, not tests.
"""
import sys

if sys.implementation.name != "micropython":
    import os
    import shutil
    import subprocess
    import tempfile

    import adafruit_debouncer

    ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    FAKES = os.path.join(ROOT, "tests", "firmware", "fakes")
    deps = tempfile.mkdtemp()
    site = os.path.dirname(adafruit_debouncer.__file__)
    for name in ("adafruit_debouncer.py", "adafruit_ticks.py"):
        shutil.copy(os.path.join(site, name), deps)
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join([os.path.join(FAKES, "mp"), FAKES, os.path.join(ROOT, "firmware"),
                                   os.path.join(ROOT, "lib"), deps])
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    sys.exit(subprocess.call([exe, "-X", "heapsize=2M", os.path.abspath(__file__)], env=env))

import gc  # noqa: E402
import time  # noqa: E402

import adafruit_ticks  # noqa: E402
import fakehw  # noqa: E402
from machine import Pin  # noqa: E402

from fdfw.buttons import Buttons, EdgeButtons, EdgeRing  # noqa: E402

GPIOS = (6, 7, 8, 9, 10, 11, 12, 13, 14, 16)
IDS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
N = 2000
RP2040 = 185


def heap(make):
    gc.collect()
    before = gc.mem_free()
    obj = make()
    gc.collect()
    return obj, before - gc.mem_free()


def per_poll_us(poll, n=N, between=None):
    t0 = time.ticks_us()
    for _ in range(n):
        if between is not None:
            between()
        poll()
    return time.ticks_diff(time.ticks_us(), t0) / n


fakehw.reset()
for g in GPIOS:
    fakehw.levels[g] = 1
pins = [Pin(g, Pin.IN, Pin.PULL_UP) for g in GPIOS]
old, old_bytes = heap(lambda: Buttons([p.value for p in pins], IDS))
old_us = per_poll_us(old.poll)

ring_and_reader, new_bytes = heap(lambda: EdgeButtons(
    EdgeRing(pins, adafruit_ticks.ticks_ms, Pin.IRQ_FALLING | Pin.IRQ_RISING), IDS))
new = ring_and_reader
idle_us = per_poll_us(new.poll)


def two_edges():  # one clean tap (press + release) on one button between two polls
    fakehw.set_level(14, 0)
    fakehw.set_level(14, 1)


tap_us = per_poll_us(new.poll, N, two_edges) - per_poll_us(lambda: None, N, two_edges)
h = new._ring.handlers[8]
pin = pins[8]
t0 = time.ticks_us()
for _ in range(N):
    h(pin)
    new._ring.state[1] = new._ring.state[0]  # keep the ring from filling
irq_us = time.ticks_diff(time.ticks_us(), t0) / N

print("ten buttons, MicroPython unix port (RP2040 estimate x%d)" % RP2040)
print("  Buttons (debouncer polled)   poll  %6.1f us  (~%.1f ms on RP2040)   heap %5d B" % (
    old_us, old_us * RP2040 / 1000, old_bytes))
print("  EdgeButtons, no edges        poll  %6.1f us  (~%.1f ms on RP2040)   heap %5d B (ring + state)" % (
    idle_us, idle_us * RP2040 / 1000, new_bytes))
print("  EdgeButtons, a tap's 2 edges poll  %6.1f us  (~%.1f ms on RP2040)" % (tap_us, tap_us * RP2040 / 1000))
print("  IRQ handler, one edge              %6.1f us  (~%.0f us on RP2040)" % (irq_us, irq_us * RP2040))
