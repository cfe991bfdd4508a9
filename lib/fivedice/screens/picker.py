"""The box picker: every box the roll may go in, with its points; OK scores the one under the
cursor."""
from array import array

from fivedice.compat import const, zeros
from fivedice import gfx
from fivedice import oled_view as view
from fivedice import rules as _rules
from fivedice import scoring
from fivedice.screens import Screen, B_BACK, B_DOWN, B_OK, B_UP
from fivedice.oled_view import tenths_right

_ROWS_Y = const(9)  # the first box's row; a row is 8 pixels


class Picker(Screen):
    rows = 6

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
        # what each row on the panel shows: box * 2 + under the cursor
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
                c.score_values(card, g.dice, ex)  # wide units, every box offered
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
        if b == B_UP:
            self.cursor = (self.cursor - 1) % self.n
        elif b == B_DOWN:
            self.cursor = (self.cursor + 1) % self.n
        elif b == B_OK:
            return app.session.score(self.boxes[self.cursor])
        elif b == B_BACK:
            app.back()
        self.scroll()
        return 0

    def draw(self, fb, app):
        # a cursor move draws again the two rows it changes (a scroll: every row), the rest stays
        # (issue 24)
        g = app.session.game
        rs = g.rs
        W = view.W
        shown = self.shown
        rows = self.rows
        if self.whole:
            self.whole = False
            fb.fill(0)
            for r in range(rows):
                shown[r] = -1
            view.header(fb, b"Score it")
            x = view.player_tag(fb, app, g.player, 60, 0, 0)
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
                gfx.text_right(fb, b"final", W - 28, y, 1)
                gfx.text_right(fb, b"pts", W - 4, y, 1)
            else:
                gfx.text(fb, b"OK score  BACK dice", 0, y, 1)
        n = self.n
        top = self.top
        drew = False
        for r in range(rows):
            i = top + r
            if i >= n:
                break
            box = self.boxes[i]
            k = box * 2 + (i == self.cursor)
            if shown[r] == k:
                continue
            shown[r] = k
            drew = True
            y = _ROWS_Y + r * 8
            c = 1
            if i == self.cursor:
                view.row_bar(fb, y)
                c = 0
            else:
                fb.fill_rect(0, y, W, 8, 0)
            x = 1
            if self.forced:
                x = gfx.text(fb, b"!", 1, y, c)
            if self.valued:  # short names: room for the expected final total beside the points
                gfx.text(fb, view.SHORT[rs.index][box], x + 1, y, c)
                tenths_right(fb, self.expect[box], W - 28, y, c)
            else:
                gfx.text(fb, view.LONG[rs.index][box], x + 1, y, c)
            gfx.number_right(fb, self.points[box], W - 4, y, c)
        if drew and (top > 0 or top + rows < n):
            # a scroll bar: where the visible rows sit in the list (over the rows: drawn again with
            # any of them)
            fb.vline(W - 1, _ROWS_Y, rows * 8, 1)
            fb.fill_rect(W - 2, _ROWS_Y + top * rows * 8 // n, 2, rows * rows * 8 // n, 1)
