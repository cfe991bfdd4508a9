"""High scores and stats on the device: a score that makes the top 5 asks for initials,
every human's game counts in the rule set's stats, the Records screen shows both, and a solo game shows
the best score to beat."""
import os
import sys

import pytest

from fivedice import app as A
from fivedice import oled_view as view
from fivedice import records as R
from fivedice.rng import Dice, SeededBytes
from fivedice.screens import menu as M
from fivedice import messages as msg
from host_sim.device import SimDevice
from host_sim.sim import FileStore

from test_snapshots import check


def device(tmp_path, seed=5):
    return SimDevice(dice=Dice(SeededBytes(seed)), store=FileStore(str(tmp_path / "fivedice.sav")), cpu_step_ms=20)


def start(dev, players=1, cpus=(), rules=0):
    app = dev.app
    app.settings.rules_i = rules
    app.settings.players = players
    for p in range(4):
        app.settings.seats[p] = 2 if p in cpus else 0  # CPU good
    app.session.new_game()
    dev.settle()


def play_to_the_end(dev):
    """Every human turn: one roll, then the box the picker offers first (the best points); CPUs on ticks."""
    app = dev.app
    for _ in range(200):
        g = app.session.game
        if g.over:
            break
        if app.settings.seats[g.player]:
            dev.run(200)
            continue
        dev.tap(A.B_ROLL)
        dev.settle()
        dev.tap(A.B_OK)
        dev.tap(A.B_OK)
        dev.settle()
    assert app.session.game.over


def type_initials(dev, word):
    for ch in word:
        steps = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ".index(bytes((ch,)))
        for _ in range(steps):
            dev.tap(A.B_UP)
        dev.tap(A.B_OK)


def stored(tmp_path):
    with open(str(tmp_path / "fivedice.rec"), "rb") as f:
        return R.decode(f.read())


def test_a_first_solo_score_asks_for_initials_then_shows_game_over(tmp_path):
    dev = device(tmp_path)
    start(dev)
    play_to_the_end(dev)
    app = dev.app
    assert app.mode == A.M_INITIALS
    total = app.session.game.cards[0].total()
    recs = stored(tmp_path)  # already stored, initials blank: a power cut now keeps the score
    assert recs.entries(0) == 1 and recs.score(0, 0) == total and recs.initials(0, 0) == b"   "
    check("initials", dev)
    type_initials(dev, b"BOB")
    assert app.mode == A.M_OVER
    recs = stored(tmp_path)
    assert recs.initials(0, 0) == b"BOB" and recs.order(0, 0) == 1 and recs.games(0) == 1
    assert recs.best(0) == total and recs.total(0) == total
    assert "fivedice.screens.initials" not in sys.modules and "fivedice.records" not in sys.modules
    dev.close()


def test_initials_letters_step_both_ways_and_back_returns_to_the_letter_before(tmp_path):
    dev = device(tmp_path)
    start(dev)
    play_to_the_end(dev)
    dev.tap(A.B_DOWN)  # A -> space (wraps backwards)
    dev.tap(A.B_DOWN)  # -> 9
    dev.tap(A.B_OK)
    dev.tap(A.B_UP)  # B
    dev.tap(A.B_BACK)  # back to the first letter
    dev.tap(A.B_UP)  # 9 -> space
    dev.tap(A.B_OK)
    dev.tap(A.B_OK)
    dev.tap(A.B_OK)
    assert stored(tmp_path).initials(0, 0) == b" BA"
    dev.close()


def test_a_score_below_a_full_table_counts_in_the_stats_but_asks_nothing(tmp_path):
    recs = R.Records()
    for i in range(5):
        o = recs.add_game(0, 900 - i)
        recs.insert(0, 900 - i, b"TOP", o)
    with open(str(tmp_path / "fivedice.rec"), "wb") as f:
        f.write(recs.encode())
    dev = device(tmp_path)
    start(dev)
    assert dev.app.session.to_beat == 900
    play_to_the_end(dev)
    assert dev.app.mode == A.M_OVER
    after = stored(tmp_path)
    assert after.games(0) == 6 and [after.score(0, i) for i in range(5)] == [900, 899, 898, 897, 896]
    dev.close()


