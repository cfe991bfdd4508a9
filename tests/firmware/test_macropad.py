"""The Adafruit MacroPad RP2040 (hardware/boards/macropad.py): the real firmware/code.py over the CircuitPython
fakes with the MacroPad's `board` names, its SH1106 on SPI (fakehw.FakeSH1106 behind busio.SPI), keypad, rotaryio,
neopixel and the speaker with its enable pin; a whole game played through its keys and encoder. The SH1106 backend
(firmware/fdfw/board_cp.py with sh1106_cp.py) against adafruit_framebuf, decoded from the bytes the fake panel
receives; its heap-lock proof: tests/heap_lock/test_heap_sh1106.py."""
import os
import sys

import adafruit_framebuf
import pytest

from fivedice import gfx
from test_firmware import FIRMWARE, HARDWARE, cp  # noqa: F401  (cp: the CircuitPython rig's fixture)

# MacroPad GPIOs (hardware/boards/macropad.py): KEYn = GPn, the encoder's switch GP0, A/B GP17/18
KEY = {"HOLD1": 1, "HOLD2": 2, "HOLD5": 5, "ROLL": 6, "UP": 7, "DOWN": 8, "OK": 9, "BACK": 10}
ENC_SW, ENC_A, PIXELS, SPEAKER, SPEAKER_EN = 0, 17, 19, 16, 14


def test_macropad_profile_is_complete_uses_each_pin_once_and_is_circuitpython_only(monkeypatch):
    monkeypatch.syspath_prepend(FIRMWARE)
    monkeypatch.syspath_prepend(HARDWARE)
    from fdfw import profile

    prof = profile.load("macropad")
    pins = [prof.SDA, prof.SCL, prof.PIXELS, prof.SPEAKER, prof.SPEAKER_ENABLE, prof.ENCODER_A, prof.ENCODER_B,
            prof.OLED_SCK, prof.OLED_MOSI, prof.OLED_CS, prof.OLED_DC, prof.OLED_RESET] + [p for _, p in prof.BUTTONS]
    gpios = [p[1] for p in pins]
    assert len(set(gpios)) == len(gpios)
    assert [p for _, p in prof.BUTTONS][:10] == [("KEY%d" % k, k) for k in range(1, 11)]
    assert ("OK", ("ENCODER_SWITCH", 0)) in prof.BUTTONS
    assert profile.runs_on(prof, "cp") and not profile.runs_on(prof, "mp")
    assert len(prof.KEY_COLORS) == len(prof.KEY_LABELS) == prof.PIXEL_COUNT == 12


def _lab(rgb):
    """sRGB 0..255 -> CIELAB (D65)."""
    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.9505
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.089

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


# Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB
_CVD = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
}


def _seen(rgb, m):
    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    def srgb(v):
        v = min(1.0, max(0.0, v))
        return 255 * (12.92 * v if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055)

    lr = [lin(c) for c in rgb]
    return tuple(srgb(sum(m[i][k] * lr[k] for k in range(3))) for i in range(3))


def _delta(a, b):
    return sum((p - q) ** 2 for p, q in zip(_lab(a), _lab(b))) ** 0.5


def test_macropad_face_colours_stay_apart_for_players_who_cannot_tell_red_from_green(monkeypatch):
    monkeypatch.syspath_prepend(HARDWARE)
    import importlib

    prof = importlib.import_module("boards.macropad")
    def rgb(c):
        return (c >> 16, (c >> 8) & 255, c & 255)

    faces = [rgb(c) for c in prof.FACE_COLORS[1:]]  # 0xRRGGBB
    from fivedice import pixels_view

    FACE_COLORS = [rgb(c) for c in pixels_view.FACE_COLORS]

    def worst(colors, m):
        return min(_delta(_seen(a, m), _seen(b, m)) for i, a in enumerate(colors) for b in colors[i + 1:])

    for name, m in _CVD.items():
        assert worst(faces, m) > 20, name  # CIELAB distance: 20 is far apart; 2.3 is "just noticeable"
    # the default faces (red, orange, yellow, green, ...) are what the check exists for: it fails them
    assert min(worst(FACE_COLORS[1:], m) for m in _CVD.values()) < 12


# -- the SH1106 backend on its own ----------------------------------------------------------------------------

class _Out:
    def __init__(self, hw, gpio):
        self.gpio = gpio
        self.hw = hw

    @property
    def value(self):
        return self.hw.outputs.get(self.gpio, False)

    @value.setter
    def value(self, v):
        self.hw.outputs[self.gpio] = bool(v)


