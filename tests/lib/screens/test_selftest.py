"""The self-test screen: what a builder runs first to check every part of the wiring."""
import sys

import pytest

from fivedice import app as A
from fivedice.screens import menu as M
from fivedice.screens import selftest as ST
from host_sim.device import SimDevice

from test_snapshots import check


@pytest.fixture
def dev():
    d = SimDevice(cpu_step_ms=60)
    yield d
    d.close()


def open_selftest(dev):
    app = dev.app
    while app.menu.items[app.menu.cursor] != M.I_TEST:
        dev.tap(A.B_UP)
    dev.tap(A.B_OK)
    assert app.mode == A.M_TEST


def lit(dev, x, y):
    return dev.board.display.get(x, y, shown=True)


def test_self_test_is_on_the_menu_and_starts_with_a_checkerboard_then_its_inverse(dev):
    open_selftest(dev)
    dev.step()
    first = [lit(dev, x, y) for x, y in ((0, 0), (8, 0), (0, 8), (8, 8), (127, 63), (119, 63))]
    assert first == [1, 0, 0, 1, 1, 0]  # 8x8 squares
    dev.run(ST.CHECKER_MS)
    second = [lit(dev, x, y) for x, y in ((0, 0), (8, 0), (0, 8), (8, 8), (127, 63), (119, 63))]
    assert second == [1 - v for v in first]  # every pixel has been both on and off
    dev.run(ST.CHECKER_MS)
    check("selftest_start", dev)


def test_each_button_lights_its_name_once_pressed(dev):
    open_selftest(dev)
    scr = dev.app.screen
    for b in (A.B_HOLD1, A.B_HOLD2, A.B_HOLD3, A.B_HOLD4, A.B_HOLD5, A.B_ROLL, A.B_UP, A.B_DOWN, A.B_OK):
        dev.tap(b)
        assert (scr.pressed >> b) & 1 and scr.last == b
        x = 2 + b * 25 if b < 5 else (1, 33, 53, 85, 105)[b - 5]  # the lower row spaced by the names' widths
        y = 10 + (b // 5) * 10
        assert lit(dev, x - 1, y - 1) == 1  # the name's cell is filled: lit
    assert dev.app.mode == A.M_TEST  # none of them leaves
    dev.tap(A.B_BACK)
    assert dev.app.mode == A.M_TEST
    check("selftest_all_pressed", dev)


def test_back_twice_in_a_row_leaves_and_unloads_the_screen(dev):
    open_selftest(dev)
    dev.tap(A.B_BACK)
    dev.tap(A.B_OK)  # not twice in a row
    dev.tap(A.B_BACK)
    assert dev.app.mode == A.M_TEST
    dev.tap(A.B_BACK)
    assert dev.app.mode == A.M_MENU
    assert "fivedice.screens.selftest" not in sys.modules


def test_the_shake_sensor_shows_each_shake(dev):
    open_selftest(dev)
    scr = dev.app.screen
    for n in (1, 2):
        dev.board.tilt.shake(800)
        dev.run(500)
        assert scr.shaking and scr.shakes == n
        dev.run(1500)
        assert not scr.shaking
    assert dev.app.session.game is None  # shaking in the self-test rolls nothing


def test_each_pixel_cycles_red_green_blue(dev):
    open_selftest(dev)
    px = dev.board.pixels
    dev.run(2 * ST.CHECKER_MS + 50)  # the pixels start cycling after the checkerboard
    seen = []
    for _ in range(5 * 3 + 1):
        dev.step()
        c = px.colors()
        on = [i for i in range(5) if c[i] != (0, 0, 0)]
        assert len(on) == 1  # one pixel at a time
        r, g, b = c[on[0]]
        colour = (r > 0) * 1 + (g > 0) * 2 + (b > 0) * 4
        assert colour in (1, 2, 4)  # pure red, green or blue
        seen.append((on[0], colour))
        dev.run(ST.PIXEL_MS)
    assert seen[:15] == [(i, c) for i in range(5) for c in (1, 2, 4)]
    assert seen[15] == (0, 1)  # and round again


def test_the_buzzer_plays_a_scale_even_with_sound_off_and_again_on_roll():
    dev = SimDevice(mute=True)
    open_selftest(dev)
    dev.run(2000)
    tones = [f for f, ms in dev.board.buzzer.tones if f]
    assert tones == list(ST.SCALE[0::2])
    dev.board.buzzer.tones.clear()
    dev.tap(A.B_ROLL)
    dev.run(2000)
    assert [f for f, ms in dev.board.buzzer.tones if f] == list(ST.SCALE[0::2])
    dev.tap(A.B_BACK)
    dev.tap(A.B_BACK)
    assert dev.app.settings.muted and dev.app.snd.mute  # sound stays off afterwards
    dev.close()


def test_leaving_gives_the_pixels_back_to_the_dice(dev):
    open_selftest(dev)
    dev.run(1000)
    dev.tap(A.B_BACK)
    dev.tap(A.B_BACK)
    dev.run(100)
    assert dev.board.pixels.colors() == [(0, 0, 0)] * 5  # no game: the dice view is dark


def test_the_self_tests_character_is_the_fonts():
    # selftest.py keeps the font's advance as a const of its own (no global on a board)
    from fivedice import font
    from fivedice.screens import selftest

    assert selftest._CH == font.ADVANCE
