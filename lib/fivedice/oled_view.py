"""What every screen of the 128x64 OLED shares: box labels, rule set titles, the message line's
texts, the header bar, the player tag, and the coach's choices and values in words ("keep 3 5 5",
"213.4"). Drawn with gfx (our own font) so every backend renders the same frame; the screens
themselves are in fivedice.screens. Allocates nothing per frame.
"""
from fivedice.compat import const
from fivedice import gfx
from fivedice.font import ADVANCE
from fivedice.game import SCORE
from fivedice import messages as _msg
from fivedice import rules as _r

W = const(128)
H = const(64)
BATTERY_X = const(114)  # the battery gauge in the menu's title bar (power.draw_battery)
# the row of dice (gfx.dice_row): its left edge and top, a die's size, the gap between dice
DICE_X = const(4)
DICE_Y = const(10)
DIE = const(20)
DIE_GAP = const(5)
# the bottom text row, two heights (their pixels differ, so both are kept):
KEYS_Y = const(56)  # key hints and the menu's toast: a pixel's gap above (turn, over, ...)
FOOT_Y = const(57)  # right under a list packed from y=9 (9 + 6 rows of 8): picker, proftest

# Box labels by box id: (long label for the picker, short label for the scorecard). The short
# label is the name in title case when it has 6 characters or fewer; longer ones are cut to 5.
_LABELS = {
    "ones": ("Ones", "Ones"),
    "twos": ("Twos", "Twos"),
    "threes": ("Threes", "Threes"),
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
    "chance": ("Chance", "Chance"),
    "high_straight": ("High straight", "HiStr"),
    "low_straight": ("Low straight", "LoStr"),
    "high": ("High (22+)", "High"),
    "low": ("Low (21+)", "Low"),
    "yum": ("YUM", "Yum"),
    "one_pair": ("One pair", "1Pair"),
    "two_pairs": ("Two pairs", "2Pair"),
    "yatzy": ("YATZY", "Yatzy"),
    "little_straight": ("Little straight", "LtStr"),
    "big_straight": ("Big straight", "BgStr"),
    "choice": ("Choice", "Choice"),
    "yacht": ("YACHT", "Yacht"),
}
# Per rule set index: tuples of labels in box order (built once at import).
# Text for the screen is bytes: iterating a str makes a new 1-char str on MicroPython
# (unless that char happens to be interned), iterating bytes gives ints and allocates nothing.
# Each label is encoded once and shared by every rule set that has the box (44 bytes objects, not
# 156), and the str table is dropped: about 6 KB less heap on a 64-bit port, 3-4 KB on a board.
_ENC = {}
for _n in _LABELS:
    _l, _s = _LABELS[_n]
    _ENC[_n] = (_l.encode(), _s.encode()) if _l != _s else (_l.encode(),) * 2  # "Fours": one object
LONG = tuple(tuple(_ENC[n][0] for n in rs.names) for rs in _r.ALL)
SHORT = tuple(tuple(_ENC[n][1] for n in rs.names) for rs in _r.ALL)
del _LABELS, _ENC, _n, _l, _s, _r, const  # import-time only: room for KEYS_Y and FOOT_Y
SHORT_TITLES = (b"Yahtzee", b"5oK forced", b"5oK free", b"Yum", b"Yatzy", b"Yacht")
FIVE_NAMES = (b"YAHTZEE!", b"5 OF A KIND!", b"5 OF A KIND!", b"YUM!", b"YATZY!", b"YACHT!")

MESSAGES = _msg.TEXTS  # the message line's texts by code (fivedice.messages)
del _msg

SEATS = (b"Human", b"CPU easy", b"CPU good", b"CPU perfect")


def header(fb, s):
    """The inverted title bar across the top row."""
    fb.fill_rect(0, 0, W, 8, 1)
    gfx.text(fb, s, 1, 0, 0)


def row_bar(fb, y):
    """The cursor's inverted row in a list."""
    fb.fill_rect(0, y, W, 8, 1)


def line_bar(fb, y):
    """An inverted line of text at y (a message, the best choice): its 8 rows and the row above."""
    fb.fill_rect(0, y - 1, W, 9, 1)