_MODULES = ("fakehw", "board", "busio", "digitalio", "displayio", "bitmaptools", "fdfw", "microcontroller")


@pytest.fixture
def sh(monkeypatch):
    for name in list(sys.modules):
        if name.split(".")[0] in _MODULES:
            monkeypatch.delitem(sys.modules, name)
    fakes = os.path.join(os.path.dirname(FIRMWARE), "tests", "firmware", "fakes")
    for p in (FIRMWARE, fakes, os.path.join(fakes, "cp")):
        monkeypatch.syspath_prepend(p)
    import board
    import busio
    import displayio
    import fakehw
    from fdfw.sh1106_cp import SH1106

    fakehw.reset()
    panel = fakehw.macropad_boot()
    fakehw.board_display[0].release()
    spi = busio.SPI(board.SCK, MOSI=board.MOSI)
    spi.try_lock()
    fb = SH1106(spi, _Out(fakehw, 24), _Out(fakehw, 22), 2, displayio)
    yield fb, panel, spi
    for name in list(sys.modules):
        if name.split(".")[0] in _MODULES:
            del sys.modules[name]


def reference(draw):
    buf = bytearray(1024)
    fb = adafruit_framebuf.FrameBuffer(buf, 128, 64, adafruit_framebuf.MVLSB)
    draw(fb)
    return buf


DICE = bytearray(b"\x01\x02\x03\x04\x05")


def turn(fb):
    fb.fill(0)
    gfx.text(fb, b"P1 Yahtzee", 0, 0, 1)
    gfx.number_right(fb, 123, 128, 0, 1)
    gfx.dice_row(fb, DICE, 0b00100, 4, 10, 20, 5)
    fb.rect(30, 34, 7, 7, 1)
    fb.fill_rect(0, 44, 128, 9, 1)
    gfx.text(fb, b"Box already filled", 1, 45, 0)
    gfx.text(fb, b"OK score ^hint v card", 0, 56, 1)


def edges(fb):
    turn(fb)
    gfx.text(fb, b"Clip", -3, -2, 1)
    gfx.text(fb, b"Edge", 110, 60, 1)
    gfx.text(fb, b"\x7f\x10ok", 21, 19, 1)
    gfx.glyph(fb, 200, 100, 10, 1)  # one glyph outside the font: the target draws '?'
    fb.fill_rect(61, 27, 41, 13, 1)
    gfx.text(fb, b"inv", 62, 30, 0)
    gfx.text(fb, b"x", 125, 31, 0)
    fb.pixel(127, 63, 1)
    fb.pixel(0, 0, 0)
    fb.hline(-5, 3, 200, 1)
    fb.vline(126, -4, 100, 1)


def test_sh1106_panel_shows_exactly_what_framebuf_draws_at_the_column_offset(sh):
    fb, panel, _ = sh
    assert panel.on and panel.frame == bytearray(1024) and panel.data_bytes == 8 * 128  # a blank start
    for draw in (turn, edges):
        draw(fb)
        fb.show()
        assert panel.frame == reference(draw)
        for y in range(64):
            for x in range(128):
                assert fb.pixel(x, y) == (panel.frame[(y >> 3) * 128 + x] >> (y & 7)) & 1
    assert panel.ram[0:2] == b"\x00\x00" and panel.ram[130:132] == b"\x00\x00"  # the hidden columns untouched


def test_sh1106_sends_nothing_undrawn_and_only_the_drawn_pages_drawn_columns(sh):
    fb, panel, spi = sh
    turn(fb)
    fb.show()
    before = panel.data_bytes, spi.writes
    fb.show()
    assert (panel.data_bytes, spi.writes) == before  # nothing drawn: not a byte
    fb.fill_rect(30, 12, 20, 20, 1)  # columns 30-49 of pages 1-3
    fb.show()
    assert panel.data_bytes - before[0] == 3 * 20 and spi.writes - before[1] == 2 * 3  # 3 pages of 20 columns
    assert panel.frame == reference(lambda f: (turn(f), f.fill_rect(30, 12, 20, 20, 1)))
    d = panel.data_bytes
    gfx.text(fb, b"ab", -3, 61, 1)  # clipped at the left and the bottom: columns 0-8 of page 7
    fb.show()
    assert panel.data_bytes - d == 9
    assert panel.frame == reference(lambda f: (turn(f), f.fill_rect(30, 12, 20, 20, 1),
                                               gfx.text(f, b"ab", -3, 61, 1)))
    d = panel.data_bytes, spi.writes
    gfx.text(fb, b"Roll", 5, 35, 1)  # not page-aligned: columns 5-28 of pages 4 and 5
    fb.show()
    assert (panel.data_bytes - d[0], spi.writes - d[1]) == (2 * 24, 2 * 2)
    assert panel.frame == reference(lambda f: (turn(f), f.fill_rect(30, 12, 20, 20, 1),
                                               gfx.text(f, b"ab", -3, 61, 1), gfx.text(f, b"Roll", 5, 35, 1)))


