"""Faults the app must survive: a damaged strategy table mid-game, impossible or damaged saves,
and deadlines after a resume on a clock near its wrap. Each test is named after the ruling it pins."""
import os
import random

import pytest

from fivedice import app as A
from fivedice import game as G
from fivedice import oled_view as view
from fivedice import rules
from fivedice.rng import Dice, SeededBytes
from fivedice.ticks import TICKS_PERIOD
from fivedice import savefile
from fivedice.savefile import decode as save_decode
from fivedice import messages as msg
from host_sim.device import SimDevice
from host_sim.hw import SimBoard

DATA = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
YACHT = rules.get("yacht")
HEAD = 48  # FDT3 header bytes


class MemStore:
    """The store protocol on a bytes slot; set_aside keeps the record in .bad, as the board's stores do."""

    def __init__(self, data=None):
        self.data = data
        self.bad = None
        self.writes = 0

    def read(self):
        return self.data

    def write(self, data):
        self.data = bytes(data)
        self.writes += 1

    def set_aside(self):
        self.bad = self.data
        self.data = None


# -- 1. a damaged strategy table --------------------------------------------------------------------
def _table_dir(tmp_path, damage):
    data = bytearray(open(os.path.join(DATA, "yacht.fdt"), "rb").read())
    damage(data)
    (tmp_path / "yacht.fdt").write_bytes(bytes(data))
    return str(tmp_path)


def _play_to_the_end(dev, seen):
    """A human seat scores the picker's first choice each turn; CPU seats play themselves."""
    app = dev.app
    for _ in range(400):
        if app.session.game.over:
            return
        if app.toast == msg.T_TABLE_BAD:
            seen.add("toast")
        if "toast" in seen and app.seats.players[1] is not None:  # the level seat 2 plays at once the table is gone
            seen.add(("level after toast", app.seats.players[1].level))
        if app.session.cpu_turn():
            dev.settle()
            continue
        if app.mode != A.M_TURN:
            dev.tap(A.B_BACK)
            continue
        dev.tap(A.B_UP)  # ask for a hint: a table read
        if app.toast == msg.T_TABLE_BAD:
            seen.add("toast")
        if app.mode == A.M_CARD:
            dev.tap(A.B_BACK)
        dev.tap(A.B_ROLL)
        dev.settle()
        if app.toast == msg.T_TABLE_BAD:
            seen.add("toast")
        dev.tap(A.B_OK)
        dev.tap(A.B_OK)
        dev.settle()
    raise AssertionError("the game did not end")


def _game_with_table(tmp_path, damage, seed):
    store = MemStore()
    dev = SimDevice(dice=Dice(SeededBytes(seed)), cpu_step_ms=20, tables=_table_dir(tmp_path, damage), store=store)
    app = dev.app
    app.settings.rules_i = YACHT.index
    app.settings.players = 2
    app.settings.seats[0] = 0
    app.settings.seats[1] = 3  # perfect
    app.session.new_game()
    dev.settle()
    return dev, store


