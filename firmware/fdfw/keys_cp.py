"""The buttons' reader on a CircuitPython `keypad.Keys` (fdfw.buttons has the others and says how
they read). Its own module: a board with keypad loads this alone, not the readers it never uses
(their code is heap)."""
from fivedice.compat import const

_IDLE_MS = const(1000000)  # nothing to do until an event is queued (fdfw.buttons.IDLE_MS)


class KeypadButtons:
    """keys: a keypad.Keys (value_when_pressed=False); key k is app button ids[k]."""
    # Overflow (more than max_events transitions between two polls, e.g. a long flash write): the
    # queued events are still good and are used; then the queue is cleared and the scanner reset,
    # which scans at once, and what that scan reports gives the held keys afresh. The documented
    # reset() reports every held key as a new press; the C code of some 9.x releases reports every
    # released key as a release instead. Either way a key held before the overflow is not reported
    # twice; a key pressed during it and still held is reported under the first; a tap that began
    # and ended inside the lost events stays lost (counted in `overflows`).

    def __init__(self, keys, ids):
        from keypad import Event

        if keys.key_count != len(ids):
            raise ValueError("one id per key")
        self._keys = keys
        self._events = keys.events
        self._get_into = keys.events.get_into  # bound once
        self._ev = Event()  # the one Event every poll reuses
        self._ids = bytes(ids)
        self._held = 0
        self.overflows = 0

    def poll(self):
        ev = self._ev
        get_into = self._get_into
        ids = self._ids
        held = self._held
        mask = 0
        while get_into(ev):
            b = 1 << ids[ev.key_number]
            if ev.pressed:
                mask |= b
                held |= b
            else:
                held &= ~b
        self._held = held
        if self._events.overflowed:
            mask |= self._resync()
        return mask

    def _resync(self):
        self.overflows += 1
        was = self._held
        self._events.clear()
        self._keys.reset()
        ev = self._ev
        pressed = released = 0
        while self._get_into(ev):
            b = 1 << self._ids[ev.key_number]
            if ev.pressed:
                pressed |= b
            else:
                released |= b
        self._held = (was & ~released) if released else pressed
        return pressed & ~was

    def down(self):
        return self._held

    def pending(self):
        return bool(self._events)  # EventQueue.__bool__: an event is queued

    def wait_ms(self):
        return 0 if self._events else _IDLE_MS  # keypad debounces in C: nothing to settle here

    def release(self):
        """Free the pins (the board is going to sleep on pin alarms): keypad.Keys.deinit()."""
        self._keys.deinit()

    def rebind(self, keys):
        """A new keypad.Keys for the same pins (after a sleep). A key held while it starts gives no
        press."""
        self._keys = keys
        self._events = keys.events
        self._get_into = keys.events.get_into
        self._held = 0
