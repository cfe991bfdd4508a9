"""Draw the handheld's perfboard layout: hardware/layout-pico.svg, front and back, from the case's dimensions.

    python tools/layout.py [--out hardware] [--check]

The positions (OLED, ten buttons, five pixels, the Pico's USB edge, the piezo, the mounting holes) come from the
parameters at the top of hardware/case/fivedice_case.scad, the one set of numbers the printed case is made from
(tools/case.py reads them), so a part moved there moves in this drawing and in the case alike. The pad labels
(which GPIO each button and the pixel data go to) come from the Pico profile, hardware/boards/pico.py. The back is
drawn as seen from behind (left and right swapped), the way you solder it. The wires themselves follow the
schematic (hardware/schematic-pico.svg): each pad here carries its net's name.
make schematic runs this too; tests/hardware/test_layout.py checks the drawing is current and agrees with the case.
"""
import argparse
import importlib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARDWARE = os.path.join(ROOT, "hardware")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import case  # noqa: E402
import schematic  # noqa: E402

S = 7.0  # pixels per mm
GAP = 24.0  # mm between the two views
MARGIN = 14.0  # mm
# parts only the back carries, in back-view holes (seen from behind): the case does not depend on them
BUFFER_AT = (13, 7)  # the SN74AHCT125N's pin 1 (DIP-14, 0.3" wide, pins 1-7 along this row)
BOOST_AT = (23, 6)  # the U1V11F5's first pin (VIN, GND, VOUT in a row)
SHAKE_AT = (34, 10)  # the SW-18010P lying flat: its two leads
CAP_100U_AT = (27, 2)  # 100 uF across +5V PIX and GND, near the first pixel


def load_profile(name="pico"):
    if HARDWARE not in sys.path:
        sys.path.insert(0, HARDWARE)
    return importlib.import_module("boards." + name)


class Svg:
    def __init__(self, w, h):
        self.w, self.h, self.out = w, h, []

    def rect(self, x, y, w, h, fill="none", stroke="#000", dash=False, width=0.3):
        self.out.append('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s" stroke="%s" '
                        'stroke-width="%.2f"%s/>' % (x * S, y * S, w * S, h * S, fill, stroke, width * S,
                                                     ' stroke-dasharray="6,4"' if dash else ""))

    def circle(self, x, y, r, fill="none", stroke="#000", width=0.25):
        self.out.append('<circle cx="%.2f" cy="%.2f" r="%.2f" fill="%s" stroke="%s" stroke-width="%.2f"/>'
                        % (x * S, y * S, r * S, fill, stroke, width * S))

    def line(self, x1, y1, x2, y2, stroke="#000", width=0.35, arrow=False):
        self.out.append('<line x1="%.2f" y1="%.2f" x2="%.2f" y2="%.2f" stroke="%s" stroke-width="%.2f"%s/>'
                        % (x1 * S, y1 * S, x2 * S, y2 * S, stroke, width * S,
                           ' marker-end="url(#arrow)"' if arrow else ""))

    def text(self, x, y, s, size=2.2, anchor="middle", fill="#000"):
        s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        self.out.append('<text x="%.2f" y="%.2f" font-family="sans-serif" font-size="%.1f" text-anchor="%s" '
                        'fill="%s">%s</text>' % (x * S, y * S, size * S, anchor, fill, s))

    def data(self):
        head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
                '<defs><marker id="arrow" markerWidth="8" markerHeight="8" refX="7" refY="4" orient="auto">'
                '<path d="M0,0 L8,4 L0,8 z" fill="#0050c8"/></marker></defs>'
                '<rect width="100%%" height="100%%" fill="#fff"/>'
                % (self.w * S, self.h * S, self.w * S, self.h * S))
        return (head + "\n".join(self.out) + "</svg>\n").encode()


