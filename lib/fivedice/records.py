"""High scores and lifetime stats per rule set (issue #9 part 2): pure data, encode/decode, and the
three updates a finished game makes. No user interface here: the app draws it and asks for initials.
"""
# Per rule set played: the top 5 scores with 3-letter initials and the order they were set (the rule
# set's game number, so "the 12th game" needs no clock), and lifetime stats: games, sum of scores
# (mean = sum / games), best, five-of-a-kinds (the five-of-a-kind box scored in full plus every
# extra bonus), upper bonuses, and over the games played with a strategy table the proficiency loss
# (points x 100) and the decisions it was counted over (mean loss per decision = loss / decisions).
# And the proficiency test (fivedice.proftest): how many were taken, and the best three, the fewest
# expected points given away.
#
# Ties: a new score equal to one already in the table ranks below it, as arcade tables do (the
# earlier player keeps the place); a score makes the table when it beats the fifth entry or the
# table has room.
#
# Record format, version 2, little-endian (what the store keeps: 8 bytes + 91 per rule set played,
# so 99 bytes for one rule set and at most 554 for all six):
#
#     offset  size  field
#     0       2     magic b"FR"
#     2       1     version (1)
#     3       1     k: rule sets in the record (0-6), blocks sorted by rule set index
#     4       74*k  blocks:
#               0   1   rule set index (fivedice.rules.ALL)
#               1   4   games
#               5   4   sum of scores
#               9   2   best score
#               11  4   five-of-a-kinds
#               15  4   upper bonuses
#               19  4   proficiency loss, points x 100, over the games with a table
#               23  2   games with a table
#               25  4   decisions counted in that loss
#               29  45  top 5, best first, entry i at 29 + 9*i: score (2), initials (3 bytes, A-Z
#               0-9 or
#                       space), game number (4; 0 = an empty entry, all nine bytes zero)
#               74  2   proficiency tests taken
#               76  15  the best 3 tests, fewest points given away first (a tie: the earlier first),
#               entry i
#                       at 76 + 5*i: points given away x 100 (3), test number (2; 0 = empty, all
#                       zero)
#     4+91k   4     CRC-32 (binascii.crc32) of every byte before it
# Version 1 (blocks of 74 bytes: no tests) is still read, as version 2 with no tests taken; it is
# written back as version 2.
#
# decode() refuses (ValueError, one plain sentence) anything that is not a record some sequence of
# games can produce: bad magic, version, length or CRC; unknown or repeated rule sets; a table out
# of order, with a gap, a game number past the games played or used twice, initials outside A-Z 0-9
# space; stats that do not add up (best above the sum, a mean above the best, more bonuses than
# games). Runs on CPython, MicroPython and CircuitPython; updates allocate nothing (they run once
# per game anyway).
from fivedice.compat import const, crc32
from fivedice.rules import ALL as _ALL

VERSION = const(2)
TOP = const(5)
TESTS = const(3)  # proficiency tests kept per rule set
BLOCK = const(91)
_BLOCK1 = const(74)  # version 1's block
_HEAD = const(4)
_CRC = const(4)
MAX_BYTES = _HEAD + BLOCK * len(_ALL) + _CRC  # 554 with the six rule sets
_M0 = const(0x46)  # "F"
_M1 = const(0x52)  # "R"
_GAMES = const(1)
_SUM = const(5)
_BEST = const(9)
_FIVES = const(11)
_BONUS = const(15)
_LOSS = const(19)
_TGAMES = const(23)
_DECS = const(25)
_TOP = const(29)
_ENTRY = const(9)
_NTESTS = const(74)
_TTOP = const(76)
_TENTRY = const(5)
_MAX_TEST_X100 = const(0xFFFFFF)
_MAX_SCORE = const(9999)

_OK_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "


def _get(b, o, n):
    v = 0
    for i in range(n - 1, -1, -1):
        v = (v << 8) | b[o + i]
    return v


def _set(b, o, n, v):
    for i in range(n):
        b[o + i] = v & 0xFF
        v >>= 8


def game_stats(rs, card):
    """(score, five-of-a-kinds, upper bonus 0/1) of a finished card, for add_game()."""
    fives = card.extra
    fb = rs.five_box
    if fb >= 0 and card.is_filled(fb) and card.pts[fb] == rs.pts[fb] and rs.pts[fb]:
        fives += 1
    return card.total(), fives, 1 if card.upper_bonus() else 0


