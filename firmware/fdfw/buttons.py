"""Ten (or any number of) active-low buttons read as one press bitmask; no tap lost to a slow frame.
"""
# Every reader has the same calls: poll() -> bitmask of the app buttons pressed since the last poll,
# down() -> bitmask of the app buttons held now, and for the idle wait (fivedice.loop.Idle):
# pending() -> True when an edge waits to be read (checked between sleep slices), wait_ms() -> how
# soon the next poll is needed anyway (0: now; a debouncer still settling; else IDLE_MS).
# make(inputs, ids) picks the reader for what the board's setup module built (hw.button_inputs):
#
# - KeypadButtons (fdfw.keys_cp): a CircuitPython `keypad.Keys`. The C core scans the pins in the
# background (debounced,
#   timestamped events in a queue), so a tap during a 250 ms frame waits in the queue. poll() drains
#   it with
#   `events.get_into()` into one Event made at start-up (get() would allocate an Event per call).
# - EdgeButtons: MicroPython pins whose hard IRQ (EdgeRing) writes every edge, with its ticks, into
# a
#   preallocated ring. poll() replays the edges, oldest first, through one
#   adafruit_debouncer.Debouncer per
#   button *at the edge's own time*, so a 20 ms tap that starts and ends inside one frame is still
#   one press,
#   and contact chatter (edges a few ms apart) is still filtered by the debouncer's 10 ms interval.
# - Buttons: a list of DigitalInOut objects or pin-level callables, each under adafruit_debouncer,
# polled once
#   a pass (CircuitPython builds without `keypad`, host tools). A tap shorter than a pass can be
#   missed here.
#
# A pressed button reads low, so a press is the debouncer's `fell`.
from array import array

from fivedice.compat import const

# adafruit_debouncer is imported by the readers that use it (Buttons, EdgeButtons), not here: a
# CircuitPython board with keypad never needs it, and its 6 KB of code (64-bit unix port) would stay
# in the heap for nothing.


_RING = const(128)  # edges held between two polls: ~10 bouncy taps (a clean tap is 2 edges)
IDLE_MS = const(1000000)  # nothing to do until an edge arrives
_POLL_MS = const(5)  # readers that must be polled (no queue, no IRQ): every 5 ms
_SETTLE_MS = const(10)  # adafruit_debouncer's interval: a new edge is committed this much later


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


# the time adafruit_debouncer sees while edges are replayed; -1: the real clock
_at = array("i", [-1])
_real_ticks = [None]  # adafruit_debouncer's own ticks_ms, kept by the first EdgeButtons


def _replay_ticks():
    t = _at[0]
    if t < 0:
        return _real_ticks[0]()
    return t


class EdgeButtons:
    """ring: an EdgeRing; key k is app button ids[k]. One adafruit_debouncer.Debouncer per key.

    The debouncer reads time through its module-level ticks_ms; while poll() replays an edge, that
    clock says the edge's time (host_sim drives it the same way), otherwise the real ticks. Per edge
    at time t the debouncer is updated twice: with the level before the edge (which commits it if it
    had lasted the interval) and with the new level (which starts a new bounce window)."""

    def __init__(self, ring, ids, interval_s=0.01):
        if ring.n != len(ids):
            raise ValueError("one id per pin")
        import adafruit_debouncer
        from adafruit_debouncer import Debouncer

        if adafruit_debouncer.ticks_ms is not _replay_ticks:
            _real_ticks[0] = adafruit_debouncer.ticks_ms
            adafruit_debouncer.ticks_ms = _replay_ticks
        self._ring = ring
        lv = ring.levels
        # the debouncer reads the predicate once, to start from the pin's level; after that poll()
        # feeds it
        self._deb = [Debouncer(self._const(lv[k]), interval=interval_s) for k in range(ring.n)]
        self._ids = bytes(ids)
        self._dropped = 0
        # an edge was replayed and its debouncer may not have committed it yet; the last one's time
        self._settling = False
        self._last = 0

    @staticmethod
    def _const(v):
        return lambda: v

    def poll(self):
        ring = self._ring
        st = ring.state
        ts = ring.ticks
        keys = ring.keys
        lv = ring.levels
        size = ring.size
        deb = self._deb
        ids = self._ids
        at = _at
        mask = 0
        head = st[0]
        tail = st[1]
        if tail != head:
            self._settling = True
        while tail != head:
            kv = keys[tail]
            k = kv >> 1
            d = deb[k]
            at[0] = ts[tail]
            self._last = ts[tail]
            d.update(lv[k])
            if d.fell:
                mask |= 1 << ids[k]
            lvl = kv & 1
            d.update(lvl)
            if d.fell:
                mask |= 1 << ids[k]
            lv[k] = lvl
            tail += 1
            if tail == size:
                tail = 0
        st[1] = tail
        at[0] = -1
        if st[2] != self._dropped:  # the ring overflowed: edges were lost, so believe the pins now
            self._dropped = st[2]
            pins = ring.pins
            for k in range(ring.n):
                lv[k] = 1 if pins[k].value() else 0
        chk = self._settling
        settling = False
        for k in range(ring.n):
            d = deb[k]
            d.update(lv[k])
            if d.fell:
                mask |= 1 << ids[k]
            if chk and d.value != lv[k]:
                settling = True  # the debouncer has not committed this level yet
        if chk and not settling and st[0] == head:
            self._settling = False
        return mask

    def down(self):
        mask = 0
        for k in range(self._ring.n):
            if not self._deb[k].value:
                mask |= 1 << self._ids[k]
        return mask

    def _settle_ms(self, t):
        """ms until a level that changed at tick t has lasted the debounce interval (0: it has)."""
        age = self._ring.clock() - t
        # (a negative age: the clock wrapped since, so the edge is old)
        return _SETTLE_MS - age if 0 <= age < _SETTLE_MS else 0

    def _newest(self):
        # the time of the newest edge in the ring (one is there)
        r = self._ring
        h = r.state[0] - 1
        return r.ticks[h if h >= 0 else r.size - 1]

    def pending(self):
        """An edge waits whose level has lasted the interval: the poll now commits it (an earlier
        poll would only start the debouncer's window and wait a pass for the next)."""
        st = self._ring.state
        return st[0] != st[1] and not self._settle_ms(self._newest())

    def wait_ms(self):
        st = self._ring.state
        if st[0] != st[1]:
            return self._settle_ms(self._newest())
        return self._settle_ms(self._last) if self._settling else IDLE_MS
