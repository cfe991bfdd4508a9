"""Parker Brothers Yum, one test per ruling."""
from sheet import bonus, choices, points


def test_high_straight_2_to_6_scores_20():
    assert points("yum", [2, 3, 4, 5, 6], "high_straight") == 20
    assert points("yum", [1, 2, 3, 4, 5], "high_straight") == 0


def test_low_straight_1_to_5_scores_15():
    assert points("yum", [5, 4, 3, 2, 1], "low_straight") == 15
    assert points("yum", [2, 3, 4, 5, 6], "low_straight") == 0


def test_high_is_the_total_when_it_is_22_or_more():
    assert points("yum", [6, 6, 5, 3, 2], "high") == 22
    assert points("yum", [6, 6, 5, 3, 1], "high") == 0


def test_low_is_the_total_when_it_is_21_or_more():
    assert points("yum", [6, 6, 5, 3, 1], "low") == 21
    assert points("yum", [6, 6, 5, 1, 1], "low") == 0


def test_sheet_example_three_sixes_a_two_and_a_three_make_23_for_low():
    assert points("yum", [6, 6, 6, 2, 3], "low") == 23


def test_low_must_be_lower_than_your_high():
    assert points("yum", [6, 6, 6, 2, 3], "low", {"high": 24}) == 23
    assert points("yum", [6, 6, 6, 3, 3], "low", {"high": 24}) == 0  # equal is not lower
    assert points("yum", [6, 6, 6, 5, 3], "low", {"high": 24}) == 0


def test_a_later_high_must_beat_your_low():
    assert points("yum", [6, 6, 6, 5, 3], "high", {"low": 25}) == 26
    assert points("yum", [6, 6, 6, 5, 2], "high", {"low": 25}) == 0  # equal does not beat it


def test_ruling_a_high_scratched_to_zero_sets_no_limit_on_low():
    assert points("yum", [6, 6, 6, 6, 5], "low", {"high": 0}) == 29


def test_ruling_a_low_scratched_to_zero_sets_no_limit_on_high():
    assert points("yum", [6, 6, 5, 3, 2], "high", {"low": 0}) == 22


def test_full_house_scores_25():
    assert points("yum", [6, 6, 6, 5, 5], "full_house") == 25


def test_five_of_a_kind_is_not_a_full_house():
    assert points("yum", [5, 5, 5, 5, 5], "full_house") == 0


def test_yum_is_five_of_a_kind_for_30():
    assert points("yum", [1, 1, 1, 1, 1], "yum") == 30


def test_no_joker_and_no_extra_yum_bonus():
    assert bonus("yum", [4, 4, 4, 4, 4], {"yum": 30}) == 0
    c = choices("yum", [4, 4, 4, 4, 4], {"yum": 30, "fours": 16})
    assert c["full_house"] == 0 and c["high_straight"] == 0 and len(c) == 10


def test_sheet_example_full_house_already_scored_goes_to_high_or_upper():
    c = choices("yum", [6, 6, 6, 5, 5], {"full_house": 25})
    assert c["high"] == 28 and c["sixes"] == 18 and c["fives"] == 10


def test_upper_numbers_count_that_face_only():
    # "three one's would count as a total of three points. Four three's ... twelve points"
    assert points("yum", [1, 1, 1, 4, 5], "ones") == 3
    assert points("yum", [3, 3, 3, 3, 5], "threes") == 12
