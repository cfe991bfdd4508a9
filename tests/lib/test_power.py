"""Power management in the app (fivedice.power), on the simulated device: the screen dims after the Dim
timer, switches off with the pixels after the Sleep timer (the game saved first), a press only wakes it and
the game is exactly where it was; the timers are menu settings kept in the save; the battery gauge warns once;
wait_ms gives the loop the next deadline; the scripted mode waits across dim and sleep.
"""
import json
import subprocess
import sys

import pytest

from fivedice import app as A
from fivedice import power as P
from fivedice import session
from fivedice.rng import ScriptedFaces
from fivedice import savefile
from fivedice.savefile import decode as save_decode
from host_sim.device import SimDevice
from host_sim.play import Player


class MemStore:
    def __init__(self, data=None):
        self.data = data
        self.writes = 0

    def read(self):
        return self.data

    def write(self, data):
        self.data = bytes(data)
        self.writes += 1


def _dev(store=None, battery=None, faces=None):
    d = SimDevice(dice=ScriptedFaces(faces or [3, 3, 3, 5, 5] * 40), store=store, cpu_step_ms=60)
    if battery is not None:
        d.app.pw.battery = battery
    return d


@pytest.fixture
def dev():
    d = _dev(store=MemStore())
    yield d
    d.close()


def _rolled_and_held(dev):
    pl = Player(dev)
    pl.setup(0, 1)
    pl.do("roll")
    dev.tap(A.B_HOLD2)  # a hold: saved "soon", not at once
    return pl


def test_the_screen_dims_after_30_s_and_switches_off_with_the_pixels_after_3_min(dev):
    _rolled_and_held(dev)
    assert dev.power_state == "on" and any(any(c) for c in dev.board.pixels.colors())
    dev.run(29000, skip=True)
    assert dev.power_state == "on"
    dev.run(2000, skip=True)
    assert dev.power_state == "dim" and dev.board.display.contrast_level == P.DIM_CONTRAST
    dev.run(180000 - 31000 - 1000, skip=True)
    assert dev.power_state == "dim"
    dev.run(2000, skip=True)
    assert dev.power_state == "asleep" and not dev.board.display.powered
    assert all(c == (0, 0, 0) for c in dev.board.pixels.colors())  # every pixel dark
    assert not any(dev.board.display.raw())  # the panel shows nothing


def test_the_game_is_saved_before_the_screen_goes_off_and_is_exactly_where_it_was_after_the_waking_press(dev):
    _rolled_and_held(dev)
    app = dev.app
    assert app.session.save_due  # the hold waits to be saved
    dev.run(200000, skip=True)
    assert dev.power_state == "asleep" and not app.session.save_due
    saved = dev.app.store.data
    assert saved == app.session.save_bytes()  # what is on the store is the game as it stands
    g = app.session.game
    before = (bytes(g.dice), g.held, g.rolls, app.mode, app.screen.top)
    writes = app.store.writes
    assert dev.tap(A.B_ROLL) == 0  # the waking press: it does not roll
    assert dev.power_state == "on" and dev.board.display.contrast_level == 255
    assert (bytes(g.dice), g.held, g.rolls, app.mode, app.screen.top) == before
    assert app.store.writes == writes and app.session.save_bytes() == saved
    assert any(any(c) for c in dev.board.pixels.colors())  # the dice are back on the pixels
    dev.tap(A.B_ROLL)  # the next press acts
    dev.settle()
    assert g.rolls == 2


def test_a_press_on_a_dimmed_screen_brightens_it_and_acts(dev):
    _rolled_and_held(dev)
    dev.run(40000, skip=True)
    assert dev.power_state == "dim"
    dev.tap(A.B_ROLL)
    dev.settle()
    assert dev.power_state == "on" and dev.app.session.game.rolls == 2


def test_a_shake_does_not_wake_a_sleeping_board(dev):
    _rolled_and_held(dev)
    dev.run(200000, skip=True)
    dev.board.tilt.shake(700)
    dev.run(1000)
    assert dev.power_state == "asleep" and dev.app.session.game.rolls == 1


