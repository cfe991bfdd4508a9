"""Draw the MacroPad's key picture from its profile (hardware/boards/macropad.py): hardware/macropad-keys.svg.

    python tools/keymap.py [--check]
Each key shows its label (KEY_LABELS) and is filled with the colour it is lit in (KEY_COLORS; the five dice keys
with their die's colour of a sample roll, FACE_COLORS). --check: exit 1 when the committed picture is not what
the profile draws today (tests/firmware/test_macropad.py runs it).
"""
import argparse
import importlib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "hardware", "macropad-keys.svg")
SAMPLE = (2, 5, 5, 3, 6)  # the dice shown on the dice keys (KEY1..KEY5)
_K = 64  # a key's pitch


def _profile():
    sys.path.insert(0, os.path.join(ROOT, "hardware"))
    try:
        return importlib.import_module("boards.macropad")
    finally:
        sys.path.pop(0)


def _hex(c):
    return "#%06x" % c  # c: 0xRRGGBB, as the profile's colours


def _ink(c):
    r, g, b = c >> 16, (c >> 8) & 255, c & 255
    return "#000" if 0.3 * r + 0.59 * g + 0.11 * b > 110 else "#fff"


def draw(prof):
    w = 3 * _K + 40
    h = 4 * _K + 150
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="Helvetica, Arial, sans-serif">' % (w, h, w, h),
           '<rect x="1" y="1" width="%d" height="%d" rx="14" fill="#222" stroke="#555"/>' % (w - 2, h - 2),
           '<rect x="20" y="20" width="128" height="64" fill="#000" stroke="#777"/>',
           '<text x="84" y="56" fill="#ddd" font-size="11" text-anchor="middle">OLED 128x64</text>',
           '<circle cx="%d" cy="52" r="24" fill="#444" stroke="#888"/>' % (w - 42),
           '<text x="%d" y="48" fill="#fff" font-size="10" text-anchor="middle">turn: ^ v</text>' % (w - 42),
           '<text x="%d" y="61" fill="#fff" font-size="10" text-anchor="middle">push: OK</text>' % (w - 42)]
    for k in range(12):
        x = 20 + (k % 3) * _K
        y = 100 + (k // 3) * _K
        label = prof.KEY_LABELS[k]
        if k < 5:
            c = prof.FACE_COLORS[SAMPLE[k]]
            sub = "die %d" % (k + 1)
        else:
            c = prof.KEY_COLORS[k]
            sub = "" if label else "unused"
        out.append('<rect x="%d" y="%d" width="%d" height="%d" rx="6" fill="%s" stroke="#999"/>'
                   % (x + 3, y + 3, _K - 6, _K - 6, _hex(c) if c else "#333"))
        ink = _ink(c) if c else "#bbb"
        words = label.split(" ") if label else []
        for i, word in enumerate(words):
            out.append('<text x="%d" y="%d" fill="%s" font-size="%d" font-weight="bold" text-anchor="middle">%s'
                       '</text>' % (x + _K // 2, y + 28 + 14 * i - 7 * (len(words) - 1), ink,
                                    22 if len(word) <= 2 else 13, word))
        if sub:
            out.append('<text x="%d" y="%d" fill="%s" font-size="9" text-anchor="middle">%s</text>'
                       % (x + _K // 2, y + _K - 11, ink, sub))
    y = 100 + 4 * _K + 18
    for i, line in enumerate(("1-5: hold (lit bright) / free (dim)", "a spin of the knob on the dice: shake",
                              "KEY1 top left ... KEY12 bottom right")):
        out.append('<text x="%d" y="%d" fill="#ddd" font-size="10" text-anchor="middle">%s</text>'
                   % (w // 2, y + 13 * i, line))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the committed picture is out of date")
    a = ap.parse_args(argv)
    svg = draw(_profile())
    if a.check:
        with open(OUT) as f:
            if f.read() != svg:
                print("hardware/macropad-keys.svg is not what the profile draws: run `python tools/keymap.py`")
                return 1
        return 0
    with open(OUT, "w") as f:
        f.write(svg)
    print("wrote " + os.path.relpath(OUT, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
