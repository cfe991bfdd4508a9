"""NeoPixel view of the five dice: a colour per face, held dice lit under their buttons."""
# The pixel object is passed in: anything with `px[i] = 0xRRGGBB` and `show()` (fdfw.pixels_cp,
# fdfw.pixels, CircuitPython's neopixel.NeoPixel, host_sim's SimPixels). Leave its own brightness at
# 1.0: this view scales colours itself into a table of ints built when the brightness is set, so a
# frame only indexes prebuilt small ints (a colour as an int, not an (r, g, b) tuple: no heap object
# per colour, 41 tuples were about 1.3 KB of a board's heap).
#
# What the LEDs show (die i is pixel order[i], the one under hold button i):
# - not rolled yet (face 0): off;
# - rolled, not held: the face colour, dim;
# - held: the face colour, full brightness;
# - tumbling (tumble(True, t)): unheld dice flicker through the face colours,
#   each die out of step; held dice stay lit;
# - celebrate(t) (five of a kind): a rainbow runs round every pixel for CELEBRATE_MS,
#   then the dice view comes back;
# - test(j, c) (the self-test): pixel j alone, pure red, green or blue (c = 0, 1, 2) at
#   the brightness set, until test(-1, 0) brings the dice view back.
# update(now_ms) writes only pixels whose colour changed and calls show() only then;
# it allocates nothing.
from fivedice.compat import const
from fivedice.ticks import ticks_diff

# Colours are 0xRRGGBB ints. Face colours at full scale: 0 (unrolled) off, then red, orange,
# yellow, green, blue, violet.
FACE_COLORS = (0x000000, 0xFF0000, 0xFF5000, 0xFFC800, 0x00FF1E, 0x0046FF, 0xAA00FF)
# Rainbow wheel for the celebration (12 hues).
RAINBOW = (0xFF0000, 0xFF6000, 0xFFC000, 0xA0FF00, 0x20FF00, 0x00FF60, 0x00FFE0, 0x0080FF,
           0x0010FF, 0x7000FF, 0xF000FF, 0xFF0080)
CELEBRATE_MS = const(2400)
TUMBLE_FRAME_MS = const(70)
PARTY_FRAME_MS = const(60)

TEST_COLORS = (0xFF0000, 0x00FF00, 0x0000FF)  # the self-test's red, green, blue

_FULL = const(0)  # palette index of face colour f at full: f; dim: 7 + f
_DIM = const(7)
_RAIN = const(14)
_NRAIN = const(12)
_PURE = const(26)  # TEST_COLORS
_KEYS = const(29)  # the key colours, by pixel
_UNKNOWN = const(255)

# faces shown while tumbling: no face twice in a row (also across the wrap)
_TUMBLE_SEQ = b"\x03\x06\x01\x04\x02\x05\x06\x03\x05\x01\x04\x02"


