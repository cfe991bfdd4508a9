"""A press is answered first. In the loop pass that handles a press, the frame showing it is
drawn before any coach slice, sound step or save; a save never shares a pass with a frame or a slice, and the
heap is collected in a pass of its own before it. The
board's own loop (firmware/fdfw/loop.py) runs the app; a display, store, buzzer and coach that log each call
give the order. Order, not time: nothing here reads a clock."""
import os
import sys

import pytest

from fivedice import app as A
from fivedice import rules
from fivedice import session
from fivedice.rng import Dice, SeededBytes
from host_sim.hw import SimDisplay

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "firmware"))
from fdfw import loop  # noqa: E402  (the board's loop: plain Python over fivedice.ticks)

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")  # holds a complete yacht.fdt
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


_COLLECTS = [[]]  # where the session's collection (compat.collect: nothing on CPython) is logged


@pytest.fixture(autouse=True)
def _logged_collection(monkeypatch):
    monkeypatch.setattr(session, "collect", lambda: _COLLECTS[0].append("collect"))


def rig():
    log = []
    _COLLECTS[0] = log
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
    """Log each call of c.work that did a slice (not the check of a hint or a valuation that finds the turn
    solved)."""
    real = c.work

    def work(card):
        before = c._phase
        done = real(card)
        if not done or c._phase != before:
            log.append("slice")
        return done

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
    real_new_game = app.session.new_game

    def new_game():
        real_new_game()
        log_slices(app.seats.coach, log)

    app.session.new_game = new_game
    run(app, buttons, ticks_ms, 12)
    p = passes(log)
    assert p[0] == ["frame"]  # the press's pass: the new game's first frame, nothing else
    assert p[1] == ["collect"]  # the heap collected in a pass of its own
    assert p[2] == ["save"]  # then the game saved, before the solve starts
    assert p[3] == ["slice"] and app.mode == A.M_TURN
    assert all(len(e) <= 1 for e in p)  # no pass does two of: frame, slice, collection, save


def test_a_hold_shows_before_the_pending_slice_and_its_sound():
    app, buttons, ticks_ms, log = rig()
    app.session.new_game()
    log_slices(app.seats.coach, log)
    run(app, buttons, ticks_ms, 3)  # the first frame, the save, a slice: the solve still going
    assert app.session.thinking
    buttons.queue.append(1 << A.B_ROLL)
    run(app, buttons, ticks_ms, 800)  # the roll lands, the solve finishes
    assert not app.session.thinking and not app.session.tumbling
    del log[:]
    buttons.queue.append(1 << A.B_HOLD2)
    run(app, buttons, ticks_ms, 3)
    p = passes(log)
    assert p[0] == ["frame"]  # the held die shown first
    assert "sound" in p[1]  # the hold's click is the next pass's step
    assert app.session.game.held == 0b10


def test_a_press_during_the_solve_is_drawn_in_its_own_pass_and_the_slice_comes_next():
    app, buttons, ticks_ms, log = rig()
    app.session.new_game()
    log_slices(app.seats.coach, log)
    run(app, buttons, ticks_ms, 3)
    assert app.session.thinking
    del log[:]
    buttons.queue.append(1 << A.B_ROLL)
    run(app, buttons, ticks_ms, 2)
    p = passes(log)
    assert p[0] == ["frame"]  # the tumble starts on screen; the solve waits a pass
    assert p[1][0] == "slice"


def test_scoring_shows_the_next_turn_before_the_game_is_saved():
    app, buttons, ticks_ms, log = rig()
    app.session.new_game()
    buttons.queue.append(1 << A.B_ROLL)
    run(app, buttons, ticks_ms, 200)
    buttons.queue.append(1 << A.B_OK)  # the picker
    run(app, buttons, ticks_ms, 2)
    assert app.mode == A.M_PICK
    del log[:]
    buttons.queue.append(1 << A.B_OK)  # score the box under the cursor
    run(app, buttons, ticks_ms, 4)
    p = passes(log)
    assert p[0] == ["frame"] and app.session.game.turn == 1
    assert "collect" in p[1] and "save" in p[2] and "frame" not in p[1] + p[2]
    assert app.store.data is not None and app.store.data == app.session.save_bytes()


