"""The page's Python side (web/fivedice_web.py) driven as web/main.js drives it, on the MicroPython unix port.

Reads one JSON object on stdin: {"faces": [...], "tables": folder, "script": [[name, [input, ...]], ...],
"save": hex or null}; inputs are terminal keys or "motion" (a phone shaken 700 ms, then at rest). A 10 ms loop
pass, as in the page; after each input it runs until the handheld is idle. Prints "<name> <frame hex>" per step,
then "save <hex or None>" and "tones <count>".
"""
import json
import sys

from fivedice.rng import ScriptedFaces
import fivedice_web as W

req = json.loads(sys.stdin.read())
kept = {}
if req.get("save"):
    kept[W.KEY] = req["save"]
tones = []


def tone(f, ms):
    tones.append(f)


hh = W.Handheld(tone, None, kept.get, kept.__setitem__, kept.pop, req["tables"], ScriptedFaces(req["faces"]), True)
t = [1000]


def run(ms):
    end = t[0] + ms
    while t[0] < end:
        t[0] += 10
        hh.step(t[0])


def settle():
    run(20)
    n = 0
    while not hh.idle() and n < 3000:
        t[0] += 10
        hh.step(t[0])
        n += 1


def hexbytes(b):
    return "".join("%02x" % x for x in b)


for name, inputs in req["script"]:
    for k in inputs:
        if k == "motion":
            for i in range(35):  # 24 m/s^2 strokes, every 20 ms, as tests/web/web_browser.py sends them
                hh.motion(2447 if i & 1 else -2447, 612, 999)
                run(20)
            hh.motion(0, 0, 1000)
        else:
            assert hh.key(k), k
        settle()
    sys.stdout.write(name + " " + hexbytes(hh.frame()) + "\n")
sys.stdout.write("save " + str(kept.get(W.KEY)) + "\n")
sys.stdout.write("tones %d\n" % len(tones))
