"""The scorecard: every player's boxes, upper subtotal and bonus, extra bonuses, total."""
from fivedice.compat import const
from fivedice import gfx
from fivedice import oled_view as view
from fivedice.screens import Screen, B_BACK, B_DOWN, B_OK, B_UP

# Rows after the boxes: upper subtotal, upper bonus, extra bonuses, total.
_EXTRA_ROWS = (b"Upper", b"Bonus", b"Extra", b"TOTAL")
_COL_W = const(22)  # a player's column, at the right
_TAG_IN = const(2)  # a player's tag, and the mark under the one to play: this far in from its sides
_ROW_H = const(8)  # a text row: the card packs them under the title bar
_UPPER = const(6)  # the first lower box follows Ones .. Sixes: a line over it
_CH = const(6)  # a char's advance (fivedice.font.ADVANCE): an open box's '-' fills the last one
# the font's '-' (its columns 1-3, row 3), drawn as that rectangle: a text call costs four of it
_DASH_X = const(1)
_DASH_Y = const(3)
_DASH_W = const(3)


def card_rows(rs):
    return rs.n + 4


class Card(Screen):
    rows = 7

    def press(self, app, b):
        if b == B_DOWN and self.top + self.rows < card_rows(app.session.game.rs):
            self.top += 1
        elif b == B_UP and self.top > 0:
            self.top -= 1
        elif b == B_OK or b == B_BACK:
            app.back()  # to the dice, or game over
        return 0

    def draw(self, fb, app):
        g = app.session.game
        rs = g.rs
        W = view.W
        fb.fill(0)
        view.header(fb, b"Card")
        np = g.players
        x0 = W - np * _COL_W
        for p in range(np):
            view.player_tag(fb, app, p, x0 + p * _COL_W + _TAG_IN, 0, 0)
        nrows = card_rows(rs)
        names = view.SHORT[rs.index]
        cards = g.cards
        for r in range(self.rows):
            i = self.top + r
            if i >= nrows:
                break
            y = (r + 1) * _ROW_H
            if i < rs.n:
                gfx.text(fb, names[i], 0, y, 1)
                if i == _UPPER:
                    fb.hline(0, y - 1, W, 1)
            else:
                gfx.text(fb, _EXTRA_ROWS[i - rs.n], 0, y, 1)
            for p in range(np):
                c = cards[p]
                xr = x0 + (p + 1) * _COL_W - 1
                if i < rs.n:
                    if (c.filled >> i) & 1:  # (c.is_filled(i), a call less a cell)
                        gfx.number_right(fb, c.pts[i], xr, y, 1)
                    else:
                        fb.fill_rect(xr - _CH + _DASH_X, y + _DASH_Y, _DASH_W, 1, 1)  # '-'
                else:
                    k = i - rs.n
                    v = (
                        c.upper()
                        if k == 0
                        else c.upper_bonus()
                        if k == 1
                        else c.bonus()
                        if k == 2
                        else c.total()
                    )
                    gfx.number_right(fb, v, xr, y, 1)
        # mark the column of the player whose turn it is
        if not g.over:
            fb.hline(x0 + g.player * _COL_W + _TAG_IN, _ROW_H - 1, _COL_W - 2 * _TAG_IN, 1)
