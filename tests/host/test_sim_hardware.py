"""host_sim simulated hardware (CPython only): buttons through bounce, pixels, display, PNG."""
import importlib.util
import os
import random

import adafruit_debouncer
import adafruit_ticks
import pytest
from PIL import Image

from fivedice import gfx, ticks
from fivedice.pixels_view import FACE_COLORS, PixelsView
from fivedice.sounds import SCORE, Sounder
from host_sim import hw, screenshot, terminal

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def clock():
    c = hw.SimClock(start_ms=1000)
    with c:
        yield c


def test_our_ticks_match_adafruit_ticks():
    rng = random.Random(3)
    vals = [0, 1, ticks.TICKS_MAX, ticks.TICKS_MAX - 1, 1 << 28, (1 << 28) - 1]
    vals += [rng.randrange(0, 1 << 29) for _ in range(2000)]
    for a in vals:
        for b in vals[:40]:
            assert ticks.ticks_diff(a, b) == adafruit_ticks.ticks_diff(a, b)
            assert ticks.ticks_less(a, b) == adafruit_ticks.ticks_less(a, b)
        d = rng.randrange(-(1 << 28) + 1, 1 << 28)
        assert ticks.ticks_add(a, d) == adafruit_ticks.ticks_add(a, d)


def test_sim_clock_drives_the_debouncer_and_restores():
    real_t, real_d = adafruit_ticks.ticks_ms, adafruit_debouncer.ticks_ms
    c = hw.SimClock(start_ms=(1 << 29) - 3)
    with c:
        assert adafruit_debouncer.ticks_ms() == (1 << 29) - 3
        c.advance(5)
        assert adafruit_ticks.ticks_ms() == 2  # wrapped like the real clock
    assert adafruit_ticks.ticks_ms is real_t and adafruit_debouncer.ticks_ms is real_d


def test_pin_chatters_then_settles():
    pin = hw.SimPin(True, bounce=6, seed=2)
    pin.drive(False)
    reads = [pin.value for _ in range(10)]
    assert reads[-4:] == [False] * 4
    flips = sum(1 for i in range(1, len(reads)) if reads[i] != reads[i - 1])
    assert flips >= 2  # it really bounces


def test_bouncing_press_gives_one_debounced_edge(clock):
    b = hw.SimButton("roll", bounce=4)
    presses = []
    b.press()
    for step in range(20):  # 100 ms of 5 ms polls
        clock.advance(5)
        b.update()
        if b.pressed:
            presses.append(step)
    assert presses and len(presses) == 1
    assert b.down
    # debounced only after the pin has been steady for the 10 ms interval
    assert presses[0] >= 4 + 1
    b.release()
    rel = 0
    for _ in range(20):
        clock.advance(5)
        b.update()
        rel += b.released
        assert not b.pressed
    assert rel == 1 and not b.down


def test_short_glitch_is_ignored(clock):
    b = hw.SimButton("hold1", bounce=0)
    b.pin.value = False  # 3 ms spike, shorter than the 10 ms interval
    clock.advance(1)
    b.update()
    clock.advance(2)
    b.pin.value = True
    for _ in range(10):
        clock.advance(5)
        b.update()
        assert not b.pressed


def test_buttons_tap_reports_the_right_bit(clock):
    names = ("hold1", "hold2", "hold3", "hold4", "hold5", "roll")
    board = hw.SimButtons(names, bounce=3)
    pressed, released = board.tap("hold3", clock)
    assert pressed == board.bit("hold3") == 1 << 2
    assert released == 1 << 2
    assert board.down_mask == 0
    board.buttons["roll"].press()
    board.run(clock, 40)
    assert board.down_mask == 1 << 5


def test_pixelbuf_transmits_captured_bytes_in_wire_order():
    px = hw.SimPixels(5, byteorder="GRB")
    px[0] = (255, 0, 0)
    px[4] = (1, 2, 3)
    assert px.transmits == 0
    px.show()
    assert px.transmits == 1
    assert px.last[0:3] == b"\x00\xff\x00"  # GRB on the wire
    assert px.last[12:15] == b"\x02\x01\x03"
    assert px.colors()[0] == (255, 0, 0) and px.colors()[4] == (1, 2, 3)


