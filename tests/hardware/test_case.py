"""The case (hardware/case/fivedice_case.scad) renders with OpenSCAD, and its holes are where its dimensions say.

A coarse render ($fn=8, a few seconds) is read back as triangles: a vertical line through the front shell's lid at
each button, pixel and OLED position meets no lid face there (a hole), while a line between two buttons does; the
front shell is mirrored, as printed lid down, so the holes fit the perfboard once it is turned over. Skips, with
the reason, where openscad could not be installed (make test's `tools/case.py --prereqs` step installs it).
"""
import os
import shutil
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import case  # noqa: E402

np = pytest.importorskip("numpy")


def _openscad_or_skip():
    if shutil.which("openscad"):
        return
    why = "openscad is not installed (make test's step `tools/case.py --prereqs` installs Debian's)"
    if os.path.exists(case.NOTE):
        with open(case.NOTE) as f:
            why = f.read().strip()
    pytest.skip(why)


def _covered(tri, x, y, zmax):
    """How many triangles with every corner at z <= zmax cover the point (x, y) seen from above."""
    t = tri[(tri[:, :, 2] <= zmax + 1e-6).all(axis=1)]
    a, b, c = t[:, 0, :2], t[:, 1, :2], t[:, 2, :2]
    p = np.array([x, y])

    def side(u, v):
        return (v[:, 0] - u[:, 0]) * (p[1] - u[:, 1]) - (v[:, 1] - u[:, 1]) * (p[0] - u[:, 0])

    s1, s2, s3 = side(a, b), side(b, c), side(c, a)
    inside = ((s1 >= 0) & (s2 >= 0) & (s3 >= 0)) | ((s1 <= 0) & (s2 <= 0) & (s3 <= 0))
    area = np.abs(s1 + s2 + s3) > 1e-9  # faces seen edge-on (the holes' walls) cover nothing
    return int((inside & area).sum())


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    _openscad_or_skip()
    out = tmp_path_factory.mktemp("case")
    assert case.main(["--fn", "8", "--out", str(out)]) == 0
    return out


def test_the_case_renders_to_an_stl_and_a_picture(rendered):
    tri = case.read_stl(str(rendered / "fivedice_case.stl"))
    p = case.params()
    outer = [p["board_holes"][i] * p["pitch"] + 2 * (p["wall"] + p["gap"]) for i in (0, 1)]
    lo, hi = tri.reshape(-1, 3).min(axis=0), tri.reshape(-1, 3).max(axis=0)
    assert hi[0] - lo[0] == pytest.approx(2 * outer[0] + 10, abs=0.01)  # the two shells side by side
    assert hi[1] - lo[1] == pytest.approx(outer[1], abs=0.01)
    assert hi[2] == pytest.approx(max(p["switch_height"] - 1, p["back_depth"] + p["wall"]), abs=0.01)
    from PIL import Image

    img = Image.open(rendered / "fivedice_case.png").convert("L")
    assert img.size == (900, 520)
    assert img.getextrema()[0] < 128  # the model is drawn, not a blank page


def test_the_front_shell_has_its_holes_where_the_dimensions_say(rendered):
    tri = case.read_stl(str(rendered / "fivedice_case.stl"))
    p = case.params()
    off = p["wall"] + p["gap"]
    outer_x = p["board_holes"][0] * p["pitch"] + 2 * off
    lid = p["lid"]

    def lid_at(h):  # the front shell is printed lid down: its x runs mirrored
        x = off + (h[0] + 0.5) * p["pitch"]
        return outer_x - x, off + (h[1] + 0.5) * p["pitch"]

    front = tri[(tri[:, :, 0] <= outer_x + 1e-6).all(axis=1)]
    buttons = [[c, p["hold_row"]] for c in p["hold_cols"]] + p["keys"]
    pixels = [[c, p["hold_row"] - p["pixel_drop"]] for c in p["hold_cols"]]
    for h in buttons + pixels:
        assert _covered(front, *lid_at(h), lid) == 0, "no hole in the lid at hole %s" % (h,)
    ox, oy = lid_at(p["oled_at"])
    assert _covered(front, ox, oy + p["oled_window_up"], lid) == 0, "no OLED window"
    # solid lid between HOLD1 and HOLD2, and at the OLED window's height beside it
    between = lid_at([(p["hold_cols"][0] + p["hold_cols"][1]) / 2, p["hold_row"]])
    assert _covered(front, *between, lid) >= 2
    assert _covered(front, ox + p["oled_window"][0] / 2 + 2, oy + p["oled_window_up"], lid) >= 2
    # the mirror is real: where ROLL (right of centre) would be unmirrored, the lid is solid
    x1, y1 = lid_at(p["keys"][0])
    assert abs(outer_x - 2 * x1) > p["button_hole"], "ROLL is no longer off centre: pick another key here"
    assert _covered(front, outer_x - x1, y1, lid) >= 2


def test_without_openscad_and_with_no_apt_the_render_says_why_in_one_line(monkeypatch, tmp_path):
    """Where openscad is missing and NO_APT is set, nothing is installed and the reason is one plain line."""
    monkeypatch.setattr(case.shutil, "which", lambda name: None)
    monkeypatch.setenv("NO_APT", "1")
    called = []
    monkeypatch.setattr(case.subprocess, "run", lambda *a, **k: called.append(a))
    why = case.render_stl(str(tmp_path / "x.stl"))
    assert why.startswith("no openscad, and NO_APT is set") and "\n" not in why
    assert called == [] and not (tmp_path / "x.stl").exists()
