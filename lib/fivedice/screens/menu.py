"""The menu: resume or start a game, its rules, players and seats, sound, the dim and sleep timers,
help."""
from fivedice.compat import const
from fivedice import features as _features
from fivedice import gfx
from fivedice.settings import GOOD, PERFECT
from fivedice import messages as _msg
from fivedice import oled_view as view
from fivedice import power as _power
from fivedice import rules as _rules
from fivedice.screens import ListScreen, B_BACK, B_OK, B_ROLL, B_HOLD1, B_HOLD5
from fivedice.screens import M_HELP, M_PROF, M_RECORDS, M_TEST, M_TURN

# Menu lines (the screen lists them in a bytearray).
I_RESUME = const(0)
I_NEW = const(1)
I_RULES = const(2)
I_PLAYERS = const(3)
I_P1 = const(4)  # .. I_P1 + 3
I_SOUND = const(8)
I_HELP = const(9)
I_TEST = const(10)
I_RECORDS = const(11)
I_DIM = const(12)
I_SLEEP = const(13)
I_PROF = const(14)

_IN = const(2)  # a row's name and value: this far in from the panel's sides
_SEAT_IN = const(8)  # "P2": indented under Players


class Menu(ListScreen):
    list_y = 10  # a pixel's gap under the title bar

    def __init__(self):
        self.items = bytearray(16)  # the lines shown, I_* codes
        self.n = 0
        self.confirm = False  # "New game" pressed once with a game in progress: OK again starts it
        # a seat line changed: its CPU level's code loads as the cursor leaves it
        self.levels_due = False
        # the line (I_*) whose screen (help, records, self-test) is open: the cursor's on return
        self.back_to = -1

    def enter(self, app):
        self.confirm = False
        app.session.flush_save()  # a hold waiting to be saved is written before anything else
        self.build(app)
        it = self.back_to
        self.back_to = -1
        for i in range(self.n):
            if it >= 0 and self.items[i] == it:
                self.cursor = i  # back from that screen: on the line you left
                self.scroll()

    def leave(self, app):
        self.confirm = False
        self.load_levels(app)

    def load_levels(self, app):
        """The CPU levels the menu's seats name, loaded (Seats.need_levels) once the seat lines are
        left: stepping a seat through the levels loads only the one it stops at."""
        if self.levels_due:
            self.levels_due = False
            app.seats.need_levels(app.settings.seats, app.settings.players, app.session.game)

    def build(self, app):
        """The lines for the current settings: "Resume game" only with a game in progress, one line
        per seat."""
        items = self.items
        n = 0
        if app.session.in_game():
            items[n] = I_RESUME
            n += 1
        items[n] = I_NEW
        items[n + 1] = I_RULES
        items[n + 2] = I_PLAYERS
        n += 3
        for p in range(app.settings.players):
            items[n] = I_P1 + p
            n += 1
        if _features.SOUND:  # an install without the buzzer's cues has no Sound line
            items[n] = I_SOUND
            n += 1
        items[n] = I_DIM
        items[n + 1] = I_SLEEP
        n += 2
        if _features.RECORDS:  # an install-time choice: a board may be built without them
            items[n] = I_RECORDS
            n += 1
        items[n] = I_HELP
        items[n + 1] = I_TEST
        n += 2
        # the proficiency test: its rule set's table, on an install that has the test
        if app.seats.offers_test(app.settings.rules_i):
            items[n] = I_PROF
            n += 1
        self.n = n
        if self.cursor >= self.n:
            self.cursor = self.n - 1

    def press(self, app, b):
        confirm = self.confirm
        self.confirm = False  # any press but a second OK on "New game" cancels it
        if self.move(b):
            self.load_levels(app)
        elif b == B_OK or b == B_ROLL or b == B_HOLD5:
            self.choose(app, 1, b != B_HOLD5, confirm)
        elif b == B_HOLD1:
            self.choose(app, -1, False, confirm)
        elif b == B_BACK and app.session.in_game() and not confirm:
            app.enter(M_TURN)  # back to the game in progress, seated and ruled as it started
        self.scroll()
        return 0

    def choose(self, app, step, act, confirm):
        """The line under the cursor: `act` (OK/ROLL) chooses an action line; a value line steps its
        value by `step` (+1 OK/ROLL/HOLD5, -1 HOLD1). `confirm`: "New game" was armed by the last
        press."""
        it = self.items[self.cursor]
        s = app.settings
        if it == I_RESUME:
            if act:
                app.enter(M_TURN)  # back to the game in progress, seated and ruled as it started
        elif it == I_NEW:
            if act:
                if app.session.in_game() and not confirm:
                    self.confirm = True  # a game in progress is not discarded on one press
                else:
                    self.load_levels(app)
                    app.session.new_game()
        elif it == I_RULES:
            s.set("rules_i", (s.rules_i + step) % len(_rules.ALL))
            self.next_game(app)
            self.build(app)  # the proficiency test's line comes and goes with the rule set's table
            if app.seats.levels(app.settings.rules_i) < 3:
                for p in range(4):
                    if s.seats[p] == PERFECT:
                        s.set_seat(p, GOOD)  # this rule set has no table: say why the seat changed
                        app.message(_msg.T_NO_PERFECT)
            self.levels_due = True
        elif it == I_PLAYERS:
            s.set("players", (s.players - 1 + step) % 4 + 1)
            self.levels_due = True
            self.build(app)
            self.next_game(app)
        elif it == I_SOUND:
            s.set("muted", not s.muted)
        elif it == I_DIM:
            s.set("dim_i", (s.dim_i + step) % _power.CHOICES)
        elif it == I_SLEEP:
            s.set("sleep_i", (s.sleep_i + step) % _power.CHOICES)
        elif it == I_HELP or it == I_TEST or it == I_RECORDS or it == I_PROF:
            if act:
                self.back_to = it
                app.show(
                    M_HELP
                    if it == I_HELP
                    else M_TEST
                    if it == I_TEST
                    else M_RECORDS
                    if it == I_RECORDS
                    else M_PROF
                )
        else:
            p = it - I_P1
            k = (s.seats[p] + step) % 4  # Human, CPU easy, good, perfect
            self.next_game(app)
            if k == PERFECT and app.seats.levels(app.settings.rules_i) < 3:
                app.message(_msg.T_NO_PERFECT)  # said as it is passed over: why no perfect CPU
                k = (k + step) % 4
            s.set_seat(p, k)
            # its code as the cursor leaves the line: in the menu, not at "New game"
            self.levels_due = True

    def next_game(self, app):
        """A rules, players or seat line changed with a game in progress: say it is for the next
        game (the game in progress keeps its own: back to it is app.enter(M_TURN))."""
        if app.session.in_game():
            app.message(_msg.T_NEXT_GAME)

    def draw(self, fb, app):
        fb.fill(0)
        view.header(fb, b"fivedice")
        self.draw_rows(fb, app)
        if app.toast:
            view.line_bar(fb, view.KEYS_Y)
            gfx.text(fb, view.MESSAGES[app.toast], 1, view.KEYS_Y, 0)

    def row(self, fb, app, i, y, c):
        W = view.W
        s = app.settings
        # with a game in progress, a line that differs is the next game's
        g = app.session.game if app.session.in_game() else None
        it = self.items[i]
        if it == I_RESUME:
            gfx.text(fb, b"Resume game", _IN, y, c)
        elif it == I_NEW:
            gfx.text(fb, b"New game? OK again" if self.confirm else b"New game", _IN, y, c)
        elif it == I_RULES:
            gfx.text(
                fb,
                b"Next rules" if g is not None and s.rules_i != g.rs.index else b"Rules",
                _IN,
                y,
                c,
            )
            gfx.text_right(fb, view.SHORT_TITLES[s.rules_i], W - _IN, y, c)
        elif it == I_PLAYERS:
            gfx.text(
                fb,
                b"Next players" if g is not None and s.players != g.players else b"Players",
                _IN,
                y,
                c,
            )
            gfx.number_right(fb, s.players, W - _IN, y, c)
        elif it == I_SOUND:
            gfx.text(fb, b"Sound", _IN, y, c)
            gfx.text_right(fb, b"off" if s.muted else b"on", W - _IN, y, c)
        elif it == I_DIM:
            gfx.text(fb, b"Dim screen", _IN, y, c)
            gfx.text_right(fb, _power.DIM_LABELS[s.dim_i], W - _IN, y, c)
        elif it == I_SLEEP:
            gfx.text(fb, b"Sleep", _IN, y, c)
            gfx.text_right(fb, _power.SLEEP_LABELS[s.sleep_i], W - _IN, y, c)
        elif it == I_HELP:
            gfx.text(fb, b"How to score", _IN, y, c)
        elif it == I_TEST:
            gfx.text(fb, b"Self-test", _IN, y, c)
        elif it == I_RECORDS:
            gfx.text(fb, b"Records", _IN, y, c)
        elif it == I_PROF:
            gfx.text(fb, b"Proficiency test", _IN, y, c)
        else:
            p = it - I_P1
            # "  P2" indented under Players, the value right-aligned: never touching (3 + 11
            # chars of 21)
            x = gfx.text(fb, b"P", _SEAT_IN, y, c)
            x = gfx.number(fb, p + 1, x, y, c)
            if g is not None and (p >= g.players or s.seats[p] != app.seats.seated[p]):
                gfx.text(fb, b" next", x, y, c)  # the game in progress keeps its own seat
            gfx.text_right(fb, view.SEATS[s.seats[p]], W - _IN, y, c)
