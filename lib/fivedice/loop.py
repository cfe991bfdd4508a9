"""The main loop, one copy for every port: poll, tick, draw, wait. The board (fdfw.loop.main),
the simulator (host_sim.device) and the web page (web/fivedice_web.py) each build a Loop over the
App with their own clock, buttons and shake sensors, and step it a pass at a time."""
# A pass, what each port hands in and the wait per port: docs/library.md ("The main loop").
# Nothing is allocated per pass (tests/heap_lock/test_heap_loop.py).
from fivedice.compat import const
from fivedice.ticks import ticks_add, ticks_diff

# after a wake: the waking press is dropped (it is debounced and released within this)
WAKE_QUIET_MS = 60


class Loop:
    """The main loop over a built app: run() forever, a pass per step(). idle(ms): the wait (an
    Idle's idle); sleep(): the board's light sleep; feed(): called every pass (the watchdog's), so
    only a hung pass lets the watchdog reset the board."""

    def __init__(self, app, buttons, shake, ticks_ms, idle=None, feed=None, sleep=None):
        if shake is not None and not isinstance(shake, tuple):
            shake = (shake,)
        # one tuple: one allocation of known size, not an attribute dict that grows and leaves
        # holes in the heap (methods are called, never loaded: a loaded one would allocate)
        self.m = (app, buttons, shake, ticks_ms, idle, feed, sleep, hasattr(buttons, "more"))
        # [0] after a wake the presses are dropped (quiet) until [1], every button up; [2] the last
        # pass drew a frame
        self.q = [False, 0, False]

    def run(self):
        self.m[0].draw()
        step = self.step
        while True:
            step()

    def step(self):
        """One pass; returns the time it read (self.q[2]: it drew a frame)."""
        app, buttons, shakes, ticks_ms, idle, feed, sleep, more = self.m
        q = self.q
        if feed is not None:
            feed()
        now = ticks_ms()
        if q[0] and ticks_diff(now, q[1]) >= 0 and not buttons.down():
            q[0] = False  # checked before the poll: a new press in this poll counts
        mask = buttons.poll()
        while True:
            if q[0]:
                mask = 0  # the press that woke the board does nothing else
            if mask:
                for b in range(30):
                    if (mask >> b) & 1:
                        app.press(b, now)
            if not more or not buttons.more():
                break
            mask = buttons.poll()
        if shakes is not None:
            for s in shakes:
                e = s.update(now)
                if e > 0:
                    app.shake(True, now)
                elif e < 0:
                    app.shake(False, now)
        q[2] = app.tick(now)
        if q[2]:
            app.draw()
        elif sleep is not None and app.asleep():
            sleep()
            now = ticks_ms()
            app.wake(now)
            q[0] = True
            q[1] = ticks_add(now, WAKE_QUIET_MS)
        elif idle is not None:
            ms = app.wait_ms(now)
            if ms:
                w = buttons.wait_ms()
                if w < ms:
                    ms = w
                if shakes is not None:
                    for s in shakes:
                        w = s.wait_ms(now)
                        if w < ms:
                            ms = w
                if ms > 0:
                    idle(ms)
        return now


SLICE_MS = const(20)  # the slice when nobody plays (make bench-power: 10 ms slices cost 2x the CPU)
QUICK_MS = const(5)  # the slice while someone plays: a press is seen within 5 ms, 2.5 on average
QUICK_FOR_MS = const(3000)  # quick slices go on this long after the last press or shake


class Idle:
    """The wait between passes on a port that sleeps (the board): Idle(sleep_ms, buttons, shake,
    feed).idle(ms) sleeps up to ms in slices and returns early when a button edge is pending or the
    shake switch changed, so a press waits at most a slice: QUICK_MS while someone plays (until
    QUICK_FOR_MS of quiet), SLICE_MS after (fewer wakes); a debounce that will count a level soon
    (the buttons' wait_ms) shortens the slice to that time. feed() is called every slice."""

    def __init__(self, sleep_ms, buttons, shake=None, feed=None):
        self._sleep = sleep_ms
        self._pending = buttons.pending
        self._settle = buttons.wait_ms
        self._changed = shake.changed if shake is not None and hasattr(shake, "changed") else None
        self._feed = feed
        # ms slept since a press or a shake last ended a wait, up to QUICK_FOR_MS (then slow slices)
        self.quiet = 0

    def idle(self, ms):
        """Sleep up to ms; return early when a button edge or a shake-switch change is pending."""
        sleep = self._sleep
        pending = self._pending
        settle = self._settle
        changed = self._changed
        feed = self._feed
        while ms > 0:
            if pending() or (changed is not None and changed()):
                self.quiet = 0
                return
            sl = QUICK_MS if self.quiet < QUICK_FOR_MS else SLICE_MS
            s = sl if ms > sl else ms
            # a level the debounce counts during the wait is read then, not a slice later
            w = settle()
            if w < s:
                if w <= 0:
                    return
                s = w
            sleep(s)
            # it stops there: an int that grew for days would leave the small ints
            if self.quiet < QUICK_FOR_MS:
                self.quiet += s
            ms -= s
            if feed is not None:
                feed()
