"""Render the handheld's case (hardware/case/fivedice_case.scad) to an STL with OpenSCAD, and a picture of it.

    python tools/case.py [--out build/case] [--fn N] [--png hardware/case/fivedice_case.png]
    python tools/case.py --prereqs

OpenSCAD is Debian's `openscad` package: when it is missing and this runs as root with apt-get, it is installed
first (said before it starts; NO_APT=1 in the environment skips the install, and the render then stops with a
plain line). --prereqs only installs it, as make test's step: where it cannot, the reason goes to
build/case-prereqs.txt and tests/hardware/test_case.py skips with it. --fn overrides the model's $fn (the test renders a
coarse $fn=8 model: 3 s instead of 25 s on this machine). The picture is drawn here from the STL (numpy + Pillow,
flat-shaded, z-buffered), since OpenSCAD's own PNG export needs an X display.
"""
import argparse
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCAD = os.path.join(ROOT, "hardware", "case", "fivedice_case.scad")
NOTE = os.path.join(ROOT, "build", "case-prereqs.txt")


def params(scad=SCAD):
    """The model's dimensions: {name: number or list} from its top-level `name = value;` lines (the one set of
    numbers the case and tools/layout.py's perfboard drawing both use). Derived values (expressions) are left out."""
    import ast
    import re

    out = {}
    with open(scad) as f:
        for line in f:
            m = re.match(r"^(\$?\w+)\s*=\s*([^;]+);", line)
            if m:
                try:
                    out[m.group(1)] = ast.literal_eval(m.group(2).strip())
                except (ValueError, SyntaxError):
                    pass
    return out


def _note(why):
    if why is None:
        if os.path.exists(NOTE):
            os.remove(NOTE)
        return None
    os.makedirs(os.path.dirname(NOTE), exist_ok=True)
    with open(NOTE, "w") as f:
        f.write(why + "\n")
    return why


