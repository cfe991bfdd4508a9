"""Terminal keys in, debounced button presses out: the simulator's input, as plain objects with no tty in them.

KeyDecoder turns the bytes a terminal sends (read in whatever chunks arrive: a burst of typing or a paste is one
read, an escape sequence can be split across two) into keys, one string each: a printable or control character
as itself, an arrow as "up"/"down"/"left"/"right" (CSI "\\x1b[A", SS3 "\\x1bOA", with or without modifiers),
any other escape sequence as its text, a lone ESC as "esc".

PressQueue delivers every press through the simulated debounced buttons however fast they arrive: presses wait in
one FIFO; a press starts only when the press before it (any button) has got through its debouncer, so the app sees
them in the order typed, and a button is pressed again only after its last release got through its debouncer too.
So a key repeated faster than the debouncer can follow is not lost, it is played out a little later in simulated
time (about 20 presses a second with the default 3-read contact bounce).
"""
import codecs
from collections import deque

ARROWS = {"A": "up", "B": "down", "C": "right", "D": "left"}
ESC = "\x1b"


class KeyDecoder:
    def __init__(self):
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending = ""  # the start of an escape sequence whose end has not arrived yet

    def feed(self, data):
        """The keys in data (bytes), in order; an unfinished escape sequence waits for the next feed."""
        text = self._pending + self._utf8.decode(data)
        self._pending = ""
        keys = []
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c != ESC:
                keys.append(c)
                i += 1
                continue
            end = _sequence_end(text, i)
            if end is None:  # cut off by the end of this read: keep it for the next
                self._pending = text[i:]
                break
            keys.append(_name(text[i:end]))
            i = end
        return keys

    def flush(self):
        """Keys still waiting (call when nothing more arrived for a while): a lone ESC is the Escape key."""
        rest, self._pending = self._pending, ""
        if not rest:
            return []
        if rest == ESC:
            return ["esc"]
        return [rest]  # a sequence that never finished: one unknown key, not several stray ones

    @property
    def waiting(self):
        return bool(self._pending)


def _sequence_end(text, i):
    """Index just past the escape sequence starting at text[i] (an ESC), or None if text ends inside it."""
    n = len(text)
    if i + 1 >= n:
        return None
    c = text[i + 1]
    if c == "[":  # CSI: parameter/intermediate bytes, then one final byte 0x40-0x7e
        j = i + 2
        while j < n:
            if "\x40" <= text[j] <= "\x7e":
                return j + 1
            if not ("\x20" <= text[j] <= "\x3f"):
                return j  # malformed: end it here, the odd byte is a key of its own
            j += 1
        return None
    if c == "O":  # SS3: one more character
        return i + 3 if i + 2 < n else None
    if c == ESC:
        return i + 1  # ESC ESC: the first is a lone Escape
    return i + 2  # ESC + a character (Alt+key)


def _name(seq):
    if len(seq) == 1:
        return "esc"
    final = seq[-1]
    if seq[1] in "[O" and final in ARROWS:
        return ARROWS[final]
    return seq


HOLD_MS = 30  # a press is held at least this long (and until the debouncer has seen it)
GAP_MS = 10  # and released at least this long before the same button is pressed again


class PressQueue:
    """Presses of named SimButtons, played out in order through their debouncers (see the module doc).

    buttons: name -> SimButton (press(), release(), and `down`, the debounced state). Call update(now_ms) before
    every device step."""

    def __init__(self, buttons, hold_ms=HOLD_MS, gap_ms=GAP_MS):
        self.buttons = buttons
        self.hold_ms = hold_ms
        self.gap_ms = gap_ms
        self.waiting = deque()  # button names, in the order pressed
        self._held = {}  # name -> when it may be released
        self._free_at = {}  # name -> when it may be pressed again (after its release got through)
        self._last = None  # the button pressed last, until its debouncer has seen the press
        self.started = 0  # presses begun

    def push(self, name):
        self.waiting.append(name)

    def busy(self):
        return bool(self.waiting or self._held or self._free_at)

    def update(self, now):
        buttons = self.buttons
        for name in list(self._held):
            b = buttons[name]
            if b.down and now - self._held[name] >= 0:
                b.release()
                del self._held[name]
                self._free_at[name] = now + self.gap_ms
        for name in list(self._free_at):
            if not buttons[name].down and now - self._free_at[name] >= 0:
                del self._free_at[name]
        if self._last is not None and buttons[self._last].down:
            self._last = None
        if self._last is None and self.waiting:
            name = self.waiting[0]
            if name not in self._held and name not in self._free_at:
                self.waiting.popleft()
                buttons[name].press()
                self._held[name] = now + self.hold_ms
                self._last = name
                self.started += 1
