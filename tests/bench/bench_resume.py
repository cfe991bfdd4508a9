"""How long a boot takes to its first frame, fresh and resuming a saved game (issue #20 item 4).

    python tests/bench/bench_resume.py [--runs N]
Compiles lib/ with mpy-cross (as the deploys ship it), then in fresh MicroPython unix-port processes times,
from the first line of the probe to the end of the first App.draw(): importing fivedice.app, building the
App (which reads the save: none, or a two-player Yahtzee game against the perfect CPU three turns in, with
the table) and its first tick and frame. Each part the fastest of N runs; x 185 (150-214) estimates an RP2040.
The board's own start-up (profile, drivers, display) comes on top of both and is the same for both:
the difference is what resuming costs.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)
RP2040 = (150, 185, 214)  # unix-port time x this: the project's rule

PROBE = r'''
import time
t0 = time.ticks_us()
import sys
import framebuf


class Display(framebuf.FrameBuffer):
    def __init__(self):
        self.buf = bytearray(1024)
        super().__init__(self.buf, 128, 64, framebuf.MONO_VLSB)

    def show(self):
        pass


class Store:
    def __init__(self, data):
        self.data = data

    def read(self):
        return self.data

    def write(self, b):
        self.data = bytes(b)


data = None
if sys.argv[1] == "resume":
    with open(sys.argv[2], "rb") as f:
        data = f.read()
t1 = time.ticks_us()
from fivedice import app as A
t2 = time.ticks_us()
app = A.App(Display(), store=Store(data), tables=sys.argv[3])
t3 = time.ticks_us()
app.tick(0)
app.draw()
t4 = time.ticks_us()
if sys.argv[1] == "make":  # play into a game (human vs perfect CPU, three turns) and keep its save
    from fivedice.rng import ScriptedFaces
    app.session.dice = ScriptedFaces(bytes(((i * 7) % 6) + 1 for i in range(3000)))
    app.settings.seats[1] = 3
    app.session.new_game()
    now = 0
    while app.session.game.turn < 6:
        now += 20
        g = app.session.game
        if app.mode == A.M_TURN and g.player == 0 and not app.session.tumbling and not app.session.thinking:
            app.press(A.B_ROLL if g.rolls == 0 else A.B_OK, now)
        elif app.mode == A.M_PICK:
            app.press(A.B_OK, now)
        app.tick(now)
        app.draw()
    app.press(A.B_ROLL, now)
    for i in range(40):
        app.tick(now + 20 * i)
    app.session._save()
    with open(sys.argv[2], "wb") as f:
        f.write(app.store.data)
print("T", time.ticks_diff(t4, t0) - time.ticks_diff(t1, t0), time.ticks_diff(t2, t1), time.ticks_diff(t3, t2),
      time.ticks_diff(t4, t3), 1 if app.session.game is not None else 0)
'''


def compile_lib(top):
    """lib/ as .mpy under top/lib, compiled as the deploys compile it (firmware/deploy.py's compile_mp)."""
    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    try:
        import deploy
    finally:
        sys.path.pop(0)
    lib = os.path.join(top, "lib")
    shutil.copytree(os.path.join(ROOT, "lib"), lib)
    for d, _, names in os.walk(lib):
        for n in names:
            if n.endswith(".py"):
                p = os.path.join(d, n)
                deploy.compile_mp(p, p[:-3] + ".mpy", deploy.board_name("lib/" + os.path.relpath(p, lib)))
                os.remove(p)
    return lib


def probe(top, lib, kind, save):
    r = subprocess.run([os.path.join(BIN, "micropython"), os.path.join(top, "probe.py"), kind, save,
                        os.path.join(ROOT, "tables")],
                       env=dict(os.environ, MICROPYPATH=lib), capture_output=True, text=True, timeout=600)
    line = [ln for ln in r.stdout.splitlines() if ln.startswith("T ")]
    if r.returncode or not line:
        raise SystemExit("probe %s failed: %s" % (kind, (r.stdout + r.stderr)[-600:]))
    return [int(x) for x in line[0].split()[1:]]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args(argv)
    if not os.path.isfile(os.path.join(ROOT, "tables", "yahtzee.fdt")):
        raise SystemExit("no tables/yahtzee.fdt: run `make tables/yahtzee.fdt` first")
    top = tempfile.mkdtemp(prefix="fivedice-resume-")
    try:
        lib = compile_lib(top)
        with open(os.path.join(top, "probe.py"), "w") as f:
            f.write(PROBE)
        save = os.path.join(top, "game.sav")
        probe(top, lib, "make", save)
        res = {}
        for kind in ("fresh", "resume"):
            runs = [probe(top, lib, kind, save) for _ in range(a.runs)]
            best = [min(r[i] for r in runs) for i in range(1, 4)]  # each part's fastest: the machine is shared
            res[kind] = [sum(best)] + best + [min(r[4] for r in runs)]
            if kind == "resume" and not res[kind][4]:
                raise SystemExit("the resume probe did not resume a game")
        print("boot to the first frame, lib as .mpy, MicroPython unix port (each part the fastest of %d runs), RP2040 estimate "
              "x %d (%d-%d):" % (a.runs, RP2040[1], RP2040[0], RP2040[2]))
        for kind in ("fresh", "resume"):
            tot, imp, build, frame, _ = res[kind]
            print("  %-6s %7.1f ms (import fivedice.app %5.1f, App() %5.1f, first tick and frame %5.1f) -> Pico "
                  "%4.2f s (%4.2f-%4.2f)" % (kind, tot / 1000, imp / 1000, build / 1000, frame / 1000,
                                            tot * RP2040[1] / 1e6, tot * RP2040[0] / 1e6, tot * RP2040[2] / 1e6))
        d = res["resume"][0] - res["fresh"][0]
        print("  resuming costs %+.1f ms more -> Pico %+.2f s (the board's own start-up comes on top of both)"
              % (d / 1000, d * RP2040[1] / 1e6))
    finally:
        shutil.rmtree(top, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
