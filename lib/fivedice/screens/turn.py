"""The dice: roll, hold, ask the coach; the status line says what just happened."""
from fivedice.compat import const, zeros
from fivedice import game as _game
from fivedice import gfx
from fivedice.game import KEEP, SCORE
from fivedice import oled_view as view
from fivedice.oled_view import (
    choice,
    tenths,
    tenths_right,
    tenths_width,
    DICE_X,
    DICE_Y,
    DIE,
    DIE_GAP,
)
from fivedice.screens import (
    Screen,
    B_BACK,
    B_DOWN,
    B_OK,
    B_ROLL,
    B_UP,
    B_HOLD5,
    M_CARD,
    M_MENU,
    M_PICK,
)
from fivedice.ticks import ticks_diff

# ROLL taps closer than this to an ignored one belong to its burst (docs/rules.md)
_BURST_MS = const(250)
# the rows under the dice: the coach's keep marks; the roll count and turn, the message line and the
# keys on the panel's last three pages (text on a page is bytes, not blits, on CircuitPython), or
# the hint's three choices over all three: the best on its bar right under the marks, the other two
# on the last two pages (imported numbers: not a const, which must be known where it is compiled)
_MARKS_Y = DICE_Y + DIE + 1
_TURN_Y = const(40)
_STATUS_Y = const(48)
_CHOICES_Y = const(35)
_OTHERS_Y = const(48)  # the second choice; the third a page under it
_MARK_IN = const(6)  # a keep mark: this far in from each side of its die, 2 rows high
_MARK_H = const(2)
_TITLE_X = const(24)  # the rule set's name, after the player's tag
_TURN_X = const(68)  # "Turn 5/13", after the roll count
# coach.choices' array (coach.TOP_LEN, laid out as the coach's own _TV, _TW, _TN): the kinds at 0-2,
# the values from _TV, the wide values from _TW, how many at _TN
_TV = const(3)
_TW = const(6)
_TN = const(12)
# Turn.shown after the dice: the 13 values the screen shows beside them, then session.top3
_REST = const(13)

KEYS = (
    b"1-5 hold  ROLL roll",
    b"OK score  v card",
    b"OK score ^hint v card",
)


