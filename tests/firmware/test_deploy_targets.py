"""The Makefile's deploy targets pass the deploy exactly the options the user gave (`make -n`: printed, not run).

The binary of the MicroPython unix port is MICROPYTHON, not MPY: when it was MPY, `$(if $(MPY),--mpy)` in
deploy-cp and bundle-cp was always true (issue #20). Each target's help line (`## make TARGET [BOARD=x] ...`)
names the board it builds when BOARD is not given, and that is the board it builds.
"""
import os
import re
import shlex
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_USER_VARS = ("BOARD", "TABLES", "SOURCE", "LINE_NUMBERS", "MPY", "PORT", "DRIVE", "MAKEFLAGS", "MFLAGS",
              "MAKELEVEL")


def _deploy_calls(*args):
    """The deploy.py command lines `make -n ARGS` would run, as argument lists after `firmware/deploy.py`."""
    env = {k: v for k, v in os.environ.items() if k not in _USER_VARS}
    r = subprocess.run(["make", "-n"] + list(args), cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    calls = []
    for line in r.stdout.splitlines():
        words = shlex.split(line)
        if "firmware/deploy.py" in words:
            calls.append(words[words.index("firmware/deploy.py") + 1:])
    assert calls, r.stdout
    return calls


@pytest.mark.parametrize("args,expected", [
    (["deploy-cp"], [["cp", "--board", "pico"]]),
    (["deploy-cp", "MPY=1"], [["cp", "--board", "pico"]]),  # no option the user did not choose
    (["deploy-cp", "SOURCE=1", "TABLES=none", "BOARD=pico2", "DRIVE=/media/me/CIRCUITPY"],
     [["cp", "--board", "pico2", "--py", "--tables", "none", "--drive", "/media/me/CIRCUITPY"]]),
    (["bundle-cp"], [["cp", "--board", "pico", "--zip", "build/fivedice-cp-pico.zip"]]),
    (["bundle-cp", "MPY=1"], [["cp", "--board", "pico", "--zip", "build/fivedice-cp-pico.zip"]]),
    (["bundle-cp", "BOARD=pico2", "TABLES=yahtzee,yacht", "SOURCE=1"],
     [["cp", "--board", "pico2", "--py", "--tables", "yahtzee,yacht", "--zip", "build/fivedice-cp-pico2.zip"]]),
    (["deploy-mp"], [["mp", "--board", "pico"]]),
    (["deploy-mp", "LINE_NUMBERS=1"], [["mp", "--board", "pico", "--line-numbers"]]),
    (["bundle-cp", "LINE_NUMBERS=1"], [["cp", "--board", "pico", "--line-numbers", "--zip",
                                        "build/fivedice-cp-pico.zip"]]),
    (["deploy-mp", "SOURCE=1", "PORT=/dev/ttyACM0", "BOARD=feather_rp2040"],
     [["mp", "--board", "feather_rp2040", "--py", "--port", "/dev/ttyACM0"]]),
    (["deploy-dry-run"], [["mp", "--board", "pico", "--dry-run"], ["cp", "--board", "pico", "--dry-run"]]),
    (["deploy-dry-run", "BOARD=pico2", "SOURCE=1", "TABLES=none"],
     [["mp", "--board", "pico2", "--py", "--tables", "none", "--dry-run"],
      ["cp", "--board", "pico2", "--py", "--tables", "none", "--dry-run"]]),
], ids=lambda x: " ".join(x) if isinstance(x, list) and x and isinstance(x[0], str) else None)
def test_make_deploy_targets_pass_exactly_the_options_given(args, expected):
    assert _deploy_calls(*args) == expected


def _help_lines():
    with open(os.path.join(ROOT, "Makefile")) as f:
        return [ln[3:].strip() for ln in f if ln.startswith("## make ")]


@pytest.mark.parametrize("target", ["deploy-mp", "deploy-cp", "bundle-cp", "deploy-dry-run"])
def test_each_deploy_targets_help_names_the_board_it_builds_by_default(target):
    (line,) = [ln for ln in _help_lines() if ln.startswith("make %s " % target)]
    m = re.search(r"\[BOARD=(\w+)\]", line)
    assert m, line
    for call in _deploy_calls(target):
        assert call[call.index("--board") + 1] == m.group(1), (line, call)
    if target != "deploy-dry-run":
        assert "SOURCE=1" in line and "TABLES=" in line  # the options it takes are named
