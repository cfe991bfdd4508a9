"""No tap lost: buttons read between slow frames, on both runtimes.

A CircuitPython frame takes 150-250 ms; a tap is 20-100 ms. The firmware loop polls the buttons once a pass.
- CircuitPython: keypad.Keys scans in the background and queues timestamped events (fake keypad here, over
  fakehw's clock: it scans every `interval` of fake time while the clock advances, also during a draw).
- MicroPython: a hard Pin IRQ writes each edge with its time into a ring; poll() replays the edges through
  adafruit_debouncer (fake machine.Pin fires the handler on fakehw level changes, on the real unix port).
- Elsewhere (CircuitPython without keypad): adafruit_debouncer polled once a pass, which loses such taps.
In the slow-frame tests every pass draws and a draw takes 150 ms of fake time; the taps are scheduled on
fakehw's timeline so they start and end inside one draw, between two polls (the tests check that too).
"""
import json
import os
import subprocess
import sys

import pytest

from test_firmware import FAKES, FAKES_CP, FAKES_MP, FIRMWARE, LIB, SITE, _micropython, _mp, cp  # noqa: F401

HOLD1, ROLL, UP, DOWN, OK, BACK = 6, 11, 12, 13, 14, 16  # Pico profile GPIOs
B_HOLD1, B_ROLL, B_UP, B_DOWN, B_OK = 0, 5, 6, 7, 8


def _slow_run(rig, monkeypatch, iters, frame_ms=150, long_frames=None):
    """Run code.py with an app whose every pass draws and whose draw takes frame_ms of fake time
    (long_frames: {draw index: ms} for single longer stalls). Returns (app, buttons reader, poll times)."""
    import fivedice.app as appmod

    import fdfw.start as fb  # (start-up's: the keypad reader comes from fdfw.keys_cp, the others from fdfw.buttons)

    made = []
    real_make = fb.reader

    def make(inputs, ids):
        b = real_make(inputs, ids)
        made.append(b)
        return b

    monkeypatch.setattr(fb, "reader", make)
    Base = appmod.App
    hw = rig.hw
    apps = []

    class Slow(Base):
        def __init__(self, *a, **k):
            self.pressed = []
            self.pressed_at = []
            self.draws = 0
            Base.__init__(self, *a, **k)
            apps.append(self)

        def press(self, b, now_ms):
            self.pressed.append(b)
            self.pressed_at.append(now_ms)
            return Base.press(self, b, now_ms)

        def tick(self, now_ms):
            Base.tick(self, now_ms)
            return True

        def draw(self):
            hw.advance((long_frames or {}).get(self.draws, frame_ms))
            self.draws += 1
            return Base.draw(self)

    monkeypatch.setattr(appmod, "App", Slow)
    polls = []

    def on_iter(i, now):
        polls.append(now)
        hw.advance(5)
        return False

    assert rig.drive(iters, on_iter) == "stopped"
    return apps[0], made[0], polls  # on_iter gets the time each pass read just before it polled


def _between_two_polls(polls, start, end):
    return not [p for p in polls if start <= p <= end]


def _tap(hw, gpio, start, end):
    hw.schedule(start, gpio, 0)
    hw.schedule(end, gpio, None)


# -- CircuitPython: keypad.Keys ------------------------------------------------------------------------


def test_cp_uses_keypad_keys_on_every_button_pin_scanning_every_10ms(cp, monkeypatch):
    cp.display()
    app, buttons, _ = _slow_run(cp, monkeypatch, 3)
    import keypad

    from fdfw.keys_cp import KeypadButtons

    assert isinstance(buttons, KeypadButtons) and isinstance(buttons._keys, keypad.Keys)
    assert buttons._keys._gpios == [6, 7, 8, 9, 10, 11, 12, 13, 14, 16]  # profile order = key numbers
    assert buttons._keys._vwp == 0 and buttons._keys._interval == 10
    assert all(cp.hw.claimed[g] == "keypad.Keys" for g in buttons._keys._gpios)
    assert all(cp.hw.pulls[g] == "up" for g in buttons._keys._gpios)


