"""The device app: routes events to the current screen and owns the shared state (the game, the coach,
the seats and their CPU players, the settings, the save), sound cues, NeoPixel dice and shake-to-roll.
Each screen (menu, dice, box picker, scorecard, game over, help) is one object in fivedice.screens with
its own press handling and drawing."""
# Event-driven and hardware-free. The board (firmware/) or the simulator (host_sim/) feeds it:
#     app.press(button, now_ms)   a debounced press edge; buttons B_HOLD1..B_HOLD5, B_ROLL, B_UP, B_DOWN, B_OK, B_BACK
#     app.shake(on, now_ms)       shake started (True) / stopped (False)
#     app.tick(now_ms)            every loop pass: animations, CPU moves, sound; True when a new frame is due
#     app.draw()                  draw the current screen into the display and show() it
#     app.wait_ms(now_ms)         ms until something is due without input (the loop may sleep that long)
#     app.asleep()                True when the screen is off and the board may sleep until a button (fivedice.power)
#     app.wake(now_ms)            the board woke from sleep
# Handling an event and drawing a frame allocate nothing after start-up (tests/mpy/test_heap_app.py).

from fivedice.compat import collect, const, zeros as _zeros
from fivedice import lazy as _lazy
from fivedice import game as _game
from fivedice.game import ROLL
from fivedice import features as _features
from fivedice import oled_view as view
from fivedice import power as _power
from fivedice import rules as _rules
from fivedice import scoring
from fivedice.settings import Settings
from fivedice import sounds
from fivedice.screens import B_HOLD1, B_HOLD2, B_HOLD3, B_HOLD4, B_HOLD5, B_ROLL, B_UP, B_DOWN, B_OK, B_BACK  # noqa: F401
from fivedice.screens import M_MENU, M_TURN, M_PICK, M_CARD, M_OVER, M_HELP, M_TEST  # noqa: F401
from fivedice.screens import M_RECORDS, M_INITIALS, M_PROF  # noqa: F401
from fivedice import screens as _screens
from fivedice.ticks import ticks_add, ticks_diff


BUTTONS = 10
BUTTON_NAMES = ("hold1", "hold2", "hold3", "hold4", "hold5", "roll", "up", "down", "ok", "back")

ROLL_ANIM_MS = const(350)  # a ROLL press tumbles this long before the dice land
FRAME_MS = const(70)  # animation frame period
TOAST_MS = const(1800)
CPU_STEP_MS = const(650)
SAVE_SOON_MS = const(1000)  # a hold is saved this long after the last one (not a flash write per press)
DOTS_MS = const(300)  # "CPU playing..." dots step

# The save record (written by App.save_bytes, read back by fivedice.save_check.read): SAVE_MAGIC, the settings
# (bytes 1-6, fivedice.settings), the game's bytes (fivedice.game.encode), CRC-32 over all of it.
SAVE_MAGIC = const(0xA8)  # record format 2
OLD_SAVE_MAGIC = const(0xA7)  # format 1 (8-bit checksum, settings unchecked): refused, kept aside
SAVE_HEAD = const(7)
# A seat byte (3-6): bits 0-1 the menu's seat (the next game's), bits 4-5 the game in progress's own seat,
# bit 6 set when bits 4-5 are there (a save from before them: the game was seated as the menu says).
SEATED = const(0x40)
_REWRITE = const(2)  # App.save_due: a log store's rewrite, then the save
HINT_DUE = const(-1)  # App.hint_kind: a hint asked while the turn is still being solved, shown when it is
_PIXEL_FRAME_MS = const(10)  # the loop wakes this often while the pixels animate


