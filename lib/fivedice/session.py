"""The game in progress: its actions (new game, roll, land, hold, score, hint, the turn solve, the
CPU's step) and its save (the record written after each of them, read back at start-up). Plain
functions of the app, which the App lends as its methods (app.new_game(), app.hint(), ...)."""
# Every screen and the CPU act through this one owner, while the state the screens draw (app.game,
# app.tumbling, app.hint_kind, app.top3, ...) stays on the App. A name with an underscore is lent as
# the App's own (app._think, app._save ...: a test, a bench or a subclass wraps those) or a helper
# of this module. The save record's layout, writing and reading: fivedice.savefile (its reader only
# at start-up).
from fivedice.compat import collect, const
from fivedice import features as _features
from fivedice import game as _game
from fivedice import lazy as _lazy
from fivedice import messages as _msg
from fivedice import rules as _rules
from fivedice import savefile as _savefile
from fivedice import scoring as _scoring
from fivedice import sounds as _sounds
from fivedice import screens as _screens
from fivedice.ticks import ticks_add, ticks_diff

_ROLL_ANIM_MS = const(350)  # a ROLL press tumbles this long before the dice land
_FRAME_MS = const(70)  # the tumble's animation frame period
_DOTS_MS = const(300)  # "CPU playing..." dots step
# a hold is saved this long after the last one (not a flash write per press)
_SAVE_SOON_MS = const(1000)
# app.hint_kind: a hint asked while the turn is still being solved, shown when it is
_HINT_DUE = const(-1)
_REWRITE = const(2)  # app.save_due: a log store's rewrite, then the save


# -- the state (on the App: the screens draw it) -----------------------------------------
def setup(app):
    """The game in progress's attributes on the app, none yet (App.__init__)."""
    app.game = None
    app.five = False  # the dice show five of a kind
    app.tumbling = False
    # the player to move has a coach whose turn solve is not finished (tick works it)
    app.thinking = False
    app.dots = 0  # "CPU playing" dots shown (0-3)
    app.land_at = 0  # when the tumbling dice land (0: when the shake stops)
    app.frame = 0  # the tumble's animation frame
    app.next_frame = 0
    app.cpu_at = 0  # the CPU's next step
    app.last_player = 0
    app.save_bad = False  # the save could not be read: kept as it is until a new game
    # a change (a hold) waits to be saved at save_at (_REWRITE: the store's rewrite first)
    app.save_due = False
    app.save_at = 0
    app.save_error = ""  # why the save could not be read, for the firmware's log
    app.to_beat = 0  # a solo game: the best score of its rule set in the records (0: none)


# -- a game starts, or comes back ------------------------------------------------------
def new_game(app):
    """Start a game with the menu's settings (the save slot is overwritten from now on)."""
    s = app.settings
    rs = _rules.ALL[s.rules_i]
    g = app.game
    if g is not None and g.players == s.players:
        g.restart(rs)  # the game before's objects
    else:
        app.game = _game.Game(rs, s.players, app.dice)
    app.save_bad = False
    app.five = False
    app.toast = 0
    app.hint_kind = 0
    app.par_x100 = -1
    app.seats.seat_game(app.game, s.seats)  # may say "Strategy table bad"
    app._best_to_beat()
    _sync_pixels(app)
    app.thinking = True
    app.enter(_screens.M_TURN)
    app.cpu_at = ticks_add(app.now, app.cpu_step_ms)
    _save_next(app)
    if app.save_due and hasattr(app.store, "compact_due"):
        # after the frame, a log store's rewrite (the game before is over: the least
        app.save_due = _REWRITE
        # to lose) in one pass, the new game's save in the next


def again(app):
    """After a game: the next one with the same rule set, players and seats."""
    g = app.game
    s = app.settings
    s.set("rules_i", g.rs.index)
    s.set("players", g.players)
    for p in range(g.players):
        s.set_seat(p, app.seats.seated[p])
    new_game(app)


def _resume_game(app, g, seats):
    """Seat game g (None: none in progress) as the save had it, seat p playing seats[p]; the menu's
    settings, already read, are the next game's."""
    app.game = g
    app.hint_kind = 0
    app.par_x100 = -1
    if g is not None:
        app.seats.seat_game(g, seats)
        app._best_to_beat()
        _sync_pixels(app)
        app.thinking = True
    app.enter(_screens.M_MENU)
    app._fresh = True  # deadlines are re-based on the first tick after a resume


def _ok(app):
    """An action was accepted: no refusal, a new frame."""
    app.last_refusal = 0
    app.dirty = True
    return 0


def _sync_pixels(app):
    if app.px is not None and app.game is not None:
        app.px.set_dice(app.game.dice, app.game.held)


