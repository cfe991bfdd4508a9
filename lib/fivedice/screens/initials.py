"""Game over, first: the finished game goes into the records (fivedice.records: high scores and
lifetime stats per rule set), and a human whose score makes the top 5 enters three initials (UP/DOWN
the letter, OK the next one; HOLD1/BACK the one before). Then the game-over screen. Loaded only at
the end of a game with a store, and dropped with the records module when the initials are in."""
# A power cut loses at most the game just finished: the game is saved first, then the records, with
# blank initials that are filled in when entered.
from fivedice.compat import const
from fivedice import gfx
from fivedice import messages as _msg
from fivedice import oled_view as view
from fivedice import records as _rec
from fivedice.screens import Screen, B_BACK, B_DOWN, B_HOLD1, B_HOLD5, B_OK, B_UP, M_OVER
from fivedice.screens.over import ORDINALS

CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "  # what UP/DOWN step through
_BIG = const(3)  # letter scale: 15x24 pixels
_LINE_Y = const(10)  # "P1 254 is 2nd", under the title bar
_LETTER_X = const(34)  # the first big letter; the next ones _LETTER_PITCH on
_LETTER_PITCH = const(22)
_LETTER_Y = const(22)
_CURSOR_Y = const(46)  # the bar under the letter being set: 2 rows, a pixel wider each side


class Initials(Screen):
    def __init__(self):
        self.recs = None
        self.seats = bytearray(4)  # human seats whose score made the table, in seat order
        self.orders = [0, 0, 0, 0]  # their game numbers in the records (which entry is theirs)
        self.n = 0
        self.i = 0  # the seat entering initials now: seats[i]
        self.letters = bytearray(b"AAA")
        self.at = 0  # the letter being set

    def enter(self, app):
        self.recs = _rec.Records()
        why = _rec.load(app.store, self.recs)
        if why is not None:  # unreadable: kept aside (these start new records), said once
            app.records_error = why
            app.message(_msg.T_RECORDS_BAD)
        g = app.session.game
        rs = g.rs
        for p in range(g.players):
            if app.seats.seated[p]:
                continue  # a CPU's score is nobody's record
            score, fives, bonus = _rec.game_stats(rs, g.cards[p])
            pr = app.seats.prof[p]
            loss = pr.loss_x100() if pr is not None and pr.decisions else 0
            order = self.recs.add_game(rs.index, score, fives, bonus, loss if loss > 0 else 0,
                                       pr.decisions if pr is not None else 0, pr is not None)
            if self.recs.insert(rs.index, score, b"   ", order) >= 0:
                self.seats[self.n] = p
                self.orders[self.n] = order
                self.n += 1
        self._store(app)
        if self.n == 0:
            app.enter(M_OVER)

    def leave(self, app):
        self.recs = None

    def _store(self, app):
        if _rec.save(app.store, self.recs) is not None:
            app.message(_msg.T_SAVE_FAILED)

    def press(self, app, b):
        c = 0
        while CHARS[c] != self.letters[self.at]:
            c += 1
        if b == B_UP:
            self.letters[self.at] = CHARS[(c + 1) % len(CHARS)]
        elif b == B_DOWN:
            self.letters[self.at] = CHARS[(c - 1) % len(CHARS)]
        elif b == B_HOLD1 or b == B_BACK:
            if self.at > 0:
                self.at -= 1
        elif b == B_OK or b == B_HOLD5:
            if self.at < 2:
                self.at += 1
            else:
                self._done(app)
        return 0

    def _done(self, app):
        rs = app.session.game.rs.index
        r = self.recs.rank_of(rs, self.orders[self.i])
        if r >= 0:
            self.recs.set_initials(rs, r, self.letters)
            self._store(app)
        self.i += 1
        self.at = 0
        if self.i >= self.n:
            app.enter(M_OVER)

    def draw(self, fb, app):
        g = app.session.game
        p = self.seats[self.i]
        fb.fill(0)
        view.header(fb, b"New top 5!")  # (10 characters: room for a space before the longest title)
        gfx.text_right(fb, view.SHORT_TITLES[g.rs.index], view.W - 1, 0, 0)
        x = view.player_tag(fb, app, p, 0, _LINE_Y, 1)
        x = gfx.text(fb, b" ", x, _LINE_Y, 1)
        x = gfx.number(fb, g.cards[p].total(), x, _LINE_Y, 1)
        x = gfx.text(fb, b" is ", x, _LINE_Y, 1)
        r = self.recs.rank_of(g.rs.index, self.orders[self.i])
        gfx.text(fb, ORDINALS[r + 1] if 0 <= r < 4 else b"5th", x, _LINE_Y, 1)
        for j in range(3):
            x = _LETTER_X + j * _LETTER_PITCH
            gfx.glyph(fb, self.letters[j], x, _LETTER_Y, 1, _BIG)
            if j == self.at:
                fb.fill_rect(x - 1, _CURSOR_Y, 5 * _BIG + 2, 2, 1)  # the letter being set
        gfx.text(fb, b"^v letter  OK next", 0, view.KEYS_Y, 1)
