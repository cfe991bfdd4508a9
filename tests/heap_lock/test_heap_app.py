"""Heap-lock proof for the device app on the MicroPython unix port: input handling, ticks, CPU moves and
frame rendering of every screen allocate nothing once a game is running.

The display is the real `framebuf.FrameBuffer`; pixels and buzzer are fakes at the hardware boundary;
the entropy source hands back one prebuilt buffer (os.urandom's own new bytes are the boundary's cost).
"""
import micropython

from fivedice import app as A
from fivedice.rng import Dice
from heaplock import Display


class Pixels:
    def __init__(self):
        self.buf = bytearray(15)
        self.shows = 0

    def __len__(self):
        return 5

    def __setitem__(self, i, c):  # c: 0xRRGGBB
        self.buf[3 * i] = c >> 16
        self.buf[3 * i + 1] = (c >> 8) & 255
        self.buf[3 * i + 2] = c & 255

    def show(self):
        self.shows += 1


class Buzzer:
    def __init__(self):
        self.tones = 0

    def tone(self, f, ms):
        self.tones += 1

    def off(self):
        pass


ENTROPY = bytes((i * 37 + 11) & 0xFF for i in range(32))


def entropy(n):
    return ENTROPY


DISPLAY = Display()
PIXELS = Pixels()
BUZZER = Buzzer()
APP = A.App(DISPLAY, pixels=PIXELS, buzzer=BUZZER, dice=Dice(entropy), cpu_step_ms=40)
STATE = bytearray(4)  # [0] failure flag, [1] screens drawn, [2] games over, [3] last mode

# Players+1, Rules: next, Players, Player 1 kind, Player 2 kind: never "New game" (a new game allocates)
MENU_PRESSES = bytes((A.B_OK, A.B_UP, A.B_OK, A.B_DOWN, A.B_DOWN, A.B_OK, A.B_DOWN, A.B_OK))


def _run(t0, ms, app=None):
    t = t0
    if app is None:
        app = APP
    end = t0 + ms
    while t < end:
        if app.tick(t):
            app.draw()
            STATE[1] = (STATE[1] + 1) & 0xFF
        t += 5
    return t


def _human_turn(t):
    app = APP
    app.press(A.B_ROLL, t)
    t = _run(t, 500)
    app.press(A.B_HOLD2, t)
    app.press(A.B_HOLD4, t)
    app.press(A.B_DOWN, t)  # scorecard
    app.draw()
    app.press(A.B_DOWN, t)
    app.draw()
    app.press(A.B_OK, t)  # back to the dice
    app.shake(True, t)
    t = _run(t, 300)
    app.shake(False, t)
    t = _run(t, 100)
    app.press(A.B_OK, t)  # box picker
    app.draw()
    app.press(A.B_DOWN, t)
    app.draw()
    app.press(A.B_OK, t)  # score
    app.draw()
    return _run(t, 100)


def _play(t):
    app = APP
    for _ in range(60):
        g = app.session.game
        if g.over:
            break
        if app.settings.seats[g.player]:
            t = _run(t, 400)  # the CPU plays its turn on ticks
        else:
            t = _human_turn(t)
    app.press(A.B_OK, t)  # game over -> scorecard
    app.draw()
    app.press(A.B_BACK, t)
    app.draw()
    STATE[2] = 1 if app.session.game.over else 0
    STATE[3] = app.mode
    return t


def test_a_whole_game_of_input_ticks_cpu_moves_and_frames_allocates_nothing():
    app = APP
    app.settings.players = 2
    app.settings.seats[0] = 0
    app.settings.seats[1] = 1
    app.session.new_game()
    _run(0, 50)
    app.draw()
    micropython.heap_lock()
    try:
        _play(100)
    except MemoryError:
        STATE[0] = 1
    finally:
        micropython.heap_unlock()
    assert STATE[0] == 0, "the app allocated under heap_lock"
    assert STATE[2] == 1, "the game did not finish"
    assert STATE[3] == A.M_OVER
    assert DISPLAY.shown > 100 and PIXELS.shows > 0 and BUZZER.tones > 0


def test_menu_and_help_screens_allocate_nothing():
    app = APP
    app.enter(A.M_MENU)
    app.screen.cursor = bytes(app.menu.items[: app.menu.n]).index(bytes((3,)))  # on "Players"
    app.seats.need_levels(b"\x01\x02\x03", 3, app.session.game)  # every CPU level's code (loaded as a menu seat first names it)
    app.draw()
    STATE[0] = 0
    micropython.heap_lock()
    try:
        for b in MENU_PRESSES:
            app.press(b, 10)
            app.draw()
    except MemoryError:
        STATE[0] = 1
    finally:
        micropython.heap_unlock()
    assert STATE[0] == 0, "the menu allocated under heap_lock"
    app.enter(A.M_HELP)  # opening help loads the screen and its text (an import, like starting a game)
    app.draw()
    micropython.heap_lock()
    try:
        app.press(A.B_DOWN, 10)
        app.draw()
        app.press(A.B_UP, 10)
        app.draw()
        app.press(A.B_BACK, 10)  # closing it drops them again
        app.draw()
    except MemoryError:
        STATE[0] = 1
    finally:
        micropython.heap_unlock()
    assert STATE[0] == 0, "the help screen allocated under heap_lock"
    assert app.settings.players == 3 and app.mode == A.M_MENU


