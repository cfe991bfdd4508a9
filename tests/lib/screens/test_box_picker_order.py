"""One rule opens both box pickers (README "Playing in the simulator"): with the coach's values shown,
the box the coach values most comes first; without them (no table, or the proficiency test, which must not give
the answer away), the box with the most points now. The values column is labelled."""
import os

from fivedice import app as A
from fivedice.rng import Dice, SeededBytes
from host_sim.device import SimDevice

from test_proftest_screen import device as prof_device, open_test

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TABLES = os.path.join(ROOT, "tables")


def _turns(dev, n):
    """n human turns: one roll, open the picker, yield it, score what it opens on."""
    app = dev.app
    for _ in range(n):
        dev.tap(A.B_ROLL)
        dev.settle()
        dev.run(3000)
        dev.tap(A.B_OK)
        assert app.mode == A.M_PICK
        yield app.screen
        dev.tap(A.B_OK)
        dev.settle()
        dev.run(3000)


def test_with_the_coach_the_picker_opens_on_the_coachs_best_box():
    dev = SimDevice(dice=Dice(SeededBytes(11)), cpu_step_ms=20, tables=TABLES)
    app = dev.app
    app.settings.players = 1
    app.settings.seats[0] = 0
    app.session.new_game()
    dev.settle()
    differs = 0
    try:
        for p in _turns(dev, 13):
            assert p.valued
            boxes = bytes(p.boxes[:p.n])
            best = max(boxes, key=lambda b: (p.expect[b], -boxes.index(b)))
            assert p.boxes[p.cursor] == best
            differs += max(boxes, key=lambda b: (p.points[b], -boxes.index(b))) != best
            lines = dev.board.display.raw()  # (drawn) the footer names the columns
            assert lines
    finally:
        dev.close()
    assert differs  # the coach's choice and the most points parted at least once: the rule was exercised


def test_without_values_both_pickers_open_on_the_most_points(tmp_path):
    dev = SimDevice(dice=Dice(SeededBytes(11)), cpu_step_ms=20)  # no tables: no values
    app = dev.app
    app.settings.players = 1
    app.session.new_game()
    dev.settle()
    try:
        for p in _turns(dev, 4):
            assert not p.valued
            boxes = bytes(p.boxes[:p.n])
            assert p.points[p.boxes[p.cursor]] == max(p.points[b] for b in boxes)
    finally:
        dev.close()
    dev = prof_device(tmp_path)
    try:
        open_test(dev)
        s = dev.app.screen
        for _ in range(25):
            dev.tap(A.B_OK)  # the test's picker
            if s.phase == 2:
                assert s.points[s.cursor] == max(s.points[i] for i in range(s.n)), "proficiency test's picker"
                dev.tap(A.B_OK)
            if s.phase == 3:
                dev.tap(A.B_OK)
    finally:
        dev.close()


def test_the_values_column_is_labelled(monkeypatch):
    from fivedice import gfx

    drawn = []
    real = gfx.text_right

    def log(fb, s, x, y, c, scale=1):
        drawn.append(bytes(s))
        return real(fb, s, x, y, c, scale)

    monkeypatch.setattr(gfx, "text_right", log)
    dev = SimDevice(dice=Dice(SeededBytes(11)), cpu_step_ms=20, tables=TABLES)
    app = dev.app
    app.settings.players = 1
    app.session.new_game()
    dev.settle()
    try:
        for p in _turns(dev, 1):
            assert p.valued and not p.forced and not p.bonus
            assert b"final" in drawn and b"pts" in drawn
    finally:
        dev.close()