def test_sh1106_power_calls_send_the_panel_commands(sh):
    fb, panel, _ = sh
    fb.contrast(40)
    assert panel.contrast == 40
    fb.poweroff()
    assert not panel.on
    fb.poweron()
    assert panel.on


def test_the_sh1106_bench_draws_the_same_frames_on_both_backends_and_counts_what_each_sends():
    """tests/bench/bench_sh1106.py (docs/benchmarks.md) runs on today's backends: a row a frame and backend,
    the same C calls and pixels drawn on each (one drawing code), the SH1106's bytes its pages and columns
    (3 command bytes a page)."""
    import subprocess

    root = os.path.dirname(FIRMWARE)
    r = subprocess.run([sys.executable, os.path.join(root, "tests", "bench", "bench_sh1106.py")],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = {}
    for ln in r.stdout.splitlines()[1:]:
        *name, backend, py, show, calls, pixels, sent, est = ln.split()
        assert 0 <= int(show) <= int(py), ln  # show() is a part of the frame's Python
        rows[" ".join(name), backend] = int(calls), int(pixels), int(sent), float(est)
    assert sorted(rows) == sorted((f, b) for f in ("whole turn", "a hold", "two lines") for b in ("SH1106", "SSD1306"))
    for f in ("whole turn", "a hold", "two lines"):
        assert rows[f, "SH1106"][:2] == rows[f, "SSD1306"][:2] and rows[f, "SH1106"][1] > 0, f  # drawn alike
        assert rows[f, "SH1106"][3] > 0 and rows[f, "SSD1306"][3] > 0, f
    assert rows["whole turn", "SH1106"][2] == 8 * (3 + 128)  # every page, every column
    assert rows["a hold", "SH1106"][2] == 3 * (3 + 20)  # the die's 20 columns of its 3 pages
    assert rows["two lines", "SH1106"][2] == 4 * (3 + 128)  # pages 4-7, every column


# -- the whole firmware ---------------------------------------------------------------------------------------

def _pixels(hw):
    """The last NeoPixel frame on the MacroPad's pin, as 12 (r, g, b) (the strip's bytes are GRB)."""
    w = [b for g, b in hw.pixel_writes if g == PIXELS][-1]
    return [(w[3 * i + 1], w[3 * i], w[3 * i + 2]) for i in range(12)]


def _drawn_again(app):
    """The app's current frame drawn again on adafruit_framebuf: what the panel must hold."""
    ref = bytearray(1024)
    shown = app.fb
    app.fb = adafruit_framebuf.FrameBuffer(ref, 128, 64, adafruit_framebuf.MVLSB)
    app.fb.show = lambda: None
    app.enter(app.mode)  # opened again: a screen draws all of itself on a panel it has not drawn
    app.draw()
    app.fb = shown
    app.enter(app.mode)  # and all of itself again on the board's
    return ref


def test_macropad_plays_a_whole_game_through_its_keys_and_encoder(cp, monkeypatch):  # noqa: F811
    hw = cp.hw
    panel = hw.macropad_boot()
    cp.board("macropad")
    cp.record_app(monkeypatch)
    from fivedice import app as appmod

    st = {"tap": None, "up_at": 0, "spun": 0, "held": False, "scrolled": [-1, 0], "speaker": [], "shown": 0, "frame": None}

    def tap(gpio, i):
        hw.press(gpio)
        st["tap"] = gpio
        st["up_at"] = i + 6

    def on_pass(i, now):
        hw.advance(5)
        duty = [d for g, f, d in hw.pwm_log if g == SPEAKER]
        st["speaker"].append((bool(duty and duty[-1]), hw.outputs.get(SPEAKER_EN, False)))
        if st["tap"] is not None:
            if i >= st["up_at"]:
                hw.release(st["tap"])
                st["tap"] = None
                st["up_at"] = i + 6
            return False
        if i < st["up_at"] or not cp.apps:
            return False
        app = cp.apps[-1]
        g = app.session.game
        if g is None:
            if i > 20:
                tap(ENC_SW, i)  # the menu's "New game": the encoder's switch is OK
            return False
        if g.over:  # the game-over screen, once its frames are out
            st["over"] = st.get("over", i)
            return i - st["over"] > 5 and not app.dirty and not app.busy()
        if app.busy():
            return False
        if app.mode == appmod.M_TURN:
            if g.rolls == 0 and g.turn % 2 == 0:
                hw.turn(ENC_A, 3)  # a spin of the encoder: the dice tumble, and land when it stops
                st["spun"] += 1
                st["up_at"] = i + 10
            elif g.rolls == 0:
                tap(KEY["ROLL"], i)
            elif g.rolls == 1 and not st["held"]:
                tap(KEY["HOLD1"], i)  # hold die 1: its key lights bright
                st["held"] = True
            else:
                if st["held"] and g.held & 1 and not st["shown"]:
                    px = _pixels(hw)
                    free = max(px[1:5], key=sum)
                    assert sum(px[0]) > 2 * sum(free) > 0  # held bright, free dim
                    assert px[5] != (0, 0, 0) and px[11] == (0, 0, 0)  # ROLL lit, the unused keys dark
                    st["shown"] = 1
                    st["frame"] = panel.frame == _drawn_again(app)  # a turn's screen, steady
                tap(KEY["OK"], i)  # to the picker
        elif app.mode == appmod.M_PICK:
            if st["scrolled"][0] != g.turn:
                st["scrolled"] = [g.turn, 0]
            if st["scrolled"][1] < 2:  # down a line with the encoder and back up
                hw.turn(ENC_A, 1 - 2 * st["scrolled"][1])
                st["scrolled"][1] += 1
                st["up_at"] = i + 4
            else:
                tap(ENC_SW, i)  # score the box under the cursor
        return False

    assert cp.drive(20000, on_pass) == "stopped"
    app = cp.apps[-1]
    g = app.session.game
    assert g.over and bin(g.cards[0].filled).count("1") == g.rs.n
    assert st["spun"] >= 6 and app.shakes.count(True) == app.shakes.count(False) >= 6
    assert app.pressed.count(appmod.B_DOWN) >= 13 and app.pressed.count(appmod.B_UP) >= 13  # the encoder
    assert appmod.B_HOLD1 in app.pressed and appmod.B_ROLL in app.pressed and st["shown"]
    # the speaker's amplifier is on exactly while a tone plays
    assert any(t for t, e in st["speaker"]) and all(t == e for t, e in st["speaker"])
    assert st["frame"] and panel.lit() > 100


# -- the install ----------------------------------------------------------------------------------------------

def test_macropad_bundle_carries_its_drivers_and_profile_and_micropython_is_refused(tmp_path):
    import zipfile

    from test_firmware import _deploy

    out = tmp_path / "fivedice-cp-macropad.zip"
    r = _deploy("cp", "--board", "macropad", "--zip", str(out), "--tables", "none", "--build", str(tmp_path / "st"))
    assert r.returncode == 0, r.stdout + r.stderr
    names = zipfile.ZipFile(out).namelist()
    for f in ("code.py", "board_config.py", "lib/boards/macropad.mpy", "lib/fdfw/sh1106_cp.mpy",
              "lib/fdfw/encoder.mpy", "lib/fdfw/setup_cp.mpy", "lib/fdfw/pixels_cp.mpy"):
        assert f in names, f
    assert "lib/neopixel.mpy" not in names and "lib/adafruit_pixelbuf.mpy" not in names  # neopixel_write is C
    assert not any("records" in n or "proftest" in n for n in names)  # left out, as on a Pico (features.py)
    assert "note: a MacroPad has a Pico's heap under CircuitPython 10" in r.stdout
    r = _deploy("mp", "--board", "macropad", "--dry-run", "--tables", "none")
    assert r.returncode == 1 and r.stdout.strip().startswith("deploy: the macropad profile is for CircuitPython")


def test_macropad_profile_on_micropython_is_one_plain_line(cp, capsys):  # noqa: F811
    cp.board("macropad")
    from fdfw import start

    said = []
    assert start.build("mp", cp.save, said.append) == "bad-profile"
    assert said == ["the Adafruit MacroPad RP2040 profile runs on CircuitPython only: install that"]


def test_the_committed_key_picture_is_what_the_profile_draws_today(monkeypatch, tmp_path):
    tools = os.path.join(os.path.dirname(FIRMWARE), "tools")
    monkeypatch.syspath_prepend(tools)
    import keymap

    assert keymap.main(["--check"]) == 0
    svg = keymap.draw(keymap._profile())
    for label in ("ROLL", "hint", "card", "OK", "BACK", "push: OK"):
        assert ">%s<" % label in svg or label in svg, label
    monkeypatch.setattr(keymap, "OUT", str(tmp_path / "keys.svg"))
    (tmp_path / "keys.svg").write_text(svg.replace("ROLL", "RULL"))
    assert keymap.main(["--check"]) == 1  # a picture that no longer matches is caught


def test_macropad_self_test_sees_every_key_the_knob_all_twelve_pixels_and_the_speaker(cp, monkeypatch):  # noqa: F811
    hw = cp.hw
    hw.macropad_boot()
    cp.board("macropad")
    cp.record_app(monkeypatch)
    from fivedice import app as appmod

    plan = [("turn", -1), ("tap", ENC_SW)] + [("tap", k) for k in range(1, 11)] + [("turn", 1), ("turn", -1)]
    st = {"i": 0, "next": 100, "up": None, "lit": set(), "enable": set()}

    def on_pass(i, now):
        hw.advance(5)
        t = hw.clock[0]
        st["enable"].add(hw.outputs.get(SPEAKER_EN, False))
        if cp.apps and cp.apps[-1].mode == appmod.M_TEST:
            px = [b for g, b in hw.pixel_writes if g == PIXELS]
            if px:
                st["lit"].update(k for k in range(12) if any(px[-1][3 * k:3 * k + 3]))
        if st["up"] is not None and t >= st["up"]:
            hw.release(st["up_at_gpio"])
            st["up"] = None
        if t < st["next"] or st["up"] is not None:
            return False
        if st["i"] == len(plan):
            return t > 16000  # the pixels step every 400 ms: twelve pixels, three colours each
        what, arg = plan[st["i"]]
        st["i"] += 1
        st["next"] = t + 120
        if what == "turn":
            hw.turn(ENC_A, arg)
        else:
            hw.press(arg)
            st["up"], st["up_at_gpio"] = t + 40, arg
        return False

    assert cp.drive(20000, on_pass) == "stopped"
    app = cp.apps[-1]
    assert app.mode == appmod.M_TEST
    assert app.screen.pressed == (1 << 10) - 1  # every button: the ten keys, the knob's turns and push
    assert st["lit"] == set(range(12))  # each of the twelve key pixels lit in turn
    assert st["enable"] == {False, True} and not hw.outputs[SPEAKER_EN]  # the scale played, the amplifier off after


def test_encoder_hands_out_every_detent_one_a_poll_and_spins_only_on_the_dice_screen(monkeypatch):
    fakes = os.path.join(os.path.dirname(FIRMWARE), "tests", "firmware", "fakes")
    for p in (FIRMWARE, fakes, os.path.join(fakes, "cp")):
        monkeypatch.syspath_prepend(p)
    for name in ("fakehw", "board", "rotaryio", "microcontroller"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import board
    import fakehw
    import rotaryio
    from fdfw.encoder import SPIN_MS, Encoder, Keys

    fakehw.reset()
    fakehw.board[0] = "macropad"

    class Reader:  # the keypad reader's calls (fdfw.buttons.KeypadButtons), nothing pressed
        def poll(self):
            return 0

        def down(self):
            return 0

        def pending(self):
            return False

        def wait_ms(self):
            return 1000000

    class App:
        mode = 0  # the menu

    enc = Encoder(rotaryio.IncrementalEncoder(board.ENCODER_A, board.ENCODER_B))
    app = App()
    enc.bind(app)
    keys = Keys(Reader(), enc, 6, 7)
    fakehw.turn(17, 3)  # three detents clockwise between two passes
    got = []
    while keys.pending():
        assert keys.wait_ms() == 0
        got.append(keys.poll())
    assert got == [1 << 7] * 3 and keys.poll() == 0  # three DOWN presses, one a pass, none lost
    fakehw.turn(17, -2)
    assert keys.poll() == 1 << 6 and keys.poll() == 1 << 6  # anticlockwise: UP
    assert enc.update(0) == 0 and not enc.changed()  # no spin off the dice screen
    app.mode = 1  # the dice screen (M_TURN): a turn is a spin
    fakehw.turn(17, 1)
    assert enc.changed() and keys.poll() == 0  # no press...
    assert enc.update(100) == 1 and enc.spinning  # ...the shake starts
    fakehw.turn(17, -1)
    assert enc.update(250) == 0  # still turning
    assert enc.update(250 + SPIN_MS - 1) == 0 and enc.wait_ms(250 + SPIN_MS - 1) == 1
    assert enc.update(250 + SPIN_MS) == -1 and not enc.spinning  # it stops SPIN_MS after the last detent
