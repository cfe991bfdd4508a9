"""Install-time features (fivedice.features): what a deploy leaves out where it does not fit, and what the app
then offers. The proficiency test goes on a CircuitPython Pico, as the records do (docs/memory.md)."""
import os
import sys

from fivedice import app as A
from fivedice import features
from fivedice.screens import menu as M
from host_sim.device import SimDevice

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data")  # holds a whole yacht.fdt
sys.path.insert(0, os.path.join(ROOT, "firmware"))
import deploy  # noqa: E402


def staged(tmp_path, runtime, board):
    st = deploy.stage(runtime, board, str(tmp_path / (runtime + board)), False)
    return {dest for _, dest in st.files}, st


def test_a_circuitpython_pico_goes_without_the_proficiency_test_and_says_so_in_its_features(tmp_path):
    dests, st = staged(tmp_path, "cp", "pico")
    for m in features.MODULES["proftest"] + features.MODULES["records"]:
        assert "lib/" + m + ".py" not in dests, m
    src = [s for s, d in st.files if d == "lib/fivedice/features.py"]
    assert src and "proftest" in src[0]
    written = features.source(features.leave_out("cp", "pico"))
    assert "PROFTEST = False" in written and "RECORDS = False" in written


def test_a_circuitpython_pico_goes_without_sound_pixels_and_shake_and_the_summary_line_says_so(tmp_path):
    """The 16 KB margin (issue 34): the install leaves out what costs most heap for least (docs/memory.md)."""
    dests, _ = staged(tmp_path, "cp", "pico")
    for f in ("sound", "pixels", "shake"):
        for m in features.MODULES[f]:
            assert "lib/" + m + ".py" not in dests, m
    assert "lib/fdfw/keys.py" in dests and "lib/fdfw/buttons.py" in dests  # (buttons: the readers without keypad)
    written = features.source(features.leave_out("cp", "pico"))
    for flag in ("SOUND", "PIXELS", "SHAKE", "RECORDS", "PROFTEST"):
        assert flag + " = False" in written, flag
    line = deploy.board_gets(["yahtzee"], True, "cp", "pico")
    assert "no records, no proficiency test, no sound, no NeoPixel dice, no shake to roll" in line, line
    assert "no sound" not in deploy.board_gets(["yahtzee"], True, "mp", "pico")
    assert "no sound" not in deploy.board_gets(["yahtzee"], True, "cp", "pico2")


def test_micropython_and_a_pico_2_keep_the_test(tmp_path):
    for runtime, board in (("mp", "pico"), ("cp", "pico2")):
        dests, _ = staged(tmp_path, runtime, board)
        for m in features.MODULES["proftest"] + features.MODULES["sound"] + features.MODULES["pixels"]:
            assert "lib/" + m + ".py" in dests, (runtime, board, m)
    assert features.leave_out("mp", "pico") == ()


def test_an_install_without_the_test_has_no_menu_line_for_it(monkeypatch):
    dev = SimDevice(cpu_step_ms=20, tables=DATA)
    app = dev.app
    app.settings.rules_i = 5  # Yacht: a table
    app.menu.build(app)
    assert M.I_PROF in app.menu.items[:app.menu.n]
    monkeypatch.setattr(features, "PROFTEST", False)
    app.menu.build(app)
    assert M.I_PROF not in app.menu.items[:app.menu.n]
    dev.close()