def test_pixels_view_drives_the_simulated_strip():
    px = hw.SimPixels(5)
    view = PixelsView(px, 5, brightness=255)
    view.set_dice(bytearray([1, 2, 3, 4, 5]), 0b00100)
    assert view.update(0)
    assert px.transmits == 1
    c = FACE_COLORS[3]  # 0xRRGGBB
    assert px.colors()[2] == (c >> 16, (c >> 8) & 255, c & 255)


def test_display_is_ssd1306_page_layout():
    d = hw.SimDisplay()
    d.pixel(0, 0, 1)
    d.pixel(3, 9, 1)
    assert d.buffer[0] == 0x01 and d.buffer[128 + 3] == 0x02
    assert d.get(3, 9) == 1 and d.get(3, 9, shown=True) == 0
    d.show()
    assert d.frames == 1 and d.raw()[128 + 3] == 0x02
    assert len(d.raw()) == 1024
    assert d.rows()[9][:4] == "...#"


def test_gfx_frame_is_identical_on_adafruit_framebuf_and_fake():
    import sys

    sys.path.insert(0, os.path.join(ROOT, "tests", "lib", "portable"))
    from fakefb import FakeFB

    d = hw.SimDisplay()
    f = FakeFB()
    for fb in (d, f):
        gfx.text(fb, "Chance 23", 0, 0, 1)
        gfx.number_right(fb, 1234, 128, 0, 1)
        gfx.dice_row(fb, bytearray([6, 5, 4, 0, 1]), 0b01001, 0, 20, 19, 6)
        gfx.tumbling_die(fb, 100, 44, 18, 3)
    d.show()
    for y in range(64):
        for x in range(128):
            assert d.get(x, y) == f.get(x, y), (x, y)


def test_font_bin_matches_the_python_font():
    # adafruit_framebuf's own text() with our font5x8.bin draws what gfx.text draws
    s = "".join(chr(c) for c in range(32, 127))
    for i in range(0, len(s), 21):
        line = s[i : i + 21]
        a = hw.SimDisplay()
        b = hw.SimDisplay()
        a.text(line, 0, 0, 1)
        gfx.text(b, line, 0, 0, 1)
        assert a.buffer == b.buffer, line


def test_generated_font_files_are_up_to_date():
    spec = importlib.util.spec_from_file_location("make_font", os.path.join(ROOT, "tools", "make_font.py"))
    mk = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mk)
    data = mk.build(mk.parse(mk.GLYPHS))
    with open(os.path.join(ROOT, "lib", "fivedice", "font5x8.bin"), "rb") as f:
        assert f.read() == mk.font_bin(data)
    with open(os.path.join(ROOT, "lib", "fivedice", "font.py")) as f:
        assert f.read() == mk.font_py(data)


def test_half_block_rendering_of_a_known_frame():
    d = hw.SimDisplay()
    d.pixel(0, 0, 1)  # top half only
    d.pixel(1, 1, 1)  # bottom half only
    d.pixel(2, 0, 1)
    d.pixel(2, 1, 1)  # both
    d.pixel(127, 63, 1)
    d.show()
    lines = terminal.oled_lines(d)
    assert len(lines) == 32 + 2
    assert all(len(s) == 130 for s in lines)
    assert lines[0][0] == "\u250c" and lines[-1][-1] == "\u2518"
    assert lines[1][1:5] == "\u2580\u2584\u2588 "
    assert lines[32][128] == "\u2584"
    assert set("".join(lines[2:32])) <= {"\u2502", " "}
    raw = terminal.oled_lines(d.raw(), frame=False)
    assert len(raw) == 32 and raw[0][:3] == "\u2580\u2584\u2588"