def scale(c, b):
    """Colour c (0xRRGGBB) with each channel times b / 255."""
    return (((c >> 16) * b // 255) << 16) | ((((c >> 8) & 255) * b // 255) << 8) | (
        (c & 255) * b // 255)


_NORMAL = const(0)
_TUMBLE = const(1)
_PARTY = const(2)
_TEST = const(3)


class PixelsView:
    """Five dice on N >= 5 RGB pixels. brightness and dim are 0..255 (dim is the share of brightness
    an unheld die gets). order: bytes, pixel index of each die. faces: 7 colours (off, then faces
    1..6) in place of FACE_COLORS; keys: n colours, the others' pixels lit (a key's job, the
    MacroPad)."""

    def __init__(self, px, n=5, brightness=96, dim=40, order=None, faces=None, keys=None):
        if n < 5:
            raise ValueError("need at least 5 pixels")
        self._faces = faces if faces is not None else FACE_COLORS  # off, then faces 1..6
        # a colour for each pixel (those under a die are not read), or None: the others dark
        self._keys = keys
        self._px = px
        self._show = px.show
        self._n = n
        self.n = n  # pixels on the strip
        self._order = bytes(order) if order is not None else bytes(range(5))
        if len(self._order) != 5:
            raise ValueError("order needs 5 pixel indices")
        self._dice = bytearray(5)
        self._held = 0
        self._test = 0  # test mode: pixel * 3 + colour
        self._last = bytearray([_UNKNOWN] * n)
        self._die = bytearray(n)  # 1 where a die's pixel is
        for j in self._order:
            self._die[j] = 1
        self._mode = _NORMAL
        self._t0 = 0
        self._dim = dim
        self._pal = None
        self._brightness = 0
        self.brightness = brightness
        self.frames = 0  # show() calls made

    @property
    def brightness(self):
        return self._brightness

    @brightness.setter
    def brightness(self, value):
        """Rescale the colour table (its list made at the first call: not for a per-frame path)."""
        b = 0 if value < 0 else 255 if value > 255 else int(value)
        self._brightness = b
        d = b * self._dim // 255
        keys = self._keys or ()
        pal = self._pal
        if pal is None:  # one list for good: a new brightness rewrites it
            pal = self._pal = [0] * (_KEYS + len(keys))
        for f in range(7):
            pal[_FULL + f] = scale(self._faces[f], b)
            pal[_DIM + f] = scale(self._faces[f], d)
        for i in range(_NRAIN):
            pal[_RAIN + i] = scale(RAINBOW[i], b)
        for i in range(3):
            pal[_PURE + i] = scale(TEST_COLORS[i], b)
        # at _KEYS + pixel; the key colours at the dim share, as free dice
        for i in range(len(keys)):
            pal[_KEYS + i] = scale(keys[i], d)
        self.refresh()

    def color(self, index):
        """The palette's colour (0xRRGGBB) at a palette index (for tests and the simulator)."""
        return self._pal[index]

    def refresh(self):
        """Forget what the strip shows: the next update() rewrites every pixel."""
        for j in range(self._n):
            self._last[j] = _UNKNOWN

    def dark(self):
        """Switch every pixel off now (the board is going to sleep); refresh() + update() bring the
        dice back."""
        self._mode = _NORMAL
        changed = 0
        for j in range(self._n):
            changed |= self._put(j, 0)
        if changed:
            self._show()

    def set_dice(self, dice, held):
        """Copy the faces (5 ints 0..6) and the held bitmask (bit i = die i)."""
        for i in range(5):
            self._dice[i] = dice[i]
        self._held = held

    def tumble(self, on, now_ms):
        """Start/stop the tumbling animation of the unheld dice."""
        if on:
            if self._mode != _PARTY:
                self._mode = _TUMBLE
                self._t0 = now_ms
        elif self._mode == _TUMBLE:
            self._mode = _NORMAL

    def celebrate(self, now_ms):
        """Run the five-of-a-kind rainbow for CELEBRATE_MS from now."""
        self._mode = _PARTY
        self._t0 = now_ms

    def test(self, j, c):
        """Light pixel j alone in TEST_COLORS[c] (the self-test); j < 0 ends the test."""
        if j < 0:
            if self._mode == _TEST:
                self._mode = _NORMAL
        else:
            self._mode = _TEST
            self._test = j * 3 + c

    @property
    def busy(self):
        """True while an animation runs (the caller should keep calling update)."""
        return self._mode != _NORMAL

    def _put(self, j, k):
        if self._last[j] != k:
            self._last[j] = k
            self._px[j] = self._pal[k]
            return 1
        return 0

    def update(self, now_ms):
        """Draw the current frame; returns True if the strip was written (show called)."""
        changed = 0
        mode = self._mode
        if mode == _TEST:
            for j in range(self._n):
                changed |= self._put(j, _PURE + self._test % 3 if j == self._test // 3 else 0)
        elif mode == _PARTY:
            el = ticks_diff(now_ms, self._t0)
            if el >= CELEBRATE_MS or el < 0:
                self._mode = mode = _NORMAL
            else:
                f = el // PARTY_FRAME_MS
                for j in range(self._n):
                    changed |= self._put(j, _RAIN + (f + j * 2) % _NRAIN)
        if mode == _NORMAL or mode == _TUMBLE:
            f = ticks_diff(now_ms, self._t0) // TUMBLE_FRAME_MS if mode == _TUMBLE else 0
            held = self._held
            order = self._order
            for i in range(5):
                face = self._dice[i]
                if (held >> i) & 1:
                    k = _FULL + face
                elif mode == _TUMBLE:
                    # every die walks the same shuffled face sequence, out of phase
                    k = _FULL + _TUMBLE_SEQ[(f + i * 5) % 12]
                elif face:
                    k = _DIM + face
                else:
                    k = 0
                changed |= self._put(order[i], k)
            if self._n > 5:  # pixels not under a die: dark, or their key's colour
                keys = self._keys
                for j in range(self._n):
                    if not self._die[j]:
                        changed |= self._put(j, _KEYS + j if keys is not None else 0)
        if changed:
            self._show()
            self.frames += 1
            return True
        return False
