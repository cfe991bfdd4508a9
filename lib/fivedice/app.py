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
from fivedice.compat import const, zeros as _zeros
from fivedice import game as _game
from fivedice import features as _features
from fivedice import lazy as _lazy
from fivedice import oled_view as view
from fivedice import power as _power
from fivedice import rules as _rules
from fivedice import scoring
from fivedice import sounds
from fivedice.screens import B_HOLD1, B_HOLD2, B_HOLD3, B_HOLD4, B_HOLD5, B_ROLL, B_UP, B_DOWN, B_OK, B_BACK  # noqa: F401
from fivedice.screens import M_MENU, M_TURN, M_PICK, M_CARD, M_OVER, M_HELP, M_TEST  # noqa: F401
from fivedice.screens import M_RECORDS, M_INITIALS, M_PROF  # noqa: F401
from fivedice.screens.card import Card
from fivedice.screens.menu import Menu
from fivedice.screens.over import Over
from fivedice.screens.picker import Picker
from fivedice.screens.turn import Turn
from fivedice.ticks import ticks_add, ticks_diff

_coach = _cpu_levels = _strategy_table = None  # fivedice.coach, .cpu_levels, .strategy_table: load_game_code()


def load_game_code():
    """Import what every game needs: the coach and the table reader (hints, proficiency, the perfect CPU; the
    good CPU's coach too) and the CPU levels. The App calls it when it is built, at start-up: on a board that
    is after the start-up code is gone (fdfw.loop), on a clean heap, and never at "New game" nor inside a
    resume. A CPU level's own code comes when a menu seat or the save first names it (App.need_levels)."""
    global _coach, _cpu_levels, _strategy_table
    from fivedice import coach, cpu_levels, proficiency, strategy_table  # noqa: F401

    _coach = coach
    _cpu_levels = cpu_levels
    _strategy_table = strategy_table

BUTTONS = 10
BUTTON_NAMES = ("hold1", "hold2", "hold3", "hold4", "hold5", "roll", "up", "down", "ok", "back")
MODE_NAMES = ("menu", "turn", "pick", "card", "over", "help", "test", "records", "initials", "proftest")

ROLL_ANIM_MS = const(350)  # a ROLL press tumbles this long before the dice land
FRAME_MS = const(70)  # animation frame period
TOAST_MS = const(1800)
CPU_STEP_MS = const(650)
SAVE_SOON_MS = const(1000)  # a hold is saved this long after the last one (not a flash write per press)
DOTS_MS = const(300)  # "CPU playing..." dots step

_SAVE_MAGIC = const(0xA8)  # record format 2: settings + game + CRC-32 over both
# A seat byte (3-6): bits 0-1 the menu's seat (the next game's), bits 4-5 the game in progress's own seat,
# bit 6 set when bits 4-5 are there (a save from before them: the game was seated as the menu says).
_SEATED = const(0x40)
_OLD_SAVE_MAGIC = const(0xA7)  # format 1 (8-bit checksum, settings unchecked): refused, kept aside
_SAVE_HEAD = const(7)
_CPU_ROLL = const(1)  # cpu.ROLL
_GOOD = const(1)  # cpu_levels.GOOD, PERFECT
_PERFECT = const(2)
_PIXEL_FRAME_MS = const(10)  # the loop wakes this often while the pixels animate
_WIDE = const(7776)  # coach.WIDE


