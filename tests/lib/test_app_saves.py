"""The app's save slot: a game in progress survives a restart; a corrupt save is kept aside, not lost."""
import os

from fivedice import app as A
from fivedice import oled_view as view
from fivedice import rules
from fivedice.rng import Dice, SeededBytes
from fivedice import savefile
from fivedice.savefile import decode as save_decode
from fivedice import messages as msg
from host_sim.device import SimDevice
from host_sim.play import Player
from host_sim.sim import FileStore

TABLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")  # holds yacht.fdt
YACHT = rules.get("yacht").index


def test_a_game_in_progress_resumes_after_a_restart(tmp_path):
    store = FileStore(str(tmp_path / "fivedice.sav"))
    dev = SimDevice(dice=Dice(SeededBytes(4)), store=store)
    pl = Player(dev)
    pl.setup(3, 1)  # Yum, one player
    pl.do("roll")
    pl.do("score yum")
    before = savefile.encode_game(dev.app.session.game)
    dev.close()
    dev2 = SimDevice(dice=Dice(SeededBytes(5)), store=store)
    app = dev2.app
    assert app.session.game is not None and savefile.encode_game(app.session.game) == before
    assert app.mode == A.M_MENU and app.menu.items[0] == 0  # "Resume game" is offered first
    dev2.tap(A.B_OK)
    assert app.mode == A.M_TURN and app.settings.rules_i == 3
    dev2.close()


def test_a_corrupt_save_is_reported_and_kept_intact(tmp_path):
    path = tmp_path / "fivedice.sav"
    dev0 = SimDevice(dice=Dice(SeededBytes(4)))
    Player(dev0).setup(0, 2)
    junk = bytearray(dev0.app.session.save_bytes())
    dev0.close()
    junk[12] ^= 0x10  # one flipped bit in the game record
    junk = bytes(junk)
    path.write_bytes(junk)
    dev = SimDevice(store=FileStore(str(path)))
    app = dev.app
    assert app.session.save_bad and app.session.game is None
    assert "corrupt" in app.session.save_error
    assert (tmp_path / "fivedice.sav.bad").read_bytes() == junk  # set aside untouched
    dev.run(100)
    assert not path.exists()  # nothing was written over it before a new game
    dev.close()


def test_the_save_checks_are_unloaded_once_a_save_is_read(tmp_path):
    """The code that validates a save is loaded to read one and dropped after (heap on a board)."""
    import sys

    store = FileStore(str(tmp_path / "fivedice.sav"))
    dev = SimDevice(dice=Dice(SeededBytes(4)), store=store)
    Player(dev).setup(0, 1)
    dev.close()
    dev2 = SimDevice(dice=Dice(SeededBytes(5)), store=store)
    assert dev2.app.session.game is not None  # the save was read and checked...
    assert "fivedice.savefile.decode" not in sys.modules  # ...and the checks are gone again
    from fivedice.savefile import decode as save_decode

    assert save_decode.possible(dev2.app.session.game.rs, 0, 3)  # and come back when asked for
    dev2.close()


def _texts(app):
    """The strings the app's next frame draws (fivedice.gfx.text calls)."""
    from fivedice import gfx

    seen = []
    real = gfx.text

    def text(fb, s, x, y, c, scale=1):
        seen.append(bytes(s))
        return real(fb, s, x, y, c, scale)

    gfx.text = text
    try:
        app.draw()
    finally:
        gfx.text = real
    return seen


def _menu_to(dev, item):
    app = dev.app
    idx = bytes(app.menu.items[: app.menu.n]).index(bytes((item,)))
    while app.screen.cursor != idx:
        dev.tap(A.B_DOWN)


def _values(app):
    s = app.settings
    return (s.rules_i, s.players, bytes(s.seats), s.muted, s.dim_i, s.sleep_i)


def test_every_menu_setting_is_saved_when_it_changes_so_a_reset_keeps_the_menu(tmp_path):
    """Rules, players, seats, sound, dim and sleep: each is written (once presses pause) before any game."""
    from fivedice.screens import menu as M

    store = FileStore(str(tmp_path / "fivedice.sav"))
    dev = SimDevice(dice=Dice(SeededBytes(4)), store=store, tables=TABLES)
    app = dev.app
    for item, taps in ((M.I_RULES, 5), (M.I_PLAYERS, 2), (M.I_P1 + 1, 2), (M.I_P1 + 2, 1), (M.I_SOUND, 1),
                       (M.I_DIM, 1), (M.I_SLEEP, 2)):
        _menu_to(dev, item)
        for _ in range(taps):
            dev.tap(A.B_OK)
        dev.run(1500)  # the pause after a change: it is saved now, a reset may come any time
        settings = _values(app)
        dev2 = SimDevice(dice=Dice(SeededBytes(5)), store=FileStore(str(tmp_path / "fivedice.sav")), tables=TABLES)
        a2 = dev2.app
        assert _values(a2) == settings and (a2.pw.dim_i, a2.pw.sleep_i) == settings[4:], item
        dev2.close()
    assert _values(app)[:4] == (5, 4, b"\x00\x03\x02\x01", True)
    dev.close()


