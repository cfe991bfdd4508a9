"""Draw each board's wiring schematic from its profile (hardware/boards/*.py) with schemdraw: hardware/schematic-*.svg,
and the breadboard guide's five step drawings (hardware/steps/BOARD-stepN-PART.svg, hardware/BUILD.md): the parts
built so far, the step's own in blue.

    python tools/schematic.py [--out hardware] [--check]

The pins come from the profile only (buttons, I2C, pixel data, buzzer, shake switch), so the picture cannot drift
from the code; `make schematic` redraws them and tests/hardware/test_schematic.py checks that the committed SVGs are what
this draws and that every drawn signal sits on the profile's pin, on the side of the board where that pin is.
The Pico and the Pico 2 share one drawing (the same header and profile pins; `pico2.py` must match `pico.py`).
The Pico is drawn as its 40-pin header seen from the top, USB up: pins 1-20 down the left, 21-40 up the right.
Boards without a header table here (the Feather RP2040) are drawn with their pins grouped by function.
Every pixel is drawn, chained DOUT -> DIN with its own 0.1 uF, and the level buffer's unused gates are tied.
With --check nothing is written: the exit status says whether the SVGs on disk are current.
"""
import argparse
import importlib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARDWARE = os.path.join(ROOT, "hardware")

# Raspberry Pi Pico / Pico 2 header (Pico datasheet, pinout): physical pin -> name
PICO_HEADER = {
    1: "GP0", 2: "GP1", 3: "GND", 4: "GP2", 5: "GP3", 6: "GP4", 7: "GP5", 8: "GND", 9: "GP6", 10: "GP7",
    11: "GP8", 12: "GP9", 13: "GND", 14: "GP10", 15: "GP11", 16: "GP12", 17: "GP13", 18: "GND", 19: "GP14",
    20: "GP15", 21: "GP16", 22: "GP17", 23: "GND", 24: "GP18", 25: "GP19", 26: "GP20", 27: "GP21", 28: "GND",
    29: "GP22", 30: "RUN", 31: "GP26", 32: "GP27", 33: "AGND", 34: "GP28", 35: "ADC_VREF", 36: "3V3(OUT)",
    37: "3V3_EN", 38: "GND", 39: "VSYS", 40: "VBUS",
}

# drawings: file stem -> (profile names drawn, header table or None, title)
DRAWINGS = (
    ("pico", ("pico", "pico2"), PICO_HEADER, "Raspberry Pi Pico / Pico 2 (top view, USB up)"),
    ("feather_rp2040", ("feather_rp2040",), None, "Adafruit Feather RP2040 (pins grouped by function)"),
)

PITCH = 1.0  # drawing units between two header pins
STUB = 1.6  # the labelled wire from a board pin to its part


def load(name):
    if HARDWARE not in sys.path:
        sys.path.insert(0, HARDWARE)
    return importlib.import_module("boards." + name)


def signals(prof):
    """(signal, profile pin) for every GPIO the profile uses: the labels drawn at the board's pins."""
    out = [("SDA", prof.SDA), ("SCL", prof.SCL), ("PIXELS", prof.PIXELS), ("BUZZER", prof.BUZZER)]
    out += [(name, pin) for name, pin in prof.BUTTONS]
    if prof.SHAKE == "switch":
        out.append(("SHAKE", prof.SHAKE_PIN))
    return out


