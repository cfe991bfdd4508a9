"""Each screen's frame, snapshotted as half-block text (tests/lib/screens/snapshots/*.txt), driven through the buttons.

The snapshots were reviewed by eye (and as PNGs). After a deliberate change to a screen, regenerate them
with FIVEDICE_UPDATE_SNAPSHOTS=1 and review the diff.
"""
import os
import sys

import pytest

from fivedice import app as A
from fivedice.rng import Dice, ScriptedFaces, SeededBytes
from host_sim.device import SimDevice
from host_sim.play import Player
from host_sim.terminal import oled_lines

HERE = os.path.dirname(os.path.abspath(__file__))
SNAP = os.path.join(HERE, "snapshots")
UPDATE = os.environ.get("FIVEDICE_UPDATE_SNAPSHOTS") == "1"


def check(name, dev):
    dev.settle()
    text = "\n".join(oled_lines(dev.board.display, frame=False)) + "\n"
    path = os.path.join(SNAP, name + ".txt")
    if UPDATE:
        with open(path, "w") as f:
            f.write(text)
    with open(path) as f:
        assert text == f.read(), "screen %s changed (see %s)" % (name, path)


@pytest.fixture
def dev():
    faces = [3, 3, 3, 5, 5] + [2, 2, 2, 2, 2] * 20
    d = SimDevice(dice=ScriptedFaces(faces), cpu_step_ms=60)
    yield d
    d.close()


def test_title_menu_screen(dev):
    check("menu", dev)


def test_turn_screen_before_the_first_roll(dev):
    Player(dev).setup(0, 2, cpu_seats=(2,))
    check("turn_start", dev)


def test_turn_screen_with_held_dice(dev):
    pl = Player(dev)
    pl.setup(0, 2, cpu_seats=(2,))
    pl.do("roll")
    pl.do("hold 1 3")
    check("turn_held", dev)


def test_box_picker_lists_every_legal_box_with_its_points(dev):
    pl = Player(dev)
    pl.setup(0, 1)
    pl.do("roll")
    dev.tap(A.B_OK)
    assert dev.app.mode == A.M_PICK and dev.app.screen.n == 13
    check("picker", dev)


def test_box_picker_marks_boxes_forced_by_the_joker(dev):
    pl = Player(dev)
    pl.setup(0, 1)
    pl.do("roll")
    pl.do("score full_house")
    pl.do("roll")  # 2-2-2-2-2
    pl.do("score yahtzee")
    pl.do("roll")  # 2-2-2-2-2 again: forced into Twos
    dev.tap(A.B_OK)
    assert dev.app.screen.forced and dev.app.screen.n == 1
    check("picker_forced", dev)


def test_scorecard_screen(dev):
    pl = Player(dev)
    pl.setup(0, 2, cpu_seats=(2,))
    pl.do("roll")
    pl.do("score full_house")
    dev.settle()  # the CPU plays its turn
    dev.tap(A.B_DOWN)
    assert dev.app.mode == A.M_CARD
    check("scorecard", dev)


def test_game_over_screen_ranks_the_players():
    dev = SimDevice(dice=Dice(SeededBytes(11)), cpu_step_ms=20)
    app = dev.app
    app.settings.rules_i = 5  # Yacht, 12 boxes
    app.settings.players = 2
    app.settings.seats[0] = 1
    app.settings.seats[1] = 1
    app.session.new_game()
    for _ in range(40000):
        if app.session.game.over:
            break
        dev.step()
    assert app.mode == A.M_OVER
    check("game_over", dev)
    dev.close()


def test_help_screen_for_the_rule_set(dev):
    app = dev.app
    while app.menu.items[app.menu.cursor] != 9:  # "How to score"
        dev.tap(A.B_UP)
    dev.tap(A.B_OK)
    assert app.mode == A.M_HELP
    check("help_yahtzee", dev)