def in_game(app):
    return app.game is not None and not app.game.over


def cpu_turn(app):
    g = app.game
    return g is not None and not g.over and app.seats.seated[g.player] != 0


# -- the game's clock (App.tick, wait_ms and the first event's re-basing) -------------------
def tick(app, now):
    """Every pass: the dice land when due, the tumble's next frame, the "CPU playing" dots."""
    if ticks_diff(now, app.cpu_at) > 0:  # an overdue move (its turn left in the menu) stays due:
        app.cpu_at = now  # never compared across half the tick range, however long it stays awake
    if app.tumbling:
        if app.land_at and ticks_diff(now, app.land_at) >= 0:
            app.land()
        elif ticks_diff(now, app.next_frame) >= 0:
            app.frame += 1
            app.next_frame = ticks_add(now, _FRAME_MS)
            app.dirty = True
    if app.mode == _screens.M_TURN and not app.tumbling and app.cpu_turn():
        k = (now // _DOTS_MS) & 3
        # "CPU playing" and its dots: the computer is at work, not a frozen screen
        if k != app.dots:
            app.dots = k
            app.dirty = True


def work(app, now):
    """The game's slow work in a pass that draws no frame (App.tick; issue 24), one of them a pass:
    the store's rewrite, the save, the coach's slice, the menu's groups, a CPU move. A press's frame
    never waits for them, nor a frame for them: each fits the 50 ms a pass may take on a Pico (make
    bench-frames)."""
    if app.save_due and ticks_diff(now, app.save_at) >= 0:
        # (a rewrite first: the sector erase, ~46 ms on a Pico, alone in its pass; the save next)
        app._save()
    elif app.thinking:
        # one slice of the turn solve a pass: buttons and animation stay live
        app.thinking = app._think()
    # the menu's rule set's final-roll groups while no game
    elif app._warming or app.mode == _screens.M_MENU:
        # is on, a slice a pass (Seats.warm), so that "New game" finds them built
        app._warming = not (app.in_game() or app.seats.warm(_rules.ALL[app.settings.rules_i]))
    elif (
        app.mode == _screens.M_TURN
        and not app.tumbling
        and app.cpu_turn()
        and ticks_diff(now, app.cpu_at) >= 0
    ):
        app._cpu_step()


def wait_ms(app, now, w):
    """The least of w and the ms until the game's next deadline: the landing, the tumble's next
    frame, the save, the CPU's move or the dots' next step."""
    if app.tumbling:
        t = ticks_diff(app.land_at if app.land_at else app.next_frame, now)
        if app.land_at:
            t2 = ticks_diff(app.next_frame, now)
            if t2 < t:
                t = t2
        if t < w:
            w = t
    if app.save_due:
        t = ticks_diff(app.save_at, now)
        if t < w:
            w = t
    if app.mode == _screens.M_TURN and app.cpu_turn():
        t = ticks_diff(app.cpu_at, now)
        d = _DOTS_MS - now % _DOTS_MS  # the "CPU playing" dots' next step
        if d < t:
            t = d
        if t < w:
            w = t
    return w


def rebase(app, now):
    """The game's deadlines set before the first event (App._clock) count from `now`."""
    app.cpu_at = ticks_add(now, app.cpu_step_ms)
    app.next_frame = now
    if app.tumbling and app.land_at:
        app.land_at = ticks_add(now, _ROLL_ANIM_MS)
    if app.save_due:
        app.save_at = now


# -- the coach -------------------------------------------------------------------------
def coach_lost(app, why=None):
    """A table read failed mid-game: the seats drop the coach and play on (Seats.coach_lost); no
    hint nor par is shown, and the turn is solved again for the seats that play good now."""
    app.hint_kind = 0
    app.par_x100 = -1
    app.thinking = True
    app.seats.coach_lost(app.game, why)


def test_done(app):
    """The proficiency test is left: a game in progress has its table and coach back, its turn
    solved again (the test had the coaches' arrays)."""
    if not app.seats.lent:
        return
    if app.game is not None:
        app.hint_kind = 0
        app.thinking = True
    if not app.seats.test_done(app.game):
        app.par_x100 = -1  # the table could not be opened again: the coach is lost (said on screen)


def hint(app):
    """Ask the coach for the best action now; shown on the turn screen until the next action. Asked
    while the turn is still being solved, it comes when the solve is done, a slice a pass (_think):
    no pass solves it all."""
    g = app.game
    coach = app.seats.coach
    if coach is None:
        return 0
    if g.rolls == 0:
        return app.refuse(_game.NOT_ROLLED)
    if app.thinking:
        app.hint_kind = _HINT_DUE
        return _ok(app)
    try:
        # the best three, valued
        coach.choices(g.cards[g.player], g.dice, g.rolls, g.held, app.top3)
        k = coach.kind
    except OSError:
        coach_lost(app)
        return 0
    app.hint_kind = k
    app.hint_value = coach.value
    return _ok(app)


def _think(app):
    """One slice of the turn solve (coach.work) for the player to move (Seats.turn_coach). True
    while it is unfinished."""
    g = app.game
    if g is None or g.over:
        return False
    c = app.seats.turn_coach(g)
    if c is None:
        # (the proficiency test has the coach and the arrays: test_done() sets thinking again)
        return False
    try:
        card = g.cards[g.player]
        if not c.work(card):
            return True
        # a human with the table: par for the turn screen, once a turn
        if app.seats.players[g.player] is None:
            app.par_x100 = c.par_x100(card)
            app.dirty = True
            if app.hint_kind == _HINT_DUE:
                app.thinking = False
                hint(app)  # the hint asked during the solve, now a look-up
        return False
    except OSError:
        coach_lost(app)  # perfect seats now play "good": their turn is solved next
        return True


# -- the turn --------------------------------------------------------------------------
def start_roll(app, ms=_ROLL_ANIM_MS):
    """Tumble the unheld dice; they land after `ms` (0: when the shake stops)."""
    g = app.game
    r = g.check_roll()
    if r:
        return app.refuse(r)
    pr = app.seats.prof[g.player]
    if pr is not None and g.rolls:
        try:
            pr.before_roll(g)  # the keep decision, valued before the dice move
        except OSError:
            coach_lost(app)
    app.hint_kind = 0
    app.tumbling = True
    app.land_at = ticks_add(app.now, ms) if ms else 0
    app.five = False
    if app.px is not None:
        app.px.tumble(True, app.now)
    app.cue(_sounds.ROLL)
    return _ok(app)


def land(app):
    """The dice land: the roll happens now."""
    g = app.game
    app.tumbling = False
    r = g.roll()
    if app.px is not None:
        app.px.tumble(False, app.now)
    _sync_pixels(app)
    if r:
        return app.refuse(r)
    app.dice.top_up()
    app.five = _scoring.five_face() != 0 if g.legal() else False
    if app.five:
        app.cue(_sounds.FIVE_KIND)
        if app.px is not None:
            app.px.celebrate(app.now)
    else:
        app.cue(_sounds.LAND)
    app.cpu_at = ticks_add(app.now, app.cpu_step_ms)
    _save_next(app)  # a restart resumes with these dice: no free re-roll by pulling the battery
    return _ok(app)


def toggle(app, die):
    r = app.game.toggle(die)
    if r:
        return app.refuse(r)
    app.hint_kind = 0
    _sync_pixels(app)
    app.cue(_sounds.HOLD)
    _save_soon(app)  # a restart resumes with these dice held
    return _ok(app)


def score(app, box):
    g = app.game
    player = g.player
    r = g.check_score(box)
    if r:
        return app.refuse(r)
    pr = app.seats.prof[player]
    if pr is not None:
        try:
            pr.before_score(g, box)
        except OSError:
            coach_lost(app)
    app.hint_kind = 0
    app.par_x100 = -1  # the next turn's comes with its solve
    g.score(box)
    app.last_player = player
    app.five = False
    if app.toast != _msg.T_TABLE_BAD:  # a refusal's toast ends; "Strategy table bad" runs its time
        app.toast = 0
    _sync_pixels(app)
    app.thinking = not g.over  # the next player's turn: solve it a slice a pass from now
    if g.over:
        app.cue(_sounds.GAME_OVER)
        _save_next(app)
        # the finished game saved now, before the records are written (Initials.enter): a cut or a
        # reset between resumes it finished, counted once; a save that failed leaves the game
        # uncounted, not twice
        records = _keeps_records(app) and flush_save(app)
        app.enter(_screens.M_INITIALS if records else _screens.M_OVER)
    else:
        app.cue(_sounds.SCORE)
        app.enter(_screens.M_TURN)
        _save_next(app)
    app.cpu_at = ticks_add(app.now, app.cpu_step_ms)
    return _ok(app)


def _cpu_step(app):
    """The CPU player to move decides: set its keep and roll, or score."""
    g = app.game
    cpu = app.seats.players[g.player]
    app.cpu_at = ticks_add(app.now, app.cpu_step_ms)
    try:
        a = cpu.decide(g)
    except OSError:
        coach_lost(app)
        cpu = app.seats.players[g.player]  # "good" now
        a = cpu.decide(g)
    if a == _game.ROLL:
        if g.rolls:
            for i in range(5):
                if ((cpu.keep >> i) & 1) != ((g.held >> i) & 1):
                    g.toggle(i)
            _sync_pixels(app)
        start_roll(app, _ROLL_ANIM_MS)
    else:
        score(app, cpu.box)


# -- the records (high scores, stats) ----------------------------------------------------
def _keeps_records(app):
    """A finished game goes into the records when this install has them (fivedice.features), there
    is a store for them and a human played."""
    if not _features.RECORDS or app.store is None or not hasattr(app.store, "write_records"):
        return False
    for p in range(app.game.players):
        if not app.seats.seated[p]:
            return True
    return False


def _best_to_beat(app):
    """A solo human game: the best score of its rule set in the records, shown on the dice screen.
    """
    app.to_beat = 0
    g = app.game
    if g is None or g.players != 1 or app.seats.seated[0] or not _keeps_records(app):
        return
    rec = _lazy.load("records")
    recs = rec.Records()
    why = rec.load(app.store, recs)
    if why is not None:  # unreadable: kept aside, said once, the reason for the log
        app.records_error = why
        app.message(_msg.T_RECORDS_BAD)
    app.to_beat = rec.best(recs, g.rs.index)
    _lazy.drop("records")


# -- the save --------------------------------------------------------------------------
def save_bytes(app):
    """The save record of the app as it stands (fivedice.savefile)."""
    return _savefile.record(app.settings, app.game, app.seats.seated)


def _save_soon(app):
    """Save a small change (a hold) once presses pause, not a flash write per press."""
    if app.store is not None:
        if not app.save_due:
            app.save_due = True  # (a rewrite still due stays first)
        app.save_at = ticks_add(app.now, _SAVE_SOON_MS)


def _save_next(app):
    """Save in the next pass, after the frame that shows the change (a save never delays a frame).
    """
    if app.store is not None:
        if not app.save_due:
            app.save_due = True
        app.save_at = app.now


def setting_saved(app):
    """A menu setting changed: saved with the next write (soon, once presses pause); never over a
    save that could not be read (kept as it is until a new game starts)."""
    if not app.save_bad:
        _save_soon(app)


def flush_save(app):
    """Write a change still waiting to be saved (call before the board sleeps or powers down). False
    when the save failed."""
    if app.save_due == _REWRITE:
        app._save()
    if app.save_due:
        return app._save()
    return True


def _save(app):
    """The save due now: a log store's rewrite if one is due first, else the record. True when
    written."""
    st = app.store
    if app.save_due == _REWRITE:
        # after "New game"'s first frame, where it has least to lose, a log store rewrites itself if
        # it must (the CircuitPython nvm log: docs/saves.md, Saves and power cuts); the save in the
        # next pass
        app.save_due = True
        try:
            if st.compact_due():
                st.compact()
        except OSError:
            pass
        return
    app.save_due = False
    if st is None:
        return False
    try:
        st.write(save_bytes(app))
    except OSError:
        app.message(_msg.T_SAVE_FAILED)
        return False
    return True


def begin(app):
    """At start-up: the saved game resumed, else the menu's rule set's table opened and its coach
    built, so that "New game" finds them (and the menu builds the final-roll groups a slice a pass:
    App._warming)."""
    app._load()
    if app.game is None:
        rs = _rules.ALL[app.settings.rules_i]
        table = app.seats.open_table(rs)
        if table is not None:
            app.seats.table_coach(rs, table)
            app._warming = True


def _load(app):
    """Read the save back at start-up. fivedice.savefile.decode reads and checks it and is dropped
    before the game is seated: its table and coach take the room that code had, and a board does not
    hold it in play. An unreadable save is kept as it is (set aside where the store can), said on
    screen ("Save unreadable: kept"), and nothing is written over it until a new game starts."""
    if app.store is None:
        return
    try:
        data = app.store.read()
    except OSError:
        data = None
    if data is None:
        return  # no save: a first start
    seats = bytearray(4)
    if _savefile.levels(data, seats):  # the CPU levels its seats name: their code first
        app.seats.need_levels(seats, 4, None)
    got = None
    try:
        got = _lazy.load("save_decode").read(data, app.settings, app.dice)
    except ValueError as e:
        app.save_bad = True
        app.save_error = str(e)
        app.game = None
        app.message(_msg.T_SAVE_BAD)
        if hasattr(app.store, "set_aside"):
            app.store.set_aside()
    _lazy.drop("save_decode")
    collect()  # (on a board: its code's room is free again before the game is seated)
    if got is not None:
        _resume_game(app, got[0], got[1])