def test_pixels_render_as_24_bit_cells():
    s = terminal.render_pixels([(255, 0, 0), (0, 0, 0), (2, 4, 8)], lift=False)
    assert "\x1b[48;2;255;0;0m" in s and "\x1b[48;2;0;0;0m" in s and "\x1b[48;2;2;4;8m" in s
    lifted = terminal.render_pixels([(2, 4, 8)])
    assert "\x1b[48;2;38;76;152m" in lifted  # drawn through display_color: 8 -> 152, ratios kept
    full = terminal.render(hw.SimDisplay(), hw.SimPixels(5), legend="1-5 hold  space roll  q quit")
    assert full.endswith("q quit") and full.count("\x1b[48;2;") == 5


def test_led_display_color_makes_the_dice_colours_readable_on_a_dark_screen():
    # the colours the app really sends: PixelsView's palette (held: index f, unheld: 7 + f)
    pv = PixelsView(hw.SimPixels(5))

    def palette(k):  # the palette's 0xRRGGBB as the strip gets it
        c = pv.color(k)
        return (c >> 16, (c >> 8) & 255, c & 255)

    assert max(palette(7 + 6)) == 15 and max(palette(6)) == 96  # what the LEDs get (dim on a screen)
    for f in range(1, 7):
        sent_unheld, sent_held = palette(7 + f), palette(f)
        unheld, held = terminal.display_color(sent_unheld), terminal.display_color(sent_held)
        assert max(unheld) >= 160, (f, sent_unheld, unheld)
        assert max(held) >= max(unheld) + 40, (f, sent_held, held)  # held stays visibly brighter
        for sent, shown in ((sent_unheld, unheld), (sent_held, held)):
            m, top = max(sent), max(shown)
            for v, w in zip(sent, shown):
                # hue kept: each channel keeps its share of the brightest one (to rounding)
                assert abs(w - v * top / m) <= 0.5 + top / m / 2, (sent, shown)
    assert terminal.display_color((0, 0, 0)) == (0, 0, 0)  # off stays off
    assert terminal.display_color((255, 80, 0)) == (255, 80, 0)  # full brightness unchanged
    assert max(terminal.display_color((1, 0, 0))) > 0
    # monotonic in brightness, so brighter LEDs never look dimmer
    tops = [max(terminal.display_color((m, 0, 0))) for m in range(256)]
    assert tops == sorted(tops) and tops[0] == 0


