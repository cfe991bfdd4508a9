"""The easy CPU player: always a legal move, finishes games, plays sensibly."""
from fivedice import cpu, game, rules
from fivedice.rng import Dice, ScriptedFaces, SeededBytes


def test_the_cpu_finishes_a_game_of_every_rule_set_with_legal_moves_only():
    for rs in rules.ALL:
        g = game.Game(rs, 2, Dice(SeededBytes(rs.index + 1)))
        c = cpu.Cpu()
        c.prepare(rs)
        turns = 0
        while not g.over:
            p = g.player
            box = cpu.play_turn(g, c)
            assert g.last_box == box and g.cards[p].is_filled(box)
            turns += 1
        assert turns == 2 * rs.n


def test_the_cpu_scores_a_made_large_straight_at_once():
    rs = rules.YAHTZEE
    g = game.Game(rs, 1, ScriptedFaces([2, 3, 4, 5, 6]))
    g.roll()
    c = cpu.Cpu()
    assert c.decide(g) == cpu.SCORE and rs.names[c.box] == "large_straight"


def test_the_cpu_keeps_four_of_a_kind_and_rolls_the_odd_die():
    g = game.Game(rules.YAHTZEE, 1, ScriptedFaces([5, 5, 1, 5, 5]))
    g.roll()
    c = cpu.Cpu()
    assert c.decide(g) == cpu.ROLL and c.keep == 0b11011


def test_the_cpu_takes_the_forced_joker_box():
    rs = rules.YAHTZEE
    g = game.Game(rs, 1, ScriptedFaces([3] * 10))
    g.roll()
    g.score(rs.box("yahtzee"))
    g.roll()
    c = cpu.Cpu()
    box = cpu.play_turn(g, c)
    assert rs.names[box] == "threes"


def test_the_cpu_beats_a_random_player_by_a_wide_margin():
    rs = rules.YAHTZEE
    src = Dice(SeededBytes(9))
    c = cpu.Cpu()
    total = 0
    for _ in range(30):
        g = game.Game(rs, 1, src)
        while not g.over:
            cpu.play_turn(g, c)
        total += g.cards[0].total()
    # a player who scores the first open box after one roll averages about 45; the CPU well over 150
    assert total / 30 > 150
