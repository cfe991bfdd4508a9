"""NeoPixel dice view (runs on CPython and MicroPython over a fake pixel strip)."""
from fivedice import pixels_view
from fivedice.pixels_view import CELEBRATE_MS, PixelsView
from fivedice.ticks import TICKS_MAX


def rgb(c):
    return (c >> 16, (c >> 8) & 255, c & 255)


# the view's colours (0xRRGGBB) as the strip shows them
FACE_COLORS = [rgb(c) for c in pixels_view.FACE_COLORS]
RAINBOW = [rgb(c) for c in pixels_view.RAINBOW]


class Strip:
    """Pixel stand-in: px[i] = 0xRRGGBB and show(); remembers what was shown, as (r, g, b)."""

    def __init__(self, n):
        self.px = [(0, 0, 0)] * n
        self.shown = [(0, 0, 0)] * n
        self.shows = 0
        self.writes = 0

    def __setitem__(self, i, c):
        assert isinstance(c, int) and 0 <= c <= 0xFFFFFF, c  # an int colour: no tuple per colour
        self.px[i] = rgb(c)
        self.writes += 1

    def show(self):
        self.shows += 1
        self.shown = list(self.px)


def make(n=5, **kw):
    s = Strip(n)
    v = PixelsView(s, n, brightness=255, **kw)
    return s, v


def test_unrolled_dice_are_dark():
    s, v = make()
    v.set_dice(bytearray(5), 0)
    assert v.update(0)
    assert s.shown == [(0, 0, 0)] * 5


def test_each_face_has_its_own_colour():
    assert len(FACE_COLORS) == 7 and FACE_COLORS[0] == (0, 0, 0)
    seen = []
    for c in FACE_COLORS[1:]:
        assert c not in seen and max(c) == 255
        seen.append(c)


def test_held_dice_full_unheld_dim():
    s, v = make(dim=40)
    v.set_dice(bytearray([1, 2, 3, 4, 5]), 0b01010)  # dice 1 and 3 held
    v.update(0)
    assert s.shown[1] == FACE_COLORS[2]
    assert s.shown[3] == FACE_COLORS[4]
    assert s.shown[0] == (255 * 40 // 255, 0, 0)
    for i in (0, 2, 4):
        assert 0 < max(s.shown[i]) <= 40


def test_brightness_scales_every_colour():
    s, v = make()
    v.brightness = 128
    v.set_dice(bytearray([6, 6, 6, 6, 6]), 0b11111)
    v.update(0)
    assert s.shown[0] == (170 * 128 // 255, 0, 128)
    v.brightness = 0
    v.update(1)
    assert s.shown == [(0, 0, 0)] * 5


def test_unchanged_frame_is_not_sent_again():
    s, v = make()
    v.set_dice(bytearray([1, 1, 2, 2, 3]), 0)
    assert v.update(0)
    assert not v.update(10)
    assert s.shows == 1
    v.set_dice(bytearray([1, 1, 2, 2, 4]), 0)
    assert v.update(20)
    assert s.shows == 2 and s.writes == 6  # only the changed pixel was rewritten


def test_order_maps_dice_to_pixels_under_buttons():
    s, v = make(order=b"\x04\x03\x02\x01\x00")
    v.set_dice(bytearray([1, 0, 0, 0, 0]), 0b1)
    v.update(0)
    assert s.shown[4] == FACE_COLORS[1] and s.shown[0] == (0, 0, 0)


def test_tumbling_flickers_unheld_dice_only():
    s, v = make()
    v.set_dice(bytearray([2, 3, 4, 5, 6]), 0b00001)
    v.tumble(True, 1000)
    frames = []
    for t in range(1000, 1000 + 70 * 12, 70):
        v.update(t)
        frames.append(list(s.shown))
    for k in range(1, len(frames)):
        assert frames[k][0] == FACE_COLORS[2]  # held die steady
        for i in range(1, 5):
            assert frames[k][i] != frames[k - 1][i], (k, i)  # unheld change every frame
            assert frames[k][i] in FACE_COLORS[1:]
    # dice are out of step
    assert frames[3][1] != frames[3][2] or frames[3][2] != frames[3][3]
    v.tumble(False, 2000)
    v.update(2000)
    assert s.shown[1] == (255 * 40 // 255, 200 * 40 // 255, 0)  # back to a dim 3


def test_five_of_a_kind_celebration_then_back():
    s, v = make(n=8)
    v.set_dice(bytearray([4, 4, 4, 4, 4]), 0)
    v.update(0)
    assert s.shown[5:] == [(0, 0, 0)] * 3  # extra pixels dark
    v.celebrate(100)
    assert v.busy
    colours = []
    for t in range(100, 100 + CELEBRATE_MS, 60):
        v.update(t)
        for c in s.shown:
            if c not in colours:
                colours.append(c)
        assert all(c in RAINBOW for c in s.shown)
    assert len(colours) == len(RAINBOW)
    v.update(100 + CELEBRATE_MS)
    assert not v.busy
    assert s.shown[0] == (0, 255 * 40 // 255, 30 * 40 // 255)
    assert s.shown[5:] == [(0, 0, 0)] * 3


def test_celebration_across_tick_wrap():
    s, v = make()
    v.set_dice(bytearray([5, 5, 5, 5, 5]), 0)
    start = TICKS_MAX - 500
    v.celebrate(start)
    v.update((start + 1000) & TICKS_MAX)
    assert v.busy and s.shown[0] in RAINBOW
    v.update((start + CELEBRATE_MS) & TICKS_MAX)
    assert not v.busy


def test_tumble_does_not_cut_a_celebration_short():
    s, v = make()
    v.celebrate(0)
    v.tumble(True, 10)
    v.update(20)
    assert s.shown[0] in RAINBOW


def test_refresh_resends_everything():
    s, v = make()
    v.set_dice(bytearray([1, 2, 3, 4, 5]), 0)
    v.update(0)
    v.refresh()
    w = s.writes
    assert v.update(1)
    assert s.writes == w + 5


def test_too_few_pixels_refused():
    try:
        PixelsView(Strip(3), 3)
    except ValueError:
        return
    assert False


def test_a_board_s_own_face_colours_and_its_other_keys_lit_in_their_job_colours_until_dark():
    faces = (0x000000, 0x0000FF, 0x00BEFF, 0xFFFFFF, 0xFFAA00, 0xFF3200, 0xFF00C8)
    keys = [0] * 5 + [0xFFFFFF, 0x00FF00, 0]
    s, v = make(8, dim=51, faces=faces, keys=keys)
    v.set_dice(bytearray([3, 1, 2, 6, 5]), 0b00001)
    v.update(0)
    assert s.shown[:5] == [(255, 255, 255), (0, 0, 51), (0, 38, 51), (51, 0, 40), (51, 10, 0)]  # die 1 held
    assert s.shown[5:] == [(51, 51, 51), (0, 51, 0), (0, 0, 0)]  # the keys at the dim share, an unused one dark
    v.dark()
    assert s.shown == [(0, 0, 0)] * 8
    v.refresh()
    v.update(10)
    assert s.shown[5] == (51, 51, 51)