class App:
    def __init__(
        self, display, pixels=None, buzzer=None, dice=None, store=None, cpu_step_ms=CPU_STEP_MS, tables=None,
        battery=None
    ):
        from fivedice import coach_buffers
        from fivedice.rng import Dice

        # The coaches' big arrays first, on the heap as start-up left it (the largest blocks it will ever have),
        # shared by every coach (the table's and the good CPU's) in every game, resume and seat change; then the
        # code every game needs (fivedice.seats, and with it the coach, the table reader, the CPU levels, the
        # meters): at start-up, never at "New game" nor inside a resume.
        groups = coach_buffers.new_groups()
        work = coach_buffers.new_work()
        from fivedice.seats import Seats
        from fivedice.coach import TOP_LEN

        self.fb = display
        self.px = None
        if pixels is not None:
            from fivedice.pixels_view import PixelsView

            self.px = PixelsView(pixels, len(pixels) if hasattr(pixels, "__len__") else 5)
        self.snd = sounds.Sounder(buzzer) if buzzer is not None else None
        self._cue = None  # a sound cue waiting for the next pass (cue)
        self.dice = dice if dice is not None else Dice()
        self.store = store
        self.cpu_step_ms = cpu_step_ms
        self.hint_kind = 0  # what the last hint said (coach.KEEP/SCORE), shown until the next action; HINT_DUE: asked
        self.hint_value = 0
        self.top3 = _zeros("l", TOP_LEN)  # the last hint's best three choices (coach.choices, TOP_LEN), shown with it
        self.par_x100 = -1  # the player to move's par (expected final total from the turn's start) x 100; -1: none
        self.pw = _power.Power(display, battery)  # the dim and sleep timers, the battery
        self.settings = Settings(self.pw, self.snd, self.setting_saved)  # the menu's values: the next game's
        # Optimal-strategy tables (make tables): `tables` is the folder holding <rule set id>.fdt. Without one for
        # the rule set: no hint, no proficiency, CPU tops out at "good".
        self.seats = Seats(self.settings, tables, groups, work, self.message)
        # the screens by M_ number (fivedice.screens.SCREENS): the kept ones imported and built now, after the
        # coaches' arrays and the game code had the heap start-up left (the CP proxy's start-up ran out of a 3.7 KB
        # block for keeps' tables with them imported before); None: imported when entered
        self.screens = [None] * _screens.SCREENS.count("\n")
        w = _screens.SCREENS.split()
        for m in range(_screens.KEPT):
            self.screens[m] = _screens.build(m, w)
        del w
        self.menu = self.screens[M_MENU]
        self.mode = M_MENU  # the current screen's number
        self.screen = self.menu
        # state
        self.game = None
        self.five = False
        self.toast = 0
        self.toast_until = 0
        self.tumbling = False
        self.thinking = False  # the player to move has a coach whose turn solve is not finished (tick works it)
        self.dots = 0  # "CPU playing" dots shown (0-3)
        self.shaking = False
        self.land_at = 0
        self.frame = 0
        self.next_frame = 0
        self.cpu_at = 0
        self.last_player = 0
        self.last_refusal = 0  # the last refusal code (0 = the last action was accepted)
        self.now = 0
        self.dirty = True
        self._held = False  # the last pass left its slow work for this one (tick: frame first)
        self.save_bad = False
        self.save_due = False  # a change (a hold) waits to be saved at save_at (_REWRITE: the store's rewrite first)
        self.save_at = 0
        self.save_error = ""  # why the save could not be read, for the firmware's log
        self.records_error = ""  # why the records could not be read (they were kept aside), for the log
        self.to_beat = 0  # a solo game: the best score of its rule set in the records (0: none)
        self._fresh = True  # no tick seen yet: deadlines set so far are re-based on the first one
        self._warming = False  # the menu's rule set's final-roll groups are being built, a slice a pass
        self.menu.build(self)
        self.seats.need_levels(self.settings.seats, self.settings.players, None)
        self._load()
        if self.game is None:  # the menu's table and coach now, so that "New game" finds them
            rs = _rules.ALL[self.settings.rules_i]
            table = self.seats.open_table(rs)
            if table is not None:
                self.seats.table_coach(rs, table)
                self._warming = True

    # -- helpers ------------------------------------------------------------------
    def cue(self, cue):
        """Play a sound cue (sounds.*) unless muted or there is no buzzer."""
        if self.snd is not None:
            self._cue = cue  # started with the next pass's slow work: after the frame that shows the action

    def refuse(self, code):
        self.last_refusal = code
        self.toast = code
        self.toast_until = ticks_add(self.now, TOAST_MS)
        self.cue(sounds.REFUSED)
        self.dirty = True
        return code

    def _ok(self):
        self.last_refusal = 0
        self.dirty = True
        return 0

    def message(self, code):
        self.toast = code
        self.toast_until = ticks_add(self.now, TOAST_MS)
        self.dirty = True

    def in_game(self):
        return self.game is not None and not self.game.over

    def cpu_turn(self):
        g = self.game
        return g is not None and not g.over and self.seats.seated[g.player] != 0

    def busy(self):
        """True while something is still to happen without input: dice tumbling, a turn solve (par comes with
        it), a CPU turn, a cue."""
        if self.tumbling or self.thinking:
            return True
        if self.cpu_turn() and self.mode == M_TURN:
            return True
        if self.px is not None and self.px.busy:
            return True
        return self.snd is not None and (self.snd.playing or self._cue is not None)

    def _sync_pixels(self):
        if self.px is not None and self.game is not None:
            self.px.set_dice(self.game.dice, self.game.held)

    # -- screens -------------------------------------------------------------------
    def resume(self):
        """Back to the game in progress, seated and ruled as it started: the menu's lines are the next game's."""
        self.enter(M_TURN)

    def enter(self, mode):
        """Switch to screen `mode` (M_*): the old one leaves, the new one opens at its top. A screen that is not
        kept is built now (its module imported: an allocation) and dropped when it is left (fivedice.lazy)."""
        self.screen.leave(self)
        self.mode = mode
        self.screen = self.screens[mode] or _screens.build(mode)
        self.screen.open(self)
        self.dirty = True

    def show_card(self, back):
        """The scorecard, returning to screen `back` (the dice, or game over) on OK/BACK."""
        self.screens[M_CARD].back = back
        self.enter(M_CARD)

    def again(self):
        """After a game: the next one with the same rule set, players and seats."""
        g = self.game
        s = self.settings
        s.set("rules_i", g.rs.index)
        s.set("players", g.players)
        for p in range(g.players):
            s.set_seat(p, self.seats.seated[p])
        self.new_game()

    def new_game(self):
        """Start a game with the menu's settings (the save slot is overwritten from now on)."""
        s = self.settings
        rs = _rules.ALL[s.rules_i]
        g = self.game
        if g is not None and g.players == s.players:
            g.restart(rs)  # the game before's objects
        else:
            self.game = _game.Game(rs, s.players, self.dice)
        self.save_bad = False
        self.five = False
        self.toast = 0
        self.hint_kind = 0
        self.par_x100 = -1
        self.seats.seat_game(self.game, s.seats)  # may say "Strategy table bad"
        self._best_to_beat()
        self._sync_pixels()
        self.thinking = True
        self.enter(M_TURN)
        self.cpu_at = ticks_add(self.now, self.cpu_step_ms)
        self._save_next()
        if self.save_due and hasattr(self.store, "compact_due"):
            self.save_due = _REWRITE  # after the frame, a log store's rewrite (the game before is over: the least
            # to lose) in one pass, the new game's save in the next

    def coach_lost(self, why=None):
        """A table read failed mid-game: the seats drop the coach and play on (Seats.coach_lost); no hint nor par
        is shown, and the turn is solved again for the seats that play good now."""
        self.hint_kind = 0
        self.par_x100 = -1
        self.thinking = True
        self.seats.coach_lost(self.game, why)

    def test_done(self):
        """The proficiency test is left: a game in progress has its table and coach back, its turn solved again
        (the test had the coaches' arrays)."""
        if not self.seats.lent:
            return
        if self.game is not None:
            self.hint_kind = 0
            self.thinking = True
        if not self.seats.test_done(self.game):
            self.par_x100 = -1  # the table could not be opened again: the coach is lost (said on screen)

    def hint(self):
        """Ask the coach for the best action now; shown on the turn screen until the next action. Asked while the
        turn is still being solved, it comes when the solve is done, a slice a pass (_think): no pass solves it all."""
        g = self.game
        coach = self.seats.coach
        if coach is None:
            return 0
        if g.rolls == 0:
            return self.refuse(_game.NOT_ROLLED)
        if self.thinking:
            self.hint_kind = HINT_DUE
            return self._ok()
        try:
            coach.choices(g.cards[g.player], g.dice, g.rolls, g.held, self.top3)  # the best three, valued
            k = coach.kind
        except OSError:
            self.coach_lost()
            return 0
        self.hint_kind = k
        self.hint_value = coach.value
        return self._ok()

    # -- turn ------------------------------------------------------------------------
    def start_roll(self, ms=ROLL_ANIM_MS):
        """Tumble the unheld dice; they land after `ms` (0: when the shake stops)."""
        g = self.game
        r = g.check_roll()
        if r:
            return self.refuse(r)
        pr = self.seats.prof[g.player]
        if pr is not None and g.rolls:
            try:
                pr.before_roll(g)  # the keep decision, valued before the dice move
            except OSError:
                self.coach_lost()
        self.hint_kind = 0
        self.tumbling = True
        self.land_at = ticks_add(self.now, ms) if ms else 0
        self.five = False
        if self.px is not None:
            self.px.tumble(True, self.now)
        self.cue(sounds.ROLL)
        return self._ok()

    def land(self):
        """The dice land: the roll happens now."""
        g = self.game
        self.tumbling = False
        r = g.roll()
        if self.px is not None:
            self.px.tumble(False, self.now)
        self._sync_pixels()
        if r:
            return self.refuse(r)
        self.dice.top_up()
        self.five = scoring.five_face() != 0 if g.legal() else False
        if self.five:
            self.cue(sounds.FIVE_KIND)
            if self.px is not None:
                self.px.celebrate(self.now)
        else:
            self.cue(sounds.LAND)
        self.cpu_at = ticks_add(self.now, self.cpu_step_ms)
        self._save_next()  # a restart resumes with these dice: no free re-roll by pulling the battery
        return self._ok()

    def toggle(self, die):
        g = self.game
        r = g.toggle(die)
        if r:
            return self.refuse(r)
        self.hint_kind = 0
        self._sync_pixels()
        self.cue(sounds.HOLD)
        self._save_soon()  # a restart resumes with these dice held
        return self._ok()

    def score(self, box):
        g = self.game
        player = g.player
        r = g.check_score(box)
        if r:
            return self.refuse(r)
        pr = self.seats.prof[player]
        if pr is not None:
            try:
                pr.before_score(g, box)
            except OSError:
                self.coach_lost()
        self.hint_kind = 0
        self.par_x100 = -1  # the next turn's comes with its solve
        g.score(box)
        self.last_player = player
        self.five = False
        if self.toast != view.T_TABLE_BAD:  # a refusal's toast ends here; "Strategy table bad" runs its time
            self.toast = 0
        self._sync_pixels()
        self.thinking = not g.over  # the next player's turn: solve it a slice a pass from now
        if g.over:
            records = self._keeps_records()
            self.cue(sounds.GAME_OVER)
            self._save_next()  # the finished game first: a power cut before the records loses only them
            self.enter(M_INITIALS if records else M_OVER)
        else:
            self.cue(sounds.SCORE)
            self.enter(M_TURN)
            self._save_next()
        self.cpu_at = ticks_add(self.now, self.cpu_step_ms)
        return self._ok()

    # -- events --------------------------------------------------------------------
    def press(self, b, now_ms):
        """A button was pressed. Returns 0 or the refusal code of the action it asked for."""
        self.now = now_ms
        if self._fresh:
            self._rebase(now_ms)
        self.last_refusal = 0
        self.dirty = True
        if self.pw.wake(now_ms):
            self._lights_on()
            return 0  # the press that wakes the screen does nothing else
        return self.screen.press(self, b)

    def shake(self, on, now_ms):
        """The shake sensor started (on) or stopped shaking."""
        self.now = now_ms
        if self._fresh:
            self._rebase(now_ms)
        self.shaking = on
        if self.pw.state == _power.OFF:
            return 0  # a shake does not wake the board (a button does)
        self.pw.touch(now_ms)
        return self.screen.shake(self, on)

    def tick(self, now_ms):
        """Advance time; returns True when the screen should be redrawn."""
        self.now = now_ms
        if self._fresh:
            self._rebase(now_ms)
        if self.tumbling:
            if self.land_at and ticks_diff(now_ms, self.land_at) >= 0:
                self.land()
            elif ticks_diff(now_ms, self.next_frame) >= 0:
                self.frame += 1
                self.next_frame = ticks_add(now_ms, FRAME_MS)
                self.dirty = True
        if self.toast and ticks_diff(now_ms, self.toast_until) >= 0:
            self.toast = 0
            self.dirty = True
        if self.mode == M_TURN and not self.tumbling and self.cpu_turn():
            k = (now_ms // DOTS_MS) & 3
            if k != self.dots:  # "CPU playing" and its dots: the computer is at work, not a frozen screen
                self.dots = k
                self.dirty = True
        self.screen.tick(self, now_ms)
        d = self.dirty
        if d and not self._held:  # a frame is due (a press's): this pass draws it, the slow work waits
            self._held = True  # (draw() clears it; a driver that ticks without drawing gets the work next pass)
        else:
            self._held = False
            self._work_slice(now_ms)  # what it changes on screen (a CPU move, par) is drawn in the next pass
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
                self.message(view.T_BATTERY_LOW)
            if pw.level != lv and self.mode == M_MENU:
                self.dirty = True  # the gauge in the menu's title bar
        return d

    def _work_slice(self, now_ms):
        """A pass's slow work, in a pass that draws no frame (issue 24): the store's rewrite, the save, the
        coach's slice, a CPU move, the sound step, one of them a pass. A press's frame thus never waits for
        them, nor a frame for them: each fits the 50 ms a pass may take on a Pico (make bench-frames)."""
        if self.save_due and ticks_diff(now_ms, self.save_at) >= 0:
            self._save()  # (a rewrite first: the sector erase, ~46 ms on a Pico, alone in its pass; the save next)
        elif self.thinking:
            self.thinking = self._think()  # one slice of the turn solve a pass: buttons and animation stay live
        elif self._warming or self.mode == M_MENU:  # the menu's rule set's final-roll groups while no game is on,
            # a slice a pass (Seats.warm), so that "New game" finds them built
            self._warming = not (self.in_game() or self.seats.warm(_rules.ALL[self.settings.rules_i]))
        elif self.mode == M_TURN and not self.tumbling and self.cpu_turn() and ticks_diff(now_ms, self.cpu_at) >= 0:
            self._cpu_step()
        if self.snd is not None:
            if self._cue:
                self.snd.play(self._cue, now_ms)
                self._cue = None
            self.snd.update(now_ms)

    def _think(self):
        """One slice of the turn solve (coach.work) for the player to move (Seats.turn_coach). True while it is
        unfinished."""
        g = self.game
        if g is None or g.over:
            return False
        c = self.seats.turn_coach(g)
        if c is None:
            return False  # (the proficiency test has the coach and the arrays: test_done() sets thinking again)
        try:
            card = g.cards[g.player]
            if not c.work(card):
                return True
            if self.seats.players[g.player] is None:  # a human with the table: par for the turn screen, once a turn
                self.par_x100 = c.par_x100(card)
                self.dirty = True
                if self.hint_kind == HINT_DUE:
                    self.thinking = False
                    self.hint()  # the hint asked during the solve, now a look-up
            return False
        except OSError:
            self.coach_lost()  # perfect seats now play "good": their turn is solved next
            return True

    # -- power (fivedice.power) ---------------------------------------------------------
    def _lights_off(self):
        """The sleep timer ran out: save, silence, pixels dark, display off. The board may now sleep."""
        self.flush_save()
        if self.snd is not None:
            self._cue = None
            self.snd.stop()
        if self.px is not None:
            self.px.dark()
        self.pw.off()

    def _lights_on(self):
        if self.px is not None:
            self.px.refresh()  # the next update rewrites every pixel
        self.dirty = True

    def asleep(self):
        """True while the screen is off: the board may sleep until a button is pressed."""
        return self.pw.state == _power.OFF

    def wake(self, now_ms):
        """The board woke from sleep (a button): the screen and pixels come back, the game is as it was.
        The firmware's loop drops the waking press itself (fdfw.loop)."""
        self.now = now_ms
        if self.pw.wake(now_ms):
            self._lights_on()

    def wait_ms(self, now_ms, most=1000):
        """ms from now_ms until something is due without input (a frame, a landing, a toast's end, a CPU move,
        a save, a note, a power timer), at most `most`; 0 when a frame is due now."""
        if self.dirty or self._fresh or self.thinking or self._warming:
            return 0  # (a turn solve in progress, or the groups: a slice every pass)
        w = self.pw.wait_ms(now_ms, most)
        t = self.screen.wait_ms(self, now_ms)
        if t < w:
            w = t
        if self.tumbling:
            t = ticks_diff(self.land_at if self.land_at else self.next_frame, now_ms)
            if self.land_at:
                t2 = ticks_diff(self.next_frame, now_ms)
                if t2 < t:
                    t = t2
            if t < w:
                w = t
        if self.toast:
            t = ticks_diff(self.toast_until, now_ms)
            if t < w:
                w = t
        if self.save_due:
            t = ticks_diff(self.save_at, now_ms)
            if t < w:
                w = t
        if self.mode == M_TURN and self.cpu_turn():
            t = ticks_diff(self.cpu_at, now_ms)
            d = DOTS_MS - now_ms % DOTS_MS  # the "CPU playing" dots' next step
            if d < t:
                t = d
            if t < w:
                w = t
        if self.snd is not None and self.snd.playing:
            t = self.snd.wait_ms(now_ms)
            if t < w:
                w = t
        if self.px is not None and self.px.busy and w > _PIXEL_FRAME_MS:
            w = _PIXEL_FRAME_MS
        return w if w > 0 else 0

    def _rebase(self, now):
        """The first event after start-up or a resume: every deadline set before it (against a clock that
        read 0, or another power-on's ticks) now counts from `now`. CircuitPython's ticks start about
        65 s before their 2**29 wrap, so a deadline left at 0 would wait those 65 s."""
        self._fresh = False
        self.cpu_at = ticks_add(now, self.cpu_step_ms)
        self.next_frame = now
        self.pw.input_at = now
        self.pw.battery_at = now
        if self.toast:
            self.toast_until = ticks_add(now, TOAST_MS)
        if self.tumbling and self.land_at:
            self.land_at = ticks_add(now, ROLL_ANIM_MS)
        if self.save_due:
            self.save_at = now

    def _cpu_step(self):
        g = self.game
        cpu = self.seats.players[g.player]
        self.cpu_at = ticks_add(self.now, self.cpu_step_ms)
        try:
            a = cpu.decide(g)
        except OSError:
            self.coach_lost()
            cpu = self.seats.players[g.player]  # "good" now
            a = cpu.decide(g)
        if a == ROLL:
            if g.rolls:
                for i in range(5):
                    if ((cpu.keep >> i) & 1) != ((g.held >> i) & 1):
                        g.toggle(i)
                self._sync_pixels()
            self.start_roll(ROLL_ANIM_MS)
        else:
            self.score(cpu.box)

    # -- drawing -------------------------------------------------------------------
    def draw(self):
        self.screen.draw(self.fb, self)
        if self.mode == M_MENU and self.pw.level >= 0:
            _power.draw_battery(self.fb, self.pw.level, view.BATTERY_X, 1, 0)  # in the menu's title bar
        self.fb.show()
        self.dirty = False
        self._held = False  # the frame is out: the next pass may work

    # -- records (high scores, stats) ----------------------------------------------------
    def _keeps_records(self):
        """A finished game goes into the records when this install has them (fivedice.features), there is a
        store for them and a human played."""
        if not _features.RECORDS or self.store is None or not hasattr(self.store, "write_records"):
            return False
        for p in range(self.game.players):
            if not self.seats.seated[p]:
                return True
        return False

    def _best_to_beat(self):
        """A solo human game: the best score of its rule set in the records, shown on the dice screen."""
        self.to_beat = 0
        g = self.game
        if g is None or g.players != 1 or self.seats.seated[0] or not self._keeps_records():
            return
        self.to_beat = _lazy.load("records").best(self, g.rs.index)
        _lazy.drop("records")

    # -- saves ---------------------------------------------------------------------
    def save_bytes(self):
        """The save record: 7 bytes of settings, the game's bytes (if any), CRC-32 over all of it."""
        gb = self.game.to_bytes() if self.game is not None else b""
        n = SAVE_HEAD + len(gb)
        rec = bytearray(n + _game.CRC_BYTES)
        rec[0] = SAVE_MAGIC
        self.settings.put(rec)  # bytes 1-6 (fivedice.settings)
        if self.game is not None:
            for i in range(4):
                rec[3 + i] |= SEATED | self.seats.seated[i] << 4
        rec[SAVE_HEAD:n] = gb
        _game.put_crc(rec, n)
        return bytes(rec)

    def _save_soon(self):
        """Save a small change (a hold) once presses pause, not a flash write per press."""
        if self.store is not None:
            if not self.save_due:
                self.save_due = True  # (a rewrite still due stays first)
            self.save_at = ticks_add(self.now, SAVE_SOON_MS)

    def _save_next(self):
        """Save in the next pass, after the frame that shows the change (a save never delays a frame)."""
        if self.store is not None:
            if not self.save_due:
                self.save_due = True
            self.save_at = self.now

    def setting_saved(self):
        """A menu setting changed: saved with the next write (soon, once presses pause); never over a save
        that could not be read (kept as it is until a new game starts)."""
        if not self.save_bad:
            self._save_soon()

    def flush_save(self):
        """Write a change still waiting to be saved (call before the board sleeps or powers down)."""
        if self.save_due == _REWRITE:
            self._save()
        if self.save_due:
            self._save()

    def _save(self):
        st = self.store
        if self.save_due == _REWRITE:
            # after "New game"'s first frame, where it has least to lose, a log store rewrites itself if it must
            # (the CircuitPython nvm log: docs/saves.md, Saves and power cuts); the save in the next pass
            self.save_due = True
            try:
                if st.compact_due():
                    st.compact()
            except OSError:
                pass
            return
        self.save_due = False
        if st is None:
            return
        try:
            st.write(self.save_bytes())
        except OSError:
            self.message(view.T_SAVE_FAILED)

    def _load(self):
        """Read the save back at start-up. fivedice.save_check reads and checks it and is dropped before the game
        is seated, so its table and coach can take the room that code had, and a board does not hold it in play."""
        if self.store is None:
            return
        try:
            data = self.store.read()
        except OSError:
            data = None
        if data is None:
            return  # no save: a first start
        if len(data) >= SAVE_HEAD:  # the CPU levels its seats name (the menu's and the game's): their code first
            seats = bytearray(4)
            for i in range(4):
                seats[i] = data[3 + i] & (0x33 if i < (data[2] & 7) else 0x30)
            self.seats.need_levels(seats, 4, None)
        got = _lazy.load("save_check").load(self, data)
        _lazy.drop("save_check")
        collect()  # (on a board: its code's room is free again before the game is seated)
        if got is not None:
            self._resume_game(got[0], got[1])

    def _resume_game(self, g, seats):
        """Seat game g (None: none in progress) as the save had it, seat p playing seats[p]; the menu's
        settings, already read, are the next game's."""
        self.game = g
        self.hint_kind = 0
        self.par_x100 = -1
        if g is not None:
            self.seats.seat_game(g, seats)
            self._best_to_beat()
            self._sync_pixels()
            self.thinking = True
        self.enter(M_MENU)
        self._fresh = True  # deadlines are re-based on the first tick after a resume
