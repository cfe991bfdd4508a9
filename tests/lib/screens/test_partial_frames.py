"""The turn screen draws again only the parts whose content changed (a hold: one die). Whatever
the game does (rolls, holds, shakes, hints, refusals, the CPU's turns, the card and the menu in between), every
frame it leaves on the panel is the one the screen drawn whole on a blank panel gives."""
import os

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fivedice import app as A
from fivedice import oled_view as view
from fivedice import rules
from fivedice.rng import Dice, SeededBytes
from fivedice.screens.turn import Turn
from host_sim.hw import SimDisplay

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "data")  # holds a complete yacht.fdt
YACHT = rules.get("yacht")
PARTIAL = (A.M_TURN, A.M_PICK)  # the screens drawn in parts
BUTTONS = (A.B_HOLD1, A.B_HOLD1 + 1, A.B_HOLD1 + 2, A.B_HOLD1 + 3, A.B_HOLD5, A.B_ROLL, A.B_ROLL, A.B_ROLL, A.B_UP,
           A.B_UP, A.B_OK, A.B_OK, A.B_DOWN, A.B_DOWN, A.B_UP, A.B_BACK)


def whole(app):
    """The current screen drawn whole on a blank panel: the turn screen by a Turn that has drawn nothing yet,
    another screen by itself, told the panel is new."""
    fb = SimDisplay()
    if app.mode == A.M_TURN:
        s = Turn()
        s.enter(app)
    else:
        s = app.screen
        s.whole = True
    s.draw(fb, app)
    return bytes(fb.buffer)


def new_app(seed, cpu):
    app = A.App(SimDisplay(), dice=Dice(SeededBytes(seed)), tables=DATA, cpu_step_ms=30)
    app.settings.rules_i = YACHT.index
    app.settings.players = 2 if cpu else 1
    app.settings.seats[0] = 0
    app.settings.seats[1] = cpu
    app.session.new_game()
    return app


def play(app, events):
    """Each event: a button (or -1: a shake, -2: its end) and the ms until the next; every frame is checked."""
    now = 0
    checked = 0
    for b, gap in events:
        if b >= 0:
            app.press(b, now)
        else:
            app.shake(b == -1, now)
        end = now + gap
        while now <= end:
            if app.tick(now):
                app.draw()
                if app.mode in PARTIAL:
                    assert bytes(app.fb.buffer) == whole(app), "the frame drawn in parts is not the whole one"
                    checked += 1
            now += 10
        if app.mode == A.M_MENU and app.session.in_game():
            app.press(A.B_OK, now)  # back into the game (the menu's first line resumes it)
    return checked


EVENTS = st.lists(st.tuples(st.sampled_from(BUTTONS + (-1, -2)), st.sampled_from((0, 10, 40, 120, 400, 1500))),
                  min_size=20, max_size=160)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 10 ** 6), st.sampled_from((0, 2, 3)), EVENTS)
@example(1, 0, [(A.B_DOWN, 0)] + [(A.B_HOLD1, 0)] * 19)  # the card opened at once: only the first roll is checked
def test_every_frame_drawn_in_parts_is_the_whole_frame(seed, cpu, events):
    """The game starts with a roll, so some frame is drawn in parts whatever the events do after it."""
    app = new_app(seed, cpu)
    assert play(app, [(A.B_ROLL, 1500)] + events) > 0


def test_a_hold_draws_only_that_die_and_a_hint_all_but_the_dice():
    """What a press redraws, counted in the display's calls: a hold one die; the same frame again nothing."""
    app = new_app(5, 0)
    play(app, [(A.B_ROLL, 1500)])
    fb = app.fb
    calls = []
    real = fb.fill_rect

    def fill_rect(x, y, w, h, c):
        calls.append((x, y, w, h))
        real(x, y, w, h, c)

    fb.fill_rect = fill_rect
    app.press(A.B_HOLD1 + 2, 2000)
    assert app.tick(2000)
    app.draw()
    x0 = view.DICE_X + 2 * (view.DIE + view.DIE_GAP)  # the third die's box
    assert calls and all(x0 <= x and x + w <= x0 + view.DIE and view.DICE_Y <= y and y + h <= view.DICE_Y + view.DIE
                         for x, y, w, h in calls)
    del calls[:]
    app.draw()
    assert calls == []
    app.press(A.B_UP, 2010)  # the hint: the screen but the dice
    assert app.tick(2010)
    app.draw()
    assert calls and all(y + h <= view.DICE_Y or y >= view.DICE_Y + view.DIE for x, y, w, h in calls)
    assert bytes(fb.buffer) == whole(app)


def test_the_message_line_follows_every_state_it_shows():
    """The message line's states in turn: the five-of-a-kind cheer, a toast over it, the cheer again when the
    toast is gone, nothing; each frame is the whole one (the cheer is too rare for the random games above)."""
    app = new_app(9, 0)
    play(app, [(A.B_ROLL, 1500)])
    for five, toast in ((True, 0), (True, A._msg.T_BATTERY_LOW), (True, 0), (False, 0)):
        app.session.five = five
        app.toast = 0
        if toast:
            app.message(toast)  # shown from now for its time
        app.dirty = True
        assert app.tick(2000)
        app.draw()
        assert bytes(app.fb.buffer) == whole(app)