# With a strategy table (the committed Yacht table is complete and small): hints, proficiency and the
# perfect CPU are on the same hot paths and must not allocate either.
DATA = __file__.rsplit("/", 2)[0] + "/data"
APP2 = A.App(Display(), pixels=Pixels(), buzzer=Buzzer(), dice=Dice(entropy), cpu_step_ms=40, tables=DATA)
STATE2 = bytearray(4)


def _coached_game(t):
    app = APP2
    for _ in range(60):
        g = app.session.game
        if g.over:
            break
        if app.settings.seats[g.player]:
            t = _run(t, 500, APP2)
            continue
        app.press(A.B_ROLL, t)
        t = _run(t, 500, APP2)
        app.press(A.B_UP, t)  # hint
        app.draw()
        if app.session.hint_kind == 1:  # follow a keep hint: hold what it says, roll
            for i in range(5):
                if ((app.session.hint_value >> i) & 1) != ((g.held >> i) & 1):
                    app.press(A.B_HOLD1 + i, t)
            app.press(A.B_ROLL, t)
            t = _run(t, 500, APP2)
        app.press(A.B_OK, t)  # picker, then score the box it offers first
        app.draw()
        app.press(A.B_OK, t)
        app.draw()
        t = _run(t, 100, APP2)
    STATE2[1] = 1 if app.session.game.over else 0
    app.draw()  # the game-over screen with the proficiency line


def test_hints_proficiency_and_the_perfect_cpu_allocate_nothing():
    app = APP2
    assert app.seats.tables_mask == 1 << 5, "the Yacht table was not found in " + DATA
    app.settings.rules_i = 5
    app.settings.players = 2
    app.settings.seats[0] = 0
    app.settings.seats[1] = 3  # CPU perfect
    app.session.new_game()
    assert app.seats.coach is not None and app.seats.prof[0] is not None
    _run(0, 50, APP2)
    micropython.heap_lock()
    try:
        _coached_game(100)
    except MemoryError:
        STATE2[0] = 1
    finally:
        micropython.heap_unlock()
    assert STATE2[0] == 0, "hints, proficiency or the perfect CPU allocated under heap_lock"
    assert STATE2[1] == 1
    assert app.seats.prof[0].decisions >= 12


def test_a_solo_coached_game_its_par_and_its_costliest_decision_allocate_nothing():
    """The hint's three choices, par on the turn screen, the picker's expected totals and the game-over line
    that names the costliest decision (a solo game has the room for it), every frame drawn."""
    app = APP2
    app.settings.rules_i = 5
    app.settings.players = 1
    app.settings.seats[0] = 0
    app.session.new_game()
    _run(0, 50, APP2)
    STATE2[0] = 0
    micropython.heap_lock()
    try:
        _coached_game(100)
    except MemoryError:
        STATE2[0] = 1
    finally:
        micropython.heap_unlock()
    assert STATE2[0] == 0, "a solo coached game allocated under heap_lock"
    assert STATE2[1] == 1 and app.mode == A.M_OVER
    assert app.seats.prof[0].w[5] > 0 and app.session.top3[12] > 0


def _prof_positions(app, n):
    s = app.screen
    for i in range(n):
        app.draw()  # the position
        if i % 3 == 0:
            _run(10, 300, app)  # its turn solved a slice a pass while the player thinks (the screen's tick)
        app.press(A.B_HOLD1 + i % 5, 10)
        app.press(A.B_DOWN, 10)  # its card
        app.draw()
        app.press(A.B_OK, 10)
        if s.t.rolls < 3 and i % 2:
            app.press(A.B_ROLL, 10)  # a keep
        else:
            app.press(A.B_OK, 10)  # the boxes
            app.draw()
            app.press(A.B_DOWN, 10)
            app.draw()
            app.press(A.B_OK, 10)  # a box
        app.draw()  # the answer and its value
        app.press(A.B_OK, 10)


