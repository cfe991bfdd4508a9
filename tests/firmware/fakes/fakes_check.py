"""The fake keypad, fake Pin.irq and fdfw.buttons.EdgeButtons on one fake timeline; prints one JSON line.

Runs unchanged on CPython and on the MicroPython unix port (tests/firmware/test_buttons.py compares the two).
Path: tests/firmware/fakes/mp, tests/firmware/fakes/cp, tests/firmware/fakes, firmware, lib, adafruit libs.
"""
import json

import fakehw

fakehw.reset()
import adafruit_ticks  # noqa: E402
import board  # noqa: E402
import keypad  # noqa: E402
from machine import Pin  # noqa: E402

from fdfw.buttons import EdgeButtons, EdgeRing  # noqa: E402


def events(keys):
    out = []
    while True:
        e = keys.events.get()
        if e is None:
            return out
        out.append([e.key_number, e.pressed, e.timestamp])


def error_name(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__
    return None


k = {}
# a key held while Keys is made reports no press
fakehw.reset()
fakehw.press(7)
keys = keypad.Keys([board.GP6, board.GP7], value_when_pressed=False, interval=0.010)
fakehw.advance(40)
k["held_at_start"] = events(keys)
keys.deinit()
k["deinit_frees"] = 6 not in fakehw.claimed and 7 not in fakehw.claimed and not fakehw.tick_hooks

# presses and releases, stamped with the scan that saw them; a 3 ms blip between two scans is not seen
fakehw.reset()
keys = keypad.Keys([board.GP6, board.GP7], value_when_pressed=False, interval=0.010)
fakehw.schedule(15, 6, 0)
fakehw.schedule(45, 6, None)
fakehw.schedule(75, 7, 0)
fakehw.advance(100)
k["events"] = events(keys)
fakehw.schedule(102, 6, 0)
fakehw.schedule(105, 6, None)
fakehw.advance(30)
k["glitch"] = events(keys)
# reset(): every key assumed released, so the held key 1 is reported again at once
keys.reset()
k["reset"] = [e[:2] for e in events(keys)]
k["get_into_type"] = error_name(lambda: keys.events.get_into(object()))


def set_overflowed():
    keys.events.overflowed = False


k["overflowed_read_only"] = error_name(set_overflowed)
keys.deinit()

fakehw.reset()
keys = keypad.Keys([board.GP6, board.GP7], value_when_pressed=False, interval=0.010, debounce_threshold=3)
fakehw.schedule(35, 7, 0)
fakehw.advance(100)
k["threshold3"] = events(keys)
keys.deinit()

fakehw.reset()
keys = keypad.Keys([board.GP6], value_when_pressed=False, interval=0.010, max_events=2)
for t in (15, 35, 55):
    fakehw.schedule(t, 6, 0 if t != 35 else None)
fakehw.advance(70)
ov = [len(keys.events), keys.events.overflowed]
keys.events.clear()
k["overflow"] = ov + [len(keys.events), keys.events.overflowed]
keys.deinit()

# fake machine.Pin.irq
fakehw.reset()
calls = []
pin = Pin(20, Pin.IN, Pin.PULL_UP)
p = {}
for name, trig in (("falling_only", Pin.IRQ_FALLING), ("both", Pin.IRQ_FALLING | Pin.IRQ_RISING)):
    del calls[:]
    pin.irq(handler=calls.append, trigger=trig)
    for _ in range(2):
        fakehw.press(20)
        fakehw.release(20)
    p[name] = len(calls)
pin.irq(handler=None)
del calls[:]
fakehw.press(20)
fakehw.release(20)
p["none_after_disable"] = len(calls)

# EdgeButtons over the fake pin IRQ: a 20 ms tap between polls; a 3 ms tap; a tap with 4 ms of chatter
fakehw.reset()
ring = EdgeRing([Pin(14, Pin.IN, Pin.PULL_UP)], adafruit_ticks.ticks_ms, Pin.IRQ_FALLING | Pin.IRQ_RISING)
buttons = EdgeButtons(ring, [8])
polls = []
fakehw.schedule(10, 14, 0)
fakehw.schedule(30, 14, None)
fakehw.advance(50)
polls.append(buttons.poll())
fakehw.schedule(60, 14, 0)
fakehw.schedule(63, 14, None)
fakehw.advance(50)
polls.append(buttons.poll())
fakehw.bounce(110, 14, 0)
fakehw.bounce(140, 14, None)
fakehw.advance(100)
polls.append(buttons.poll())
eb = [[b for b in range(30) if (m >> b) & 1] for m in polls]

# a press on a quiet button: the idle wait is told of it at once (pending, nothing to wait for) and
# the poll then delivers it; the chatter of the next 10 ms is no press, and the release that ends
# that window counts at its end (the wait says when)
settle = []
fakehw.advance(20)
fakehw.press(14)
settle.append([buttons.pending(), buttons.wait_ms()])
settle.append(buttons.poll())
fakehw.advance(2)
fakehw.release(14)
fakehw.advance(1)
fakehw.press(14)
fakehw.advance(1)
fakehw.release(14)  # chatter: up at 4 ms, and it stays up
settle.append([buttons.pending(), buttons.poll(), buttons.pending(), buttons.wait_ms(), buttons.down()])
fakehw.advance(6)
settle.append([buttons.wait_ms(), buttons.poll(), buttons.down()])

print(json.dumps({"keypad": k, "pin_irq": p, "edge_buttons": eb, "edge_settle": settle}))
