"""The board builds fit a board-sized heap: each entry point (CircuitPython code.py over the CircuitPython
fakes, MicroPython main.py over the MicroPython fakes), with lib/ as .py and as .mpy, plays a whole
two-player game (a human who asks for a hint after every roll, against the perfect CPU, with the Yahtzee
table) on the MicroPython unix port with a heap of the size below, not the port's default.

HEAP_KB is the smallest heap from which every larger one passed in `make bench-heap`'s scan, plus a
20 KB margin for run-to-run differences (the dice differ): a change that makes the game need more
memory than that fails here. See README, "Memory on the board", for the scans and the 32-bit estimate.
"""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "bench"))
import board_heap  # noqa: E402

# -X heapsize on the 64-bit port; a board needs about 0.58-0.68 x this.
# Scanned (make bench-heap) with the coach let go on a tight heap, start-up's code unloaded and a mid-game look
# at the records and the help: smallest heaps 420 / 340 / 360 / 290 KB (CircuitPython .py / .mpy, MicroPython
# .py / .mpy), + 20 KB here.
HEAP_KB = {("cp", "py"): 440, ("cp", "mpy"): 360, ("mp", "py"): 380, ("mp", "mpy"): 310}
TABLE = os.path.join(ROOT, "tables", "yahtzee.fdt")


@pytest.mark.parametrize("runtime,kind", sorted(HEAP_KB), ids=lambda x: x)
def test_a_whole_game_with_hints_and_a_perfect_cpu_fits_a_board_sized_heap(runtime, kind, tmp_path):
    if not os.path.isfile(TABLE):
        pytest.fail("tables/yahtzee.fdt is missing: `make test` builds it (make tables/yahtzee.fdt)")
    top = str(tmp_path / "board")
    path = board_heap.stage(top, kind == "mpy", runtime=runtime)
    out = board_heap.run(top, path, HEAP_KB[runtime, kind], runtime)
    assert out["status"] == "done" and out["errors"] == 0, out  # and no failure the guard caught on the way
    assert out["turns"] == 13 and out["hints"] >= 13 and out["has_coach"] and out["visited"] == 2, out
    assert len(out["totals"]) == 2


# A board without a strategy table, CircuitPython .py: a human without hints against the good CPU (whose coach's
# code is nearly all of the table game's), scanned 4 runs a size; + 20 KB here. README, Memory on the board.
NO_TABLE_HEAP_KB = 440


def test_a_whole_game_without_a_table_against_the_good_cpu_fits_a_board_sized_heap(tmp_path):
    if not os.path.isfile(TABLE):
        pytest.fail("tables/yahtzee.fdt is missing: `make test` builds it (make tables/yahtzee.fdt)")
    top = str(tmp_path / "board")
    path = board_heap.stage(top, False, runtime="cp")
    out = board_heap.run(top, path, NO_TABLE_HEAP_KB, "cp", table=False)
    assert out["status"] == "done" and out["errors"] == 0, out
    assert out["turns"] == 13 and out["hints"] == 0 and not out["has_coach"] and out["visited"] == 2, out
    assert out["totals"][1] > 0, out  # the good CPU played its 13 turns


def test_two_games_in_a_row_on_a_tight_heap_fit_the_same_board_sized_heap(tmp_path):
    """CircuitPython .mpy, the app letting the coach go whenever it may (as on a Pico short of heap): the coach
    built again for the second game, and after the mid-game records and help, on the heap the game has left."""
    if not os.path.isfile(TABLE):
        pytest.fail("tables/yahtzee.fdt is missing: `make test` builds it (make tables/yahtzee.fdt)")
    top = str(tmp_path / "board")
    path = board_heap.stage(top, True, runtime="cp")
    out = board_heap.run(top, path, HEAP_KB["cp", "mpy"], "cp", games=2, tight=True)
    assert out["status"] == "done" and out["errors"] == 0 and out["games"] == 2 and out["turns"] == 26 and out["has_coach"], out


@pytest.mark.parametrize("runtime", ["cp", "mp"])
def test_a_board_that_runs_out_of_memory_resets_and_its_next_boot_finishes_the_game(runtime, tmp_path):
    """The board's own answer to a MemoryError (fdfw.start: a reset, then the save resumes on a clean heap),
    through the proxy's boots: the drive's state and the board's flash (nvm or the save file) carry over."""
    if not os.path.isfile(TABLE):
        pytest.fail("tables/yahtzee.fdt is missing")
    top = str(tmp_path / "board")
    path = board_heap.stage(top, True, runtime=runtime)
    once = board_heap.run(top, path, HEAP_KB[runtime, "mpy"], runtime, oom=True)
    assert once["status"] == "reset" and once["resets"] == 1 and once["turns"] == 3, once
    out = board_heap.run(top, path, HEAP_KB[runtime, "mpy"], runtime, boots=2, oom=True)
    assert out["status"] == "done" and out["resets"] == 1 and out["watchdogs"] == 0 and out["errors"] == 1, out
    assert out["resumed"] == 1, out  # the second boot went on with the saved game, not a new one
    assert out["turns"] == 13 and out["visited"] == 2 and out["has_coach"] and len(out["totals"]) == 2, out


