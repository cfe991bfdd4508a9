"""Ten (or any number of) active-low buttons read as one press bitmask; no tap lost to a slow frame.
"""
# Every reader has the same calls: poll() -> bitmask of the app buttons pressed since the last poll,
# down() -> bitmask of the app buttons held now, and for the idle wait (fivedice.loop.Idle):
# pending() -> True when an edge waits to be read (checked between sleep slices), wait_ms() -> how
# soon the next poll is needed anyway (0: now; a debouncer still settling; else IDLE_MS).
# make(inputs, ids) picks the reader for what the board's setup module built (hw.button_inputs):
#
# - KeypadButtons (fdfw.keys_cp): a CircuitPython `keypad.Keys`. The C core scans the pins in the
#   background (debounced, timestamped events in a queue), so a tap during a 250 ms frame waits in
#   the queue. poll() drains it with `events.get_into()` into one Event made at start-up (get()
#   would allocate an Event per call).
# - EdgeButtons: MicroPython pins whose hard IRQ (EdgeRing) writes every edge, with its ticks, into
#   a preallocated ring. poll() replays the edges, oldest first, *at their own times*, so a 20 ms
#   tap that starts and ends inside one frame is still one press; a key's first edge after 10 ms
#   of quiet counts at once and the next 10 ms of chatter is ignored (a lock-out debounce).
# - Buttons: a list of DigitalInOut objects or pin-level callables, each under adafruit_debouncer,
#   polled once a pass (CircuitPython builds without `keypad`, host tools). A tap shorter than a
#   pass can be missed here.
#
# A pressed button reads low, so a press is a fall to 0.
from array import array

from fivedice.compat import const
from fivedice.ticks import ticks_add, ticks_diff

# adafruit_debouncer is imported by the reader that uses it (Buttons), not here: a board with
# keypad or pin IRQs never needs it, and its 6 KB of code (64-bit unix port) would stay in the
# heap for nothing.


_RING = const(128)  # edges held between two polls: ~10 bouncy taps (a clean tap is 2 edges)
IDLE_MS = const(1000000)  # nothing to do until an edge arrives
_POLL_MS = const(5)  # readers that must be polled (no queue, no IRQ): every 5 ms
_LOCKOUT_MS = const(10)  # EdgeButtons' lock-out: the chatter after an edge that counted


def make(inputs, ids):
    """The reader for hw.button_inputs: a keypad.Keys, an EdgeRing, or a list of inputs/callables.
    """
    if hasattr(inputs, "events"):
        from fdfw.keys_cp import KeypadButtons

        return KeypadButtons(inputs, ids)
    if isinstance(inputs, EdgeRing):
        return EdgeButtons(inputs, ids)
    return Buttons(inputs, ids)


class Buttons:
    """inputs[k]: a DigitalInOut or a callable returning the pin level; ids[k]: the app button
    number (0..29)."""

    def __init__(self, inputs, ids, interval_s=0.01):
        if len(inputs) != len(ids):
            raise ValueError("one id per input")
        from adafruit_debouncer import Debouncer

        self._deb = [Debouncer(i, interval=interval_s) for i in inputs]
        self._ids = bytes(ids)
        self._n = len(inputs)

    def poll(self):
        """Update every debouncer; return a bitmask of the app buttons pressed since the last poll.
        """
        mask = 0
        deb = self._deb
        ids = self._ids
        for k in range(self._n):
            d = deb[k]
            d.update()
            if d.fell:
                mask |= 1 << ids[k]
        return mask

    def down(self):
        """Bitmask of the app buttons held down now (debounced)."""
        mask = 0
        for k in range(self._n):
            if not self._deb[k].value:
                mask |= 1 << self._ids[k]
        return mask

    def pending(self):
        return False  # no queue to look at: wait_ms() keeps the polls coming

    def wait_ms(self):
        return _POLL_MS


class EdgeRing:
    """Every edge of `pins` (machine.Pin inputs with pull-ups), timestamped by ticks_ms, in a
    preallocated ring.

    The IRQ handlers only store two numbers and move an index: no allocation, so they may run as
    hard IRQs. `trigger` is Pin.IRQ_FALLING | Pin.IRQ_RISING. An edge that finds the ring full is
    dropped and counted in state[2]; the reader then reads the pins afresh."""

    def __init__(self, pins, ticks_ms, trigger, hard=True, size=_RING):
        self.pins = pins
        self.n = len(pins)
        self.size = size
        # edge time (ticks_ms, below 2**30: fits a signed int32)
        self.ticks = array("i", bytes(4 * size))
        self.keys = bytearray(size)  # key << 1 | level read in the handler
        # head (written by IRQs), tail (written by the reader), dropped
        self.state = array("i", [0, 0, 0])
        self.clock = ticks_ms
        self.handlers = []
        for k in range(self.n):
            h = self._handler(k)
            self.handlers.append(h)
            pins[k].irq(handler=h, trigger=trigger, hard=hard)
        # the levels the reader starts from, read after the IRQs are on: an edge in between is in
        # the ring
        self.levels = bytearray(self.n)
        for k in range(self.n):
            self.levels[k] = 1 if pins[k].value() else 0

    def _handler(self, k):
        # two cells and one argument: MicroPython calls a closure with more than 5 cells + arguments
        # through a heap-allocated array (a 6-cell version failed under heap_lock), which a hard IRQ
        # cannot have
        r = self
        kk = k << 1

        def edge(pin):
            st = r.state
            head = st[0]
            nxt = head + 1
            if nxt == r.size:
                nxt = 0
            if nxt == st[1]:
                st[2] += 1
                return
            r.ticks[head] = r.clock()
            r.keys[head] = kk | (1 if pin.value() else 0)
            st[0] = nxt

        return edge