def draw(p=None, prof=None):
    """The layout as SVG bytes: p, the case's dimensions (tools/case.py params()); prof, the board profile."""
    p = p or case.params()
    prof = prof or load_profile()
    pitch = p["pitch"]
    cols, rows = p["board_holes"]
    bw, bh = cols * pitch, rows * pitch
    svg = Svg(2 * bw + GAP + 2 * MARGIN, bh + 2 * MARGIN + 16)
    pins = dict(prof.BUTTONS)
    header = {name: n for n, name in schematic.PICO_HEADER.items()}

    def view(ox, mirrored):
        def at(h):  # hole (col, row) from the front's bottom-left -> drawing mm
            x = (h[0] + 0.5) * pitch
            return ox + (bw - x if mirrored else x), MARGIN + 8 + bh - (h[1] + 0.5) * pitch
        return at

    front, back = view(MARGIN, False), view(MARGIN + bw + GAP, True)
    for ox, at, title in ((MARGIN, front, "FRONT (the player's side)"),
                          (MARGIN + bw + GAP, back, "BACK (seen from behind: left and right swapped)")):
        svg.rect(ox, MARGIN + 8, bw, bh, fill="#f4efe1")
        for i in range(cols):
            for j in range(rows):
                svg.circle(*at((i, j)), 0.35, fill="#b9ad8f", stroke="none")
        for m in p["mount_holes"]:
            svg.circle(*at(m), 1.6, fill="#fff", width=0.3)
        svg.text(ox + bw / 2, MARGIN + 4, title, size=3.2)

    # front: the OLED on a 4-pin header at its top edge (the module's order: GND VCC SCL SDA)
    ox, oy = front(p["oled_at"])
    mw, mh = p["oled_module"]
    svg.rect(ox - mw / 2, oy - mh / 2, mw, mh, stroke="#555", dash=True)
    ww, wh = p["oled_window"]
    svg.rect(ox - ww / 2, oy - p["oled_window_up"] - wh / 2, ww, wh, fill="#223", stroke="none")
    svg.text(ox, oy + 6, "SSD1306 OLED (above the board on its header)", size=2.0)
    top = round(p["oled_at"][1] + 0.5 + mh / 2 / pitch - 1.5)
    for k in range(4):
        svg.circle(*front((p["oled_at"][0] - 1.5 + k, top)), 0.8, fill="#000")
    x, y = front((p["oled_at"][0], top))
    svg.text(x, y - 2, "GND · VCC 3V3 · SCL %s · SDA %s" % (prof.SCL[0], prof.SDA[0]), size=1.7)

    # front: the ten switches; the top legs go to the GPIO, the bottom legs to GND (each pair is joined inside)
    keys = [("HOLD%d" % (k + 1), (c, p["hold_row"])) for k, c in enumerate(p["hold_cols"])]
    keys += list(zip(("ROLL", "UP", "DOWN", "OK", "BACK"), [tuple(k) for k in p["keys"]]))
    for name, (c, r) in keys:
        x, y = front((c, r))
        svg.rect(x - 3, y - 3, 6, 6, fill="#ddd")
        svg.circle(x, y, 1.75, fill="#888")
        for dc in (-1.5, 1.5):
            for dr in (-1, 1):
                svg.circle(*front((c + dc, r + dr)), 0.7, fill="#000")
        svg.text(x, y - 4.2, "%s %s" % (name, pins[name][0]), size=2.0)
        svg.text(x, y + 5.6, "GND", size=1.5, fill="#555")

    # front: one pixel cut from the strip under each hold button, standing upright (DIN pads below, DOUT above),
    # glued under its window; the data runs DOUT -> DIN in PIXEL_ORDER's order, each with its own 0.1 uF
    piece = (10.0, 1000.0 / 60)  # a 60 LED/m strip's pixel: 10 mm wide, 16.7 mm long
    chain = sorted(range(len(p["hold_cols"])), key=lambda j: prof.PIXEL_ORDER[j])
    ends = []
    for j in range(len(p["hold_cols"])):
        x, y = front((p["hold_cols"][j], p["hold_row"] - p["pixel_drop"]))
        svg.rect(x - piece[0] / 2, y - piece[1] / 2, piece[0], piece[1], fill="#fff", stroke="#333")
        svg.rect(x - 2.5, y - 2.5, 5, 5, fill="#fffbe0", stroke="#333")
        svg.text(x, y + 0.8, "LED%d" % (prof.PIXEL_ORDER[j] + 1), size=1.8)
        svg.text(x, y + piece[1] / 2 - 1, "5V DIN GND", size=1.4)
        svg.text(x, y - piece[1] / 2 + 2, "5V DO GND", size=1.4)
        svg.rect(x - piece[0] / 2 + 0.8, y - 1.5, 1.4, 3, fill="#c96", stroke="none")  # its 0.1 uF, 5V-GND
        ends.append(((x, y + piece[1] / 2), (x, y - piece[1] / 2)))
    first = ends[chain[0]][0]
    svg.line(first[0] - 6, first[1] + 3, first[0], first[1], stroke="#0050c8", arrow=True)
    svg.text(first[0] - 6, first[1] + 5, "data in: 330 Ω from the buffer's 1Y", size=1.6, anchor="start",
             fill="#0050c8")
    for a, b in zip(chain, chain[1:]):  # DO at the top, round the side, into the next one's DIN at the bottom
        (_, dout), (din, _) = ends[a], ends[b]
        mid = (dout[0] + din[0]) / 2
        pts = [(dout[0] + 2, dout[1]), (dout[0] + 2, dout[1] - 1.5), (mid, dout[1] - 1.5), (mid, din[1] + 1.5),
               (din[0] + 2, din[1] + 1.5)]
        for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
            svg.line(x1, y1, x2, y2, stroke="#0050c8", width=0.3)
        svg.line(din[0] + 2, din[1] + 1.5, din[0] + 2, din[1] + 0.2, stroke="#0050c8", width=0.3, arrow=True)
    svg.text(MARGIN + 2, MARGIN + 8 + bh + 5, "brown: each pixel's 0.1 µF across its 5V and GND pads (if the "
             "strip has none beside the LED); blue: the data chain, DO to the next DIN", size=1.8, anchor="start")

    # back: the Pico on headers, USB at the top edge; its pins 1-20 on the left as seen from behind
    ux, uy = back((p["usb_col"], rows - 1))
    svg.rect(ux - 10.5, MARGIN + 8 - 1.3, 21, 51, fill="#1e6e3a", stroke="#000")
    svg.rect(ux - 4, MARGIN + 8 - 1.3, 8, 5.5, fill="#bbb")
    svg.text(ux, MARGIN + 8 + 25, "Pico", size=2.4, fill="#fff")
    svg.text(ux, MARGIN + 8 + 28, "on headers", size=1.6, fill="#fff")
    used = {header[pin[0]]: name for name, pin in schematic.signals(prof) if pin[0] in header}
    used.update({36: "3V3", 38: "GND", 39: "VSYS", 40: "VBUS", 30: "RESET"})
    col0 = rows - 1  # pin 1's row (the top)
    for n in range(1, 41):
        left = n <= 20
        row = col0 - (n - 1) if left else col0 - (40 - n)
        c = p["usb_col"] + (3.5 if left else -3.5)  # front columns: seen from behind, left is the front's right
        x, y = back((c, row))
        svg.circle(x, y, 0.7, fill="#ffd54a" if n in used else "#ccc")
        if n in used:
            svg.text(x + (-2 if left else 2), y + 0.6, "%d %s" % (n, used[n]), size=1.5,
                     anchor="end" if left else "start", fill="#fff" if False else "#000")

    # back: the buffer (DIP-14), the boost, the piezo, the shake switch, the 100 uF
    bx, by = BUFFER_AT
    for k in range(7):
        for n, row in ((k + 1, by), (14 - k, by - 3)):
            x, y = back((cols - 1 - (bx + k), row))
            svg.circle(x, y, 0.7, fill="#000")
            svg.text(x, y + (2.4 if row == by - 3 else -1.4), str(n), size=1.3)
    x0, y0 = back((cols - 1 - bx, by))
    svg.rect(x0 - 1, y0 + 1, 6 * pitch + 2, 3 * pitch - 2, fill="none", stroke="#333")
    svg.text(x0 + 3 * pitch, y0 + 3 * pitch + 5, "SN74AHCT125N, 0.1 µF pin 14 to 7", size=1.7)
    x, y = back((cols - 1 - BOOST_AT[0], BOOST_AT[1]))
    svg.rect(x - 1.5, y - 4, 2 * pitch + 3, 11.4, fill="#2a4d9b", stroke="none")
    for k, pad in enumerate(("VIN", "GND", "VOUT")):
        px, py = back((cols - 1 - BOOST_AT[0] - k, BOOST_AT[1]))
        svg.circle(px, py, 0.7, fill="#ffd54a")
        svg.text(px, py + 3 + 1.6 * (k % 2), pad, size=1.3, fill="#fff")
    svg.text(x + pitch, y - 5, "U1V11F5 boost", size=1.7)
    x, y = back(p["piezo_at"])
    svg.circle(x, y, 6, fill="#222")
    svg.text(x, y + 0.6, "piezo + 100 Ω", size=1.6, fill="#fff")
    x, y = back((cols - 1 - SHAKE_AT[0], SHAKE_AT[1]))
    svg.rect(x - 12, y - 2.5, 12, 5, fill="#999", stroke="none")
    svg.text(x - 6, y + 0.6, "SW-18010P", size=1.6, fill="#fff")
    x, y = back((cols - 1 - CAP_100U_AT[0], CAP_100U_AT[1]))
    svg.circle(x, y, 3.2, fill="#3a3a8a")
    svg.text(x, y + 0.6, "100µF", size=1.4, fill="#fff")
    svg.text(MARGIN, svg.h - 4, "Generated by tools/layout.py from hardware/case/fivedice_case.scad's dimensions and "
             "hardware/boards/pico.py: do not edit. 0.1\" plated perfboard, %d x %d holes. Wires: "
             "hardware/schematic-pico.svg." % (cols, rows), size=2.0, anchor="start")
    return svg.data()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=HARDWARE)
    ap.add_argument("--check", action="store_true", help="write nothing; fail if the SVG on disk is not current")
    a = ap.parse_args(argv)
    path = os.path.join(a.out, "layout-pico.svg")
    data = draw()
    if a.check:
        try:
            with open(path, "rb") as f:
                same = f.read() == data
        except OSError:
            same = False
        if not same:
            print("layout: out of date, run `make schematic`: " + path)
        return 0 if same else 1
    with open(path, "wb") as f:
        f.write(data)
    print("layout: wrote %s" % os.path.relpath(path, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
