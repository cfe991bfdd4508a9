"""Game over: the places, and what the coach says each human gave away."""
from fivedice.compat import const
from fivedice import gfx
from fivedice import oled_view as view
from fivedice.screens import Screen, B_BACK, B_OK, B_ROLL, M_CARD, M_MENU

# lines on the panel's pages, as the scorecard's: one under the title bar, the next a page lower
# (a glyph's top row is blank: the gap); drawn a page at a time, text is bytes, not blits
_TOP_Y = const(8)  # the first line, right under the title bar
_LINE = const(8)  # one line of text and its gap
_LAST_Y = const(48)  # the lowest line: the keys line (oled_view.KEYS_Y, 56) follows it
_TITLE_X = const(62)  # the rule set's name, after "Game over"
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

# a line is composed in _TEXT (_put, _put_int), then drawn in one call (_line), where a call a
# piece costs a char's time three times over: spaces have no ink. _FITS: the 21 chars a line of
# the screen holds; then room for "turn 13: kept 1 2 3 4 5" (its 22nd char shows in part).
_TEXT = bytearray(b" " * 23)
_FITS = memoryview(_TEXT)[:21]


def decimal2(fb, x100, x, y, c):
    """Draw hundredths as a number with two decimals (12.34) without building a string."""
    x = gfx.number(fb, x100 // 100, x, y, c)
    x = gfx.glyph(fb, ord("."), x, y, c)
    x = gfx.glyph(fb, ord("0") + (x100 // 10) % 10, x, y, c)
    return gfx.glyph(fb, ord("0") + x100 % 10, x, y, c)


def _put(j, s):
    """Bytes s into _TEXT from j on; returns the index after them."""
    k = j + len(s)
    _TEXT[j:k] = s
    return k


def _put_int(j, n, tenths=False):
    """Int n >= 0 in decimal into _TEXT from j on; returns the index after it. tenths: n is in
    tenths, written with its point ("12.4")."""
    m = n // 10 if tenths else n
    k = j + gfx.number_width(m) // _CH - 1  # its last digit's index
    e = k + 1
    while k >= j:
        _TEXT[k] = 48 + m % 10
        m //= 10
        k -= 1
    if tenths:
        _TEXT[e] = 46  # '.'
        _TEXT[e + 1] = 48 + n % 10
        e += 2
    return e


def _line(fb, n, y):
    """_TEXT's first n chars drawn at y from the left; then it is blanked (from a literal: no bytes
    made)."""
    gfx.text(fb, _FITS, 0, y, 1)
    if n > 21:  # (cut at the screen's edge)
        gfx.text(fb, _TEXT, 0, y, 1)
    _TEXT[0:23] = b"                       "


class Over(Screen):
    def __init__(self):
        self.rank = bytearray(4)  # players best first
        self.totals = [0, 0, 0, 0]  # theirs by seat, summed once a frame (by the ranking)

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
        rank = self.rank
        totals = self.totals
        n = g.ranking(rank, totals)
        y = _TOP_Y
        place = 1
        for r in range(n):
            p = rank[r]
            t = totals[p]
            if r and t < totals[rank[r - 1]]:
                place = r + 1  # (tied players share the better place, as game.place())
            j = _put(0, ORDINALS[place])
            _TEXT[4] = 80  # 'P'
            _TEXT[5] = 49 + p  # '1' + p (oled_view.player_tag's tag)
            level = app.seats.seated[p]
            if level:
                _TEXT[6] = 42  # '*'
                j = _put(8, LEVELS[level])
            _line(fb, j, y)
            gfx.number_right(fb, t, W - 1, y, 1)
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
            loss = pr.loss_x100()
            if loss <= 0:
                x = view.player_tag(fb, app, p, 0, y, 1)
                gfx.text(fb, b" played perfectly", x, y, 1)
                y += _LINE
                continue
            # "P1 gave away 12.4 pts" (a human's tag: the meter is a human's), a whole number of
            # points from 100 up
            _put(0, b"P1 gave away ")
            _TEXT[1] = 49 + p  # '1' + p
            x10 = (loss + 5) // 10
            if x10 >= 1000:
                j = _put_int(13, (loss + 50) // 100)
            else:
                j = _put_int(13, x10, True)
            _line(fb, _put(j, b" pts"), y)
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
        # "turn 6: kept 3 3" / "best keep 6 6 6" (boxes by short names), "-4.2" at the end of the
        # first line with room, a char apart; pr.w: the dice, the turn, the kind and value chosen,
        # the best kind and value
        w = pr.w
        v = pr.worst_x100()
        v = (v + 5) // 10 if v > 0 else 0  # in tenths
        n = 3 + gfx.number_width(v // 10) // _CH  # "-4.2"'s chars
        j = _put_int(_put(0, b"turn "), w[_W_TURN])
        if w[_W_KIND] != _KEEP:
            j = _put(_put(j, b": "), view.SHORT[rs.index][w[_W_VALUE]])
        elif w[_W_VALUE]:  # the dice held
            k = view.faces_text(w[_W_VALUE], w)
            j = _put(_put(j, b": kept"), view.FACES_TEXT) - 10 + k  # (spaces after them)
        else:
            j = _put(j, b": kept none")
        if j + 1 + n <= 21:  # right-aligned in the line's 21 chars
            _TEXT[21 - n] = 45  # '-'
            _put_int(22 - n, v, True)
            n = 0  # drawn
        _line(fb, j, y)
        y += _LINE
        j = _put(0, b"best ")
        if w[_W_BKIND] != _KEEP:
            j = _put(j, view.SHORT[rs.index][w[_W_BVALUE]])
        elif w[_W_BVALUE]:
            k = view.faces_text(w[_W_BVALUE], w)
            j = _put(j, view.KEEP_TEXT) - 10 + k  # "keep 6 6 6"
        else:
            j = _put(j, b"roll all")
        if n and j + 1 + n <= 21:
            _TEXT[21 - n] = 45
            _put_int(22 - n, v, True)
        _line(fb, j, y)
        return y + _LINE
