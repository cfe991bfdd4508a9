"""The coach's values on the turn screen and in the box picker (the whole Yacht table of tests/data)."""
import os

from fivedice import app as A
from fivedice.coach import KEEP
from fivedice.rng import ScriptedFaces
from host_sim.device import SimDevice

from test_snapshots import check

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "data")


def solo_yacht(faces):
    dev = SimDevice(dice=ScriptedFaces(faces), cpu_step_ms=20, tables=DATA)
    app = dev.app
    app.settings.rules_i = 5
    app.settings.players = 1
    app.settings.seats[0] = 0
    app.session.new_game()
    dev.settle()
    return dev


def test_the_hint_shows_the_best_three_choices_with_their_expected_totals():
    dev = solo_yacht([5, 5, 2, 3, 6] + [1] * 20)
    app = dev.app
    dev.tap(A.B_ROLL)
    dev.settle()
    dev.tap(A.B_UP)
    c = app.seats.coach
    top = app.session.top3
    assert top[12] == 3 and top[6] >= top[7] >= top[8]
    assert app.session.hint_kind == KEEP and top[0] == KEEP and top[6] == c.best
    check("turn_hint_three", dev)
    dev.close()


def test_the_box_picker_shows_the_expected_final_total_of_each_box():
    dev = solo_yacht([5, 5, 2, 3, 6] + [1] * 20)
    app = dev.app
    dev.tap(A.B_ROLL)
    dev.settle()
    dev.tap(A.B_OK)
    p = app.screen
    assert p.valued and p.n == 12
    c = app.seats.coach
    for i in range(p.n):
        b = p.boxes[i]
        assert p.expect[b] == c.to_points_x100(c.score_value(app.session.game.cards[0], app.session.game.dice, b))
    check("picker_values", dev)
    dev.close()


def test_the_turn_screen_shows_par_from_the_start_of_the_turn():
    from fivedice import rules
    from fivedice.strategy_table import StrategyTable

    dev = solo_yacht([5, 5, 2, 3, 6] + [1] * 20)
    app = dev.app
    t = StrategyTable(open(os.path.join(DATA, "yacht.fdt"), "rb"), rules.get("yacht"))
    want = (t.value(0, 0, 0) * 100 + t.scale // 2) // t.scale
    dev.run(500)  # the turn is solved a slice a loop pass
    assert app.session.par_x100 == want  # 166.96 at the start of a Yacht game
    assert abs(app.session.par_x100 - 16696) <= 1
    check("turn_par", dev)
    dev.tap(A.B_ROLL)
    dev.settle()
    assert app.session.par_x100 == want  # the same turn: the same par
    dev.tap(A.B_OK)
    dev.tap(A.B_OK)  # score the picker's first box
    dev.run(500)  # the next turn solved
    card = app.session.game.cards[0]
    assert app.session.par_x100 == (card.upper() + card.lower()) * 100 + app.seats.coach.to_points_x100(
        app.seats.coach.start_value(card) * 7776)
    assert app.session.par_x100 != want
    check("turn_par_after_score", dev)
    dev.close()


def test_proficiency_remembers_the_costliest_decision_and_the_best_choice_then():
    from fivedice import rules, scoring
    from fivedice.coach import Coach
    from fivedice.game import Game
    from fivedice.proficiency import Proficiency
    from fivedice.rng import Dice, SeededBytes
    from fivedice.strategy_table import StrategyTable

    rs = rules.get("yacht")
    c = Coach(rs, StrategyTable(open(os.path.join(DATA, "yacht.fdt"), "rb"), rs))
    g = Game(rs, 1, Dice(SeededBytes(11)))
    pr = Proficiency(c)
    worst = (0, None)
    while not g.over:
        g.roll()
        g.hold(0)  # keep the first die, whatever it shows, and roll once more
        c.hint(g.cards[0], g.dice, g.rolls, 0)
        best = (c.kind, c.value)
        pr.before_roll(g)
        if pr.last > worst[0]:
            worst = (pr.last, (g.turn + 1, 1, 1, best, bytes(g.dice)))
        g.roll()
        scoring.load(g.dice)
        lg = g.legal()
        box = (lg & -lg).bit_length() - 1  # the first legal box
        c.hint(g.cards[0], g.dice, g.rolls, 0)
        best = (c.kind, c.value)
        pr.before_score(g, box)
        if pr.last > worst[0]:
            worst = (pr.last, (g.turn + 1, 2, box, best, bytes(g.dice)))
        g.score(box)
    assert worst[0] == pr.worst > 0
    w = pr.w
    assert (w[5], w[6], w[7], (w[8], w[9]), bytes(w[:5])) == worst[1]
    assert pr.worst_x100() == c.to_points_x100(worst[0] * 7776)


def test_a_solo_game_over_names_the_costliest_decision():
    """A solo human who scores the first box offered after one roll, on the Yacht table."""
    from fivedice.rng import Dice, SeededBytes

    dev = SimDevice(dice=Dice(SeededBytes(8)), cpu_step_ms=20, tables=DATA)
    app = dev.app
    app.settings.rules_i = 5
    app.settings.players = 1
    app.settings.seats[0] = 0
    app.session.new_game()
    while not app.session.game.over:
        dev.tap(A.B_ROLL)
        dev.settle()
        dev.tap(A.B_OK)
        app.screen.cursor = 0
        dev.tap(A.B_OK)
        dev.settle()
    pr = app.seats.prof[0]
    assert app.mode == A.M_OVER and pr.w[5] and pr.worst_x100() > 0
    check("game_over_costliest", dev)
    dev.close()
