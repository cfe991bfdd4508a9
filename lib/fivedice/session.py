"""The game in progress (class Session): its state (the game, the dice's tumble, the CPU's step, the
hint, the save's timing), its actions (new game, roll, land, hold, score, hint, the turn solve, the
CPU's step) and its save (the record written after each of them, read back at start-up). It shows
nothing itself: it reports what happened (a turn to play, a game over, a resume) to the router
(App.report), which chooses the screen."""
# The App is its `ui`: the clock (ui.now), the frame flag (ui.dirty), the message line (ui.message,
# ui.refuse, ui.accept), the sound (ui.cue) and ui.report. The screens draw what this
# object holds (app.session). The save record's layout, writing and reading: fivedice.savefile (its
# reader only at start-up).
from fivedice.compat import collect, const, heap_lock, heap_unlock
from fivedice import features as _features
from fivedice import game as _game
from fivedice import lazy as _lazy
from fivedice import messages as _msg
from fivedice import rules as _rules
from fivedice import savefile as _savefile
from fivedice import scoring as _scoring
from fivedice import sounds as _sounds
from fivedice.ticks import ticks_add, ticks_diff

_ROLL_ANIM_MS = const(350)  # a ROLL press tumbles this long before the dice land
_FRAME_MS = const(70)  # the tumble's animation frame period
_DOTS_MS = const(300)  # "CPU playing..." dots step
# a hold is saved this long after the last one (not a flash write per press)
_SAVE_SOON_MS = const(1000)
# hint_kind: a hint asked while the turn is still being solved, shown when it is
_HINT_DUE = const(-1)
_REWRITE = const(2)  # save_due: a log store's rewrite, then the save
# what happened, reported to the router (App.report, which states them again; private here: no
# name in the module's dict)
_TURN = const(1)  # a game started or a box was scored: the next turn is on
_OVER = const(2)  # the game is over
_OVER_RECORDS = const(3)  # the game is over and goes into the records
_RESUMED = const(4)  # the saved game came back at start-up


