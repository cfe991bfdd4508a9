"""Text on the OLED never runs together: every piece of text a screen draws is logged (gfx.text,
text_right, text_center, number, number_right; a value in tenths, oled_view.tenths and tenths_right, as one) and two pieces on one line must either continue each other (the
second starts where the first ended, left-aligned: "P" then "1") or stand a space apart; a right-aligned or
centred piece that meets another, or any overlap, is a fault. "High scores5oK forced", "ROLLUP" and
"+30par 246.6" failed it."""
import importlib
import os
import sys

import pytest

from fivedice import app as A
from fivedice import gfx
from fivedice import oled_view as view
from fivedice import records as R
from fivedice.rng import Dice, SeededBytes
from fivedice.screens import menu as M
from host_sim.device import SimDevice
from host_sim.sim import FileStore

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
TABLES = os.path.join(ROOT, "tables")
SPACE = 5  # px between two pieces that do not continue each other (a glyph's advance already has 1)


class Log:
    def __init__(self, monkeypatch):
        self.pieces = []
        self.depth = 0
        for name in ("text", "text_right", "text_center", "number", "number_right"):
            monkeypatch.setattr(gfx, name, self._wrap(name, getattr(gfx, name)))
        # a value in tenths ("213.4") is one piece, whatever gfx calls draw it: in oled_view and in every screen
        # that imported it (each imported now: one imported later takes the wrapper from oled_view)
        for m in ("turn", "picker", "over", "records", "proftest"):
            importlib.import_module("fivedice.screens." + m)
        for name in ("tenths", "tenths_right"):
            fn = getattr(view, name)
            wrapped = self._wrap_tenths(name, fn)
            for m in list(sys.modules.values()):
                if getattr(m, "__name__", "").startswith("fivedice") and getattr(m, name, None) is fn:
                    monkeypatch.setattr(m, name, wrapped)

    def _wrap(self, name, fn):
        def drawn(fb, s, x, y, c, scale=1):
            self.depth += 1
            try:
                r = fn(fb, s, x, y, c, scale)
            finally:
                self.depth -= 1
            if self.depth == 0 and scale == 1:
                text = bytes(s) if not isinstance(s, int) else str(s).encode()
                w = len(text) * 6
                x0, x1, kind = {"text": (x, x + w, "left"), "number": (x, x + w, "left"),
                                "text_right": (x - w, x, "right"), "number_right": (x - w, x, "right"),
                                "text_center": (x - w // 2, x - w // 2 + w, "centre")}[name]
                self.pieces.append((y, x0, x1, kind, text))
            return r
        return drawn

    def _wrap_tenths(self, name, fn):
        def drawn(fb, x100, x, y, c):
            self.depth += 1
            try:
                r = fn(fb, x100, x, y, c)
            finally:
                self.depth -= 1
            if self.depth == 0:
                x10 = (abs(x100) + 5) // 10
                text = ("-" if x100 < 0 else "") + "%d.%d" % (x10 // 10, x10 % 10)
                w = len(text) * 6
                x0, x1, kind = (x, x + w, "left") if name == "tenths" else (x - w, x, "right")
                self.pieces.append((y, x0, x1, kind, text.encode()))
            return r
        return drawn

    def frame(self, app):
        """Every piece of text of a whole frame of the current screen."""
        if hasattr(app.screen, "whole"):
            app.screen.whole = True
        del self.pieces[:]
        app.draw()
        return list(self.pieces)


def faults(pieces):
    out = []
    rows = {}
    for p in pieces:
        rows.setdefault(p[0], []).append(p)
    for y, ps in rows.items():
        ps.sort(key=lambda p: (p[1], p[2]))
        for a, b in zip(ps, ps[1:]):
            if b[4].strip() == b"" or a[4].strip() == b"":
                continue  # a space drawn as its own piece
            gap = b[1] - a[2]
            tail = 6 * (len(a[4]) - len(a[4].rstrip()))  # a's trailing spaces: no ink ("P1 " a tag)
            seen = gap + tail + 6 * (len(b[4]) - len(b[4].lstrip()))  # "par " 254; "   -4.2" after a line
            if seen < 0 or seen < SPACE and not (gap == 0 and a[3] == b[3] == "left"):
                out.append((y, a[4], b[4], gap))
    return out


def assert_apart(log, app, what):
    got = faults(log.frame(app))
    assert not got, "%s: text runs together: %r" % (what, got)


def test_the_checker_sees_labels_that_touch():
    assert faults([(0, 1, 67, "left", b"High scores"), (0, 67, 127, "right", b"5oK forced")])
    assert faults([(10, 1, 25, "left", b"ROLL"), (10, 26, 38, "left", b"UP")])
    assert not faults([(0, 0, 6, "left", b"P"), (0, 6, 12, "left", b"1"), (0, 40, 70, "right", b"Human")])
    # a human's tag "P1 " ends in a space, no ink: a piece may start on it, a space apart from the 1
    assert not faults([(0, 0, 18, "left", b"P1 "), (0, 12, 48, "left", b" roll ")])
    assert faults([(0, 0, 18, "left", b"P1 "), (0, 6, 42, "left", b" roll ")])
    assert faults([(0, 0, 18, "left", b"P1 "), (0, 12, 36, "left", b"roll")])
    # a line's trailing spaces and a right-aligned value's leading ones carry no ink either
    assert not faults([(0, 0, 36, "left", b"best  "), (0, 24, 60, "right", b"   4.2")])
    assert faults([(0, 0, 36, "left", b"best  "), (0, 3, 39, "right", b"   4.2")])


def _play_to_the_end(dev):
    app = dev.app
    for _ in range(200):
        if app.session.game.over:
            break
        dev.tap(A.B_ROLL)
        dev.settle()
        dev.tap(A.B_OK)
        dev.tap(A.B_OK)
        dev.settle()


@pytest.mark.parametrize("rules_i", range(6))
def test_no_screen_runs_two_labels_together(tmp_path, monkeypatch, rules_i):
    log = Log(monkeypatch)
    store = FileStore(str(tmp_path / "fivedice.sav"))
    dev = SimDevice(dice=Dice(SeededBytes(rules_i + 1)), store=store, cpu_step_ms=20, tables=TABLES)
    app = dev.app
    try:
        app.settings.rules_i = rules_i
        app.settings.players = 1
        app.settings.seats[0] = 0
        assert_apart(log, app, "menu")
        app.session.new_game()
        dev.settle()
        dev.run(3000)
        assert_apart(log, app, "turn")
        dev.tap(A.B_ROLL)
        dev.settle()
        dev.run(3000)
        assert_apart(log, app, "turn rolled")
        dev.tap(A.B_UP)
        dev.settle()
        assert_apart(log, app, "hint")
        dev.tap(A.B_OK)
        assert_apart(log, app, "picker")
        dev.tap(A.B_OK)
        dev.settle()
        dev.run(3000)
        g = app.session.game
        # the longest score line beside par: "P1 LgStr +40" or the rule set's longest label, par over 100
        app.session.par_x100 = 24660
        for pts, bonus in ((30, 0), (40, 0), (5, 0), (40, 100)):
            g.last_points = pts
            g.last_bonus = bonus
            for box in range(g.rs.n):
                g.last_box = box
                app.dirty = True
                assert_apart(log, app, "turn after a score (box %d, +%d +%d)" % (box, pts, bonus))
        dev.tap(A.B_DOWN)
        assert_apart(log, app, "card")
        dev.tap(A.B_BACK)
        _play_to_the_end(dev)
        assert app.mode == A.M_INITIALS
        assert_apart(log, app, "initials")
        for _ in range(3):
            dev.tap(A.B_OK)
        assert_apart(log, app, "game over")
        dev.tap(A.B_BACK)
        app.enter(A.M_MENU)
        while app.menu.items[app.menu.cursor] != M.I_RECORDS:
            dev.tap(A.B_DOWN)
        dev.tap(A.B_OK)
        assert app.mode == A.M_RECORDS
        for _ in range(6):  # each rule set's title beside the page's name
            assert_apart(log, app, "records top")
            dev.tap(A.B_OK)
            assert_apart(log, app, "records stats")
            dev.tap(A.B_OK)
            dev.tap(A.B_DOWN)
        dev.tap(A.B_BACK)
    finally:
        dev.close()


def test_the_self_test_names_stand_apart(monkeypatch):
    log = Log(monkeypatch)
    dev = SimDevice(cpu_step_ms=20)
    app = dev.app
    try:
        app.show(A.M_TEST)
        dev.run(2500)  # past the checkerboards
        for b in (A.B_HOLD1, A.B_ROLL, A.B_UP, A.B_DOWN, A.B_OK, A.B_HOLD5):
            dev.tap(b)
            assert_apart(log, app, "self-test")
    finally:
        dev.close()
