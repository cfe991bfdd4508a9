"""Drawing on any framebuf-style target with the fivedice font: text, numbers, dice."""
# A target needs fill_rect(x, y, w, h, c), pixel(x, y, c) and rect(x, y, w, h, c):
# MicroPython's framebuf.FrameBuffer, adafruit_framebuf.FrameBuffer and host_sim's
# SimDisplay all qualify. Text is drawn from fivedice.font with fill_rect runs, never
# with fb.text, so a frame is pixel-identical on every backend.
#
# Colours are 1 (ink) and 0 (paper) for mono displays; the "background" used for
# clearing and inverted parts is `c ^ 1`.
#
# A target may draw glyphs itself: one with a true class attribute GLYPH_BLIT provides glyph(code,
# x, y, c) and glyphs(bytes, x, y, c) -> x after the text, which must draw the very pixels glyph()
# below would, a code outside the font as '?' (firmware/fdfw/board_cp.py and board_mp.py blit
# them in C). Scale 1
# only; str text and scaled text always take the fill_rect path. A target with a true DIE_SPRITES
# provides sprite_die(x, y, size, face, held, c) and sprite_tumble(x, y, size, k, c) -> True when it
# blitted a copy of what die() / tumbling_die() below draw there (made once, by these very
# functions), False to have them drawn here. A target with a true NUMBER_BLIT provides number(n, x,
# y, c, right=False) -> x after it, drawing the very pixels number() below would at scale 1
# (board_mp: a digit a blit, in one call); with right true, x is where its advance ends and it
# returns the left x, as number_right() below. A board's display may put its own text(), number()
# and number_right() in this module's place for itself (fdfw.board_cp._own_gfx and
# board_mp._native_gfx: the same pixels without this dispatch, which cost a call 65-150 us on a
# Pico); other targets still reach the functions below.
#
# Every function here allocates nothing (no strings, tuples or floats are built), so
# they may run with the MicroPython heap locked. Methods are called as fb.method(...)
# directly: that form does not create a bound-method object on MicroPython.
from fivedice.compat import const
from fivedice import font

_MINUS = const(45)  # '-'
_ZERO = const(48)  # '0'

# dice_row's shown: a die tumbling in frame k shows as TUMBLE + k (at rest: face * 2 + held)
TUMBLE = const(16)
UNSHOWN = const(255)  # dice_row's shown: not on the panel

# Pip masks for faces 0..6. Bits: 0 top-left, 1 top-right, 2 mid-left, 3 centre,
# 4 mid-right, 5 bottom-left, 6 bottom-right.
PIPS = b"\x00\x08\x22\x2a\x63\x6b\x77"

# Tumbling animation tables (indexed by frame & 7): face shown, jitter x/y in 0..2,
# and whether the die is drawn "edge-on" as a diamond.
_TUMBLE_FACE = b"\x03\x05\x02\x06\x01\x04\x06\x02"
_TUMBLE_DX = b"\x01\x02\x01\x00\x01\x02\x00\x01"
_TUMBLE_DY = b"\x00\x01\x02\x01\x00\x02\x01\x02"
_TUMBLE_DIAMOND = b"\x00\x01\x00\x01\x00\x01\x00\x01"


def glyph(fb, code, x, y, c, scale=1):
    """Draw one char code (int) at x, y; codes outside 32..126 draw as '?'. Returns x + advance."""
    if scale == 1 and getattr(fb, "GLYPH_BLIT", False):
        fb.glyph(code, x, y, c)  # (a target draws a code outside the font as '?' itself)
        return x + font.ADVANCE
    if code < font.FIRST or code > font.LAST:
        code = font.UNKNOWN
    w = font.WIDTH
    o = (code - font.FIRST) * w
    glyphs = font.FONT
    for col in range(w):
        bits = glyphs[o + col]
        row = 0
        while bits:
            if bits & 1:
                start = row
                while bits & 1:
                    bits >>= 1
                    row += 1
                fb.fill_rect(x + col * scale, y + start * scale, scale, (row - start) * scale, c)
            else:
                bits >>= 1
                row += 1
    return x + font.ADVANCE * scale


