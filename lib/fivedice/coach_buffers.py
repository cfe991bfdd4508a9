"""The coach's big arrays, apart from its code: the app allocates them once, early, on a clean heap, and
keeps them when it lets a coach go (a tight heap: docs/memory.md), so building a coach
again never needs a KB-sized block of a fragmented heap. Sizes are the coach's (fivedice.coach)."""
from fivedice.compat import const, zeros

MAX_BOXES = const(15)  # rules.MAX_BOXES
SLOTS = const(11)  # coach._SLOTS
L5 = const(210)  # coach._L5: first index of level 5 (the rolls) in the 462 keeps
MAXNZ = const(1544)  # coach._MAXNZ: (box, roll) pairs scoring > 0 on an empty card, most of any rule set
MAXG = const(112)  # coach._MAXG: (box, points > 0) groups, most of any rule set


def new_groups():
    """Room for a coach's final-roll groups: [rule set they are for (None: none yet), rolls, points, ends,
    firsts]. About 1.9 KB; every coach may share it (they are the same for one rule set)."""
    return [None, bytearray(MAXNZ), bytearray(MAXG), zeros("H", MAXG), bytearray(MAX_BOXES + 1)]


def new_work():
    """A coach's turn-solve arrays: [k2, k1, best sub-keeps, slots, one box's points]. About 4.6 KB on a
    32-bit board; for one coach at a time."""
    return [zeros("l", 462), zeros("l", 462), zeros("l", L5), zeros("l", MAX_BOXES * SLOTS), bytearray(252)]
