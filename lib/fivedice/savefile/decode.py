"""Reading a save record back (its layout: fivedice.savefile): every check it must pass to be a game
some play can reach, then the settings and the game it holds; the same checks for the host tools'
input (host_sim.oracle). Loaded only while a save is read at start-up (lazy "save_decode"), then
dropped: a board holds neither this code nor its table of possible points through the game.
"""
from fivedice.compat import const, crc32, popcount
from fivedice import power as _power
from fivedice import rules as _rules
from fivedice.game import ALL_DICE as _ALL_DICE, MAX_PLAYERS, ROLLS_PER_TURN, Game

# The layout (fivedice.savefile, where the writer keeps these private)
SAVE_MAGIC = const(0xA8)  # record format 2
OLD_SAVE_MAGIC = const(0xA7)  # record format 1 (8-bit checksum): refused, kept aside
SAVE_HEAD = const(7)  # the magic and the settings
SEATED = const(0x40)  # a seat byte's bit 6: bits 4-5 hold the game's own seat
GAME_MAGIC = const(0xD5)
GAME_VERSION = const(2)
GAME_HEAD = const(13)
CRC_BYTES = const(4)


def read(data, settings, dice):
    """The game a save record (fivedice.savefile.record) holds, or None, and its seats (a bytearray
    of 4 seat kinds); `settings` take the record's. ValueError (a plain message) if the record is
    damaged or describes a game no play can reach: then nothing is changed."""
    if not data:
        raise ValueError("the save is empty")
    if data[0] == OLD_SAVE_MAGIC:
        raise ValueError("the save is from an older fivedice (format 1)")
    if len(data) < SAVE_HEAD + CRC_BYTES or data[0] != SAVE_MAGIC:
        raise ValueError("not a fivedice save (%d bytes)" % len(data))
    if not crc_ok(data):
        raise ValueError("the save is corrupt (CRC-32 mismatch)")
    end = len(data) - CRC_BYTES
    bad = not settings_ok(data)
    for i in range(3, 7):
        if data[i] & 0x8C or (data[i] & 0x30 and not data[i] & SEATED):
            bad = True
    if bad:
        raise ValueError("the save has impossible settings")
    g = decode_game(data[SAVE_HEAD:end], dice) if end > SAVE_HEAD else None
    read_settings(settings, data)
    seats = bytearray(4)  # the game's own seats
    for i in range(4):
        b = data[3 + i]
        seats[i] = (b >> 4) & 3 if b & SEATED else b & 3
    return g, seats


def settings_ok(data):
    """True if record bytes 1-6 hold settings this build can have (seat bytes: bits 0-1 only)."""
    np = data[2] & 7
    return (data[1] < len(_rules.ALL) and 1 <= np <= 4 and (data[2] >> 3) & 3 < _power.CHOICES
            and (data[2] >> 5) & 3 < _power.CHOICES)


def read_settings(settings, data):
    """Settings from record bytes 1-6 (checked first: settings_ok), without marking the save due.
    A save from before the power settings has 0 there: the defaults."""
    settings.rules_i = data[1]
    settings.players = data[2] & 7
    settings.dim_i = (data[2] >> 3) & 3
    settings.sleep_i = (data[2] >> 5) & 3
    settings.muted = bool(data[2] & 0x80)
    for i in range(4):
        settings.seats[i] = data[3 + i] & 3
    settings.apply()


def crc_ok(data):
    """True if the last four bytes of `data` are the CRC-32 of the bytes before them."""
    n = len(data) - CRC_BYTES
    if n < 0:
        return False
    c = crc32(memoryview(data)[0:n])
    for i in range(CRC_BYTES):
        if data[n + i] != (c >> (8 * i)) & 0xFF:
            return False
    return True


def decode_game(data, dice):
    """A Game from savefile.encode_game's bytes; ValueError (a plain message) if no save."""
    if len(data) < GAME_HEAD + CRC_BYTES or data[0] != GAME_MAGIC:
        raise ValueError("not a fivedice save")
    if data[1] != GAME_VERSION:
        raise ValueError("save format version %d is not supported" % data[1])
    if not crc_ok(data):
        raise ValueError("save is corrupt (CRC-32 mismatch)")
    if data[2] >= len(_rules.ALL):
        raise ValueError("save names an unknown rule set")
    rs = _rules.ALL[data[2]]
    players = data[3]
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError("save has %d players" % players)
    if len(data) != GAME_HEAD + players * (3 + rs.n) + CRC_BYTES:
        raise ValueError("save has the wrong length")
    g = Game(rs, players, dice)
    g.player = data[4]
    g.rolls = data[5]
    g.held = data[6]
    g.turn = data[7]
    g.over = bool(data[8] & 0x80)
    for i in range(5):
        g.dice[i] = data[8 + i] & (0x7F if i == 0 else 0xFF)
    p = GAME_HEAD
    for c in g.cards:
        c.filled = data[p] | (data[p + 1] << 8)
        c.extra = data[p + 2]
        for i in range(rs.n):
            c.pts[i] = data[p + 3 + i]
        p += 3 + rs.n
    why = game_problem(g)
    if why is not None:
        raise ValueError("save has an impossible game: " + why)
    return g


