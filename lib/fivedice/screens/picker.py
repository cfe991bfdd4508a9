"""The box picker: every box the roll may go in, with its points; OK scores the one under the
cursor."""
from array import array

from fivedice.compat import const, heap_lock, heap_unlock, zeros
from fivedice import gfx
from fivedice import oled_view as view
from fivedice import rules as _rules
from fivedice import scoring
from fivedice.screens import ListScreen, B_BACK, B_OK
from fivedice.oled_view import tenths_right

_TAG_X = const(60)  # the player's tag in the title bar, after "Score it"
_FINAL_IN = const(28)  # the expected final total's right edge: this far in from the right
_PTS_IN = const(4)  # the points' right edge, left of the scroll bar


class Picker(ListScreen):

    def __init__(self):
        self.boxes = bytearray(_rules.MAX_BOXES)  # the boxes offered, in card order
        self.points = array("h", [0] * _rules.MAX_BOXES)  # by box: what scoring it now gives
        self.n = 0
        self.forced = False  # a Forced Joker: the roll must go in the boxes offered
        self.bonus = 0  # the five-of-a-kind bonus this roll earns wherever it goes
        # by box: the expected final total (x 100) it leads to
        self.expect = zeros("i", _rules.MAX_BOXES)
        # the coach valued the boxes (a strategy table): shown beside the points
        self.valued = False
        self.whole = True  # the next frame draws it all (the panel holds another screen's)
        # what each row on the panel shows: its line * 2 + under the cursor (ListScreen.draw_rows)
        self.shown = array("h", [-1] * self.rows)

    def enter(self, app):
        g = app.session.game
        m = g.preview(self.points)
        n = 0
        for b in range(g.rs.n):
            if (m >> b) & 1:
                self.boxes[n] = b
                n += 1
        self.n = n
        self.forced = g.rs.joker == _rules.JOKER_FORCED and scoring.joker(g.rs, g.cards[g.player])
        self.bonus = g.bonus_now()
        self.valued = False
        c = app.seats.coach
        if c is not None and not app.session.cpu_turn():
            card = g.cards[g.player]
            banked = card.upper() + card.lower() + card.bonus()
            ex = self.expect
            try:
                # wide units, every box offered (the heap locked, as a coach slice: Session._think)
                heap_lock()
                try:
                    c.score_values(card, g.dice, ex)
                    ok = True
                except MemoryError:
                    ok = False
                finally:
                    heap_unlock()
                if not ok:
                    c.score_values(card, g.dice, ex)
                for i in range(n):
                    b = self.boxes[i]
                    ex[b] = banked * 100 + c.to_points_x100(ex[b])
                self.valued = True
            except OSError:
                app.session.coach_lost()
        best = 0  # start on the best box: the coach's when it valued them, else the most points
        ex = self.expect if self.valued else self.points
        for i in range(n):
            if ex[self.boxes[i]] > ex[self.boxes[best]]:
                best = i
        self.cursor = best
        self.scroll()
        self.whole = True

    def press(self, app, b):
        if b == B_OK:
            return app.session.score(self.boxes[self.cursor])
        if b == B_BACK:
            app.back()
        else:
            self.move(b)
        return 0

    def draw(self, fb, app):
        # a cursor move draws again the two rows it changes (a scroll: every row), the rest stays
        # (issue 24)
        g = app.session.game
        W = view.W
        shown = self.shown
        if self.whole:
            self.whole = False
            fb.fill(0)
            for r in range(self.rows):
                shown[r] = -1
            view.header(fb, b"Score it")
            x = view.player_tag(fb, app, g.player, _TAG_X, 0, 0)
            x = gfx.text(fb, b" roll ", x, 0, 0)
            gfx.number(fb, g.rolls, x, 0, 0)
            y = view.FOOT_Y  # the keys, or the Joker and the bonus
            if self.forced or self.bonus:
                x = gfx.text(fb, b"! Joker  " if self.forced else b"", 0, y, 1)
                if self.bonus:
                    x = gfx.text(fb, b"bonus +", x, y, 1)
                    gfx.number(fb, self.bonus, x, y, 1)
            elif self.valued:  # the columns named: the expected final total, the points now
                gfx.text(fb, b"OK score", 0, y, 1)
                gfx.text_right(fb, b"final", W - _FINAL_IN, y, 1)
                gfx.text_right(fb, b"pts", W - _PTS_IN, y, 1)
            else:
                gfx.text(fb, b"OK score  BACK dice", 0, y, 1)
        self.draw_rows(fb, app, shown)

    def row(self, fb, app, i, y, c):
        rs = app.session.game.rs
        box = self.boxes[i]
        x = 1
        if self.forced:
            x = gfx.text(fb, b"!", 1, y, c)
        if self.valued:  # short names: room for the expected final total beside the points
            gfx.text(fb, view.SHORT[rs.index][box], x + 1, y, c)
            tenths_right(fb, self.expect[box], view.W - _FINAL_IN, y, c)
        else:
            gfx.text(fb, view.LONG[rs.index][box], x + 1, y, c)
        gfx.number_right(fb, self.points[box], view.W - _PTS_IN, y, c)
