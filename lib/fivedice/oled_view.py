"""What the 128x64 OLED shows for each screen of the app, drawn with gfx (our own font) so every
backend renders the same frame. Reads the app's state; allocates nothing per frame.
"""
from fivedice.compat import const, unload
from fivedice import gfx
from fivedice import rules as _r

W = const(128)
H = const(64)
_ROW = const(8)
_DIE = const(20)
_GAP = const(5)
_DICE_X = const(4)
_DICE_Y = const(10)
_KEEP = const(1)  # coach.KEEP
_SCORE = const(2)  # coach.SCORE
PICK_ROWS = const(6)  # box picker rows visible at once
MENU_ROWS = const(6)
CARD_ROWS = const(7)

# Box labels by box id: (long label for the picker, short label for the scorecard).
_LABELS = {
    "ones": ("Ones", "Ones"),
    "twos": ("Twos", "Twos"),
    "threes": ("Threes", "Thrs"),
    "fours": ("Fours", "Fours"),
    "fives": ("Fives", "Fives"),
    "sixes": ("Sixes", "Sixes"),
    "three_kind": ("3 of a kind", "3Kind"),
    "four_kind": ("4 of a kind", "4Kind"),
    "full_house": ("Full house", "FullH"),
    "small_straight": ("Small straight", "SmStr"),
    "large_straight": ("Large straight", "LgStr"),
    "yahtzee": ("YAHTZEE", "Yahtz"),
    "five_kind": ("5 of a kind", "5Kind"),
    "chance": ("Chance", "Chnce"),
    "high_straight": ("High straight", "HiStr"),
    "low_straight": ("Low straight", "LoStr"),
    "high": ("High (22+)", "High"),
    "low": ("Low (21+)", "Low"),
    "yum": ("YUM", "YUM"),
    "one_pair": ("One pair", "1Pair"),
    "two_pairs": ("Two pairs", "2Pair"),
    "yatzy": ("YATZY", "Yatzy"),
    "little_straight": ("Little straight", "LtStr"),
    "big_straight": ("Big straight", "BgStr"),
    "choice": ("Choice", "Choic"),
    "yacht": ("YACHT", "Yacht"),
}
# Per rule set index: tuples of labels in box order (built once at import).
# Text for the screen is bytes: iterating a str makes a new 1-char str on MicroPython
# (unless that char happens to be interned), iterating bytes gives ints and allocates nothing.
# Each label is encoded once and shared by every rule set that has the box (52 bytes objects, not
# 154), and the str table is dropped: about 6 KB less heap on a 64-bit port, 3-4 KB on a board.
_ENC = {}
for _n in _LABELS:
    _ENC[_n] = (_LABELS[_n][0].encode(), _LABELS[_n][1].encode())
LONG = tuple(tuple(_ENC[n][0] for n in rs.names) for rs in _r.ALL)
SHORT = tuple(tuple(_ENC[n][1] for n in rs.names) for rs in _r.ALL)
del _LABELS, _ENC, _n
SHORT_TITLES = (b"Yahtzee", b"5oK forced", b"5oK free", b"Yum", b"Yatzy", b"Yacht")
FIVE_NAMES = (b"YAHTZEE!", b"5 OF A KIND!", b"5 OF A KIND!", b"YUM!", b"YATZY!", b"YACHT!")

# Toast messages: first the short on-screen forms of game.REASONS (same codes), then the app's own.
T_SAVE_BAD = const(10)
T_SAVE_FAILED = const(11)
T_TABLE_BAD = const(12)
T_SAVE_CRASHED = const(13)
T_NO_PERFECT = const(14)
MESSAGES = (
    b"",
    b"No rolls left: score",
    b"Roll first",
    b"Box already filled",
    b"Joker forbids that",
    b"Roll before scoring",
    b"Game over",
    b"No such die",
    b"No such box",
    b"All dice held",
    b"Save unreadable: kept",
    b"Could not save",
    b"Strategy table bad",
    b"Save crashed: kept",
    b"CPU perfect: no table",
)

