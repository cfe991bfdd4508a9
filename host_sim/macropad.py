"""The Adafruit MacroPad in the simulator (`fivedice sim --board macropad`): its profile's key colours and labels,
its twelve lit keys drawn 3 x 4, and its knob: turned on the dice screen it is the shake, elsewhere up and down."""
import importlib.util
import os

from fivedice.screens import M_TURN
from host_sim.terminal import display_color

PROFILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hardware", "boards",
                       "macropad.py")
SPIN_MS = 300  # a spin lasts this long after each turn of the knob (fdfw.encoder.SPIN_MS)
# the knob: left/right arrows or [ ] turn it; the keys are the handheld's (1-5, space ROLL, arrows, enter, b)
KNOB = {"left": -1, "right": 1, "[": -1, "]": 1}
LEGEND = ("keys: 1-5 hold  space ROLL  \u2191 ^hint  \u2193 v card  enter OK (knob push)  b BACK  "
          "\u2190/\u2192 knob  q quit")
SHORT_LEGEND = "1-5 spc \u2191hint \u2193card \u23ce OK b BACK \u2190\u2192 knob q"


def profile():
    """hardware/boards/macropad.py as a module (host_sim does not put hardware/ on the path)."""
    spec = importlib.util.spec_from_file_location("macropad_profile", PROFILE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def pixel_colors(prof):
    """The App's pixel_colors for the MacroPad: (die order, face colours, key colours)."""
    return prof.PIXEL_ORDER, prof.FACE_COLORS, prof.KEY_COLORS


class KnobSpin:
    """The device's shake detector on the MacroPad (SimDevice.shake): a spin starts at the first detent on the
    dice screen and stops SPIN_MS after the last, as fdfw.encoder.Encoder does on the board."""

    def __init__(self):
        self.started = self.stopped = self.shaking = False
        self._turned = False
        self._at = 0

    def turned(self):
        self._turned = True

    def update(self, level, now_ms):
        self.started = self.stopped = False
        if self._turned:
            self._turned = False
            self._at = now_ms
            if not self.shaking:
                self.shaking = self.started = True
        elif self.shaking and now_ms - self._at >= SPIN_MS:
            self.shaking = False
            self.stopped = True
        return self.shaking


def turn(dev, queue, d):
    """The knob turned one detent (d = -1 anticlockwise, 1 clockwise): on the dice screen a spin (the dice tumble
    while it turns); elsewhere an UP or DOWN press."""
    if dev.app.mode == M_TURN:
        dev.shake.turned()
        return
    queue.push("up" if d < 0 else "down")


def render_keypad(pixels, prof, cell=10):
    """The twelve keys 3 across, 4 down, each in its pixel's colour with its label, the knob beside the top row."""
    colors = pixels.colors() if hasattr(pixels, "colors") else list(pixels)
    out = []
    for row in range(4):
        cells = []
        for col in range(3):
            k = row * 3 + col
            r, g, b = display_color(colors[k])
            ink = "30" if 0.3 * r + 0.59 * g + 0.11 * b > 110 else "97"
            cells.append("\x1b[48;2;%d;%d;%dm\x1b[%sm%s\x1b[0m" % (r, g, b, ink, prof.KEY_LABELS[k].center(cell)[:cell]))
        line = "  ".join(cells)
        if row == 0:
            line += "    (knob) \u2190/\u2192 turn, enter push"
        elif row == 1:
            line += "    a turn on the dice screen shakes"
        out.append(line)
    return "\n".join(out)
