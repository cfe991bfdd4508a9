"""A board that recovers: an unexpected exception shows an error screen, is logged, keeps
the save and restarts the app; a watchdog is started and fed every pass; a save that makes the app fail
twice in a row is set aside (kept) and the app starts clean, saying so. Firmware on fake hardware, both
runtimes (the CircuitPython path here on CPython, the MicroPython path on the unix port)."""
import os
import sys

import pytest
from fivedice import savefile

from test_firmware import FIRMWARE, OK, ROLL, _mp, _nvm_save, _tap, cp  # noqa: F401  (cp is a fixture)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def quick(monkeypatch):
    """The error screen stays up 2.5 s on a board; not in tests."""
    import fdfw.recover

    monkeypatch.setattr(fdfw.recover, "ERROR_SHOW_MS", 0)


def _failing_app(monkeypatch, rig, when, error=None):
    """Wrap the real App: `when(app, event)` decides whether this event raises (an injected bug; a press
    raises `error` if given, else ZeroDivisionError)."""
    import fivedice.app as appmod

    Base = appmod.App

    class Buggy(Base):
        def __init__(self, *a, **k):
            Base.__init__(self, *a, **k)
            self.loaded = self.session.save_bytes() if self.session.game is not None else None  # what it resumed
            rig.apps.append(self)
            if when(self, "init"):
                raise error if error is not None else KeyError("injected at start-up")

        def press(self, b, now_ms):
            if when(self, b):
                if error is not None:
                    raise error
                return 1 // 0  # an injected bug: ZeroDivisionError
            return Base.press(self, b, now_ms)

    monkeypatch.setattr(appmod, "App", Buggy)


def _a_saved_game(cp):
    """New game and a roll on the first boot: a game in progress, saved; returns the save's bytes."""
    cp.display()
    script = {}
    _tap(cp, OK, 10, script)
    _tap(cp, ROLL, 30, script)
    cp.run_code(max_iters=150, script=script)
    return _nvm_save()


def test_an_unexpected_exception_shows_logs_keeps_the_save_and_restarts_the_app(cp, monkeypatch, capsys, quick):
    cp.display()
    script = {}
    _tap(cp, OK, 10, script)  # New game (saved)
    _tap(cp, ROLL, 30, script)  # roll: landed and saved
    _tap(cp, ROLL, 100, script)  # the second roll's press raises
    _failing_app(monkeypatch, cp, lambda app, ev: ev == 5 and app.session.game is not None and app.session.game.rolls == 1
                 and len(cp.apps) == 1)
    # 150 passes (the restarted app's run counts its passes from 0 again): the loop now sleeps between passes
    # (up to 1 s each when nothing is due), so 400 would idle past the 3 min sleep timer, where the board waits
    # for a button this script never presses
    status = cp.run_code(max_iters=150, script=script)
    assert status == "stopped"
    out = capsys.readouterr().out
    assert "fivedice: error ZeroDivisionError at test_recover.py:" in out and "fivedice restarts" in out
    assert len(cp.apps) == 2  # the app was started again...
    first, second = cp.apps
    assert first.loaded is None and second.loaded is not None  # ...and resumed the saved game:
    assert second.loaded[7:-4] == savefile.encode_game(first.session.game)  # the state the failing press met (roll 1)
    log = open(cp.save + ".log").read()  # the traceback is in the log file
    assert "ZeroDivisionError" in log and "test_recover.py" in log
    import fakehw

    assert fakehw.watchdog and fakehw.watchdog[0] == 8000 and fakehw.watchdog[1] > 150  # fed every pass
    assert fakehw.resets[0] == 0  # not a MemoryError: restarted in-process, no reset


def test_a_memory_error_resets_the_board_which_boots_into_the_saved_game(cp, monkeypatch, capsys, quick):
    """After a MemoryError the heap is fragmented: an app started again in the same heap may not find its
    KB-sized buffers (the heap proxy saw every in-process restart fail so). The board resets instead."""
    cp.display()
    script = {}
    _tap(cp, OK, 10, script)  # New game (saved)
    _tap(cp, ROLL, 30, script)  # roll: landed and saved
    _tap(cp, ROLL, 100, script)  # the second roll's press runs out of memory
    _failing_app(monkeypatch, cp, lambda app, ev: ev != "init" and app.session.game is not None and app.session.game.rolls == 1
                 and len(cp.apps) == 1, MemoryError("memory allocation failed, allocating 3696 bytes"))
    import fakehw
    import microcontroller
    from fdfw.store.nvm_cp import NvmStore

    with pytest.raises(fakehw.BoardReset):  # microcontroller.reset(): the board starts again from power-on
        cp.run_code(max_iters=150, script=script)
    out = capsys.readouterr().out
    assert "fivedice: error MemoryError" in out and "the game is kept" in out
    assert fakehw.resets[0] == 1 and len(cp.apps) == 1  # no app started again in the fragmented heap
    assert "MemoryError" in open(cp.save + ".log").read()
    saved = _nvm_save()
    assert NvmStore(microcontroller.nvm).strikes() == 1  # counted against the save, which is kept
    cp.next_boot()  # the next boot
    cp.run_code(max_iters=5)
    second = cp.apps[1]
    assert second.session.game is not None and second.session.game.rolls == 1 and second.session.save_bytes() == saved


