"""The page's MacroPad (web/fivedice_web.py Handheld(board="macropad")) driven as web/main.js drives it, on the
MicroPython unix port (tests/web/test_macropad_web.py). Prints one JSON line of what it saw."""
import json

from fivedice import app as A
from fivedice.rng import ScriptedFaces
import fivedice_web as W

hh = W.Handheld(dice=ScriptedFaces([3, 5, 3, 6, 2] * 20), board="macropad")
t = [1000]
out = {"labels": hh.key_labels, "jobs": hh.key_buttons}


def run(ms):
    for _ in range(ms // 10):
        t[0] += 10
        hh.step(t[0])


run(100)
out["knob_key"] = hh.key("right")  # the knob in the menu: down a line
run(100)
out["cursor"] = hh.app.screen.cursor
hh.key("left")
hh.button(A.B_OK)  # the knob's push
run(200)
out["mode"] = hh.app.mode
hh.key("right")  # a spin on the dice screen
run(100)
out["tumbling"] = [hh.app.session.tumbling, hh.idle()]
run(1500)
out["landed"] = [hh.app.session.tumbling, hh.app.session.game.rolls, list(hh.app.session.game.dice)]
hh.button(hh.key_buttons[0])  # KEY1 holds die 1
run(200)
rgb = hh.leds()
out["px"] = [[rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]] for i in range(12)]
hand = W.Handheld()
out["handheld"] = [len(hand.pixels), hand.key_labels is None, hand.key("right")]
print(json.dumps(out))
