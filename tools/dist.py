"""The release downloads in one folder, named with the version in pyproject.toml (make dist).

    python tools/dist.py [--out build/dist] [--web build/web] [--stl build/case/fivedice_case.stl] [--board NAME ...]

For every board profile in hardware/boards/ (each *.py there but __init__.py; --board for only some) and runtime:
- fivedice-VERSION-BOARD-circuitpython.zip: the CIRCUITPY drive's layout (firmware/deploy.py cp --zip): unzip it
  onto the drive. CircuitPython 10's .mpy, the Adafruit libraries from the venv's pinned copies;
- fivedice-VERSION-BOARD-micropython.zip: the folder `make deploy-mp` copies (firmware/deploy.py's staging, .mpy),
  with the vendored ssd1306 driver that mip would install: copy its contents to the board with
  `mpremote cp -r lib :. + cp -r tables :. + cp board_config.py main.py :. + reset` or Thonny's "Upload to /";
then fivedice-VERSION-web.zip (build/web, the static page: make web), fivedice-VERSION-case.stl (make case) and
SHA256SUMS (`sha256sum -c SHA256SUMS` checks them). Every bundle carries what the deploy carries by default (the
Yahtzee table where it fits: make tables/yahtzee.fdt first).
"""
import argparse
import glob
import hashlib
import os
import shutil
import sys
import tomllib
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
import deploy  # noqa: E402

RUNTIMES = ("circuitpython", "micropython")
ZIP_TIME = (2020, 1, 1, 0, 0, 0)  # every entry's date, so a zip's bytes depend on its files only


def version():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]["version"]


def boards():
    """Every profile module in hardware/boards/, sorted (a profile added there is released without a change here)."""
    paths = glob.glob(os.path.join(ROOT, "hardware", "boards", "*.py"))
    return sorted(os.path.basename(p)[:-3] for p in paths if not p.endswith("__init__.py"))


def names(ver, board_names):
    """{(board, runtime) or kind: file name} of everything a release holds but SHA256SUMS."""
    out = {(b, r): "fivedice-%s-%s-%s.zip" % (ver, b, r) for b in board_names for r in RUNTIMES
           if r[0] + "p" in deploy.profile_runtimes(b)}  # the MacroPad: CircuitPython only
    out["web"] = "fivedice-%s-web.zip" % ver
    out["stl"] = "fivedice-%s-case.stl" % ver
    return out


def zip_folder(top, path, prefix=""):
    """Write every file under `top` into the zip `path` (sorted, fixed dates), under `prefix`."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for d, subdirs, files in os.walk(top):
            subdirs.sort()
            for n in sorted(files):
                src = os.path.join(d, n)
                info = zipfile.ZipInfo(prefix + os.path.relpath(src, top).replace(os.sep, "/"), ZIP_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                with open(src, "rb") as f:
                    z.writestr(info, f.read())


def mp_bundle(board, path, work):
    """The MicroPython deploy's staging folder, as `make deploy-mp` would copy it offline, zipped."""
    tables, _ = deploy.pick_tables(None)
    st = deploy.stage("mp", board, work, True, tables)
    for mod in deploy.MP_MIP_LIBS:  # what `mpremote mip install` puts on the board, from firmware/vendor/
        st.add(os.path.join(deploy.VENDOR, mod + ".py"), "lib/" + mod + ".py")
    zip_folder(work, path)


def cp_bundle(board, path, work):
    if deploy.main(["cp", "--board", board, "--zip", path, "--build", work]) != 0:
        raise SystemExit("dist: the CircuitPython bundle for %s failed (above)" % board)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def build(out, web, stl, board_names):
    for what, p in (("the web page (make web)", os.path.join(web, "index.html")), ("the case STL (make case)", stl)):
        if not os.path.isfile(p):
            raise SystemExit("dist: no %s: %s is missing" % (what, os.path.relpath(p, ROOT)))
    ver = version()
    files = names(ver, board_names)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    work = os.path.join(out, ".stage")
    for b in board_names:
        if (b, "circuitpython") in files:
            cp_bundle(b, os.path.join(out, files[(b, "circuitpython")]), work)
        if (b, "micropython") in files:
            mp_bundle(b, os.path.join(out, files[(b, "micropython")]), work)
    shutil.rmtree(work)
    zip_folder(web, os.path.join(out, files["web"]), "fivedice-%s-web/" % ver)
    shutil.copyfile(stl, os.path.join(out, files["stl"]))
    with open(os.path.join(out, "SHA256SUMS"), "w") as f:
        for n in sorted(files.values()):
            f.write("%s  %s\n" % (sha256(os.path.join(out, n)), n))
    print("dist: %s: %d files and SHA256SUMS, version %s (boards: %s)"
          % (os.path.relpath(out, ROOT), len(files), ver, ", ".join(board_names)))
    return files


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "dist"))
    ap.add_argument("--web", default=os.path.join(ROOT, "build", "web"))
    ap.add_argument("--stl", default=os.path.join(ROOT, "build", "case", "fivedice_case.stl"))
    ap.add_argument("--board", action="append", help="only this profile (repeatable; default: every profile)")
    a = ap.parse_args(argv)
    known = boards()
    for b in a.board or ():
        if b not in known:
            raise SystemExit("dist: no profile hardware/boards/%s.py; profiles: %s" % (b, ", ".join(known)))
    build(a.out, a.web, a.stl, a.board or known)
    return 0


if __name__ == "__main__":
    sys.exit(main())