def test_a_memory_error_with_no_room_for_its_report_still_counts_its_strike_and_resets(cp, monkeypatch, capsys,
                                                                                          quick):
    """A resume that runs out of memory while the app is built (before the watchdog runs), in a heap too full
    for the report's text: the board does not stop at "Code done running"; it says so in a line, counts the
    strike and resets, and the next boot resumes the game."""
    saved = _a_saved_game(cp)
    cp.next_boot()
    cp.apps.clear()
    import fakehw
    import fdfw.recover
    import microcontroller
    from fdfw.store.nvm_cp import NvmStore

    real_where = fdfw.recover.where

    def no_room(e):
        raise MemoryError("memory allocation failed, allocating 1280 bytes")

    monkeypatch.setattr(fdfw.recover, "where", no_room)
    _failing_app(monkeypatch, cp, lambda app, ev: ev == "init" and app.session.game is not None and len(cp.apps) == 1,
                 MemoryError("memory allocation failed, allocating 1280 bytes"))
    with pytest.raises(fakehw.BoardReset):
        cp.run_code(max_iters=5)
    assert "fivedice: error MemoryError (no room to report it)" in capsys.readouterr().out
    assert fakehw.resets[0] == 1 and NvmStore(microcontroller.nvm).strikes() == 1
    monkeypatch.setattr(fdfw.recover, "where", real_where)
    cp.next_boot()
    cp.run_code(max_iters=5)  # the boot after: the same save, room to resume it
    assert len(cp.apps) == 2 and cp.apps[1].session.game is not None and cp.apps[1].session.save_bytes() == saved


def test_a_save_that_makes_the_app_fail_twice_is_set_aside_and_the_app_starts_clean(cp, monkeypatch, capsys,
                                                                                        quick):
    saved = _a_saved_game(cp)
    cp.next_boot()
    cp.apps.clear()
    # the next boot: any app that resumes this save fails while starting
    _failing_app(monkeypatch, cp, lambda app, ev: ev == "init" and app.session.game is not None)
    status = cp.run_code(max_iters=1)  # one pass: the next would idle until the message's 1.8 s are over
    assert status == "stopped"
    out = capsys.readouterr().out
    assert out.count("fivedice: error KeyError") == 2
    assert "the saved game made fivedice fail 2 times in a row: it is set aside (kept)" in out
    last = cp.apps[-1]
    assert last.session.game is None and last.toast == 13  # starts clean, "Save crashed: kept" on screen
    import microcontroller
    from fdfw.store import record
    from fdfw.store.nvm_cp import NvmStore

    store = NvmStore(microcontroller.nvm)
    assert store.read() is None  # not offered again...
    store._ensure()
    assert store._st[2] is not None and store._st[2][1] == saved  # ...but kept (KIND_ASIDE), byte for byte
    assert record.KIND_ASIDE == 2


