"""The schematics in hardware/ are drawn from the board profiles and show exactly the profiles' pins.

tools/schematic.py draws them with schemdraw (`make schematic`). Here: the committed SVGs are what the tool
draws today, and, read back from the SVG text alone, every signal label sits on the row of the profile's pin, on
the side of the board where that pin is (the Pico's pin 21, GP16, is on the right), and no other pin has one.
"""
import importlib
import os
import re
import sys
import xml.etree.ElementTree as ET

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HARDWARE = os.path.join(ROOT, "hardware")
TOOLS = os.path.join(ROOT, "tools")
SVG_NS = "{http://www.w3.org/2000/svg}"

pytest.importorskip("schemdraw")


def _profile(name):
    sys.path.insert(0, HARDWARE)
    try:
        return importlib.import_module("boards." + name)
    finally:
        sys.path.remove(HARDWARE)


def _expected(prof):
    """{signal label: profile pin} as the profile says, computed here, not by the tool."""
    out = {"SDA": prof.SDA, "SCL": prof.SCL, "PIXELS": prof.PIXELS, "BUZZER": prof.BUZZER}
    out.update(dict(prof.BUTTONS))
    if prof.SHAKE == "switch":
        out["SHAKE"] = prof.SHAKE_PIN
    return out


def _texts(path):
    """(x, y of the text's middle, string) for every text in the SVG (schemdraw: one tspan per line)."""
    out = []
    for t in ET.parse(path).getroot().iter(SVG_NS + "text"):
        for sp in t.iter(SVG_NS + "tspan"):
            y = float(t.get("y")) + float(sp.get("dy", "0"))
            if t.get("dominant-baseline") == "ideographic":  # y is the bottom of the line: its middle is higher
                y -= float(t.get("font-size")) / 2
            out.append((float(sp.get("x", t.get("x"))), y, sp.text or ""))
    return out


def _drawn(path, title, pin_text):
    """{signal label: pin name text on its row and side} read from the SVG; also the board's centre x and pitch."""
    texts = _texts(path)
    cx = [x for x, y, s in texts if s.startswith(title)]
    assert len(cx) == 1, "the board's title is drawn once"
    cx = cx[0]
    pins = [(x, y, s) for x, y, s in texts if re.match(pin_text, s)]
    rows = sorted(set(round(y, 3) for x, y, s in pins))
    pitch = min(b - a for a, b in zip(rows, rows[1:]))
    top, bottom = rows[0] - pitch, rows[-1] + pitch
    return texts, pins, cx, pitch, top, bottom


def _labels_on_pins(texts, pins, cx, pitch, top, bottom, names):
    found = {}
    for x, y, s in texts:
        if s not in names or not top <= y <= bottom or abs(x - cx) < 1:
            continue
        side = [p for p in pins if (p[0] < cx) == (x < cx)]
        near = min(side, key=lambda p: abs(p[1] - y))
        assert abs(near[1] - y) < pitch / 2, "%s is drawn between two pin rows" % s
        assert s not in found, "%s is drawn at two pins" % s
        found[s] = near
    return found


def test_the_committed_schematics_are_what_the_profiles_draw_today():
    sys.path.insert(0, TOOLS)
    try:
        import schematic
    finally:
        sys.path.remove(TOOLS)
    assert schematic.main(["--check"]) == 0, "run `make schematic` and commit hardware/schematic-*.svg"


def test_the_pico_schematic_shows_exactly_the_profile_pins_on_their_header_sides():
    prof = _profile("pico")
    assert _expected(_profile("pico2")) == _expected(prof)  # one drawing serves both
    want = _expected(prof)
    texts, pins, cx, pitch, top, bottom = _drawn(os.path.join(HARDWARE, "schematic-pico.svg"), "Raspberry Pi Pico",
                                                 r"^GP\d+$")
    found = _labels_on_pins(texts, pins, cx, pitch, top, bottom, set(want))
    assert {s: p[2] for s, p in found.items()} == {s: pin[0] for s, pin in want.items()}
    # header sides: pins 1-20 down the left, 21-40 up the right; each GP name sits by its physical pin number
    numbers = {s: (x, y) for x, y, s in texts if s.isdigit() and top <= y <= bottom}
    for x, y, s in pins:
        n = [k for k, (nx, ny) in numbers.items() if abs(ny - y) < pitch / 2 and (nx < cx) == (x < cx)]
        assert len(n) == 1, s
        assert (int(n[0]) <= 20) == (x < cx), "%s (pin %s) is drawn on the wrong side" % (s, n[0])
    gp16 = [p for p in pins if p[2] == "GP16"][0]
    assert gp16[0] > cx and found["BACK"][2] == "GP16"  # BACK: GP16 is pin 21, bottom right, not on the left


