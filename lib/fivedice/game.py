"""The turn and game machine: 1-4 players, three rolls a turn, hold/release, score one legal box.

Every action returns OK (0) or a refusal code; `REASONS[code]` is the plain message. A refused
action changes nothing. Actions allocate nothing (dice in a bytearray, held dice as a bitmask).
"""
from fivedice.compat import const, crc32
from fivedice import scoring
from fivedice.scorecard import Card
from fivedice import rules as _rules

OK = const(0)
NO_ROLLS_LEFT = const(1)
NOT_ROLLED = const(2)
BOX_FILLED = const(3)
BOX_FORBIDDEN = const(4)
SCORE_BEFORE_ROLL = const(5)
GAME_OVER = const(6)
BAD_DIE = const(7)
BAD_BOX = const(8)
ALL_HELD = const(9)

REASONS = (
    "ok",
    "no rolls left this turn: score a box",
    "roll first: there are no dice to hold yet",
    "that box is already filled",
    "the Joker/Trump Card rule forbids that box for this roll",
    "roll before scoring",
    "the game is over",
    "dice are numbered 1 to 5",
    "no such box in this rule set",
    "every die is held: release one to roll",
)

ROLLS_PER_TURN = const(3)
MAX_PLAYERS = const(4)
_ALL_DICE = const(0x1F)


class Game:
    """A game of `players` players under rule set `rs`, with faces from `dice` (an rng.Dice or ScriptedFaces)."""

    def __init__(self, rs, players, dice):
        if not 1 <= players <= MAX_PLAYERS:
            raise ValueError("players must be 1 to %d, not %r" % (MAX_PLAYERS, players))
        self.rs = rs
        self.players = players
        self.cards = tuple(Card(rs) for _ in range(players))
        self.source = dice
        self.dice = bytearray(5)  # faces of the current roll; 0 before the first roll of a turn
        self.preview_pts = None
        self.reset()

    def reset(self):
        for c in self.cards:
            c.clear()
        self.player = 0
        self.rolls = 0  # rolls taken this turn
        self.held = 0  # bit i set = die i held
        self.turn = 0  # turns completed by all players together
        self.over = False
        self.last_box = -1
        self.last_points = 0
        self.last_bonus = 0
        for i in range(5):
            self.dice[i] = 0

    # -- queries -----------------------------------------------------------
    def card(self):
        return self.cards[self.player]

    def rolls_left(self):
        return ROLLS_PER_TURN - self.rolls

    def legal(self):
        """Mask of boxes the current dice may be scored in (0 before the first roll)."""
        if self.rolls == 0 or self.over:
            return 0
        scoring.load(self.dice)
        return scoring.legal(self.rs, self.cards[self.player])

    def preview(self, out):
        """out[i] = points for each legal box, -1 otherwise; returns the legal mask."""
        if self.rolls == 0 or self.over:
            for i in range(self.rs.n):
                out[i] = -1
            return 0
        scoring.load(self.dice)
        return scoring.preview(self.rs, self.cards[self.player], out)

    def bonus_now(self):
        """The extra five-of-a-kind bonus the current dice would earn when scored."""
        if self.rolls == 0 or self.over:
            return 0
        scoring.load(self.dice)
        return scoring.extra_bonus(self.rs, self.cards[self.player])

    # -- actions -----------------------------------------------------------
    def check_roll(self):
        """The refusal code a roll now would get, or OK."""
        if self.over:
            return GAME_OVER
        if self.rolls >= ROLLS_PER_TURN:
            return NO_ROLLS_LEFT
        if self.rolls and self.held == _ALL_DICE:
            return ALL_HELD
        return OK

    def roll(self):
        r = self.check_roll()
        if r:
            return r
        held = self.held if self.rolls else 0
        src = self.source
        for i in range(5):
            if not (held >> i) & 1:
                self.dice[i] = src.face()
        self.held = held
        self.rolls += 1
        return OK

    def hold(self, die):
        """Hold die 0..4."""
        return self._set_hold(die, 1)

    def release(self, die):
        return self._set_hold(die, 0)

    def toggle(self, die):
        if not 0 <= die < 5:
            return BAD_DIE
        return self._set_hold(die, 0 if (self.held >> die) & 1 else 1)

    def _set_hold(self, die, on):
        if self.over:
            return GAME_OVER
        if not 0 <= die < 5:
            return BAD_DIE
        if self.rolls == 0:
            return NOT_ROLLED
        if self.rolls >= ROLLS_PER_TURN:
            return NO_ROLLS_LEFT
        if on:
            self.held |= 1 << die
        else:
            self.held &= ~(1 << die)
        return OK

    def check_score(self, box):
        """The refusal code scoring `box` now would get, or OK."""
        if self.over:
            return GAME_OVER
        if not 0 <= box < self.rs.n:
            return BAD_BOX
        if self.rolls == 0:
            return SCORE_BEFORE_ROLL
        card = self.cards[self.player]
        if card.is_filled(box):
            return BOX_FILLED
        scoring.load(self.dice)
        if not (scoring.legal(self.rs, card) >> box) & 1:
            return BOX_FORBIDDEN
        return OK

    def score(self, box):
        """Fill `box` with the current dice's points (plus any extra bonus) and pass the turn."""
        r = self.check_score(box)
        if r:
            return r
        card = self.cards[self.player]
        # check_score loaded the dice
        pts = scoring.points(self.rs, card, box)
        bonus = scoring.extra_bonus(self.rs, card)
        if bonus:
            card.extra += 1
        card.fill(box, pts)
        self.last_box = box
        self.last_points = pts
        self.last_bonus = bonus
        self._next_turn()
        return OK

    def _next_turn(self):
        self.rolls = 0
        self.held = 0
        for i in range(5):
            self.dice[i] = 0
        self.player += 1
        if self.player >= self.players:
            self.player = 0
            self.turn += 1
            if self.cards[0].full():
                self.over = True

    # -- results -----------------------------------------------------------
    def ranking(self, out):
        """Write player indexes into `out` best total first (ties keep seat order); returns player count."""
        n = self.players
        for i in range(n):
            out[i] = i
        for i in range(1, n):  # insertion sort, stable
            j = i
            while j > 0 and self.cards[out[j]].total() > self.cards[out[j - 1]].total():
                out[j], out[j - 1] = out[j - 1], out[j]
                j -= 1
        return n

    def place(self, player):
        """1-based finishing place; tied players share the better place."""
        t = self.cards[player].total()
        p = 1
        for c in self.cards:
            if c.total() > t:
                p += 1
        return p

    # -- saves -------------------------------------------------------------
    def to_bytes(self):
        return encode(self)


