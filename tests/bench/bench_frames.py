"""Frame benchmark (issue 24): every screen's App.draw() incl. transfer, press-to-frame for a hold, the "New game"
pass split into its parts, and the game's passes sorted by the slow work they do (a slice, a save, the store's
rewrite, a CPU move; with or without a frame), estimated for a Pico on CircuitPython and on MicroPython, next to
the figures measured on the real runtimes (issue 24's table: CircuitPython 10.2.1 .mpy / MicroPython 1.28.0 on an
emulated Pico, whole two-player games through the buttons). `--after COMMIT`: that commit's tree in the "after"
column instead of this one (e.g. main before a branch).

Run `make bench-frames` (or `python tests/bench/bench_frames.py`). On the MicroPython unix port, with the real
libraries over the fakes of tests/firmware/fakes, the board's own loop (fdfw.loop.run) plays a scripted two-player
Yahtzee game through the buttons (menu moves, rolls, a hint a turn, holds, the picker, the scorecard, game over),
once on each display backend, and every frame is counted for what it really does:

  MicroPython  (fdfw.board_mp.PagedSSD1306): the Python and framebuf work of app.draw() (unix-port time, the
               frame drawn again unchanged, fastest of 5) x K_MP, + the bytes on the I2C bus at 400 kHz
               (9 bits a byte, each write's address byte counted) from a counting machine.I2C;
  CircuitPython (fdfw.ssd1306_cp.BitmapDisplay): the Python of app.draw() with bitmaptools and the sink (the
               displayio display before issue 34, the panel's busio.I2C since) replaced by stubs (unix-port
               time x K_CP), + the C calls (per call + per pixel written or blitted), + displayio's refresh
               where there is one (per pixel converted: the data bytes sent x 8; before issue 34, through the
               real adafruit_displayio_ssd1306), + the bytes on the bus, counted by the fake SSD1306.

Calibration: the same game is played on the code the issue measured (commit REF_COMMIT, from git) and on this
tree. K_MP is fitted on that code's MicroPython medians, K_CP is K_MP (the same VM on the same chip), and the
refresh cost per pixel is fitted on its CircuitPython medians (least squares on the relative error over the
seven screens); press-to-frame adds a latency L per
runtime (the idle slice and the debouncer before the pass that sees a press; fitted to the old code's median),
held fixed for this tree. Estimates, not tests: nothing here asserts a time.
"""
import os
import sys

IS_MPY = sys.implementation.name == "micropython"


def S(app):
    """The game's owner: the Session since issue 36, the App on the reference tree."""
    return getattr(app, "session", app)

REF_COMMIT = "8902cd7"  # main when issue 24 was measured
REF_IDLE_SLICE_MS = 20  # that code's idle slice (fdfw.power.SLICE_MS then): a press waited half of it on average
I2C_US_PER_BYTE = 22.5  # 400 kHz, 9 bits a byte
# issue 24, App.draw() incl. transfer, median ms: (CircuitPython, MicroPython); turn is the middle of 49-53 / 22-25
REF = (
    ("menu", 44.8, 19.5),
    ("turn", 51.0, 23.5),
    ("tumbling", 51.3, 24.0),
    ("hint", 83.6, 33.6),
    ("picker", 83.8, 35.7),
    ("scorecard", 103.7, 37.1),
    ("game over", 101.9, 41.1),
)
REF_PRESS = (123.0, 48.0)  # press -> end of the next frame, a hold, median ms
REF_PRESS_RANGE = ("92-159", "33-74")
REF_NEW_GAME = (2330.0, 2370.0)  # the pass that handles "New game", ms
REF_COACH_MEDIAN = 49.0  # loop passes while the coach works, MicroPython: median ms (the longest: 80-85 ms)
# assumed C costs (CircuitPython's shared-module on a 125 MHz RP2040): argument parsing and set-up per call, then a
# per-pixel get/set loop; Bitmap.fill is a word loop
C_CALL_US = 3.0
C_PIXEL_US = 0.3
C_FILL_US = 15.0
I2C_WRITE_US = 30.0  # the driver's Python per I2C write (window command or data write), both runtimes, x1
REPS = 5
ROUNDS = 2  # runs of each tree, taken in turn (the machine's load changes over minutes)
HEAP_MP = "1M"  # the port's heap for the timed passes: near a board's (64-bit objects are 1.6-1.7x larger;
# the bench's records live there too), so a collection costs about what it does on a Pico, not a sweep of megabytes
HEAP_CP = "2M"  # the displayio fakes (Python per pixel) need more; only the frames' counts come from that run
DEBUG = False


# -- on the host ------------------------------------------------------------------------------------------------

