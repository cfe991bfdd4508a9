"""Small sub-games: used by the tests (brute-force checks) and written as tiny tables for the MicroPython suites.

    python -m host_sim.solver.fixtures   # rewrites tests/data/*.fdt (tests/host/test_solver.py checks they are current)
"""
import os

from fivedice import rules
from fivedice.scorecard import Card
from host_sim.solver import core, tablefile

# name: (rule set id, {box name: points already scored}); the open boxes are the rest
SUBGAMES = {
    # Joker: five box holds 50 (extra bonus live); fours open with the upper bonus in reach (51 of 63)
    "yahtzee3": ("yahtzee", {"ones": 3, "twos": 6, "threes": 9, "fives": 15, "sixes": 18, "three_kind": 22,
                             "four_kind": 0, "small_straight": 30, "large_straight": 40, "yahtzee": 50}),
    # Free Trump Card: twos open, so a Joker full house / straight is worth 0 until twos is used
    "fiveok_free3": ("fiveok_free", {"ones": 2, "threes": 9, "fours": 12, "fives": 20, "sixes": 18, "three_kind": 24,
                                     "four_kind": 21, "small_straight": 30, "five_kind": 50, "chance": 23}),
    # Yum's High/Low coupling, both open, with sixes
    "yum3": ("yum", {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "high_straight": 20,
                     "low_straight": 0, "full_house": 25, "yum": 30}),
    # Yum with Low already at 25: High must beat it
    "yum_low25": ("yum", {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
                          "high_straight": 20, "low_straight": 0, "full_house": 25, "low": 25}),
    "yatzy3": ("yatzy", {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "sixes": 18, "three_kind": 15,
                         "four_kind": 16, "small_straight": 15, "large_straight": 0, "full_house": 18,
                         "chance": 22, "yatzy": 50}),
    "yacht3": ("yacht", {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
                         "little_straight": 30, "big_straight": 0, "choice": 24}),
}

# the tables committed for the MicroPython suites (tests/data/NAME.fdt); "yacht" is the whole game
DEVICE_FIXTURES = ("yahtzee3", "yum3", "yum_low25", "yacht")
DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tests", "data")


def card(name):
    rid, filled = SUBGAMES[name]
    rs = rules.get(rid)
    c = Card(rs)
    for box, pts in filled.items():
        c.fill(rs.box(box), pts)
    return c


def solve(name, workers=1):
    """(model, E) for a sub-game (or "yacht": the whole Yacht game)."""
    if name == "yacht":
        return core.solve(rules.get("yacht"), workers=workers)[:2]
    c = card(name)
    return core.solve(c.rs, base=c.filled, workers=workers)[:2]


def encode(name):
    md, E = solve(name)
    return tablefile.encode(md, E)


def main():
    os.makedirs(DATA, exist_ok=True)
    for name in DEVICE_FIXTURES:
        data = encode(name)
        with open(os.path.join(DATA, name + ".fdt"), "wb") as f:
            f.write(data)
        print("%-10s %6d bytes" % (name, len(data)))


if __name__ == "__main__":
    main()
