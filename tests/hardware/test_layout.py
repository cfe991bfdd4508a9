"""The perfboard layout (hardware/layout-pico.svg, tools/layout.py) is current, and puts every button, pixel and
the OLED where the case's dimensions (hardware/case/fivedice_case.scad) put their holes, labelled with the
profile's pins: the drawing and the printed case come from one set of numbers."""
import os
import re
import sys
import xml.etree.ElementTree as ET

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import case  # noqa: E402
import layout  # noqa: E402

SVG_NS = "{http://www.w3.org/2000/svg}"


def _texts(data):
    root = ET.fromstring(data)
    return {t.text: (float(t.get("x")) / layout.S, float(t.get("y")) / layout.S) for t in root.iter(SVG_NS + "text")}


def _front(p, h):
    """Where hole h of the case's perfboard lands in the drawing's front view (mm), computed here."""
    return (layout.MARGIN + (h[0] + 0.5) * p["pitch"],
            layout.MARGIN + 8 + p["board_holes"][1] * p["pitch"] - (h[1] + 0.5) * p["pitch"])


def _check(data, p, prof):
    texts = _texts(data)
    pins = dict(prof.BUTTONS)
    keys = [("HOLD%d" % (k + 1), (c, p["hold_row"])) for k, c in enumerate(p["hold_cols"])]
    keys += list(zip(("ROLL", "UP", "DOWN", "OK", "BACK"), p["keys"]))
    for name, h in keys:
        label = "%s %s" % (name, pins[name][0])
        assert label in texts, label
        x, y = _front(p, h)
        assert texts[label][0] == pytest.approx(x, abs=0.01) and texts[label][1] == pytest.approx(y - 4.2, abs=0.01)
    for j, c in enumerate(p["hold_cols"]):
        x, y = _front(p, (c, p["hold_row"] - p["pixel_drop"]))
        led = "LED%d" % (prof.PIXEL_ORDER[j] + 1)
        assert texts[led] == pytest.approx((x, y + 0.8), abs=0.01), led


def test_the_committed_layout_is_what_the_case_and_profile_draw_today():
    assert layout.main(["--check"]) == 0, "run `make schematic` and commit hardware/layout-pico.svg"


def test_the_layout_puts_each_part_at_the_case_hole_with_the_profile_pin():
    with open(os.path.join(ROOT, "hardware", "layout-pico.svg"), "rb") as f:
        data = f.read()
    _check(data, case.params(), layout.load_profile())


def test_a_button_moved_in_the_case_dimensions_moves_in_the_layout(monkeypatch):
    p = case.params()
    p["keys"] = [[30.5, 3]] + p["keys"][1:]  # ROLL elsewhere
    prof = layout.load_profile()
    monkeypatch.setattr(prof, "BUTTONS", tuple((n, ("GP3", 3)) if n == "ROLL" else (n, pin)
                                               for n, pin in prof.BUTTONS))
    data = layout.draw(p, prof)
    _check(data, p, prof)
    assert re.search(rb">ROLL GP3<", data) and data != layout.draw()
