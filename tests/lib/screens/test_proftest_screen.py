"""The proficiency test on the device: from the menu, 25 positions, the answer after each, the score into
the records (best three per rule set), and a game in progress left as it was."""
import os

from fivedice import app as A
from fivedice import records as R
from fivedice.rng import Dice, SeededBytes
from fivedice.screens import menu as M
from fivedice import messages as msg
from host_sim.device import SimDevice
from host_sim.sim import FileStore

from test_snapshots import check

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "data")  # holds a whole yacht.fdt


def device(tmp_path, tables=DATA):
    dev = SimDevice(dice=Dice(SeededBytes(3)), store=FileStore(str(tmp_path / "fivedice.sav")), cpu_step_ms=20,
                    tables=tables)
    dev.app.settings.rules_i = 5  # Yacht
    dev.app.menu.build(dev.app)
    return dev


def open_test(dev):
    app = dev.app
    app.enter(A.M_MENU)
    while app.menu.items[app.menu.cursor] != M.I_PROF:
        dev.tap(A.B_DOWN)
    dev.tap(A.B_OK)
    dev.settle()
    assert app.mode == A.M_PROF


def answer_all(dev, first_box=False):
    """Answer every position: reroll everything while a roll is left, else the first box offered."""
    app = dev.app
    s = app.screen
    for i in range(25):
        assert s.t.i == i and s.phase == 0
        if s.t.rolls < 3 and not first_box:
            dev.tap(A.B_ROLL)
        else:
            dev.tap(A.B_OK)
            dev.tap(A.B_OK)
        assert s.phase == 3  # the answer
        dev.tap(A.B_OK)
    assert s.phase == 4


def test_the_menu_offers_the_test_only_with_the_rule_sets_table(tmp_path):
    dev = device(tmp_path)
    app = dev.app
    assert M.I_PROF in app.menu.items[:app.menu.n]
    app.settings.rules_i = 0  # no Yahtzee table in tests/data
    app.menu.build(app)
    assert M.I_PROF not in app.menu.items[:app.menu.n]
    dev.close()


def test_a_position_its_card_its_boxes_and_the_answer(tmp_path):
    dev = device(tmp_path)
    open_test(dev)
    s = dev.app.screen
    check("proftest_position", dev)
    dev.tap(A.B_DOWN)
    check("proftest_card", dev)
    dev.tap(A.B_OK)
    dev.tap(A.B_HOLD1)
    dev.tap(A.B_HOLD2)
    dev.tap(A.B_ROLL)
    assert s.phase == 3 and s.t.mine_value == 3 and s.t.best >= s.t.mine
    check("proftest_answer", dev)
    dev.close()


def test_a_whole_test_scores_the_points_given_away_and_keeps_the_best_three(tmp_path):
    dev = device(tmp_path)
    losses = []
    for k in range(4):
        open_test(dev)
        answer_all(dev, first_box=k % 2 == 1)
        losses.append(dev.app.screen.t.loss_x100())
        if k == 3:
            check("proftest_done", dev)
        dev.tap(A.B_OK)
        assert dev.app.mode == A.M_MENU
    assert all(x > 0 for x in losses)
    recs = R.decode(dev.app.store.read_records())
    assert recs.tests(5) == 4 and recs.test_entries(5) == 3
    assert [recs.test_loss_x100(5, i) for i in range(3)] == sorted(losses)[:3]
    assert recs.games(5) == 0  # a test is not a game
    app = dev.app
    while app.menu.items[app.menu.cursor] != M.I_RECORDS:
        dev.tap(A.B_DOWN)
    dev.tap(A.B_OK)
    dev.tap(A.B_OK)
    dev.tap(A.B_OK)  # top 5 -> stats -> tests
    assert app.mode == A.M_RECORDS and app.screen.tests
    check("records_tests", dev)
    dev.tap(A.B_OK)
    assert not app.screen.tests and not app.screen.stats  # back to the top 5
    dev.close()


