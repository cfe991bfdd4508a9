"""The package installs as the README says, and every host command the README and docs/ show runs exactly as written.

A throwaway venv gets the real `pip install -e . --no-deps` of this checkout (the Makefile's venv step; the
dependencies come from the shared venv through a .pth line, as requirements.txt put them there), so the
`fivedice` console script and `python -m host_sim` are tested as a newcomer meets them: from a temp folder
outside the repo, with that venv's bin first on PATH and no PYTHONPATH. The build backend (pyproject.toml's
[build-system]) comes from PyPI through pip's ordinary build isolation, as in `make venv`.

Convention (README.md and every docs/*.md page): in a fenced block, `$ ` starts a command and the lines up to the next `$ ` are its output
(the whole of stdout; `...` inside a line matches anything, a line that is only `...` means "more lines
follow"); in a block without `$ ` every line is a command. A command counts when it, or a stage of its pipe,
starts with `fivedice `, `python -m host_sim` or `.venv/bin/` (after any VAR=value settings; a `.venv` in
the temp folder is that venv).
"""
import json
import os
import re
import subprocess
import sys
import sysconfig

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(ROOT, "README.md")
DOCS = os.path.join(ROOT, "docs")
PAGES = [README] + sorted(os.path.join(DOCS, f) for f in os.listdir(DOCS) if f.endswith(".md"))
HOST_CMD = re.compile(r"(?:^|\|\s*)(?:\w+=\S*\s+)*(?:fivedice |python -m host_sim|\.venv/bin/)")


def fenced_blocks(text):
    blocks, cur = [], None
    for line in text.splitlines():
        if line.startswith("```"):
            if cur is None:
                cur = []
            else:
                blocks.append(cur)
                cur = None
        elif cur is not None:
            cur.append(line)
    return blocks


def readme_commands(text):
    """[(command, expected stdout lines)] for every host command in the README's fenced blocks."""
    out = []
    for block in fenced_blocks(text):
        if any(l.startswith("$ ") for l in block):
            cur = None
            for line in block:
                if line.startswith("$ "):
                    cur = (line[2:], [])
                    out.append(cur)
                elif cur is not None and line.strip():
                    cur[1].append(line)
        else:
            out.extend((l.strip(), None) for l in block if l.strip())
    return [(c, exp) for c, exp in out if HOST_CMD.search(c)]


def page_commands(path):
    return readme_commands(open(path, encoding="utf-8").read())


def test_readme_command_extraction_finds_the_shown_commands():
    readme = "\n".join(c for c, _ in page_commands(README))
    for needle in ("fivedice --help", ".venv/bin/fivedice solve --help", "| fivedice play"):
        assert needle in readme
    oracle = "\n".join(c for c, _ in page_commands(os.path.join(DOCS, "oracle.md")))
    for needle in ("| fivedice score", "| python -m host_sim score"):
        assert needle in oracle
    assert len(CMDS) >= 6, CMDS
    # a block's output lines belong to the command above them
    sample = "```\n$ fivedice a\nx\n...\n$ echo 1 | python -m host_sim score\n{}\n```\n```\nfivedice b\nls\n```\n"
    assert readme_commands(sample) == [("fivedice a", ["x", "..."]), ("echo 1 | python -m host_sim score", ["{}"]),
                                       ("fivedice b", None)]


def line_matches(expected, actual):
    if "..." not in expected:
        try:
            return json.loads(expected) == json.loads(actual)
        except ValueError:
            return expected == actual
    pattern = ".*".join(re.escape(part) for part in expected.split("..."))
    return re.fullmatch(pattern, actual) is not None