def text(fb, s, x, y, c, scale=1):
    """Draw bytes (or str) s, one line, at x, y (top-left). Returns the x after the last char.

    Pass bytes on hot paths: iterating a str makes a 1-char str per char on MicroPython,
    which allocates unless that char happens to be interned; iterating bytes never does."""
    if type(s) is str:
        for ch in s:
            x = glyph(fb, ord(ch), x, y, c, scale)
    elif scale == 1 and getattr(fb, "GLYPH_BLIT", False):
        return fb.glyphs(s, x, y, c)
    else:
        for code in s:
            x = glyph(fb, code, x, y, c, scale)
    return x


def text_width(s, scale=1):
    """Advance width of s in pixels (includes the 1-column gap after the last char)."""
    return len(s) * font.ADVANCE * scale


def text_right(fb, s, xr, y, c, scale=1):
    """Draw s so that its advance ends at xr (exclusive). Returns the left x."""
    x = xr - len(s) * font.ADVANCE * scale
    text(fb, s, x, y, c, scale)
    return x


def text_center(fb, s, cx, y, c, scale=1):
    """Draw s centred on column cx (ignoring the trailing gap). Returns the left x."""
    x = cx - (len(s) * font.ADVANCE * scale - scale) // 2
    text(fb, s, x, y, c, scale)
    return x


def number_width(n, scale=1):
    """Advance width of int n drawn by number() (with '-' for negatives)."""
    k = 1
    if n < 0:
        k = 2
        n = -n
    while n >= 10:
        n //= 10
        k += 1
    return k * font.ADVANCE * scale


def number(fb, n, x, y, c, scale=1):
    """Draw int n in decimal at x, y without building a string. Returns the x after it."""
    if scale == 1 and getattr(fb, "NUMBER_BLIT", False):
        return fb.number(n, x, y, c)
    if n < 0:
        x = glyph(fb, _MINUS, x, y, c, scale)
        n = -n
    p = 1
    while p * 10 <= n:
        p *= 10
    while p:
        d = n // p
        x = glyph(fb, _ZERO + d, x, y, c, scale)
        n -= d * p
        p //= 10
    return x


def number_right(fb, n, xr, y, c, scale=1):
    """Draw int n right-aligned: its advance ends at xr (exclusive). Returns the left x."""
    if scale == 1 and getattr(fb, "NUMBER_BLIT", False):
        return fb.number(n, xr, y, c, True)
    x = xr - number_width(n, scale)
    number(fb, n, x, y, c, scale)
    return x


def _pip_geometry(size):
    # pip side p shares the parity of size, so left/centre/right pips sit symmetrically:
    # 12->2, 15->3, 16->2, 19->3, 20->4, 24->4
    p = (size - 4) // 5
    if p < 1:
        p = 1
    if (size - p) & 1:
        p += 1
    return p


def _pip(fb, x, y, p, c):
    if p >= 4:  # round the corners of big pips
        fb.fill_rect(x + 1, y, p - 2, p, c)
        fb.fill_rect(x, y + 1, p, p - 2, c)
    else:
        fb.fill_rect(x, y, p, p, c)


def pips(fb, x, y, size, face, c):
    """Draw only the pips of face (0..6) for a die whose box is size x size at x, y."""
    mask = PIPS[face] if 0 <= face <= 6 else 0
    p = _pip_geometry(size)
    a = (size - 3 * p + 2) // 4  # margin: share the spare space between edges and gaps
    lx = x + a
    rx = x + size - a - p
    cx = x + (size - p) // 2
    ty = y + a
    by = y + size - a - p
    cy = y + (size - p) // 2
    if mask & 0x01:
        _pip(fb, lx, ty, p, c)
    if mask & 0x02:
        _pip(fb, rx, ty, p, c)
    if mask & 0x04:
        _pip(fb, lx, cy, p, c)
    if mask & 0x08:
        _pip(fb, cx, cy, p, c)
    if mask & 0x10:
        _pip(fb, rx, cy, p, c)
    if mask & 0x20:
        _pip(fb, lx, by, p, c)
    if mask & 0x40:
        _pip(fb, rx, by, p, c)


