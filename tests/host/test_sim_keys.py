"""The terminal simulator takes every key: bursts in one read, pastes, escape sequences split across reads and
30/s key repeat all reach the app, each press through the simulated debounced buttons, in the order typed.

The loop's parts are driven here without a tty, on a timeline of (real ms, bytes read) exactly as
sim.interactive() feeds them; one test runs the real process under a pty."""
import os
import time

import pytest

from fivedice import app as A
from host_sim import sim
from host_sim.device import POLL_MS, SimDevice
from host_sim.keys import KeyDecoder, PressQueue

UP, DOWN = b"\x1b[A", b"\x1b[B"


# -- the decoder --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "chunks,keys",
    [
        ([b"124"], ["1", "2", "4"]),
        ([b"\x1b[A\x1b[B"], ["up", "down"]),
        ([b"\x1bOA\x1bOB"], ["up", "down"]),  # application cursor mode (SS3)
        ([b"\x1b[1;2B"], ["down"]),  # Shift+Down: a CSI with parameters
        ([b"\x1b", b"[B"], ["down"]),  # split after ESC
        ([b"\x1b[", b"B"], ["down"]),  # split after [
        ([b"\x1b[1;", b"5A", b"1"], ["up", "1"]),  # split inside the parameters
        ([b"1\x1b[B\r \x7f"], ["1", "down", "\r", " ", "\x7f"]),
        ([b"\x1b[5~"], ["\x1b[5~"]),  # Page Up: an escape sequence that is no key of ours, as one key
        ([b"\x1bb"], ["\x1bb"]),  # Alt+b is not b
        ([b"\x1b\x1b[A"], ["esc", "up"]),
        ([b"\x03"], ["\x03"]),
        ([b"\xc3", b"\xa9x"], ["\u00e9", "x"]),  # a UTF-8 character split across reads is one key
    ],
)
def test_the_decoder_finds_every_key_in_whatever_chunks_the_bytes_arrive(chunks, keys):
    d = KeyDecoder()
    got = []
    for c in chunks:
        got += d.feed(c)
    assert got == keys and not d.waiting


def test_a_lone_escape_waits_for_more_and_is_the_escape_key_when_nothing_follows():
    d = KeyDecoder()
    assert d.feed(b"1\x1b") == ["1"] and d.waiting
    assert d.flush() == ["esc"] and not d.waiting
    assert d.feed(b"\x1b[1") == [] and d.flush() == ["\x1b[1"]  # never finished: one unknown key
    assert d.flush() == []


# -- the press queue on the simulated debounced buttons ----------------------------------------------------------


def _recorded(dev):
    """Record every press the app receives (after the debouncers), as button numbers."""
    seen = []
    real = dev.app.press

    def press(b, now):
        seen.append(b)
        return real(b, now)

    dev.app.press = press
    return seen


