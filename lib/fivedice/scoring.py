"""Allocation-free scoring: load five dice, then score a box, list the legal boxes or preview them all.

`load(dice)` fills the module's count buffer once per roll; every other call reads it and
returns one small int or writes into a buffer the caller owns, so nothing here allocates
after import (proved under micropython.heap_lock() in tests/heap_lock/test_heap_core.py).
"""
from fivedice.compat import const
from fivedice import rules as _r

# _c[1..6]: how many dice show each face; the other slots are derived once per load.
_TOTAL = const(0)
_PRESENT = const(7)  # bit f set = some die shows f
_MAXC = const(8)  # the largest count
_FIVE = const(9)  # the face of five of a kind, else 0
_c = bytearray(10)


def _make_runs():
    t = bytearray(128)
    for m in range(128):
        best = run = 0
        for f in range(1, 7):
            if (m >> f) & 1:
                run += 1
                if run > best:
                    best = run
            else:
                run = 0
        t[m] = best
    return bytes(t)


_LONGEST_RUN = _make_runs()  # indexed by the presence mask


def load(dice):
    """Count five dice (faces 1..6, any indexable); returns their total. Does not check faces."""
    c = _c
    for i in range(10):
        c[i] = 0
    t = 0
    for i in range(5):
        f = dice[i]
        c[f] += 1
        t += f
    c[_TOTAL] = t
    p = 0
    m = 0
    for f in range(1, 7):
        n = c[f]
        if n:
            p |= 1 << f
            if n > m:
                m = n
                if n == 5:
                    c[_FIVE] = f
    c[_PRESENT] = p
    c[_MAXC] = m
    return t


def count(face):
    return _c[face]


def total():
    return _c[_TOTAL]


def five_face():
    """The face of five of a kind in the loaded dice, else 0."""
    return _c[_FIVE]


def _kind_face(n):
    # highest face shown by at least n dice, else 0
    for f in range(6, 0, -1):
        if _c[f] >= n:
            return f
    return 0


def _full_house():
    three = two = False
    for f in range(1, 7):
        if _c[f] == 3:
            three = True
        elif _c[f] == 2:
            two = True
    return three and two


def base(rs, card, box):
    """Points for `box` by its own definition (no Joker), with Yum's High/Low coupling."""
    c = _c
    k = rs.kinds[box]
    a = rs.arg[box]
    if k == _r.UPPER:
        return c[a] * a
    if k == _r.CHANCE:
        return c[_TOTAL]
    if k == _r.SUM_IF_KIND:
        return c[_TOTAL] if c[_MAXC] >= a else 0
    if k == _r.KIND_MATCH:
        return _kind_face(a) * a
    if k == _r.ONE_PAIR:
        return _kind_face(2) * 2
    if k == _r.TWO_PAIRS:
        hi = 0
        for f in range(6, 0, -1):
            if c[f] >= 2:
                if hi:
                    return 2 * (hi + f)
                hi = f
        return 0
    if k == _r.FULL_HOUSE:
        if _full_house():
            p = rs.pts[box]
            return p if p else c[_TOTAL]
        return 0
    if k == _r.RUN:
        return rs.pts[box] if _LONGEST_RUN[c[_PRESENT]] >= a else 0
    if k == _r.EXACT_STRAIGHT:
        return rs.pts[box] if c[_PRESENT] == (31 << a) else 0
    if k == _r.FIVE_KIND:
        return rs.pts[box] if c[_MAXC] == 5 else 0
    t = c[_TOTAL]
    if k == _r.HIGH:
        # Ruling: a High must beat a Low already scored; a Low scratched to 0 sets no limit.
        lo = rs.low_box
        if t < a or (card.filled >> lo) & 1 and card.pts[lo] and t <= card.pts[lo]:
            return 0
        return t
    if k == _r.LOW:
        # Ruling: a Low must stay under a High already scored; a High scratched to 0 sets no limit.
        hi = rs.high_box
        if t < a or (card.filled >> hi) & 1 and card.pts[hi] and t >= card.pts[hi]:
            return 0
        return t
    return 0


def joker(rs, card):
    """True when the loaded dice are five of a kind and the five-of-a-kind box is already used."""
    return _c[_FIVE] != 0 and rs.joker != _r.JOKER_NONE and (card.filled >> rs.five_box) & 1 == 1


def points(rs, card, box):
    """Points `box` would get for the loaded dice on this card, Joker/Trump Card included."""
    if joker(rs, card):
        k = rs.kinds[box]
        if k == _r.FULL_HOUSE or k == _r.RUN:
            if rs.joker == _r.JOKER_FORCED:
                # Forced Joker: these boxes are only legal once the matching upper box is used.
                return rs.pts[box]
            # Free-choice Trump Card: full value only if the matching upper box is already used.
            if (card.filled >> rs.upper_box[_c[_FIVE]]) & 1:
                return rs.pts[box]
            return 0
    return base(rs, card, box)


def legal(rs, card):
    """Bitmask of the boxes the loaded dice may be scored in on this card."""
    free = rs.all_mask & ~card.filled
    if rs.joker == _r.JOKER_FORCED and joker(rs, card):
        up = 1 << rs.upper_box[_c[_FIVE]]
        if free & up:
            return up  # the matching upper box must be used
        low = free & rs.lower_mask
        if low:
            return low  # else any open lower box, as a Joker
        return free  # else any open upper box, for 0
    return free


def preview(rs, card, out):
    """out[i] = points for each legal box i, -1 for the others; returns the legal mask."""
    m = legal(rs, card)
    for i in range(rs.n):
        out[i] = points(rs, card, i) if (m >> i) & 1 else -1
    return m


def extra_bonus(rs, card):
    """The extra five-of-a-kind bonus these dice earn: only if the five box holds its full score."""
    fb = rs.five_box
    if rs.extra_bonus and _c[_FIVE] and (card.filled >> fb) & 1 and card.pts[fb] == rs.pts[fb]:
        return rs.extra_bonus
    return 0
