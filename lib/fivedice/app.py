"""The device app: routes events (press, shake, tick, wait, draw) to the current screen, switches
screens (report: what the game did decides which), shows the message line and runs the power hooks.
What the screens share has one owner each: the game in progress and its save (app.session, a
fivedice.session.Session), the seats with their CPU players and coach (fivedice.seats), the menu's
values (fivedice.settings), the dim and sleep timers (fivedice.power)."""
# Event-driven and hardware-free: the board (firmware/) or the simulator (host_sim/) feeds it
# press(button, now), shake(on, now) and tick(now) (True when a frame is due), calls draw(),
# wait_ms(now) (how long the loop may sleep), asleep() and wake(now): docs/library.md. Handling an
# event and drawing a frame allocate nothing after start-up (tests/heap_lock/test_heap_app.py).

from fivedice.compat import const, heap_lock, heap_unlock, zeros as _zeros
from fivedice import messages as _msg
from fivedice import oled_view as view
from fivedice import power as _power
from fivedice.session import Session
from fivedice.settings import Settings
from fivedice import sounds
# noqa: F401
from fivedice.screens import (
    B_HOLD1,
    B_HOLD2,
    B_HOLD3,
    B_HOLD4,
    B_HOLD5,
    B_ROLL,
    B_UP,
    B_DOWN,
    B_OK,
    B_BACK,
)
from fivedice.screens import M_MENU, M_TURN, M_PICK, M_CARD, M_OVER, M_HELP, M_TEST  # noqa: F401
from fivedice.screens import M_RECORDS, M_INITIALS, M_PROF  # noqa: F401
from fivedice import screens as _screens
from fivedice.ticks import ticks_add, ticks_diff


BUTTON_NAMES = ("hold1", "hold2", "hold3", "hold4", "hold5", "roll", "up", "down", "ok", "back")

TOAST_MS = const(1800)
CPU_STEP_MS = const(650)
_PIXEL_FRAME_MS = const(10)  # the loop wakes this often while the pixels animate
# what the game in progress reports (fivedice.session's; tests/lib/test_session.py holds them equal)
_TURN = const(1)
_OVER = const(2)
_OVER_RECORDS = const(3)