def test_the_proficiency_test_allocates_nothing_once_open():
    app = APP2
    app.settings.rules_i = 5
    app.enter(A.M_PROF)  # imports the screen and the positions, builds the coach (allocates, like a new game)
    s = app.screen
    assert app.mode == A.M_PROF and s.t is not None
    _prof_positions(app, 1)  # the first turn solve of the coach's new card fills its caches
    assert s.t.i == 1 and s.t.ready is False
    _run(10, 300, app)
    assert s.t.ready  # solved on ticks, before any answer
    STATE2[0] = 0
    micropython.heap_lock()
    try:
        _prof_positions(app, 23)
    except MemoryError:
        STATE2[0] = 1
    finally:
        micropython.heap_unlock()
    assert STATE2[0] == 0, "the proficiency test allocated under heap_lock"
    assert s.t.i == 24 and s.phase == 0
    _prof_positions(app, 1)  # the last answer: the result (no store here: no records)
    assert s.phase == 4
    app.draw()
    app.press(A.B_OK, 10)
    assert app.mode == A.M_MENU


def test_new_game_confirmation_and_stepping_menu_values_back_allocate_nothing():
    """The menu with a game in progress: "New game" armed and cancelled, values stepped back (HOLD1)
    and forward (HOLD5), "CPU perfect: no table" said as it is passed over, every frame drawn."""
    app = APP
    app.settings.players = 2
    app.settings.seats[0] = 0
    app.settings.seats[1] = 1
    app.session.new_game()
    t = _run(0, 50)
    app.press(A.B_ROLL, t)
    t = _run(t, 500)
    app.press(A.B_BACK, t)  # to the menu, the game in progress kept
    g = app.session.game
    new_at = bytes(app.menu.items[: app.menu.n]).index(bytes((1,)))
    presses = bytes((A.B_OK, A.B_BACK, A.B_OK, A.B_DOWN, A.B_HOLD1, A.B_HOLD5, A.B_DOWN, A.B_HOLD1, A.B_HOLD5,
                     A.B_DOWN, A.B_HOLD1, A.B_HOLD1, A.B_HOLD5, A.B_HOLD5, A.B_UP, A.B_UP, A.B_UP, A.B_OK))
    app.screen.cursor = new_at
    app.draw()
    STATE[0] = 0
    micropython.heap_lock()
    try:
        for b in presses:
            app.press(b, t)
            app.draw()
            t = _run(t, 20)
    except MemoryError:
        STATE[0] = 1
    finally:
        micropython.heap_unlock()
    assert STATE[0] == 0, "the menu allocated under heap_lock"
    assert app.session.game is g and app.mode == A.M_MENU and app.menu.confirm  # the last OK armed "New game" again
    assert app.settings.seats[0] == 0 and app.toast == A._msg.T_NO_PERFECT


def test_the_self_test_screen_allocates_nothing_once_open():
    """Every button, two shakes, the checkerboard, the pixel cycle and the scale: presses, ticks and frames
    under heap_lock once the screen is open; BACK twice leaves (and unloads it) under the lock too."""
    app = APP
    app.enter(A.M_MENU)
    app.enter(A.M_TEST)  # opening it imports the screen (an allocation, like opening help)
    t = _run(0, 20)
    STATE[0] = 0
    micropython.heap_lock()
    try:
        t = _run(t, 2500)  # checkerboard, its inverse, the first pixels, the scale
        for b in range(9):  # every button but BACK
            app.press(b, t)
            t = _run(t, 40)
        app.shake(True, t)
        t = _run(t, 200)
        app.shake(False, t)
        t = _run(t, 500)
        app.press(A.B_BACK, t)
        t = _run(t, 40)
        app.press(A.B_BACK, t)
        t = _run(t, 40)
    except MemoryError:
        STATE[0] = 1
    finally:
        micropython.heap_unlock()
    assert STATE[0] == 0, "the self-test allocated under heap_lock"
    assert app.mode == A.M_MENU


class MemStore:
    """A store in RAM with the records hooks (the boards' stores are tested apart)."""

    def __init__(self):
        self.save = None
        self.recs = None

    def read(self):
        return self.save

    def write(self, data):
        self.save = data

    def read_records(self):
        return self.recs

    def write_records(self, data):
        self.recs = data


