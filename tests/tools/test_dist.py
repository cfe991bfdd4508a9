"""make dist (tools/dist.py): the release files, named with the version, their SHA256SUMS, and bundles that hold
exactly what the deploys put on a board.

The build runs into a temporary folder for the first profile (each board's bundles take the same path; every
profile's names are checked without building them: `make dist` builds them all), with the page make test built
(build/web) and a coarse render of the case. Skips, with the reason, where the page or openscad is missing.
"""
import glob
import hashlib
import os
import re
import shutil
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
import deploy  # noqa: E402
import dist  # noqa: E402

WEB = os.path.join(ROOT, "build", "web")


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def test_every_profile_file_is_released_under_the_pyproject_version():
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        ver = re.search(r'^version = "([^"]+)"', f.read(), re.M).group(1)
    assert dist.version() == ver
    files = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(ROOT, "hardware", "boards", "*.py")))
    files.remove("__init__")
    assert dist.boards() == files
    assert set(deploy.profiles()) == set(files), "a profile file that boards.NAMES does not list cannot deploy"
    names = dist.names(ver, files)
    for b in files:
        assert names[(b, "circuitpython")] == "fivedice-%s-%s-circuitpython.zip" % (ver, b)
        if "mp" in deploy.profile_runtimes(b):
            assert names[(b, "micropython")] == "fivedice-%s-%s-micropython.zip" % (ver, b)
        else:  # a CircuitPython-only board (the MacroPad) gets no MicroPython bundle
            assert (b, "micropython") not in names
    assert names["web"] == "fivedice-%s-web.zip" % ver and names["stl"] == "fivedice-%s-case.stl" % ver
    assert len(set(names.values())) == len(names)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    if not os.path.isfile(os.path.join(WEB, "index.html")):
        note = os.path.join(ROOT, "build", "web-prereqs-page.txt")
        pytest.skip(_read(note).decode().strip() if os.path.exists(note) else "no build/web: run make web")
    if not os.path.isfile(os.path.join(ROOT, "tables", "yahtzee.fdt")):
        pytest.skip("no tables/yahtzee.fdt: make test builds it")
    import case

    if not shutil.which("openscad"):
        pytest.skip(_read(case.NOTE).decode().strip() if os.path.exists(case.NOTE) else "openscad not installed")
    tmp = tmp_path_factory.mktemp("dist")
    assert case.main(["--fn", "8", "--out", str(tmp / "case")]) == 0
    board = dist.boards()[0]
    out = tmp / "dist"
    assert dist.main(["--out", str(out), "--web", WEB, "--stl", str(tmp / "case" / "fivedice_case.stl"),
                      "--board", board]) == 0
    return tmp, out, board


def test_the_release_folder_holds_the_named_files_and_their_checksums(built):
    tmp, out, board = built
    want = dist.names(dist.version(), [board])
    assert sorted(os.listdir(out)) == sorted(list(want.values()) + ["SHA256SUMS"])
    lines = _read(out / "SHA256SUMS").decode().splitlines()
    assert len(lines) == len(want)
    for line in lines:
        digest, name = line.split("  ")
        assert hashlib.sha256(_read(out / name)).hexdigest() == digest, name
    assert _read(out / want["stl"]) == _read(tmp / "case" / "fivedice_case.stl")
    with zipfile.ZipFile(out / want["web"]) as z:
        prefix = "fivedice-%s-web/" % dist.version()
        got = {n[len(prefix):]: z.read(n) for n in z.namelist()}
    on_disk = {os.path.relpath(os.path.join(d, n), WEB).replace(os.sep, "/")
               for d, _, ns in os.walk(WEB) for n in ns}
    assert set(got) == on_disk and got["index.html"] == _read(os.path.join(WEB, "index.html"))


def _staged(runtime, board, where):
    """{board path: bytes} that firmware/deploy.py stages for a board (a dry run: no board)."""
    assert deploy.main([runtime, "--board", board, "--dry-run", "--build", str(where)]) == 0
    return {os.path.relpath(os.path.join(d, n), where).replace(os.sep, "/"): _read(os.path.join(d, n))
            for d, _, ns in os.walk(where) for n in ns}


def _zipped(path):
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist()}


def test_the_micropython_bundle_is_the_deploy_folder_with_the_display_driver(built):
    tmp, out, board = built
    bundle = _zipped(out / dist.names(dist.version(), [board])[(board, "micropython")])
    staged = _staged("mp", board, tmp / "mp")
    assert "main.py" in staged and "tables/yahtzee.fdt" in staged and "lib/fivedice/app.mpy" in staged
    extra = set(bundle) - set(staged)
    assert extra == {"lib/%s.mpy" % m for m in deploy.MP_MIP_LIBS}  # mip's driver: the vendored copy, compiled
    assert bundle["lib/ssd1306.mpy"][:1] == b"M"
    for path, data in staged.items():
        assert bundle[path] == data, path


def test_the_circuitpython_bundle_is_the_deploy_with_the_pinned_libraries(built):
    tmp, out, board = built
    bundle = _zipped(out / dist.names(dist.version(), [board])[(board, "circuitpython")])
    staged = _staged("cp", board, tmp / "cp")
    assert "code.py" in staged and "boot.py" in staged and "lib/fivedice/app.mpy" in staged
    libs = {dest[:-3] + ".mpy" for _, _, files in deploy.venv_libs(deploy.CP_LIBS) for _, dest in files}
    assert set(bundle) == set(staged) | libs
    assert all(bundle[p][:1] == b"C" for p in libs)  # CircuitPython .mpy, as circup would install
    for path, data in staged.items():
        assert bundle[path] == data, path
