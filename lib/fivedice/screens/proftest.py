"""The proficiency test: 25 fixed positions of the menu's rule set, one decision each (hold dice and
ROLL, or OK and a box), the answer and its value after each, the points given away at the end and
the best three tests in the records. Loaded only while open, on the table's coach the seats lend it
(Seats.test_coach); a game in progress gets the coach back when the test is left. An install may
leave the test out (fivedice.features)."""
from fivedice.compat import const
from fivedice import features as _features
from fivedice import gfx
from fivedice import lazy
from fivedice import messages as _msg
from fivedice import oled_view as view
from fivedice import rules as _rules
from fivedice import scoring
from fivedice.screens import ListScreen, B_BACK, B_DOWN, B_HOLD5, B_OK, B_ROLL, B_UP
from fivedice.game import ALL_DICE, ALL_HELD, NO_ROLLS_LEFT, ROLLS_PER_TURN
from fivedice.oled_view import choice, tenths, tenths_right, DICE_X, DICE_Y, DIE, DIE_GAP
from fivedice.proftest import ProfTest

_Q = const(0)  # the position: dice, holds
_CARD = const(1)  # its card
_PICK = const(2)  # the legal boxes and their points
_ANS = const(3)  # the answer and its value
_DONE = const(4)  # the test's score and the best three
# the layout: the result, the title's numbers, the position (as the turn screen's), the card in two
# columns of 8 rows of 7 pixels, the answer against the best one
_GAVE_Y = const(12)
_BEST_Y = const(24)  # "Best tests", then one row of 8 a test
_BEST3_Y = const(33)
_BEST3_H = const(8)
_BEST3_X = const(6)
_NEW_X = const(72)  # "<" beside the new one
_ANS_NUM_X = const(43)  # "Answer 7/25": after "Answer "
_TEST_NUM_X = const(31)  # "Test 7/25"
_LINE1_Y = const(34)  # the roll count and the score
_LINE2_Y = const(45)  # the upper section's total and the open boxes
_COL2_X = const(68)
_CARD_Y = const(8)
_CARD_ROWS = const(8)
_CARD_ROW_H = const(7)
_CARD_COL_W = const(66)
_CARD_VAL_R = const(60)  # a box's points: their right edge in its column
_ROW_IN = const(2)  # a box's name in the picker; its points end _PTS_IN from the right
_PTS_IN = const(4)
_CHOICE_X = const(30)  # "You" / "Best": the choice, and its value right-aligned the line under
_YOU_Y = const(10)
_BEST_ANS_Y = const(29)
_VALUE_DY = const(9)
_LOST_Y = const(48)  # what the answer gave away, and the total so far