def test_records_and_initials_screens_allocate_nothing_once_open():
    from fivedice import records as R

    app = APP
    assert app.session.game is not None  # a game from the tests above (its cards are drawn)
    recs = R.Records()
    for s in (300, 250, 200):
        recs.insert(0, s, b"ABC", recs.add_game(0, s, 1, 1, 500, 20, True))
    store = MemStore()
    store.recs = recs.encode()
    app.store = app.session.store = store
    app.enter(A.M_RECORDS)  # reads the records (allocates, like opening help)
    app.draw()
    presses = bytes((A.B_OK, A.B_DOWN, A.B_UP, A.B_OK, A.B_DOWN, A.B_DOWN, A.B_UP, A.B_UP))
    STATE[0] = 0
    micropython.heap_lock()
    try:
        for b in presses:
            app.press(b, 10)
            app.draw()
    except MemoryError:
        STATE[0] = 1
    finally:
        micropython.heap_unlock()
    assert STATE[0] == 0, "the records screen allocated under heap_lock"
    app.press(A.B_BACK, 10)
    # the initials of a seat whose score made the table (as game over sets them up)
    from fivedice import screens as S

    scr = S.build(A.M_INITIALS)  # as the App builds it: leaving it forgets its modules
    scr.recs = recs
    order = recs.add_game(0, 260)
    recs.insert(0, 260, b"   ", order)
    scr.seats[0] = 0
    scr.orders[0] = order
    scr.n = 1
    app.mode = A.M_INITIALS
    app.screen = scr
    app.draw()
    presses = bytes((A.B_UP, A.B_UP, A.B_DOWN, A.B_OK, A.B_DOWN, A.B_BACK, A.B_UP, A.B_OK, A.B_OK))
    micropython.heap_lock()
    try:
        for b in presses:
            app.press(b, 10)
            app.draw()
    except MemoryError:
        STATE[0] = 1
    finally:
        micropython.heap_unlock()
    assert STATE[0] == 0, "the initials screen allocated under heap_lock"
    assert bytes(scr.letters) == b"C A" and scr.at == 2  # B, C, B; next; space; back: C; next, next
    app.store = app.session.store = None


class Panel(Display):
    """The display with the SSD1306 power calls (contrast, poweroff, poweron), as both board drivers have."""

    def __init__(self):
        super().__init__()
        self.log = bytearray(8)  # [0] contrast, [1] powered (1/0), [2] poweroffs, [3] poweron calls
        self.log[1] = 1

    def contrast(self, c):
        self.log[0] = c

    def poweroff(self):
        self.log[1] = 0
        self.log[2] += 1

    def poweron(self):
        self.log[1] = 1
        self.log[3] += 1


BATTERY = bytearray(b"\x00")  # 0: a full battery, 1: a low one


def battery():
    return 3400 if BATTERY[0] else 4400


PANEL = Panel()
APP3 = A.App(PANEL, pixels=Pixels(), buzzer=Buzzer(), dice=Dice(entropy), cpu_step_ms=40, battery=battery)
STATE3 = bytearray(8)
# up from the top wraps to "Self-test"; then "How to score", "Records", Sleep (stepped), Dim (stepped)
POWER_PRESSES = bytes((A.B_UP, A.B_UP, A.B_UP, A.B_UP, A.B_OK, A.B_UP, A.B_OK))


def _idle_minutes(t):
    """A game idles on the dice screen to dim (30 s) and off (3 min), a press wakes it, the menu's Dim and
    Sleep lines are stepped, the battery turns low: every pass asks wait_ms, as the firmware loop does."""
    app = APP3
    end = t + 200000
    while t < end:
        if app.tick(t):
            app.draw()
        w = app.wait_ms(t)
        t += w if w > 5 else 5
        if app.asleep() and STATE3[1] == 0:
            STATE3[1] = 1
            STATE3[2] = PANEL.log[2]
    STATE3[3] = 1 if PANEL.log[0] == 1 else 0  # left dimmed before the off
    app.press(A.B_ROLL, t)  # wakes only
    STATE3[4] = app.session.game.rolls
    app.tick(t)
    app.draw()
    app.press(A.B_BACK, t)  # the menu
    app.draw()
    for b in POWER_PRESSES:
        app.press(b, t)
        app.draw()
    BATTERY[0] = 1
    t = _run(t + 20000, 100, APP3)
    STATE3[5] = 1 if app.toast == A._msg.T_BATTERY_LOW else 0


def test_dim_sleep_wake_battery_and_the_power_settings_allocate_nothing():
    app = APP3
    app.settings.players = 1
    app.settings.seats[0] = 0
    app.session.new_game()
    t = _run(0, 50, APP3)
    app.press(A.B_ROLL, t)
    t = _run(t, 800, APP3)
    micropython.heap_lock()
    try:
        _idle_minutes(t)
    except MemoryError:
        STATE3[0] = 1
    finally:
        micropython.heap_unlock()
    assert STATE3[0] == 0, "dimming, sleeping, waking or the battery gauge allocated under heap_lock"
    assert STATE3[1] == 1 and STATE3[2] == 1 and STATE3[3] == 1, "the screen did not dim and then switch off"
    assert STATE3[4] == 1 and not app.asleep(), "the waking press rolled, or the screen stayed off"
    assert app.pw.sleep_i == 1 and app.pw.dim_i == 1, "the Sleep and Dim lines did not step"
    assert STATE3[5] == 1, "no battery warning"
