"""A screen opened now and then is one class and one line of fivedice.screens.SCREENS: the registry
derives the rest (its number, its loading when entered, its dropping when left, its load at start-up,
the modules it names beside it and the feature it needs): docs/library.md."""
import sys

import pytest

import fivedice.screens as S
from fivedice import app as A
from fivedice import features, lazy
from fivedice.rng import Dice, SeededBytes
from host_sim.device import SimDevice

# a new screen: its module (a class) and nothing else in lib/
MODULE = '''
from fivedice import gfx
from fivedice import oled_view as view
from fivedice.screens import Screen, B_BACK
import fivedice.wip_text as text


class Wip(Screen):
    def press(self, app, b):
        if b == B_BACK:
            app.back()
        return 0

    def draw(self, fb, app):
        fb.fill(0)
        view.header(fb, text.TITLE)
        gfx.text(fb, b"new", 0, view.DICE_Y, 1)
'''


@pytest.fixture
def wip(tmp_path, monkeypatch):
    """The registry with one more line: "wip Wip wip_text", and its two modules on the path."""
    (tmp_path / "screens").mkdir()
    (tmp_path / "screens" / "wip.py").write_text(MODULE)
    (tmp_path / "wip_text.py").write_text('TITLE = b"Work in progress"\n')
    import fivedice

    monkeypatch.setattr(S, "__path__", list(S.__path__) + [str(tmp_path / "screens")])
    monkeypatch.setattr(fivedice, "__path__", list(fivedice.__path__) + [str(tmp_path)])
    parts = dict(lazy._PARTS)
    monkeypatch.setattr(S, "SCREENS", S.SCREENS + "wip Wip wip_text\n")
    yield S.SCREENS.count("\n") - 1  # its number: its line's
    for m in ("fivedice.screens.wip", "fivedice.wip_text"):
        sys.modules.pop(m, None)
    assert lazy._PARTS == parts  # the memory table did not have to change


def test_a_new_screen_is_numbered_opened_drawn_and_dropped_from_its_line(wip):
    assert wip == 10
    dev = SimDevice(dice=Dice(SeededBytes(1)), cpu_step_ms=20)
    app = dev.app
    assert len(app.screens) == 11 and app.screens[wip] is None  # not kept: built when entered
    app.show(wip)
    assert app.mode == wip and type(app.screen).__name__ == "Wip"
    assert "fivedice.screens.wip" in sys.modules and "fivedice.wip_text" in sys.modules
    app.draw()
    assert app.screen.parts == "fivedice.screens.wip fivedice.wip_text"
    dev.tap(A.B_BACK)
    assert app.mode == A.M_MENU  # back to where it was shown from
    assert "fivedice.screens.wip" not in sys.modules and "fivedice.wip_text" not in sys.modules
    assert not hasattr(S, "wip")
    dev.close()


def test_start_up_loads_and_drops_the_new_screen_with_the_others(wip, monkeypatch):
    let_go = []
    real = lazy.forget

    def forget(names):
        let_go.append((names, [m for m in names.split() if m in sys.modules]))
        real(names)

    monkeypatch.setattr(lazy, "forget", forget)
    S.intern_rare()
    assert let_go[-1] == ("fivedice.screens.wip fivedice.wip_text", ["fivedice.screens.wip", "fivedice.wip_text"])
    assert "fivedice.screens.wip" not in sys.modules


def test_a_screen_whose_feature_the_install_left_out_is_not_loaded_at_start_up(wip, monkeypatch):
    monkeypatch.setattr(S, "SCREENS", S.SCREENS.replace("wip Wip wip_text\n", "wip Wip wip_text RECORDS\n"))
    monkeypatch.setattr(features, "RECORDS", False)
    names = []
    real = lazy.forget
    monkeypatch.setattr(lazy, "forget", names.append)
    S.intern_rare()
    for n in names:
        real(n)
    assert names == ["fivedice.screens.help fivedice.help_pages", "fivedice.screens.selftest",
                     "fivedice.screens.proftest fivedice.proftest"]  # no records, initials, wip