_MAGIC = const(0xD5)
_VERSION = const(2)  # 2: CRC-32 and every field checked against the rules on load (1: an 8-bit checksum)
_HEAD = const(13)
CRC_BYTES = const(4)


def put_crc(buf, n):
    """Write CRC-32 (binascii, in C on every runtime) of buf[0:n] little-endian into buf[n:n+4]."""
    c = crc32(memoryview(buf)[0:n])
    for i in range(CRC_BYTES):
        buf[n + i] = (c >> (8 * i)) & 0xFF


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


def encode(g):
    """Serialise a game: header, then per player filled mask (2 bytes), extra bonuses, box points; CRC-32."""
    n = g.rs.n
    out = bytearray(_HEAD + g.players * (3 + n) + CRC_BYTES)
    out[0] = _MAGIC
    out[1] = _VERSION
    out[2] = g.rs.index
    out[3] = g.players
    out[4] = g.player
    out[5] = g.rolls
    out[6] = g.held
    out[7] = g.turn
    for i in range(5):
        out[8 + i] = g.dice[i]
    if g.over:
        out[8] |= 0x80  # bit 7 of die 0's byte: faces need only 3 bits
    p = _HEAD
    for c in g.cards:
        out[p] = c.filled & 0xFF
        out[p + 1] = c.filled >> 8
        out[p + 2] = c.extra
        for i in range(n):
            out[p + 3 + i] = c.pts[i]
        p += 3 + n
    put_crc(out, p)
    return bytes(out)


def _popcount(x):
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def card_problem(rs, c):
    """Why no game of rule set rs can reach card `c` (one plain sentence), or None if one can.

    Every box holds points some roll can score there; Yum's Low is below its High when both hold
    points; extra five-of-a-kind bonuses need the five box scored in full and each took a turn after it.
    The same check guards saves (decode) and the host tools' input (host_sim.oracle).
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
        most = _popcount(c.filled) - 1  # each bonus is a turn after the five box, and fills a box
        if c.extra > most:
            return "the card has %d extra bonuses, but only %d boxes were filled after %s" % (
                c.extra, most, rs.names[fb])
    return None


def game_problem(g):
    """Why no play reaches game `g` (one plain sentence), or None: every card, and turn, seat, dice and end."""
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
        if _popcount(c.filled) != want:
            return "player %d has %d boxes filled on turn %d" % (p + 1, _popcount(c.filled), g.turn + 1)
    if g.over:
        if g.turn != n or g.player or g.rolls:
            return "the game is marked over before every card is full"
    elif g.turn >= n:
        return "every card is full but the game is not marked over"
    return None


def decode(data, dice):
    """A Game from `encode` bytes; ValueError with a plain message if the data is not a valid save."""
    if len(data) < _HEAD + CRC_BYTES or data[0] != _MAGIC:
        raise ValueError("not a fivedice save")
    if data[1] != _VERSION:
        raise ValueError("save format version %d is not supported" % data[1])
    if not crc_ok(data):
        raise ValueError("save is corrupt (CRC-32 mismatch)")
    if data[2] >= len(_rules.ALL):
        raise ValueError("save names an unknown rule set")
    rs = _rules.ALL[data[2]]
    players = data[3]
    if not 1 <= players <= MAX_PLAYERS:
        raise ValueError("save has %d players" % players)
    if len(data) != _HEAD + players * (3 + rs.n) + CRC_BYTES:
        raise ValueError("save has the wrong length")
    g = Game(rs, players, dice)
    g.player = data[4]
    g.rolls = data[5]
    g.held = data[6]
    g.turn = data[7]
    g.over = bool(data[8] & 0x80)
    for i in range(5):
        g.dice[i] = data[8 + i] & (0x7F if i == 0 else 0xFF)
    p = _HEAD
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


_possible_cache = {}


def possible(rs, box, value):
    """True if some roll, on some card, can put `value` points in `box` (0 always can)."""
    key = rs.index * 16 + box
    vals = _possible_cache.get(key)
    if vals is None:
        vals = _possible_values(rs, box)
        _possible_cache[key] = vals
    return value in vals


def _possible_values(rs, box):
    # Enumerate every sorted roll on an empty card, and again on a card where the Joker applies.
    vals = {0}
    empty = Card(rs)
    jok = Card(rs)
    if rs.five_box >= 0:
        jok.fill(rs.five_box, 0)
        for f in range(1, 7):
            jok.fill(rs.upper_box[f], 0)
    d = bytearray(5)
    for a in range(1, 7):
        for b in range(a, 7):
            for c in range(b, 7):
                for e in range(c, 7):
                    for f in range(e, 7):
                        d[0], d[1], d[2], d[3], d[4] = a, b, c, e, f
                        scoring.load(d)
                        vals.add(scoring.points(rs, empty, box))
                        vals.add(scoring.points(rs, jok, box))
    return vals
