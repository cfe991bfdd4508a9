"""Install-time features (fivedice.features): what a deploy leaves out where it does not fit, and what the app
then offers. The board's profile states it (its board facts): a Pico and a Feather RP2040 under either runtime
go without the records, the proficiency test, the sound, the NeoPixel dice and the shake (docs/memory.md)."""
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
    assert "lib/fdfw/keys_cp.py" in dests and "lib/fdfw/buttons.py" in dests  # (buttons: the readers without keypad)
    written = features.source(features.leave_out("cp", "pico"))
    for flag in ("SOUND", "PIXELS", "SHAKE", "RECORDS", "PROFTEST"):
        assert flag + " = False" in written, flag
    line = deploy.board_gets(["yahtzee"], True, "cp", "pico")
    assert "no records, no proficiency test, no sound, no NeoPixel dice, no shake to roll" in line, line
    assert "no sound" not in deploy.board_gets(["yahtzee"], True, "cp", "pico2")


def test_a_micropython_pico_leaves_out_what_a_circuitpython_pico_does_for_its_64_kb_margin(tmp_path):
    """Measured on MicroPython 1.28 in the emulated Pico: with every feature a 35 KB ballast failed at start-up;
    without these five a 72 KB ballast starts (docs/memory.md)."""
    dests, _ = staged(tmp_path, "mp", "pico")
    for f in ("records", "proftest", "sound", "pixels", "shake"):
        for m in features.MODULES[f]:
            assert "lib/" + m + ".py" not in dests, m
    line = deploy.board_gets(["yahtzee"], True, "mp", "pico")
    assert line.endswith("; no records, no proficiency test, no sound, no NeoPixel dice, no shake to roll (left out: "
                         "they do not fit the heap of a pico under MicroPython with its 64 KB margin: "
                         "docs/memory.md)"), line


def test_a_pico_2_keeps_every_feature(tmp_path):
    for runtime in ("cp", "mp"):
        dests, _ = staged(tmp_path, runtime, "pico2")
        for f in features.ORDER:
            for m in features.MODULES[f]:
                assert "lib/" + m + ".py" in dests, (runtime, m)
        assert features.leave_out(runtime, "pico2") == ()


def test_board_facts_live_in_the_profile_and_stay_off_the_board(tmp_path):
    """Heap, drive size and what an install leaves out are read from hardware/boards/<board>.py, once; the
    board's copy of the profile ends before them; the Feather RP2040 gets what a Pico's heap allows."""
    for board in ("pico", "feather_rp2040", "macropad", "pico2"):
        with open(os.path.join(ROOT, "hardware", "boards", board + ".py")) as f:
            text = f.read()
        assert text.count("\n" + features.FACTS) == 1, board
        ns = {}
        exec(text[text.index("\n" + features.FACTS):], ns)
        for runtime in ("cp", "mp"):
            assert features.leave_out(runtime, board) == tuple(ns["LEAVE_OUT"].get(runtime, ())), board
            assert deploy.heap_kb(runtime, board) == ns["HEAP_KB"].get(runtime), board
        dests, st = staged(tmp_path, "cp" if board == "macropad" else "mp", board)
        with open(os.path.join(st.top, "lib", "boards", board + ".py")) as f:
            on_board = f.read()
        assert features.FACTS not in on_board and "LEAVE_OUT" not in on_board and "NAME = " in on_board
        assert text.startswith(on_board)
    for runtime in ("cp", "mp"):
        assert features.leave_out(runtime, "feather_rp2040") == features.leave_out(runtime, "pico") != ()
    assert deploy.drive_bytes("cp", "pico", None) == 1024 * 1024 and deploy.drive_bytes("mp", "pico", None) is None
    assert not hasattr(deploy, "CP_DRIVE_BYTES") and not hasattr(deploy, "CP_SHORT_HEAP")


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