def _play(dev, timeline, after_ms=3000):
    """Feed (real ms, bytes) reads through decoder, take_keys and run_steps as the interactive loop does
    (one device step per 5 ms of real time), then let the simulation run on after_ms."""
    decoder = KeyDecoder()
    queue = PressQueue(dev.board.buttons.buttons)
    t = 0
    for at, data in timeline:
        n = (at - t) // POLL_MS
        sim.run_steps(dev, queue, n)
        t += n * POLL_MS
        assert not sim.take_keys(decoder.feed(data), dev, queue)
    sim.run_steps(dev, queue, after_ms // POLL_MS)
    assert not queue.busy()
    return queue


KEY_BUTTON = {"1": A.B_HOLD1, "2": A.B_HOLD2, "3": A.B_HOLD3, "4": A.B_HOLD4, "5": A.B_HOLD5, "j": A.B_DOWN,
              "k": A.B_UP}


def _game_after_a_roll():
    dev = SimDevice(mute=True)
    dev.tap(A.B_OK)  # New game
    dev.settle()
    dev.tap(A.B_ROLL)
    dev.settle()
    assert dev.app.mode == A.M_TURN and dev.app.session.game.rolls_left() < 3
    return dev


def _held(dev):
    return [i for i in range(5) if dev.app.session.game.held & (1 << i)]


def test_a_burst_typed_in_one_read_lands_every_key_in_order():
    dev = _game_after_a_roll()
    seen = _recorded(dev)
    _play(dev, [(0, b"124")])
    assert seen == [A.B_HOLD1, A.B_HOLD2, A.B_HOLD4]
    assert _held(dev) == [0, 1, 3]
    dev.close()


def test_a_paste_of_31_keys_lands_all_31_presses():
    dev = _game_after_a_roll()
    seen = _recorded(dev)
    paste = b"12345" * 6 + b"1"  # each hold toggled 6 times, die 1 once more
    _play(dev, [(0, paste)])
    assert seen == [KEY_BUTTON[chr(c)] for c in paste]
    assert _held(dev) == [0]
    dev.close()


def test_arrow_sequences_split_across_reads_each_move_the_menu_cursor_once():
    dev = SimDevice(mute=True)
    seen = _recorded(dev)
    n = dev.app.menu.n
    assert n >= 3 and dev.app.screen.cursor == 0
    _play(dev, [(0, b"\x1b"), (3, b"[B\x1b["), (40, b"B"), (41, b"\x1b[B\x1b"), (90, b"[A\x1bO"), (91, b"B")])
    assert seen == [A.B_DOWN, A.B_DOWN, A.B_DOWN, A.B_UP, A.B_DOWN]
    assert dev.app.screen.cursor == 3 % n
    dev.close()


def _repeat(key, n, per_s):
    return [(int(i * 1000 / per_s), key) for i in range(n)]


@pytest.mark.parametrize("per_s", [10, 30, 60])
def test_held_down_at_key_repeat_rate_moves_the_menu_cursor_once_per_repeat(per_s):
    dev = SimDevice(mute=True)
    seen = _recorded(dev)
    n = dev.app.menu.n
    _play(dev, _repeat(DOWN, 15, per_s))
    assert seen == [A.B_DOWN] * 15
    assert dev.app.screen.cursor == 15 % n
    dev.close()


def test_held_down_at_30_per_second_in_the_score_picker_moves_one_line_per_repeat():
    dev = _game_after_a_roll()
    dev.tap(A.B_OK)  # the score picker
    dev.settle()
    assert dev.app.mode == A.M_PICK
    seen = _recorded(dev)
    npick, start = dev.app.screen.n, dev.app.screen.cursor
    _play(dev, _repeat(DOWN, 30, 30) + [(2000, UP * 3)])
    assert seen == [A.B_DOWN] * 30 + [A.B_UP] * 3
    assert dev.app.screen.cursor == (start + 30 - 3) % npick
    dev.close()


def test_the_same_button_is_released_through_its_debouncer_before_it_is_pressed_again():
    dev = SimDevice(mute=True)
    buttons = dev.board.buttons.buttons
    q = PressQueue(buttons)
    for _ in range(5):
        q.push("down")
    downs = []
    while q.busy():
        q.update(dev.clock.now)
        dev.step()
        downs.append(buttons["down"].down)
    edges = sum(1 for a, b in zip([False] + downs, downs) if b and not a)
    assert edges == 5 and q.started == 5
    dev.close()


@pytest.mark.parametrize("quit_key", ["q", "\x03"])
def test_keys_typed_before_a_quit_key_still_land_and_the_keys_after_it_do_not(quit_key):
    dev = _game_after_a_roll()
    seen = _recorded(dev)
    queue = PressQueue(dev.board.buttons.buttons)
    assert sim.take_keys(KeyDecoder().feed(b"12" + quit_key.encode() + b"3"), dev, queue)
    sim.drain(dev, queue)
    assert seen == [A.B_HOLD1, A.B_HOLD2] and _held(dev) == [0, 1] and not queue.busy()
    dev.close()


# -- the real process under a pty ------------------------------------------------------------------------------


def _until_still(fd, quiet=0.6, timeout=30.0):
    """Read the simulator's output until the screen has not changed for `quiet` seconds (the app is idle)."""
    import select

    end = time.monotonic() + timeout
    seen = False
    while time.monotonic() < end:
        r, _, _ = select.select([fd], [], [], quiet)
        if not r:
            if seen:
                return
            continue
        os.read(fd, 65536)
        seen = True
    raise AssertionError("the simulator never went still")


def test_a_paste_into_the_running_simulator_holds_exactly_the_dice_it_says(tmp_path):
    from test_sim_terminal import BRAILLE_ROW, _drain, _exit_status, _read_until, _spawn

    pid, fd, save = _spawn(tmp_path, 80, 24)
    try:
        _read_until(fd, BRAILLE_ROW)
        os.write(fd, b"\r")  # New game
        _until_still(fd)
        os.write(fd, b" ")  # roll (holds are refused while the dice tumble)
        _until_still(fd)
        os.write(fd, b"12345" * 6 + b"13" + b"\x1b")  # 32 keys in one write, then the start of an arrow
        time.sleep(0.05)
        os.write(fd, b"[B")  # ... finished in the next read: the scorecard
        time.sleep(0.5)
        os.write(fd, b"\x7fq")  # back, quit
        _drain(fd, 3.0)
        status = _exit_status(pid)
    finally:
        os.close(fd)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    dev = SimDevice(store=sim.FileStore(save), mute=True)  # the saved game, resumed
    try:
        assert dev.app.session.in_game()
        assert _held(dev) == [0, 2]
    finally:
        dev.close()
