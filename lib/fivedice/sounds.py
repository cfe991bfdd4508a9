"""Sound cues as data, and a non-blocking player for a buzzer."""
# A cue is a flat constant tuple (freq_hz, ms, freq_hz, ms, ...); freq 0 is a rest.
#
# The buzzer is passed in: either an object with tone(freq_hz, ms) and off(), or a
# plain callable f(freq_hz, ms) where freq 0 means silence. tone() must start the
# tone and return at once (ms is advisory; Sounder calls off()/f(0, 0) itself at the
# end of every note). A board's buzzer is typically a PWM pin: tone sets the
# frequency and a 50% duty, off sets duty 0.
#
# Sounder.update(now_ms) advances the cue from the main loop and allocates nothing.
from fivedice.compat import const
from fivedice.ticks import ticks_add, ticks_diff

# fmt: off
ROLL = (1200, 12, 0, 28, 900, 12, 0, 28, 1400, 12, 0, 28, 1000, 12, 0, 28, 1300, 12)
LAND = (660, 40, 0, 20, 880, 70)
HOLD = (1800, 15)
SCORE = (523, 70, 659, 70, 784, 130)
FIVE_KIND = (523, 90, 659, 90, 784, 90, 1047, 140, 0, 50, 1047, 90, 1319, 300)
GAME_OVER = (784, 160, 659, 160, 523, 160, 392, 420)
REFUSED = (196, 110, 0, 40, 147, 160)
# fmt: on

CUES = (ROLL, LAND, HOLD, SCORE, FIVE_KIND, GAME_OVER, REFUSED)
CUE_NAMES = ("roll", "land", "hold", "score", "five_kind", "game_over", "refused")

_IDLE = const(-1)


def duration(cue):
    """Total length of a cue in ms."""
    t = 0
    for i in range(1, len(cue), 2):
        t += cue[i]
    return t


class Sounder:
    """Plays one cue at a time on a buzzer, advanced by update(now_ms)."""

    def __init__(self, buzzer, mute=False):
        if hasattr(buzzer, "tone"):
            self._tone = buzzer.tone
            self._off = buzzer.off
        elif callable(buzzer):
            self._tone = buzzer
            self._off = None
        else:
            raise TypeError("buzzer needs tone()/off() or must be callable")
        self._cue = None
        self._i = _IDLE
        self._end = 0
        self._mute = bool(mute)
        self.cue = None  # the cue now playing, or None

    @property
    def mute(self):
        return self._mute

    @mute.setter
    def mute(self, value):
        self._mute = bool(value)
        if self._mute:
            self.stop()

    @property
    def playing(self):
        return self._i != _IDLE

    def play(self, cue, now_ms, interrupt=True):
        """Start cue now (its first note sounds at once). Ignored while muted, and while
        another cue plays if interrupt is False. Returns True if it started."""
        if self._mute or not cue:
            return False
        if self._i != _IDLE and not interrupt:
            return False
        self._cue = cue
        self.cue = cue
        self._i = 0
        self._note(now_ms)
        return True

    def stop(self):
        """Silence and forget the current cue."""
        if self._i != _IDLE:
            self._silence()
        self._cue = None
        self.cue = None
        self._i = _IDLE

    def wait_ms(self, now_ms):
        """ms until the playing cue's next note is due (0 if it is due now); only meaningful while
        `playing`."""
        t = ticks_diff(self._end, now_ms)
        return t if t > 0 else 0

    def update(self, now_ms):
        """Advance the cue; call every loop. Returns True while a cue is playing."""
        if self._i == _IDLE:
            return False
        if ticks_diff(now_ms, self._end) < 0:
            return True
        self._i += 2
        if self._i >= len(self._cue):
            self.stop()
            return False
        # keep the rhythm: the next note starts where the last one was due to end,
        # unless the loop ran so late that it would already be over
        start = self._end
        if ticks_diff(now_ms, ticks_add(start, self._cue[self._i + 1])) >= 0:
            start = now_ms
        self._note(start)
        return True

    def _note(self, start):
        f = self._cue[self._i]
        ms = self._cue[self._i + 1]
        if f:
            self._tone(f, ms)
        else:
            self._silence()
        self._end = ticks_add(start, ms)

    def _silence(self):
        if self._off is None:
            self._tone(0, 0)
        else:
            self._off()
