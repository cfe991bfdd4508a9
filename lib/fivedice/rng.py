"""Dice faces from a byte source, by rejection sampling: exactly uniform, never seeded from time.

The default source is `os.urandom`, which on the boards reads the chip's hardware RNG (see the
table per port in docs/randomness.md). Bytes are drawn into a preallocated pool at idle
(`top_up`), so taking faces during a roll allocates nothing. A byte b < 252 gives face
b % 6 + 1 (each face has exactly 42 of the 252 accepted values); 252..255 are thrown away.
"""
from fivedice.compat import const

_ACCEPT = const(252)  # 42 * 6: the largest multiple of 6 that fits in a byte
_POOL = const(32)
_TRIES = const(3)  # reads of the source before a failure is final


class RandomSourceError(RuntimeError):
    """The dice have no random source: none on this port, or it failed _TRIES times in a row.
    A start-up failure (the firmware prints it and signals it); never a wrong or repeated face."""


def face_of_byte(b):
    """The face a byte maps to, or 0 if the byte is rejected."""
    if b >= _ACCEPT:
        return 0
    return b % 6 + 1


def _default_urandom():
    try:
        import os

        return os.urandom
    except (ImportError, AttributeError):
        raise RandomSourceError(
            "this port has no os.urandom: the dice need the chip's random source"
        )


class Dice:
    """Faces 1..6 from `source(n) -> n random bytes` (os.urandom by default).

    The pool is filled at once, so a source that does not work fails at start-up
    (RandomSourceError). A failing read (OSError, or too few bytes) is retried; at idle (top_up) a
    failure is only counted, since the pool still holds dice; when a roll needs bytes and _TRIES
    reads fail, RandomSourceError."""

    def __init__(self, source=None, pool=_POOL):
        self._source = source if source is not None else _default_urandom()
        self._pool = bytearray(pool)
        self._pos = pool
        self.drawn = 0  # bytes taken from the source (for tests and benchmarks)
        self.failures = 0  # failed reads of the source, retried
        self._refill()

    def top_up(self):
        """Refill the pool if it is less than half full. Allocates (the source returns new bytes):
        call at idle."""
        if self._pos * 2 > len(self._pool):
            try:
                self._refill()
            except RandomSourceError:
                pass  # the pool still has bytes; a roll that empties it tries again

    def _refill(self):
        n = len(self._pool)
        got = -1
        for _ in range(_TRIES):
            try:
                data = self._source(n)
            except OSError:
                self.failures += 1
                continue
            got = len(data)
            if got == n:
                p = self._pool
                for i in range(n):
                    p[i] = data[i]
                self._pos = 0
                self.drawn += n
                return
            self.failures += 1
        if got >= 0:
            raise RandomSourceError("random source returned %d bytes, wanted %d" % (got, n))
        raise RandomSourceError("the random source failed %d times in a row" % _TRIES)

    def face(self):
        """One face 1..6; allocates nothing unless the pool runs dry."""
        while True:
            if self._pos >= len(self._pool):
                self._refill()
            b = self._pool[self._pos]
            self._pos += 1
            if b < _ACCEPT:
                return b % 6 + 1


class SeededBytes:
    """A repeatable byte source for tests and the simulator (xorshift32); never used for real play.
    """

    def __init__(self, seed):
        self._s = (seed & 0xFFFFFFFF) or 0x9E3779B9

    def __call__(self, n):
        out = bytearray(n)
        s = self._s
        for i in range(n):
            s ^= (s << 13) & 0xFFFFFFFF
            s ^= s >> 17
            s ^= (s << 5) & 0xFFFFFFFF
            out[i] = s >> 24
        self._s = s
        return bytes(out)


class ScriptedFaces:
    """Faces taken from a list, one per rolled die, for tests and bug reports."""

    def __init__(self, faces):
        for f in faces:
            if not 1 <= f <= 6:
                raise ValueError("scripted face %r is not 1-6" % (f,))
        self._faces = bytes(faces)
        self._pos = 0

    def remaining(self):
        return len(self._faces) - self._pos

    def top_up(self):
        pass

    def face(self):
        if self._pos >= len(self._faces):
            raise RuntimeError("the scripted faces ran out after %d dice" % len(self._faces))
        f = self._faces[self._pos]
        self._pos += 1
        return f