def card_problem(rs, c):
    """Why no game of rule set rs can reach card `c` (one plain sentence), or None if one can.

    Every box holds points some roll can score there; Yum's Low is below its High when both hold
    points; extra five-of-a-kind bonuses need the five box scored in full and each took a turn after
    it. The same check guards saves (decode) and the host tools' input (host_sim.oracle).
    """
    if c.filled & ~rs.all_mask:
        return "the card fills boxes the rule set does not have"
    for i in range(rs.n):
        v = c.pts[i]
        if not c.is_filled(i):
            if v:
                return "the card has points in an empty box (%s)" % rs.names[i]
        elif not possible(rs, i, v):
            return "the card has %d points in %s, which no roll can score" % (v, rs.names[i])
    if rs.high_box >= 0:
        hi = c.pts[rs.high_box]
        lo = c.pts[rs.low_box]
        if c.is_filled(rs.high_box) and c.is_filled(rs.low_box) and hi and lo and lo >= hi:
            return "low %d is not lower than high %d: no game reaches that card" % (lo, hi)
    if c.extra:
        fb = rs.five_box
        if not rs.extra_bonus or fb < 0 or not c.is_filled(fb) or c.pts[fb] != rs.pts[fb]:
            return "the card has extra bonuses without %s scored in full first" % (
                rs.names[fb] if fb >= 0 else "a five-of-a-kind box")
        most = popcount(c.filled) - 1  # each bonus is a turn after the five box, and fills a box
        if c.extra > most:
            return "the card has %d extra bonuses, but only %d boxes were filled after %s" % (
                c.extra, most, rs.names[fb])
    return None


def game_problem(g):
    """Why no play reaches game `g` (one plain sentence), or None: every card, and turn, seat, dice
    and end."""
    rs = g.rs
    n = rs.n
    if g.player >= g.players or g.rolls > ROLLS_PER_TURN or g.held > _ALL_DICE:
        return "impossible turn state"
    for i in range(5):
        f = g.dice[i]
        if f > 6 or (f == 0) != (g.rolls == 0):
            return "impossible dice"
    if g.rolls == 0 and g.held:
        return "dice held before the first roll"
    if g.rolls == ROLLS_PER_TURN and g.held == _ALL_DICE:
        return "a third roll with every die held"
    if g.turn > n:
        return "turn %d of a %d-box game" % (g.turn + 1, n)
    for p in range(g.players):
        c = g.cards[p]
        why = card_problem(rs, c)
        if why is not None:
            return "player %d: %s" % (p + 1, why)
        want = g.turn + (1 if p < g.player else 0)
        if popcount(c.filled) != want:
            return "player %d has %d boxes filled on turn %d" % (
                p + 1,
                popcount(c.filled),
                g.turn + 1,
            )
    if g.over:
        if g.turn != n or g.player or g.rolls:
            return "the game is marked over before every card is full"
    elif g.turn >= n:
        return "every card is full but the game is not marked over"
    return None


# Per rule set (rules.ALL order), per box: bit v is set when some roll, on an empty card or one
# where the Joker applies, scores v points there (every sorted roll enumerated:
# tests/lib/test_save_check.py checks this table).
_UPPER = (0x3F, 0x555, 0x9249, 0x111111, 0x2108421, 0x41041041)  # Ones .. Sixes, in every rule set
# Yahtzee's lower boxes, and both 5 of a Kind sets' (the same boxes, one tuple for the three)
_YAHTZEE = _UPPER + (
    0x7FFFFFE1, 0x7FFFFFE1, 0x2000001, 0x40000001, 0x10000000001, 0x4000000000001, 0x7FFFFFE1,
)
_POSSIBLE = (
    _YAHTZEE,
    _YAHTZEE,
    _YAHTZEE,
    _UPPER + (0x100001, 0x8001, 0x7FC00001, 0x7FE00001, 0x2000001, 0x40000001),  # yum
    _UPPER + (  # yatzy
        0x1555, 0x555541, 0x49249, 0x1111111, 0x8001, 0x100001, 0x1DFFFB81, 0x7FFFFFE1,
        0x4000000000001,
    ),
    _UPPER + (0x1DFFFB81, 0x1111111, 0x40000001, 0x40000001, 0x7FFFFFE1, 0x4000000000001),  # yacht
)
del _UPPER, _YAHTZEE


def possible(rs, box, value):
    """True if some roll, on some card, can put `value` points in `box` (0 always can). A table
    look-up: the enumeration of every roll it replaces took about 3.7 s on a Pico to check a full
    card at a resume."""
    return 0 <= value < 64 and (_POSSIBLE[rs.index][box] >> value) & 1 == 1