def test_png_screenshot_draws_leds_through_display_color(tmp_path):
    px = hw.SimPixels(5)
    px[0] = (10, 0, 15)  # an unheld violet six as the app sends it
    px.show()
    img = screenshot.screenshot(str(tmp_path / "s.png"), hw.SimDisplay(), px, scale=4)
    b, pitch = 16, 128 * 4 // 5
    cy = b + 64 * 4 + 20 + b // 2
    assert img.getpixel((b + pitch // 2, cy)) == terminal.display_color((10, 0, 15)) == (111, 0, 167)


def test_png_screenshot_written(tmp_path):
    d = hw.SimDisplay()
    gfx.die(d, 10, 10, 19, 5, False)
    d.show()
    px = hw.SimPixels(5)
    px[1] = (0, 255, 0)
    px.show()
    path = tmp_path / "shot.png"
    screenshot.screenshot(str(path), d, px, scale=4)
    img = Image.open(path).convert("RGB")
    b = 16
    assert img.size == (128 * 4 + 2 * b, 64 * 4 + 2 * b + 40)
    assert img.getpixel((b + 10 * 4 + 1, b + 10 * 4 + 5 * 4)) == screenshot.INK  # die's left edge
    assert img.getpixel((b + 1, b + 1)) == screenshot.PAPER
    # the lit pixel under die 2
    pitch = 128 * 4 // 5
    cy = b + 64 * 4 + 20 + b // 2
    assert img.getpixel((b + pitch + pitch // 2, cy)) == (0, 255, 0)


def test_sim_buzzer_records_a_cue(clock):
    bz = hw.SimBuzzer(clock)
    snd = Sounder(bz)
    snd.play(SCORE, clock.ticks_ms())
    for _ in range(100):
        clock.advance(5)
        snd.update(clock.ticks_ms())
    assert bz.tones == [(523, 70), (659, 70), (784, 130)]
    assert bz.events[0][0] == 1000 and bz.events[-1][1] == 0 and bz.freq == 0


def test_sim_tilt_shake_is_detected_and_ends(clock):
    from fivedice.shake import SwitchShake

    tilt = hw.SimTilt(clock)
    det = SwitchShake()
    events = []
    tilt.shake(800)
    for _ in range(300):  # 1.5 s of 5 ms polls
        clock.advance(5)
        det.update(tilt.value, clock.ticks_ms())
        if det.started or det.stopped:
            events.append(("start" if det.started else "stop", clock.now - 1000))
    assert [e[0] for e in events] == ["start", "stop"]
    assert events[0][1] < 450 and 800 <= events[1][1] <= 800 + 400 + 100


def test_sim_board_bundles_the_hardware():
    real = adafruit_debouncer.ticks_ms
    with hw.SimBoard() as board:
        assert adafruit_debouncer.ticks_ms == board.clock.ticks_ms
        p, _ = board.buttons.tap("roll", board.clock)
        assert p == board.buttons.bit("roll") == 1 << 5
        assert board.display.width == 128 and len(board.pixels) == 5
    assert adafruit_debouncer.ticks_ms is real


def test_gif_recorder_writes_the_devices_real_frames_timed_in_simulated_ms(tmp_path):
    from fivedice import app as A
    from fivedice.rng import ScriptedFaces
    from host_sim.device import SimDevice
    from host_sim.play import Player

    dev = SimDevice(dice=ScriptedFaces([6, 6, 2, 6, 4] * 3), cpu_step_ms=60)
    Player(dev).setup(0, 1)
    dev.settle()
    rec = screenshot.GifRecorder(dev)
    rec.pause(300)
    dev.tap(A.B_ROLL)
    dev.settle()
    dev.tap(A.B_HOLD1)
    rec.pause(300)
    path = tmp_path / "t.gif"
    n, ms = rec.save(str(path))
    img = Image.open(path)
    assert img.n_frames == n >= 5  # start, tumbling frames, landed, held
    durations = []
    for i in range(img.n_frames):
        img.seek(i)
        durations.append(img.info["duration"])
    assert durations[-1] == 2500 and sum(durations) == ms
    assert 70 in durations  # the LEDs' tumbling frames, 70 ms apart on the device
    # the last frame is the device as it is now: the held six lit, pixel for pixel
    img.seek(img.n_frames - 1)
    now = screenshot.device_image(dev.board.display, dev.board.pixels, scale=2)
    assert img.convert("RGB").tobytes() == now.tobytes()
    assert dev.step == rec._step  # save() unwrapped the device
    dev.close()


def test_readme_game_gif_is_animated_and_small():
    path = os.path.join(ROOT, "docs", "screenshots", "game.gif")
    assert os.path.getsize(path) < 300 * 1024
    img = Image.open(path)
    assert img.n_frames >= 10 and img.info.get("loop") == 0


def test_readme_game_over_seed_ranks_the_perfect_cpu_first():
    if not os.path.isfile(os.path.join(ROOT, "tables", "yahtzee.fdt")):
        pytest.fail("tables/yahtzee.fdt is missing: `make test` builds it (make tables/yahtzee.fdt)")
    spec = importlib.util.spec_from_file_location("readme_screenshots",
                                                  os.path.join(ROOT, "tools", "readme_screenshots.py"))
    rs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rs)
    dev = rs.coached_game(rs.GAME_OVER_SEED)
    app = dev.app
    order = bytearray(4)
    app.session.game.ranking(order)
    assert app.session.game.over and app.settings.seats[order[0]] == 3  # seat 2, the perfect CPU, wins (the README says so)
    assert [c.total() for c in app.session.game.cards] == [189, 268, 217]  # the README caption's figures
    dev.close()
