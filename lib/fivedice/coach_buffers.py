"""The coach's big arrays, apart from its code: the app allocates them once, at start-up, on the
heap as start-up left it, and every coach shares them in every game, resume and seat change, so none
ever needs a KB-sized block of a fragmented heap (docs/memory.md). The sizes' one home: the coach
imports them from here. Once the arrays are made, the app drops this module (fivedice.lazy
"coach_buffers")."""
from fivedice.compat import const, zeros
from fivedice.rules import MAX_BOXES

SLOTS = const(11)  # a box's next-state slots
L5 = const(210)  # first index of level 5 (the rolls) in the 462 keeps
MAXNZ = const(1544)  # (box, roll) pairs scoring > 0 on an empty card, most of any rule set (yatzy)
MAXG = const(112)  # (box, points > 0) groups, most of any rule set (the Yahtzee family)


def new_groups():
    """Room for a coach's final-roll groups: [rule set they are for (None: none yet), rolls, points,
    ends, firsts, the rule set being grouped, its box, groups and rolls so far, one box's points,
    the next roll]. About 2.1 KB; every coach may share it (they are the same for one rule set,
    built a slice at a time by whichever coach works first: coach.Coach.work)."""
    return [
        None,
        bytearray(MAXNZ),
        bytearray(MAXG),
        zeros("H", MAXG),
        bytearray(MAX_BOXES + 1),
        None,
        0,
        0,
        0,
        bytearray(252),
        0,
    ]


def new_work():
    """A coach's turn-solve arrays: [k2, k1, best sub-keeps, slots, one box's points, the coach
    whose solve they hold]. About 4.6 KB on a 32-bit board; every coach may share them (the table's,
    the good CPU's): a coach that finds another's solve in them solves its turn again
    (coach.Coach.work)."""
    return [
        zeros("l", 462),
        zeros("l", 462),
        zeros("l", L5),
        zeros("l", MAX_BOXES * SLOTS),
        bytearray(252),
        None,
    ]
