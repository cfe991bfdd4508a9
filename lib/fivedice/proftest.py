"""The proficiency test: 25 fixed positions per rule set, one decision each, scored by the coach."""
# The positions are lib/fivedice/proftest_data.py (written once by `python -m host_sim.proftest`,
# the same on the board, in the simulator and on the page). Each one is a card, five dice and the
# rolls taken; the player holds dice and rolls (a keep) or scores a box, and the coach values that
# choice against the best one: the difference is the expected points given away, summed over the 25
# as the test's score. After construction nothing allocates.
#
#     t = ProfTest(rs, coach)     # loads position 0 into t.card, t.dice, t.rolls
#     t.keep(held) / t.score(box) # the answer: t.best_kind/best_value (coach.KEEP mask or SCORE
#     box),
#                                 # t.best and t.mine (wide units), t.last (the loss, table units)
#     t.next()                    # False after the last position; t.loss_x100() the total
from fivedice.compat import const
from fivedice import lazy
from fivedice.coach import WIDE
from fivedice.game import KEEP, SCORE
from fivedice.scorecard import Card

COUNT = const(25)  # positions per rule set
RECORD = const(9)  # a position's bytes before its box points (host_sim.proftest writes them)
# positions in a rule set's first bytes literal of proftest_data (the second holds the rest)
HALF = const(13)


def data(rs):
    """The positions of rule set rs: a pair of bytes, positions 0-12 and 13-24; only that rule set's
    stay in memory (the module goes: its other rule sets' literals with it)."""
    d = lazy.load("positions").POSITIONS[rs.index]
    lazy.drop("positions")
    return d


class ProfTest:
    def __init__(self, rs, coach):
        self.rs = rs
        self.coach = coach
        self.data = data(rs)
        self.size = RECORD + rs.n
        self.count = (len(self.data[0]) + len(self.data[1])) // self.size
        self.card = Card(rs)
        self.dice = bytearray(5)
        self.rolls = 0
        self.i = 0
        self.loss = 0  # table units, summed per position after rounding
        self.last = 0
        self.answered = False
        self.ready = False  # the position's turn solve is done (the screen works it a slice a pass)
        self.mine_kind = 0
        self.mine_value = 0
        self.mine = 0
        self.best_kind = 0
        self.best_value = 0
        self.best = 0
        self.load(0)

    def load(self, i):
        """Position i into card, dice and rolls."""
        d = self.data[0 if i < HALF else 1]
        o = (i if i < HALF else i - HALF) * self.size
        self.i = i
        self.rolls = d[o]
        for k in range(5):
            self.dice[k] = d[o + 1 + k]
        c = self.card
        c.clear()
        c.filled = d[o + 6] | d[o + 7] << 8
        c.extra = d[o + 8]
        for b in range(self.rs.n):
            c.pts[b] = d[o + RECORD + b]
        self.answered = False
        self.ready = False

    def banked(self):
        """Points on the card now (the upper bonus is still to come in the coach's values)."""
        c = self.card
        return c.upper() + c.lower() + c.bonus()

    def _answer(self, kind, value, mine):
        co = self.coach
        co.hint(self.card, self.dice, self.rolls, 0)
        self.best_kind = co.kind
        self.best_value = co.value
        self.best = co.best
        self.mine_kind = kind
        self.mine_value = value
        self.mine = mine
        w = self.best - mine
        d = (w + WIDE // 2) // WIDE  # wide -> table units, rounded
        self.last = d if d > 0 else 0
        self.loss += self.last
        self.answered = True

    def keep(self, held):
        """Hold the dice in `held` (bit i = die i; not all five) and roll: the answer for this
        position."""
        self.coach.prepare(self.card)
        self._answer(KEEP, held, self.coach.keep_value(self.dice, self.rolls, held))

    def score(self, box):
        """Score `box` (legal for the dice) now: the answer for this position."""
        self._answer(SCORE, box, self.coach.score_value(self.card, self.dice, box))

    def next(self):
        """On to the next position; False when the test is over."""
        if self.i + 1 >= self.count:
            return False
        self.load(self.i + 1)
        return True

    def x100(self, wide):
        """A value (wide units) as the expected final total in hundredths: the card's points plus
        it."""
        return self.banked() * 100 + self.coach.to_points_x100(wide)

    def loss_x100(self):
        """Points given away so far, in hundredths."""
        return self.coach.to_points_x100(self.loss * WIDE)

    def last_x100(self):
        """Points the last answer gave away, in hundredths."""
        return self.coach.to_points_x100(self.last * WIDE)
