"""MicroPython's idle sleep over the buttons' IRQ ring (fdfw.board_mp.edge_sleep, on the unix port): a quick slice
is slept a ms at a time and ends at the first button edge, so a press waits up to a ms, not to the slice's end; a
longer sleep (nobody plays) is slept whole. It allocates nothing: it runs between the loop's passes."""
import sys
from array import array

from heaplock import locked

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
for _p in ("/firmware", "/firmware/vendor"):
    if _HERE + "/../.." + _p not in sys.path:
        sys.path.append(_HERE + "/../.." + _p)

from fdfw.board_mp import edge_sleep  # noqa: E402
from fivedice.loop import QUICK_MS, SLICE_MS  # noqa: E402


class Ring:
    """fdfw.buttons.EdgeRing's state: head (the IRQ writes it), tail (the reader's)."""

    def __init__(self):
        self.state = array("i", [0, 0, 0])


class Clock:
    """time.sleep_ms that counts its calls and ms, and lets an edge arrive after `edge_at` ms."""

    def __init__(self, ring, edge_at=-1):
        self.ring = ring
        self.edge_at = edge_at
        self.calls = 0
        self.ms = 0

    def sleep_ms(self, ms):
        self.calls += 1
        self.ms += ms
        if self.ms == self.edge_at:
            self.ring.state[0] += 1  # a button edge, written by the pin's hard IRQ


def test_a_quick_slice_is_slept_a_ms_at_a_time():
    ring = Ring()
    clock = Clock(ring)
    edge_sleep(clock.sleep_ms, ring)(QUICK_MS)
    assert clock.calls == QUICK_MS and clock.ms == QUICK_MS


def test_an_edge_ends_the_slice_within_its_ms():
    ring = Ring()
    clock = Clock(ring, edge_at=2)
    edge_sleep(clock.sleep_ms, ring)(QUICK_MS)
    assert clock.ms == 2  # not 5: the press is read 2 ms in


def test_an_edge_waiting_already_is_not_slept_on():
    ring = Ring()
    ring.state[0] = 1  # unread: the reader's tail is behind
    clock = Clock(ring)
    edge_sleep(clock.sleep_ms, ring)(QUICK_MS)
    assert clock.calls == 0


def test_a_long_sleep_nobody_plays_is_one_sleep():
    ring = Ring()
    clock = Clock(ring)
    edge_sleep(clock.sleep_ms, ring)(SLICE_MS)
    assert clock.calls == 1 and clock.ms == SLICE_MS


def test_the_sleep_allocates_nothing():
    ring = Ring()
    clock = Clock(ring)
    sleep = edge_sleep(clock.sleep_ms, ring)
    sleep(QUICK_MS)
    assert locked(lambda: sleep(QUICK_MS)) == 0 and locked(lambda: sleep(SLICE_MS)) == 0