def _corners(fb, x, y, size, c):
    e = size - 1
    fb.pixel(x, y, c)
    fb.pixel(x + e, y, c)
    fb.pixel(x, y + e, c)
    fb.pixel(x + e, y + e, c)


def die(fb, x, y, size, face, held, c=1):
    """Draw a die (size x size box; 12..24 read well, 19 is roomy on 128x64) showing face 1..6, or a
    blank die for face 0 (not rolled yet). A held die is drawn inverted: a solid die with pips cut
    out. The whole box is overwritten, so no clearing is needed first."""
    if getattr(fb, "DIE_SPRITES", False) and fb.sprite_die(x, y, size, face, held, c):
        return  # the target blitted a copy of this very drawing, made once
    bg = c ^ 1
    if held:
        fb.fill_rect(x, y, size, size, c)
        _corners(fb, x, y, size, bg)
        pips(fb, x, y, size, face, bg)
    else:
        fb.fill_rect(x, y, size, size, bg)
        fb.rect(x, y, size, size, c)
        _corners(fb, x, y, size, bg)
        pips(fb, x, y, size, face, c)


def _diamond(fb, x, y, size, face, c):
    h = (size - 1) // 2
    cx = x + h
    cy = y + h
    e = 2 * h
    for i in range(h + 1):
        fb.pixel(cx + i, y + i, c)
        fb.pixel(x + e - i, cy + i, c)
        fb.pixel(cx - i, y + e - i, c)
        fb.pixel(x + i, cy - i, c)
    p = _pip_geometry(size)
    if p > 2:
        p = 2
    q = p // 2
    off = h // 2
    if face & 1:
        fb.fill_rect(cx - q, cy - q, p, p, c)
    if face >= 2:
        fb.fill_rect(cx - off - q, cy - q, p, p, c)
        fb.fill_rect(cx + off - q, cy - q, p, p, c)
    if face >= 4:
        fb.fill_rect(cx - q, cy - off - q, p, p, c)
        fb.fill_rect(cx - q, cy + off - q, p, p, c)


def tumbling_die(fb, x, y, size, frame, c=1):
    """One animation frame (any int; use a counter) of a die tumbling inside its
    size x size box: a smaller die jumping around, every other frame edge-on. The whole
    box is overwritten."""
    if getattr(fb, "DIE_SPRITES", False) and fb.sprite_tumble(x, y, size, frame & 7, c):
        return
    bg = c ^ 1
    fb.fill_rect(x, y, size, size, bg)
    k = frame & 7
    face = _TUMBLE_FACE[k]
    s = size - 2
    dx = x + _TUMBLE_DX[k]
    dy = y + _TUMBLE_DY[k]
    if _TUMBLE_DIAMOND[k]:
        _diamond(fb, dx, dy, s, face, c)
    else:
        fb.rect(dx, dy, s, s, c)
        _corners(fb, dx, dy, s, bg)
        pips(fb, dx, dy, s, face, c)


def dice_row(fb, dice, held, x, y, size, gap, tumbling=False, frame=0, c=1, shown=None):
    """Draw the 5 dice (bytearray of faces 0..6; held = bitmask, bit i = die i) in a row from x, y.
    While tumbling, unheld dice are drawn as tumbling frames (each die offset so they do not move in
    step). shown (optional, its first 5 items): what each die on the panel shows, face * 2 + held or
    TUMBLE + the frame, kept up to date; a die that shows it already is not drawn again (UNSHOWN:
    draw it). Returns the x after the row."""
    for i in range(5):
        h = (held >> i) & 1
        k = TUMBLE + ((frame + i * 3) & 7) if tumbling and not h else dice[i] * 2 + h
        if shown is None or shown[i] != k:
            if shown is not None:
                shown[i] = k
            if k >= TUMBLE:
                tumbling_die(fb, x, y, size, frame + i * 3, c)
            else:
                die(fb, x, y, size, dice[i], h, c)
        x += size + gap
    return x
