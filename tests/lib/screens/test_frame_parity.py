"""The same frames on both runtimes: MicroPython's framebuf and CPython's adafruit_framebuf draw identical pixels."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SCRIPT = os.path.join(ROOT, "tests", "support", "frame_script.py")
FAKES = os.path.join(ROOT, "tests", "firmware", "fakes")


def frames(cmd, env, *args):
    r = subprocess.run(cmd + [SCRIPT] + list(args), capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
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


def _cp_path():
    """The CircuitPython stack's path: fakes of the C modules first, then firmware/ and lib/."""
    return [os.path.join(FAKES, "cp"), FAKES, os.path.join(ROOT, "firmware"), os.path.join(ROOT, "lib")]


def test_circuitpython_bitmap_backend_puts_micropythons_frames_on_the_panel():
    """Every screen drawn by fdfw.board_cp (bitmaptools fill_region + glyph blits into the panel-layout Bitmap,
    the drawn columns sent from its memory over busio.I2C) is what the fake SSD1306 shows, decoded from the
    bytes it received, exactly as framebuf draws it, whether that stack runs on CPython or on the MicroPython
    unix port."""
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "lib"), MICROPYPATH=os.path.join(ROOT, "lib") + ":.frozen")
    mp = frames([os.path.join(os.path.dirname(sys.executable), "micropython")], env)
    path = _cp_path()
    env_cp = dict(os.environ, PYTHONPATH=os.pathsep.join(path), MICROPYPATH=":".join(path + [".frozen"]))
    on_cpython = frames([sys.executable], env_cp, "cp")
    on_mp = frames([os.path.join(os.path.dirname(sys.executable), "micropython"), "-X", "heapsize=2M"], env_cp, "cp")
    assert list(on_cpython) == list(mp) and list(on_mp) == list(mp)
    for name in mp:
        assert on_cpython[name] == mp[name], "screen %s differs: Bitmap backend on CPython vs framebuf" % name
        assert on_mp[name] == mp[name], "screen %s differs: Bitmap backend on MicroPython vs framebuf" % name


def test_micropython_block_sending_driver_puts_framebufs_frames_on_the_panel():
    """Every screen drawn by fdfw.board_mp.PagedSSD1306 (only the changed 32-column blocks of each page sent,
    every frame between the compared ones too) lands on the fake SSD1306 exactly as plain framebuf draws it."""
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "lib"), MICROPYPATH=os.path.join(ROOT, "lib") + ":.frozen")
    exe = [os.path.join(os.path.dirname(sys.executable), "micropython")]
    plain = frames(exe, env)
    path = [os.path.join(ROOT, "lib"), FAKES, os.path.join(ROOT, "firmware"), os.path.join(ROOT, "firmware", "vendor")]
    env_mp = dict(os.environ, MICROPYPATH=":".join(path + [".frozen"]))
    sent = frames(exe, env_mp, "mp")
    assert list(sent) == list(plain)
    for name in plain:
        assert sent[name] == plain[name], "screen %s differs: the block-sending driver vs framebuf" % name