def _archive(root, ref, into):
    """lib, firmware and the fakes of commit ref into a folder (the fakes were tests/firmware_fakes before
    the tests were laid out like the code)."""
    import subprocess

    for fakes in ("tests/firmware/fakes", "tests/firmware_fakes"):
        r = subprocess.run("git -C %s archive %s lib firmware %s | tar -x -C %s" % (root, ref, fakes, into),
                           shell=True, capture_output=True, text=True)
        if r.returncode == 0:
            return r
    return r


def host_main():
    import json
    import shutil
    import subprocess
    import tempfile
    from importlib.util import find_spec

    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    tmp = tempfile.mkdtemp()
    try:
        deps = os.path.join(tmp, "deps")
        os.mkdir(deps)
        shutil.copy(find_spec("adafruit_displayio_ssd1306").origin, deps)  # found, not imported (Blinka)
        trees = []
        old = os.path.join(tmp, "before")
        os.mkdir(old)
        r = _archive(root, REF_COMMIT, old)
        if r.returncode == 0:
            trees.append(("before", old))
        else:
            print("(no git checkout of %s: %s; this tree only, with the default constants)" % (REF_COMMIT, r.stderr.strip()))
        after = root
        if "--after" in sys.argv:  # another commit's tree in the "after" column (e.g. main, before a branch)
            after = os.path.join(tmp, "after")
            os.mkdir(after)
            ref = sys.argv[sys.argv.index("--after") + 1]
            r = _archive(root, ref, after)
            if r.returncode != 0:
                print("no git checkout of %s: %s" % (ref, r.stderr.strip()))
                return 1
            print("(the \"after\" column is %s)" % ref)
        trees.append(("after", after))
        data = {}
        def run(tree, stack, heap):
            fakes = os.path.join(tree, "tests", "firmware", "fakes")
            if not os.path.isdir(fakes):
                fakes = os.path.join(tree, "tests", "firmware_fakes")  # a commit before the tests' rooms
            path = [os.path.join(tree, "lib"), os.path.join(fakes, "cp"), fakes, os.path.join(fakes, "mp"),
                    os.path.join(tree, "firmware"), os.path.join(tree, "firmware", "vendor"), deps]
            env = dict(os.environ, MICROPYPATH=":".join(path + [".frozen"]))
            r = subprocess.run([exe, "-X", "heapsize=" + heap, os.path.abspath(__file__), os.path.join(root, "tables"),
                                stack], env=env, capture_output=True, text=True, timeout=3600)
            if r.returncode != 0:
                print(r.stdout[-2000:], r.stderr[-3000:])
                raise SystemExit(1)
            d = {"mp": [], "cp": [], "holds": [], "coach": [], "new_game": [0, -1, {}]}
            for line in r.stdout.splitlines():
                key, rec = json.loads(line)
                if key == "new_game":
                    d[key] = rec
                else:
                    d[key].append(rec)
            return d

        for rnd in range(ROUNDS):  # the trees in turn, ROUNDS times: each time the fastest of the rounds
            for name, tree in trees:
                for stack, heap in (("mp", HEAP_MP), ("cp", HEAP_CP)):
                    d = run(tree, stack, heap)
                    if name not in data:
                        data[name] = {"mp": [], "cp": [], "holds": [], "coach": [], "new_game": [0, -1, {}]}
                    have = data[name]
                    keys = ("mp", "holds", "coach", "new_game") if stack == "mp" else ("cp",)
                    for key in keys:
                        if rnd == 0:
                            have[key] = d[key]
                        elif key == "new_game":
                            if d[key][0] < have[key][0]:
                                have[key] = d[key]  # the faster run's pass, with its parts
                        else:
                            for a, b in zip(have[key], d[key]):
                                a[0 if key in ("holds", "coach") else 1] = min(a[0 if key in ("holds", "coach") else 1],
                                                                            b[0 if key in ("holds", "coach") else 1])
        for name, d in data.items():
            if len(d["mp"]) != len(d["cp"]):
                print("the two stacks played different games (%d and %d frames)" % (len(d["mp"]), len(d["cp"])))
                return 1
        report(data)
        return 0
    finally:
        shutil.rmtree(tmp)


