"""gfx drawing: font, numbers, dice (runs on CPython and MicroPython over a fake framebuf)."""
from fakefb import FakeFB

from fivedice import gfx
from fivedice.font import FIRST, FONT, HEIGHT, LAST, WIDTH


def test_font_covers_printable_ascii_in_5x8():
    assert WIDTH == 5 and HEIGHT == 8 and FIRST == 32 and LAST == 126
    assert len(FONT) == (LAST - FIRST + 1) * WIDTH


def test_every_glyph_but_space_has_ink_and_stays_in_its_cell():
    for code in range(FIRST + 1, LAST + 1):
        fb = FakeFB(8, 8)
        assert gfx.glyph(fb, code, 0, 0, 1) == 6
        box = fb.bbox()
        assert box is not None, code
        assert box[2] <= 4, code  # never touches the gap column


def test_space_is_blank():
    fb = FakeFB(8, 8)
    gfx.text(fb, " ", 0, 0, 1)
    assert fb.count(1) == 0


def test_letter_a_reads_as_designed():
    fb = FakeFB(6, 8)
    gfx.text(fb, "A", 0, 0, 1)
    assert fb.rows(0, 0, 5, 8) == [
        ".###.",
        "#...#",
        "#...#",
        "#####",
        "#...#",
        "#...#",
        "#...#",
        ".....",
    ]


def test_descender_uses_the_bottom_row():
    fb = FakeFB(6, 8)
    gfx.text(fb, "g", 0, 0, 1)
    assert fb.bbox()[3] == 7
    fb = FakeFB(6, 8)
    gfx.text(fb, "H", 0, 0, 1)
    assert fb.bbox()[3] == 6


def test_glyphs_are_distinct():
    seen = {}
    for code in range(FIRST, LAST + 1):
        g = bytes(FONT[(code - FIRST) * 5 : (code - FIRST) * 5 + 5])
        assert g not in seen, (chr(code), seen.get(g))
        seen[g] = chr(code)


def test_text_returns_next_x_and_width_matches():
    fb = FakeFB()
    assert gfx.text(fb, "Roll 3", 4, 0, 1) == 4 + 6 * 6
    assert gfx.text_width("Roll 3") == 36
    assert gfx.text_width("ab", 2) == 24


def test_bytes_and_str_draw_the_same():
    a = FakeFB()
    b = FakeFB()
    gfx.text(a, "Full House 25", 1, 3, 1)
    gfx.text(b, b"Full House 25", 1, 3, 1)
    assert a.buf == b.buf


def test_unknown_char_draws_question_mark():
    a = FakeFB()
    b = FakeFB()
    gfx.text(a, "\x07", 0, 0, 1)
    gfx.text(b, "?", 0, 0, 1)
    assert a.buf == b.buf


def test_text_clips_at_the_edges():
    fb = FakeFB(20, 10)
    gfx.text(fb, "WWWWWW", 10, 5, 1)
    gfx.text(fb, "W", -3, -4, 1)
    assert fb.count(1) > 0


def test_scaled_text_doubles_the_glyph():
    fb = FakeFB(20, 20)
    gfx.text(fb, "I", 0, 0, 1, 2)
    assert fb.bbox() == (2, 0, 7, 13)


def test_inverted_text_on_a_bar():
    fb = FakeFB(40, 8)
    fb.fill_rect(0, 0, 40, 8, 1)
    gfx.text(fb, "OK", 1, 0, 0)
    assert fb.count(0) > 10


def test_number_draws_like_its_decimal_text():
    for n in (0, 7, 10, 42, 305, 1234, 99999, -15, -1000):
        a = FakeFB()
        b = FakeFB()
        end = gfx.number(a, n, 3, 2, 1)
        gfx.text(b, str(n), 3, 2, 1)
        assert a.buf == b.buf, n
        assert end == 3 + 6 * len(str(n)), n
        assert gfx.number_width(n) == 6 * len(str(n)), n


def test_number_right_aligns_on_the_right_edge():
    for n in (5, 63, 375, -2):
        a = FakeFB()
        b = FakeFB()
        left = gfx.number_right(a, n, 127, 0, 1)
        gfx.text(b, str(n), 127 - 6 * len(str(n)), 0, 1)
        assert a.buf == b.buf
        assert left == 127 - 6 * len(str(n))


