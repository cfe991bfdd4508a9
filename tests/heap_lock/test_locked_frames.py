"""On MicroPython a frame is drawn and a coach slice taken with the heap locked (fivedice.compat.heap_lock): a
call whose frame needs over 11 words then takes it from the C stack instead of searching a fragmented heap for
it (2-7x faster on a Pico). What allocates there after all is done again, unlocked, and a frame drawn again
whole."""
from fivedice import app as A
from fivedice.rng import Dice
from fivedice.screens import Screen
from heaplock import Display


def entropy(n):
    return bytes(range(n))


class FirstFrameMakes(Screen):
    """A screen whose first frame makes what it keeps (as the dice sprites are made)."""

    def __init__(self):
        self.whole = False
        self.log = bytearray(4)  # per draw() call: 1 drawn in part, 2 asked to draw whole
        self.n = 0
        self.kept = None

    def draw(self, fb, app):
        self.log[self.n] = 2 if self.whole else 1
        self.n += 1
        if self.kept is None:
            self.kept = bytearray(8)


class Slices:
    """Coach.work's side of a coach: a slice a call, the first making what it keeps."""

    solved = False

    def __init__(self):
        self.calls = 0
        self.kept = None

    def work(self, card):
        self.calls += 1
        if self.kept is None:
            self.kept = bytearray(8)
        return False


def test_a_frame_that_allocates_is_drawn_again_whole_unlocked_and_shown_once():
    d = Display()
    app = A.App(d, dice=Dice(entropy))
    s = FirstFrameMakes()
    app.screen = s
    shown = d.shown
    app.draw()
    assert s.n == 2 and s.log[0] == 1 and s.log[1] == 2  # locked, it raised; then whole
    assert s.kept is not None and d.shown == shown + 1
    s.whole = False
    app.draw()
    assert s.n == 3 and s.log[2] == 1  # nothing to make: one locked call


def test_a_coach_slice_that_allocates_is_taken_again_unlocked():
    app = A.App(Display(), dice=Dice(entropy))
    app.session.new_game()
    c = Slices()
    app.seats.turn_coach = lambda g: c
    assert app.session._think()  # still working
    assert c.calls == 2 and c.kept is not None  # locked, it raised; then again
    app.session._think()
    assert c.calls == 3


class BadTable(Slices):
    def work(self, card):
        self.calls += 1
        raise OSError(5)


def test_a_slice_that_fails_leaves_the_heap_unlocked():
    app = A.App(Display(), dice=Dice(entropy))
    app.session.new_game()
    c = BadTable()
    app.seats.turn_coach = lambda g: c
    app.session._think()  # the table failed: the coach is lost, as without the lock
    assert c.calls >= 1
    assert len(bytearray(64)) == 64  # the heap is not left locked
