"""Saves: a game round-trips through bytes, and a corrupt save is refused with a plain message."""
from fivedice import game, rules, save_check
from fivedice.rng import Dice, SeededBytes


def played(rid="yahtzee", players=2, turns=5):
    g = game.Game(rules.get(rid), players, Dice(SeededBytes(7)))
    for _ in range(turns):
        g.roll()
        m = g.legal()
        b = 0
        while not (m >> b) & 1:
            b += 1
        g.score(b)
    g.roll()
    g.hold(2)
    return g


def test_a_game_round_trips_through_bytes():
    for rs in rules.ALL:
        g = played(rs.id)
        h = save_check.decode_game(g.to_bytes(), None)
        assert h.to_bytes() == g.to_bytes()
        assert h.rs is g.rs and list(h.dice) == list(g.dice) and h.held == g.held
        assert [c.total() for c in h.cards] == [c.total() for c in g.cards]


def _refused(data):
    try:
        save_check.decode_game(data, None)
    except ValueError as e:
        return str(e)
    raise AssertionError("corrupt save accepted")


def test_a_flipped_bit_is_refused():
    b = bytearray(played().to_bytes())
    b[20] ^= 0x04
    assert "corrupt" in _refused(bytes(b))


def test_a_truncated_save_is_refused():
    assert _refused(played().to_bytes()[:-3])


def test_not_a_save_is_refused():
    assert "not a fivedice save" in _refused(b"hello world, not a save")


def test_impossible_points_are_refused_even_with_a_good_checksum():
    g = played(turns=1)
    assert g.last_box == 0  # the first turn filled Ones
    g.cards[0].pts[0] = 9  # no roll puts 9 in Ones
    msg = _refused(g.to_bytes())
    assert "no roll can score" in msg


def test_possible_values_cover_the_joker_scores():
    rs = rules.YAHTZEE
    assert save_check.possible(rs, rs.box("large_straight"), 40)
    assert not save_check.possible(rs, rs.box("large_straight"), 30)
    assert save_check.possible(rs, rs.box("fours"), 20) and not save_check.possible(rs, rs.box("fours"), 13)
    assert not save_check.possible(rules.YUM, rules.YUM.box("low"), 20)


def _impossible(g, words):
    msg = _refused(g.to_bytes())  # to_bytes seals it with a valid CRC-32: only the rules can refuse it
    assert words in msg, msg


def test_a_turn_past_the_last_box_is_refused_with_a_valid_crc():
    g = played()
    g.turn = 200
    _impossible(g, "turn 201")


def test_filled_counts_that_do_not_match_the_turn_are_refused_with_a_valid_crc():
    g = played()
    g.cards[1].fill(12, 0)
    _impossible(g, "player 2 has")


def test_full_cards_in_a_game_not_over_are_refused_with_a_valid_crc():
    g = played(players=1, turns=0)
    rs = g.rs
    for b in range(rs.n):
        g.cards[0].fill(b, 0)
    g.turn = rs.n
    g.rolls = 0
    g.held = 0
    for i in range(5):
        g.dice[i] = 0
    _impossible(g, "not marked over")


def test_a_game_marked_over_early_is_refused_with_a_valid_crc():
    g = played(turns=4)
    g.rolls = 0
    g.held = 0
    for i in range(5):
        g.dice[i] = 0
    g.over = True
    _impossible(g, "marked over")


def test_extra_bonuses_beyond_the_turns_after_the_five_box_are_refused_with_a_valid_crc():
    g = played(players=1, turns=0)
    rs = g.rs
    g.cards[0].fill(rs.five_box, 50)
    g.turn = 1
    g.cards[0].extra = 1  # the bonus turn would have filled a second box
    _impossible(g, "extra bonuses")
    g.cards[0].extra = 255
    _impossible(g, "extra bonuses")


def test_a_yum_low_not_below_its_high_is_refused_with_a_valid_crc():
    g = played("yum", players=1, turns=0)
    rs = g.rs
    g.cards[0].fill(rs.high_box, 24)
    g.cards[0].fill(rs.low_box, 26)
    g.turn = 2
    _impossible(g, "not lower than high")


def test_held_dice_before_a_roll_are_refused_with_a_valid_crc():
    h = game.Game(rules.get("yahtzee"), 2, None)  # a fresh game: no dice yet
    h.held = 3
    _impossible(h, "held before the first roll")