class Records:
    """Every rule set's table and stats in one preallocated buffer (MAX_BYTES)."""

    def __init__(self):
        self.buf = bytearray(MAX_BYTES)
        self.k = 0  # rule sets with a block

    def clear(self):
        for i in range(len(self.buf)):
            self.buf[i] = 0
        self.k = 0

    # -- reading
    # ------------------------------------------------------------------------------------
    def _block(self, rs_index):
        """Offset of rule set rs_index's block, or -1."""
        o = _HEAD
        for _ in range(self.k):
            if self.buf[o] == rs_index:
                return o
            o += BLOCK
        return -1

    def _field(self, rs_index, off, n):
        o = self._block(rs_index)
        return 0 if o < 0 else _get(self.buf, o + off, n)

    def games(self, rs_index):
        return self._field(rs_index, _GAMES, 4)

    def total(self, rs_index):
        """Sum of every score: mean = total / games."""
        return self._field(rs_index, _SUM, 4)

    def mean_x10(self, rs_index):
        """Mean score x 10, rounded (integer maths: no float on the board); 0 before the first game.
        """
        g = self.games(rs_index)
        return (self.total(rs_index) * 20 + g) // (2 * g) if g else 0

    def best(self, rs_index):
        return self._field(rs_index, _BEST, 2)

    def fives(self, rs_index):
        return self._field(rs_index, _FIVES, 4)

    def bonuses(self, rs_index):
        return self._field(rs_index, _BONUS, 4)

    def coached_games(self, rs_index):
        return self._field(rs_index, _TGAMES, 2)

    def loss_per_decision_x100(self, rs_index):
        """Mean proficiency loss per decision (points x 100, rounded) over the games with a table;
        -1 if none."""
        d = self._field(rs_index, _DECS, 4)
        if not d:
            return -1
        return (self._field(rs_index, _LOSS, 4) * 2 + d) // (2 * d)

    def entries(self, rs_index):
        """Filled entries in the rule set's table (0-5)."""
        o = self._block(rs_index)
        if o < 0:
            return 0
        n = 0
        while n < TOP and _get(self.buf, o + _TOP + _ENTRY * n + 5, 4):
            n += 1
        return n

    def score(self, rs_index, i):
        """Score of entry i (0 = best) of the table; the caller checks i < entries()."""
        return self._field(rs_index, _TOP + _ENTRY * i, 2)

    def order(self, rs_index, i):
        """Game number at which entry i was set (the date-free order)."""
        return self._field(rs_index, _TOP + _ENTRY * i + 5, 4)

    def initials(self, rs_index, i, out=None):
        """Entry i's three initials, written into `out` (3 bytes) if given, else as a new bytes."""
        o = self._block(rs_index) + _TOP + _ENTRY * i + 2
        if out is None:
            return bytes(self.buf[o:o + 3])
        for j in range(3):
            out[j] = self.buf[o + j]
        return out

    def tests(self, rs_index):
        return self._field(rs_index, _NTESTS, 2)

    def test_entries(self, rs_index):
        o = self._block(rs_index)
        n = 0
        while o >= 0 and n < TESTS and _get(self.buf, o + _TTOP + _TENTRY * n + 3, 2):
            n += 1
        return n

    def test_loss_x100(self, rs_index, i):
        # points given away x 100 in kept test i (0 = best); the caller checks i < test_entries()
        return self._field(rs_index, _TTOP + _TENTRY * i, 3)

    def test_number(self, rs_index, i):
        return self._field(rs_index, _TTOP + _TENTRY * i + 3, 2)

    def add_test(self, rs_index, loss_x100):
        """Count a finished test: its rank among the kept three (0 = best), or -1."""
        if not 0 <= rs_index < len(_ALL):
            raise ValueError("unknown rule set")
        if not 0 <= loss_x100 <= _MAX_TEST_X100:
            raise ValueError("impossible test")
        o = self._make(rs_index)
        b = self.buf
        t = _get(b, o + _NTESTS, 2)
        if t >= 0xFFFF:
            return -1  # 65,535 tests: the count (and the numbers) stop here
        t += 1
        _set(b, o + _NTESTS, 2, t)
        n = self.test_entries(rs_index)
        r = 0
        while r < n and self.test_loss_x100(rs_index, r) <= loss_x100:
            r += 1
        if r >= TESTS:
            return -1
        e = o + _TTOP
        for i in range(_TENTRY * (TESTS - 1) - 1, _TENTRY * r - 1, -1):  # the worse ones down one
            b[e + i + _TENTRY] = b[e + i]
        _set(b, e + _TENTRY * r, 3, loss_x100)
        _set(b, e + _TENTRY * r + 3, 2, t)
        return r

    # -- updates (once per finished game)
    # -------------------------------------------------------------
    def qualifies(self, rs_index, score):
        """The rank (0 = top) a new score would take in the table, or -1 if it does not make it.
        A score equal to one already there ranks below it."""
        n = self.entries(rs_index)
        r = 0
        while r < n and self.score(rs_index, r) >= score:
            r += 1
        return r if r < TOP else -1

    def add_game(self, rs_index, score, fives=0, bonus=0, loss_x100=0, decisions=0, coached=False):
        """Count a finished game of one human seat in the lifetime stats; returns its game number
        (for insert). coached: a strategy table was present (loss_x100 and decisions count only
        then)."""
        if not 0 <= rs_index < len(_ALL):
            raise ValueError("unknown rule set")
        if not 0 <= score <= _MAX_SCORE or not 0 <= fives <= 20 or (loss_x100 and not decisions):
            raise ValueError("impossible game")
        o = self._make(rs_index)
        b = self.buf
        g = _get(b, o + _GAMES, 4) + 1
        _set(b, o + _GAMES, 4, g)
        _set(b, o + _SUM, 4, _get(b, o + _SUM, 4) + score)
        if score > _get(b, o + _BEST, 2):
            _set(b, o + _BEST, 2, score)
        _set(b, o + _FIVES, 4, _get(b, o + _FIVES, 4) + fives)
        _set(b, o + _BONUS, 4, _get(b, o + _BONUS, 4) + (1 if bonus else 0))
        if coached:
            _set(b, o + _TGAMES, 2, min(0xFFFF, _get(b, o + _TGAMES, 2) + 1))
            _set(b, o + _LOSS, 4, _get(b, o + _LOSS, 4) + loss_x100)
            _set(b, o + _DECS, 4, _get(b, o + _DECS, 4) + decisions)
        return g

    def insert(self, rs_index, score, initials, order):
        """Put a score in the table with its initials (3 bytes; A-Z, 0-9, space) and game number
        (from add_game, which counts the game first); returns its rank, or -1 if it does not
        qualify."""
        r = self.qualifies(rs_index, score)
        if r < 0:
            return -1
        if len(initials) != 3 or any(c not in _OK_CHARS for c in initials):
            raise ValueError("initials are three of A-Z, 0-9 or space")
        o = self._make(rs_index) + _TOP
        b = self.buf
        # shift the lower entries down one
        for i in range(_ENTRY * (TOP - 1) - 1, _ENTRY * r - 1, -1):
            b[o + i + _ENTRY] = b[o + i]
        e = o + _ENTRY * r
        _set(b, e, 2, score)
        for j in range(3):
            b[e + 2 + j] = initials[j]
        _set(b, e + 5, 4, order)
        return r

    def rank_of(self, rs_index, order):
        """The rank of the entry set at game number `order`, or -1 (gone from the table, or never in
        it): two seats of one game can both make the table, and the second insert moves the first
        one down."""
        for i in range(self.entries(rs_index)):
            if self.order(rs_index, i) == order:
                return i
        return -1

    def set_initials(self, rs_index, rank, initials):
        """Change the initials of entry `rank` (the app inserts with b"   " at game over, saves, and
        sets the initials once they are entered, so a power cut during the entry keeps the score).
        """
        if not 0 <= rank < self.entries(rs_index):
            raise ValueError("no such entry")
        if len(initials) != 3 or any(c not in _OK_CHARS for c in initials):
            raise ValueError("initials are three of A-Z, 0-9 or space")
        e = self._block(rs_index) + _TOP + _ENTRY * rank + 2
        for j in range(3):
            self.buf[e + j] = initials[j]

    def _make(self, rs_index):
        """The block of rs_index, made (zeroed, in index order) if the rule set has none yet."""
        o = self._block(rs_index)
        if o >= 0:
            return o
        b = self.buf
        at = _HEAD
        i = 0
        while i < self.k and b[at] < rs_index:
            at += BLOCK
            i += 1
        end = _HEAD + BLOCK * self.k
        for j in range(end - 1, at - 1, -1):  # move the later blocks up one
            b[j + BLOCK] = b[j]
        for j in range(at, at + BLOCK):
            b[j] = 0
        b[at] = rs_index
        self.k += 1
        return at

    # -- bytes
    # ----------------------------------------------------------------------------------------
    def size(self):
        return _HEAD + BLOCK * self.k + _CRC

    def encode(self):
        n = _HEAD + BLOCK * self.k
        b = self.buf
        b[0] = _M0
        b[1] = _M1
        b[2] = VERSION
        b[3] = self.k
        _set(b, n, 4, crc32(memoryview(b)[:n]) & 0xFFFFFFFF)
        return bytes(b[:n + _CRC])

    def load(self, data):
        """Take the records in `data` (from encode()); ValueError with a plain message, leaving this
        object as it was, if they are not records some play can produce."""
        why = problem(data)
        if why is not None:
            raise ValueError("records " + why)
        self.clear()
        k = data[3]
        if data[2] == 1:  # version 1: each block as version 2's with no tests
            for i in range(k):
                self.buf[_HEAD + BLOCK * i : _HEAD + BLOCK * i + _BLOCK1] = data[
                    _HEAD + _BLOCK1 * i : _HEAD + _BLOCK1 * (i + 1)
                ]
        else:
            self.buf[:len(data)] = data
        self.k = k