def test_output_shape_matching():
    assert line_matches('{"a": 1, "b": 2}', '{"b": 2, "a": 1}')
    assert not line_matches('{"a": 1}', '{"a": 2}')
    assert line_matches("usage: x ... y", "usage: x [-h] y")
    assert not line_matches("usage: x", "usage: y")


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """A throwaway venv with this checkout installed the way the Makefile installs it."""
    base = tmp_path_factory.mktemp("pkgvenv")
    v = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(v)], check=True)
    site = subprocess.run([str(v / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    with open(os.path.join(site, "shared_venv.pth"), "w") as f:
        f.write(sysconfig.get_paths()["purelib"] + "\n")  # the pinned requirements, already installed
    env = {k: val for k, val in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(v / "bin" / "python"), "install", "-q",
                        "--disable-pip-version-check", "--no-deps", "--no-build-isolation", "-e", ROOT],
                       capture_output=True, text=True, env=env, cwd=str(base), timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    return v


def run_outside(venv, tmp_path, command):
    work = tmp_path / "elsewhere"
    work.mkdir(exist_ok=True)
    if not (work / ".venv").exists():
        (work / ".venv").symlink_to(venv)
    env = {k: val for k, val in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = str(venv / "bin") + os.pathsep + env.get("PATH", "")
    env["HOME"] = str(work)  # the simulator's save goes here, not into the user's home
    return subprocess.run(["bash", "-c", command], cwd=str(work), env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=300)


def test_installed_package_comes_from_this_checkout(venv, tmp_path):
    assert (venv / "bin" / "fivedice").exists()
    r = run_outside(venv, tmp_path, "python -c 'import fivedice, host_sim; print(fivedice.__file__); print(host_sim.__file__)'")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [os.path.join(ROOT, "lib", "fivedice", "__init__.py"),
                                os.path.join(ROOT, "host_sim", "__init__.py")]


@pytest.mark.parametrize("sub", ["", "sim", "play", "score", "solve", "screenshot"])
def test_every_subcommand_has_help(venv, tmp_path, sub):
    r = run_outside(venv, tmp_path, ("fivedice %s --help" % sub).replace("  ", " "))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("usage: fivedice %s" % sub) or (sub in ("", "sim") and r.stdout.startswith("fivedice:")), r.stdout
    r2 = run_outside(venv, tmp_path, "python -m host_sim %s --help" % sub)
    assert (r2.returncode, r2.stdout) == (0, r.stdout)


def test_unknown_command_is_one_plain_message(venv, tmp_path):
    r = run_outside(venv, tmp_path, "fivedice bogus")
    assert r.returncode == 2 and r.stdout == "" and r.stderr.strip().splitlines() == ["unknown command 'bogus'; try: fivedice --help"]


CMDS = [(c, exp) for page in PAGES for c, exp in page_commands(page)]
IDS = ["%s: %s" % (os.path.relpath(page, ROOT), c[:50]) for page in PAGES for c, _ in page_commands(page)]


@pytest.mark.parametrize("command,expected", CMDS, ids=IDS)
def test_readme_command_runs_as_written(venv, tmp_path, command, expected):
    r = run_outside(venv, tmp_path, command)
    assert r.returncode == 0, "%s\nexit %d\n%s" % (command, r.returncode, r.stderr)
    assert "Traceback" not in r.stderr, r.stderr
    got = r.stdout.splitlines()
    if expected is None:
        assert got, "%s printed nothing" % command
        return
    more = bool(expected) and expected[-1] == "..."
    want = expected[:-1] if more else expected
    if more:
        assert len(got) > len(want), (command, got)
        got = got[:len(want)]
    assert len(got) == len(want), (command, r.stdout)
    for w, g in zip(want, got):
        assert line_matches(w, g), "%s\nREADME: %s\nactual: %s" % (command, w, g)


def heading_anchors(path):
    """GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces to hyphens."""
    out = set()
    for line in open(path, encoding="utf-8"):
        if line.startswith("#"):
            out.add(re.sub(r"[^\w\- ]", "", line.lstrip("#").strip().lower()).replace(" ", "-"))
    return out


LINKED = PAGES + [os.path.join(ROOT, "hardware", "README.md"), os.path.join(ROOT, "hardware", "BUILD.md")]


@pytest.mark.parametrize("page", LINKED, ids=[os.path.relpath(p, ROOT) for p in LINKED])
def test_every_link_between_the_pages_reaches_a_file_and_a_heading(page):
    for target in re.findall(r"\]\(([^)\s]+)\)", open(page, encoding="utf-8").read()):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        path = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
        assert os.path.exists(path), "%s links to %s, which does not exist" % (os.path.relpath(page, ROOT), target)
        if anchor and path.endswith(".md"):
            assert anchor in heading_anchors(path), "%s links to %s: no such heading" % (os.path.relpath(page, ROOT), target)


def test_the_readmes_figures_and_claims_match_the_checkout():
    """Issue 37: the page size, the requirements file each target installs, Self-test's place, par, BROWSER=0."""
    import re

    with open(README) as f:
        text = " ".join(f.read().split())
    with open(os.path.join(ROOT, "Makefile")) as f:
        make = f.read()
    assert "`make sim` only the simulator's pinned `requirements-sim.txt`" in text
    assert re.search(r"^\$\(SIM_STAMP\): requirements-sim\.txt", make, re.M)
    assert "make test BROWSER=0" in text and "$(filter 0,$(BROWSER))" in make
    assert "**par**" in text
    assert "last line of the menu" not in text  # the proficiency test's line comes after Self-test
    from fivedice.screens import menu as M

    assert M.I_PROF > M.I_TEST
    web = os.path.join(ROOT, "build", "web")
    m = re.search(r"copy `build/web/` \(([0-9.]+) MB with the two tables", text)
    assert m, "the README gives the page's size"
    if os.path.isfile(os.path.join(web, "tables", "yacht.fdt")) and os.path.isfile(os.path.join(web,
                                                                                               "tables", "yahtzee.fdt")):
        total = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(web) for n in ns)
        assert abs(total / 1e6 - float(m.group(1))) < 0.1, total