def test_a_memory_error_that_is_the_second_strike_resets_and_the_boot_after_sets_the_save_aside(cp, monkeypatch,
                                                                                                capsys, quick):
    """Issue 20: after a MemoryError the board always resets, also on the save's second strike; the set-aside is
    left to the boot after, on a clean heap, which starts clean and says so once."""
    saved = _a_saved_game(cp)
    import fakehw
    import microcontroller
    from fdfw.store import record
    from fdfw.store.nvm_cp import NvmStore

    def boot():
        cp.next_boot()
        cp.apps.clear()

    _failing_app(monkeypatch, cp, lambda app, ev: ev == "init" and app.session.game is not None,
                 MemoryError("memory allocation failed, allocating 1280 bytes"))  # every resume runs out
    for strikes in (1, 2):
        boot()
        with pytest.raises(fakehw.BoardReset):
            cp.run_code(max_iters=5)
        out = capsys.readouterr().out
        assert "fivedice: error MemoryError" in out and "set aside" not in out
        assert len(cp.apps) == 1 and fakehw.resets[0] == 1  # reset: no app built again in that heap
        fakehw.resets[0] = 0
        store = NvmStore(microcontroller.nvm)
        assert store.strikes() == strikes and store.read() == saved  # not set aside in the heap the error left
    boot()
    cp.run_code(max_iters=1)  # the boot after the second strike
    out = capsys.readouterr().out
    assert out.count("it is set aside (kept)") == 1 and "fivedice: error" not in out
    assert len(cp.apps) == 1 and cp.apps[0].session.game is None and cp.apps[0].toast == 13  # "Save crashed: kept"
    store = NvmStore(microcontroller.nvm)
    store._ensure()
    assert store.read() is None and store._st[record.KIND_ASIDE][1] == saved and store.strikes() == 0
    boot()
    cp.run_code(max_iters=1)  # and the boot after that does not say it again
    assert "set aside" not in capsys.readouterr().out and cp.apps[0].toast != 13


def test_two_watchdog_resets_on_the_same_save_set_it_aside(cp, monkeypatch, capsys):
    cp.display()
    script = {}
    _tap(cp, OK, 10, script)
    cp.run_code(max_iters=60, script=script)
    saved = _nvm_save()
    import fakehw

    for boot in (1, 2):
        cp.next_boot()
        fakehw.last_reset[0] = "watchdog"  # the last run hung: the watchdog reset the board
        cp.run_code(max_iters=5)
        out = capsys.readouterr().out
        assert "the last run hung and the watchdog reset the board" in out
        assert ("set aside" in out) == (boot == 2)
    import microcontroller
    from fdfw.store.nvm_cp import NvmStore

    store = NvmStore(microcontroller.nvm)
    assert store.read() is None and store._st[2][1] == saved  # KIND_ASIDE


def test_a_successful_save_clears_the_strikes(cp, monkeypatch, capsys):
    cp.display()
    import fakehw

    fakehw.last_reset[0] = "watchdog"
    script = {}
    _tap(cp, OK, 10, script)  # New game: a save
    cp.run_code(max_iters=60, script=script)
    import microcontroller
    from fdfw.store.nvm_cp import NvmStore

    assert NvmStore(microcontroller.nvm).strikes() == 0  # the strike of that boot was cleared by the save


def test_the_log_keeps_only_its_newest_bytes(tmp_path):
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    try:
        from fdfw import recover
    finally:
        sys.path.pop(0)
    p = str(tmp_path / "x.log")
    for i in range(200):
        assert recover.log(p, "entry %03d %s\n" % (i, "x" * 40), limit=1000)
    data = open(p, "rb").read()
    assert len(data) <= 1000 and data.endswith(b"entry 199 " + b"x" * 40 + b"\n")
    assert data.startswith(b"entry ")  # cut at a line
    assert not recover.log(str(tmp_path / "no" / "such" / "dir.log"), "x")  # a read-only place: False, no raise


def test_mp_the_loop_starts_and_feeds_the_watchdog(tmp_path):
    res, out = _mp(tmp_path, "play")
    assert res["status"] == "stopped", out
    assert res["watchdog"][0] == 8000 and res["watchdog"][1] >= 190, out


def _raise_here():
    raise KeyError(3)


def test_the_error_says_the_file_the_line_and_the_function(monkeypatch):
    monkeypatch.syspath_prepend(FIRMWARE)  # (alone in a worker: no other test put it on the path)
    from fdfw import recover

    try:
        _raise_here()
    except KeyError as e:
        name, loc = recover.where(e)
    line = _raise_here.__code__.co_firstlineno + 1
    assert (name, loc) == ("KeyError", "test_recover.py:%d _raise_here" % line)


def test_without_line_numbers_the_function_still_names_the_place(monkeypatch):
    """The deploy's .mpy carry no line numbers (deploy.NO_LINES): MicroPython says line 1 for every frame."""
    monkeypatch.syspath_prepend(FIRMWARE)
    from fdfw import recover

    monkeypatch.setattr(recover, "trace", lambda e: 'Traceback (most recent call last):\n  File "code.py", line 5, '
                        'in <module>\n  File "fivedice.session", line 1, in score\nKeyError: 3\n')
    assert recover.where(KeyError(3)) == ("KeyError", "fivedice.session:1 score")