def test_a_game_in_progress_comes_back_with_its_coach(tmp_path):
    dev = device(tmp_path)
    app = dev.app
    app.settings.players = 1
    app.settings.seats[0] = 0
    app.session.new_game()
    dev.settle()
    dev.tap(A.B_ROLL)
    dev.settle()
    saved = app.store.read()
    dice = bytes(app.session.game.dice)
    open_test(dev)
    dev.tap(A.B_ROLL)
    dev.tap(A.B_BACK)  # the test left unfinished: nothing recorded
    assert app.mode == A.M_MENU and app.store.read() == saved
    app.enter(A.M_TURN)
    dev.settle()
    assert app.mode == A.M_TURN and bytes(app.session.game.dice) == dice and app.seats.coach is not None
    assert app.session.hint() == 0 and app.session.hint_kind
    assert app.seats.prof[0] is not None and app.seats.prof[0].coach is app.seats.coach
    dev.close()


def test_a_table_that_fails_during_the_test_is_said_and_the_test_ends(tmp_path):
    import shutil

    from fivedice import oled_view as view

    tables = tmp_path / "tables"
    tables.mkdir()
    shutil.copy(os.path.join(DATA, "yacht.fdt"), tables / "yacht.fdt")
    raw = bytearray((tables / "yacht.fdt").read_bytes())
    for i in range(len(raw) // 4, len(raw) * 9 // 10):
        raw[i] ^= 0x55  # the rows' blocks fail their CRC when first read
    (tables / "yacht.fdt").write_bytes(bytes(raw))
    dev = device(tmp_path, str(tables))
    app = dev.app
    open_test(dev)  # the header and records are sound: the test opens
    dev.tap(A.B_ROLL)  # the first answer reads the rows
    assert app.mode == A.M_MENU and app.toast == msg.T_TABLE_BAD and "table" in app.seats.table_error
    assert M.I_PROF not in app.menu.items[:app.menu.n]
    assert dev.app.store.read_records() is None  # nothing recorded
    dev.close()


def test_a_test_of_another_rule_set_mid_game_gives_the_game_its_own_table_back(tmp_path):
    """A Yahtzee game in progress, the test taken on Yacht: back in the game, the coach is on the Yahtzee table
    again and hints as a fresh coach on that table does."""
    from fivedice import rules
    from fivedice.coach import Coach
    from fivedice.strategy_table import StrategyTable

    tables = os.path.join(os.path.dirname(DATA), "..", "tables")
    if not os.path.isfile(os.path.join(tables, "yahtzee.fdt")):
        import pytest

        pytest.fail("tables/yahtzee.fdt is missing: `make test` builds it (make tables/yahtzee.fdt)")
    dev = device(tmp_path, tables)
    app = dev.app
    app.settings.rules_i = 0  # Yahtzee
    app.settings.players = 1
    app.settings.seats[0] = 0
    app.session.new_game()
    dev.settle()
    par = app.session.par_x100
    assert abs(par - 25459) <= 1  # 254.59 at the start of a Yahtzee game (forced Joker)
    dev.tap(A.B_ROLL)
    dev.settle()
    app.settings.rules_i = 5  # the menu's rule set: Yacht, the test's
    open_test(dev)
    assert app.screen.t.rs.id == "yacht" and app.seats.coach.rs.id == "yacht"
    dev.tap(A.B_ROLL)
    assert app.screen.phase == 3
    dev.tap(A.B_BACK)
    assert app.mode == A.M_MENU and app.session.thinking  # the game's turn to be solved again
    app.enter(A.M_TURN)
    dev.settle()
    g = app.session.game
    assert app.seats.coach.rs is g.rs and app.seats.coach.valuer is app.seats.table and app.seats.table.rs is g.rs
    assert app.session.par_x100 == par
    assert app.session.hint() == 0
    rs = rules.get("yahtzee")
    fresh = Coach(rs, StrategyTable(open(os.path.join(tables, "yahtzee.fdt"), "rb"), rs))
    fresh.hint(g.cards[0], g.dice, g.rolls, g.held)
    assert (app.session.hint_kind, app.session.hint_value, app.seats.coach.best) == (fresh.kind, fresh.value, fresh.best)
    dev.close()