def test_the_feather_schematic_shows_exactly_the_profile_pins():
    prof = _profile("feather_rp2040")
    want = _expected(prof)
    texts, pins, cx, pitch, top, bottom = _drawn(os.path.join(HARDWARE, "schematic-feather_rp2040.svg"),
                                                 "Adafruit Feather RP2040", r"^\w+ \(GPIO\d+\)$")
    found = _labels_on_pins(texts, pins, cx, pitch, top, bottom, set(want))
    assert {s: p[2] for s, p in found.items()} == {s: "%s (GPIO%d)" % pin for s, pin in want.items()}


def test_the_schematic_check_fails_when_a_profile_pin_moves(tmp_path, monkeypatch):
    """The check is not vacuous: moving BACK to another GPIO makes the committed drawing stale."""
    sys.path.insert(0, TOOLS)
    try:
        import schematic
    finally:
        sys.path.remove(TOOLS)
    prof = _profile("pico")
    # pico2 imported first: its `from boards.pico import *` must copy the real pins, or the undo
    # would put the moved ones back into it for every later test
    prof2 = _profile("pico2")
    moved = tuple((n, ("GP17", 17)) if n == "BACK" else (n, p) for n, p in prof.BUTTONS)
    monkeypatch.setattr(prof, "BUTTONS", moved)
    monkeypatch.setattr(prof2, "BUTTONS", moved)
    assert schematic.main(["--check"]) == 1
    schematic.main(["--out", str(tmp_path)])
    texts, pins, cx, pitch, top, bottom = _drawn(str(tmp_path / "schematic-pico.svg"), "Raspberry Pi Pico",
                                                 r"^GP\d+$")
    assert _labels_on_pins(texts, pins, cx, pitch, top, bottom, {"BACK"})["BACK"][2] == "GP17"


# the build step (1-5, hardware/BUILD.md) whose drawing first shows each signal: the core is step 1
STEP_OF = {"PIXELS": 2, "BUZZER": 3, "SHAKE": 4}
STEP_FILES = ("step1-core", "step2-pixels", "step3-buzzer", "step4-shake", "step5-power")


@pytest.mark.parametrize("stem,title,pin_text,fmt", [
    ("pico", "Raspberry Pi Pico", r"^GP\d+$", "%s"),
    ("feather_rp2040", "Adafruit Feather RP2040", r"^\w+ \(GPIO\d+\)$", "%s (GPIO%d)"),
])
def test_each_build_step_drawing_shows_the_pins_of_the_parts_built_so_far(stem, title, pin_text, fmt):
    want = _expected(_profile(stem))
    for k, name in enumerate(STEP_FILES, 1):
        path = os.path.join(HARDWARE, "steps", "%s-%s.svg" % (stem, name))
        texts, pins, cx, pitch, top, bottom = _drawn(path, title, pin_text)
        found = _labels_on_pins(texts, pins, cx, pitch, top, bottom, set(want))
        now = {s: pin for s, pin in want.items() if STEP_OF.get(s, 1) <= k}
        assert {s: p[2] for s, p in found.items()} == {s: fmt % (pin if fmt == "%s (GPIO%d)" else pin[0])
                                                       for s, pin in now.items()}, name
        strings = [s for _, _, s in texts]
        assert ("SN74AHCT125N" in strings) == (k >= 2) and ("piezo" in strings) == (k >= 3), name


@pytest.mark.parametrize("stem", ["pico", "feather_rp2040"])
def test_the_schematic_draws_every_pixel_its_capacitor_and_the_tied_gates(stem):
    prof = _profile(stem)
    strings = [s for _, _, s in _texts(os.path.join(HARDWARE, "schematic-%s.svg" % stem))]
    under = {i: "HOLD%d" % (j + 1) for j, i in enumerate(prof.PIXEL_ORDER)}
    leds = sorted(s for s in strings if s.startswith("LED"))
    assert leds == sorted("LED%d · %s" % (i + 1, under.get(i, "spare")) for i in range(prof.PIXEL_COUNT))
    assert strings.count("DIN") == strings.count("DOUT") == prof.PIXEL_COUNT
    assert strings.count("0.1 µF") == prof.PIXEL_COUNT  # one per pixel, besides the buffer's "at pin 14"
    for pin in ("1OE", "2A", "2OE", "3A", "3OE", "4A", "4OE"):
        assert pin in strings, "the buffer's %s is not drawn (an unused input would float)" % pin
    assert strings.count("+5V PIX") >= 3 + prof.PIXEL_COUNT  # 2OE-4OE high, and every pixel's supply
    assert "100 Ω" in strings
