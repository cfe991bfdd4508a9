"""The scorecard's drawing shortcuts against what they stand for (fivedice.screens.card)."""
from fivedice import font, gfx
from fivedice.screens import card
from host_sim.hw import SimDisplay


def test_its_literals_are_the_fonts():
    assert card._CH == font.ADVANCE


def test_an_open_box_is_the_fonts_dash():
    """An open box's '-' is drawn as a rectangle (a text call costs four of it on CircuitPython): the very pixels
    of the font's '-'."""
    want = SimDisplay()
    gfx.text(want, b"-", 40, 16, 1)
    got = SimDisplay()
    got.fill_rect(40 + card._DASH_X, 16 + card._DASH_Y, card._DASH_W, 1, 1)
    assert got.buffer == want.buffer and any(got.buffer)
