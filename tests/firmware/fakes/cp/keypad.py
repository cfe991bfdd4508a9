"""Fake CircuitPython `keypad` (Keys, Event, EventQueue) over fakehw; plain code for CPython and the unix port.

Mirrors shared-bindings/keypad (the API) and shared-module/keypad (the behaviour) of CircuitPython:
- Keys claims its pins (as DigitalInOuts), sets the pull, scans once at construction, then scans again in the
  "background" every `interval`: here a fakehw tick hook, run as the fake clock advances.
- Debounce is the C integrator: a per-key counter in -T..T (T = debounce_threshold); a press is reported when
  the count climbs through 0 from -1, a release when it falls through 0 from 1. It starts at 0 (unknown: a key
  held at construction gives no press event).
- EventQueue stores (key, pressed, timestamp) records, not Events; a record that arrives when the queue is full
  is dropped and `overflowed` goes True (read-only; clear() resets it). get() makes a new Event; get_into()
  fills the one it is given and returns True, or returns False and leaves it alone.
- reset() follows the documented contract: every key is assumed released, so a key held now gives a new
  pressed event at the immediate scan reset() does. (The C source of some 9.x releases sets the counters to
  +T instead, which makes released keys report a release; fdfw.buttons copes with either.)
- Test aids, not in the real module: Event.made counts every Event object created; EventQueue.gets counts
  get() calls.
"""
import fakehw
import supervisor


def _ticks_diff(a, b):
    return ((a - b + 0x10000000) & 0x1FFFFFFF) - 0x10000000


class Event:
    made = 0  # test aid: every Event ever created (the firmware should make exactly one)

    def __init__(self, key_number=0, pressed=True, timestamp=None):
        Event.made += 1
        self._set(key_number, pressed, supervisor.ticks_ms() if timestamp is None else timestamp)

    def _set(self, key_number, pressed, timestamp):
        self._key = key_number
        self._pressed = bool(pressed)
        self._ts = timestamp

    @property
    def key_number(self):
        return self._key

    @property
    def pressed(self):
        return self._pressed

    @property
    def released(self):
        return not self._pressed

    @property
    def timestamp(self):
        return self._ts

    def __eq__(self, other):
        return isinstance(other, Event) and self._key == other._key and self._pressed == other._pressed

    def __hash__(self):
        return (self._key << 1) | (1 if self._pressed else 0)

    def __repr__(self):
        return "<Event: key_number %d %s>" % (self._key, "pressed" if self._pressed else "released")


class EventQueue:
    def __init__(self, max_events):
        self._max = max_events
        self._q = []
        self._overflowed = False
        self.gets = 0  # test aid

    def _record(self, key, pressed, ts):
        if len(self._q) >= self._max:
            self._overflowed = True
            return False
        self._q.append((key, pressed, ts))
        return True

    def get(self):
        self.gets += 1
        if not self._q:
            return None
        k, p, ts = self._q.pop(0)
        return Event(k, p, ts)

    def get_into(self, event):
        if not isinstance(event, Event):
            raise TypeError("event must be of type Event")
        if not self._q:
            return False
        k, p, ts = self._q.pop(0)
        event._set(k, p, ts)
        return True

    def clear(self):
        del self._q[:]
        self._overflowed = False

    def __bool__(self):
        return len(self._q) > 0

    def __len__(self):
        return len(self._q)

    @property
    def overflowed(self):
        return self._overflowed


class Keys:
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.020, max_events=64, debounce_threshold=1):
        if max_events < 1:
            raise ValueError("max_events must be >= 1")
        if not 1 <= debounce_threshold <= 127:
            raise ValueError("debounce_threshold must be 1-127")
        gpios = []
        try:
            for p in pins:
                fakehw.claim(p.gpio, "keypad.Keys")
                gpios.append(p.gpio)
        except ValueError:
            for g in gpios:
                fakehw.free(g)
            raise
        self._gpios = gpios
        self._vwp = 1 if value_when_pressed else 0
        if pull:
            for g in gpios:
                fakehw.pulls[g] = "down" if value_when_pressed else "up"
        self._pull = pull
        self._threshold = debounce_threshold
        self._count = [0] * len(gpios)
        self._interval = max(1, int(interval * 1000 + 0.5))
        self._events = EventQueue(max_events)
        self.scans = 0  # test aid
        self._hook = self._tick
        fakehw.tick_hooks.append(self._hook)
        self._scan(supervisor.ticks_ms())

    @property
    def key_count(self):
        return len(self._gpios)

    @property
    def events(self):
        return self._events

    def _tick(self, now):
        if _ticks_diff(now, self._next) >= 0:
            self._scan(now)

    def _scan(self, now):
        self._next = (now + self._interval) & 0x1FFFFFFF
        self.scans += 1
        t = self._threshold
        c = self._count
        for k in range(len(self._gpios)):
            current = fakehw.read(self._gpios[k]) == self._vwp
            if current:
                if c[k] < t:
                    c[k] += 1
                    if c[k] == 0:
                        c[k] = t
                        self._events._record(k, True, now)
            else:
                if c[k] > -t:
                    c[k] -= 1
                    if c[k] == 0:
                        c[k] = -t
                        self._events._record(k, False, now)

    def reset(self):
        for k in range(len(self._count)):
            self._count[k] = -self._threshold
        self._scan(supervisor.ticks_ms())

    def deinit(self):
        if self._hook in fakehw.tick_hooks:
            fakehw.tick_hooks.remove(self._hook)
        for g in self._gpios:
            fakehw.free(g)
            if self._pull:
                fakehw.pulls.pop(g, None)
        self._gpios = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
