"""Wrap-safe millisecond ticks, same arithmetic as adafruit_ticks (period 2**29).

Every `now_ms` handed to fivedice must be a tick in 0..TICKS_MAX. On CircuitPython pass
`supervisor.ticks_ms()` or `adafruit_ticks.ticks_ms()` as is; on MicroPython pass
`time.ticks_ms() & TICKS_MAX` (its native period is a multiple of 2**29, so the masked
value still counts up and wraps cleanly). Compare ticks only through ticks_diff.
All three functions are small-int only: no allocation, no long ints.
"""
from fivedice.compat import const

_PERIOD = const(0x20000000)  # 2**29
_MAX = const(0x1FFFFFFF)
_HALF = const(0x10000000)  # 2**28

TICKS_PERIOD = const(0x20000000)
TICKS_MAX = const(0x1FFFFFFF)


def ticks_diff(t1, t2):
    """Signed t1 - t2 in ms, assuming the two ticks are within 2**28 ms of each other."""
    return ((t1 - t2 + _HALF) & _MAX) - _HALF


def ticks_add(t, delta):
    """t + delta, wrapped into 0..TICKS_MAX; |delta| must be below 2**28."""
    if -_HALF < delta < _HALF:
        return (t + delta) & _MAX
    raise OverflowError("ticks interval overflow")


def ticks_less(t1, t2):
    """True if tick t1 comes before tick t2."""
    return ((t1 - t2 + _HALF) & _MAX) - _HALF < 0
