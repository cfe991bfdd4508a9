"""The 5 of a Kind sheet: 5OK bonus, Forced and Free-choice Trump Card rules."""
from sheet import bonus, choices, points


def test_five_kind_box_scores_50():
    assert points("fiveok_forced", [5, 5, 5, 5, 5], "five_kind") == 50
    assert points("fiveok_free", [5, 5, 5, 5, 5], "five_kind") == 50


def test_5ok_bonus_is_100_when_the_five_kind_box_holds_50():
    for rid in ("fiveok_forced", "fiveok_free"):
        assert bonus(rid, [2, 2, 2, 2, 2], {"five_kind": 50}) == 100


def test_no_5ok_bonus_when_the_five_kind_box_holds_zero():
    for rid in ("fiveok_forced", "fiveok_free"):
        assert bonus(rid, [2, 2, 2, 2, 2], {"five_kind": 0}) == 0


def test_forced_trump_must_use_the_unused_upper_box():
    assert choices("fiveok_forced", [6, 6, 6, 6, 6], {"five_kind": 50}) == {"sixes": 30}


def test_forced_trump_with_upper_box_used_must_use_a_lower_box_with_fh_ss_ls_at_full_value():
    c = choices("fiveok_forced", [6, 6, 6, 6, 6], {"five_kind": 0, "sixes": 18})
    assert c == {
        "three_kind": 30,
        "four_kind": 30,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 30,
    }


def test_forced_trump_with_upper_box_and_all_lower_boxes_used_scores_zero_in_an_upper_box():
    f = {"fives": 20}
    for b in ("three_kind", "four_kind", "full_house", "small_straight", "large_straight", "five_kind", "chance"):
        f[b] = 0
    assert choices("fiveok_forced", [5, 5, 5, 5, 5], f) == {
        "ones": 0,
        "twos": 0,
        "threes": 0,
        "fours": 0,
        "sixes": 0,
    }


def test_free_trump_keeps_free_choice_of_any_open_box():
    c = choices("fiveok_free", [6, 6, 6, 6, 6], {"five_kind": 50})
    assert len(c) == 12 and c["sixes"] == 30 and c["twos"] == 0


def test_free_trump_scores_fh_ss_ls_zero_while_the_matching_upper_box_is_unused():
    c = choices("fiveok_free", [6, 6, 6, 6, 6], {"five_kind": 50})
    assert c["full_house"] == 0 and c["small_straight"] == 0 and c["large_straight"] == 0


def test_free_trump_scores_fh_ss_ls_full_once_the_matching_upper_box_is_used():
    c = choices("fiveok_free", [6, 6, 6, 6, 6], {"five_kind": 0, "sixes": 24})
    assert c["full_house"] == 25 and c["small_straight"] == 30 and c["large_straight"] == 40
    assert c["ones"] == 0 and c["chance"] == 30


def test_trump_card_needs_the_five_kind_box_filled():
    # 5OK "if a player throws a 5OK but the 5OK category has already been used, special rules apply"
    for rid in ("fiveok_forced", "fiveok_free"):
        c = choices(rid, [3, 3, 3, 3, 3], {"threes": 9})
        assert c["full_house"] == 0 and c["large_straight"] == 0 and len(c) == 12
