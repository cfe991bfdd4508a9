"""Game over: the places, and what the coach says each human gave away."""
from fivedice import gfx
from fivedice import oled_view as view
from fivedice.screens import Screen, B_BACK, B_OK, B_ROLL, M_MENU, M_OVER

ORDINALS = (b"", b"1st", b"2nd", b"3rd", b"4th")
LEVELS = (b"", b"easy", b"good", b"perfect")


def decimal2(fb, x100, x, y, c):
    """Draw hundredths as a number with two decimals (12.34) without building a string."""
    x = gfx.number(fb, x100 // 100, x, y, c)
    x = gfx.glyph(fb, view.G_DOT, x, y, c)
    x = gfx.glyph(fb, view.G_ZERO + (x100 // 10) % 10, x, y, c)
    return gfx.glyph(fb, view.G_ZERO + x100 % 10, x, y, c)


def decimal1(fb, x100, x, y, c):
    """Hundredths drawn rounded to one decimal (12.3), or to a whole number from 100 up; never "-0"."""
    if x100 < 0:
        x100 = 0
    x10 = (x100 + 5) // 10
    if x10 >= 1000:
        return gfx.number(fb, (x100 + 50) // 100, x, y, c)
    x = gfx.number(fb, x10 // 10, x, y, c)
    x = gfx.glyph(fb, view.G_DOT, x, y, c)
    return gfx.glyph(fb, view.G_ZERO + x10 % 10, x, y, c)


class Over(Screen):
    def __init__(self):
        self.rank = bytearray(4)  # players best first

    def press(self, app, b):
        if b == B_OK:
            app.show_card(M_OVER)
        elif b == B_ROLL:
            app.again()  # a new game with the same rules and seats
        elif b == B_BACK:
            app.enter(M_MENU)
        return 0

    def draw(self, fb, app):
        g = app.game
        W = view.W
        fb.fill(0)
        view.header(fb, b"Game over")
        gfx.text(fb, view.SHORT_TITLES[g.rs.index], 62, 0, 0)
        n = g.ranking(self.rank)
        y = 10
        for r in range(n):
            p = self.rank[r]
            gfx.text(fb, ORDINALS[g.place(p)], 0, y, 1)
            x = view.player_tag(fb, app, p, 24, y, 1)
            gfx.text(fb, LEVELS[app.seated[p]], x + 6, y, 1)
            gfx.number_right(fb, g.cards[p].total(), W - 1, y, 1)
            y += 9
        # the coach on the human players: expected points their choices gave away against optimal play,
        # "P1 gave away 12.4 pts" and, where there is room, "  0.31 per decision" under it (21 chars at most)
        nh = 0
        for p in range(g.players):
            if app.prof[p] is not None:
                nh += 1
        two = nh * 18 <= 47 - y  # two lines each only where the keys line still fits under them
        for p in range(g.players):
            pr = app.prof[p]
            if pr is None or y > 47:
                continue
            x = view.player_tag(fb, app, p, 0, y, 1)
            if pr.loss_x100() <= 0:
                gfx.text(fb, b" played perfectly", x, y, 1)
                y += 9
                continue
            x = gfx.text(fb, b" gave away ", x, y, 1)
            x = decimal1(fb, pr.loss_x100(), x, y, 1)
            gfx.text(fb, b" pts", x, y, 1)
            y += 9
            if two:
                x = decimal2(fb, pr.per_decision_x100(), 12, y, 1)
                gfx.text(fb, b" per decision", x, y, 1)
                y += 9
        if y <= 47:
            gfx.text(fb, b"OK card  ROLL again", 0, 56, 1)