def test_a_driver_that_ticks_without_drawing_still_gets_the_work_done():
    """tick holds the slow work back for one pass at most: a caller that never draws (a test, a bench) is not
    starved of slices and saves."""
    app, buttons, ticks_ms, log = rig()
    app.session.new_game()
    log_slices(app.seats.coach, log)
    t = 0
    for _ in range(1200):  # the coach's final-roll groups and the turn solve, a slice every other pass at worst
        app.tick(t)  # never drawn: app.dirty stays set
        t += 5
    assert not app.session.thinking and "save" in log


class LogCompactingStore(LogStore):
    """A log store (the CircuitPython nvm log's protocol): compact_due() / compact() are logged."""

    def compact_due(self):
        return True

    def compact(self):
        self.log.append("rewrite")


def test_new_game_draws_first_then_the_store_rewrites_then_the_game_is_saved_each_in_its_own_pass():
    app, buttons, ticks_ms, log = rig()
    app.store = app.session.store = LogCompactingStore(log)
    run(app, buttons, ticks_ms, 2)
    app.enter(A.M_MENU)
    app.screen.cursor = 0  # "New game"
    buttons.queue.append(1 << A.B_OK)
    del log[:]
    run(app, buttons, ticks_ms, 12)
    p = passes(log)
    assert p[0] == ["frame"] and app.mode == A.M_TURN  # the press's pass: the new game on screen, nothing else
    # the sector rewrite (a flash erase) alone in its pass, before the game's save; a collection before each
    assert p[1:5] == [["collect"], ["rewrite"], ["collect"], ["save"]]
    assert app.store.data == app.session.save_bytes()
    assert all(len(e) <= 1 for e in p)


def test_a_pass_draws_a_frame_or_works_never_both_through_a_whole_game_against_the_cpu():
    """A CPU move, a slice, a save: what they change is drawn in the next pass, so a pass holds one of them or
    a frame (each fits a 50 ms pass on a Pico; together they would not)."""
    app, _, ticks_ms, log = rig()
    app.settings.players = 2
    app.settings.seats[1] = 3  # CPU perfect: its moves change the screen from inside the slow-work pass
    app.session.new_game()
    log_slices(app.seats.coach, log)
    real_step = app.session._cpu_step

    def cpu_step():
        log.append("cpu")
        real_step()

    app.session._cpu_step = cpu_step

    class Player(Buttons):
        """The human: rolls once, then scores the first box the picker offers."""

        def poll(self):
            if app.session.game.over or app.session.cpu_turn() or app.session.thinking or app.session.tumbling:
                return 0
            if app.mode == A.M_TURN:
                return 1 << (A.B_ROLL if app.session.game.rolls == 0 else A.B_OK)
            if app.mode == A.M_PICK:
                app.screen.cursor = 0
                return 1 << A.B_OK
            return 0

    lp = loop.Loop(app, Player(), None, ticks_ms)
    app.draw()
    for _ in range(20000):
        lp.step()
        if app.session.game.over:
            break
    p = passes(log)
    assert app.session.game.over and "cpu" in log and "slice" in log and "save" in log
    for e in p:
        work = [x for x in e if x in ("slice", "save", "cpu", "rewrite", "collect")]
        assert len(work) <= 1 and not (work and "frame" in e), e


