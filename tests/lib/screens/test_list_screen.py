"""ListScreen, the base of the menu and both box pickers: the cursor goes round the list, the rows shown follow
it, only the rows that changed are drawn again, and a scroll bar shows where the rows sit in a longer list."""
from fivedice.screens import B_DOWN, B_OK, B_UP, ListScreen
from host_sim.hw import SimDisplay


class Lines(ListScreen):
    def __init__(self, n):
        self.n = n
        self.top = 0
        self.cursor = 0
        self.drawn = []  # (line, colour) per row() call

    def row(self, fb, app, i, y, c):
        self.drawn.append((i, c))


def panel():
    return SimDisplay()


def test_up_from_the_first_line_goes_to_the_last_and_the_rows_follow():
    s = Lines(10)
    assert s.move(B_UP) and s.cursor == 9 and s.top == 4  # the last six rows shown
    assert s.move(B_DOWN) and s.cursor == 0 and s.top == 0
    assert not s.move(B_OK) and s.cursor == 0  # another button is the screen's own


def test_a_cursor_move_draws_again_only_the_two_rows_it_changes():
    s = Lines(10)
    fb = panel()
    shown = [-1] * 6
    s.draw_rows(fb, None, shown)
    assert s.drawn == [(0, 0), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)]  # the cursor's row in paper
    s.drawn = []
    s.move(B_DOWN)
    s.draw_rows(fb, None, shown)
    assert s.drawn == [(0, 1), (1, 0)]
    s.drawn = []
    s.draw_rows(fb, None, shown)
    assert s.drawn == []  # nothing changed: nothing drawn


def test_the_cursor_row_is_a_bar_and_a_longer_list_has_a_scroll_bar():
    fb = panel()
    Lines(10).draw_rows(fb, None)
    assert all(fb.pixel(x, 9 + 3) for x in range(0, 126))  # row 0: the cursor's inverted bar
    assert all(fb.pixel(127, y) for y in range(9, 9 + 48))  # the bar's rail, beside every row
    short = panel()
    Lines(6).draw_rows(short, None)
    assert not any(short.pixel(127, y) for y in range(17, 9 + 48))  # all six lines shown: no rail