class Turn(Screen):
    """ROLL while the dice tumble is ignored, as on electronic handhelds, and so are the ROLL taps
    that keep coming less than _BURST_MS apart after it: a double tap, or a burst of taps, rolls
    once."""

    def __init__(self):
        # a ROLL press was ignored and the taps since came less than _BURST_MS apart
        self.burst = False
        self.burst_at = 0  # the last of them
        # what the panel shows (draw): each die's face or tumbling frame, then what the rest of the
        # screen shows; made at the first enter
        self.whole = True
        self.shown = self.now = None

    def enter(self, app):
        self.whole = True  # another screen drew the panel: this one draws all of itself once
        if self.shown is None:
            # the dice (gfx.dice_row), then the rest (_changed)
            self.shown = zeros("i", 5 + _REST + len(app.session.top3))
            self.now = zeros("i", _REST)

    def leave(self, app):
        self.burst = False

    def tick(self, app, now):
        if self.burst and ticks_diff(now, self.burst_at) >= _BURST_MS:
            self.burst = False

    def press(self, app, b):
        s = app.session
        burst = self.burst and ticks_diff(app.now, self.burst_at) < _BURST_MS
        if b == B_ROLL and (s.tumbling or burst):
            self.burst = True
            self.burst_at = app.now
            return 0
        self.burst = False
        if b == B_BACK:
            app.enter(M_MENU)
            return 0
        if b == B_UP and app.seats.coach is not None and not s.cpu_turn() and not s.tumbling:
            return s.hint()
        if b == B_DOWN or b == B_UP:
            app.show(M_CARD)
            return 0
        if s.cpu_turn():
            return 0  # the computer is playing this seat
        if s.tumbling:
            return 0
        if b <= B_HOLD5:
            return s.toggle(b)
        if b == B_ROLL:
            return s.start_roll()
        if b == B_OK:
            r = s.game.check_score(0)
            if r == _game.SCORE_BEFORE_ROLL or r == _game.GAME_OVER:
                return app.refuse(r)
            app.show(M_PICK)
        return 0

    def shake(self, app, on):
        """Shaking rolls the unheld dice; they land when the shaking stops."""
        s = app.session
        if not s.in_game() or s.cpu_turn():
            return 0
        if on:
            if s.tumbling:
                s.land_at = 0  # a ROLL tumble becomes a shake: land when it stops
                return 0
            return s.start_roll(0)
        if s.tumbling:
            return s.land()
        return 0

    def draw(self, fb, app):
        # a die is drawn again only when it changed, the rest of the screen only when a value it
        # shows did (issue 24: a hold draws one die); the frame is the one drawn whole
        # (tests/lib/screens/test_partial_frames.py)
        s = app.session
        g = s.game
        rs = g.rs
        card = g.cards[g.player]
        w = self.shown
        if self.whole:
            self.whole = False
            fb.fill(0)
            for i in range(5):
                w[i] = gfx.UNSHOWN
            w[5 + 1] = -1  # the rest's player (_changed's v[1]): none is -1, so every part is drawn
        gfx.dice_row(fb, g.dice, g.held, DICE_X, DICE_Y, DIE, DIE_GAP, s.tumbling, s.frame, 1, w)
        new = self._changed(app, g, card)
        if new & 1:  # the header
            fb.fill_rect(0, 0, view.W, DICE_Y, 0)
            view.player_tag(fb, app, g.player, 0, 0, 1)
            gfx.text(fb, view.SHORT_TITLES[rs.index], _TITLE_X, 0, 1)
            gfx.number_right(fb, card.total(), view.W, 0, 1)
        if not new & 2:  # the rest under the dice
            return
        fb.fill_rect(0, DICE_Y + DIE, view.W, view.H - DICE_Y - DIE, 0)
        if s.hint_kind == KEEP:
            # the coach's keep: a mark under each die to hold
            for i in range(5):
                if (s.hint_value >> i) & 1:
                    x = DICE_X + i * (DIE + DIE_GAP)
                    fb.fill_rect(x + _MARK_IN, _MARKS_Y, DIE - 2 * _MARK_IN, _MARK_H, 1)
        if s.hint_kind > 0 and not app.toast and app.seats.coach is not None and s.top3[_TN]:
            self.choices(fb, app, g, card)
            return
        y = _TURN_Y
        view.roll_count(fb, g.rolls, y)
        x = gfx.text(fb, b"Turn ", _TURN_X, y, 1)
        x = gfx.number(fb, g.turn + 1, x, y, 1)
        x = gfx.text(fb, b"/", x, y, 1)
        gfx.number(fb, rs.n, x, y, 1)
        self.status(fb, app, _STATUS_Y)
        y = view.KEYS_Y
        if app.seats.seated[g.player]:
            # "CPU good": the level (and the '*')
            x = gfx.text(fb, view.SEATS[app.seats.seated[g.player]], 0, y, 1)
            x = gfx.text(fb, b" plays", x, y, 1)
            for i in range(s.dots):
                x = gfx.glyph(fb, ord("."), x, y, 1)  # the dots step while the computer works
        else:
            gfx.text(
                fb,
                KEYS[0] if g.rolls == 0 else KEYS[2] if app.seats.coach is not None else KEYS[1],
                0,
                y,
                1,
            )

    def _changed(self, app, g, card):
        """Which parts show a value that differs from what the panel shows (then kept): bit 0 the
        header (the total, the player), bit 1 what is under the dice (the player, the turn, the
        rolls, the message line, the keys, the hint). What the message line says of the last score
        changes only with the player or the turn, and the faces a hint names only with the rolls:
        those stand for them."""
        v = self.now
        s = app.session
        v[0] = card.total()
        v[1] = g.player
        v[2] = app.seats.seated[g.player]
        v[3] = g.turn
        v[4] = g.rolls
        v[5] = app.toast
        v[6] = s.five
        v[7] = s.to_beat
        v[8] = s.par_x100
        v[9] = s.dots
        v[10] = app.seats.coach is not None
        v[11] = s.hint_kind
        v[12] = s.hint_value
        w = self.shown
        new = 0
        for i in range(_REST):
            if w[5 + i] != v[i]:
                w[5 + i] = v[i]
                # the total; the player and their seat; the rest
                new |= 1 if i == 0 else 3 if i < 3 else 2
        t = s.top3
        for i in range(len(t)):
            if w[5 + _REST + i] != t[i]:
                w[5 + _REST + i] = t[i]
                new |= 2
        return new

    def choices(self, fb, app, g, card):
        # the hint: the best three choices with the expected final total of each, the best marked
        # under the dice
        c = app.seats.coach
        top = app.session.top3  # coach.choices: kinds, values, wide values, .., the count
        # the coach's values hold the upper bonus
        banked = card.upper() + card.lower() + card.bonus()
        for i in range(top[_TN]):
            y = _CHOICES_Y if i == 0 else _OTHERS_Y + (i - 1) * 8
            if i == 0:
                view.line_bar(fb, y)
            k = 0 if i == 0 else 1
            choice(fb, g.rs, top[i], top[_TV + i], g.dice, 1, y, k)
            tenths_right(fb, banked * 100 + c.to_points_x100(top[_TW + i]), view.W, y, k)

    def status(self, fb, app, y):
        """The message line: a refusal, what the last action scored, and par (the hint has its own
        lines)."""
        if app.toast:
            view.line_bar(fb, y)
            gfx.text(fb, view.MESSAGES[app.toast], 1, y, 0)
            return
        s = app.session
        g = s.game
        x = 0
        if g.last_box >= 0 and g.rolls == 0:
            x = view.player_tag(fb, app, s.last_player, 0, y, 1)
            x = gfx.text(fb, b" ", x, y, 1)
            x = gfx.text(fb, view.SHORT[g.rs.index][g.last_box], x, y, 1)
            x = gfx.text(fb, b" +", x, y, 1)
            x = gfx.number(fb, g.last_points, x, y, 1)
            if g.last_bonus:
                x = gfx.text(fb, b" +", x, y, 1)
                x = gfx.number(fb, g.last_bonus, x, y, 1)
        elif g.rolls and s.five:
            x = view.W  # the five-of-a-kind cheer has the line to itself
            gfx.text_center(fb, view.FIVE_NAMES[g.rs.index], view.W // 2, y, 1)
        elif s.to_beat:
            x = gfx.text(fb, b"Best to beat: ", 0, y, 1)  # a solo game: the records' top score
            x = gfx.number(fb, s.to_beat, x, y, 1)
        if s.par_x100 >= 0 and not app.seats.seated[g.player]:
            # par: the expected final total from the start of this turn, where the line has room
            if x + 6 + 4 * 6 + tenths_width(s.par_x100) <= view.W:  # a space at least before it
                x = gfx.text_right(fb, b"par ", view.W - tenths_width(s.par_x100), y, 1)
                tenths(fb, s.par_x100, x + 24, y, 1)