def test_a_cpu_turn_holds_the_timers_off_until_it_is_over():
    d = _dev()
    try:
        Player(d).setup(0, 2, cpu_seats=(1, 2))  # CPU against CPU: no input at all
        d.app.session.cpu_step_ms = 20000  # a slow CPU: each step is 20 s of "activity"
        d.run(100000, skip=True)
        assert d.power_state == "on"
    finally:
        d.close()


@pytest.mark.parametrize("dim_i,sleep_i,state", [(2, 0, "asleep"), (0, 2, "dim"), (2, 2, "on"), (1, 1, "dim")])
def test_the_timer_choices(dev, dim_i, sleep_i, state):
    _rolled_and_held(dev)
    dev.app.settings.set("dim_i", dim_i)
    dev.app.settings.set("sleep_i", sleep_i)
    dev.run(190000, skip=True)  # 3 min 10 s: past 3 min, short of 10 min
    assert dev.power_state == state


def _menu_line(app, item):
    return bytes(app.menu.items[: app.menu.n]).index(bytes((item,)))


def test_dim_and_sleep_are_menu_lines_stepped_both_ways_and_saved(dev):
    from fivedice.screens import menu as M

    app = dev.app
    for item, attr, labels in ((M.I_DIM, "dim_i", P.DIM_LABELS), (M.I_SLEEP, "sleep_i", P.SLEEP_LABELS)):
        at = _menu_line(app, item)
        while app.screen.cursor != at:
            dev.tap(A.B_DOWN)
        seen = []
        for _ in range(3):
            dev.tap(A.B_OK)
            seen.append(getattr(app.pw, attr))
        assert seen == [1, 2, 0]
        dev.tap(A.B_HOLD1)  # back a step
        assert getattr(app.pw, attr) == 2
        assert labels[2] == b"off"
    dev.run(1500)  # saved once presses pause
    rec = app.store.data
    assert rec is not None and (rec[2] >> 3) & 3 == 2 and (rec[2] >> 5) & 3 == 2
    d2 = SimDevice(store=MemStore(rec))
    try:
        assert d2.app.pw.dim_i == 2 and d2.app.pw.sleep_i == 2
    finally:
        d2.close()


def test_a_save_from_before_the_power_settings_loads_with_the_defaults():
    d = SimDevice(store=MemStore())
    try:
        d.app.settings.set("dim_i", 1)
        d.app.settings.set("sleep_i", 2)
        rec = bytearray(d.app.session.save_bytes())
        rec[2] &= 0x87  # what the firmware before this change wrote: players and mute only
        savefile.put_crc(rec, len(rec) - save_decode.CRC_BYTES)
        d2 = SimDevice(store=MemStore(bytes(rec)))
        assert not d2.app.session.save_bad and d2.app.pw.dim_i == 0 and d2.app.pw.sleep_i == 0
        d2.close()
    finally:
        d.close()


@pytest.mark.parametrize("bits", [3 << 3, 3 << 5])
def test_a_save_with_an_impossible_timer_choice_is_refused_with_one_message_and_kept(bits):
    d = SimDevice(store=MemStore())
    rec = bytearray(d.app.session.save_bytes())
    d.close()
    rec[2] |= bits
    savefile.put_crc(rec, len(rec) - save_decode.CRC_BYTES)
    store = MemStore(bytes(rec))
    d2 = SimDevice(store=store)
    try:
        assert d2.app.session.save_bad and d2.app.session.save_error == "the save has impossible settings"
        assert store.data == bytes(rec) and store.writes == 0
    finally:
        d2.close()