def test_browsing_the_menu_mid_game_does_not_weaken_the_opponent_also_across_a_reset(tmp_path):
    """Issue 22: against the perfect CPU, BACK, step Rules to a rule set without a table ("CPU perfect: no
    table"), step back, Resume: the game keeps its perfect CPU and its rules; the menu's lines are the next
    game's. A reset resumes the game as it was seated, with the menu as it was left."""
    from fivedice.screens import menu as M

    path = str(tmp_path / "fivedice.sav")
    dev = SimDevice(dice=Dice(SeededBytes(4)), store=FileStore(path), tables=TABLES, cpu_step_ms=20)
    app = dev.app
    app.settings.rules_i = YACHT
    app.settings.players = 2
    app.settings.seats[0] = 0
    app.settings.seats[1] = 3  # CPU perfect
    app.session.new_game()
    dev.settle()
    g = app.session.game
    dev.tap(A.B_BACK)
    _menu_to(dev, M.I_RULES)
    dev.tap(A.B_OK)  # Yacht -> Yahtzee: no table here
    assert app.settings.rules_i == 0 and app.toast == msg.T_NO_PERFECT and app.settings.seats[1] == 2  # the next game's seat
    drawn = _texts(app)
    assert b"Next rules" in drawn and b" next" in drawn, drawn  # the menu says whose lines these are
    dev.tap(A.B_HOLD1)  # back to Yacht
    assert app.settings.rules_i == YACHT and app.toast == msg.T_NEXT_GAME
    assert b"Rules" in _texts(app) and b"Next rules" not in _texts(app)
    dev.run(1500)
    _menu_to(dev, M.I_RESUME)
    dev.tap(A.B_OK)
    assert app.mode == A.M_TURN and app.session.game is g and g.rs.index == YACHT
    assert app.seats.seated[1] == 3 and app.seats.players[1].level == 3  # still the perfect CPU
    dev.close()
    dev2 = SimDevice(dice=Dice(SeededBytes(5)), store=FileStore(path), tables=TABLES, cpu_step_ms=20)
    a2 = dev2.app
    assert a2.session.game is not None and a2.session.game.rs.index == YACHT and a2.settings.seats[1] == 2  # the menu as left
    assert a2.seats.seated[1] == 3 and a2.seats.players[1].level == 3  # the game as it was seated
    dev2.tap(A.B_OK)  # Resume game
    assert a2.mode == A.M_TURN and a2.seats.players[1].level == 3
    dev2.close()


def test_an_older_save_without_the_games_own_seats_resumes_seated_as_its_menu(tmp_path):
    """A format-2 save from before the game's own seats (seat bytes 0-3 only) still resumes."""
    store = FileStore(str(tmp_path / "fivedice.sav"))
    dev = SimDevice(dice=Dice(SeededBytes(4)), store=store, tables=TABLES, cpu_step_ms=20)
    app = dev.app
    app.settings.rules_i = YACHT
    app.settings.players = 2
    app.settings.seats[0] = 0
    app.settings.seats[1] = 3
    app.session.new_game()
    dev.settle()
    rec = bytearray(app.session.save_bytes())
    dev.close()
    assert rec[0] == 0xA8 and rec[3] == 0x40 and rec[4] == 0x73  # menu seat 3, game seat 3, flag
    for i in range(3, 7):
        rec[i] &= 3  # as the firmware before wrote it
    savefile.put_crc(rec, len(rec) - save_decode.CRC_BYTES)
    FileStore(str(tmp_path / "old.sav")).write(bytes(rec))
    dev2 = SimDevice(dice=Dice(SeededBytes(5)), store=FileStore(str(tmp_path / "old.sav")), tables=TABLES)
    a2 = dev2.app
    assert not a2.session.save_bad and a2.session.game is not None and savefile.encode_game(a2.session.game) == savefile.encode_game(app.session.game)
    assert bytes(a2.seats.seated[:2]) == b"\x00\x03" and a2.seats.players[1].level == 3 and bytes(a2.settings.seats[:2]) == b"\x00\x03"
    dev2.close()
