"""Records: the high scores, lifetime stats and proficiency tests of each rule set
(fivedice.records). UP/DOWN change the rule set, OK steps through the top 5, the stats and the
tests, BACK leaves. Loaded only while open, with the records read from the store when it opens."""
from fivedice.compat import const
from fivedice import gfx
from fivedice import messages as _msg
from fivedice import oled_view as view
from fivedice import records as _rec
from fivedice import rules as _rules
from fivedice.screens import Screen, B_BACK, B_DOWN, B_OK, B_UP
from fivedice.screens.over import ORDINALS, decimal2
from fivedice.oled_view import tenths

_STATS = (b"Games", b"Mean", b"Best", b"5 of a kind", b"Upper bonus", b"Lost/decision")
_EMPTY_Y = const(16)  # "No games yet", "No tests yet"
_STATS_Y = const(9)  # the stats: six rows of 8 under the title bar
_ROW_H = const(8)
_TOP_Y = const(10)  # the top 5 and the tests taken: rows of 9 (a pixel between), from here
_PITCH = const(9)
_TESTS_Y = const(20)  # the best three tests, under "Taken"
_NAME_X = const(24)  # an entry's initials, or a test's points lost, after its place
_SCORE_R = const(72)  # an entry's score: its right edge
_WHICH_X = const(82)  # "game 12", "test 3"
_CH = const(6)  # one character's advance (fivedice.font.ADVANCE)


class RecordsScreen(Screen):
    def __init__(self):
        self.recs = None
        self.rs = 0  # the rule set shown
        self.stats = False  # the stats page
        self.tests = False  # the proficiency tests page (neither: the top 5)
        self._ini = bytearray(3)  # an entry's initials, read without allocating

    def enter(self, app):
        self.recs = _rec.Records()
        self.rs = app.settings.rules_i
        why = _rec.load(app.store, self.recs)
        if why is not None:  # unreadable: kept aside, said once, the reason for the log
            app.records_error = why
            app.message(_msg.T_RECORDS_BAD)

    def leave(self, app):
        self.recs = None

    def press(self, app, b):
        n = len(_rules.ALL)
        if b == B_UP:
            self.rs = (self.rs - 1) % n
        elif b == B_DOWN:
            self.rs = (self.rs + 1) % n
        elif b == B_OK:  # top 5 -> stats -> tests -> top 5
            t = self.stats
            self.stats = not self.stats and not self.tests
            self.tests = t
        elif b == B_BACK:
            app.back()
        return 0

    def draw(self, fb, app):
        recs = self.recs
        rs = self.rs
        W = view.W
        fb.fill(0)
        view.header(fb, b"Stats" if self.stats else b"Tests" if self.tests else b"Top 5")
        gfx.text_right(fb, view.SHORT_TITLES[rs], W - 1, 0, 0)
        games = recs.games(rs)
        if self.tests:
            self._draw_tests(fb, recs, rs)
        elif not games:
            gfx.text(fb, b"No games yet", 0, _EMPTY_Y, 1)
        elif self.stats:
            for i in range(6):
                y = _STATS_Y + i * _ROW_H
                gfx.text(fb, _STATS[i], 0, y, 1)
                if i == 0:
                    gfx.number_right(fb, games, W - 1, y, 1)
                elif i == 1:
                    m = recs.mean_x10(rs)  # one decimal below 100, whole from 100 up
                    if m >= 1000:
                        gfx.number_right(fb, (m + 5) // 10, W - 1, y, 1)
                    else:
                        x = W - 1 - gfx.number_width(m // 10) - 2 * _CH  # room for ".5"
                        x = gfx.number(fb, m // 10, x, y, 1)
                        x = gfx.glyph(fb, ord("."), x, y, 1)
                        gfx.glyph(fb, ord("0") + m % 10, x, y, 1)
                elif i == 2:
                    gfx.number_right(fb, recs.best(rs), W - 1, y, 1)
                elif i == 3:
                    gfx.number_right(fb, recs.fives(rs), W - 1, y, 1)
                elif i == 4:
                    gfx.number_right(fb, recs.bonuses(rs), W - 1, y, 1)
                else:
                    d = recs.loss_per_decision_x100(rs)
                    if d < 0:
                        gfx.text_right(fb, b"none", W - 1, y, 1)  # no game with a table
                    else:
                        decimal2(fb, d, W - 1 - gfx.number_width(d // 100) - 3 * _CH, y, 1)  # ".31"
        else:
            for i in range(recs.entries(rs)):
                y = _TOP_Y + i * _PITCH
                gfx.text(fb, ORDINALS[i + 1] if i < 4 else b"5th", 0, y, 1)
                gfx.text(fb, recs.initials(rs, i, self._ini), _NAME_X, y, 1)
                gfx.number_right(fb, recs.score(rs, i), _SCORE_R, y, 1)
                x = gfx.text(fb, b"game ", _WHICH_X, y, 1)
                gfx.number(fb, recs.order(rs, i), x, y, 1)
        gfx.text(fb, b"OK tests  ^v rules" if self.stats else b"OK top 5  ^v rules" if self.tests
                 else b"OK stats  ^v rules", 0, view.KEYS_Y, 1)

    def _draw_tests(self, fb, recs, rs):
        # the tests taken and the best three: points given away, and which test it was
        n = recs.tests(rs)
        if not n:
            gfx.text(fb, b"No tests yet", 0, _EMPTY_Y, 1)
            return
        gfx.text(fb, b"Taken", 0, _TOP_Y, 1)
        gfx.number_right(fb, n, view.W - 1, _TOP_Y, 1)
        for i in range(recs.test_entries(rs)):
            y = _TESTS_Y + i * _PITCH
            gfx.text(fb, ORDINALS[i + 1], 0, y, 1)
            x = tenths(fb, recs.test_loss_x100(rs, i), _NAME_X, y, 1)
            gfx.text(fb, b" lost", x, y, 1)
            x = gfx.text(fb, b"test ", _WHICH_X, y, 1)
            gfx.number(fb, recs.test_number(rs, i), x, y, 1)