def median(v):
    v = sorted(v)
    n = len(v)
    if not n:
        return None
    return v[n // 2] if n & 1 else (v[n // 2 - 1] + v[n // 2]) / 2


def mp_draw_ms(d, k):
    """A MicroPython frame: [cat, py_us, bus_bytes, writes]."""
    return (k * d[1] + I2C_US_PER_BYTE * d[2] + I2C_WRITE_US * d[3]) / 1000


def cp_parts(d):
    """A CircuitPython frame [cat, py_us, calls, pixels, fills, refreshes, data_bytes, bus_bytes, writes]:
    (Python us, refreshed pixels, the rest in us). data_bytes: the bytes displayio converted (0 where the
    frame is sent from the Bitmap's memory, fdfw.ssd1306_cp since issue 34)."""
    rest = (C_CALL_US * (d[2] + d[5]) + C_PIXEL_US * d[3] + C_FILL_US * d[4] + I2C_US_PER_BYTE * d[7]
            + I2C_WRITE_US * d[8])
    return d[1], 8 * d[6], rest


def cp_draw_ms(d, k, c_ref):
    py, px, rest = cp_parts(d)
    return (k * py + c_ref * px + rest) / 1000


def by_cat(draws, f):
    out = {}
    for d in draws:
        out.setdefault(d[0], []).append(f(d))
    return dict((c, median(v)) for c, v in out.items())


def fit_mp(draws):
    best = None
    for k in range(50, 601):
        m = by_cat(draws, lambda d: mp_draw_ms(d, k))
        err = sum(((m[c] - mp) / mp) ** 2 for c, cp, mp in REF if c in m)
        if best is None or err < best[0]:
            best = (err, k)
    return best[1]


def fit_cp(draws, k_mp):
    """C_REF 0-20 us, with K_CP = K_MP: CircuitPython runs MicroPython's VM on the same chip. (Fitting K_CP too,
    K_MP to 3 x K_MP, let the split between the Python and the refresh swing from run to run, K_CP 186-404.)"""
    parts = [(d[0],) + cp_parts(d) for d in draws]
    best = None
    k = k_mp
    for c10 in range(0, 201, 2):
        c = c10 / 10
        m = by_cat(parts, lambda p: (k * p[1] + c * p[2] + p[3]) / 1000)
        err = sum(((m[cat] - cp) / cp) ** 2 for cat, cp, mp in REF if cat in m)
        if best is None or err < best[0]:
            best = (err, k, c)
    return best[1], best[2]


def report(data):
    before = data.get("before")
    after = data["after"]
    if before is not None:
        k_mp = fit_mp(before["mp"])
        k_cp, c_ref = fit_cp(before["cp"], k_mp)
    else:
        k_mp, k_cp, c_ref = 185, 185, 1.0
    print("Frames on a Pico, estimated (ms) next to issue 24's real-runtime figures (emulated Pico: CircuitPython 10.2.1")
    print(".mpy, MicroPython 1.28.0), medians over a scripted two-player Yahtzee game through the buttons.")
    print("Method: MicroPython = unix-port time x K_MP + I2C bytes x %.1f us + %d us a write; CircuitPython = Python"
          % (I2C_US_PER_BYTE, I2C_WRITE_US))
    print("  (bitmaptools and the display or its bus stubbed) x K_CP + %.0f us a C call + %.1f us a pixel drawn"
          " + %.0f us a Bitmap.fill" % (C_CALL_US, C_PIXEL_US, C_FILL_US))
    print("  + C_REF a pixel displayio refreshed (before issue 34) + I2C bytes. Fitted on the code the issue measured"
          " (%s)%s:"
          % (REF_COMMIT, "" if before is not None else " -- not available, defaults"))
    print("  K_MP = %d, K_CP = %d, C_REF = %.1f us (the port-to-Pico factor is 150-214 by perf_bench)." % (k_mp, k_cp, c_ref))
    print("")
    cols = (("before", before), ("after", after))
    est = {}
    for name, d in cols:
        if d is None:
            continue
        est[name] = (by_cat(d["cp"], lambda x: cp_draw_ms(x, k_cp, c_ref)), by_cat(d["mp"], lambda x: mp_draw_ms(x, k_mp)),
                     by_cat(d["cp"], lambda x: x[7]), by_cat(d["mp"], lambda x: x[2]),
                     by_cat(d["cp"], lambda x: 1), by_cat(d["mp"], lambda x: 1))
    count = {}
    for d in after["mp"]:
        count[d[0]] = count.get(d[0], 0) + 1
    print("App.draw() incl. transfer, median ms (bytes on the bus, median)   goal: <= 50 CP, <= 25 MP")
    print("%-10s %3s | %6s %15s %15s | %6s %15s %15s" % ("screen", "n", "CP ref", "CP before", "CP after", "MP ref",
                                                         "MP before", "MP after"))

    def cell(name, i, cat):
        e = est.get(name)
        if e is None or cat not in e[i]:
            return "%15s" % "-"
        return "%6.1f (%5d B)" % (e[i][cat], e[i + 2][cat])

    for cat, cp, mp in REF:
        print("%-10s %3d | %6.1f %s %s | %6.1f %s %s" % (cat, count.get(cat, 0), cp, cell("before", 0, cat),
                                                         cell("after", 0, cat), mp, cell("before", 1, cat),
                                                         cell("after", 1, cat)))
    print("")
    print("where a frame's time goes, this tree (medians, ms): Python | C calls | refresh | bus")
    for cat, cp, mp in REF:
        cpd = [x for x in after["cp"] if x[0] == cat]
        mpd = [x for x in after["mp"] if x[0] == cat]
        if not cpd:
            continue
        py = median(k_cp * x[1] / 1000 for x in cpd)
        cc = median((C_CALL_US * (x[2] + x[5]) + C_PIXEL_US * x[3] + C_FILL_US * x[4]) / 1000 for x in cpd)
        rf = median(c_ref * 8 * x[6] / 1000 for x in cpd)
        bus = median((I2C_US_PER_BYTE * x[7] + I2C_WRITE_US * x[8]) / 1000 for x in cpd)
        mpy = median(k_mp * x[1] / 1000 for x in mpd)
        mbus = median((I2C_US_PER_BYTE * x[2] + I2C_WRITE_US * x[3]) / 1000 for x in mpd)
        print("  %-10s CP %5.1f | %4.1f | %5.1f | %4.1f    MP %5.1f | %4.1f" % (cat, py, cc, rf, bus, mpy, mbus))
    # press -> frame: latency L (fitted) + the pass that handles the press (press + tick + its frame)
    print("")
    lat = [0.0, 0.0]
    if before is not None:
        for r in range(2):
            lat[r] = REF_PRESS[r] - median(pass_ms(before, p, r, k_mp, k_cp, c_ref) for p in before["holds"])
    # this tree's idle slices while someone plays (fivedice.loop.QUICK_MS): a press waits half a slice on average
    from fivedice.loop import QUICK_MS

    quicker = (REF_IDLE_SLICE_MS - QUICK_MS) / 2
    print("press -> end of the frame, a hold: median (worst) ms = L + the pass that sees the press; L = %.0f ms CP, "
          "%.0f ms MP for the code before, %.1f ms less after" % (lat[0], lat[1], quicker))
    print("  (L: the idle slice and debouncer before that pass, fitted to the old code's median; after: its idle")
    print("  slice is %d ms while someone plays, not %d, and a press waits half a slice on average)"
          % (QUICK_MS, REF_IDLE_SLICE_MS))
    for r, rt in ((0, "CircuitPython"), (1, "MicroPython")):
        line = "  %-13s ref %5.0f (%s)" % (rt, REF_PRESS[r], REF_PRESS_RANGE[r])
        for name, d in cols:
            if d is None:
                continue
            wait = lat[r] - (quicker if name == "after" else 0)
            v = [wait + pass_ms(d, p, r, k_mp, k_cp, c_ref) for p in d["holds"]]
            line += " | %s %5.1f (%5.1f)" % (name, median(v), max(v))
        print(line)
    print("")
    new_game(cols, k_mp, k_cp, c_ref)
    print("")
    by_work(cols, k_mp, k_cp, c_ref)


# the New game pass's parts (TIMED): the part, what it is
PARTS = (("game", "the game (fivedice.game.Game)"), ("table", "the strategy table opened"),
         ("coach", "the coaches (before: with the final-roll groups)"), ("seats", "the rest of the seats (meters, CPUs)"),
         ("records", "the records' best to beat (solo)"), ("rewrite", "the store's rewrite (nvm log only)"),
         ("save", "the save (the nvm log's Python)"), ("slice", "a slice of the turn solve"))


def new_game(cols, k_mp, k_cp, c_ref):
    cols = [c for c in cols if c[1] is not None]
    print("the pass that handles \"New game\" (ms; press + tick + frame), by part     goal: <= 300 to the first frame")
    print("  %-50s | %7s %7s | %7s %7s" % ("part (its Python: unix-port time x K)", "CP bef", "CP aft", "MP bef",
                                           "MP aft"))
    rows = []
    for key, what in PARTS:
        v = []
        for name, d in cols:
            us = d["new_game"][2].get(key, 0) if d is not None else 0
            if key == "seats":  # the table and the coaches are timed inside the seats
                us -= d["new_game"][2].get("table", 0) + d["new_game"][2].get("coach", 0)
            v.append(us)
        rows.append((what, v))
    rest = []
    for name, d in cols:
        p = d["new_game"]
        top = sum(us for key, us in p[2].items() if key not in ("table", "coach"))
        rest.append(p[0] - top)
    rows.append(("the rest (the screens, the tick)", rest))
    for what, v in rows:
        print("  %-50s | %7.1f %7.1f | %7.1f %7.1f" % (what, k_cp * v[0] / 1000, k_cp * v[-1] / 1000, k_mp * v[0] / 1000,
                                                       k_mp * v[-1] / 1000))
    fr = []
    for name, d in cols:
        i = d["new_game"][1]
        fr.append((cp_draw_ms(d["cp"][i], k_cp, c_ref), mp_draw_ms(d["mp"][i], k_mp)) if i >= 0 else (0, 0))
    print("  %-50s | %7.1f %7.1f | %7.1f %7.1f" % ("the frame (App.draw() incl. transfer)", fr[0][0], fr[-1][0],
                                                   fr[0][1], fr[-1][1]))
    tot = [[pass_ms(d, d["new_game"], r, k_mp, k_cp, c_ref) for name, d in cols] for r in (0, 1)]
    print("  %-50s | %7.1f %7.1f | %7.1f %7.1f" % ("the pass", tot[0][0], tot[0][-1], tot[1][0], tot[1][-1]))
    print("  %-50s | %7.0f %7s | %7.0f %7s" % ("issue 24's figure (the real runtimes, the code before)", REF_NEW_GAME[0],
                                               "", REF_NEW_GAME[1], ""))
    print("  On CircuitPython, when the nvm log is due a rewrite, add the flash: a sector erase and 16 page programs,")
    print("  45 + 6.4 ms typical, 400 + 48 ms at worst (W25Q16JV datasheet), in the pass shown (before: the press's).")


def _work_label(p):
    names = [what for bit, what in WORK if p[2] & bit]
    if not names:
        return "a frame, no slow work" if p[1] >= 0 else "no slow work, no frame"
    return " + ".join(names) + (" and a frame" if p[1] >= 0 else "")


def by_work(cols, k_mp, k_cp, c_ref):
    cols = [c for c in cols if c[1] is not None]
    print("loop passes while a turn is solved or with slow work, by what they do: count, longest (90th percentile), ms")
    print("  goal: none over 50; issue 24 (MicroPython 1.28.0, the code before, passes while the coach works): median")
    print("  %.0f, longest 80-85. Single runs on a shared machine: a longest can be another process's" % REF_COACH_MEDIAN)
    labels = []
    for name, d in cols:
        for p in d["coach"]:
            lb = _work_label(p)
            if lb not in labels:
                labels.append(lb)
    labels.sort()
    print("  %-34s | %-19s %-19s | %-19s %-19s" % ("the pass", "CP before", "CP after", "MP before", "MP after"))

    def cell(d, lb, r):
        v = sorted(pass_ms(d, p, r, k_mp, k_cp, c_ref) for p in d["coach"] if _work_label(p) == lb)
        if not v:
            return "%-19s" % "-"
        return "%4d %6.1f (%5.1f)" % (len(v), v[-1], v[len(v) * 9 // 10])

    for lb in labels:
        print("  %-34s | %s %s | %s %s" % (lb, cell(cols[0][1], lb, 0), cell(cols[-1][1], lb, 0), cell(cols[0][1], lb, 1),
                                          cell(cols[-1][1], lb, 1)))


def pass_ms(d, p, r, k_mp, k_cp, c_ref):
    """A pass [us of press + tick on the MicroPython stack, frame index or -1, ...] on runtime r (0 CP, 1 MP)."""
    us, i = p[0], p[1]
    if r == 0:
        ms = k_cp * us / 1000
        if i >= 0:
            ms += cp_draw_ms(d["cp"][i], k_cp, c_ref)
    else:
        ms = k_mp * us / 1000
        if i >= 0:
            ms += mp_draw_ms(d["mp"][i], k_mp)
    return ms


# -- on the MicroPython unix port --------------------------------------------------------------------------------

# the parts of the "New game" pass and the slow work of a pass, timed where the app (or its fivedice.seats.Seats)
# has methods of these names (8902cd7's app, or this tree's): (attribute, part, work bit)
TIMED = (("_compact", "rewrite", 64), ("_open_table", "table", 0), ("open_table", "table", 0),
         ("_table_coach_for", "coach", 0), ("table_coach", "coach", 0), ("_good_player", "coach", 0),
         ("_seat_players", "seats", 0), ("seat_game", "seats", 0), ("_best_to_beat", "records", 0),
         ("_save", "save", 16), ("_think", "slice", 8), ("_cpu_step", "cpu move", 32))
WORK = ((8, "a slice"), (16, "a save"), (32, "a CPU move"), (64, "the store's rewrite"))


def mp_main(tables, which):
    import json
    from time import ticks_diff, ticks_us

    import bitmaptools
    import board
    import busio
    import displayio
    import fakehw
    from fdfw import loop

    try:
        try:
            from fdfw import ssd1306_cp as board_cp  # the SSD1306's own module (the MacroPad split)
        except ImportError:
            from fdfw import board_cp
        from fdfw import board_cp as glue  # this tree: the drawing (BitmapDisplay), shared with the SH1106

        draw_cp = glue if glue is not board_cp and hasattr(glue, "BitmapDisplay") else board_cp
        from fdfw.board_mp import PagedSSD1306
        from fdfw.store.nvm_cp import NvmStore
    except ImportError:  # the code issue 24 measured (REF_COMMIT): the same modules under their old names
        from fdfw import display_cp as board_cp
        draw_cp = board_cp
        from fdfw.display_mp import PagedSSD1306
        from fdfw.nvm_store import NvmStore
    from fivedice import app as A
    from fivedice.rng import Dice, SeededBytes

    class CountingI2C:
        def __init__(self):
            self.bytes = 0
            self.writes = 0

        def writeto(self, addr, buf, stop=True):
            self.bytes += len(buf) + 1
            self.writes += 1

        def writevto(self, addr, vector, stop=True):
            self.bytes += 1
            self.writes += 1
            for b in vector:
                self.bytes += len(b)

    def cp_display():
        fakehw.reset()
        oled = fakehw.FakeSSD1306()
        fakehw.devices[0x3C] = oled
        displayio.release_displays()
        if hasattr(board_cp, "SSD1306"):  # this tree: the Bitmap sent over busio.I2C
            i2c = busio.I2C(board.GP5, board.GP4)
            if draw_cp is not board_cp:  # this tree: the SSD1306 is a BitmapDisplay
                return board_cp.SSD1306(i2c, 0x3C, displayio), oled
            return board_cp.BitmapDisplay(board_cp.SSD1306(i2c, 0x3C), displayio), oled
        import adafruit_displayio_ssd1306  # the code before: displayio's refresh through the Adafruit driver
        import i2cdisplaybus

        bus = i2cdisplaybus.I2CDisplayBus(busio.I2C(board.GP5, board.GP4), device_address=0x3C)
        fb = board_cp.BitmapDisplay(adafruit_displayio_ssd1306.SSD1306(bus, width=128, height=64,
                                                                          auto_refresh=False))
        return fb, oled

    # stand-ins for the C primitives while timing the Python side of the CircuitPython backend
    def stub_fill_region(bitmap, x1, y1, x2, y2, value):
        pass

    def stub_blit(dest, source, x, y, *, x1=0, y1=0, x2=None, y2=None, skip_source_index=None,
                  skip_dest_index=None):
        pass

    class StubBitmap:
        def fill(self, c):
            pass

        def __setitem__(self, i, c):
            pass

        def __getitem__(self, i):
            return 0

    class StubDisplay:
        def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
            return True

    class StubI2C:
        def try_lock(self):
            return True

        def unlock(self):
            pass

        def writeto(self, address, buffer, *, start=0, end=None):
            pass

    fills = [0]
    real_fill = displayio.Bitmap.fill

    def counting_fill(self, c):
        fills[0] += 1
        real_fill(self, c)

    from array import array

    _STATE = ("shown", "now", "whole",  # the screen's
              "buffer", "shadow", "_a", "_r", "_n", "_old_n", "_old_ok", "_over", "_eager", "_dirty", "_all",
              "marks", "_span", "blocks_sent", "cols_sent", "bytes_sent", "lo", "hi", "drawn", "ops_run", "_dsize", "_dcol", "_dice", "_tumble")
    # (the dice sprites too: made at a die's first draw, which must not be a stubbed one)

    def snapshot(fb, screen):
        """What a draw changes in a backend (a recorded frame, the frame buffer and the panel's copy) and in the
        screen (what it remembers the panel shows), to draw the same frame again from the same start."""
        snap = []
        for obj in (fb, getattr(fb, "panel", None), screen):
            if obj is None:
                continue
            for name in _STATE:
                if name in ("buffer", "blocks_sent") and obj is fb and hasattr(fb, "panel"):
                    continue  # properties of the panel's
                if hasattr(obj, name):
                    v = getattr(obj, name)
                    if isinstance(v, (bytearray, list)):
                        v = type(v)(v)
                    elif isinstance(v, array):
                        v = (list(v),)  # restored item by item
                    snap.append((obj, name, v))
        return snap

    def restore(snap):
        for obj, name, v in snap:
            cur = getattr(obj, name)
            if isinstance(v, (bytearray, list)):
                cur[:] = v
            elif isinstance(v, tuple):
                b = v[0]
                for i in range(len(b)):
                    cur[i] = b[i]
            else:
                setattr(obj, name, v)

    def best_us(f, snap):
        """The fastest of REPS runs of f, each from the state in snap (the machine is shared: the fastest
        is the least disturbed by other processes)."""
        best = None
        for _ in range(REPS):
            restore(snap)
            t0 = ticks_us()
            f()
            dt = ticks_diff(ticks_us(), t0)
            if best is None or dt < best:
                best = dt
        restore(snap)
        return best

    def category(app, hinted):
        m = app.mode
        if m == A.M_MENU:
            return "menu"
        if m == A.M_TURN:
            if S(app).tumbling:
                return "tumbling"
            return "hint" if hinted else "turn"
        if m == A.M_PICK:
            return "picker"
        if m == A.M_CARD:
            return "scorecard"
        if m == A.M_OVER:
            return "game over"
        return "other"

    def script(app, st):
        """The buttons, one mask a loop pass (0: none): a human two-player game with hints."""
        def press(b):
            st["last"] = b
            if DEBUG:
                print("press", b, "mode", app.mode, "rolls", S(app).game.rolls if S(app).game else -1, "think", S(app).thinking,
                      "tumbling", S(app).tumbling, "refusal", app.last_refusal)
            return 1 << b

        def wait(cond, most=2000):
            n = 0
            while cond() and n < most:
                n += 1
                yield 0

        for b in (A.B_DOWN, A.B_DOWN, A.B_UP, A.B_UP, A.B_DOWN, A.B_UP):
            yield press(b)
            yield 0
        app.screen.cursor = 0  # "New game" (no game to resume)
        st["new_game"] = True
        yield press(A.B_OK)
        turn = 0
        while S(app).game is not None and not S(app).game.over:
            yield from wait(lambda: S(app).thinking)
            yield press(A.B_ROLL)
            yield from wait(lambda: S(app).tumbling)
            for r in range(2):
                yield press(A.B_UP)  # the hint
                yield 0
                if S(app).hint_kind != 1:
                    break
                keep = S(app).hint_value
                for i in range(5):
                    if ((keep >> i) & 1) != ((S(app).game.held >> i) & 1):
                        st["hold"] = True
                        yield press(A.B_HOLD1 + i)
                        yield 0
                yield press(A.B_ROLL)
                yield from wait(lambda: S(app).tumbling)
            if turn % 3 == 1:
                yield press(A.B_DOWN)  # the scorecard
                for b in (A.B_DOWN, A.B_DOWN, A.B_DOWN, A.B_UP, A.B_UP):
                    yield press(b)
                    yield 0
                yield press(A.B_BACK)
                yield 0
            yield press(A.B_OK)  # the picker
            yield 0
            for b in (A.B_DOWN, A.B_DOWN, A.B_UP, A.B_UP):
                yield press(b)
                yield 0
            yield press(A.B_OK)  # score the best box
            yield 0
            turn += 1
        for _ in range(5):  # game over, on screen
            yield 0

    def play(stack):
        if stack == "mp":
            i2c = CountingI2C()
            fb = PagedSSD1306(128, 64, i2c)
            oled = None
        else:
            fb, oled = cp_display()
        from fivedice import game as G

        class Store:
            """CircuitPython's store (the nvm log, here over a bytearray: its Python, not the flash), its saves
            only (a store with the records would end the game at the initials)."""

            def __init__(self):
                self.log = NvmStore(bytearray(b"\xff" * 4096))
                self.read = self.log.read
                self.write = self.log.write
                self.compact_due = self.log.compact_due
                self.compact = self.log.compact

        app = A.App(fb, dice=Dice(SeededBytes(7)), tables=tables, cpu_step_ms=100, store=Store())
        if hasattr(app, "settings"):
            app.settings.rules_i = 0
            app.settings.players = 2
            app.settings.seats[0] = 0
            app.settings.seats[1] = 0
        else:  # the code issue 24 measured (REF_COMMIT): the menu's values were the app's own
            app.rules_i = 0
            app.nplayers = 2
            app.kinds[0] = 0
            app.kinds[1] = 0
        ndraws = [0]  # frames printed so far (one JSON line each, as they come: the heap keeps no list of them)
        passes = []  # [press + tick us, frame index or -1, flags]
        cur = [0, -1, 0]
        st = {"last": -1, "new_game": False, "hold": False}
        real_press = app.press
        real_tick = app.tick
        real_draw = app.draw
        parts = {}  # this pass's timed parts (TIMED), us
        work = [0]  # this pass's slow work (TIMED's bits)

        def timed(obj, name, part, bit):
            real = getattr(obj, name, None)
            if real is None:
                return

            def f(*a):
                p, b = part, bit
                if name == "_save" and S(app).save_due == 2:  # app._REWRITE: this _save is the store's rewrite
                    p, b = "rewrite", 64
                t0 = ticks_us()
                r = real(*a)
                parts[p] = parts.get(p, 0) + ticks_diff(ticks_us(), t0)
                work[0] |= b
                return r

            setattr(obj, name, f)

        seats = getattr(app, "seats", None)
        for name, part, bit in TIMED:
            timed(app, name, part, bit)
            if seats is not None:
                timed(seats, name, part, bit)
        timed(G, "Game", "game", 0)  # S(app).new_game's _game.Game(...)
        tc = getattr(seats if seats is not None else app, "_table_coach", None)
        if tc is not None:
            timed(tc, "warm", "slice", 8)  # the menu's final-roll groups (Coach.warm, this tree)

        def press(b, now):
            cur[2] |= 1 if S(app).thinking else 0
            t0 = ticks_us()
            r = real_press(b, now)
            cur[0] += ticks_diff(ticks_us(), t0)
            return r

        def tick(now):
            if S(app).thinking:
                cur[2] |= 1
            t0 = ticks_us()
            r = real_tick(now)
            cur[0] += ticks_diff(ticks_us(), t0)
            return r

        def draw():
            hinted = st["last"] == A.B_UP and app.mode == A.M_TURN and S(app).hint_kind != 0
            cat = category(app, hinted)
            if stack == "mp":
                snap = snapshot(fb, app.screen)
                b0, w0 = i2c.bytes, i2c.writes
                py = best_us(real_draw, snap)  # the same frame from the same start, timed
                i2c.bytes, i2c.writes = b0, w0
                real_draw()
                print(json.dumps([stack, [cat, py, i2c.bytes - b0, i2c.writes - w0]]))
            else:
                snap = snapshot(fb, app.screen)
                tgt = getattr(fb, "_t", fb)  # the object holding the back buffer
                # the sink stubbed: displayio's display (the code before) or the panel's busio.I2C (this tree)
                panel = getattr(fb, "panel", fb)  # this tree: the display is the panel
                sink = (panel, "_i2c", StubI2C()) if hasattr(panel, "_i2c") else (fb, "display", StubDisplay())
                # (_blit: a tree that still blits its glyphs)
                saved = (draw_cp._fill_region, getattr(draw_cp, "_blit", None), getattr(sink[0], sink[1]),
                         tgt.back)
                draw_cp._fill_region = stub_fill_region
                if saved[1] is not None:
                    draw_cp._blit = stub_blit
                tgt.back = StubBitmap()
                setattr(sink[0], sink[1], sink[2])
                try:
                    py = best_us(real_draw, snap)  # the Python side, the C calls stubbed
                finally:
                    draw_cp._fill_region = saved[0]
                    if saved[1] is not None:
                        draw_cp._blit = saved[1]
                    real_sink, tgt.back = saved[2:]
                    setattr(sink[0], sink[1], real_sink)
                bitmaptools.reset_counts()
                fills[0] = 0
                del oled.commands[:]  # the fake panel's command log: not kept over a game
                bus0, data0, w0 = oled.bus_bytes, oled.data_bytes, oled.writes
                disp = getattr(fb, "display", None)  # displayio's (the code before): it converts each byte sent
                ref0 = disp.refreshes if disp is not None else 0
                displayio.Bitmap.fill = counting_fill
                real_draw()
                displayio.Bitmap.fill = real_fill
                calls = bitmaptools.calls["fill_region"] + bitmaptools.calls["blit"] + fills[0]
                converted = oled.data_bytes - data0 if disp is not None else 0
                refreshes = disp.refreshes - ref0 if disp is not None else 0
                print(json.dumps([stack, [cat, py, calls, bitmaptools.pixels[0], fills[0], refreshes, converted,
                                          oled.bus_bytes - bus0, oled.writes - w0]]))
            cur[1] = ndraws[0]
            ndraws[0] += 1
            del snap

        app.press = press
        app.tick = tick
        app.draw = draw
        gen = script(app, st)
        done = [False]

        class Buttons:
            def poll(self):
                cur[0] = 0
                cur[1] = -1
                cur[2] = 0
                parts.clear()
                work[0] = 0
                st["hold"] = False
                st["new_game"] = False
                try:
                    return next(gen)
                except StopIteration:
                    done[0] = True
                    return 0

            def down(self):
                return 0

            def wait_ms(self):
                return 0

        clock = [0]

        def ticks_ms():
            clock[0] += 10
            return clock[0]

        def on_iter(i, now):
            flags = cur[2] | (2 if st["hold"] else 0) | (4 if st["new_game"] else 0) | work[0]
            if flags & 4:
                print(json.dumps(["new_game", [cur[0], cur[1], parts]]))
            elif flags:
                passes.append([cur[0], cur[1], flags])
            return done[0]

        if hasattr(loop, "Loop"):
            lp = loop.Loop(app, Buttons(), None, ticks_ms)
            app.draw()
            for i in range(1, 200001):
                if on_iter(i, lp.step()):
                    break
        else:  # REF_COMMIT's loop: run() with its test hooks
            loop.run(app, Buttons(), None, ticks_ms, max_iters=200000, on_iter=on_iter)
        return app, passes

    for stack in (which,):  # one JSON line a record: [key, record]
        app, passes = play(stack)
        if stack == "mp":
            assert S(app).game is not None and S(app).game.over, "the scripted game did not finish (mode %d, turn %s)" % (
                app.mode, None if S(app).game is None else S(app).game.turn)
            for p in passes:
                if p[2] & 2:
                    print(json.dumps(["holds", p[:2]]))
                else:  # the coach at work (a turn solved, the groups built) or a pass with slow work
                    print(json.dumps(["coach", p]))
    return 0


if __name__ == "__main__":
    sys.exit(mp_main(sys.argv[1], sys.argv[2]) if IS_MPY else host_main())