def decode(data):
    """A Records from encode() bytes; ValueError with a plain message if they are not valid."""
    r = Records()
    r.load(data)
    return r


def problem(data):
    """Why `data` is not a records record (a plain phrase after "records "), or None."""
    if data is None or len(data) < _HEAD + _CRC or data[0] != _M0 or data[1] != _M1:
        return "are not a fivedice records file"
    if data[2] != VERSION and data[2] != 1:
        return "format %d is not supported" % data[2]
    bl = BLOCK if data[2] == VERSION else _BLOCK1
    k = data[3]
    if k > len(_ALL) or len(data) != _HEAD + bl * k + _CRC:
        return "have the wrong length"
    n = _HEAD + bl * k
    if crc32(memoryview(data)[:n]) & 0xFFFFFFFF != _get(data, n, 4):
        return "are corrupt (CRC-32 mismatch)"
    last = -1
    for i in range(k):
        o = _HEAD + bl * i
        rs = data[o]
        if rs >= len(_ALL) or rs <= last:
            return "name an unknown or repeated rule set"
        last = rs
        why = _block_problem(data, o)
        if why is None and bl == BLOCK:
            why = _tests_problem(data, o)
        if why is not None:
            return why
    return None


def _tests_problem(b, o):
    taken = _get(b, o + _NTESTS, 2)
    empty = False
    for i in range(TESTS):
        e = o + _TTOP + _TENTRY * i
        num = _get(b, e + 3, 2)
        if not num:
            empty = True
            if _get(b, e, 3):
                return "have a test table with a gap"
            continue
        if empty or num > taken:
            return "have a test table no play can make"
        if i:
            pl = _get(b, e - _TENTRY, 3)
            pn = _get(b, e - _TENTRY + 3, 2)
            if _get(b, e, 3) < pl or (_get(b, e, 3) == pl and num < pn) or num == pn:
                return "have a test table out of order"
    return None