class App:
    def __init__(
        self,
        display,
        pixels=None,
        buzzer=None,
        dice=None,
        store=None,
        cpu_step_ms=CPU_STEP_MS,
        tables=None,
        battery=None,
        pixel_colors=None,
    ):
        from fivedice import lazy
        from fivedice.rng import Dice

        # The coaches' big arrays first, on the heap as start-up left it (its largest blocks), then
        # the code every game needs (fivedice.seats, the coach, the table reader): now, never at
        # "New game" nor in a resume.
        bufs = lazy.load("coach_buffers")
        groups = bufs.new_groups()
        work = bufs.new_work()
        del bufs
        from fivedice.seats import Seats
        from fivedice.coach import TOP_LEN

        self.fb = display
        self.px = None
        if pixels is not None:
            from fivedice.pixels_view import PixelsView

            # the board's (die order, face colours, key colours)
            pc = pixel_colors or (None, None, None)
            self.px = PixelsView(
                pixels,
                len(pixels) if hasattr(pixels, "__len__") else 5,
                order=pc[0],
                faces=pc[1],
                keys=pc[2],
            )
        self.snd = sounds.Sounder(buzzer) if buzzer is not None else None
        self._cue = None  # a sound cue waiting for the next pass (cue)
        self.store = store
        self.now = 0
        # the game in progress: the game, the tumble, the CPU's step, the hint, the save's timing
        dice = dice if dice is not None else Dice()
        s = self.session = Session(self, self.px, store, dice, cpu_step_ms, _zeros("l", TOP_LEN))
        self.pw = _power.Power(display, battery)  # the dim and sleep timers, the battery
        # the menu's values: the next game's
        self.settings = s.settings = Settings(self.pw, self.snd, s.setting_saved)
        # `tables`: the folder of <rule set id>.fdt (make tables); without one: no hint, no
        # proficiency, CPU "good"
        self.seats = s.seats = Seats(self.settings, tables, groups, work, self.message)
        # the screens by M_ number (fivedice.screens.SCREENS): the kept ones built now, after the
        # coaches' arrays and the game code had the heap start-up left (docs/memory.md); None:
        # imported when entered
        self.screens = [None] * _screens.SCREENS.count("\n")
        w = _screens.SCREENS.split("\n")
        for m in range(_screens.KEPT):
            self.screens[m] = _screens.build(m, w)
        del w
        self.menu = self.screens[M_MENU]
        self.mode = M_MENU  # the current screen's number
        self.screen = self.menu
        # the screens open under the current one (show, back): [0] how many, then them
        self._under = bytearray(4)
        # the message line: a refusal or a message (messages.T_*) until toast_until; 0: none
        self.toast = 0
        self.toast_until = 0
        self.shaking = False
        self.last_refusal = 0  # the last refusal code (0 = the last action was accepted)
        self.dirty = True
        self._held = False  # the last pass left its slow work for this one (tick: frame first)
        # why the records could not be read (they were kept aside), for the log
        self.records_error = ""
        self._fresh = True  # no tick seen yet: deadlines set so far are re-based on the first one
        self.menu.build(self)
        self.seats.need_levels(self.settings.seats, self.settings.players, None)
        s.begin()  # the saved game resumed, else the menu's table and coach made ready
        # its code, last (the coach kept the sizes): the arrays are made for good
        lazy.drop("coach_buffers")

    def __getattr__(self, name):
        # The game's state asked of the App is the session's: app.game, app.thinking, app.cpu_turn()
        # (the emulated Pico's probe reads them so: tests/lib/test_probe_contract.py).
        if name == "session":  # not built yet: no loop through this method
            raise AttributeError(name)
        return getattr(self.session, name)

    # -- what the game in progress did (fivedice.session): the screen that shows it -------
    def report(self, code):
        """The game reports what happened (_TURN, _OVER, _OVER_RECORDS, or a resume); the router
        shows it."""
        if code == _TURN:
            self.enter(M_TURN)  # a new game, or the next turn: the dice, over whatever was open
        elif code == _OVER_RECORDS:
            self.enter(M_INITIALS)  # the records are written once the initials are given
        elif code == _OVER:
            self.enter(M_OVER)
        else:
            self.enter(M_MENU)  # a saved game resumed: the menu offers to continue it

    # -- the message line, sound cues, what is going on ------------------------------------
    def cue(self, cue):
        """Play a sound cue (sounds.*) unless muted or there is no buzzer."""
        if self.snd is not None:
            # started with the next pass's slow work: after the frame that shows the action
            self._cue = cue

    def refuse(self, code):
        """Refuse an action: its reason on the message line, the refusal's sound; returns the code.
        """
        self.last_refusal = code
        self.message(code)
        self.cue(sounds.REFUSED)
        return code

    def accept(self):
        """An action was accepted: no refusal, a new frame; returns 0."""
        self.last_refusal = 0
        self.dirty = True
        return 0

    def message(self, code):
        self.toast = code
        self.toast_until = ticks_add(self.now, TOAST_MS)
        self.dirty = True

    def busy(self):
        """True while something is still to happen without input: dice tumbling, a turn solve (par
        comes with it), a CPU turn, a cue."""
        s = self.session
        if s.tumbling or s.thinking:
            return True
        if s.cpu_turn() and self.mode == M_TURN:
            return True
        if self.px is not None and self.px.busy:
            return True
        return self.snd is not None and (self.snd.playing or self._cue is not None)

    # -- screens -------------------------------------------------------------------
    def enter(self, mode):
        """Switch to screen `mode` (M_*) in place of every screen open: the old one leaves, the new
        one opens at its top. A screen that is not kept is built now (its module imported: an
        allocation) and dropped when it is left (fivedice.screens.left)."""
        self._under[0] = 0
        self._open(mode)

    def show(self, mode):
        """Open screen `mode` over the current one, which back() returns to (the card over the dice
        or game over, help over the menu)."""
        u = self._under
        if u[0] < len(u) - 1:
            u[0] += 1
            u[u[0]] = self.mode
        self._open(mode)

    def back(self):
        """Close the current screen: back to the one it was shown over (the menu if none)."""
        u = self._under
        if u[0]:
            u[0] -= 1
            self._open(u[u[0] + 1])
        else:
            self._open(M_MENU)

    def _open(self, mode):
        self.screen.leave(self)
        _screens.left(self.screen, self.mode)  # one not kept goes with its modules
        self.mode = mode
        self.screen = self.screens[mode] or _screens.build(mode)
        self.screen.open(self)
        self.dirty = True

    # -- events --------------------------------------------------------------------
    def press(self, b, now_ms):
        """A button was pressed. Returns 0 or the refusal code of the action it asked for."""
        self._clock(now_ms)
        self.last_refusal = 0
        self.dirty = True
        if self.wake(now_ms):
            return 0  # the press that wakes the screen does nothing else
        return self.screen.press(self, b)

    def shake(self, on, now_ms):
        """The shake sensor started (on) or stopped shaking."""
        self._clock(now_ms)
        self.shaking = on
        if self.pw.state == _power.OFF:
            return 0  # a shake does not wake the board (a button does)
        self.pw.touch(now_ms)
        return self.screen.shake(self, on)

    def tick(self, now_ms):
        """Advance time; returns True when the screen should be redrawn."""
        self._clock(now_ms)
        self.session.tick(now_ms, self.mode == M_TURN)
        if self.toast and ticks_diff(now_ms, self.toast_until) >= 0:
            self.toast = 0
            self.dirty = True
        self.screen.tick(self, now_ms)
        d = self.dirty
        # a frame is due (a press's): this pass draws it, the slow work waits
        if d and not self._held:
            # (draw() clears it; a driver that ticks without drawing gets the work next pass)
            self._held = True
        else:
            self._held = False
            # what it changes on screen (a CPU move, par) is drawn in the next pass
            self.session.work(now_ms, self.mode == M_TURN, self.mode == M_MENU)
            # the sound step: a cue starts after the frame that shows its action
            if self.snd is not None:
                if self._cue:
                    self.snd.play(self._cue, now_ms)
                    self._cue = None
                self.snd.update(now_ms)
        pw = self.pw
        if pw.state != _power.OFF:
            if self.px is not None:
                self.px.update(now_ms)
            if self.busy():
                pw.input_at = now_ms  # the app is doing something on its own: the timers wait
            st = pw.due(now_ms)
            if st == _power.DIM:
                pw.dim()
            elif st == _power.OFF:
                self._lights_off()
        if pw.battery is not None:
            lv = pw.level
            if pw.read_battery(now_ms):
                self.message(_msg.T_BATTERY_LOW)
            if pw.level != lv and self.mode == M_MENU:
                self.dirty = True  # the gauge in the menu's title bar
        return d

    # -- power (fivedice.power) ---------------------------------------------------------
    def _lights_off(self):
        """The sleep timer ran out: save, silence, pixels dark, display off. The board may now
        sleep."""
        self.session.flush_save()
        if self.snd is not None:
            self._cue = None
            self.snd.stop()
        if self.px is not None:
            self.px.dark()
        self.pw.off()

    def asleep(self):
        """True while the screen is off: the board may sleep until a button is pressed."""
        return self.pw.state == _power.OFF

    def wake(self, now_ms):
        """The board woke from sleep (a button): the screen and pixels come back, the game is as it
        was. The board's loop drops the waking press itself (fivedice.loop). True if the screen was
        off."""
        self.now = now_ms
        if not self.pw.wake(now_ms):
            return False
        self._fresh = True  # after days asleep a deadline reads backwards past 2**28 ms:
        self._clock(now_ms)  # all count from now, the battery read at once
        if self.px is not None:
            self.px.refresh()  # the next update rewrites every pixel
        self.dirty = True
        return True

    def wait_ms(self, now_ms, most=1000):
        """ms from now_ms until something is due without input (a frame, a landing, a toast's end, a
        CPU move, a save, a note, a power timer), at most `most`; 0 when a frame is due now."""
        s = self.session
        if self.dirty or self._fresh or s.thinking or s.warming:
            return 0  # (a turn solve in progress, or the groups: a slice every pass)
        w = s.wait_ms(now_ms, self.pw.wait_ms(now_ms, most), self.mode == M_TURN)
        t = self.screen.wait_ms(self, now_ms)
        if t < w:
            w = t
        if self.toast:
            t = ticks_diff(self.toast_until, now_ms)
            if t < w:
                w = t
        if self.snd is not None and self.snd.playing:
            t = self.snd.wait_ms(now_ms)
            if t < w:
                w = t
        if self.px is not None and self.px.busy and w > _PIXEL_FRAME_MS:
            w = _PIXEL_FRAME_MS
        return w if w > 0 else 0

    def _clock(self, now):
        """Every event's time. The first after start-up or a resume re-bases every deadline set
        before it (against a clock that read 0, or another power-on's ticks) on `now`:
        CircuitPython's ticks start about 65 s before their 2**29 wrap, so a deadline left at 0
        would wait those 65 s."""
        self.now = now
        if not self._fresh:
            return
        self._fresh = False
        self.session.rebase(now)
        self.pw.input_at = now
        self.pw.battery_at = now
        if self.toast:
            self.toast_until = ticks_add(now, TOAST_MS)

    # -- drawing -------------------------------------------------------------------
    def draw(self):
        # drawn with the heap locked (compat.heap_lock: calls then take no heap, 2-7x faster on a
        # Pico); a frame allocates nothing (tests/heap_lock), so a MemoryError is a first frame
        # making what it keeps (a display's sprites, where start-up did not): drawn again unlocked
        heap_lock()
        try:
            self._frame()
            ok = True
        except MemoryError:
            ok = False
        finally:
            heap_unlock()
        if not ok:
            self.screen.whole = True
            self._frame()
        self.fb.show()
        self.dirty = False
        self._held = False  # the frame is out: the next pass may work

    def _frame(self):
        self.screen.draw(self.fb, self)
        if self.mode == M_MENU and self.pw.level >= 0:
            # in the menu's title bar
            _power.draw_battery(self.fb, self.pw.level, view.BATTERY_X, 1, 0)
