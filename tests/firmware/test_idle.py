"""The loop's idle wait (fdfw.idle.Idle): it sleeps in slices until the next deadline and ends early on a button
edge or a shake; while someone plays the slices are short, so a press is seen within QUICK_MS, and once nobody
has pressed or shaken for QUICK_FOR_MS they grow to SLICE_MS (fewer wakes while the game waits)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
from fdfw.idle import QUICK_FOR_MS, QUICK_MS, SLICE_MS, Idle  # noqa: E402


class Buttons:
    def __init__(self):
        self.edge = False

    def pending(self):
        return self.edge


class Shake:
    def __init__(self):
        self.moved = False

    def changed(self):
        return self.moved


def _idle(**kw):
    slices = []
    feeds = []
    buttons, shake = Buttons(), Shake()
    idle = Idle(slices.append, buttons, shake, lambda: feeds.append(1), **kw)
    return idle, slices, feeds, buttons, shake


def test_a_board_that_has_seen_no_press_yet_starts_with_quick_slices_and_slows_after_the_quiet_time():
    idle, slices, feeds, _, _ = _idle()
    idle.idle(QUICK_FOR_MS + 3 * SLICE_MS)
    assert slices[:QUICK_FOR_MS // QUICK_MS] == [QUICK_MS] * (QUICK_FOR_MS // QUICK_MS)
    assert slices[QUICK_FOR_MS // QUICK_MS:] == [SLICE_MS] * 3
    assert sum(slices) == QUICK_FOR_MS + 3 * SLICE_MS and len(feeds) == len(slices)


def test_a_press_ends_the_wait_before_the_next_slice_and_brings_the_quick_slices_back():
    idle, slices, _, buttons, _ = _idle()
    idle.idle(QUICK_FOR_MS + 100)  # a quiet board: long slices by now
    assert slices[-1] == SLICE_MS
    buttons.edge = True
    del slices[:]
    idle.idle(1000)
    assert slices == []  # the edge was waiting: no sleep at all
    buttons.edge = False
    idle.idle(2 * QUICK_MS)
    assert slices == [QUICK_MS, QUICK_MS]


def test_a_shake_counts_as_play_too():
    idle, slices, _, _, shake = _idle()
    idle.idle(QUICK_FOR_MS + SLICE_MS)
    shake.moved = True
    idle.idle(500)
    shake.moved = False
    del slices[:]
    idle.idle(QUICK_MS)
    assert slices == [QUICK_MS]


def test_the_quiet_count_stops_at_the_quiet_time():
    """A board left on for days with sleep off: the count stays a small int (a long one would allocate)."""
    idle, _, _, _, _ = _idle()
    for _ in range(100):
        idle.idle(QUICK_FOR_MS)
    assert QUICK_FOR_MS <= idle.quiet < QUICK_FOR_MS + SLICE_MS


def test_a_wait_shorter_than_a_slice_sleeps_just_that_long():
    idle, slices, _, _, _ = _idle()
    idle.idle(3)
    idle.idle(QUICK_FOR_MS)
    idle.idle(SLICE_MS + 7)
    assert slices[0] == 3 and slices[-2:] == [SLICE_MS, 7]
