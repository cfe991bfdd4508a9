"""The app's save slot: a game in progress survives a restart; a corrupt save is kept aside, not lost."""
from fivedice import app as A
from fivedice.rng import Dice, SeededBytes
from host_sim.device import SimDevice
from host_sim.play import Player
from host_sim.sim import FileStore


def test_a_game_in_progress_resumes_after_a_restart(tmp_path):
    store = FileStore(str(tmp_path / "fivedice.sav"))
    dev = SimDevice(dice=Dice(SeededBytes(4)), store=store)
    pl = Player(dev)
    pl.setup(3, 1)  # Yum, one player
    pl.do("roll")
    pl.do("score yum")
    before = dev.app.game.to_bytes()
    dev.close()
    dev2 = SimDevice(dice=Dice(SeededBytes(5)), store=store)
    app = dev2.app
    assert app.game is not None and app.game.to_bytes() == before
    assert app.mode == A.M_MENU and app.menu.items[0] == 0  # "Resume game" is offered first
    dev2.tap(A.B_OK)
    assert app.mode == A.M_TURN and app.rules_i == 3
    dev2.close()


def test_a_corrupt_save_is_reported_and_kept_intact(tmp_path):
    path = tmp_path / "fivedice.sav"
    dev0 = SimDevice(dice=Dice(SeededBytes(4)))
    Player(dev0).setup(0, 2)
    junk = bytearray(dev0.app.save_bytes())
    dev0.close()
    junk[12] ^= 0x10  # one flipped bit in the game record
    junk = bytes(junk)
    path.write_bytes(junk)
    dev = SimDevice(store=FileStore(str(path)))
    app = dev.app
    assert app.save_bad and app.game is None
    assert "corrupt" in app.save_error
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
    assert dev2.app.game is not None  # the save was read and checked...
    assert "fivedice.save_check" not in sys.modules  # ...and the checks are gone again
    from fivedice import save_check

    assert save_check.possible(dev2.app.game.rs, 0, 3)  # and come back when asked for
    dev2.close()
