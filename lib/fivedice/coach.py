"""The optimal coach on the device: best keep or box for the current roll, and what a choice costs."""
# The turn solve (fivedice.coach_solve.TurnSolver) is a module of its own: a .py compiled on a board
# needs one contiguous table of the names a module uses, and the two halves each need a smaller one.

from fivedice.compat import const
from fivedice import keeps as _k
from fivedice import scoring
from fivedice.coach_solve import WIDE, TurnSolver

NONE = const(0)  # nothing to decide (no dice yet, or game over)
KEEP = const(1)  # hold the dice in `value` (bit i = die i) and roll
SCORE = const(2)  # score box `value`

# popcount of 0..31: the level of a dice mask's keep
_POPC = b"\x00\x01\x01\x02\x01\x02\x02\x03\x01\x02\x02\x03\x02\x03\x03\x04\x01\x02\x02\x03\x02\x03\x03\x04\x02\x03\x03\x04\x03\x04\x04\x05"


class Coach(TurnSolver):
    # -- hints --------------------------------------------------------------------------------------------
    def _keeps_for(self, rolls):
        return self.k1 if rolls == 1 else self.k2

    def keep_value(self, dice, rolls, mask):
        """Wide-unit value of holding the dice in `mask` and rolling (rolls = rolls taken, 1 or 2)."""
        kv = self._keeps_for(rolls)
        j = 0
        for i in range(5):
            j += (mask >> i) & 1
        return kv[_k.START[j] + _k.find(_k.key_of(dice, mask), j)]

    def score_value(self, card, dice, box):
        """Wide-unit value of scoring `box` with `dice` now (box must be legal)."""
        self.prepare(card)
        scoring.load(dice)
        return self._score_value(card, box, scoring.extra_bonus(self.rs, card)) * WIDE

    def hint(self, card, dice, rolls, held):
        """The best action for the current roll; returns NONE, KEEP or SCORE and sets kind, value, best.

        rolls = rolls taken this turn (1..3); held = bit mask of the dice held now (ties keep it).
        """
        if rolls <= 0 or card.filled == self.rs.all_mask:
            self.kind = NONE
            return NONE
        self.prepare(card)
        scoring.load(dice)
        sbest = self._score_best(card) * WIDE
        if rolls >= 3:
            self.kind = SCORE
            self.value = self.box_best
            self.best = sbest
            return SCORE
        kv = self.k1 if rolls == 1 else self.k2
        # every dice mask but 31 (keeping all five means scoring now, below), in increasing order: the keep
        # of mask m is the keep of m without its highest die plus that die (keeps.CHILD), so no search
        gi = self._gi
        child = _k.CHILD
        st = _k.START
        best = kv[0]
        bm = 0
        gi[0] = 0
        for i in range(5):
            f = dice[i] - 1
            bit = 1 << i
            for prev in range(bit if i < 4 else 15):
                m = bit + prev
                g = st[_POPC[m]] + child[6 * gi[prev] + f]
                gi[m] = g
                v = kv[g]
                if v > best or (v == best and m == held):
                    best = v
                    bm = m
        if sbest >= best:
            self.kind = SCORE
            self.value = self.box_best
            self.best = sbest
            return SCORE
        self.kind = KEEP
        self.value = bm
        self.best = best
        return KEEP

    def _optimum(self, card, dice, rolls):
        self.hint(card, dice, rolls, 0)
        return self.best

    def keep_loss(self, card, dice, rolls, held):
        """Expected points (wide units) lost by holding `held` and rolling, against the best action."""
        b = self._optimum(card, dice, rolls)
        return b - self.keep_value(dice, rolls, held)

    def score_loss(self, card, dice, rolls, box):
        """Expected points (wide units) lost by scoring `box` now, against the best action."""
        b = self._optimum(card, dice, rolls)
        return b - self.score_value(card, dice, box)

    def to_points_x100(self, wide):
        """Wide units as hundredths of a point (rounded), for display."""
        d = self.scale * WIDE
        return (wide * 100 + d // 2) // d
