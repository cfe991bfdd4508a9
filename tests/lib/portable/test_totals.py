"""Totals: upper, upper bonus, lower, extra bonuses, grand total."""
from sheet import card


def test_upper_bonus_35_at_63_in_yahtzee():
    c = card("yahtzee", {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18})
    assert c.upper() == 63 and c.upper_bonus() == 35 and c.total() == 98


def test_no_upper_bonus_at_62():
    c = card("yahtzee", {"ones": 2, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18})
    assert c.upper() == 62 and c.upper_bonus() == 0


def test_yum_upper_bonus_is_25_and_yatzy_is_50_and_yacht_has_none():
    f = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}
    assert card("yum", f).upper_bonus() == 25
    assert card("yatzy", f).upper_bonus() == 50
    assert card("yacht", f).upper_bonus() == 0


def test_extra_bonuses_add_100_each():
    c = card("yahtzee", {"yahtzee": 50, "chance": 20})
    c.extra = 2
    assert c.lower() == 70 and c.bonus() == 200 and c.total() == 270


def test_total_sums_every_part():
    c = card("yum", {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18, "high": 25, "low": 23, "yum": 30, "full_house": 0, "low_straight": 0, "high_straight": 0})
    assert c.full()
    assert (c.upper(), c.upper_bonus(), c.lower(), c.total()) == (63, 25, 78, 166)