ORDINALS = (b"", b"1st", b"2nd", b"3rd", b"4th")

# The help pages live in fivedice.help_pages, loaded when the help screen opens and dropped when it
# closes (help_lines / drop_help): about 6 KB of text a board need not hold during a game.
_help = [None]


def help_lines(rules_i):
    """The help page of rule set rules_i (bytes lines, the first is the title); loads the text."""
    mod = _help[0]
    if mod is None:
        from fivedice import help_pages as mod

        _help[0] = mod
    return mod.HELP[rules_i]


def drop_help():
    """Forget the help text so the heap can reclaim it (it is imported again when next needed)."""
    if _help[0] is not None:
        _help[0] = None
        unload("fivedice", "help_pages")


KEYS = (
    b"1-5 hold  ROLL roll",
    b"OK score  v card",
    b"OK score ^hint v card",
)
SEATS = (b"Human", b"CPU easy", b"CPU good", b"CPU perfect")
LEVELS = (b"", b"easy", b"good", b"perfect")


def clear(fb):
    fb.fill(0)


def _header(fb, s):
    fb.fill_rect(0, 0, W, _ROW, 1)
    gfx.text(fb, s, 1, 0, 0)


def _row_bar(fb, y):
    fb.fill_rect(0, y, W, _ROW, 1)


def player_tag(fb, app, p, x, y, c):
    """'P1' and, for a computer player, '*'."""
    x = gfx.text(fb, b"P", x, y, c)
    x = gfx.number(fb, p + 1, x, y, c)
    if app.kinds[p]:
        x = gfx.text(fb, b"*", x, y, c)
    return x


def turn(fb, app):
    g = app.game
    rs = g.rs
    card = g.cards[g.player]
    fb.fill(0)
    player_tag(fb, app, g.player, 0, 0, 1)
    gfx.text(fb, SHORT_TITLES[rs.index], 24, 0, 1)
    gfx.number_right(fb, card.total(), W, 0, 1)
    gfx.dice_row(fb, g.dice, g.held, _DICE_X, _DICE_Y, _DIE, _GAP, app.tumbling, app.frame)
    # roll counter: three boxes, filled for each roll taken
    y = 34
    x = gfx.text(fb, b"Roll", 0, y, 1) + 2
    for i in range(3):
        if i < g.rolls:
            fb.fill_rect(x + i * 9, y, 7, 7, 1)
        else:
            fb.rect(x + i * 9, y, 7, 7, 1)
    x = gfx.text(fb, b"Turn ", 68, y, 1)
    x = gfx.number(fb, g.turn + 1, x, y, 1)
    x = gfx.text(fb, b"/", x, y, 1)
    gfx.number(fb, rs.n, x, y, 1)
    status(fb, app, 45)
    if app.kinds[g.player]:
        gfx.text(fb, b"CPU playing...", 0, 56, 1)
    else:
        gfx.text(fb, KEYS[0] if g.rolls == 0 else KEYS[2] if app.coach is not None else KEYS[1], 0, 56, 1)
    if app.hint_kind == _KEEP:
        # the coach's keep: a mark under each die to hold
        for i in range(5):
            if (app.hint_value >> i) & 1:
                fb.fill_rect(_DICE_X + i * (_DIE + _GAP) + 6, _DICE_Y + _DIE + 1, _DIE - 12, 2, 1)