def test_cp_a_20ms_tap_inside_one_slow_frame_is_delivered_exactly_once(cp, monkeypatch):
    cp.display()
    _tap(cp.hw, OK, 1000, 1020)
    app, buttons, polls = _slow_run(cp, monkeypatch, 20)
    assert _between_two_polls(polls, 1000, 1020)
    assert app.pressed == [B_OK]
    first_after = min(p for p in polls if p > 1020)
    assert app.pressed_at == [first_after]


def test_cp_keypad_is_drained_with_get_into_into_one_event(cp, monkeypatch):
    # No heap_lock exists on CPython, so the keypad path's zero-allocation claim is shown by its mechanism:
    # the fake counts every keypad.Event ever made and every EventQueue.get() call.
    cp.display()
    for i, g in enumerate((OK, HOLD1, ROLL, UP, DOWN)):
        _tap(cp.hw, g, 1000 + 200 * i, 1030 + 200 * i)
    app, buttons, _ = _slow_run(cp, monkeypatch, 20)
    import keypad

    assert app.pressed == [B_OK, B_HOLD1, B_ROLL, B_UP, B_DOWN]
    assert keypad.Event.made == 1  # the one KeypadButtons made at start-up, filled by every get_into()
    assert buttons._events.gets == 0  # never get(), which makes an Event per call


def test_cp_keypad_contact_bounce_gives_one_press_per_tap(cp, monkeypatch):
    cp.display()
    for i in range(10):  # 10 phases against the 10 ms scan: several scans land inside the chatter
        t = 1000 + 201 * i
        cp.hw.bounce(t, HOLD1, 0, (1, 1, 1))
        cp.hw.bounce(t + 25, HOLD1, None, (1, 1, 1))
    app, buttons, _ = _slow_run(cp, monkeypatch, 25)
    assert app.pressed == [B_HOLD1] * 10


def test_cp_different_buttons_tapped_within_one_frame_are_all_delivered(cp, monkeypatch):
    cp.display()
    _tap(cp.hw, OK, 1000, 1020)
    _tap(cp.hw, HOLD1, 1005, 1030)
    cp.hw.bounce(1010, ROLL, 0)
    cp.hw.bounce(1035, ROLL, None)
    _tap(cp.hw, DOWN, 1050, 1070)
    app, buttons, polls = _slow_run(cp, monkeypatch, 12)
    assert _between_two_polls(polls, 1000, 1070)
    assert app.pressed == [B_HOLD1, B_ROLL, B_DOWN, B_OK]  # one poll: the loop hands them over in bit order
    assert len(set(app.pressed_at)) == 1


def test_cp_keypad_overflow_does_not_crash_or_repeat_a_held_key(cp, monkeypatch):
    cp.display()
    cp.hw.schedule(900, OK, 0)  # held across the overflow
    cp.hw.schedule(2500, OK, None)
    # one 1.5 s stall (a flash write, say) while nine buttons are tapped 5 times each: 90 transitions > 64
    t = 1000
    for _ in range(5):
        for g in (6, 7, 8, 9, 10, 11, 12, 13, 16):
            _tap(cp.hw, g, t, t + 20)
            t += 3
        t += 30
    _tap(cp.hw, DOWN, 3000, 3030)  # after the storm: delivered as usual
    app, buttons, polls = _slow_run(cp, monkeypatch, 25, long_frames={6: 1500})
    assert buttons.overflows == 1
    assert app.pressed.count(B_OK) == 1
    assert app.pressed[-1] == B_DOWN and app.pressed.count(B_DOWN) == 2  # once in the storm, once after
    assert buttons.down() == 0 and len(buttons._events) == 0 and not buttons._events.overflowed