def roll_count(fb, rolls, y):
    """'Roll' and three boxes at the left of row y, one filled for each roll taken this turn."""
    x = gfx.text(fb, b"Roll", 0, y, 1) + 2
    for i in range(3):
        if i < rolls:
            fb.fill_rect(x + i * 9, y, 7, 7, 1)
        else:
            fb.rect(x + i * 9, y, 7, 7, 1)


# player_tag's chars, its number and mark set each call: one line of text, not three calls (a
# call's dispatch costs what two chars do)
_TAG = bytearray(b"P1*")


def player_tag(fb, app, p, x, y, c):
    """'P1' and, for a computer player, '*'; returns the x after it."""
    t = _TAG
    t[1] = 49 + p  # '1' + p
    cpu = app.seats.seated[p]
    t[2] = 42 if cpu else 32  # '*', or a space: no ink, and not counted in the advance
    gfx.text(fb, t, x, y, c)
    return x + (3 if cpu else 2) * ADVANCE


# -- the coach's choices and values, drawn glyph by glyph without building a string
# --------------------


# a tenth's chars (".4" of "213.4") and a keep's ("keep" and up to five " f"; unused chars are
# spaces: no ink), set each call: a line of text each, where a gfx call a char costs the time of two
_TENTH = bytearray(b".0")
KEEP_TEXT = bytearray(b"keep          ")
FACES_TEXT = memoryview(KEEP_TEXT)[4:]  # faces() alone: " 3 5 5"


def tenths(fb, x100, x, y, c):
    """Hundredths drawn rounded to one decimal ("213.4"); returns the x after it."""
    if x100 < 0:
        x = gfx.glyph(fb, ord("-"), x, y, c)
        x100 = -x100
    x10 = (x100 + 5) // 10
    _TENTH[1] = 48 + x10 % 10
    return gfx.text(fb, _TENTH, gfx.number(fb, x10 // 10, x, y, c), y, c)


def tenths_width(x100):
    """Advance width of tenths(x100)."""
    w = 2 * ADVANCE  # the point and the tenth
    if x100 < 0:
        w += ADVANCE
        x100 = -x100
    return w + gfx.number_width((x100 + 5) // 100)


def tenths_right(fb, x100, xr, y, c):
    """tenths() right-aligned: its advance ends at xr. Returns the left x."""
    v = -x100 if x100 < 0 else x100
    x10 = (v + 5) // 10
    _TENTH[1] = 48 + x10 % 10
    xr -= 2 * ADVANCE
    gfx.text(fb, _TENTH, xr, y, c)
    x = gfx.number_right(fb, x10 // 10, xr, y, c)
    if x100 < 0:
        x -= ADVANCE
        gfx.glyph(fb, ord("-"), x, y, c)
    return x


def choice(fb, rs, kind, value, dice, x, y, c):
    """A choice: KEEP with the held dice in `value` (bit i = die i) as their faces, lowest first
    ("keep 3 5 5", "roll all" for none), or SCORE in box `value` (its long name). Returns the x
    after it."""
    if kind == SCORE:
        return gfx.text(fb, LONG[rs.index][value], x, y, c)
    if not value:
        return gfx.text(fb, b"roll all", x, y, c)
    k = faces_text(value, dice)
    gfx.text(fb, KEEP_TEXT, x, y, c)
    return x + (4 + k) * ADVANCE


def faces(fb, mask, dice, x, y, c):
    """" 3 5 5": the faces of the dice in `mask`, lowest first, each after a space (the marks under
    the dice say which ones; a die number would read as a face). Returns the x after them."""
    k = faces_text(mask, dice)
    gfx.text(fb, FACES_TEXT, x, y, c)
    return x + k * ADVANCE


def faces_text(mask, dice):
    """The faces of the dice in `mask` as " f" pairs into FACES_TEXT (KEEP_TEXT after "keep"),
    spaces after them; returns their chars."""
    n = 0  # how many of them show each face f, in bits 3f..3f+2 (one pass over the dice, not six)
    i = 0
    while mask:
        if mask & 1:
            n += 1 << 3 * dice[i]
        mask >>= 1
        i += 1
    t = FACES_TEXT  # (its even chars are spaces, always)
    j = 1
    f = 48  # '0'
    n >>= 3
    while n:  # up to the highest face held
        f += 1
        k = n & 7
        while k:
            t[j] = f
            j += 2
            k -= 1
        n >>= 3
    e = j - 1
    while j < 10:
        t[j] = 32
        j += 2
    return e