def _block_problem(b, o):
    games = _get(b, o + _GAMES, 4)
    total = _get(b, o + _SUM, 4)
    best = _get(b, o + _BEST, 2)
    if best > _MAX_SCORE or best > total or total > games * best or _get(b, o + _BONUS, 4) > games:
        return "have stats that do not add up"
    if _get(b, o + _FIVES, 4) > games * 20 or _get(b, o + _TGAMES, 2) > games:
        return "have stats that do not add up"
    if _get(b, o + _DECS, 4) == 0 and _get(b, o + _LOSS, 4):
        return "have a proficiency loss without decisions"
    prev = -1
    empty = False
    for i in range(TOP):
        e = o + _TOP + _ENTRY * i
        order = _get(b, e + 5, 4)
        score = _get(b, e, 2)
        if not order:
            empty = True
            for j in range(_ENTRY):
                if b[e + j]:
                    return "have a high-score table with a gap"
            continue
        if empty or order > games or score > best:
            return "have a high-score table no play can make"
        if prev >= 0:
            ps = _get(b, e - _ENTRY, 2)
            po = _get(b, e - _ENTRY + 5, 4)
            if score > ps or (score == ps and order < po) or order == po:
                return "have a high-score table out of order"
        for j in range(3):
            if b[e + 2 + j] not in _OK_CHARS:
                return "have initials that are not letters"
        prev = i
    return None


def load(store, recs):
    """Read the store's records into `recs` at start-up. Returns None, or one plain message when
    they could not be read (the bad record is set aside, kept, and `recs` starts empty). Never
    raises."""
    try:
        data = store.read_records() if hasattr(store, "read_records") else None
    except OSError:
        data = None
    if data is None:
        return None
    try:
        recs.load(data)
    except ValueError as e:
        recs.clear()
        try:
            store.set_aside_records()
        except OSError:
            pass
        return str(e) + ": kept aside, starting new records"
    return None


def best(recs, rs_index):
    """The best score of rule set rs_index in `recs`, or 0 (none)."""
    return recs.score(rs_index, 0) if recs.entries(rs_index) else 0


def save(store, recs):
    """Store the records (once per finished game). Returns None, or a plain message if it failed."""
    if store is None or not hasattr(store, "write_records"):
        return None
    try:
        store.write_records(recs.encode())
    except OSError as e:
        return "could not save the records (%s)" % (e.args[-1] if e.args else "OSError")
    return None