def test_text_right_and_center():
    a = FakeFB()
    b = FakeFB()
    gfx.text_right(a, "Yahtzee", 128, 0, 1)
    gfx.text(b, "Yahtzee", 128 - 42, 0, 1)
    assert a.buf == b.buf
    assert gfx.text_center(FakeFB(), "abc", 64, 0, 1) == 64 - 8


def _pip_ink(face, size, held):
    fb = FakeFB(40, 40)
    gfx.die(fb, 5, 5, size, face, held)
    return fb


def test_die_shows_face_pips():
    for size in (12, 15, 16, 19, 20, 24):
        p = gfx._pip_geometry(size)
        area = p * p if p < 4 else p * p - 4  # big pips have rounded corners
        outline = 4 * size - 4 - 4  # box outline minus the 4 rounded corners
        for face in range(7):
            fb = _pip_ink(face, size, False)
            assert fb.count(1) == outline + face * area, (size, face)


def test_held_die_is_inverted():
    size = 16
    for face in range(1, 7):
        fb = _pip_ink(face, size, True)
        # solid die minus rounded corners, pips cut out
        assert fb.count(1) == size * size - 4 - face * 4, face
        assert fb.get(5, 5) == 0 and fb.get(6, 5) == 1


def test_die_pips_are_symmetric():
    for face in range(1, 7):
        fb = FakeFB(20, 20)
        gfx.die(fb, 0, 0, 20, face, False)
        for y in range(20):
            for x in range(20):
                # every die face is symmetric under a half turn
                assert fb.get(x, y) == fb.get(19 - x, 19 - y), (face, x, y)
    fb = FakeFB(20, 20)
    gfx.die(fb, 0, 0, 20, 6, False)
    for r in fb.rows(0, 0, 20, 20):
        for x in range(10):
            assert r[x] == r[19 - x]  # and under a mirror


def test_die_six_reads_as_two_columns_of_three():
    fb = FakeFB(16, 16)
    gfx.die(fb, 0, 0, 16, 6, False)
    rows = fb.rows(0, 0, 16, 16)
    assert rows[3] == "#..##......##..#"
    assert rows[7] == "#..##......##..#"
    assert rows[11] == "#..##......##..#"
    assert rows[5] == "#..............#"


def test_die_overwrites_its_whole_box():
    fb = FakeFB(30, 30)
    fb.fill(1)
    gfx.die(fb, 5, 5, 16, 1, False)
    fresh = FakeFB(30, 30)
    fresh.fill(1)
    fresh.fill_rect(5, 5, 16, 16, 0)
    gfx.die(fresh, 5, 5, 16, 1, False)
    assert fb.buf == fresh.buf


def test_blank_die_for_unrolled_face():
    fb = _pip_ink(0, 16, False)
    assert fb.get(12, 12) == 0  # centre of the die is empty


def test_tumbling_frames_stay_in_the_box_and_move():
    prev = None
    for frame in range(16):
        fb = FakeFB(40, 30)
        gfx.tumbling_die(fb, 10, 5, 18, frame)
        box = fb.bbox()
        assert box is not None
        assert box[0] >= 10 and box[1] >= 5 and box[2] <= 27 and box[3] <= 22, (frame, box)
        if prev is not None:
            assert fb.buf != prev, frame
        prev = fb.buf


def test_dice_row_tumbles_only_unheld_dice():
    dice = bytearray(b"\x01\x02\x03\x04\x05")
    held = 0b00101  # dice 0 and 2 held
    fb = FakeFB()
    end = gfx.dice_row(fb, dice, held, 2, 10, 20, 4, True, 3)
    assert end == 2 + 5 * 24
    for i in range(5):
        ref = FakeFB(20, 20)
        if (held >> i) & 1:
            gfx.die(ref, 0, 0, 20, dice[i], True)
        else:
            gfx.tumbling_die(ref, 0, 0, 20, 3 + i * 3)
        assert fb.rows(2 + i * 24, 10, 20, 20) == ref.rows(0, 0, 20, 20), i