class EdgeButtons:
    """ring: an EdgeRing; key k is app button ids[k]. A quiet key's first edge counts at once; the
    edges of the interval after it are its chatter."""

    # A lock-out debounce (as Hinch's micropython-async Switch and Pushbutton, QMK's "eager" ones):
    # a press is read when it comes, not an interval later. A window that ends on another level
    # than it began with counts that level at its end. A spike shorter than the IRQ's latency is no
    # edge: the handler reads the level back up.

    def __init__(self, ring, ids, interval_ms=_LOCKOUT_MS):
        if ring.n != len(ids):
            raise ValueError("one id per pin")
        n = ring.n
        self._ring = ring
        self._ids = bytes(ids)
        self._iv = interval_ms
        self._state = bytearray(ring.levels)  # the level each key counts as (1: up)
        self._at = array("i", bytes(4 * n))  # when it began to count
        self._lock = bytearray(n)  # 1: that window is still open (or not yet seen closed)
        self._dropped = 0

    def _settle(self, k, t, mask):
        """Close key k's window if it ended by tick t: a level other than the counted one (the
        key's last edge, lv[k]) counts from the window's end, and opens a window of its own."""
        at = self._at
        while self._lock[k] and ticks_diff(t, at[k]) >= self._iv:
            lvl = self._ring.levels[k]
            if lvl == self._state[k]:
                self._lock[k] = 0
            else:
                self._state[k] = lvl
                at[k] = ticks_add(at[k], self._iv)
                if not lvl:
                    mask |= 1 << self._ids[k]
        return mask

    def _count(self, k, t, mask):
        """Quiet key k counts its last edge's level from tick t, and its window opens; a fall is a
        press."""
        lvl = self._ring.levels[k]
        self._state[k] = lvl
        self._at[k] = t
        self._lock[k] = 1
        return mask if lvl else mask | 1 << self._ids[k]

    def poll(self):
        ring = self._ring
        st = ring.state
        ts = ring.ticks
        keys = ring.keys
        lv = ring.levels
        size = ring.size
        state = self._state
        lock = self._lock
        mask = 0
        tail = st[1]
        while tail != st[0]:
            kv = keys[tail]
            t = ts[tail]
            k = kv >> 1
            if lock[k]:
                mask = self._settle(k, t, mask)  # (with the level before this edge)
            lvl = kv & 1
            lv[k] = lvl
            if not lock[k] and lvl != state[k]:  # a quiet key's first edge: it counts now
                mask = self._count(k, t, mask)
            tail += 1
            if tail == size:
                tail = 0
            st[1] = tail
        if st[2] != self._dropped:  # the ring overflowed: edges were lost, so believe the pins now
            self._dropped = st[2]
            pins = ring.pins
            for k in range(ring.n):
                lv[k] = 1 if pins[k].value() else 0
        now = ring.clock()
        for k in range(ring.n):
            if lock[k]:
                mask = self._settle(k, now, mask)
            if not lock[k] and lv[k] != state[k]:  # (only after an overflow)
                mask = self._count(k, now, mask)
        return mask

    def down(self):
        mask = 0
        for k in range(self._ring.n):
            if not self._state[k]:
                mask |= 1 << self._ids[k]
        return mask

    def pending(self):
        """An edge waits in the ring: the poll now reads it (a quiet key's counts at once)."""
        st = self._ring.state
        return st[0] != st[1]

    def wait_ms(self):
        """0: an edge waits; else the ms until the first window to end on another level than it
        began with (its level counts then); else IDLE_MS."""
        r = self._ring
        if r.state[0] != r.state[1]:
            return 0
        w = IDLE_MS
        now = r.clock()
        for k in range(r.n):
            if self._lock[k] and r.levels[k] != self._state[k]:
                left = self._iv - ticks_diff(now, self._at[k])
                if left < w:
                    w = left if left > 0 else 0
        return w