def openscad():
    """The openscad command, installing Debian's package where this machine allows; else a reason (str) why not."""
    found = shutil.which("openscad")
    if found:
        return found
    apt = shutil.which("apt-get")
    if os.environ.get("NO_APT"):
        return "no openscad, and NO_APT is set: install it (Debian: apt-get install openscad)"
    if apt is None:
        return "no openscad and no apt-get here to install Debian's openscad"
    if os.geteuid() != 0:
        return "no openscad, and installing it with apt-get needs root (sudo apt-get install openscad)"
    print("case: installing Debian's openscad with apt-get (once, about a minute; NO_APT=1 skips this)", flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    r = subprocess.run([apt, "-qq", "update"], env=env, capture_output=True, text=True)
    if r.returncode == 0:
        r = subprocess.run([apt, "install", "-y", "-qq", "--no-install-recommends", "openscad"], env=env,
                           capture_output=True, text=True)
    found = shutil.which("openscad")
    if r.returncode or not found:
        last = (r.stderr or r.stdout).strip().splitlines()[-1:] or [""]
        return "apt-get could not install openscad (%s)" % last[0]
    return found


def render_stl(out_stl, fn=None, scad=SCAD):
    """OpenSCAD renders `scad` to `out_stl`; a str return is why it could not (no openscad), else None."""
    cmd = openscad()
    if not os.path.isabs(cmd):
        return cmd
    os.makedirs(os.path.dirname(os.path.abspath(out_stl)), exist_ok=True)
    args = [cmd, "-o", out_stl] + (["-D", "$fn=%d" % fn] if fn else []) + [scad]
    r = subprocess.run(args, capture_output=True, text=True)
    bad = [ln for ln in r.stderr.splitlines() if ln.startswith(("WARNING", "ERROR"))]
    if r.returncode or bad or not os.path.isfile(out_stl):
        raise SystemExit("case: openscad failed on %s:\n%s" % (os.path.relpath(scad, ROOT), "\n".join(bad) or
                                                               r.stderr[-2000:]))
    return None


def read_stl(path):
    """The triangles of an ASCII or binary STL as a float array of shape (n, 3, 3)."""
    import numpy as np

    with open(path, "rb") as f:
        data = f.read()
    if data[:5] == b"solid" and b"facet" in data[:300]:
        verts = [ln.split()[1:4] for ln in data.decode("ascii").splitlines() if ln.strip().startswith("vertex")]
        return np.array(verts, dtype=float).reshape(-1, 3, 3)
    n = int.from_bytes(data[80:84], "little")
    rec = np.frombuffer(data, dtype=np.dtype([("n", "<f4", 3), ("v", "<f4", (3, 3)), ("a", "<u2")]), count=n,
                        offset=84)
    return rec["v"].astype(float)


def turn_front_over(tri, p=None):
    """The print plate with the front shell (x below the shells' gap) turned over, outside up, as it sits on the
    handheld: a half turn about its own y axis. The back shell stays as printed, open side up."""
    p = p or params()
    outer = p["board_holes"][0] * p["pitch"] + 2 * (p["wall"] + p["gap"])
    height = p["switch_height"] - 1
    tri = tri.copy()
    front = (tri[:, :, 0] <= outer + 1e-6).all(axis=1)
    tri[front, :, 0] = outer - tri[front, :, 0]
    tri[front, :, 2] = height - tri[front, :, 2]
    return tri


def picture(stl, png, size=(900, 520)):
    """A flat-shaded view of the STL from above and in front, as a PNG: the front shell turned outside up, the
    back shell open side up. A small z-buffer rasteriser (numpy), drawn at twice the size and scaled down."""
    import numpy as np
    from PIL import Image

    tri = turn_front_over(read_stl(stl))
    tri = tri - tri.reshape(-1, 3).mean(axis=0)
    az, el = np.radians(-30), np.radians(50)  # turned a little, looked at from 50 degrees above
    rz = np.array([[np.cos(az), -np.sin(az), 0], [np.sin(az), np.cos(az), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, np.cos(el), -np.sin(el)], [0, np.sin(el), np.cos(el)]])
    v = tri @ (rx @ rz).T
    normal = np.cross(v[:, 1] - v[:, 0], v[:, 2] - v[:, 0])
    length = np.linalg.norm(normal, axis=1)
    keep = length > 1e-9
    v, normal = v[keep], normal[keep] / length[keep, None]
    shade = 0.35 + 0.65 * np.clip(np.abs(normal @ np.array([-0.4, 0.5, 0.77])), 0, 1)
    w, h = size[0] * 2, size[1] * 2
    lo, hi = v[:, :, :2].reshape(-1, 2).min(axis=0), v[:, :, :2].reshape(-1, 2).max(axis=0)
    scale = min((w - 80) / (hi[0] - lo[0]), (h - 80) / (hi[1] - lo[1]))
    px = 40 + (v[:, :, 0] - lo[0]) * scale
    py = h - 40 - (v[:, :, 1] - lo[1]) * scale
    depth = np.full((h, w), -np.inf)
    image = np.full((h, w), -1.0)  # the shade of the nearest face at each pixel; -1: background
    for i in range(len(v)):
        x0, x1 = int(px[i].min()), int(np.ceil(px[i].max())) + 1
        y0, y1 = int(py[i].min()), int(np.ceil(py[i].max())) + 1
        gx, gy = np.meshgrid(np.arange(x0, x1) + 0.5, np.arange(y0, y1) + 0.5)
        (ax, bx, cx), (ay, by, cy) = px[i], py[i]
        det = (by - cy) * (ax - cx) + (cx - bx) * (ay - cy)
        if abs(det) < 1e-12:
            continue
        l1 = ((by - cy) * (gx - cx) + (cx - bx) * (gy - cy)) / det
        l2 = ((cy - ay) * (gx - cx) + (ax - cx) * (gy - cy)) / det
        l3 = 1 - l1 - l2
        inside = (l1 >= -1e-6) & (l2 >= -1e-6) & (l3 >= -1e-6)
        z = l1 * v[i, 0, 2] + l2 * v[i, 1, 2] + l3 * v[i, 2, 2]
        region = depth[y0:y1, x0:x1]
        nearer = inside & (z > region)
        region[nearer] = z[nearer]
        image[y0:y1, x0:x1][nearer] = shade[i]
    rgb = np.empty((h, w, 3), dtype=np.uint8)
    for k, c in enumerate((90, 160, 230)):
        rgb[:, :, k] = np.where(image < 0, 255, (image * c).clip(0, 255)).astype(np.uint8)
    Image.fromarray(rgb).resize(size, Image.LANCZOS).save(png, optimize=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "case"))
    ap.add_argument("--fn", type=int, help="override the model's $fn (coarser: faster)")
    ap.add_argument("--png", help="write the picture here too (make case: hardware/case/fivedice_case.png)")
    ap.add_argument("--prereqs", action="store_true", help="only install openscad where this machine allows")
    a = ap.parse_args(argv)
    if a.prereqs:
        found = openscad()
        why = _note(None if os.path.isabs(found) else found)
        if why:
            print("case: %s (tests/hardware/test_case.py will skip)" % why)
        return 0
    stl = os.path.join(a.out, "fivedice_case.stl")
    why = render_stl(stl, a.fn)
    if why:
        print("case: " + why)
        return 1
    png = os.path.join(a.out, "fivedice_case.png")
    picture(stl, png)
    if a.png:
        shutil.copyfile(png, a.png)
    print("case: wrote %s (%d KB) and %s" % (os.path.relpath(stl, ROOT), os.path.getsize(stl) // 1024,
                                             os.path.relpath(a.png or png, ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