def test_cp_keypad_reset_that_reports_releases_instead_is_handled_too(cp, monkeypatch):
    """Some CircuitPython 9.x C code resets the keys' counters to 'pressed' (released keys then report a
    release, held keys stay silent), unlike the documented 'all released'. Either way: no crash, no repeat."""
    import keypad

    def reset_as_pressed(self):
        for k in range(len(self._count)):
            self._count[k] = self._threshold
        self._scan(cp.hw.clock[0])

    monkeypatch.setattr(keypad.Keys, "reset", reset_as_pressed)
    cp.display()
    cp.hw.schedule(900, OK, 0)
    cp.hw.schedule(2500, OK, None)
    t = 1000
    for _ in range(5):
        for g in (6, 7, 8, 9, 10, 11, 12, 13, 16):
            _tap(cp.hw, g, t, t + 20)
            t += 3
        t += 30
    _tap(cp.hw, DOWN, 3000, 3030)
    app, buttons, _ = _slow_run(cp, monkeypatch, 25, long_frames={6: 1500})
    assert buttons.overflows == 1
    assert app.pressed.count(B_OK) == 1 and app.pressed[-1] == B_DOWN
    assert buttons.down() == 0


# -- CircuitPython without keypad: adafruit_debouncer, the fallback ---------------------------------------------


def test_cp_without_keypad_falls_back_to_adafruit_debouncer_on_digitalinouts(cp, monkeypatch):
    monkeypatch.setitem(sys.modules, "keypad", None)  # `import keypad` raises ImportError, as on an old build
    cp.record_app(monkeypatch)
    cp.display()
    script = {}
    for i, g in enumerate((OK, HOLD1, ROLL)):
        script[10 + 20 * i] = (lambda g: lambda: cp.hw.press(g))(g)
        script[16 + 20 * i] = (lambda g: lambda: cp.hw.release(g))(g)
    assert cp.run_code(max_iters=100, script=script) == "stopped"
    assert cp.apps[0].pressed == [B_OK, B_HOLD1, B_ROLL]
    assert cp.hw.claimed[OK] == "DigitalInOut"


def test_cp_without_keypad_a_tap_inside_one_slow_frame_is_lost(cp, monkeypatch):
    """The control for the slow-frame tests: the same tap, read the old way, never reaches the app."""
    monkeypatch.setitem(sys.modules, "keypad", None)
    cp.display()
    _tap(cp.hw, OK, 1000, 1020)
    app, buttons, polls = _slow_run(cp, monkeypatch, 20)
    from fdfw.buttons import Buttons

    assert type(buttons) is Buttons
    assert _between_two_polls(polls, 1000, 1020)
    assert app.pressed == []


# -- MicroPython: hard IRQ edge ring + lock-out debounce, on the unix port --------------------------------------


def test_mp_a_20ms_tap_inside_one_slow_frame_is_delivered_exactly_once(tmp_path):
    res, out = _mp(tmp_path, "slowtap")
    assert res["status"] == "stopped", out
    assert res["irq_hard"] is True
    assert _between_two_polls(res["polls"], 1000, 1020)
    # and a 5 ms tap on ROLL counts too: nothing tells it from a quick thumb (the IRQ reads a spike
    # shorter than its latency as no edge)
    assert res["pressed"] == [B_OK, B_ROLL]
    assert res["pressed_at"][0] == min(p for p in res["polls"] if p > 1020)


def test_mp_contact_bounce_gives_one_press_per_tap(tmp_path):
    res, out = _mp(tmp_path, "slowbounce")
    assert res["status"] == "stopped", out
    assert res["irq_fired"] == 10 * 2 * 5  # every chatter edge reached the ring
    assert res["pressed"] == [B_HOLD1] * 10


def test_mp_different_buttons_tapped_within_one_frame_are_all_delivered(tmp_path):
    res, out = _mp(tmp_path, "multi")
    assert res["status"] == "stopped", out
    assert _between_two_polls(res["polls"], 1000, 1070)
    assert res["pressed"] == [B_HOLD1, B_ROLL, B_DOWN, B_OK]
    assert len(set(res["pressed_at"])) == 1


def test_mp_a_full_edge_ring_does_not_crash_or_repeat_a_held_key(tmp_path):
    res, out = _mp(tmp_path, "ringfull")
    assert res["status"] == "stopped", out
    assert res["ring_dropped"] == 140 - 127  # the ring keeps 127 edges between two polls
    # UP once though held through it; HOLD1's 140 ms of 1 ms chatter is a press (its first edge
    # counts), reported once by the poll that reads it; OK after
    assert res["pressed"] == [B_UP, B_HOLD1, B_OK]