def _pins(header, sigs):
    """IcPin specs [(name, number, side, slot)] and {signal: pin name} for the board block."""
    import schemdraw.elements as elm

    if header is not None:
        pins = []
        for n, name in sorted(header.items()):
            if n <= 20:  # left side, pin 1 at the top (schemdraw counts slots from the bottom)
                pins.append(elm.IcPin(name=name, pin=str(n), side="L", slot="%d/20" % (21 - n), anchorname="P%d" % n))
            else:  # right side, pin 21 at the bottom, 40 at the top
                pins.append(elm.IcPin(name=name, pin=str(n), side="R", slot="%d/20" % (n - 20), anchorname="P%d" % n))
        by_name = {}
        for n, name in header.items():
            by_name.setdefault(name, "P%d" % n)
        anchors = {}
        for sig, pin in sigs:
            if pin[0] not in by_name:
                raise SystemExit("schematic: %s's pin %s is not on the header" % (sig, pin[0]))
            anchors[sig] = by_name[pin[0]]
        power = {"GND": by_name["GND"] if "GND" in by_name else None}
        return pins, anchors, 20, {"3V3": "P36", "GND": "P38", "VSYS": "P39", "VBUS": "P40", "RUN": "P30"}, power
    # no header table: buttons (and the shake switch) down the left, the rest and the power pins up the right
    left = [s for s in sigs if s[0] not in ("SDA", "SCL", "PIXELS", "BUZZER")]
    right = [s for s in sigs if s[0] in ("SDA", "SCL", "PIXELS", "BUZZER")]
    power = [("3V", "V3"), ("GND", "GND"), ("EN", "EN"), ("RST", "RST")]
    rows = max(len(left), len(right) + len(power))
    pins = []
    anchors = {}
    for i, (sig, pin) in enumerate(left):
        pins.append(elm.IcPin(name="%s (GPIO%d)" % pin, side="L", slot="%d/%d" % (rows - i, rows),
                              anchorname="S_" + sig))
        anchors[sig] = "S_" + sig
    for i, (sig, pin) in enumerate(right):
        pins.append(elm.IcPin(name="%s (GPIO%d)" % pin, side="R", slot="%d/%d" % (rows - i, rows),
                              anchorname="S_" + sig))
        anchors[sig] = "S_" + sig
    for j, (name, anchor) in enumerate(power):
        pins.append(elm.IcPin(name=name, side="R", slot="%d/%d" % (j + 1, rows), anchorname=anchor))
    return pins, anchors, rows, {"3V3": "V3", "GND": "GND", "EN": "EN", "RUN": "RST"}, None


# the parts a build adds step by step (hardware/BUILD.md), and the signals each one puts on the board's pins
PARTS = ("core", "pixels", "buzzer", "shake", "power")
SIGNAL_PART = {"PIXELS": "pixels", "BUZZER": "buzzer", "SHAKE": "shake"}  # the rest (I2C, buttons): core
# breadboard steps: file suffix, the part it adds (drawn in NEW_COLOUR over the parts already built)
STEPS = (("step1-core", "core"), ("step2-pixels", "pixels"), ("step3-buzzer", "buzzer"),
         ("step4-shake", "shake"), ("step5-power", "power"))
NEW_COLOUR = "#0050c8"


def part_of(sig):
    return SIGNAL_PART.get(sig, "core")