def test_a_solo_game_shows_the_best_score_to_beat(tmp_path):
    recs = R.Records()
    recs.insert(0, 287, b"ANN", recs.add_game(0, 287))
    with open(str(tmp_path / "fivedice.rec"), "wb") as f:
        f.write(recs.encode())
    dev = device(tmp_path)
    start(dev)
    assert dev.app.session.to_beat == 287
    check("turn_solo_to_beat", dev)
    dev.close()


def test_two_humans_who_both_make_the_table_enter_initials_in_seat_order_and_cpus_are_not_recorded(tmp_path):
    dev = device(tmp_path)
    start(dev, players=3, cpus=(2,))
    play_to_the_end(dev)
    g = dev.app.session.game
    type_initials(dev, b"AAA")  # seat 1
    assert dev.app.mode == A.M_INITIALS
    type_initials(dev, b"BBB")  # seat 2
    assert dev.app.mode == A.M_OVER
    recs = stored(tmp_path)
    assert recs.games(0) == 2  # the CPU's game is nobody's
    by_initials = {recs.initials(0, i): recs.score(0, i) for i in range(recs.entries(0))}
    assert by_initials == {b"AAA": g.cards[0].total(), b"BBB": g.cards[1].total()}
    dev.close()


def test_records_screen_shows_the_top_five_and_the_stats_per_rule_set(tmp_path):
    recs = R.Records()
    for s, ini in ((250, b"ANN"), (301, b"BOB"), (199, b"CY ")):
        recs.insert(0, s, ini, recs.add_game(0, s, fives=1, bonus=1, loss_x100=1240, decisions=40, coached=True))
    with open(str(tmp_path / "fivedice.rec"), "wb") as f:
        f.write(recs.encode())
    dev = device(tmp_path)
    app = dev.app
    while app.menu.items[app.menu.cursor] != M.I_RECORDS:
        dev.tap(A.B_DOWN)
    dev.tap(A.B_OK)
    assert app.mode == A.M_RECORDS
    check("records_top", dev)
    dev.tap(A.B_OK)
    check("records_stats", dev)
    dev.tap(A.B_DOWN)  # the next rule set: no games
    check("records_empty", dev)
    dev.tap(A.B_BACK)
    assert app.mode == A.M_MENU
    assert "fivedice.screens.records" not in sys.modules and "fivedice.records" not in sys.modules
    dev.close()


def test_unreadable_records_are_kept_aside_with_one_message_and_new_ones_start(tmp_path):
    path = str(tmp_path / "fivedice.rec")
    with open(path, "wb") as f:
        f.write(b"FR\x01\x00garbage")
    dev = device(tmp_path)
    dev.app.settings.rules_i = 0
    dev.app.settings.players = 1
    dev.app.settings.seats[0] = 0
    dev.app.session.new_game()  # a solo game reads the records for the best score to beat
    assert dev.app.toast == msg.T_RECORDS_BAD and "CRC" in dev.app.records_error or "length" in dev.app.records_error
    assert dev.app.session.to_beat == 0
    play_to_the_end(dev)
    assert dev.app.toast != msg.T_RECORDS_BAD  # said once
    type_initials(dev, b"NEW")
    assert stored(tmp_path).games(0) == 1
    assert os.path.exists(path + ".bad") or any(n.endswith(".bad") for n in os.listdir(str(tmp_path)))
    dev.close()


def test_without_a_store_a_game_ends_straight_on_the_game_over_screen():
    dev = SimDevice(dice=Dice(SeededBytes(5)), cpu_step_ms=20)
    start(dev)
    play_to_the_end(dev)
    assert dev.app.mode == A.M_OVER and dev.app.session.to_beat == 0
    dev.close()


def test_the_records_screens_character_is_the_fonts():
    # records.py keeps the font's advance as a const of its own (no global on a board)
    from fivedice import font
    from fivedice.screens import records

    assert records._CH == font.ADVANCE