def test_help_screen_is_loaded_when_opened_and_dropped_when_closed(dev):
    import sys

    app = dev.app
    dev.tap(A.B_BACK)  # leave any screen first: the menu
    sys.modules.pop("fivedice.screens.help", None)
    while app.menu.items[app.menu.cursor] != 9:  # "How to score"
        dev.tap(A.B_UP)
    dev.tap(A.B_OK)
    assert "fivedice.screens.help" in sys.modules and "fivedice.help_pages" in sys.modules
    dev.tap(A.B_BACK)
    assert app.mode == A.M_MENU
    assert "fivedice.screens.help" not in sys.modules and "fivedice.help_pages" not in sys.modules


def test_start_up_loads_each_rarely_used_screen_once_and_lets_it_go_and_it_opens_as_before(dev, monkeypatch):
    """fivedice.screens.intern_rare, run by fdfw.start before the game's code: what the imports leave for good
    is made then, not at the first visit mid-game (docs/memory.md)."""
    import sys

    import fivedice.screens as S
    from fivedice import lazy

    let_go = []
    real_forget = lazy.forget

    def forget(names):
        let_go.append((names, [m for m in names.split() if m in sys.modules]))  # loaded when let go
        real_forget(names)

    monkeypatch.setattr(lazy, "forget", forget)
    S.intern_rare()
    assert let_go == [("fivedice.screens.help fivedice.help_pages", ["fivedice.screens.help", "fivedice.help_pages"]),
                      ("fivedice.screens.selftest", ["fivedice.screens.selftest"]),
                      ("fivedice.screens.records fivedice.records", ["fivedice.screens.records", "fivedice.records"]),
                      # its fivedice.records went with the records screen
                      ("fivedice.screens.initials fivedice.records", ["fivedice.screens.initials"]),
                      ("fivedice.screens.proftest fivedice.proftest",
                       ["fivedice.screens.proftest", "fivedice.proftest"])], let_go
    rare = ["fivedice.screens.help", "fivedice.screens.selftest", "fivedice.screens.initials",
            "fivedice.screens.records", "fivedice.records", "fivedice.screens.proftest", "fivedice.proftest"]
    assert [m for m in rare + ["fivedice.help_pages"] if m in sys.modules] == []
    app = dev.app
    dev.tap(A.B_BACK)
    while app.menu.items[app.menu.cursor] != 9:  # "How to score": the help opens as before
        dev.tap(A.B_UP)
    dev.tap(A.B_OK)
    assert app.mode == A.M_HELP and "fivedice.help_pages" in sys.modules


def test_menu_asks_again_before_a_new_game_replaces_the_one_in_progress(dev):
    pl = Player(dev)
    pl.setup(0, 2, cpu_seats=(2,))
    pl.do("roll")
    dev.tap(A.B_BACK)
    app = dev.app
    while app.menu.items[app.menu.cursor] != 1:  # "New game"
        dev.tap(A.B_DOWN)
    dev.tap(A.B_OK)
    assert app.menu.confirm and app.mode == A.M_MENU
    check("menu_confirm_new", dev)


def test_game_over_screen_says_what_the_coach_found_in_words():
    """A human who scores the first box offered after one roll, against the "good" CPU, on the Yacht table."""
    dev = SimDevice(dice=Dice(SeededBytes(8)), cpu_step_ms=20, tables=os.path.join(HERE, "..", "..", "data"))
    app = dev.app
    app.settings.rules_i = 5
    app.settings.players = 2
    app.settings.seats[0] = 0
    app.settings.seats[1] = 2
    app.session.new_game()
    for _ in range(40000):
        if app.session.game.over:
            break
        if app.session.cpu_turn():
            dev.step()
            continue
        dev.tap(A.B_ROLL)
        dev.settle()
        dev.tap(A.B_OK)
        app.screen.cursor = 0
        dev.tap(A.B_OK)
        dev.settle()
    assert app.mode == A.M_OVER and app.seats.prof[0].loss_x100() > 0
    check("game_over_coach", dev)
    dev.close()


def test_menu_scrolled_to_the_dim_and_sleep_settings(dev):
    app = dev.app
    from fivedice.screens import menu as M

    while app.menu.items[app.menu.cursor] != M.I_SLEEP:
        dev.tap(A.B_DOWN)
    dev.tap(A.B_OK)  # Sleep 3m -> 10m
    check("menu_power", dev)


