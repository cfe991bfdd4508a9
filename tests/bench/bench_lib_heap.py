"""What the CircuitPython libraries cost in RAM as .py (compiled on the board) vs .mpy.

    .venv/bin/python tests/bench/bench_lib_heap.py

`make deploy-cp SOURCE=1` and `make bundle-cp SOURCE=1` install the venv's pinned adafruit-circuitpython-*
libraries as .py; without SOURCE=1 the deploy compiles them to .mpy (offline, or circup's bundle .mpy). On the MicroPython unix
port (64-bit) this imports each library set from .py and from .mpy (mpy-cross) and prints:
  held  heap still in use after the import and a gc.collect() (what the game has less for the whole run)
  peak  the smallest -X heapsize at which the import succeeds at all (compiling .py needs its parse tree and
        bytecode at once: the compile-time peak the style guide warns about), to 256 bytes
A 32-bit board needs about 0.58-0.68x these 64-bit figures (the project's estimation rule). The deploy's
CircuitPython .mpy are these .mpy with the first byte made "C" (firmware/deploy.py, compile_cp).
The hardware modules the libraries import (board, digitalio, busio, neopixel_write, ...) come from the
test fakes and are imported BEFORE the measurement, so only the libraries count.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)
MICROPYTHON = os.path.join(BIN, "micropython")
FAKES = os.path.join(ROOT, "tests", "firmware", "fakes")
sys.path.insert(0, os.path.join(ROOT, "firmware"))
import deploy  # noqa: E402

PROBE = """import gc, sys
for m in ('micropython', 'board', 'digitalio', 'busio', 'microcontroller', 'neopixel_write', 'time', 'struct', 'os'):
    try:
        __import__(m)
    except ImportError:
        pass
gc.collect()
f0 = gc.mem_free()
for m in sys.argv[1].split(','):
    __import__(m)
gc.collect()
print(f0 - gc.mem_free())
"""

SETS = [("adafruit_ticks",), ("adafruit_debouncer",), deploy.CP_LIBS]


def lay_out(top, compiled):
    """The venv's libraries (CP_LIBS and dependencies) as a board's lib/ folder, .py or mpy-cross .mpy."""
    for _, _, files in deploy.venv_libs(deploy.CP_LIBS):
        for src, dest in files:
            out = os.path.join(top, dest[len("lib/"):])
            os.makedirs(os.path.dirname(out), exist_ok=True)
            if compiled:
                subprocess.run([os.path.join(BIN, "mpy-cross"), "-o", out[:-3] + ".mpy", src], check=True)
            else:
                shutil.copyfile(src, out)


def run(lib, mods, heap):
    env = dict(os.environ, MICROPYPATH=":".join([lib, os.path.join(FAKES, "cp"), FAKES]))
    probe = os.path.join(lib, "..", "probe.py")
    r = subprocess.run([MICROPYTHON, "-X", "heapsize=%d" % heap, probe, ",".join(mods)], capture_output=True,
                       text=True, env=env, timeout=120)
    return int(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 and r.stdout.strip() else None


def peak(lib, mods):
    lo, hi = 4096, 1 << 20  # fails at lo, works at hi
    if run(lib, mods, hi) is None:
        return None
    while hi - lo > 256:
        mid = (lo + hi) // 2
        if run(lib, mods, mid) is None:
            lo = mid
        else:
            hi = mid
    return hi


def main():
    tmp = tempfile.mkdtemp()
    try:
        with open(os.path.join(tmp, "probe.py"), "w") as f:
            f.write(PROBE)
        libs = {}
        for kind in ("py", "mpy"):
            libs[kind] = os.path.join(tmp, kind)
            lay_out(libs[kind], kind == "mpy")
        print("MicroPython unix port (64-bit), bytes; .py = compiled at import, .mpy = precompiled")
        print("%-60s %9s %9s %9s %9s" % ("libraries", "held .py", "held .mpy", "peak .py", "peak .mpy"))
        for mods in SETS:
            row = [run(libs[k], mods, 1 << 21) for k in ("py", "mpy")] + [peak(libs[k], mods) for k in ("py", "mpy")]
            print("%-60s %9s %9s %9s %9s" % ((", ".join(mods),) + tuple("-" if v is None else v for v in row)))
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
