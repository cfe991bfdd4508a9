"""Write package.json (the `mpremote mip install` manifest of lib/fivedice) from the files in lib/.

    python tools/package_json.py        rewrite it after adding or removing a library file
tests/firmware/test_firmware.py checks that it lists every library file and nothing else."""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def lib_files():
    lib = os.path.join(ROOT, "lib")
    out = []
    for d, subdirs, names in os.walk(lib):
        subdirs[:] = sorted(s for s in subdirs if s != "__pycache__")
        for n in sorted(names):
            if not n.endswith((".pyc", ".mpy")):
                out.append(os.path.relpath(os.path.join(d, n), lib).replace(os.sep, "/"))
    return sorted(out)


def main():
    path = os.path.join(ROOT, "package.json")
    with open(path) as f:
        pkg = json.load(f)
    rows = ",\n".join("    [%s, %s]" % (json.dumps(n), json.dumps("lib/" + n)) for n in lib_files())
    text = '{\n  "urls": [\n%s\n  ],\n  "deps": %s,\n  "version": %s\n}\n' % (
        rows, json.dumps(pkg.get("deps", [])), json.dumps(pkg["version"]))
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