def draw(stem, names, header, title, parts=PARTS, new=()):
    """The schematic of profiles `names` (one wiring) as SVG bytes: the parts in `parts` (default: all), those in
    `new` in NEW_COLOUR (a build step's drawing)."""
    import schemdraw
    import schemdraw.elements as elm

    schemdraw.use("svg")
    profs = [load(n) for n in names]
    sigs = signals(profs[0])
    for p in profs[1:]:
        if signals(p) != sigs:
            raise SystemExit("schematic: %s and %s no longer share a wiring: give %s its own drawing"
                             % (names[0], p.__name__, p.__name__))
    prof = profs[0]
    pins, anchors, rows, power, _ = _pins(header, sigs)
    d = schemdraw.Drawing(show=False)  # not a `with` block: that adds every element made inside it
    d.config(fontsize=11)

    def put(part, el):
        """Add el when its part is drawn (coloured when the step adds it); returns el."""
        if part in parts:
            d.add(el.color(NEW_COLOUR) if part in new else el)
        return el

    def rail(part, at, net="+5V PIX"):  # a supply net, as a power symbol named like its tags
        put(part, elm.Vdd().at(at).label(net, fontsize=9))

    board = elm.Ic(pins=pins, size=(6, PITCH * (rows + 1)), pinspacing=PITCH, pinlblsize=9, plblsize=11)
    d += board.label(title, loc="top", fontsize=12)
    for sig, anchor in anchors.items():
        part = part_of(sig)
        at = getattr(board, anchor)
        left = at[0] < board.center[0]

        def go(el):
            return el.left() if left else el.right()

        put(part, go(elm.Line().at(at).length(STUB).label(sig, fontsize=11)))
        if sig in ("SDA", "SCL"):
            put(part, go(elm.Tag()).label("I2C " + sig, fontsize=9))
        elif sig == "PIXELS":
            put(part, go(elm.Tag()).label("PIX DATA", fontsize=9))
        elif sig == "BUZZER":
            # the label under the resistor: the button on the pin above drops its ground symbol over it
            put(part, go(elm.Resistor()).label("100 Ω", loc="bottom", ofst=0.35, fontsize=9))
            put(part, go(elm.Crystal()).label("piezo", fontsize=9))
            put(part, elm.Ground())
        else:  # a button or the shake switch: normally open, to GND
            put(part, go(elm.Button().length(1.5)))
            put(part, elm.Ground())
    # power pins
    if header is not None:
        put("core", elm.Line().at(board.P40).right().length(STUB).label("VBUS", fontsize=9))
        put("core", elm.Tag().right().label("USB 5V", fontsize=9))
        put("core", elm.Line().at(board.P39).right().length(STUB))
        put("core", elm.Tag().right().label("VSYS", fontsize=9))
        put("core", elm.Line().at(board.P38).right().length(STUB / 2))
        put("core", elm.Ground())
        put("core", elm.Line().at(board.P36).right().length(STUB))
        put("core", elm.Tag().right().label("3V3", fontsize=9))
        put("core", elm.Line().at(board.P30).right().length(STUB * 2.5))  # past the tag on pin 29
        put("core", elm.Button().right().length(1.5).label("RESET", fontsize=9))
        put("core", elm.Ground())
    else:
        put("core", elm.Line().at(board.V3).right().length(STUB))
        put("core", elm.Tag().right().label("3V3", fontsize=9))
        put("core", elm.Line().at(board.GND).right().length(STUB / 2))
        put("core", elm.Ground())
        put("power", elm.Line().at(board.EN).right().length(STUB / 2))
        put("power", elm.Switch().right().length(1.5).label("POWER", fontsize=9))
        put("power", elm.Ground())
        put("core", elm.Line().at(board.RST).right().length(STUB))
        put("core", elm.Button().right().length(1.5).label("RESET", fontsize=9))
        put("core", elm.Ground())

    # the parts below the board, joined to it by the net tags
    bottom = min(getattr(board, a)[1] for a in anchors.values()) - 3
    x = -6
    y0 = bottom
    # supply: batteries -> power switch -> Schottky -> VSYS (Pico); the Feather's LiPo plugs into its JST
    if header is not None:
        put("power", elm.Ground().at((x, y0)))
        put("power", elm.Battery().at((x, y0)).right().label("3×AA", fontsize=9))
        put("power", elm.Switch().right().label("POWER", fontsize=9))
        put("power", elm.Schottky().right().label("1N5817", fontsize=9))
        put("power", elm.Tag().right().label("VSYS", fontsize=9))
        boost_in = "VSYS"
    else:
        boost_in = "3V3"
    y1 = y0 - 3.5
    y2 = y1 - 5
    if "pixels" in parts:  # (a part not drawn has no anchors to join to)
        # the pixel rail: a 5 V boost, so the buffer and the pixels are in their ranges on any supply
        boost = elm.Ic(pins=[elm.IcPin(name="GND", side="L"), elm.IcPin(name="VIN", side="L"),
                             elm.IcPin(name="VOUT", side="R")], size=(3, 1.8), pinspacing=0.8)
        put("pixels", boost.theta(0).at((x + 2, y1)).anchor("VIN").label("U1V11F5 5 V boost", loc="top",
                                                                          fontsize=9))
        put("pixels", elm.Line().at(boost.VIN).left().length(1))
        put("pixels", elm.Tag().left().label(boost_in, fontsize=9))
        put("pixels", elm.Line().at(boost.GND).left().length(0.5))
        put("pixels", elm.Ground())
        put("pixels", elm.Line().at(boost.VOUT).right().length(1))
        put("pixels", elm.Tag().right().label("+5V PIX", fontsize=9))
        # the level buffer, decoupled at its VCC pin; gates 2-4 unused: inputs tied, outputs disabled and open
        left = [("4OE", "13"), ("4A", "12"), ("3OE", "10"), ("3A", "9"), ("2OE", "4"), ("2A", "5"), ("GND", "7"),
                ("1OE", "1"), ("1A", "2")]  # bottom to top
        right = [("4Y", "11"), ("3Y", "8"), ("2Y", "6"), ("1Y", "3"), ("VCC", "14")]
        buf = elm.Ic(pins=[elm.IcPin(name=n, pin=p, side="L") for n, p in left]
                     + [elm.IcPin(name=n, pin=p, side="R", slot="%d/%d" % (i + 5, len(left)))
                        for i, (n, p) in enumerate(right)], size=(3, 0.8 * (len(left) + 1)), pinspacing=0.8)
        put("pixels", buf.theta(0).at((x + 2, y2)).anchor("1A").label("SN74AHCT125N", loc="top", fontsize=9))
        put("pixels", elm.Line().at(buf["1A"]).left().length(1))
        put("pixels", elm.Tag().left().label("PIX DATA", fontsize=9))
        for pin, net in (("1OE", "GND"), ("GND", "GND"), ("2A", "GND"), ("2OE", "+5V PIX"), ("3A", "GND"),
                         ("3OE", "+5V PIX"), ("4A", "GND"), ("4OE", "+5V PIX")):
            # the unused gates 2-4: input to GND, output enable high (off), so nothing floats
            put("pixels", elm.Line().at(buf[pin]).left().length(0.6 if net == "GND" else 1.6))
            put("pixels", elm.Tag().left().label(net, fontsize=9))
        put("pixels", elm.Label().at((buf["4Y"][0] + 0.3, buf["3Y"][1])).label("2Y–4Y: open", fontsize=9,
                                                                               halign="left"))
        put("pixels", elm.Line().at(buf.VCC).right().length(0.6))
        rail("pixels", d.here)
        # its decoupling capacitor, drawn apart: solder it across pins 14 and 7, as close as they allow
        dec = (boost.VOUT[0] + 5, boost.VOUT[1] + 0.2)
        rail("pixels", dec)
        put("pixels", elm.Capacitor().at(dec).down().label("0.1 µF at pin 14", fontsize=9))
        put("pixels", elm.Ground())
        put("pixels", elm.Line().at(buf["1Y"]).right().length(1.2))
        put("pixels", elm.Resistor().right().label("330 Ω", fontsize=9))
        # every pixel, chained DOUT -> DIN, each with its own 0.1 µF; the label says which hold button it is under
        under = {i: "HOLD%d" % (j + 1) for j, i in enumerate(prof.PIXEL_ORDER)}
        din = d.here
        for i in range(prof.PIXEL_COUNT):
            px = elm.Ic(pins=[elm.IcPin(name="DIN", side="L"), elm.IcPin(name="DOUT", side="R"),
                              elm.IcPin(name="VDD", side="T"), elm.IcPin(name="GND", side="B")],
                        size=(3.0, 2.6), pinlblsize=8)
            put("pixels", px.theta(0).at(din).anchor("DIN"))
            put("pixels", elm.Label().at((px.center[0], px.center[1] + 0.55)).label(
                "LED%d · %s" % (i + 1, under.get(i, "spare")), fontsize=8))
            put("pixels", elm.Line().at(px.GND).down().length(0.3))
            put("pixels", elm.Ground())
            put("pixels", elm.Line().at(px.VDD).up().length(0.8))
            top = d.here
            rail("pixels", top)
            put("pixels", elm.Line().at(top).right().length(2.0))
            put("pixels", elm.Capacitor().down().length(1.2).label("0.1 µF", loc="bottom", fontsize=8))
            put("pixels", elm.Ground())
            if i + 1 < prof.PIXEL_COUNT:
                put("pixels", elm.Line().at(px.DOUT).right().length(1.4))
                din = d.here
        cap = (px.DOUT[0] + 2.2, px.VDD[1] + 0.8)
        rail("pixels", cap)
        put("pixels", elm.Capacitor(polar=True).at(cap).down().label("100 µF", fontsize=9))
        put("pixels", elm.Ground())
    # the I2C devices
    xo = x + 17
    oled = elm.Ic(pins=[elm.IcPin(name="SDA", side="L"), elm.IcPin(name="SCL", side="L"),
                        elm.IcPin(name="GND", side="L"), elm.IcPin(name="VCC", side="L")],
                  size=(3.4, 3.2), pinspacing=0.7)
    put("core", oled.theta(0).at((xo, y0)).anchor("VCC").label(
        "SSD1306 OLED 128×64\nI2C " + " or ".join("0x%02X" % a for a in prof.OLED_ADDRS), loc="top",
        fontsize=9))
    for pin, net in (("VCC", "3V3"), ("SCL", "I2C SCL"), ("SDA", "I2C SDA")):
        put("core", elm.Line().at(getattr(oled, pin)).left().length(1))
        put("core", elm.Tag().left().label(net, fontsize=9))
    put("core", elm.Line().at(oled.GND).left().length(0.5))
    put("core", elm.Ground())
    if prof.SHAKE == "lis3dh" and "shake" in parts:
        acc = elm.Ic(pins=[elm.IcPin(name="SDA", side="L"), elm.IcPin(name="SCL", side="L"),
                           elm.IcPin(name="GND", side="L"), elm.IcPin(name="VIN", side="L")],
                     size=(3.4, 3.2), pinspacing=0.7)
        put("shake", acc.theta(0).at((xo + 8, y0)).anchor("VIN").label(
            "LIS3DH, I2C 0x%02X" % prof.LIS3DH_ADDR, loc="top", fontsize=9))
        for pin, net in (("VIN", "3V3"), ("SCL", "I2C SCL"), ("SDA", "I2C SDA")):
            put("shake", elm.Line().at(getattr(acc, pin)).left().length(1))
            put("shake", elm.Tag().left().label(net, fontsize=9))
        put("shake", elm.Line().at(acc.GND).left().length(0.5))
        put("shake", elm.Ground())
    what = "" if new == () else " Blue: this step's parts."
    d += elm.Label().at((x, y2 - 8.5)).label(
        "Generated by tools/schematic.py from hardware/boards/%s.py: do not edit. "
        "Buttons and switches are normally open, to GND (internal pull-ups).%s" % (names[0], what),
        fontsize=9, halign="left")
    return d.get_imagedata("svg")


def drawings():
    """(path under hardware/, SVG bytes) of every drawing: each board's schematic and its build steps."""
    out = []
    for stem, names, header, title in DRAWINGS:
        out.append(("schematic-%s.svg" % stem, draw(stem, names, header, title)))
        for k, (suffix, part) in enumerate(STEPS):
            out.append(("steps/%s-%s.svg" % (stem, suffix),
                        draw(stem, names, header, title, PARTS[:k + 1], (part,))))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=HARDWARE)
    ap.add_argument("--check", action="store_true", help="write nothing; fail if an SVG on disk is not current")
    args = ap.parse_args(argv)
    stale = []
    for name, svg in drawings():
        path = os.path.join(args.out, name)
        if args.check:
            try:
                with open(path, "rb") as f:
                    if f.read() != svg:
                        stale.append(path)
            except OSError:
                stale.append(path)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(svg)
        print("schematic: wrote %s" % os.path.relpath(path, ROOT))
    if stale:
        print("schematic: out of date, run `make schematic`: " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
