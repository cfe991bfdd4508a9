"""CPU opponent levels: "easy" (the #3 heuristic), "good" (table-free) and "perfect" (the strategy
table)."""
# Every level speaks the protocol of fivedice.cpu.Cpu: `prepare(rs)` at game start, then
# `decide(game)` returns cpu.ROLL after setting `keep` (bit i = hold die i) or cpu.SCORE after
# setting `box`; decisions allocate nothing.
#
#     levels = available_levels(has_table)        # 3 with a table, else 2 ("perfect" needs it)
#     p = make(rs, level, table=None)             # table: an open
#     fivedice.strategy_table.StrategyTable
#     a = p.decide(game)
#
# "good" runs the coach's exact within-turn optimisation against a heuristic value of the next
# state: a par for every open box, the upper bonus scaled by how reachable it still is, and the
# extra-bonus chance (fivedice.good_valuer, loaded only for a "good" seat).

# fivedice.cpu and fivedice.good_valuer are fivedice.lazy's "easy" and "good", fetched where a
# player is built: the seats load them as the menu or the save names a level (Seats.need_levels), so
# here they are found loaded. The levels are seat kinds (fivedice.settings: EASY, GOOD, PERFECT);
# decide() returns fivedice.game's ROLL or SCORE. Both homes are modules every start-up loads
# anyway: importing this one early would cost a board the block the start-up's tables need (the
# board-heap proxy ran out at keeps' 3.7 KB array).
from fivedice import lazy as _lazy
from fivedice.game import ROLL, SCORE  # noqa: F401
from fivedice.settings import EASY, GOOD, HUMAN, PERFECT  # noqa: F401

NAMES = ("human", "easy", "good", "perfect")  # by seat kind



def available_levels(has_table):
    """How many levels this board offers: 3 (easy, good, perfect) with a table, else 2."""
    return 3 if has_table else 2


class TablePlayer:
    """A level driven by a coach (GOOD with the heuristic valuer, PERFECT with the table)."""

    def __init__(self, rs, valuer, level, coach=None, groups=None, work=None):
        self.level = level
        if coach is None:
            from fivedice.coach import Coach

            coach = Coach(rs, valuer, groups, work)
        self.coach = coach
        self.keep = 0
        self.box = -1

    def prepare(self, rs):
        """Same call as cpu.Cpu.prepare (at game start). GOOD rebuilds for another rule set; PERFECT
        cannot (its table belongs to one rule set): use make() with that rule set's table."""
        if rs is self.coach.rs:
            return
        if self.level != GOOD:
            raise ValueError(
                "this perfect CPU's table is for %s, not %s" % (self.coach.rs.id, rs.id)
            )
        # the coach's buffers are reused
        self.coach.retarget(rs, _lazy.load("good").HeuristicValuer(rs))

    def decide(self, game):
        if game.rolls == 0:
            self.keep = 0
            return ROLL
        c = self.coach
        a = c.hint(game.cards[game.player], game.dice, game.rolls, game.held)
        if a == SCORE:  # the coach's SCORE
            self.box = c.value
            return SCORE
        self.keep = c.value
        return ROLL


def make(rs, level, table=None, coach=None, groups=None, work=None):
    """A player for `level`; ValueError if "perfect" is asked for without a table.

    `coach`: an existing coach on `table` for the perfect player to share (it caches one turn solve
    at a time, keyed by the card, so seats and hints can share it and save its ~7.5 KB). `groups`,
    `work`: fivedice.coach_buffers.new_groups() to share and new_work() to reuse for the good CPU's
    coach."""
    if level == EASY:
        # loaded already, while a seat names the level (Seats.need_levels)
        _cpu = _lazy.load("easy")
        p = _cpu.Cpu(_cpu.EASY)
        p.prepare(rs)
        return p
    if level == GOOD:
        return TablePlayer(rs, _lazy.load("good").HeuristicValuer(rs), GOOD, None, groups, work)
    if level == PERFECT:
        if table is None:
            raise ValueError(
                "the perfect CPU needs the strategy table (make tables, copy tables/%s.fdt)" % rs.id
            )
        return TablePlayer(rs, table, PERFECT, coach)
    raise ValueError("unknown CPU level %r" % (level,))
