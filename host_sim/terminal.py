"""Terminal rendering of the simulated OLED and pixels (returns strings; the caller prints).

The 128x64 frame uses Unicode half blocks so one text cell shows two pixel rows:
128 columns x 32 text rows, at true resolution, inside a box-drawing frame.
Pixels are ANSI 24-bit background-coloured cells.

Below 132x40 the simulator switches to the compact rendering: Unicode Braille cells, 2x4 pixels per cell,
so the frame is 64 x 16 cells, every pixel shown, and the whole screen fits 80x24 (see layout()).
"""
_CELL = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}  # top, bottom


# Braille cells carry 2x4 pixels each (all 8 dots addressable), so the 128x64 frame is 64x16 cells, exact.
# (Quadrant blocks carry only 2x2: 64x32 cells, which cannot fit 24 rows.) Dot bit for pixel (dx, dy):
BRAILLE_BIT = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))  # [dx][dy]

FULL_COLS, FULL_ROWS = 132, 40  # the full-size screen: 130 x 34 frame, pixels, legend
COMPACT_COLS, COMPACT_ROWS = 66, 22  # the compact screen: 66 x 18 frame, pixels, a short legend


def layout(cols, rows):
    """Which rendering fits a terminal of cols x rows: "full", "compact", or "small" (neither fits)."""
    if cols >= FULL_COLS and rows >= FULL_ROWS:
        return "full"
    if cols >= COMPACT_COLS and rows >= COMPACT_ROWS:
        return "compact"
    return "small"


def _raw(display):
    if isinstance(display, (bytes, bytearray, memoryview)):
        return bytes(display)
    return display.raw()


def oled_lines(display, width=128, height=64, frame=True):
    """The frame (a SimDisplay or MVLSB bytes) as a list of text lines."""
    data = _raw(display)
    lines = []
    for ty in range(0, height, 2):
        top_base = (ty >> 3) * width
        top_bit = 1 << (ty & 7)
        bot_base = ((ty + 1) >> 3) * width
        bot_bit = 1 << ((ty + 1) & 7)
        row = []
        for x in range(width):
            t = 1 if data[top_base + x] & top_bit else 0
            b = 1 if data[bot_base + x] & bot_bit else 0
            row.append(_CELL[(t, b)])
        lines.append("".join(row))
    if frame:
        lines = ["\u250c" + "\u2500" * width + "\u2510"] + ["\u2502" + s + "\u2502" for s in lines]
        lines.append("\u2514" + "\u2500" * width + "\u2518")
    return lines


def oled_lines_compact(display, width=128, height=64, frame=True):
    """The frame as Braille text lines: width/2 columns x height/4 rows, each cell exactly its 2x4 pixels."""
    data = _raw(display)
    lines = []
    for ty in range(0, height, 4):
        row = []
        for x in range(0, width, 2):
            bits = 0
            for dy in range(4):
                y = ty + dy
                base = (y >> 3) * width + x
                m = 1 << (y & 7)
                if data[base] & m:
                    bits |= BRAILLE_BIT[0][dy]
                if data[base + 1] & m:
                    bits |= BRAILLE_BIT[1][dy]
            row.append(chr(0x2800 + bits))
        lines.append("".join(row))
    if frame:
        w = width // 2
        lines = ["\u250c" + "\u2500" * w + "\u2510"] + ["\u2502" + s + "\u2502" for s in lines]
        lines.append("\u2514" + "\u2500" * w + "\u2518")
    return lines


def render_oled(display, width=128, height=64, frame=True):
    return "\n".join(oled_lines(display, width, height, frame))


def _colors(pixels):
    return pixels.colors() if hasattr(pixels, "colors") else list(pixels)


# Display mapping of a NeoPixel colour: the device drives its LEDs at most 96/255 (unheld dice at 40/255
# of that: brightest channel 15), which a lit LED shows brightly but a screen shows nearly black. The
# brightest channel m maps to 255 * (m / 255) ** LED_GAMMA and the other channels keep their ratio to it
# (hue kept; off stays off). With 0.15: unheld 15 -> 167, held 96 -> 220, full 255 -> 255, 1 -> 111.
LED_GAMMA = 0.15


def display_color(c):
    """A NeoPixel colour (r, g, b) as sent to the strip -> the colour to draw on a screen."""
    m = max(c)
    if m <= 0:
        return (0, 0, 0)
    top = 255.0 * (m / 255.0) ** LED_GAMMA
    return tuple(min(255, int(v * top / m + 0.5)) for v in c)


def render_pixels(pixels, cell_width=6, gap=2, lift=True, labels=True):
    """One line of coloured cells (plus a line of 1..N labels under them)."""
    cells = []
    for c in _colors(pixels):
        r, g, b = display_color(c) if lift else c
        cells.append("\x1b[48;2;%d;%d;%dm%s\x1b[0m" % (r, g, b, " " * cell_width))
    line = (" " * gap).join(cells)
    if not labels:
        return line
    names = (" " * gap).join(str(i + 1).center(cell_width) for i in range(len(cells)))
    return line + "\n" + names


def render(display, pixels=None, legend=None, indent=0, compact=False):
    """OLED frame, the pixel strip under it and an optional legend line, as one string (compact: fits 80x24)."""
    pad = " " * indent
    out = [pad + s for s in (oled_lines_compact(display) if compact else oled_lines(display))]
    if pixels is not None:
        out.append("")
        for s in render_pixels(pixels).split("\n"):
            out.append(pad + " " + s)
    if legend:
        out.append(pad + legend)
    return "\n".join(out)
