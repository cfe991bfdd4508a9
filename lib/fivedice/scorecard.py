"""One player's scorecard: a filled-box bitmask, the points in each box and the extra bonuses.

Layout: `filled` bit i set = box i used; `pts[i]` = points written in box i (every box of
every rule set scores at most 50, so a byte holds it); `extra` = how many extra
five-of-a-kind bonuses were earned. Totals are computed on demand and allocate nothing.
"""
from fivedice.rules import MAX_BOXES


class Card:
    def __init__(self, rs):
        self.rs = rs
        self.pts = bytearray(MAX_BOXES)
        self.filled = 0
        self.extra = 0

    def clear(self):
        for i in range(MAX_BOXES):
            self.pts[i] = 0
        self.filled = 0
        self.extra = 0

    def is_filled(self, box):
        return (self.filled >> box) & 1 == 1

    def full(self):
        return self.filled == self.rs.all_mask

    def open_count(self):
        n = 0
        m = self.rs.all_mask & ~self.filled
        while m:
            n += m & 1
            m >>= 1
        return n

    def fill(self, box, points):
        """Write `points` in `box` (no rule checks: game.py and the oracle make those)."""
        self.pts[box] = points
        self.filled |= 1 << box

    def _sum(self, mask):
        # bit by bit up to the highest box in mask (the dice screen sums a card every frame)
        s = 0
        pts = self.pts
        i = 0
        while mask:
            if mask & 1:
                s += pts[i]
            mask >>= 1
            i += 1
        return s

    def upper(self):
        return self._sum(self.rs.upper_mask & self.filled)

    def upper_bonus(self):
        t = self.rs.upper_threshold
        return self.rs.upper_bonus if t and self.upper() >= t else 0

    def lower(self):
        return self._sum(self.rs.lower_mask & self.filled)

    def bonus(self):
        """Points from extra five-of-a-kind bonuses (Yahtzee bonus, 5OK bonus)."""
        return self.extra * self.rs.extra_bonus

    def total(self):
        """Every box, the upper bonus and the extra bonuses (the dice screen asks every frame: the
        upper boxes summed once, not again for the bonus)."""
        u = self.upper()
        t = self.rs.upper_threshold
        return u + (self.rs.upper_bonus if t and u >= t else 0) + self.lower() + self.bonus()