def status(fb, app, y):
    """The message line: a refusal, or what the last action scored."""
    if app.toast:
        fb.fill_rect(0, y - 1, W, _ROW + 1, 1)
        gfx.text(fb, MESSAGES[app.toast], 1, y, 0)
        return
    g = app.game
    if app.hint_kind:
        x = gfx.text(fb, b"Hint: ", 0, y, 1)
        if app.hint_kind == _SCORE:
            gfx.text(fb, LONG[g.rs.index][app.hint_value], x, y, 1)
        elif app.hint_value == 0:
            gfx.text(fb, b"roll all five", x, y, 1)
        else:
            x = gfx.text(fb, b"hold", x, y, 1)
            for i in range(5):
                if (app.hint_value >> i) & 1:
                    x = gfx.glyph(fb, 49 + i, x + 6, y, 1)
        return
    if g.last_box >= 0 and g.rolls == 0:
        p = app.last_player
        x = player_tag(fb, app, p, 0, y, 1)
        x = gfx.text(fb, b" ", x, y, 1)
        x = gfx.text(fb, SHORT[g.rs.index][g.last_box], x, y, 1)
        x = gfx.text(fb, b" +", x, y, 1)
        x = gfx.number(fb, g.last_points, x, y, 1)
        if g.last_bonus:
            x = gfx.text(fb, b" +", x, y, 1)
            gfx.number(fb, g.last_bonus, x, y, 1)
    elif g.rolls and app.five:
        gfx.text_center(fb, FIVE_NAMES[g.rs.index], W // 2, y, 1)


def picker(fb, app):
    g = app.game
    rs = g.rs
    fb.fill(0)
    _header(fb, b"Score it")
    x = player_tag(fb, app, g.player, 60, 0, 0)
    x = gfx.text(fb, b" roll ", x, 0, 0)
    gfx.number(fb, g.rolls, x, 0, 0)
    n = app.npick
    top = app.top
    for r in range(PICK_ROWS):
        i = top + r
        if i >= n:
            break
        box = app.pick[i]
        y = 9 + r * _ROW
        c = 1
        if i == app.cursor:
            _row_bar(fb, y)
            c = 0
        x = 1
        if app.forced:
            x = gfx.text(fb, b"!", 1, y, c)
        gfx.text(fb, LONG[rs.index][box], x + 1, y, c)
        gfx.number_right(fb, app.preview[box], W - 4, y, c)
    y = 57
    if app.forced or app.bonus:
        x = gfx.text(fb, b"! Joker  " if app.forced else b"", 0, y, 1)
        if app.bonus:
            x = gfx.text(fb, b"bonus +", x, y, 1)
            gfx.number(fb, app.bonus, x, y, 1)
    else:
        gfx.text(fb, b"OK score  BACK dice", 0, y, 1)
    if top > 0 or top + PICK_ROWS < n:
        # a scroll bar: where the visible rows sit in the list
        fb.vline(W - 1, 9, 48, 1)
        fb.fill_rect(W - 2, 9 + top * 48 // n, 2, PICK_ROWS * 48 // n, 1)


# Scorecard rows after the boxes: upper subtotal, upper bonus, extra bonuses, total.
_EXTRA_ROWS = (b"Upper", b"Bonus", b"Extra", b"TOTAL")


def card_rows(rs):
    return rs.n + 4


def scorecard(fb, app):
    g = app.game
    rs = g.rs
    fb.fill(0)
    _header(fb, b"Card")
    np = g.players
    colw = 22
    x0 = W - np * colw
    for p in range(np):
        player_tag(fb, app, p, x0 + p * colw + 2, 0, 0)
    nrows = card_rows(rs)
    for r in range(CARD_ROWS):
        i = app.top + r
        if i >= nrows:
            break
        y = (r + 1) * _ROW
        if i < rs.n:
            gfx.text(fb, SHORT[rs.index][i], 0, y, 1)
            if i == 6:
                fb.hline(0, y - 1, W, 1)
        else:
            gfx.text(fb, _EXTRA_ROWS[i - rs.n], 0, y, 1)
        for p in range(np):
            c = g.cards[p]
            xr = x0 + (p + 1) * colw - 1
            if i < rs.n:
                if c.is_filled(i):
                    gfx.number_right(fb, c.pts[i], xr, y, 1)
                else:
                    gfx.text_right(fb, b"-", xr, y, 1)
            else:
                k = i - rs.n
                v = c.upper() if k == 0 else c.upper_bonus() if k == 1 else c.bonus() if k == 2 else c.total()
                gfx.number_right(fb, v, xr, y, 1)
    # mark the column of the player whose turn it is
    if not g.over:
        fb.hline(x0 + g.player * colw + 2, 7, colw - 4, 1)


def decimal2(fb, x100, x, y, c):
    """Draw hundredths as a number with two decimals (12.34) without building a string."""
    x = gfx.number(fb, x100 // 100, x, y, c)
    x = gfx.glyph(fb, 46, x, y, c)  # '.'
    x = gfx.glyph(fb, 48 + (x100 // 10) % 10, x, y, c)
    return gfx.glyph(fb, 48 + x100 % 10, x, y, c)


def decimal1(fb, x100, x, y, c):
    """Hundredths drawn rounded to one decimal (12.3), or to a whole number from 100 up; never "-0"."""
    if x100 < 0:
        x100 = 0
    x10 = (x100 + 5) // 10
    if x10 >= 1000:
        return gfx.number(fb, (x100 + 50) // 100, x, y, c)
    x = gfx.number(fb, x10 // 10, x, y, c)
    x = gfx.glyph(fb, 46, x, y, c)  # '.'
    return gfx.glyph(fb, 48 + x10 % 10, x, y, c)


def game_over(fb, app):
    g = app.game
    fb.fill(0)
    _header(fb, b"Game over")
    gfx.text(fb, SHORT_TITLES[g.rs.index], 62, 0, 0)
    n = g.ranking(app.rank)
    y = 10
    for r in range(n):
        p = app.rank[r]
        gfx.text(fb, ORDINALS[g.place(p)], 0, y, 1)
        x = player_tag(fb, app, p, 24, y, 1)
        gfx.text(fb, LEVELS[app.kinds[p]], x + 6, y, 1)
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
        x = player_tag(fb, app, p, 0, y, 1)
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


# Menu item codes (the app lists them in a bytearray).
I_RESUME = const(0)
I_NEW = const(1)
I_RULES = const(2)
I_PLAYERS = const(3)
I_P1 = const(4)  # .. I_P1 + 3
I_SOUND = const(8)
I_HELP = const(9)


def menu(fb, app):
    fb.fill(0)
    _header(fb, b"fivedice")
    n = app.nitems
    for r in range(MENU_ROWS):
        i = app.top + r
        if i >= n:
            break
        y = 10 + r * _ROW
        c = 1
        if i == app.cursor:
            _row_bar(fb, y)
            c = 0
        it = app.items[i]
        if it == I_RESUME:
            gfx.text(fb, b"Resume game", 2, y, c)
        elif it == I_NEW:
            gfx.text(fb, b"New game? OK again" if app.confirm_new else b"New game", 2, y, c)
        elif it == I_RULES:
            gfx.text(fb, b"Rules", 2, y, c)
            gfx.text_right(fb, SHORT_TITLES[app.rules_i], W - 2, y, c)
        elif it == I_PLAYERS:
            gfx.text(fb, b"Players", 2, y, c)
            gfx.number_right(fb, app.nplayers, W - 2, y, c)
        elif it == I_SOUND:
            gfx.text(fb, b"Sound", 2, y, c)
            gfx.text_right(fb, b"off" if app.muted else b"on", W - 2, y, c)
        elif it == I_HELP:
            gfx.text(fb, b"How to score", 2, y, c)
        else:
            p = it - I_P1
            # "  P2" indented under Players, the value right-aligned: never touching (3 + 11 chars of 21)
            x = gfx.text(fb, b"P", 8, y, c)
            gfx.number(fb, p + 1, x, y, c)
            gfx.text_right(fb, SEATS[app.kinds[p]], W - 2, y, c)
    if app.toast:
        fb.fill_rect(0, 55, W, 9, 1)
        gfx.text(fb, MESSAGES[app.toast], 1, 56, 0)


def help_page(fb, app):
    fb.fill(0)
    lines = help_lines(app.rules_i)
    _header(fb, lines[0])
    for r in range(7):
        i = app.top + 1 + r
        if i >= len(lines):
            break
        gfx.text(fb, lines[i], 0, (r + 1) * _ROW, 1)
