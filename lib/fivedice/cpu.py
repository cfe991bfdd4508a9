"""CPU players. "easy" is a table-free greedy heuristic: chase the most useful pattern, score the
best box.

`decide(game)` returns ROLL (after setting `keep`, the dice to hold) or SCORE (after setting `box`).
It reads the game and allocates nothing.
"""
from fivedice.compat import const
from fivedice import rules as _r
from fivedice import scoring

from fivedice.game import ROLL, SCORE  # noqa: F401 (the protocol's codes)
from fivedice.settings import EASY

_BIG = const(10000)

# A box's par: roughly what an average later turn would put in it, in quarter points, by how it
# scores.
_PAR_CACHE = {}


def _par(rs, box):
    t = _PAR_CACHE.get(rs.index)
    if t is None:
        t = bytearray(rs.n)
        for b in range(rs.n):
            t[b] = _par_of(rs, b)
        _PAR_CACHE[rs.index] = t
    return t[box]


def _par_of(rs, b):
    k = rs.kinds[b]
    a = rs.arg[b]
    p = rs.pts[b]
    if k == _r.UPPER:
        return 10 * a  # 2.5 of the face
    if k == _r.SUM_IF_KIND:
        return 80 if a == 3 else 48
    if k == _r.KIND_MATCH:
        return 36 if a == 3 else 24
    if k == _r.ONE_PAIR:
        return 36
    if k == _r.TWO_PAIRS:
        return 52
    if k == _r.FULL_HOUSE:
        return p * 3 if p else 60
    if k == _r.RUN:
        return p * 3 if a == 4 else p * 2
    if k == _r.EXACT_STRAIGHT:
        return p * 2
    if k == _r.FIVE_KIND:
        return p * 4 // 3
    if k == _r.CHANCE:
        return 88
    if k == _r.HIGH:
        return 92
    if k == _r.LOW:
        return 84
    return 0


def _face_mask(dice, face):
    m = 0
    for i in range(5):
        if dice[i] == face:
            m |= 1 << i
    return m


def _run_keep(dice, lo, hi):
    """Mask keeping one die of each face lo..hi."""
    m = 0
    seen = 0
    for i in range(5):
        f = dice[i]
        if lo <= f <= hi and not (seen >> f) & 1:
            seen |= 1 << f
            m |= 1 << i
    return m


class Cpu:
    """A computer player. level EASY; more levels arrive with the coach (issue #4)."""

    def __init__(self, level=EASY):
        self.level = level
        self.keep = 0
        self.box = -1
        self.value = 0

    def prepare(self, rs):
        """Build the tables for rule set rs now (at game start), so decide() never allocates."""
        _par(rs, 0)

    def decide(self, game):
        rs = game.rs
        card = game.cards[game.player]
        if game.rolls == 0:
            self.keep = 0
            return ROLL
        scoring.load(game.dice)
        self._best_box(rs, card)
        if game.rolls >= 3 or self._made(rs, card, self.box):
            return SCORE
        self.keep = self._choose_keep(rs, card, game.dice)
        if self.keep == 0x1F:
            return SCORE
        return ROLL

    # -- scoring --------------------------------------------------------------------
    def _box_value(self, rs, card, box, pts):
        """Points now minus what the box is expected to be worth later (its par), in quarter points.
        """
        v = pts * 4 - _par(rs, box)
        if rs.kinds[box] == _r.UPPER and rs.upper_bonus:
            # beating par (three of the face) brings the upper bonus closer; falling short pushes it
            # away
            v += (pts - 3 * rs.arg[box]) * 4
        return v

    def _best_box(self, rs, card):
        # sets self.box and self.value (no tuple: a tuple would allocate)
        m = scoring.legal(rs, card)
        best = -1
        best_v = -_BIG
        for b in range(rs.n):
            if (m >> b) & 1:
                v = self._box_value(rs, card, b, scoring.points(rs, card, b))
                if v > best_v:
                    best_v = v
                    best = b
        self.box = best
        self.value = best_v

    def _made(self, rs, card, box):
        # Stop early on a made fixed-value pattern (full house, straight, five of a kind).
        k = rs.kinds[box]
        if k == _r.FULL_HOUSE or k == _r.RUN or k == _r.EXACT_STRAIGHT or k == _r.FIVE_KIND:
            if scoring.points(rs, card, box) > 0:
                if k == _r.RUN and rs.arg[box] == 4:
                    # a small straight: go on for the large one if it is still open
                    return not self._open_kind_arg(rs, card, _r.RUN, 5)
                return True
        return False

    def _open_kind_arg(self, rs, card, kind, arg):
        for b in range(rs.n):
            if rs.kinds[b] == kind and rs.arg[b] == arg and not card.is_filled(b):
                return True
        return False

    def _open_kind(self, rs, card, kind):
        for b in range(rs.n):
            if rs.kinds[b] == kind and not card.is_filled(b):
                return True
        return False

    # -- keeping ----------------------------------------------------------------------
    def _choose_keep(self, rs, card, dice):
        scoring.load(dice)
        # 1. straights: keep a run of 3+ distinct faces if a straight box is open
        straights = self._open_kind(rs, card, _r.RUN) or self._open_kind(
            rs, card, _r.EXACT_STRAIGHT
        )
        if straights:
            best_len = 0
            best_lo = 0
            for lo in range(1, 4):
                n = 0
                for f in range(lo, lo + 4):
                    if scoring.count(f):
                        n += 1
                if n > best_len or (n == best_len and lo == 2):
                    best_len = n
                    best_lo = lo
            if best_len >= 4 or (
                best_len == 3
                and scoring.count(best_lo)
                and scoring.count(best_lo + 3) == 0
                and self._maxcount() < 3
            ):
                return _run_keep(dice, best_lo, best_lo + 3)
        # 2. full house: keep a made two pair when the full house box is open
        if self._open_kind(rs, card, _r.FULL_HOUSE) and self._pairs() == 2:
            m = 0
            for f in range(1, 7):
                if scoring.count(f) == 2:
                    m |= _face_mask(dice, f)
            return m
        # 3. else go for kinds: the face with the most dice, preferring faces whose upper box is
        # open
        best_f = 0
        best_s = -1
        for f in range(1, 7):
            n = scoring.count(f)
            if n == 0:
                continue
            s = n * 10 + f
            if not card.is_filled(rs.upper_box[f]):
                s += 8
            if s > best_s:
                best_s = s
                best_f = f
        if scoring.count(best_f) == 1:
            # nothing matches: keep the highest die for the sums boxes
            for i in range(5):
                if dice[i] == 6 or dice[i] == 5:
                    return 1 << i
            return 0
        return _face_mask(dice, best_f)

    def _maxcount(self):
        m = 0
        for f in range(1, 7):
            if scoring.count(f) > m:
                m = scoring.count(f)
        return m

    def _pairs(self):
        n = 0
        for f in range(1, 7):
            if scoring.count(f) == 2:
                n += 1
        return n


def play_turn(game, cpu):
    """Play one whole turn for the current player (host tools and tests); returns the box scored."""
    while True:
        a = cpu.decide(game)
        if a == SCORE:
            box = cpu.box
            game.score(box)
            return box
        for i in range(5):
            if (cpu.keep >> i) & 1:
                game.hold(i)
            else:
                game.release(i)
        game.roll()
