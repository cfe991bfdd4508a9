"""The turn and game machine: legal actions change the game, illegal ones are refused and change nothing."""
from fivedice import game, rules
from fivedice.rng import ScriptedFaces
from fivedice import savefile


def new(rid="yahtzee", players=1, faces=()):
    return game.Game(rules.get(rid), players, ScriptedFaces(list(faces)))


def snapshot(g):
    return savefile.encode_game(g)


def test_a_turn_allows_three_rolls_and_refuses_a_fourth():
    g = new(faces=[1, 2, 3, 4, 5] * 4)
    for _ in range(3):
        assert g.roll() == game.OK
    before = snapshot(g)
    assert g.roll() == game.NO_ROLLS_LEFT
    assert snapshot(g) == before


def test_holding_before_the_first_roll_is_refused():
    g = new()
    before = snapshot(g)
    assert g.hold(0) == game.NOT_ROLLED
    assert snapshot(g) == before


def test_holding_after_the_third_roll_is_refused():
    g = new(faces=[1, 2, 3, 4, 6] * 3)
    for _ in range(3):
        g.roll()
    before = snapshot(g)
    assert g.hold(0) == game.NO_ROLLS_LEFT
    assert g.toggle(4) == game.NO_ROLLS_LEFT
    assert snapshot(g) == before


def test_scoring_before_rolling_is_refused():
    g = new()
    before = snapshot(g)
    assert g.score(0) == game.SCORE_BEFORE_ROLL
    assert snapshot(g) == before


def test_held_dice_keep_their_faces_and_the_others_are_rolled_in_die_order():
    g = new(faces=[6, 6, 1, 2, 3, 4, 5, 6])
    g.roll()
    assert list(g.dice) == [6, 6, 1, 2, 3]
    g.hold(0)
    g.hold(1)
    g.release(1)
    g.hold(4)
    g.roll()
    assert list(g.dice) == [6, 4, 5, 6, 3]


def test_holding_all_five_and_rolling_is_refused():
    g = new(faces=[1, 2, 3, 4, 5])
    g.roll()
    for i in range(5):
        g.hold(i)
    before = snapshot(g)
    assert g.roll() == game.ALL_HELD
    assert snapshot(g) == before


def test_a_player_may_score_after_the_first_roll():
    g = new(faces=[3, 3, 3, 5, 5])
    g.roll()
    assert g.score(rules.YAHTZEE.box("full_house")) == game.OK
    assert g.cards[0].pts[rules.YAHTZEE.box("full_house")] == 25
    assert g.rolls == 0 and g.held == 0


def test_scoring_a_filled_box_is_refused():
    g = new(faces=[3, 3, 3, 5, 5] * 2)
    g.roll()
    g.score(8)
    g.roll()
    before = snapshot(g)
    assert g.score(8) == game.BOX_FILLED
    assert snapshot(g) == before


def test_scoring_a_box_the_forced_joker_forbids_is_refused():
    rs = rules.YAHTZEE
    g = new(faces=[2, 2, 2, 2, 2] * 2)
    g.roll()
    assert g.score(rs.box("yahtzee")) == game.OK
    g.roll()
    before = snapshot(g)
    assert g.score(rs.box("chance")) == game.BOX_FORBIDDEN
    assert snapshot(g) == before
    assert g.score(rs.box("twos")) == game.OK
    assert g.cards[0].extra == 1 and g.cards[0].total() == 60 + 100


def test_a_zero_may_be_scored():
    g = new(faces=[1, 2, 3, 4, 6])
    g.roll()
    assert g.score(rules.YAHTZEE.box("yahtzee")) == game.OK
    assert g.cards[0].is_filled(11) and g.cards[0].pts[11] == 0


def test_bad_die_and_bad_box_are_refused():
    g = new(faces=[1, 2, 3, 4, 6])
    g.roll()
    assert g.hold(5) == game.BAD_DIE
    assert g.score(13) == game.BAD_BOX


def test_players_take_turns_and_the_game_ends_when_every_box_is_filled():
    rs = rules.YACHT
    g = game.Game(rs, 2, ScriptedFaces([1, 2, 3, 4, 6] * (2 * rs.n)))
    for t in range(rs.n):
        for p in range(2):
            assert g.player == p and not g.over
            g.roll()
            assert g.score(t) == game.OK
    assert g.over
    assert g.roll() == game.GAME_OVER
    assert g.cards[0].full() and g.cards[1].full()


def test_ranking_orders_by_total_and_ties_share_a_place():
    rs = rules.YACHT
    g = game.Game(rs, 3, ScriptedFaces([6, 6, 6, 6, 6, 1, 1, 1, 1, 2, 6, 6, 6, 6, 6]))
    for _ in range(3):
        g.roll()
        g.score(rs.box("yacht"))
    out = bytearray(4)
    assert g.ranking(out) == 3
    assert list(out[:3]) == [0, 2, 1]
    assert g.place(0) == 1 and g.place(2) == 1 and g.place(1) == 3
    totals = [0, 0, 0, 0]  # each total by seat, as the ranking read them
    assert g.ranking(out, totals) == 3 and list(out[:3]) == [0, 2, 1]
    assert totals[:3] == [c.total() for c in g.cards] == [50, 0, 50]


def test_one_to_four_players_only():
    for bad in (0, 5):
        try:
            new(players=bad)
        except ValueError:
            continue
        raise AssertionError("accepted %d players" % bad)


def test_reason_messages_cover_every_code():
    assert len(game.REASONS) == game.ALL_HELD + 1
