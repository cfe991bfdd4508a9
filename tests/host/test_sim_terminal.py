"""The terminal simulator fits its terminal: the compact (Braille) frame shows exactly the full frame's pixels,
the layout follows the size, a resize clears and redraws, and Ctrl-C quits cleanly under a real pty."""
import fcntl
import os
import pty
import re
import select
import signal
import struct
import sys
import termios
import time

import pytest

from fivedice import app as A
from host_sim import sim
from host_sim.device import SimDevice
from host_sim.terminal import BRAILLE_BIT, layout, oled_lines, oled_lines_compact

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
HALF = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}


def _pixels_from_full(frame):
    """128x64 pixel grid read back from the half-block rendering (unframed)."""
    rows = oled_lines(frame, frame=False)
    px = [[0] * 128 for _ in range(64)]
    for ty, line in enumerate(rows):
        assert len(line) == 128
        for x, ch in enumerate(line):
            px[2 * ty][x], px[2 * ty + 1][x] = HALF[ch]
    return px


def _pixels_from_compact(frame):
    rows = oled_lines_compact(frame, frame=False)
    assert len(rows) == 16 and all(len(r) == 64 for r in rows)
    px = [[0] * 128 for _ in range(64)]
    for ty, line in enumerate(rows):
        for cx, ch in enumerate(line):
            bits = ord(ch) - 0x2800
            assert 0 <= bits <= 0xFF, ch
            for dx in range(2):
                for dy in range(4):
                    px[4 * ty + dy][2 * cx + dx] = 1 if bits & BRAILLE_BIT[dx][dy] else 0
    return px


def _real_frames():
    dev = SimDevice(mute=True)
    frames = [dev.board.display.raw()]  # the menu
    dev.tap(A.B_OK)  # new game
    dev.settle()
    dev.tap(A.B_ROLL)
    dev.settle()
    frames.append(dev.board.display.raw())  # dice on the turn screen
    dev.tap(A.B_HOLD1)
    dev.settle()
    frames.append(dev.board.display.raw())
    dev.tap(A.B_DOWN)  # the scorecard
    dev.settle()
    frames.append(dev.board.display.raw())
    dev.close()
    return frames


def test_every_compact_cell_shows_exactly_its_2x4_pixels_of_the_full_frame():
    frames = _real_frames()
    assert len(set(frames)) == len(frames)  # four different screens
    for f in frames:
        full = _pixels_from_full(f)
        assert sum(map(sum, full)) > 100  # a real, drawn frame
        assert _pixels_from_compact(f) == full
    # a single pixel lands in the right dot of the right cell
    one = bytearray(1024)
    one[(13 >> 3) * 128 + 77] = 1 << (13 & 7)  # pixel x=77, y=13
    rows = oled_lines_compact(bytes(one), frame=False)
    assert rows[3][38] == chr(0x2800 + BRAILLE_BIT[1][1])
    assert sum(ch != "\u2800" for r in rows for ch in r) == 1


@pytest.mark.parametrize(
    "cols,rows,mode",
    [(132, 40, "full"), (200, 60, "full"), (131, 40, "compact"), (132, 39, "compact"), (80, 24, "compact"),
     (100, 30, "compact"), (66, 22, "compact"), (65, 24, "small"), (80, 21, "small"), (40, 10, "small")],
)
def test_the_layout_follows_the_terminal_size(cols, rows, mode):
    assert layout(cols, rows) == mode


@pytest.mark.parametrize("mode,cols,rows", [("full", 132, 40), ("compact", 80, 24), ("compact", 66, 22)])
def test_each_layout_fits_the_smallest_terminal_it_is_chosen_for(mode, cols, rows):
    dev = SimDevice(mute=True)
    dev.tap(A.B_OK)
    dev.settle()
    text = ANSI.sub("", sim.screen(dev, mode, cols, rows))
    dev.close()
    lines = text.split("\n")
    assert len(lines) <= rows and max(len(s) for s in lines) <= cols


# -- under a real pty: the simulator process as a person runs it ------------------------------------------------


def _set_size(fd, cols, rows):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def _read_until(fd, pattern, timeout=20.0):
    buf = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
            if re.search(pattern, buf):
                return buf
    raise AssertionError("did not see %r; got %r" % (pattern, buf[-300:]))


def _drain(fd, timeout=30.0):
    buf = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], 0.2)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
    return buf


def _spawn(tmp_path, cols, rows, extra=()):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(ROOT, "lib"), ROOT]), TERM="xterm")
    save = str(tmp_path / "fivedice.sav")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the simulator on the pty's slave side, as `make sim` runs it
        _set_size(0, cols, rows)
        os.chdir(ROOT)
        os.execve(sys.executable, [sys.executable, "-m", "host_sim", "--save", save] + list(extra), env)
    return pid, fd, save


def _exit_status(pid, timeout=30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    raise AssertionError("the simulator did not quit")


BRAILLE_ROW = rb"(\xe2[\xa0-\xa3][\x80-\xbf]){64}"  # 64 Braille cells in a row: the compact frame
FULL_TOP = ("\u250c" + "\u2500" * 128 + "\u2510").encode()


def test_ctrl_c_quits_like_q_with_exit_0_and_the_game_saved(tmp_path):
    pid, fd, save = _spawn(tmp_path, 80, 24)
    try:
        _read_until(fd, BRAILLE_ROW)  # the menu, compact
        os.write(fd, b"\r")  # New game
        time.sleep(0.6)
        os.write(fd, b" ")  # roll: the game in progress is saved
        time.sleep(1.5)
        os.write(fd, b"\x03")
        out = _drain(fd, 5.0)
        status = _exit_status(pid)
    finally:
        os.close(fd)
    assert b"Traceback" not in out and b"KeyboardInterrupt" not in out
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    assert os.path.getsize(save) > 0


def test_a_resize_clears_the_screen_and_redraws_in_the_new_layout(tmp_path):
    pid, fd, _ = _spawn(tmp_path, 80, 24)
    try:
        first = _read_until(fd, BRAILLE_ROW)
        assert b"\x1b[2J" in first and FULL_TOP not in first
        _set_size(fd, 140, 45)  # the kernel sends SIGWINCH to the simulator
        grown = _read_until(fd, re.escape(FULL_TOP))
        assert b"\x1b[2J" in grown
        _set_size(fd, 50, 15)
        small = _read_until(fd, rb"too small")
        assert b"\x1b[2J" in small
        os.write(fd, b"q")
        _drain(fd, 3.0)
        status = _exit_status(pid)
    finally:
        os.close(fd)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def test_rules_and_players_set_the_game_played_in_the_terminal(tmp_path):
    from host_sim.device import SimDevice
    from host_sim.sim import FileStore

    pid, fd, save = _spawn(tmp_path, 80, 24, ["--rules", "yacht", "--players", "1", "--seed", "7"])
    try:
        _read_until(fd, BRAILLE_ROW)
        os.write(fd, b"\r")  # New game: the menu's rule set and players are the command line's
        time.sleep(1.5)
        os.write(fd, b"q")
        _drain(fd, 5.0)
        status = _exit_status(pid)
    finally:
        os.close(fd)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    dev = SimDevice(store=FileStore(save))
    g = dev.app.session.game
    assert g.rs.id == "yacht" and g.players == 1
    dev.close()
