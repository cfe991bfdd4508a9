"""Proficiency: how many expected points a player's own choices cost against optimal play."""
# As in Verhoeff's Yahtzee Proficiency Test: at every decision (each re-roll with the dice held, and
# the box scored) the coach values the chosen action and the best one; the difference is the
# expected final score given away. The sum over a game and the mean per decision go on the
# game-over screen. Allocation-free after construction; needs a coach on the strategy table.
#
#     prof = Proficiency(coach)            # one per human seat, made once; reset() at a new game
#     prof.before_roll(game)               # just before game.roll() on the 2nd or 3rd roll
#     prof.before_score(game, box)         # just before game.score(box)
#     prof.loss_x100(), prof.per_decision_x100(), prof.decisions, prof.mistakes
#     prof.worst_x100(), and the costliest decision in prof.w: the dice then, its turn (1 = the
#     first; 0: none lost anything yet), what was chosen (coach.KEEP and the held mask, or SCORE
#     and the box) and the best choice then (from _W_TURN on)
from fivedice.compat import const
from fivedice.coach import KEEP, SCORE, WIDE

# prof.w: the costliest decision, after its dice (one bytearray: a meter per seat stays small); the
# game-over screen reads it by the same names (screens/over.py)
_W_TURN = const(5)
_W_KIND = const(6)
_W_VALUE = const(7)
_W_BKIND = const(8)
_W_BVALUE = const(9)
_MISTAKE_X100 = const(1)  # a decision that loses at least 0.01 expected points counts as a mistake


class Proficiency:
    def __init__(self, coach):
        self.coach = coach
        self.w = bytearray(10)
        self.reset()

    def reset(self):
        self.loss = 0  # table units (1/coach.scale point), summed per decision after rounding
        self.decisions = 0
        self.mistakes = 0
        self.worst = 0  # the costliest single decision, table units
        self.last = 0  # the last decision's loss, table units
        self.w[_W_TURN] = 0  # no costliest decision yet

    def _add(self, wide):
        c = self.coach
        d = (wide + WIDE // 2) // WIDE  # wide units -> table units, rounded
        if d < 0:
            d = 0  # rounding noise only: the best action cannot lose
        self.last = d
        self.loss += d
        self.decisions += 1
        if c.to_points_x100(d * WIDE) >= _MISTAKE_X100:
            self.mistakes += 1
        if d > self.worst:
            self.worst = d
            return True
        return False

    def _note(self, game, kind, value):
        # the decision just valued is the costliest so far: what it was, and the coach's best then
        c = self.coach
        w = self.w
        for i in range(5):
            w[i] = game.dice[i]
        w[_W_TURN] = game.turn + 1
        w[_W_KIND] = kind
        w[_W_VALUE] = value
        w[_W_BKIND] = c.kind
        w[_W_BVALUE] = c.value

    def before_roll(self, game):
        """Record the keep decision of the current player (rolls 1 or 2 taken, dice held as
        game.held)."""
        if game.rolls < 1 or game.rolls > 2:
            return 0
        c = self.coach
        if self._add(c.keep_loss(game.cards[game.player], game.dice, game.rolls, game.held)):
            self._note(game, KEEP, game.held)
        return self.last

    def before_score(self, game, box):
        """Record the scoring decision (`box`, which must be legal now)."""
        if game.rolls < 1:
            return 0
        if self._add(self.coach.score_loss(game.cards[game.player], game.dice, game.rolls, box)):
            self._note(game, SCORE, box)
        return self.last

    def loss_x100(self):
        """Total expected points lost this game, in hundredths of a point."""
        return self.coach.to_points_x100(self.loss * WIDE)

    def per_decision_x100(self):
        """Mean expected points lost per decision, in hundredths of a point."""
        if not self.decisions:
            return 0
        return self.coach.to_points_x100(self.loss * WIDE // self.decisions)

    def worst_x100(self):
        """The costliest single decision's expected points given away, in hundredths of a point."""
        return self.coach.to_points_x100(self.worst * WIDE)