# (the loop's own proof, with IRQ edges polled inside the locked window, is test_firmware.py's
# test_mp_firmware_loop_allocates_nothing_per_pass)


def test_mp_edge_ring_handler_allocates_nothing(tmp_path):
    res, out = _mp(tmp_path, "heap-irq")
    assert res["status"] == "stopped", out
    assert res["irqs_in_lock"] == 300 and res["ring_dropped"] == 300 - 127  # the full-ring path ran locked too


def test_mp_heap_harness_catches_an_allocating_irq_handler(tmp_path):
    res, out = _mp(tmp_path, "heap-irq-control")
    assert res["status"].startswith("allocated-while-locked"), out


def test_mp_a_press_counts_at_its_first_edge_and_its_chatter_is_ignored(tmp_path):
    # a lock-out debounce: a quiet key's first edge counts at once (the idle wait ends for it), the
    # edges of the next 10 ms are its chatter, and a window that ends on another level counts it then
    exe = _micropython()
    assert exe
    settle = _fakes_check(exe, tmp_path)["edge_settle"]
    assert settle[0] == [True, 0]  # the edge waits: poll now
    assert settle[1] == 1 << B_OK
    assert settle[2] == [True, 0, False, 6, 1 << B_OK]  # chatter read: no press; still down for 6 ms
    assert settle[3] == [0, 0, 0]  # the window ended up: released, and no press


# -- the fakes themselves, on both runtimes ---------------------------------------------------------------------


def _fakes_check(exe, tmp_path):
    env = dict(os.environ)
    paths = [FAKES_CP, FAKES, FIRMWARE, LIB, str(tmp_path / "deps")]
    (tmp_path / "deps").mkdir(exist_ok=True)
    for name in ("adafruit_debouncer.py", "adafruit_ticks.py"):
        with open(os.path.join(SITE, name), "rb") as f:
            (tmp_path / "deps" / name).write_bytes(f.read())
    env["MICROPYPATH"] = ":".join([FAKES_MP] + paths)
    env["PYTHONPATH"] = ":".join([FAKES_MP] + paths)
    r = subprocess.run([exe, os.path.join(FAKES, "fakes_check.py")], capture_output=True, text=True, env=env,
                       timeout=120)
    lines = r.stdout.strip().splitlines()
    assert r.returncode == 0 and lines and lines[-1].startswith("{"), r.stdout + r.stderr
    return json.loads(lines[-1])


def test_fake_keypad_and_pin_irq_behave_the_same_on_cpython_and_micropython(tmp_path):
    exe = _micropython()
    assert exe
    on_cpython = _fakes_check(sys.executable, tmp_path)
    on_mpy = _fakes_check(exe, tmp_path)
    assert on_cpython == on_mpy
    k = on_cpython["keypad"]
    assert k["held_at_start"] == []  # a key held when Keys is made gives no press (counter starts at 0)
    assert k["events"] == [[0, True, 20], [0, False, 50], [1, True, 80]]  # (key, pressed, scan time)
    assert k["glitch"] == []  # 3 ms between two 10 ms scans: never seen
    assert k["threshold3"] == [[1, True, 60]]  # debounce_threshold=3: pressed at 35, the third pressed scan
    assert k["overflow"] == [2, True, 0, False]  # queue of 2: len, overflowed; after clear()
    assert k["reset"] == [[1, True]]  # reset(): the held key (1) reported again
    assert k["get_into_type"] == "TypeError" and k["overflowed_read_only"] == "AttributeError"
    assert k["deinit_frees"] is True
    p = on_cpython["pin_irq"]
    assert p["falling_only"] == 2 and p["both"] == 4 and p["none_after_disable"] == 0
    assert on_cpython["edge_buttons"] == [[8], [8], [8]]  # a tap; a 3 ms tap; a bouncy tap
