"""Build the static web page into build/web/ (make web): fivedice on MicroPython WebAssembly.

build/web/ after a build:
    index.html, style.css, main.js     the page (web/)
    LICENSE                            the project's (MIT)
    micropython.mjs, micropython.wasm  MicroPython's WebAssembly port, from web/node_modules (npm ci, pinned by
                                       web/package-lock.json): nothing is loaded from a CDN at run time
    fivedice.bundle.json               lib/fivedice (.py and the font) and web/fivedice_web.py, base64, written
                                       into the port's in-memory file system at start-up; `tables` lists the
                                       strategy tables beside it
    tables/<id>.fdt                    the strategy tables found in tables/ (make tables), served as they are

Usage: python tools/build_web.py [--out build/web] [--tables tables]
"""
import argparse
import base64
import json
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEB = os.path.join(ROOT, "web")
PKG = os.path.join(WEB, "node_modules", "@micropython", "micropython-webassembly-pyscript")
PAGE_FILES = ("index.html", "style.css", "main.js")
PORT_FILES = ("micropython.mjs", "micropython.wasm")


def bundle_files():
    """{path in the port's file system: bytes} for lib/fivedice and the glue."""
    out = {}
    lib = os.path.join(ROOT, "lib")
    for d, subdirs, names in os.walk(os.path.join(lib, "fivedice")):  # the package and its subpackages (screens/)
        subdirs[:] = sorted(x for x in subdirs if x != "__pycache__")
        for f in sorted(names):
            if f.endswith(".py") or f.endswith(".bin"):
                with open(os.path.join(d, f), "rb") as fh:
                    out["/lib/" + os.path.relpath(os.path.join(d, f), lib).replace(os.sep, "/")] = fh.read()
    with open(os.path.join(WEB, "fivedice_web.py"), "rb") as fh:
        out["/lib/fivedice_web.py"] = fh.read()
    for name in ("__init__", "macropad"):  # the MacroPad's profile: the page's MacroPad switch (?board=macropad)
        with open(os.path.join(ROOT, "hardware", "boards", name + ".py"), "rb") as fh:
            out["/lib/boards/%s.py" % name] = fh.read()
    return out


def build(out, tables_dir):
    for f in PORT_FILES:
        if not os.path.exists(os.path.join(PKG, f)):
            sys.exit("build_web: %s is missing: run `npm ci` in web/ (make web does)" % os.path.join(PKG, f))
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "tables"))
    for f in PAGE_FILES:
        shutil.copy(os.path.join(WEB, f), os.path.join(out, f))
    for f in PORT_FILES:
        shutil.copy(os.path.join(PKG, f), os.path.join(out, f))
    shutil.copy(os.path.join(ROOT, "LICENSE"), os.path.join(out, "LICENSE"))  # MIT: its notice goes with the copy
    tables = []
    if os.path.isdir(tables_dir):
        for f in sorted(os.listdir(tables_dir)):
            if f.endswith(".fdt"):
                shutil.copy(os.path.join(tables_dir, f), os.path.join(out, "tables", f))
                tables.append(f[:-4])
    files = bundle_files()
    bundle = {
        "files": {p: base64.b64encode(b).decode("ascii") for p, b in files.items()},
        "tables": tables,
    }
    with open(os.path.join(out, "fivedice.bundle.json"), "w") as fh:
        json.dump(bundle, fh, separators=(",", ":"), sort_keys=True)
    total = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(out) for f in fs)
    print("build_web: %s: %d Python files, tables: %s; %.1f MB in all" % (
        os.path.relpath(out, ROOT), len(files), ", ".join(tables) or "none (make tables)", total / 1e6))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "web"))
    ap.add_argument("--tables", default=os.path.join(ROOT, "tables"))
    a = ap.parse_args(argv)
    build(a.out, a.tables)


if __name__ == "__main__":
    main()