class Session:
    def __init__(self, ui, px, store, dice, cpu_step_ms, top3):
        self.ui = ui
        self.px = px  # the pixels (fivedice.pixels_view) or None
        self.store = store
        self.dice = dice
        self.cpu_step_ms = cpu_step_ms
        # the App's, set once they are made (they need this object first)
        self.settings = self.seats = None
        self.game = None
        self.five = False  # the dice show five of a kind
        self.tumbling = False
        # the player to move has a coach whose turn solve is not finished (tick works it)
        self.thinking = False
        # the menu's rule set's final-roll groups are being built, a slice a pass
        self.warming = False
        self.dots = 0  # "CPU playing" dots shown (0-3)
        self.land_at = 0  # when the tumbling dice land (0: when the shake stops)
        self.frame = 0  # the tumble's animation frame
        self.next_frame = 0
        self.cpu_at = 0  # the CPU's next step
        self.last_player = 0
        # what the last hint said (coach.KEEP/SCORE), shown until the next action; -1: asked
        self.hint_kind = 0
        self.hint_value = 0
        # the last hint's best three choices (coach.choices, the App's array), shown with it
        self.top3 = top3
        # the player to move's par (expected final total from the turn's start) x 100; -1: none
        self.par_x100 = -1
        self.save_bad = False  # the save could not be read: kept as it is until a new game
        # a change (a hold) waits to be saved at save_at (_REWRITE: the store's rewrite first)
        self.save_due = False
        self.save_at = 0
        self.swept = False  # the heap was collected in the pass before: the save (or rewrite) next
        self.save_error = ""  # why the save could not be read, for the firmware's log
        self.to_beat = 0  # a solo game: the best score of its rule set in the records (0: none)

    # -- a game starts, or comes back ------------------------------------------------------
    def new_game(self, again=False):
        """Start a game with the menu's settings (the save slot is overwritten from now on); again:
        after a game, the next one with its rule set, players and seats (the menu's now)."""
        s = self.settings
        g = self.game
        if again:
            s.set("rules_i", g.rs.index)
            s.set("players", g.players)
            for p in range(g.players):
                s.set_seat(p, self.seats.seated[p])
        rs = _rules.ALL[s.rules_i]
        if g is not None and g.players == s.players:
            g.restart(rs)  # the game before's objects
        else:
            self.game = _game.Game(rs, s.players, self.dice)
        self.save_bad = False
        self.five = False
        self.ui.message(0)
        self.hint_kind = 0
        self.par_x100 = -1
        self.seats.seat_game(self.game, s.seats)  # may say "Strategy table bad"
        self._best_to_beat()
        self._sync_pixels()
        self.thinking = True
        self.ui.report(_TURN)
        self.cpu_at = ticks_add(self.ui.now, self.cpu_step_ms)
        self._save_soon(0)
        if self.save_due and hasattr(self.store, "compact_due"):
            # after the frame, a log store's rewrite (the game before is over: the
            self.save_due = _REWRITE
            # least to lose) in one pass, the new game's save in the next

    def _sync_pixels(self):
        if self.px is not None and self.game is not None:
            self.px.set_dice(self.game.dice, self.game.held)

    def in_game(self):
        return self.game is not None and not self.game.over

    def cpu_turn(self):
        g = self.game
        return g is not None and not g.over and self.seats.seated[g.player] != 0

    # -- the game's clock (App.tick, wait_ms and the first event's re-basing) -------------------
    def tick(self, now, on_turn):
        """Every pass: the dice land when due, the tumble's next frame, the "CPU playing" dots
        (on_turn: the dice are shown)."""
        # an overdue move (its turn left in the menu) stays due:
        if ticks_diff(now, self.cpu_at) > 0:
            # never compared across half the tick range, however long it stays awake
            self.cpu_at = now
        if self.tumbling:
            if self.land_at and ticks_diff(now, self.land_at) >= 0:
                self.land()
            elif ticks_diff(now, self.next_frame) >= 0:
                self.frame += 1
                self.next_frame = ticks_add(now, _FRAME_MS)
                self.ui.dirty = True
        if on_turn and not self.tumbling and self.cpu_turn():
            k = (now // _DOTS_MS) & 3
            # "CPU playing" and its dots: the computer is at work, not a frozen screen
            if k != self.dots:
                self.dots = k
                self.ui.dirty = True

    def work(self, now, on_turn, on_menu):
        """The game's slow work in a pass that draws no frame (App.tick; issue 24), one of them a
        pass: the store's rewrite, the save, the coach's slice, the menu's groups, a CPU move
        (on_turn: the dice are shown; on_menu: the menu is). A press's frame never waits for them,
        nor a frame for them: each fits the 50 ms a pass may take on a Pico (make bench-frames)."""
        if self.save_due and ticks_diff(now, self.save_at) >= 0:
            if not self.swept:
                # the heap collected in a pass of its own first: a write's buffers then take no
                # collection inside its pass (with 64 KB taken on a MicroPython Pico, a save that
                # collected took 60-66 ms; a collection alone is well under the 50 ms of a pass)
                self.swept = True
                collect()
                return
            self.swept = False
            # a rewrite first (a sector erase, ~46 ms on a Pico) alone in its pass; the save next
            self._save()
        elif self.thinking:
            # one slice of the turn solve a pass: buttons and animation stay live
            self.thinking = self._think()
        elif self.warming or on_menu:
            # the menu's rule set's final-roll groups while no game is on, a slice a pass
            # (Seats.warm), so that "New game" finds them built
            rs = _rules.ALL[self.settings.rules_i]
            self.warming = not (self.in_game() or self.seats.warm(rs))
        elif on_turn and not self.tumbling and self.cpu_turn():
            if ticks_diff(now, self.cpu_at) >= 0:
                self._cpu_step()

    def wait_ms(self, now, w, on_turn):
        """The least of w and the ms until the game's next deadline: the landing, the tumble's next
        frame, the save, the CPU's move or the dots' next step (on_turn: the dice are shown)."""
        if self.tumbling:
            t = ticks_diff(self.land_at if self.land_at else self.next_frame, now)
            if self.land_at:
                t2 = ticks_diff(self.next_frame, now)
                if t2 < t:
                    t = t2
            if t < w:
                w = t
        if self.save_due:
            t = ticks_diff(self.save_at, now)
            if t < w:
                w = t
        if on_turn and self.cpu_turn():
            t = ticks_diff(self.cpu_at, now)
            d = _DOTS_MS - now % _DOTS_MS  # the "CPU playing" dots' next step
            if d < t:
                t = d
            if t < w:
                w = t
        return w

    def rebase(self, now):
        """The game's deadlines set before the first event (App._clock) count from `now`."""
        self.cpu_at = ticks_add(now, self.cpu_step_ms)
        self.next_frame = now
        if self.tumbling and self.land_at:
            self.land_at = ticks_add(now, _ROLL_ANIM_MS)
        if self.save_due:
            self.save_at = now

    # -- the coach -------------------------------------------------------------------------
    def coach_lost(self, why=None):
        """A table read failed mid-game: the seats drop the coach and play on (Seats.coach_lost); no
        hint nor par is shown, and the turn is solved again for the seats that play good now."""
        self.hint_kind = 0
        self.par_x100 = -1
        self.thinking = True
        self.seats.coach_lost(self.game, why)

    def test_done(self):
        """The proficiency test is left: a game in progress has its table and coach back, its turn
        solved again (the test had the coaches' arrays)."""
        if not self.seats.lent:
            return
        if self.game is not None:
            self.hint_kind = 0
            self.thinking = True
        if not self.seats.test_done(self.game):
            # the table could not be opened again: the coach is lost (said on screen)
            self.par_x100 = -1

    def hint(self):
        """Ask the coach for the best action now; shown on the turn screen until the next action.
        Asked while the turn is still being solved, it comes when the solve is done, a slice a pass
        (_think): no pass solves it all."""
        g = self.game
        coach = self.seats.coach
        if coach is None:
            return 0
        if g.rolls == 0:
            return self.ui.refuse(_game.NOT_ROLLED)
        if self.thinking:
            self.hint_kind = _HINT_DUE
            return self.ui.accept()
        try:
            # the best three, valued (as a slice in _think: the heap locked, unlocked if it must)
            card = g.cards[g.player]
            heap_lock()
            try:
                coach.choices(card, g.dice, g.rolls, g.held, self.top3)
                done = True
            except MemoryError:
                done = False
            finally:
                heap_unlock()
            if not done:
                coach.choices(card, g.dice, g.rolls, g.held, self.top3)
            k = coach.kind
        except OSError:
            self.coach_lost()
            return 0
        self.hint_kind = k
        self.hint_value = coach.value
        return self.ui.accept()

    def _think(self):
        """One slice of the turn solve (coach.work) for the player to move (Seats.turn_coach). True
        while it is unfinished."""
        g = self.game
        if g is None or g.over:
            return False
        c = self.seats.turn_coach(g)
        if c is None:
            # (the proficiency test has the coach and the arrays: test_done() sets thinking again)
            return False
        try:
            card = g.cards[g.player]
            was = c.solved
            heap_lock()  # as App.draw: a slice allocates nothing, so a MemoryError is done again
            try:
                done = c.work(card)
            except MemoryError:
                done = None
            finally:
                heap_unlock()
            if done is None:
                done = c.work(card)
            if not done or not was:
                # a slice done (the last one too: par and a hint due wait for the next pass)
                return True
            # a human with the table: par for the turn screen, once
            if self.seats.players[g.player] is None:
                self.par_x100 = c.par_x100(card)
                self.ui.dirty = True
                if self.hint_kind == _HINT_DUE:
                    self.thinking = False
                    self.hint()  # the hint asked during the solve, now a look-up
            return False
        except OSError:
            self.coach_lost()  # perfect seats now play "good": their turn is solved next
            return True

    # -- the turn --------------------------------------------------------------------------
    def start_roll(self, ms=_ROLL_ANIM_MS):
        """Tumble the unheld dice; they land after `ms` (0: when the shake stops)."""
        g = self.game
        r = g.check_roll()
        if r:
            return self.ui.refuse(r)
        pr = self.seats.prof[g.player]
        if pr is not None and g.rolls:
            try:
                pr.before_roll(g)  # the keep decision, valued before the dice move
            except OSError:
                self.coach_lost()
        now = self.ui.now
        self.hint_kind = 0
        self.tumbling = True
        self.land_at = ticks_add(now, ms) if ms else 0
        self.five = False
        if self.px is not None:
            self.px.tumble(True, now)
        self.ui.cue(_sounds.ROLL)
        return self.ui.accept()

    def land(self):
        """The dice land: the roll happens now."""
        g = self.game
        now = self.ui.now
        self.tumbling = False
        r = g.roll()
        if self.px is not None:
            self.px.tumble(False, now)
        self._sync_pixels()
        if r:
            return self.ui.refuse(r)
        self.dice.top_up()
        self.five = _scoring.five_face() != 0 if g.legal() else False
        if self.five:
            self.ui.cue(_sounds.FIVE_KIND)
            if self.px is not None:
                self.px.celebrate(now)
        else:
            self.ui.cue(_sounds.LAND)
        self.cpu_at = ticks_add(now, self.cpu_step_ms)
        # a restart resumes with these dice: no free re-roll by pulling the battery
        self._save_soon(0)
        return self.ui.accept()

    def toggle(self, die):
        r = self.game.toggle(die)
        if r:
            return self.ui.refuse(r)
        self.hint_kind = 0
        self._sync_pixels()
        self.ui.cue(_sounds.HOLD)
        self._save_soon(_SAVE_SOON_MS)  # a restart resumes with these dice held
        return self.ui.accept()

    def score(self, box):
        g = self.game
        player = g.player
        r = g.check_score(box)
        if r:
            return self.ui.refuse(r)
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
        ui = self.ui
        if ui.toast != _msg.T_TABLE_BAD:  # a refusal's message ends; "Strategy table bad" runs on
            ui.toast = 0
        self._sync_pixels()
        self.thinking = not g.over  # the next player's turn: solve it a slice a pass from now
        if g.over:
            self.ui.cue(_sounds.GAME_OVER)
            self._save_soon(0)
            # the finished game saved now, before the records are written (Initials.enter): a cut or
            # a reset between resumes it finished, counted once; a save that failed leaves the game
            # uncounted, not twice
            records = self._keeps_records() and self.flush_save()
            self.ui.report(_OVER_RECORDS if records else _OVER)
        else:
            self.ui.cue(_sounds.SCORE)
            self.ui.report(_TURN)
            self._save_soon(0)
        self.cpu_at = ticks_add(self.ui.now, self.cpu_step_ms)
        return self.ui.accept()

    def _cpu_step(self):
        """The CPU player to move decides: set its keep and roll, or score."""
        g = self.game
        cpu = self.seats.players[g.player]
        self.cpu_at = ticks_add(self.ui.now, self.cpu_step_ms)
        try:
            a = cpu.decide(g)
        except OSError:
            self.coach_lost()
            cpu = self.seats.players[g.player]  # "good" now
            a = cpu.decide(g)
        if a == _game.ROLL:
            if g.rolls:
                for i in range(5):
                    if ((cpu.keep >> i) & 1) != ((g.held >> i) & 1):
                        g.toggle(i)
                self._sync_pixels()
            self.start_roll(_ROLL_ANIM_MS)
        else:
            self.score(cpu.box)

    # -- the records (high scores, stats) ----------------------------------------------------
    def _keeps_records(self):
        """A finished game goes into the records when this install has them (fivedice.features),
        there is a store for them and a human played."""
        if not _features.RECORDS or self.store is None or not hasattr(self.store, "write_records"):
            return False
        for p in range(self.game.players):
            if not self.seats.seated[p]:
                return True
        return False

    def _best_to_beat(self):
        """A solo human game: the best score of its rule set in the records, shown on the dice
        screen."""
        self.to_beat = 0
        g = self.game
        if g is None or g.players != 1 or self.seats.seated[0] or not self._keeps_records():
            return
        rec = _lazy.load("records")
        recs = rec.Records()
        why = rec.load(self.store, recs)
        if why is not None:  # unreadable: kept aside, said once, the reason for the log
            self.ui.records_error = why
            self.ui.message(_msg.T_RECORDS_BAD)
        self.to_beat = rec.best(recs, g.rs.index)
        _lazy.drop("records")

    # -- the save --------------------------------------------------------------------------
    def save_bytes(self):
        """The save record of the session as it stands (fivedice.savefile)."""
        return _savefile.record(self.settings, self.game, self.seats.seated)

    def _save_soon(self, ms):
        """Save `ms` from now: 0 in the next pass, after the frame that shows the change (a save
        never delays a frame); _SAVE_SOON_MS for a small change (a hold), once presses pause (not
        a flash write per press)."""
        if self.store is not None:
            if not self.save_due:
                self.save_due = True  # (a rewrite still due stays first)
            self.save_at = ticks_add(self.ui.now, ms)
            self.swept = False  # collected again right before it

    def setting_saved(self):
        """A menu setting changed: saved with the next write (soon, once presses pause); never over
        a save that could not be read (kept as it is until a new game starts)."""
        if not self.save_bad:
            self._save_soon(_SAVE_SOON_MS)

    def flush_save(self):
        """Write a change still waiting to be saved (call before the board sleeps or powers down).
        False when the save failed."""
        if self.save_due == _REWRITE:
            self._save()
        if self.save_due:
            return self._save()
        return True

    def _save(self):
        """The save due now: a log store's rewrite if one is due first, else the record. True when
        written."""
        st = self.store
        if self.save_due == _REWRITE:
            # after "New game"'s first frame, where it has least to lose, a log store rewrites
            # itself if it must (the CircuitPython nvm log: docs/saves.md, Saves and power cuts);
            # the save in the next pass
            self.save_due = True
            try:
                if st.compact_due():
                    st.compact()
            except OSError:
                pass
            return
        self.save_due = False
        if st is None:
            return False
        try:
            st.write(self.save_bytes())
        except OSError:
            self.ui.message(_msg.T_SAVE_FAILED)
            return False
        return True

    def begin(self):
        """At start-up: the saved game resumed, else the menu's rule set's table opened and its
        coach built, so that "New game" finds them (and the menu builds the final-roll groups a
        slice a pass: warming)."""
        self._load()
        if self.game is None:
            rs = _rules.ALL[self.settings.rules_i]
            table = self.seats.open_table(rs)
            if table is not None:
                self.seats.table_coach(rs, table)
                self.warming = True

    def _load(self):
        """Read the save back at start-up. fivedice.savefile.decode reads and checks it and is
        dropped before the game is seated: its table and coach take the room that code had, and a
        board does not hold it in play. An unreadable save is kept as it is (set aside where the
        store can), said on screen ("Save unreadable: kept"), and nothing is written over it until
        a new game starts."""
        if self.store is None:
            return
        try:
            data = self.store.read()
        except OSError:
            data = None
        if data is None:
            return  # no save: a first start
        seats = bytearray(4)
        if _savefile.levels(data, seats):  # the CPU levels its seats name: their code first
            self.seats.need_levels(seats, 4, None)
        got = None
        try:
            got = _lazy.load("save_decode").read(data, self.settings, self.dice)
        except ValueError as e:
            self.save_bad = True
            self.save_error = str(e)
            self.game = None
            self.ui.message(_msg.T_SAVE_BAD)
            if hasattr(self.store, "set_aside"):
                self.store.set_aside()
        _lazy.drop("save_decode")
        collect()  # (on a board: its code's room is free again before the game is seated)
        if got is None:
            return
        # the game (None: none in progress) seated as the save had it; the menu's settings, read
        # with it, are the next game's
        g = self.game = got[0]
        self.hint_kind = 0
        self.par_x100 = -1
        if g is not None:
            self.seats.seat_game(g, got[1])
            self._best_to_beat()
            self._sync_pixels()
            self.thinking = True
        self.ui.report(_RESUMED)
