"""Self-test, for a builder checking the wiring: the OLED shows a checkerboard and its inverse, then
each button's name lights once it has been pressed, the shakes the sensor reports are counted, the
pixels light one by one in red, green and blue, and the buzzer plays a scale (again on ROLL). BACK
twice in a row leaves. Loaded only while open (App.show); dropped when left (its line in
fivedice.screens.SCREENS).
"""
from fivedice.compat import const
from fivedice import gfx
from fivedice import oled_view as view
from fivedice.screens import Screen, B_BACK, B_ROLL
from fivedice.ticks import ticks_add, ticks_diff

# C major, C4..C5
SCALE = (262, 150, 294, 150, 330, 150, 349, 150, 392, 150, 440, 150, 494, 150, 523, 300)
CHECKER_MS = const(1000)  # each of the two checkerboard frames
PIXEL_MS = const(400)  # each colour of each pixel
NAMES = (b"H1", b"H2", b"H3", b"H4", b"H5", b"ROLL", b"UP", b"DOWN", b"OK", b"BACK")
COLOR_NAMES = (b"red", b"green", b"blue")
_CELL = const(25)  # a hold button's cell: 5 across; the row below is spaced by the names' widths
_PHASE_BOARD = const(0)  # checkerboard
_PHASE_INVERSE = const(1)  # its inverse: every pixel has been both on and off
_PHASE_PANEL = const(2)
_SQUARE = const(8)  # the checkerboard's squares
_KEYS_Y = const(10)  # the buttons: two rows of _KEYS_DY, the hold buttons in cells from _KEYS_X
_KEYS_DY = const(10)
_KEYS_X = const(2)
_GAP = const(7)  # between ROLL UP DOWN OK BACK
_CH = const(6)  # one character's advance (fivedice.font.ADVANCE)
_SHAKES_Y = const(32)
_PIXELS_Y = const(42)


class SelfTest(Screen):
    def __init__(self):
        self.pressed = 0  # bit b: button b was pressed since the test began
        self.last = -1  # the last button pressed
        self.back = False  # the last press was BACK: one more leaves
        self.shakes = 0  # shakes the sensor reported (each start)
        self.shaking = False
        self.phase = _PHASE_BOARD
        self.step = 0  # pixel step: pixel = step // 3, colour = step % 3
        self.next_at = 0  # when the checkerboard or the pixel moves on

    def enter(self, app):
        self.next_at = ticks_add(app.now, CHECKER_MS)
        if app.snd is not None:
            app.snd.mute = False  # the buzzer is under test even with sound off
            app.snd.play(SCALE, app.now)
        if app.px is not None:
            app.px.test(0, 0)

    def leave(self, app):
        if app.snd is not None:
            app.snd.stop()
            app.snd.mute = app.settings.muted
        if app.px is not None:
            app.px.test(-1, 0)
            app.px.refresh()

    def press(self, app, b):
        self.pressed |= 1 << b
        self.last = b
        if self.phase != _PHASE_PANEL:
            self.phase = _PHASE_PANEL  # any press skips the checkerboard
        if b == B_BACK:
            if self.back:
                app.back()
                return 0
            self.back = True
            return 0
        self.back = False
        if b == B_ROLL and app.snd is not None:
            app.snd.play(SCALE, app.now)
        return 0

    def shake(self, app, on):
        if on:
            self.shakes += 1
        self.shaking = on
        app.dirty = True
        return 0

    def tick(self, app, now):
        if ticks_diff(now, self.next_at) < 0:
            return
        if self.phase != _PHASE_PANEL:
            self.phase += 1
            self.next_at = ticks_add(now, CHECKER_MS if self.phase != _PHASE_PANEL else PIXEL_MS)
        else:
            self.next_at = ticks_add(now, PIXEL_MS)
            if app.px is not None:
                self.step = (self.step + 1) % (app.px.n * 3)
                app.px.test(self.step // 3, self.step % 3)
        app.dirty = True

    def wait_ms(self, app, now):
        return ticks_diff(self.next_at, now)  # the checkerboard's or the pixels' next step

    def draw(self, fb, app):
        if self.phase != _PHASE_PANEL:
            c = self.phase  # 8x8 squares; the second frame swaps them
            fb.fill(c)
            for y in range(0, view.H, _SQUARE):
                for x in range((y // _SQUARE) % 2 * _SQUARE, view.W, 2 * _SQUARE):
                    fb.fill_rect(x, y, _SQUARE, _SQUARE, 1 - c)
            return
        fb.fill(0)
        view.header(fb, b"Self-test")
        gfx.text_right(fb, b"ROLL: scale", view.W - 1, 0, 0)
        x = _KEYS_X
        for b in range(10):
            if b == 5:
                x = 1  # ROLL UP DOWN OK BACK: spaced by their widths, a 4-letter name fills a cell
            y = _KEYS_Y + (b // 5) * _KEYS_DY
            w = _CELL - 1 if b < 5 else len(NAMES[b]) * _CH + 1
            c = 1
            if (self.pressed >> b) & 1:
                fb.fill_rect(x - 1, y - 1, w, 9, 1)  # pressed: lit
                c = 0
            gfx.text(fb, NAMES[b], x, y, c)
            if b == self.last:
                fb.hline(x - 1, y + 8, w, 1)  # the last one pressed: underlined
            x += _CELL if b < 5 else w + _GAP
        x = gfx.text(fb, b"Shakes: ", 0, _SHAKES_Y, 1)
        x = gfx.number(fb, self.shakes, x, _SHAKES_Y, 1)
        if self.shaking:
            gfx.text(fb, b"  shaking", x, _SHAKES_Y, 1)
        if app.px is None:
            gfx.text(fb, b"Pixels: none", 0, _PIXELS_Y, 1)
        else:
            x = gfx.text(fb, b"Pixel ", 0, _PIXELS_Y, 1)
            x = gfx.number(fb, self.step // 3 + 1, x, _PIXELS_Y, 1)
            x = gfx.text(fb, b" ", x, _PIXELS_Y, 1)
            gfx.text(fb, COLOR_NAMES[self.step % 3], x, _PIXELS_Y, 1)
        gfx.text(fb, b"BACK again: exit" if self.back else b"BACK twice: exit", 0, view.KEYS_Y, 1)
