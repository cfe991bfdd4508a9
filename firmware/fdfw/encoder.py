"""A rotary encoder (the MacroPad's, rotaryio) as UP/DOWN presses, and on the dice screen as the
shake."""
# Encoder(enc) reads enc.position (a rotaryio.IncrementalEncoder: one count a detent, clockwise up).
# - Keys(reader, encoder, up, down) wraps the board's button reader (fdfw.buttons): poll() adds one
# detent a
#   pass as a press of the app's UP (turned anticlockwise) or DOWN (clockwise) button; detents not
#   handed out
#   yet keep pending() true, so none is lost to a slow frame and the loop does not sleep on them.
# - The Encoder itself is hw.shake: on the screen where a spin shakes (spins(), the dice screen once
# bind(app)
#   ran) a detent is no press: update(now) returns 1 at the first detent (the dice tumble) and -1
#   once no
#   detent came for SPIN_MS (they land), as fdfw.shake_input's sensors do.
# Nothing here allocates per pass.
from fivedice.compat import const
from fivedice.ticks import ticks_diff

SPIN_MS = const(300)  # a spin ends this long after its last detent
_IDLE_MS = const(1000000)


class Encoder:
    def __init__(self, enc):
        self._enc = enc
        self._last = enc.position
        self._app = None
        self._turn = -1  # the app's dice screen number, set by bind()
        self.spinning = False
        self._moved = False  # a detent came on the spin screen since the last update
        self._at = 0  # the last detent of the spin
        self.accel = False

    def bind(self, app):
        """The app whose dice screen a spin shakes (fdfw.loop, once the app is built)."""
        from fivedice.screens import M_TURN

        self._app = app
        self._turn = M_TURN

    def spins(self):
        return self._app is not None and self._app.mode == self._turn

    def step(self):
        """-1 (anticlockwise), 1 (clockwise) or 0: one detent not handed out yet, taken; on the spin
        screen every detent is taken for the spin and 0 returned."""
        pos = self._enc.position
        d = pos - self._last
        if not d:
            return 0
        if self.spins():
            self._last = pos
            self._moved = True
            return 0
        if d > 0:
            self._last += 1
            return 1
        self._last -= 1
        return -1

    def pending(self):
        return self._enc.position != self._last

    # -- hw.shake (fdfw.shake_input's calls) --
    def changed(self):
        return self.pending() and self.spins()

    def wait_ms(self, now_ms):
        if not self.spinning:
            return _IDLE_MS
        t = SPIN_MS - ticks_diff(now_ms, self._at)
        return t if t > 0 else 0

    def update(self, now_ms):
        if self.spins():
            self.step()  # the detents since the last pass, also those no poll took
        if self._moved:
            self._moved = False
            self._at = now_ms
            if not self.spinning:
                self.spinning = True
                return 1
            return 0
        if self.spinning and (ticks_diff(now_ms, self._at) >= SPIN_MS or not self.spins()):
            self.spinning = False
            return -1
        return 0


class Keys:
    """reader: the board's button reader (fdfw.buttons); encoder: an Encoder; up, down: the app's
    button numbers."""

    def __init__(self, reader, encoder, up, down):
        self._r = reader
        self._poll = reader.poll
        self._enc = encoder
        self._up = 1 << up
        self._down = 1 << down
        self.down = reader.down
        if hasattr(reader, "rebind"):  # the light sleep's calls (fdfw.board_cp.light_sleep)
            self.release = reader.release
            self.rebind = reader.rebind

    def poll(self):
        mask = self._poll()
        s = self._enc.step()
        if s > 0:
            mask |= self._down
        elif s < 0:
            mask |= self._up
        return mask

    def pending(self):
        return self._r.pending() or self._enc.pending()

    def wait_ms(self):
        return 0 if self._enc.pending() else self._r.wait_ms()
