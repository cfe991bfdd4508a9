"""Start-up lets go of its own code: once a board entry point has built the board and reached the
menu, the start-up-only modules (fivedice.lazy's "startup": fdfw.start, fdfw.profile, the setup module,
fdfw.i2cmem_cp, the board profile, boards, board_config) are out of sys.modules AND nothing the game keeps still refers to them.

Run on the MicroPython unix port over the fake hardware, in a folder staged like the board's flash
(tests/bench/board_heap.py's stage). "Nothing refers to them" is checked with canaries: each module gets a file
object referred to only from its globals, and the port's file finaliser closes the descriptor once the
collector has reclaimed it (see tests/firmware/fakes/startup_drive.py). A closure, lambda, function or class
of a start-up module handed to a driver would keep that module's globals alive; the control test does that
and must see it.
"""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
import board_heap  # noqa: E402

DRIVER = os.path.join(ROOT, "tests", "firmware", "fakes", "startup_drive.py")
MICROPYTHON = os.path.join(os.path.dirname(sys.executable), "micropython")


def _menu(tmp_path, runtime, kind="py", leak=False):
    """The drive's report at the menu. The collector scans the C stack conservatively, so a stale word left
    there can keep a module alive in one heap layout and not another; a real reference (a function kept by
    a driver) keeps it in every layout. A module reported alive is therefore checked again in two more
    layouts (the driver holding 272 or 656 bytes more from its start) and counts only when it is alive in all
    three."""
    out = _menu_in(tmp_path / "board", runtime, kind, leak)
    for pad in (272, 656):
        if not out["alive"]:
            break
        again = _menu_in(tmp_path / ("board-%d" % pad), runtime, kind, leak, pad)
        out["alive"] = [m for m in out["alive"] if m in again["alive"]]
    return out


def _menu_in(folder, runtime, kind, leak, pad=0):
    if not os.path.isfile(os.path.join(ROOT, "tables", "yahtzee.fdt")):
        pytest.fail("tables/yahtzee.fdt is missing: `make test` builds it (make tables/yahtzee.fdt)")
    top = str(folder)
    path = board_heap.stage(top, kind == "mpy", runtime=runtime)
    cmd = [MICROPYTHON, "-X", "heapsize=1024K", DRIVER, runtime] + (["leak"] if leak else [])
    r = subprocess.run(cmd, cwd=top, env=dict(os.environ, MICROPYPATH=path, FIVEDICE_DRIVE_PAD=str(pad)),
                       capture_output=True, text=True, timeout=300)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    assert r.returncode == 0 and lines, r.stdout + r.stderr
    out = json.loads(lines[-1])
    assert out["status"] == "menu" and out["run"] == "stopped", out  # the check ran at the menu
    return out


@pytest.mark.parametrize("runtime,kind", [("cp", "py"), ("cp", "mpy"), ("mp", "py"), ("mp", "mpy")],
                         ids=lambda x: x)
def test_start_up_only_modules_are_unloaded_and_unreferenced_at_the_menu(runtime, kind, tmp_path):
    out = _menu(tmp_path, runtime, kind)
    assert out["loaded"] == [], "still in sys.modules after start-up: %s" % out["loaded"]
    assert out["alive"] == [], ("unloaded but still reachable from what the game keeps (a function, closure or "
                                "class of the module handed to a driver?): %s" % out["alive"])


@pytest.mark.parametrize("runtime", ["cp", "mp"])
def test_the_check_sees_a_setup_module_function_kept_by_the_built_board(runtime, tmp_path):
    """Control: the built board keeps setup.build; the setup module (and fdfw.start, which it imports from) stays."""
    out = _menu(tmp_path, runtime, leak=True)
    assert out["loaded"] == [], out
    assert "fdfw.setup_" + runtime in out["alive"], out


@pytest.mark.parametrize("runtime", ["cp", "mp"])
def test_adafruit_debouncer_is_loaded_only_where_the_buttons_use_it(runtime, tmp_path):
    """CircuitPython with keypad (the fakes' build) debounces in C; MicroPython's EdgeButtons debounce
    their IRQ edges themselves: neither holds adafruit_debouncer."""
    out = _menu(tmp_path, runtime)
    assert out["debouncer"] is False, out
