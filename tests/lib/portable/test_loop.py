"""The main loop every port runs (fivedice.loop): a pass polls the buttons, updates the shake sensors, ticks the
app and draws when a frame is due, else sleeps (a board with the screen off) or waits (Idle); runs on CPython and
MicroPython. Idle sleeps in slices until the next deadline and ends early on a button edge or a shake; while
someone plays the slices are short, so a press is seen within QUICK_MS, and once nobody has pressed or shaken for
QUICK_FOR_MS they grow to SLICE_MS (fewer wakes while the game waits)."""
from fivedice.loop import QUICK_FOR_MS, QUICK_MS, SLICE_MS, WAKE_QUIET_MS, Idle, Loop


class App:
    """The App's loop calls, logged: ("press", b, now), ("shake", on, now), ("tick", now), ("draw",), ..."""

    def __init__(self):
        self.log = []
        self.frame_due = False
        self.wait = 0  # wait_ms's answer
        self.off = False  # asleep()

    def press(self, b, now):
        self.log.append(("press", b, now))
        return 0

    def shake(self, on, now):
        self.log.append(("shake", on, now))

    def tick(self, now):
        self.log.append(("tick", now))
        return self.frame_due

    def draw(self):
        self.log.append(("draw",))

    def wait_ms(self, now, most=1000):
        return self.wait

    def asleep(self):
        return self.off

    def wake(self, now):
        self.off = False
        self.log.append(("wake", now))


class Buttons:
    """A board's reader: poll() gives the mask queued for the pass."""

    def __init__(self):
        self.masks = []
        self.held = 0
        self.wait = 1000
        self.edge = False

    def poll(self):
        return self.masks.pop(0) if self.masks else 0

    def down(self):
        return self.held

    def wait_ms(self):
        return self.wait

    def pending(self):
        return self.edge


class Taps:
    """A queue (the web page's): one tap a poll, more() while taps wait."""

    def __init__(self, taps):
        self.q = list(taps)

    def poll(self):
        return 1 << self.q.pop(0) if self.q else 0

    def more(self):
        return len(self.q) > 0


class Sensor:
    """update(now) hands out the scripted events, one a pass; wait_ms(now) its answer."""

    def __init__(self, events, wait=1000):
        self.events = list(events)
        self.wait = wait
        self.moved = False

    def update(self, now):
        return self.events.pop(0) if self.events else 0

    def wait_ms(self, now):
        return self.wait

    def changed(self):
        return self.moved


def _clock(step=5):
    t = [0]

    def ticks_ms():
        t[0] += step
        return t[0]

    return ticks_ms


def test_a_mask_is_pressed_lowest_button_first_then_the_sensors_then_the_tick():
    app, buttons = App(), Buttons()
    buttons.masks = [(1 << 5) | (1 << 0) | (1 << 8)]
    lp = Loop(app, buttons, Sensor([1]), _clock())
    assert lp.step() == 5
    assert app.log == [("press", 0, 5), ("press", 5, 5), ("press", 8, 5), ("shake", True, 5), ("tick", 5)]


def test_a_queue_of_taps_is_pressed_in_the_order_it_came_repeats_kept():
    app = App()
    lp = Loop(app, Taps([5, 0, 7, 7]), None, _clock())
    lp.step()
    assert app.log == [("press", 5, 5), ("press", 0, 5), ("press", 7, 5), ("press", 7, 5), ("tick", 5)]
    del app.log[:]
    lp.step()
    assert app.log == [("tick", 10)]


def test_each_sensor_of_a_tuple_is_updated_every_pass_in_order():
    app = App()
    lp = Loop(app, Buttons(), (Sensor([1, 0, -1]), Sensor([-1, 1])), _clock())
    for _ in range(3):
        lp.step()
    shakes = [e for e in app.log if e[0] == "shake"]
    assert shakes == [("shake", True, 5), ("shake", False, 5), ("shake", True, 10), ("shake", False, 15)]


def test_a_due_frame_is_drawn_in_the_pass_and_said_in_q2():
    app = App()
    lp = Loop(app, Buttons(), None, _clock())
    app.frame_due = True
    lp.step()
    assert app.log[-1] == ("draw",) and lp.q[2]
    app.frame_due = False
    lp.step()
    assert app.log[-1] == ("tick", 10) and not lp.q[2]


def test_feed_is_called_every_pass():
    feeds = []
    lp = Loop(App(), Buttons(), None, _clock(), feed=lambda: feeds.append(1))
    for _ in range(4):
        lp.step()
    assert len(feeds) == 4


def test_a_pass_with_nothing_due_waits_the_soonest_of_the_app_buttons_and_sensors():
    app, buttons = App(), Buttons()
    waits = []
    lp = Loop(app, buttons, (Sensor([], 300), Sensor([], 40)), _clock(), idle=waits.append)
    app.wait = 500
    lp.step()
    buttons.wait = 12
    lp.step()
    app.wait = 0  # something due now: no wait
    lp.step()
    app.wait = 30
    buttons.wait = 1000
    app.frame_due = True  # a frame: drawn, no wait
    lp.step()
    assert waits == [40, 12]


def test_a_board_with_the_screen_off_sleeps_and_drops_the_presses_of_its_wake():
    app, buttons = App(), Buttons()
    sleeps = []
    t = [0]

    def ticks_ms():
        return t[0]

    def sleep():
        sleeps.append(t[0])
        t[0] += 60000  # asleep a minute, woken by a press

    lp = Loop(app, buttons, None, ticks_ms, idle=lambda ms: None, sleep=sleep)
    app.off = True
    lp.step()
    assert sleeps == [0] and app.log[-1] == ("wake", 60000)
    buttons.held = 1
    buttons.masks = [1 << 2]  # the waking press's edge
    t[0] += WAKE_QUIET_MS + 5
    lp.step()  # quiet time over, but the button is still down: dropped
    buttons.held = 0
    buttons.masks = [1 << 3]
    t[0] += 5
    lp.step()  # every button up: this press counts
    assert [e for e in app.log if e[0] == "press"] == [("press", 3, 60000 + WAKE_QUIET_MS + 10)]


def test_without_sleep_a_dark_screen_only_ticks():
    app = App()
    app.off = True
    lp = Loop(app, Buttons(), None, _clock())
    lp.step()
    assert app.log == [("tick", 5)]


def _idle(**kw):
    slices = []
    feeds = []
    buttons, shake = Buttons(), Sensor([])
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


def test_an_edge_that_comes_during_the_wait_is_seen_when_it_has_settled_not_a_slice_later():
    """MicroPython's edge reader commits a press once its level has lasted the debounce interval (wait_ms says
    how soon): the slice then ends at that moment, so the press is not held a further slice."""
    slices = []
    buttons = Buttons()

    def sleep(ms):
        slices.append(ms)
        if len(slices) == 2:
            buttons.wait = 3  # an edge came during this slice: it settles 3 ms on
        elif len(slices) == 3:
            buttons.edge = True  # settled: the pass will commit it

    idle = Idle(sleep, buttons)
    idle.idle(1000)
    assert slices == [QUICK_MS, QUICK_MS, 3]
    buttons.edge = False
    buttons.wait = 0  # (a reader still settling a level it has replayed): the pass polls now
    del slices[:]
    idle.idle(1000)
    assert slices == []


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
