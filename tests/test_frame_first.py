"""Issue 24 part 2: a press is answered first. In the loop pass that handles a press, the frame showing it is
drawn before any coach slice, sound step or save; a save never shares a pass with a frame or a slice. The
board's own loop (firmware/fdfw/loop.py) runs the app; a display, store, buzzer and coach that log each call
give the order. Order, not time: nothing here reads a clock."""
import os
import sys

from fivedice import app as A
from fivedice import rules
from fivedice.rng import Dice, SeededBytes
from host_sim.hw import SimDisplay

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware"))
from fdfw import loop  # noqa: E402  (the board's loop: plain Python over fivedice.ticks)

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "core", "data")  # holds a complete yacht.fdt
YACHT = rules.get("yacht")


class LogDisplay(SimDisplay):
    def __init__(self, log):
        super().__init__()
        self.log = log

    def show(self):
        super().show()
        self.log.append("frame")


class LogStore:
    def __init__(self, log):
        self.log = log
        self.data = None

    def read(self):
        return self.data

    def write(self, data):
        self.data = bytes(data)
        self.log.append("save")

    def set_aside(self):
        self.data = None


class LogBuzzer:
    """A buzzer (fivedice.sounds.Sounder's protocol: tone(freq, ms), off()) whose calls are logged."""

    def __init__(self, log):
        self.log = log

    def tone(self, freq, ms):
        self.log.append("sound")

    def off(self):
        self.log.append("sound")


class Buttons:
    """fdfw.loop's buttons: poll() gives the mask queued for the next pass."""

    def __init__(self):
        self.queue = []

    def poll(self):
        return self.queue.pop(0) if self.queue else 0

    def down(self):
        return 0

    def wait_ms(self):
        return 0


def rig():
    log = []
    app = A.App(LogDisplay(log), buzzer=LogBuzzer(log), store=LogStore(log), dice=Dice(SeededBytes(3)),
                tables=DATA, cpu_step_ms=20)
    app.settings.rules_i = YACHT.index
    app.settings.players = 1
    app.settings.seats[0] = 0
    real = app.tick
    clock = [0]

    def ticks_ms():
        clock[0] += 5
        return clock[0]

    def tick(now):
        log.append("pass")
        return real(now)

    app.tick = tick
    return app, Buttons(), ticks_ms, log


def log_slices(c, log):
    real = c.work

    def work(card):
        log.append("slice")
        return real(card)

    c.work = work


def passes(log):
    """The log cut into loop passes (each starts at its tick)."""
    out = []
    for e in log:
        if e == "pass":
            out.append([])
        elif out:
            out[-1].append(e)
    return out


def run(app, buttons, ticks_ms, n):
    """n passes of the board's main loop (fdfw.loop.Loop), the first frame drawn first as Loop.run does."""
    lp = loop.Loop(app, buttons, None, ticks_ms)
    app.draw()
    for _ in range(n):
        lp.step()


def test_new_game_draws_its_first_frame_before_the_first_slice_and_the_save():
    app, buttons, ticks_ms, log = rig()
    run(app, buttons, ticks_ms, 2)  # the menu
    app.enter(A.M_MENU)
    app.screen.cursor = 0  # "New game"
    buttons.queue.append(1 << A.B_OK)
    del log[:]
    real_new_game = app.new_game

    def new_game():
        real_new_game()
        log_slices(app.seats.coach, log)

    app.new_game = new_game
    run(app, buttons, ticks_ms, 12)
    p = passes(log)
    assert p[0] == ["frame"]  # the press's pass: the new game's first frame, nothing else
    assert p[1] == ["save"]  # the game saved in the next pass, before the solve starts
    assert p[2] == ["slice"] and app.mode == A.M_TURN
    assert all(len(e) <= 1 for e in p)  # no pass does two of: frame, slice, save


def test_a_hold_shows_before_the_pending_slice_and_its_sound():
    app, buttons, ticks_ms, log = rig()
    app.new_game()
    log_slices(app.seats.coach, log)
    run(app, buttons, ticks_ms, 3)  # the first frame, the save, a slice: the solve still going
    assert app.thinking
    buttons.queue.append(1 << A.B_ROLL)
    run(app, buttons, ticks_ms, 200)  # the roll lands, the solve finishes
    assert not app.thinking and not app.tumbling
    del log[:]
    buttons.queue.append(1 << A.B_HOLD2)
    run(app, buttons, ticks_ms, 3)
    p = passes(log)
    assert p[0] == ["frame"]  # the held die shown first
    assert "sound" in p[1]  # the hold's click is the next pass's step
    assert app.game.held == 0b10


def test_a_press_during_the_solve_is_drawn_in_its_own_pass_and_the_slice_comes_next():
    app, buttons, ticks_ms, log = rig()
    app.new_game()
    log_slices(app.seats.coach, log)
    run(app, buttons, ticks_ms, 3)
    assert app.thinking
    del log[:]
    buttons.queue.append(1 << A.B_ROLL)
    run(app, buttons, ticks_ms, 2)
    p = passes(log)
    assert p[0] == ["frame"]  # the tumble starts on screen; the solve waits a pass
    assert p[1][0] == "slice"


def test_scoring_shows_the_next_turn_before_the_game_is_saved():
    app, buttons, ticks_ms, log = rig()
    app.new_game()
    buttons.queue.append(1 << A.B_ROLL)
    run(app, buttons, ticks_ms, 200)
    buttons.queue.append(1 << A.B_OK)  # the picker
    run(app, buttons, ticks_ms, 2)
    assert app.mode == A.M_PICK
    del log[:]
    buttons.queue.append(1 << A.B_OK)  # score the box under the cursor
    run(app, buttons, ticks_ms, 3)
    p = passes(log)
    assert p[0] == ["frame"] and app.game.turn == 1
    assert "save" in p[1] and "frame" not in p[1]
    assert app.store.data is not None and app.store.data == app.save_bytes()


def test_a_driver_that_ticks_without_drawing_still_gets_the_work_done():
    """tick holds the slow work back for one pass at most: a caller that never draws (a test, a bench) is not
    starved of slices and saves."""
    app, buttons, ticks_ms, log = rig()
    app.new_game()
    log_slices(app.seats.coach, log)
    t = 0
    for _ in range(400):  # the coach's final-roll groups and the turn solve, a slice every other pass at worst
        app.tick(t)  # never drawn: app.dirty stays set
        t += 5
    assert not app.thinking and "save" in log
