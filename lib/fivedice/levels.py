"""Who plays a seat and what a player decides: the one home of these numbers (the menu, the save, the CPU
levels, the coach and the screens import them from here)."""
from fivedice.compat import const

# A seat's kind, and a CPU player's level: the menu's and the save's seat value (fivedice.settings).
HUMAN = const(0)
EASY = const(1)  # the greedy heuristic (fivedice.cpu)
GOOD = const(2)  # the coach on a table-free estimate (fivedice.good_valuer)
PERFECT = const(3)  # the coach on the strategy table
NAMES = ("human", "easy", "good", "perfect")

# What a decision returns: a CPU's decide() ROLL (after setting `keep`) or SCORE (after setting `box`); the
# coach's hint() NONE, KEEP (hold `value`, roll) or SCORE (score box `value`).
NONE = const(0)
ROLL = const(1)
KEEP = const(1)
SCORE = const(2)

