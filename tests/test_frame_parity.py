"""The same frames on both runtimes: MicroPython's framebuf and CPython's adafruit_framebuf draw identical pixels."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tests", "frame_script.py")


def frames(cmd, env):
    r = subprocess.run(cmd + [SCRIPT], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    return dict(line.split(" ", 1) for line in r.stdout.splitlines())


def test_every_screen_is_pixel_identical_on_micropython_and_cpython():
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "lib"), MICROPYPATH=os.path.join(ROOT, "lib") + ":.frozen")
    mp = frames([os.path.join(os.path.dirname(sys.executable), "micropython")], env)
    cp = frames([sys.executable], env)
    assert list(mp) == ["menu", "turn", "rolled", "held", "picker", "scored", "card", "help"]
    assert len(set(mp.values())) == len(mp)  # eight different screens
    for name in mp:
        assert mp[name] == cp[name], "screen %s differs between the runtimes" % name