def test_a_power_cut_at_any_pass_after_new_game_resumes_the_finished_game_or_the_new_one():
    """On CircuitPython's nvm log: "New game" draws its frame, the log is rewritten in the next pass and the new
    game saved two passes later (each write after a pass that collects the heap); cut the power after any of
    them and the board resumes the game just finished (nothing of it lost) until the new game's save, then the
    new game."""
    from fdfw.store.nvm_cp import NvmStore

    nvm = bytearray(b"\xff" * 4096)
    store = NvmStore(nvm)
    store.compact_due = lambda room=None: True  # the log is due its rewrite at this "New game"
    app = A.App(LogDisplay([]), store=store, dice=Dice(SeededBytes(3)), cpu_step_ms=20)
    app.settings.rules_i = YACHT.index
    app.settings.players = 1
    app.settings.seats[0] = 0
    app.session.new_game()
    g = app.session.game
    while not g.over:  # a whole game, each box saved
        g.roll()
        lg = g.legal()
        app.session.score((lg & -lg).bit_length() - 1)
        app.session.flush_save()
    finished = app.session.save_bytes()
    r0 = store.rewrites
    assert store.read() == finished
    app.enter(A.M_MENU)
    app.screen.cursor = 0  # "New game"
    buttons = Buttons()
    buttons.queue.append(1 << A.B_OK)
    cuts = []
    clock = [0]

    def ticks_ms():
        clock[0] += 5
        return clock[0]

    lp = loop.Loop(app, buttons, None, ticks_ms)
    app.draw()
    for _ in range(5):  # a cut after each of five passes
        lp.step()
        cuts.append((bytes(nvm), store.rewrites, app.mode))
    # frame, collection, rewrite, collection, save
    assert [r - r0 for _, r, _ in cuts] == [0, 0, 1, 1, 1] and all(m == A.M_TURN for _, _, m in cuts)
    for k, (image, _, _) in enumerate(cuts):
        booted = A.App(LogDisplay([]), store=NvmStore(bytearray(image)), dice=Dice(SeededBytes(4)))
        if k < 4:
            assert booted.session.game.over and booted.session.save_bytes() == finished  # the finished game, whole
        else:
            assert not booted.session.game.over and booted.session.game.turn == 0 and booted.session.save_bytes() == app.session.save_bytes()


def test_a_hint_asked_while_the_turn_is_solved_comes_when_the_solve_is_done_a_slice_a_pass():
    """A hint pressed before the turn's solve is done (its final-roll groups still being built, as after a boot)
    does not solve the rest in its pass: the press is drawn, the slices go on one a pass, and the hint is shown
    once they are done, the same best three a coach that had finished would give."""
    from fivedice.coach import Coach
    from fivedice.strategy_table import StrategyTable

    app, buttons, ticks_ms, log = rig()
    app.session.new_game()
    c = app.seats.coach
    log_slices(c, log)
    buttons.queue.append(1 << A.B_ROLL)
    n = 0
    while (app.session.tumbling or app.session.game.rolls == 0) and n < 400:
        run(app, buttons, ticks_ms, 1)
        n += 1
    assert app.session.game.rolls == 1 and not app.session.tumbling
    assert app.session.thinking and not c.solved  # the dice are down, the turn's solve is not
    del log[:]
    buttons.queue.append(1 << A.B_UP)  # "^hint": UP asks for the hint on the dice screen
    run(app, buttons, ticks_ms, 1)
    assert passes(log) == [["frame"]] and app.session.hint_kind == session._HINT_DUE
    assert app.session.thinking and not c.solved  # nothing solved in the press's pass
    del log[:]
    run(app, buttons, ticks_ms, 600)  # (its first frame is the loop's own, before the first pass)
    assert not app.session.thinking and c.solved
    p = passes(log)
    assert all(e.count("slice") <= 1 and not ("slice" in e and "frame" in e) for e in p)  # a slice a pass, no frame
    assert sum(e.count("slice") for e in p) > 1  # the solve's rest took passes of its own
    assert app.session.hint_kind in (1, 2) and app.session.top3[12] == 3  # coach KEEP or SCORE, and its best three shown
    g = app.session.game
    with open(os.path.join(DATA, "yacht.fdt"), "rb") as f:
        fresh = Coach(YACHT, StrategyTable(f, YACHT))
        top = list(app.session.top3)
        fresh.choices(g.cards[0], g.dice, g.rolls, g.held, top)
    assert top == list(app.session.top3) and (fresh.kind, fresh.value) == (app.session.hint_kind, app.session.hint_value)
