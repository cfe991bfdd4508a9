"""Screen text is bytes: drawing a str allocates on MicroPython (a 1-char str per char that is not
interned), so a frame that draws str would allocate depending on which names happen to be loaded."""
from fivedice import oled_view as view
from fivedice import rules
from fivedice.screens import help as help_screen
from fivedice.screens import over, turn
from fivedice.help_pages import HELP


def _all_bytes(x):
    if isinstance(x, tuple):
        for y in x:
            if not _all_bytes(y):
                return False
        return True
    return isinstance(x, bytes)


def test_every_label_message_and_help_line_is_bytes():
    for table in (view.LONG, view.SHORT, view.SHORT_TITLES, view.FIVE_NAMES, view.MESSAGES, over.ORDINALS, over.LEVELS, view.SEATS, HELP, turn.KEYS):
        assert _all_bytes(table)


def test_labels_fit_their_columns():
    for labels in view.LONG:
        for s in labels:
            assert len(s) <= 16, s
    for labels in view.SHORT:
        for s in labels:
            assert len(s) <= 6, s
    for title, page in HELP:
        for s in [title] + page.split(b"\n"):
            assert len(s) <= 21, s
    for s in view.MESSAGES:
        assert len(s) <= 21, s


def test_short_labels_follow_one_rule_the_whole_name_when_it_fits_in_six():
    # "Threes" beside "Fours", never "Thrs"; "YACHT" is "Yacht" on the card as "Chance" is; only names
    # of seven characters or more are cut, to five
    for rs in rules.ALL:
        for b in range(rs.n):
            short = view.SHORT[rs.index][b]
            name = view.LONG[rs.index][b].split(b" (")[0]  # "High (22+)": the name is "High"
            if len(name) <= 6:
                assert short == name[:1] + name[1:].lower(), (name, short)  # title case
            else:
                assert len(short) == 5, (name, short)


def _names_box(line, label):
    """True when `label` stands in `line` as a whole (no letter glued to either end), any case."""
    line = line.lower()
    i = line.find(label)
    while i >= 0:
        end = i + len(label)
        if (i == 0 or not line[i - 1].isalpha()) and (end == len(line) or not line[end].isalpha()):
            return True
        i = line.find(label, i + 1)
    return False


def test_how_to_score_names_every_box_of_every_rule_set():
    from fivedice import rules

    for rs in rules.ALL:
        lines = [ln.decode() for ln in HELP[rs.index][1].split(b"\n")]
        for b in range(rs.n):
            label = view.LONG[rs.index][b].decode().split(" (")[0].lower()  # "High (22+)": "high"
            assert any(_names_box(ln, label) for ln in lines), (rs.id, label)


def test_help_text_loads_with_the_help_screen_and_is_dropped_after():
    import sys

    import fivedice.screens as S
    from fivedice import lazy

    names = S.parts(S.SCREENS.split("\n")[S.M_HELP].split())
    assert names == "fivedice.screens.help fivedice.help_pages"  # from its registry line
    lazy.forget(names)
    assert "fivedice.screens.help" not in sys.modules and "fivedice.help_pages" not in sys.modules
    screen = S.build(S.M_HELP)
    assert sys.modules["fivedice.screens.help"].lines(0)[0] == HELP[0][0]
    assert "fivedice.help_pages" in sys.modules
    S.left(screen, S.M_HELP)  # as the App does when it is left
    assert "fivedice.screens.help" not in sys.modules and "fivedice.help_pages" not in sys.modules
    assert not hasattr(S, "help")  # the package let go of it too
    screen = S.build(S.M_HELP)  # loads again
    assert sys.modules["fivedice.screens.help"].lines(3) == HELP[3]
    S.left(screen, S.M_HELP)


def test_help_lines_end_without_stray_characters():
    for lines in HELP:
        for s in lines:
            assert not s.endswith(b",b"), s


def test_a_keep_names_its_dice_faces_lowest_first_each_as_often_as_it_is_kept():
    from fakefb import FakeFB
    from fivedice import gfx
    from fivedice.game import KEEP

    dice = bytearray(b"\x05\x03\x05\x01\x06")
    for mask, says in ((0b10111, b"keep 3 5 5 6"), (0b00101, b"keep 5 5"), (0b11111, b"keep 1 3 5 5 6"),
                       (0b01000, b"keep 1"), (0, b"roll all")):
        got = FakeFB()
        end = view.choice(got, rules.YAHTZEE, KEEP, mask, dice, 1, 20, 1)
        want = FakeFB()
        assert end == gfx.text(want, says, 1, 20, 1) and got.buf == want.buf, says


def test_a_value_in_tenths_reads_rounded_to_a_tenth_left_or_right_aligned():
    from fakefb import FakeFB
    from fivedice import gfx

    for x100, says in ((21344, b"213.4"), (21345, b"213.5"), (5, b"0.1"), (4, b"0.0"), (0, b"0.0"),
                       (-420, b"-4.2"), (-4, b"-0.0"), (157500, b"1575.0"), (99996, b"1000.0")):
        got = FakeFB()
        end = view.tenths(got, x100, 3, 20, 1)
        want = FakeFB()
        assert end == gfx.text(want, says, 3, 20, 1) and got.buf == want.buf, says
        assert view.tenths_width(x100) == gfx.text_width(says), says
        for c in (1, 0):
            got = FakeFB()
            got.fill(1 - c)
            left = view.tenths_right(got, x100, 120, 40, c)
            want = FakeFB()
            want.fill(1 - c)
            assert left == gfx.text_right(want, says, 120, 40, c) and got.buf == want.buf, (says, c)