# The filled heap makes the first boot run out, not the heap's size: a margin keeps the resumed game's own
# fragmentation (issue 20) from adding a failure of its own there.
FILL_MARGIN_KB = 60


@pytest.mark.parametrize("runtime", ["cp", "mp"])
def test_a_game_that_really_runs_out_of_memory_resets_the_board_and_the_next_boot_resumes_it(runtime, tmp_path):
    """The real entry point (code.py / main.py) on the unix port, its heap filled at the human's 3rd turn (less
    than 3 KB left, in small pieces) so that the game's own next allocations fail: the guard reports, the
    board resets, and the next boot, on a fresh heap, resumes the saved game and finishes it."""
    if not os.path.isfile(TABLE):
        pytest.fail("tables/yahtzee.fdt is missing")
    top = str(tmp_path / "board")
    path = board_heap.stage(top, True, runtime=runtime)
    out = board_heap.run(top, path, HEAP_KB[runtime, "mpy"] + FILL_MARGIN_KB, runtime, boots=2, fill="once")
    assert out["status"] == "done" and out["fills"] == 1 and out["errors"] == 1, out  # a real MemoryError, caught
    assert out["resets"] == 1 and out["watchdogs"] == 0 and out["resumed"] == 1, out  # reset, then resumed
    assert out["games"] == 1 and out["turns"] == 13 and len(out["totals"]) == 2, out


def test_the_proxy_fails_when_the_heap_is_too_small(tmp_path):
    """The harness does catch running out of memory (a control for the test above)."""
    if not os.path.isfile(TABLE):
        pytest.fail("tables/yahtzee.fdt is missing")
    top = str(tmp_path / "board")
    path = board_heap.stage(top, True)
    out = board_heap.run(top, path, HEAP_KB["cp", "mpy"] // 2)
    assert out["status"] in ("MemoryError", "reset", "watchdog", "crashed"), out


# Many games in one process (issue #8 part 5): at the smallest heap from which one game (perfect CPU on the
# committed Yacht table vs the good CPU, lib/ compiled from .py) always finishes, found by a scan here (one
# game takes a fraction of a second; fragmentation makes pass/fail non-monotone, so every larger size in
# the range must pass too), 200 games in a row must all finish.
SCAN_KB = range(160, 330, 10)


def _many(games, heap_kb):
    import json
    import subprocess

    env = dict(os.environ, MICROPYPATH=os.path.join(ROOT, "lib"))
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    r = subprocess.run([exe, "-X", "heapsize=%dK" % heap_kb, os.path.join(ROOT, "tests", "firmware_fakes",
                        "many_games.py"), str(games), os.path.join(ROOT, "tests", "core", "data")],
                       capture_output=True, text=True, env=env, timeout=900)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    assert lines, r.stdout + r.stderr
    return json.loads(lines[-1])


def test_200_games_in_one_process_fit_the_heap_one_game_needs():
    ok = {kb: _many(1, kb)["games"] == 1 for kb in SCAN_KB}
    assert not ok[SCAN_KB[0]] and ok[SCAN_KB[-1]], ok  # the range brackets the need
    floor = SCAN_KB[-1]
    for kb in reversed(SCAN_KB):
        if not ok[kb]:
            break
        floor = kb
    out = _many(200, floor)
    assert out["games"] == 200 and out["memory_errors"] == 0, (floor, out)


def test_the_code_bench_imports_each_module_after_the_modules_it_imports_and_counts_what_each_holds(tmp_path):
    """tests/bench/code_heap.py's probe (README, "the code alone"): a module's import is charged for itself,
    not for the modules under it, which are imported first; imports inside functions are not followed."""
    import code_heap

    pkg = tmp_path / "lib" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "zbase.py").write_text("TABLE = bytearray(4000)\n")
    (pkg / "top.py").write_text("from pkg import zbase\n\n\ndef later():\n    import pkg.lazy\n")
    (pkg / "lazy.py").write_text("X = 1\n")
    assert code_heap.import_order({"pkg", "pkg.top", "pkg.zbase", "pkg.lazy"}, str(tmp_path)) == [
        "pkg", "pkg.lazy", "pkg.zbase", "pkg.top"]  # name order would put pkg.top before pkg.zbase
    mods = tmp_path / "peak_modules.txt"
    mods.write_text("\npkg.top pkg.zbase pkg\n")  # no stand-ins; the game's modules in sys.modules order
    held, names = code_heap.held(str(tmp_path), str(tmp_path / "lib"), str(mods), str(tmp_path))
    assert [m for m, _ in held] == ["pkg", "pkg.zbase", "pkg.top"]
    by = dict(held)
    assert 4000 <= by["pkg.zbase"] < 6000 and by["pkg.top"] < 2000, held  # the table is pkg.zbase's
    assert names["n"] >= 2 and names["chars"] > 0 and names["pools"] > 0, names  # TABLE, later, zbase, ...