def test_a_new_screen_is_a_class_and_one_registry_line(monkeypatch, tmp_path):
    """fivedice.screens.SCREENS is the one place a screen is named: a module with a Screen subclass and one line
    there, and the app enters it, routes its presses, draws it and leaves it; it starts at its top each time."""
    from fivedice import screens as S

    (tmp_path / "extra.py").write_text(
        "from fivedice import gfx\n"
        "from fivedice.screens import Screen, B_BACK, B_DOWN, M_MENU\n"
        "class Extra(Screen):\n"
        "    rows = 2\n"
        "    def enter(self, app):\n"
        "        self.n = 5\n"
        "    def press(self, app, b):\n"
        "        if b == B_DOWN:\n"
        "            self.cursor = (self.cursor + 1) % self.n\n"
        "            self.scroll()\n"
        "        elif b == B_BACK:\n"
        "            app.enter(M_MENU)\n"
        "        return 0\n"
        "    def draw(self, fb, app):\n"
        "        fb.fill(0)\n"
        "        gfx.text(fb, b'extra', 0, 0, 1)\n")
    monkeypatch.setattr(S, "__path__", list(S.__path__) + [str(tmp_path)])  # a module of fivedice.screens
    monkeypatch.setattr(S, "SCREENS", S.SCREENS + "extra Extra\n")
    monkeypatch.delitem(sys.modules, "fivedice.screens.extra", raising=False)
    dev = SimDevice()
    app = dev.app
    try:
        mode = S.SCREENS.count("\n") - 1
        app.enter(mode)
        assert type(app.screen).__name__ == "Extra" and app.mode == mode
        for _ in range(3):
            dev.tap(A.B_DOWN)
        assert (app.screen.cursor, app.screen.top) == (3, 2)  # the screen's own cursor, its rows following it
        dev.settle()
        dev.tap(A.B_BACK)
        assert app.mode == A.M_MENU
        app.enter(mode)
        assert (app.screen.cursor, app.screen.top) == (0, 0)
    finally:
        dev.close()


def test_back_returns_to_the_screen_a_screen_was_shown_over():
    """show() opens a screen over the current one and back() returns to it: the card over the dice or over game
    over, the picker over the dice, help over the menu; enter() replaces every screen open, and back() with
    nothing under goes to the menu."""
    app = A.App(None, dice=Dice(SeededBytes(4)))
    app.show(A.M_HELP)
    app.back()
    assert app.mode == A.M_MENU
    app.session.new_game()
    app.show(A.M_CARD)
    assert app.mode == A.M_CARD
    app.press(A.B_OK, 0)
    assert app.mode == A.M_TURN
    app.session.start_roll(0)
    app.session.land()
    app.press(A.B_OK, 0)  # the picker
    assert app.mode == A.M_PICK
    app.press(A.B_BACK, 0)
    assert app.mode == A.M_TURN
    app.show(A.M_CARD)
    app.enter(A.M_OVER)  # (as the last box scored does)
    app.show(A.M_CARD)
    app.press(A.B_BACK, 0)
    assert app.mode == A.M_OVER
    app.back()
    assert app.mode == A.M_MENU


def test_the_menu_shows_a_scroll_bar_that_follows_the_cursor(dev):
    """12 and more lines, 6 shown: a scroll bar at the right edge, as the picker's (issue 37)."""
    app = dev.app
    assert app.mode == A.M_MENU and app.screen.n > app.screen.rows
    disp = dev.board.display

    def column(x):
        dev.settle()
        return [disp.pixel(x, y) for y in range(10, 58)]

    assert all(column(127))  # the bar's rail over every row shown
    thumb_top = column(126).index(1)
    assert thumb_top == 0  # at the top of the list
    for _ in range(app.screen.n - 1):
        dev.tap(A.B_DOWN)
    assert app.screen.top > 0
    col = column(126)
    assert col[0] == 0 and col[-1] == 1  # the thumb moved to the bottom