class App:
    def __init__(
        self, display, pixels=None, buzzer=None, dice=None, store=None, accel=False, cpu_step_ms=CPU_STEP_MS, tables=None,
        battery=None
    ):
        from fivedice import coach_buffers
        from fivedice.rng import Dice

        # The coaches' big arrays first, on the heap as start-up left it (the largest blocks it will ever have),
        # shared by every coach (the table's and the good CPU's) in every game, resume and seat change.
        self._groups = coach_buffers.new_groups()
        self._work = coach_buffers.new_work()
        load_game_code()
        self.fb = display
        self.px = None
        if pixels is not None:
            from fivedice.pixels_view import PixelsView

            self.px = PixelsView(pixels, len(pixels) if hasattr(pixels, "__len__") else 5)
        self.snd = sounds.Sounder(buzzer) if buzzer is not None else None
        self._cue = None  # a sound cue waiting for the next pass (cue)
        self.dice = dice if dice is not None else Dice()
        self.store = store
        self.accel = accel
        self.cpu_step_ms = cpu_step_ms
        # Optimal-strategy tables (make tables): `tables` is the folder holding <rule set id>.fdt.
        # Without one for the rule set: no hint, no proficiency, CPU tops out at "good".
        self.tables = tables
        self.tables_mask = 0  # bit i = rule set i has a table
        if tables is not None:
            for rs in _rules.ALL:
                if self._table_path_ok(rs):
                    self.tables_mask |= 1 << rs.index
        self.table = None
        self.coach = None  # the coach on the table in this game: hints, proficiency, the perfect CPU
        self._table_coach = None  # that coach's object, kept for every game (retarget)
        self._good = None  # the "good" CPU player, kept for every game
        self._levels = 0  # bit k: the code of CPU kind k (1 + level: 1 easy, 2 good) is loaded (need_levels)
        from fivedice.proficiency import Proficiency

        self._meters = (Proficiency(None), Proficiency(None), Proficiency(None), Proficiency(None))  # per seat
        self.players = [None, None, None, None]  # per seat: None (human) or a CPU player
        self.seated = bytearray(4)  # per seat: the kind the game in progress was seated with
        self.prof = [None, None, None, None]  # per human seat with a table: its meter (_meters)
        self.hint_kind = 0  # what the last hint said (coach.KEEP/SCORE), shown until the next action
        self.hint_value = 0
        self.top3 = _zeros("l", 13)  # the last hint's best three choices (coach.choices, TOP_LEN), shown with it
        self.par_x100 = -1  # the player to move's par (expected final total from the turn's start) x 100; -1: none
        self._lent = False  # the table's coach is the proficiency test's while it is open (test_coach)
        # settings
        self.rules_i = 0
        self.nplayers = 2
        self.kinds = bytearray(4)  # per seat: 0 human, else 1 + CPU level (easy, good, perfect)
        self.kinds[1] = 1
        self.kinds[2] = 1
        self.kinds[3] = 1
        self.muted = False
        self.pw = _power.Power(display, battery)  # dim and sleep timers (settings pw.dim_i, pw.sleep_i), battery
        # the screens (fivedice.screens): each draws itself and handles its presses; `mode` is the current one
        self.menu = Menu()
        self.picker = Picker()
        self.card = Card()
        # None: a rarely used screen (help, self-test, records, initials, proficiency test), imported when
        # entered and dropped when left (_open)
        self.screens = [self.menu, Turn(), self.picker, self.card, Over(), None, None, None, None, None]
        self.mode = M_MENU
        self.screen = self.menu
        self.cursor = 0  # the current screen's list cursor and scroll, reset when the screen changes
        self.top = 0
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
        self.save_due = False  # a change (a hold) waits to be saved at save_at
        self.save_at = 0
        self.save_error = ""  # why the save could not be read, for the firmware's log
        self.table_error = ""  # why the strategy table was dropped, for the firmware's log
        self.records_error = ""  # why the records could not be read (they were kept aside), for the log
        self.to_beat = 0  # a solo game: the best score of its rule set in the records (0: none)
        self._fresh = True  # no tick seen yet: deadlines set so far are re-based on the first one
        self._warming = False  # the menu's coach builds its final-roll groups, a slice a pass (Coach.warm)
        self.menu.build(self)
        self.need_levels(self.kinds, self.nplayers)
        self._load()
        if self.game is None:  # the menu's table and coach now, so that "New game" finds them
            rs = _rules.ALL[self.rules_i]
            table = self._open_table(rs)
            if table is not None:
                self._table_coach_for(rs, table)
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
        return g is not None and not g.over and self.seated[g.player] != 0

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

    def _seat(self, p, k, rs, table):
        """Seat p plays kind k (0 human, else 1 + CPU level): a CPU level, or a human whose decisions the coach
        (if any) counts from now on."""
        if k:
            self._seat_cpu(p, k, rs, table)
            return
        if self.coach is not None:
            pr = self._meters[p]
            pr.coach = self.coach
            pr.reset()
            self.prof[p] = pr
        self.seated[p] = 0

    def _seat_cpu(self, p, k, rs, table):
        """Seat p plays CPU kind k (1 + level); a perfect seat without the table plays good, and the settings
        and the game's seating say so (a saved "perfect" seat on a board without the table, a table lost)."""
        level = k - 1
        if level == _PERFECT and table is None:
            level = _GOOD
            if self.kinds[p] == k:
                self.kinds[p] = 1 + level
        self.seated[p] = 1 + level
        self.players[p] = self._level_player(level, rs, table)

    def _level_player(self, level, rs, table):
        """The CPU player of `level` for this game: the one another seat already plays, else a new one."""
        for q in range(4):
            pl = self.players[q]
            if pl is not None and pl.level == level:
                return pl
        if level == _GOOD:
            return self._good_player(rs)
        return _cpu_levels.make(rs, level, table, self.coach)

    def need_levels(self, seats, n):
        """Have loaded the code of the CPU levels the first n of `seats` name and the game in progress plays,
        and no other: when the app is built, when a save is read, as the menu's cursor leaves a changed seat
        line. So "New game" and a resume find it loaded, and a level stepped past in the menu does not stay."""
        # seats: as the save's seat bytes, bits 0-1 and 4-5 each 0 human, else 1 + level; easy is fivedice.cpu,
        # good fivedice.good_valuer, perfect needs only the coach
        want = 0
        for i in range(n):
            v = seats[i]
            want |= 1 << (v & 3) | 1 << ((v >> 4) & 3)
        g = self.game
        if g is not None:
            for i in range(g.players):
                want |= 1 << self.seated[i]
        if want & 2 and not self._levels & 2:
            _lazy.load("easy")
        if want & 4 and not self._levels & 4:
            _lazy.load("good")
        if self._levels & 2 and not want & 2:
            _lazy.drop("easy")  # no seat plays easy: its code goes (nothing holds an easy player now)
        if self._levels & 4 and not want & 4:
            self._good = None  # no seat plays good: the good player and its valuer's code go
            _lazy.drop("good")
        self._levels = want & 6

    def levels(self):
        """CPU levels on offer for the menu's rule set: easy and good, and perfect with its table."""
        return 3 if (self.tables_mask >> self.rules_i) & 1 else 2  # cpu_levels.available_levels

    def has_coach(self):
        return self.coach is not None

    def enter(self, mode):
        """Switch to screen `mode` (M_*): the old one leaves, the new one enters with its cursor at the top."""
        self.screen.leave(self)
        self.mode = mode
        self.screen = self.screens[mode] or self._open(mode)
        self.cursor = 0
        self.top = 0
        self.screen.enter(self)
        self.dirty = True

    def _open(self, mode):
        """A screen that is not kept loaded (fivedice.lazy): its module is imported now (an allocation) and
        dropped when it is left. Presses and frames inside it allocate nothing."""
        if mode == M_HELP:
            return _lazy.load("help").Help()
        if mode == M_RECORDS:
            return _lazy.load("records_screen").RecordsScreen()
        if mode == M_INITIALS:
            return _lazy.load("initials").Initials()
        if mode == M_PROF:
            return _lazy.load("proftest").ProfTestScreen()
        return _lazy.load("selftest").SelfTest()

    def show_card(self, back):
        """The scorecard, returning to screen `back` (the dice, or game over) on OK/BACK."""
        self.card.back = back
        self.enter(M_CARD)

    def scroll(self, rows):
        """Keep the cursor inside the `rows` visible lines."""
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + rows:
            self.top = self.cursor - rows + 1

    def set_muted(self, on):
        self.muted = on
        if self.snd is not None:
            self.snd.mute = on

    def again(self):
        """After a game: the next one with the same rule set, players and seats."""
        g = self.game
        self.rules_i = g.rs.index
        self.nplayers = g.players
        for p in range(g.players):
            self.kinds[p] = self.seated[p]
        self.new_game()

    def new_game(self):
        """Start a game with the menu's settings (the save slot is overwritten from now on)."""
        rs = _rules.ALL[self.rules_i]
        self._compact()  # the game before is finished (and counted): the least to lose in a rewrite
        self.game = _game.Game(rs, self.nplayers, self.dice)
        self.save_bad = False
        self.five = False
        self.toast = 0
        self.hint_kind = 0
        self.par_x100 = -1
        self._seat_players(rs, self.kinds)  # may say "Strategy table bad"
        self._best_to_beat()
        self._sync_pixels()
        self.thinking = True
        self.enter(M_TURN)
        self.cpu_at = ticks_add(self.now, self.cpu_step_ms)
        self._save_next()

    # -- the coach (issue #4) ----------------------------------------------------------
    def _table_path(self, rs):
        return self.tables + "/" + rs.id + ".fdt"

    def _table_path_ok(self, rs):
        try:
            import os

            os.stat(self._table_path(rs))
            return True
        except (OSError, ImportError):
            return False

    def _open_table(self, rs):
        """The strategy table for rs, or None (none on this board, or unreadable: said on screen)."""
        if self.table is not None:
            if self.table.rs is rs and (self.tables_mask >> rs.index) & 1:
                return self.table  # the same table again: its buffers, and the blocks already checked, kept
            self.table.f.close()
            self.table = None
        if not (self.tables_mask >> rs.index) & 1:
            return None
        f = None
        try:
            f = open(self._table_path(rs), "rb")
            self.table = _strategy_table.StrategyTable(f, rs)
        except (OSError, ValueError) as e:
            if f is not None:
                f.close()
            self.table_error = str(e)
            self.tables_mask &= ~(1 << rs.index)
            self.message(view.T_TABLE_BAD)
        return self.table

    def _seat_players(self, rs, seats):
        """Seat the CPU players, the coach and the proficiency meters for a game of rule set rs, seat p
        playing seats[p] (0 human, else 1 + CPU level); they are the objects of the game before, moved on."""
        table = self._open_table(rs)
        self.coach = self._table_coach_for(rs, table) if table is not None else None
        for p in range(4):
            self.prof[p] = None
            self.players[p] = None  # one player per level, shared by the seats of that level (_level_player)
            self.seated[p] = 0
        for p in range(self.game.players):
            self._seat(p, seats[p], rs, table)

    def _table_coach_for(self, rs, table):
        """The coach on `table`: the one kept from the last game, retargeted, else a new one on the arrays
        the app allocated at start-up (~7 KB on a 32-bit board, reused by every game)."""
        if self._table_coach is None:
            self._table_coach = _coach.Coach(rs, table, self._groups, self._work)
        else:
            self._table_coach.retarget(rs, table)
        return self._table_coach

    def _good_player(self, rs):
        """The "good" CPU for rule set rs: one player (and its coach's buffers) for every game."""
        if self._good is None:
            self._good = _cpu_levels.make(rs, _GOOD, None, None, self._groups, self._work)
        else:
            self._good.prepare(rs)
        return self._good

    def _coach_lost(self, why="a strategy table read failed"):
        """A table read failed mid-game (damaged flash, a truncated copy): say "Strategy table bad", drop
        the coach for the rest of the game (no hints, no proficiency, perfect CPU seats play "good") and
        go on. The save is not touched; the next game of this rule set is offered without the table."""
        self.coach = None
        self.hint_kind = 0
        self.par_x100 = -1
        self.thinking = True
        good = None
        for p in range(4):
            self.prof[p] = None
            pl = self.players[p]
            if pl is not None and getattr(pl, "level", -1) == _PERFECT:
                if good is None:
                    good = self._good_player(self.game.rs)
                self.players[p] = good
                self.seated[p] = 1 + _GOOD
        self.table_lost(self.game.rs, why)

    def table_lost(self, rs, why="a strategy table read failed"):
        """rs's table failed a read (mid-game, or in the proficiency test): "Strategy table bad", and no game nor
        test with it again."""
        self.table_error = why
        self._close_table()
        self.tables_mask &= ~(1 << rs.index)
        self.message(view.T_TABLE_BAD)

    def _close_table(self):
        if self.table is not None:
            try:
                self.table.f.close()
            except OSError:
                pass
            self.table = None

    # -- the proficiency test (fivedice.screens.proftest) ---------------------------------------------
    def offers_test(self):
        """The menu offers the proficiency test: this install has it and the menu's rule set has a table."""
        return _features.PROFTEST and (self.tables_mask >> self.rules_i) & 1

    def test_coach(self, rs):
        """The table's coach on rule set rs, lent to the proficiency test until test_done(); None when rs has no
        usable table (said on screen). A game in progress gets it back, retargeted, at test_done()."""
        table = self._open_table(rs)
        if table is None:
            return None
        self._lent = True
        return self._table_coach_for(rs, table)

    def test_done(self):
        """The test is left: a game in progress has its table and coach back (its turn solved again)."""
        if not self._lent:
            return
        self._lent = False
        g = self.game
        if g is None:
            return
        self.hint_kind = 0
        self.thinking = True  # the test had the shared arrays: the game's turn (a CPU's too) is solved again
        if self.coach is None:
            return
        table = self._open_table(g.rs)
        if table is None:
            self._coach_lost(self.table_error or "the strategy table could not be opened again")
            return
        self._table_coach_for(g.rs, table)

    def hint(self):
        """Ask the coach for the best action now; shown on the turn screen until the next action."""
        g = self.game
        if self.coach is None:
            return 0
        if g.rolls == 0:
            return self.refuse(_game.NOT_ROLLED)
        try:
            self.coach.choices(g.cards[g.player], g.dice, g.rolls, g.held, self.top3)  # the best three, valued
            k = self.coach.kind
        except OSError:
            self._coach_lost()
            return 0
        self.hint_kind = k
        self.hint_value = self.coach.value
        return self._ok()

    # -- turn ------------------------------------------------------------------------
    def start_roll(self, ms=ROLL_ANIM_MS):
        """Tumble the unheld dice; they land after `ms` (0: when the shake stops)."""
        g = self.game
        r = g.check_roll()
        if r:
            return self.refuse(r)
        pr = self.prof[g.player]
        if pr is not None and g.rolls:
            try:
                pr.before_roll(g)  # the keep decision, valued before the dice move
            except OSError:
                self._coach_lost()
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
        pr = self.prof[player]
        if pr is not None:
            try:
                pr.before_score(g, box)
            except OSError:
                self._coach_lost()
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
        if self.dirty and not self._held:  # a frame is due (a press's): drawn first, the slow work next pass
            self._held = True  # (at most one pass: a driver that ticks without drawing still gets the work)
        else:
            self._held = False
            self._work_slice(now_ms)
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
        d = self.dirty
        return d

    def _work_slice(self, now_ms):
        """A pass's slow work, in a pass that draws no frame (issue 24): the coach's slice, a CPU move, the
        save, the sound step. A press's frame thus never waits for them, and a save (a flash write) and a slice
        never share a pass: each fits the 50 ms a pass may take on a Pico (make bench-ai)."""
        if self.save_due and ticks_diff(now_ms, self.save_at) >= 0:
            self._save()
        elif self.thinking:
            self.thinking = self._think()  # one slice of the turn solve a pass: buttons and animation stay live
        elif self._warming:  # the coach's final-roll groups, a slice a pass while no game is on (Coach.warm)
            self._warming = self.game is None and not self._table_coach.warm()
        elif self.mode == M_TURN and not self.tumbling and self.cpu_turn() and ticks_diff(now_ms, self.cpu_at) >= 0:
            self._cpu_step()
        if self.snd is not None:
            if self._cue:
                self.snd.play(self._cue, now_ms)
                self._cue = None
            self.snd.update(now_ms)

    def _think(self):
        """One slice of the turn solve (coach.work) for the player to move: a CPU seat's own coach, or the
        table's coach for a human (hints, proficiency). True while it is unfinished."""
        g = self.game
        if g is None or g.over or self._lent:
            return False  # (the proficiency test has the coach and the arrays: test_done() sets thinking again)
        pl = self.players[g.player]
        c = self.coach if pl is None else getattr(pl, "coach", None)
        if c is None:
            return False
        try:
            card = g.cards[g.player]
            if not c.work(card):
                return True
            if pl is None:  # a human with the table: par for the turn screen (one table read, once a turn)
                self.par_x100 = (card.upper() + card.lower() + card.bonus()) * 100 + c.to_points_x100(
                    c.start_value(card) * _WIDE)
                self.dirty = True
            return False
        except OSError:
            self._coach_lost()  # perfect seats now play "good": their turn is solved next
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
        cpu = self.players[g.player]
        self.cpu_at = ticks_add(self.now, self.cpu_step_ms)
        try:
            a = cpu.decide(g)
        except OSError:
            self._coach_lost()
            cpu = self.players[g.player]  # "good" now
            a = cpu.decide(g)
        if a == _CPU_ROLL:
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
            _power.draw_battery(self.fb, self.pw.level, 114, 1, 0)  # in the menu's title bar
        self.fb.show()
        self.dirty = False

    # -- records (high scores, stats) ----------------------------------------------------
    def _keeps_records(self):
        """A finished game goes into the records when this install has them (fivedice.features), there is a
        store for them and a human played."""
        if not _features.RECORDS or self.store is None or not hasattr(self.store, "write_records"):
            return False
        for p in range(self.game.players):
            if not self.seated[p]:
                return True
        return False

    def _best_to_beat(self):
        """A solo human game: the best score of its rule set in the records, shown on the dice screen."""
        self.to_beat = 0
        g = self.game
        if g is None or g.players != 1 or self.seated[0] or not self._keeps_records():
            return
        records = _lazy.load("records")
        recs = records.Records()
        if self.read_records(records, recs) and recs.entries(g.rs.index):
            self.to_beat = recs.score(g.rs.index, 0)
        _lazy.drop("records")

    def read_records(self, records, recs):
        """Fill `recs` from the store (`records`: the fivedice.records module, loaded by the caller). Unreadable
        records are kept aside by records.load and said once ("Records bad: kept"); False then."""
        why = records.load(self.store, recs)
        if why is None:
            return True
        self.records_error = why
        self.message(view.T_RECORDS_BAD)
        return False

    def _compact(self):
        """At "New game", where it has least to lose, let a log store rewrite itself if it must (the
        CircuitPython nvm log: see README, Saves and power cuts)."""
        st = self.store
        if st is not None and hasattr(st, "compact_due"):
            try:
                if st.compact_due():
                    st.compact()
            except OSError:
                pass

    # -- saves ---------------------------------------------------------------------
    def save_bytes(self):
        """The save record: 7 bytes of settings, the game's bytes (if any), CRC-32 over all of it."""
        gb = self.game.to_bytes() if self.game is not None else b""
        n = _SAVE_HEAD + len(gb)
        rec = bytearray(n + _game.CRC_BYTES)
        rec[0] = _SAVE_MAGIC
        rec[1] = self.rules_i
        rec[2] = self.nplayers | self.pw.dim_i << 3 | self.pw.sleep_i << 5  # bits 0-2, 3-4, 5-6; 7: muted
        for i in range(4):
            rec[3 + i] = self.kinds[i] | ((_SEATED | self.seated[i] << 4) if self.game is not None else 0)
        if self.muted:
            rec[2] |= 0x80
        rec[_SAVE_HEAD:n] = gb
        _game.put_crc(rec, n)
        return bytes(rec)

    def _save_soon(self):
        """Save a small change (a hold) once presses pause, not a flash write per press."""
        if self.store is not None:
            self.save_due = True
            self.save_at = ticks_add(self.now, SAVE_SOON_MS)

    def _save_next(self):
        """Save in the next pass, after the frame that shows the change (a save never delays a frame)."""
        if self.store is not None:
            self.save_due = True
            self.save_at = self.now

    def setting_saved(self):
        """A menu setting changed: saved with the next write (soon, once presses pause); never over a save
        that could not be read (kept as it is until a new game starts)."""
        if not self.save_bad:
            self._save_soon()

    def flush_save(self):
        """Write a change still waiting to be saved (call before the board sleeps or powers down)."""
        if self.save_due:
            self._save()

    def _save(self):
        self.save_due = False
        if self.store is None:
            return
        try:
            self.store.write(self.save_bytes())
        except OSError:
            self.message(view.T_SAVE_FAILED)

    def _load(self):
        if self.store is None:
            return
        try:
            data = self.store.read()
        except OSError:
            data = None
        if data is None:
            return  # no save: a first start
        if len(data) >= _SAVE_HEAD:  # the levels its seats name (the menu's and the game's), before the restore
            seats = bytearray(4)
            for i in range(4):
                seats[i] = data[3 + i] & (0x33 if i < (data[2] & 7) else 0x30)
            self.need_levels(seats, 4)
        try:
            self.restore(data)
        except ValueError as e:
            # Keep the unreadable save as it is: nothing is written until a new game starts.
            self.save_bad = True
            self.save_error = str(e)
            self.game = None
            self.message(view.T_SAVE_BAD)
            if hasattr(self.store, "set_aside"):
                self.store.set_aside()
        _lazy.drop("save_check")  # the checks a save passes: not needed again until the next load

    def restore(self, data):
        """Settings and the game in progress from save_bytes(); ValueError (a plain message) if the record
        is damaged or describes a game no play can reach. Nothing is changed unless it is valid."""
        if not data:
            raise ValueError("the save is empty")
        if data[0] == _OLD_SAVE_MAGIC:
            raise ValueError("the save is from an older fivedice (format 1)")
        if len(data) < _SAVE_HEAD + _game.CRC_BYTES or data[0] != _SAVE_MAGIC:
            raise ValueError("not a fivedice save (%d bytes)" % len(data))
        if not _game.crc_ok(data):
            raise ValueError("the save is corrupt (CRC-32 mismatch)")
        end = len(data) - _game.CRC_BYTES
        np = data[2] & 0x07
        dim_i = (data[2] >> 3) & 3  # 0 in a save from before the power settings: the defaults
        sleep_i = (data[2] >> 5) & 3
        bad = data[1] >= len(_rules.ALL) or not 1 <= np <= 4 or dim_i >= _power.CHOICES or sleep_i >= _power.CHOICES
        for i in range(3, 7):
            if data[i] & 0x8C or (data[i] & 0x30 and not data[i] & _SEATED):
                bad = True
        if bad:
            raise ValueError("the save has impossible settings")
        g = _game.decode(data[_SAVE_HEAD:end], self.dice) if end > _SAVE_HEAD else None
        self.rules_i = data[1]
        self.nplayers = np
        self.muted = bool(data[2] & 0x80)
        self.pw.dim_i = dim_i
        self.pw.sleep_i = sleep_i
        if self.snd is not None:
            self.snd.mute = self.muted
        seats = bytearray(4)  # the game's own seats
        for i in range(4):
            b = data[3 + i]
            self.kinds[i] = b & 3
            seats[i] = (b >> 4) & 3 if b & _SEATED else b & 3
        self.game = g
        self.hint_kind = 0
        self.par_x100 = -1
        if g is not None:
            self._seat_players(g.rs, seats)  # the menu's rules, players and seats are the next game's
            self._best_to_beat()
            self._sync_pixels()
            self.thinking = True
        self.enter(M_MENU)
        self._fresh = True  # deadlines are re-based on the first tick after a resume
