"""Game over: the places, and what the coach says each human gave away."""
from fivedice.compat import const
from fivedice import gfx
from fivedice import oled_view as view
from fivedice.screens import Screen, B_BACK, B_OK, B_ROLL, M_CARD, M_MENU
from fivedice.oled_view import choice, faces, tenths, tenths_width

# lines on the panel's pages, as the scorecard's: one under the title bar, the next a page lower
# (a glyph's top row is blank: the gap); drawn a page at a time, text is bytes, not blits
_TOP_Y = const(8)  # the first line, right under the title bar
_LINE = const(8)  # one line of text and its gap
_LAST_Y = const(48)  # the lowest line: the keys line (oled_view.KEYS_Y, 56) follows it
_TITLE_X = const(62)  # the rule set's name, after "Game over"
_TAG_X = const(24)  # a player's tag, after the place ("1st")
_CH = const(6)  # one character's advance (fivedice.font.ADVANCE): a space, the '-'
_PER_X = const(12)  # "0.31 per decision", indented under the player's line
# proficiency's _W_TURN .. _W_BVALUE (its costliest decision's layout) and game.KEEP, as consts:
# imported, they would be globals this resident screen keeps (test_over_screen.py: they agree)
_W_TURN = const(5)
_W_KIND = const(6)
_W_VALUE = const(7)
_W_BKIND = const(8)
_W_BVALUE = const(9)
_KEEP = const(1)

ORDINALS = (b"", b"1st", b"2nd", b"3rd", b"4th")
LEVELS = (b"", b"easy", b"good", b"perfect")


def decimal2(fb, x100, x, y, c):
    """Draw hundredths as a number with two decimals (12.34) without building a string."""
    x = gfx.number(fb, x100 // 100, x, y, c)
    x = gfx.glyph(fb, ord("."), x, y, c)
    x = gfx.glyph(fb, ord("0") + (x100 // 10) % 10, x, y, c)
    return gfx.glyph(fb, ord("0") + x100 % 10, x, y, c)


def decimal1(fb, x100, x, y, c):
    """Hundredths drawn rounded to one decimal (12.3), or to a whole number from 100 up; never "-0".
    """
    if x100 < 0:
        x100 = 0
    x10 = (x100 + 5) // 10
    if x10 >= 1000:
        return gfx.number(fb, (x100 + 50) // 100, x, y, c)
    x = gfx.number(fb, x10 // 10, x, y, c)
    x = gfx.glyph(fb, ord("."), x, y, c)
    return gfx.glyph(fb, ord("0") + x10 % 10, x, y, c)


class Over(Screen):
    def __init__(self):
        self.rank = bytearray(4)  # players best first

    def press(self, app, b):
        if b == B_OK:
            app.show(M_CARD)
        elif b == B_ROLL:
            app.session.new_game(True)  # again: the same rules and seats
        elif b == B_BACK:
            app.enter(M_MENU)
        return 0

    def draw(self, fb, app):
        g = app.session.game
        W = view.W
        fb.fill(0)
        view.header(fb, b"Game over")
        gfx.text(fb, view.SHORT_TITLES[g.rs.index], _TITLE_X, 0, 0)
        n = g.ranking(self.rank)
        y = _TOP_Y
        for r in range(n):
            p = self.rank[r]
            gfx.text(fb, ORDINALS[g.place(p)], 0, y, 1)
            x = view.player_tag(fb, app, p, _TAG_X, y, 1)
            gfx.text(fb, LEVELS[app.seats.seated[p]], x + _CH, y, 1)
            gfx.number_right(fb, g.cards[p].total(), W - 1, y, 1)
            y += _LINE
        # the coach on the human players: expected points their choices gave away against optimal
        # play, "P1 gave away 12.4 pts" and, where there is room, "  0.31 per decision" under it (21
        # chars at most)
        nh = 0
        for p in range(g.players):
            if app.seats.prof[p] is not None:
                nh += 1
        # where three lines each fit with the keys line under them: the costliest decision under
        # the total, "turn 7: kept 3 3  -4.2" / "best keep 6 6 6"; else two lines each where the
        # keys line still fits under them ("  0.31 per decision")
        worst = y + nh * 3 * _LINE <= view.KEYS_Y
        two = not worst and y + nh * 2 * _LINE <= view.KEYS_Y
        for p in range(g.players):
            pr = app.seats.prof[p]
            if pr is None or y > _LAST_Y:
                continue
            x = view.player_tag(fb, app, p, 0, y, 1)
            if pr.loss_x100() <= 0:
                gfx.text(fb, b" played perfectly", x, y, 1)
                y += _LINE
                continue
            x = gfx.text(fb, b" gave away ", x, y, 1)
            x = decimal1(fb, pr.loss_x100(), x, y, 1)
            gfx.text(fb, b" pts", x, y, 1)
            y += _LINE
            if worst and pr.w[_W_TURN]:
                y = self.costliest(fb, g.rs, pr, y)
            elif two or worst:
                x = decimal2(fb, pr.per_decision_x100(), _PER_X, y, 1)
                gfx.text(fb, b" per decision", x, y, 1)
                y += _LINE
        if y <= view.KEYS_Y:
            gfx.text(fb, b"OK card  ROLL again", 0, view.KEYS_Y, 1)

    def costliest(self, fb, rs, pr, y):
        # "turn 6: kept 3 3" / "best keep 6 6 6" (boxes by short names), "-4.2" on the first line
        # with room; pr.w: the dice, the turn, the kind and value chosen, the best kind and value
        w = pr.w
        x = gfx.text(fb, b"turn ", 0, y, 1)
        kept = w[_W_KIND] == _KEEP
        x = gfx.text(fb, b": kept" if kept else b": ", gfx.number(fb, w[_W_TURN], x, y, 1), y, 1)
        if not kept:
            xa = gfx.text(fb, view.SHORT[rs.index][w[_W_VALUE]], x, y, 1)
        else:  # the dice held
            held = w[_W_VALUE]
            xa = faces(fb, held, w, x, y, 1) if held else gfx.text(fb, b" none", x, y, 1)
        y2 = y + _LINE
        x = gfx.text(fb, b"best ", 0, y2, 1)
        if w[_W_BKIND] == _KEEP:
            xb = choice(fb, rs, _KEEP, w[_W_BVALUE], w, x, y2, 1)
        else:
            xb = gfx.text(fb, view.SHORT[rs.index][w[_W_BVALUE]], x, y2, 1)
        v = pr.worst_x100()
        x = view.W - _CH - tenths_width(v)
        if xa + _CH <= x or xb + _CH <= x:
            ya = y if xa + _CH <= x else y2
            tenths(fb, v, gfx.glyph(fb, ord("-"), x, ya, 1), ya, 1)
        return y2 + _LINE
