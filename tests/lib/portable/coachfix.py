"""Shared set-up for the coach suites (portable): the committed sub-game tables in tests/data.

Each table comes from host_sim.solver.fixtures (tests/host/test_solver.py checks they are current);
the start cards below are the same sub-games.
"""
from fivedice import rules
from fivedice.scorecard import Card
from fivedice.strategy_table import StrategyTable

try:
    _DIR = __file__.rsplit("/", 1)[0]
except NameError:
    _DIR = "tests/lib/portable"
DATA = _DIR + "/../../data"  # tests/data

START = {
    "yahtzee3": ("yahtzee", (("ones", 3), ("twos", 6), ("threes", 9), ("fives", 15), ("sixes", 18), ("three_kind", 22),
                             ("four_kind", 0), ("small_straight", 30), ("large_straight", 40), ("yahtzee", 50))),
    "yum3": ("yum", (("ones", 3), ("twos", 6), ("threes", 9), ("fours", 12), ("fives", 15), ("high_straight", 20),
                     ("low_straight", 0), ("full_house", 25), ("yum", 30))),
    "yum_low25": ("yum", (("ones", 3), ("twos", 6), ("threes", 9), ("fours", 12), ("fives", 15), ("sixes", 18),
                          ("high_straight", 20), ("low_straight", 0), ("full_house", 25), ("low", 25))),
    "yacht": ("yacht", ()),
}


def table(name):
    rs = rules.get(START[name][0])
    return StrategyTable(open(DATA + "/" + name + ".fdt", "rb"), rs)


def card(name, into=None):
    rs = rules.get(START[name][0])
    c = into if into is not None else Card(rs)
    c.clear()
    for box, pts in START[name][1]:
        c.fill(rs.box(box), pts)
    return c