class ProfTestScreen(ListScreen):

    def __init__(self):
        self.t = None
        self.phase = _Q
        self.held = 0
        self.boxes = bytearray(_rules.MAX_BOXES)
        self.points = bytearray(_rules.MAX_BOXES)
        self.n = 0  # the boxes offered (ListScreen's lines)
        self.rank = -1  # the finished test's place among the best three (-1: not among them)
        self.kept = 0  # the records' tests shown at the end
        self.best3 = [0, 0, 0]  # their points given away x 100 (allocated here, filled at the end)

    def enter(self, app):
        rs = _rules.ALL[app.settings.rules_i]
        coach = app.seats.test_coach(rs)  # mid-game, the game's coach until the test is left
        if coach is None:
            app.back()  # no table (or a bad one: "Strategy table bad" says so)
            return
        self.t = ProfTest(rs, coach)
        self.phase = _Q
        self.held = 0

    def leave(self, app):
        self.t = None
        app.session.test_done()  # a game in progress has its coach back

    def tick(self, app, now):
        """A slice of the position's turn solve while the player thinks (none in a pass that draws a
        frame): the answer then needs no wait, and a Pico stays live while the final-roll groups of
        the rule set are built."""
        t = self.t
        if t is None or app.dirty or self.phase >= _ANS or t.ready:
            return
        try:
            t.ready = t.coach.work(t.card)
        except OSError:
            app.seats.table_lost(t.rs)
            app.back()

    def wait_ms(self, app, now):
        t = self.t
        if t is None or self.phase >= _ANS or t.ready:
            return 1 << 29
        return 0  # a slice every pass until the position is solved

    def press(self, app, b):
        t = self.t
        ph = self.phase
        if t is None:
            return 0
        if ph == _Q:
            if b <= B_HOLD5:
                self.held ^= 1 << b
            elif b == B_ROLL:
                if t.rolls >= ROLLS_PER_TURN:
                    return app.refuse(NO_ROLLS_LEFT)
                if self.held == ALL_DICE:
                    return app.refuse(ALL_HELD)
                return self._answer(app, False, self.held)
            elif b == B_OK:
                self._boxes(app)
                self.phase = _PICK
            elif b == B_UP or b == B_DOWN:
                self.phase = _CARD
            elif b == B_BACK:
                app.back()  # the test is left unfinished: nothing is recorded
        elif ph == _CARD:
            self.phase = _Q
        elif ph == _PICK:
            if b == B_OK:
                return self._answer(app, True, self.boxes[self.cursor])
            elif b == B_BACK:
                self.phase = _Q
            else:
                self.move(b)
        elif ph == _ANS:
            if b == B_OK or b == B_ROLL:
                if t.next():
                    self.phase = _Q
                    self.held = 0
                else:
                    self._finish(app)
            elif b == B_BACK:
                app.back()
        elif b == B_OK or b == B_BACK or b == B_ROLL:
            app.back()
        return 0

    def _answer(self, app, box, arg):
        """The player's answer: a box (box True) or a keep; valued now (no bound method made: no
        allocation)."""
        try:
            if box:
                self.t.score(arg)
            else:
                self.t.keep(arg)
        except OSError:
            app.seats.table_lost(self.t.rs)
            app.back()
            return 0
        self.phase = _ANS
        return 0

    def _boxes(self, app):
        t = self.t
        scoring.load(t.dice)
        lg = scoring.legal(t.rs, t.card)
        n = 0
        for b in range(t.rs.n):
            if (lg >> b) & 1:
                self.boxes[n] = b
                self.points[n] = scoring.points(t.rs, t.card, b)
                n += 1
        self.n = n
        self.cursor = 0  # the game's picker's rule without values: the most points now first
        for i in range(n):
            if self.points[i] > self.points[self.cursor]:
                self.cursor = i
        self.top = 0
        self.scroll()

    def _finish(self, app):
        """The last answer: the test's score into the records (when there is a store for them)."""
        self.phase = _DONE
        self.rank = -1
        self.kept = 0
        st = app.store
        if not _features.RECORDS or st is None or not hasattr(st, "write_records"):
            return
        records = lazy.load("records")
        recs = records.Records()
        why = records.load(st, recs)
        if why is not None:  # unreadable: kept aside, said once, the reason for the log
            app.records_error = why
            app.message(_msg.T_RECORDS_BAD)
        i = self.t.rs.index
        self.rank = recs.add_test(i, self.t.loss_x100())
        if records.save(st, recs) is not None:
            app.message(_msg.T_SAVE_FAILED)
        self.kept = recs.test_entries(i)
        for k in range(self.kept):
            self.best3[k] = recs.test_loss_x100(i, k)
        lazy.drop("records")

    # -- drawing
    # ----------------------------------------------------------------------------------------
    def draw(self, fb, app):
        t = self.t
        W = view.W
        fb.fill(0)
        if t is None:
            return
        rs = t.rs
        ph = self.phase
        if ph == _DONE:
            view.header(fb, b"Test done")
            gfx.text_right(fb, view.SHORT_TITLES[rs.index], W - 1, 0, 0)
            x = gfx.text(fb, b"Gave away ", 0, _GAVE_Y, 1)
            x = tenths(fb, t.loss_x100(), x, _GAVE_Y, 1)
            gfx.text(fb, b" pts", x, _GAVE_Y, 1)
            if self.kept:
                gfx.text(fb, b"Best tests" if self.rank < 0 else b"New best tests", 0, _BEST_Y, 1)
                for k in range(self.kept):
                    y = _BEST3_Y + _BEST3_H * k
                    x = gfx.number(fb, k + 1, _BEST3_X, y, 1)
                    x = gfx.text(fb, b". ", x, y, 1)
                    tenths(fb, self.best3[k], x, y, 1)
                    if k == self.rank:
                        gfx.text(fb, b"<", _NEW_X, y, 1)
            gfx.text(fb, b"OK menu", 0, view.FOOT_Y, 1)
            return
        view.header(fb, b"Answer " if ph == _ANS else b"Test ")
        x = gfx.number(fb, t.i + 1, _ANS_NUM_X if ph == _ANS else _TEST_NUM_X, 0, 0)
        x = gfx.text(fb, b"/", x, 0, 0)
        gfx.number(fb, t.count, x, 0, 0)
        gfx.text_right(fb, view.SHORT_TITLES[rs.index], W - 1, 0, 0)
        if ph == _ANS:
            self._draw_answer(fb, t)
        elif ph == _CARD:
            self._draw_card(fb, t)
        elif ph == _PICK:
            self._draw_pick(fb, app, t)
        else:
            self._draw_dice(fb, t)

    def _draw_dice(self, fb, t):
        gfx.dice_row(fb, t.dice, self.held, DICE_X, DICE_Y, DIE, DIE_GAP)
        y = _LINE1_Y
        view.roll_count(fb, t.rolls, y)
        x = gfx.text(fb, b"Score ", _COL2_X, y, 1)
        gfx.number(fb, t.banked(), x, y, 1)
        c = t.card
        if t.rs.upper_threshold:
            x = gfx.text(fb, b"Upper ", 0, _LINE2_Y, 1)
            x = gfx.number(fb, c.upper(), x, _LINE2_Y, 1)
            x = gfx.text(fb, b"/", x, _LINE2_Y, 1)
            gfx.number(fb, t.rs.upper_threshold, x, _LINE2_Y, 1)
        x = gfx.text(fb, b"Open ", _COL2_X, _LINE2_Y, 1)
        gfx.number(fb, c.open_count(), x, _LINE2_Y, 1)
        gfx.text(fb, b"ROLL keep OK box v" if t.rolls < ROLLS_PER_TURN else b"OK box  v card", 0,
                 view.KEYS_Y, 1)

    def _draw_card(self, fb, t):
        rs = t.rs
        c = t.card
        for b in range(rs.n):
            y = _CARD_Y + (b % _CARD_ROWS) * _CARD_ROW_H
            x = b // _CARD_ROWS * _CARD_COL_W
            gfx.text(fb, view.SHORT[rs.index][b], x, y, 1)
            if c.is_filled(b):
                gfx.number_right(fb, c.pts[b], x + _CARD_VAL_R, y, 1)
            else:
                gfx.text_right(fb, b"-", x + _CARD_VAL_R, y, 1)
        if c.extra:  # the extra five-of-a-kind bonuses, where there is a line left
            y = _CARD_Y + (rs.n % _CARD_ROWS) * _CARD_ROW_H
            gfx.text(fb, b"Bonus", _CARD_COL_W, y, 1)
            gfx.number_right(fb, c.bonus(), _CARD_COL_W + _CARD_VAL_R, y, 1)

    def _draw_pick(self, fb, app, t):
        self.draw_rows(fb, app)
        gfx.text(fb, b"OK score  BACK dice", 0, view.FOOT_Y, 1)

    def row(self, fb, app, i, y, c):
        gfx.text(fb, view.LONG[self.t.rs.index][self.boxes[i]], _ROW_IN, y, c)
        gfx.number_right(fb, self.points[i], view.W - _PTS_IN, y, c)

    def _draw_answer(self, fb, t):
        W = view.W
        rs = t.rs
        gfx.text(fb, b"You", 0, _YOU_Y, 1)
        choice(fb, rs, t.mine_kind, t.mine_value, t.dice, _CHOICE_X, _YOU_Y, 1)
        tenths_right(fb, t.x100(t.mine), W, _YOU_Y + _VALUE_DY, 1)
        gfx.text(fb, b"Best", 0, _BEST_ANS_Y, 1)
        choice(fb, rs, t.best_kind, t.best_value, t.dice, _CHOICE_X, _BEST_ANS_Y, 1)
        tenths_right(fb, t.x100(t.best), W, _BEST_ANS_Y + _VALUE_DY, 1)
        y = _LOST_Y
        # what this answer gave away, and the test's total so far right-aligned ("total -11.3")
        if t.last:
            tenths(fb, t.last_x100(), gfx.text(fb, b"-", 0, y, 1), y, 1)
        else:
            gfx.text(fb, b"Perfect", 0, y, 1)  # (7 characters: "total -123.4" still fits beside it)
        x = tenths_right(fb, t.loss_x100(), W, y, 1)
        gfx.text_right(fb, b"total -", x, y, 1)
        gfx.text(fb, b"OK next" if t.i + 1 < t.count else b"OK result", 0, view.FOOT_Y, 1)