def _truncate(d):
    del d[len(d) * 2 // 3:]


def _last_value_block(d):
    for i in range(len(d) - 700, len(d) - 600):
        d[i] ^= 0x5A


def _check_save_intact(dev, store):
    assert store.data == dev.app.session.save_bytes()  # the last save is the game as it stands
    again = A.App(SimBoard().display, store=MemStore(store.data))  # and it loads (no table here)
    assert not again.session.save_bad and savefile.encode_game(again.session.game) == savefile.encode_game(dev.app.session.game)


def test_a_truncated_table_is_refused_at_open_and_the_game_plays_to_the_end(tmp_path):
    dev, store = _game_with_table(tmp_path, _truncate, 1)
    app = dev.app
    assert app.toast == msg.T_TABLE_BAD and app.seats.coach is None and app.seats.players[1].level == 2
    _play_to_the_end(dev, set())
    assert app.session.game.over
    _check_save_intact(dev, store)
    dev.close()


def test_a_block_damaged_after_the_header_gives_a_toast_drops_the_coach_and_the_game_plays_to_the_end(tmp_path):
    dev, store = _game_with_table(tmp_path, _last_value_block, 2)
    app = dev.app
    assert app.seats.coach is not None  # the header is intact: the table opens
    seen = set()
    _play_to_the_end(dev, seen)
    assert "toast" in seen and app.seats.table_error
    assert app.seats.coach is None and all(p is None for p in app.seats.prof)
    assert ("level after toast", 2) in seen and ("level after toast", 3) not in seen  # perfect finished as "good"
    assert app.session.game.over and not app.session.save_bad
    _check_save_intact(dev, store)
    dev.close()


@pytest.mark.parametrize("byte", [4, 9, 13, 22, 30, 37, 40, 45])
def test_a_changed_header_byte_is_refused_at_open_and_the_game_plays_to_the_end(tmp_path, byte):
    def damage(d):
        d[byte] ^= 0x01

    dev, store = _game_with_table(tmp_path, damage, 3)
    app = dev.app
    assert app.seats.coach is None and app.seats.tables_mask == 0 and app.toast == msg.T_TABLE_BAD
    _play_to_the_end(dev, set())
    _check_save_intact(dev, store)
    dev.close()


def test_random_byte_changes_after_the_header_never_stop_a_game(tmp_path):
    rnd = random.Random(88)
    toasts = 0
    for trial in range(12):
        def damage(d):
            for _ in range(rnd.randint(1, 20)):
                d[rnd.randrange(HEAD, len(d))] ^= rnd.randrange(1, 256)

        sub = tmp_path / str(trial)
        sub.mkdir()
        dev, store = _game_with_table(sub, damage, trial)
        seen = set()
        _play_to_the_end(dev, seen)
        toasts += "toast" in seen
        assert dev.app.session.game.over
        _check_save_intact(dev, store)
        dev.close()
    assert toasts >= 6  # most damage is met during a game; none of it stops one


# -- 3. saves validated like input ------------------------------------------------------------------
def _record(rid="yahtzee", players=2, turns=6, kinds=(0, 1, 0, 0), seed=5):
    """A valid save record from a real game."""
    g = G.Game(rules.get(rid), players, Dice(SeededBytes(seed)))
    for _ in range(turns):
        g.roll()
        m = g.legal()
        b = 0
        while not (m >> b) & 1:
            b += 1
        g.score(b)
    g.roll()
    a = A.App(SimBoard().display)
    a.session.game = g
    a.settings.rules_i = g.rs.index
    a.settings.players = players
    for i, k in enumerate(kinds):
        a.settings.seats[i] = k
        a.seats.seated[i] = k  # the game was seated as the menu says
    return bytearray(a.session.save_bytes())


def _reseal(rec):
    """Fix both CRCs after an edit, as a corruption that happens to carry valid checksums would."""
    n = len(rec) - save_decode.CRC_BYTES
    inner = rec[7 : n - save_decode.CRC_BYTES]  # the game's bytes; its own CRC follows them, then the record's
    g = bytearray(inner) + bytearray(4)
    savefile.put_crc(g, len(inner))
    rec[7:n] = g
    savefile.put_crc(rec, n)
    return bytes(rec)


def _loads(data):
    store = MemStore(data)
    app = A.App(SimBoard().display, store=store, dice=Dice(SeededBytes(1)))
    return app, store


def _refused_and_kept(data, words=""):
    app, store = _loads(data)
    assert app.session.save_bad and app.session.game is None and app.toast == msg.T_SAVE_BAD, app.session.save_error
    assert store.bad == data and store.writes == 0  # kept aside as it was, nothing written
    assert words in app.session.save_error
    return app.session.save_error


def _card_at(rec, p, rs):
    return 7 + 13 + p * (3 + rs.n)


def test_both_cards_full_but_the_game_not_over_is_refused_and_kept():
    rs = rules.YAHTZEE
    rec = _record()
    for p in range(2):
        o = _card_at(rec, p, rs)
        rec[o] = rs.all_mask & 0xFF
        rec[o + 1] = rs.all_mask >> 8
        for i in range(rs.n):
            rec[o + 3 + i] = 0
    rec[7 + 7] = rs.n  # turn
    rec[7 + 5] = 0  # no roll, no dice
    for i in range(5):
        rec[7 + 8 + i] = 0
    _refused_and_kept(_reseal(rec), "not marked over")


def test_a_cpu_seat_with_a_full_card_is_refused_and_kept():
    rs = rules.YAHTZEE
    rec = _record(kinds=(0, 2, 0, 0))
    o = _card_at(rec, 1, rs)  # seat 2 (CPU) full, the game going on
    rec[o] = rs.all_mask & 0xFF
    rec[o + 1] = rs.all_mask >> 8
    _refused_and_kept(_reseal(rec), "player 2")


def test_turn_201_of_13_is_refused_and_kept():
    rec = _record()
    rec[7 + 7] = 200
    _refused_and_kept(_reseal(rec), "turn 201")


def test_255_extra_bonuses_are_refused_and_kept():
    rs = rules.YAHTZEE
    rec = _record()
    o = _card_at(rec, 0, rs)
    fb = rs.five_box
    rec[o + (fb // 8)] |= 1 << (fb % 8)
    rec[o + 3 + fb] = 50
    rec[o + 2] = 255
    _refused_and_kept(_reseal(rec), "extra bonuses")


def test_a_yum_low_not_below_its_high_is_refused_and_kept():
    rs = rules.YUM
    rec = _record("yum", players=1, turns=0)
    o = _card_at(rec, 0, rs)
    for b, v in ((rs.high_box, 25), (rs.low_box, 25)):
        rec[o + (b // 8)] |= 1 << (b % 8)
        rec[o + 3 + b] = v
    rec[7 + 7] = 2  # two turns taken
    _refused_and_kept(_reseal(rec), "low 25 is not lower than high 25")


def test_an_empty_save_is_refused_and_kept():
    _refused_and_kept(b"", "empty")


def test_a_save_cut_to_the_settings_is_refused_and_kept():
    _refused_and_kept(bytes(_record()[:7]), "not a fivedice save")


def test_a_format_1_save_is_refused_and_kept():
    rec = _record()
    rec[0] = 0xA7
    _refused_and_kept(bytes(rec), "older fivedice")


def test_every_single_bit_flip_of_the_settings_header_is_refused():
    rec = bytes(_record())
    for i in range(7):
        for bit in range(8):
            bad = bytearray(rec)
            bad[i] ^= 1 << bit
            app, store = _loads(bytes(bad))
            assert app.session.save_bad and app.session.game is None and store.bad == bytes(bad), (i, bit)


def test_a_settings_only_save_restores_the_settings():
    a = A.App(SimBoard().display)
    a.settings.rules_i = 3
    a.settings.players = 3
    a.settings.seats[2] = 2
    app, store = _loads(a.session.save_bytes())
    assert not app.session.save_bad and app.session.game is None
    assert (app.settings.rules_i, app.settings.players, app.settings.seats[2]) == (3, 3, 2)


# -- 6. timers restored ----------------------------------------------------------------------------
T_WRAP = TICKS_PERIOD - 65000  # CircuitPython's supervisor.ticks_ms() at power-on


@pytest.mark.parametrize("start", [T_WRAP, TICKS_PERIOD - 300, 12345])
def test_a_resumed_cpu_turn_moves_one_step_after_resume_whatever_the_clock(start):
    rec = _record(kinds=(1, 1, 0, 0))  # two CPU seats: seat 1 is to move
    board = SimBoard(start_ms=start)
    app = A.App(board.display, store=MemStore(bytes(rec)), dice=Dice(SeededBytes(2)), cpu_step_ms=650)
    assert app.session.game is not None and app.mode == A.M_MENU
    now = start
    app.tick(now)
    app.press(A.B_OK, now)  # "Resume game"
    assert app.mode == A.M_TURN
    rolls = app.session.game.rolls
    turn = (app.session.game.turn, app.session.game.player)
    waited = 0
    while app.session.game.rolls == rolls and (app.session.game.turn, app.session.game.player) == turn and not app.session.tumbling:
        waited += 5
        now = (now + 5) % TICKS_PERIOD
        app.tick(now)
        assert waited <= 2000, "the resumed CPU turn is still waiting"
    assert 650 <= waited <= 660
    board.close()


def test_a_toast_shown_at_start_up_lasts_its_time_after_the_first_tick():
    board = SimBoard(start_ms=T_WRAP)
    app = A.App(board.display, store=MemStore(b"garbage, not a save"))
    assert app.toast == msg.T_SAVE_BAD
    now = T_WRAP
    app.tick(now)
    shown = 0
    while app.toast:
        now += 5
        shown += 5
        app.tick(now)
        assert shown <= 5000
    assert shown == A.TOAST_MS
    board.close()