def test_battery_bars_and_one_low_warning():
    mv = [4600]
    d = _dev(battery=lambda: mv[0])
    said = []
    app = d.app
    real = app.message

    def message(code):
        said.append(code)
        real(code)

    app.message = message
    try:
        d.run(100)
        assert app.pw.level == 4 and said == []
        mv[0] = 3900
        d.run(10100, skip=True)
        assert app.pw.level == 2
        mv[0] = 3400
        d.run(10100, skip=True)
        assert app.pw.level == 1 and said == [A._msg.T_BATTERY_LOW]
        d.run(60000, skip=True)
        assert said == [A._msg.T_BATTERY_LOW]  # said once
        mv[0] = 3800  # recovered (fresh batteries)...
        d.run(10100, skip=True)
        mv[0] = 3400  # ...and low again: said again
        d.run(10100, skip=True)
        assert said == [A._msg.T_BATTERY_LOW] * 2
    finally:
        d.close()


def test_the_battery_glyph_is_drawn_in_the_menu_title_bar_only_with_a_battery():
    from host_sim.hw import frame_rows

    plain = SimDevice()
    d = _dev(battery=lambda: 4600)
    try:
        plain.run(100)
        d.run(100)
        a = frame_rows(plain.board.display.raw())
        b = frame_rows(d.board.display.raw())
        diff = [(y, x) for y in range(64) for x in range(128) if a[y][x] != b[y][x]]
        assert diff and all(1 <= y <= 6 and 114 <= x <= 125 for y, x in diff)
    finally:
        plain.close()
        d.close()


def test_wait_ms_is_the_next_deadline(dev):
    app = dev.app
    pl = Player(dev)
    pl.setup(0, 1)
    pl.do("roll")
    dev.settle()
    now = dev.now()
    assert app.wait_ms(now, 100000) == P.DIM_MS[0] - (now - app.pw.input_at)
    assert app.wait_ms(now) == 1000  # capped by `most`
    app.press(A.B_ROLL, now)
    assert app.wait_ms(now) == 0  # a frame is due
    app.tick(now)
    app.draw()
    assert 0 < app.wait_ms(now) <= session._FRAME_MS  # tumbling: the next animation frame


def _play(tmp_path, lines):
    script = tmp_path / "s.txt"
    script.write_text("\n".join(lines) + "\n")
    r = subprocess.run([sys.executable, "-m", "host_sim", "play", "--faces", "3,3,3,5,5,1,1,1,1,1,2,2,2,2,2",
                        "--script", str(script)], capture_output=True, text=True, timeout=120)
    return r.returncode, json.loads(r.stdout.strip().splitlines()[-1])


def test_scripted_play_waits_across_dim_and_sleep_and_the_next_action_wakes_it_first(tmp_path):
    rc, out = _play(tmp_path, ["roll", "wait 40000"])
    assert rc == 0 and out["power"] == "dim"
    rc, out = _play(tmp_path, ["roll", "wait 200000"])
    assert rc == 0 and out["power"] == "asleep"
    rc, out = _play(tmp_path, ["roll", "wait 200000", "roll", "score chance"])
    assert rc == 0 and out["power"] == "on"
    assert out["players"][0]["card"] == {"chance": 5}  # the second roll happened: 1,1,1,1,1


@pytest.mark.parametrize("days", [1, 4, 10])
def test_a_cpu_turn_left_in_the_menu_of_a_board_that_never_sleeps_moves_days_later(days):
    """Dim and sleep off: the board stays awake; the CPU's deadline, set days ago, is never read backwards."""
    d = _dev()
    app = d.app
    app.settings.set("dim_i", 2)
    app.settings.set("sleep_i", 2)
    app.settings.players = 2
    app.settings.seats[0] = 1  # an easy CPU moves first
    app.settings.seats[1] = 0
    t = d.now()
    app.session.new_game()
    app.press(A.B_BACK, t)  # to the menu before the CPU moves
    assert app.mode == A.M_MENU and app.session.cpu_turn()
    for _ in range(int(days * 24 * 60)):  # a pass a minute, days long
        t = (t + 60000) & 0x1FFFFFFF
        if app.tick(t):
            app.draw()
    app.press(A.B_OK, t)  # Resume
    assert app.mode == A.M_TURN
    for _ in range(200):  # 2 s
        t = (t + 10) & 0x1FFFFFFF
        if app.tick(t):
            app.draw()
    assert app.session.game.rolls > 0 or app.session.game.player == 1
    d.close()
