"""Hasbro Yahtzee (folio manual), one test per ruling."""
from sheet import bonus, choices, points

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")


def test_upper_section_adds_only_the_matching_dice():
    # manual: "you could score 9 in the Threes box, 2 in the Twos box or 4 in the Fours box"
    d = [3, 3, 3, 2, 4]
    assert points("yahtzee", d, "threes") == 9
    assert points("yahtzee", d, "twos") == 2
    assert points("yahtzee", d, "fours") == 4
    assert points("yahtzee", d, "sixes") == 0


def test_three_of_a_kind_scores_the_total_of_all_dice():
    assert points("yahtzee", [6, 6, 6, 2, 4], "three_kind") == 24
    assert points("yahtzee", [6, 6, 5, 2, 4], "three_kind") == 0


def test_four_of_a_kind_scores_the_total_of_all_dice():
    assert points("yahtzee", [2, 2, 2, 2, 6], "four_kind") == 14
    assert points("yahtzee", [2, 2, 2, 6, 6], "four_kind") == 0


def test_full_house_is_three_of_one_and_two_of_another_for_25():
    assert points("yahtzee", [3, 3, 3, 5, 5], "full_house") == 25
    assert points("yahtzee", [3, 3, 3, 5, 6], "full_house") == 0


def test_five_of_a_kind_is_not_a_full_house_while_the_yahtzee_box_is_open():
    assert points("yahtzee", [4, 4, 4, 4, 4], "full_house") == 0


def test_small_straight_is_any_four_in_a_row_for_30():
    for d in ([1, 2, 3, 4, 6], [2, 3, 4, 5, 5], [3, 4, 5, 6, 1], [1, 2, 3, 4, 5]):
        assert points("yahtzee", d, "small_straight") == 30, d
    assert points("yahtzee", [1, 2, 3, 5, 6], "small_straight") == 0


def test_large_straight_is_any_five_in_a_row_for_40():
    assert points("yahtzee", [1, 2, 3, 4, 5], "large_straight") == 40
    assert points("yahtzee", [6, 5, 4, 3, 2], "large_straight") == 40
    assert points("yahtzee", [1, 2, 3, 4, 6], "large_straight") == 0


def test_chance_is_the_total_of_all_dice():
    assert points("yahtzee", [1, 3, 5, 6, 6], "chance") == 21


def test_first_yahtzee_is_worth_50():
    assert points("yahtzee", [2, 2, 2, 2, 2], "yahtzee") == 50
    assert points("yahtzee", [2, 2, 2, 2, 3], "yahtzee") == 0


def test_while_the_yahtzee_box_is_open_five_of_a_kind_may_go_in_any_open_box():
    c = choices("yahtzee", [5, 5, 5, 5, 5])
    assert len(c) == 13
    assert c["yahtzee"] == 50 and c["fives"] == 25 and c["large_straight"] == 0


def test_yahtzee_bonus_is_100_when_the_yahtzee_box_holds_50():
    assert bonus("yahtzee", [6, 6, 6, 6, 6], {"yahtzee": 50}) == 100


def test_no_yahtzee_bonus_when_the_yahtzee_box_holds_zero():
    assert bonus("yahtzee", [6, 6, 6, 6, 6], {"yahtzee": 0}) == 0


def test_no_yahtzee_bonus_for_the_first_yahtzee():
    assert bonus("yahtzee", [6, 6, 6, 6, 6]) == 0


def test_no_yahtzee_bonus_without_five_of_a_kind():
    assert bonus("yahtzee", [6, 6, 6, 6, 5], {"yahtzee": 50}) == 0


def test_joker_must_use_the_matching_upper_box_when_it_is_open():
    assert choices("yahtzee", [3, 3, 3, 3, 3], {"yahtzee": 50}) == {"threes": 15}
    assert choices("yahtzee", [3, 3, 3, 3, 3], {"yahtzee": 0}) == {"threes": 15}


def test_joker_manual_example_five_fours_with_yahtzee_zero_and_fours_filled_scores_40_as_large_straight():
    c = choices("yahtzee", [4, 4, 4, 4, 4], {"yahtzee": 0, "fours": 12})
    assert c == {
        "three_kind": 20,
        "four_kind": 20,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 20,
    }
    assert bonus("yahtzee", [4, 4, 4, 4, 4], {"yahtzee": 0, "fours": 12}) == 0


def test_joker_offers_only_the_open_lower_boxes():
    c = choices("yahtzee", [1, 1, 1, 1, 1], {"yahtzee": 50, "ones": 3, "full_house": 25, "chance": 22})
    assert sorted(c) == ["four_kind", "large_straight", "small_straight", "three_kind"]
    assert c["three_kind"] == 5 and c["large_straight"] == 40


def test_joker_with_upper_box_and_every_lower_box_filled_must_take_zero_in_an_open_upper_box():
    filled = {"sixes": 24, "twos": 6}
    for b in ("three_kind", "four_kind", "full_house", "small_straight", "large_straight", "yahtzee", "chance"):
        filled[b] = 0
    c = choices("yahtzee", [6, 6, 6, 6, 6], filled)
    assert c == {"ones": 0, "threes": 0, "fours": 0, "fives": 0}


def test_joker_bonus_and_box_are_both_earned():
    f = {"yahtzee": 50, "fours": 16}
    assert bonus("yahtzee", [4, 4, 4, 4, 4], f) == 100
    assert choices("yahtzee", [4, 4, 4, 4, 4], f)["full_house"] == 25


def test_without_five_of_a_kind_any_open_box_may_take_a_zero():
    c = choices("yahtzee", [1, 2, 4, 5, 6], {"chance": 20})
    assert len(c) == 12 and c["yahtzee"] == 0 and c["full_house"] == 0
