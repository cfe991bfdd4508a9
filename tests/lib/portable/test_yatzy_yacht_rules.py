"""Scandinavian Yatzy and classic Yacht."""
from sheet import choices, points


def test_yatzy_one_pair_scores_the_highest_pair():
    assert points("yatzy", [3, 3, 5, 5, 1], "one_pair") == 10
    assert points("yatzy", [1, 2, 3, 4, 6], "one_pair") == 0


def test_yatzy_two_pairs_must_be_different_faces():
    assert points("yatzy", [3, 3, 5, 5, 1], "two_pairs") == 16
    assert points("yatzy", [3, 3, 3, 3, 1], "two_pairs") == 0
    assert points("yatzy", [2, 2, 2, 6, 6], "two_pairs") == 16


def test_yatzy_kinds_score_the_matching_dice_only():
    assert points("yatzy", [4, 4, 4, 6, 6], "three_kind") == 12
    assert points("yatzy", [4, 4, 4, 4, 6], "four_kind") == 16
    assert points("yatzy", [4, 4, 4, 4, 4], "four_kind") == 16


def test_yatzy_small_straight_is_1_to_5_for_15_and_large_is_2_to_6_for_20():
    assert points("yatzy", [1, 2, 3, 4, 5], "small_straight") == 15
    assert points("yatzy", [2, 3, 4, 5, 6], "small_straight") == 0
    assert points("yatzy", [2, 3, 4, 5, 6], "large_straight") == 20
    assert points("yatzy", [1, 2, 3, 4, 6], "small_straight") == 0


def test_yatzy_full_house_scores_the_total_and_five_of_a_kind_is_not_one():
    assert points("yatzy", [6, 6, 6, 5, 5], "full_house") == 28
    assert points("yatzy", [6, 6, 6, 6, 6], "full_house") == 0


def test_yatzy_is_50_and_has_no_joker():
    assert points("yatzy", [2, 2, 2, 2, 2], "yatzy") == 50
    assert len(choices("yatzy", [2, 2, 2, 2, 2], {"yatzy": 50})) == 14


def test_yacht_full_house_scores_the_total():
    assert points("yacht", [2, 2, 2, 3, 3], "full_house") == 12


def test_yacht_four_of_a_kind_scores_the_four_matching_dice():
    assert points("yacht", [5, 5, 5, 5, 1], "four_kind") == 20
    assert points("yacht", [5, 5, 5, 5, 5], "four_kind") == 20


def test_yacht_both_straights_score_30():
    assert points("yacht", [1, 2, 3, 4, 5], "little_straight") == 30
    assert points("yacht", [2, 3, 4, 5, 6], "big_straight") == 30
    assert points("yacht", [2, 3, 4, 5, 6], "little_straight") == 0


def test_yacht_is_50_and_choice_is_the_total():
    assert points("yacht", [6, 6, 6, 6, 6], "yacht") == 50
    assert points("yacht", [6, 1, 6, 2, 6], "choice") == 21
