"""Tiny shims so the same module runs on CPython, MicroPython and CircuitPython."""
import gc
import sys

try:
    from micropython import const  # noqa: F401
except ImportError:  # CPython

    def const(x):
        return x


try:
    import micropython as _mp

    native = _mp.native  # decorator on ports that have the native emitter
except (ImportError, AttributeError):

    def native(f):
        return f


try:
    # MicroPython: a call whose frame needs over 11 words takes it from the heap, searching the
    # whole fragmented heap for room each time; with the heap locked it takes the C stack instead
    from micropython import heap_lock, heap_unlock  # noqa: F401
except ImportError:  # CPython; CircuitPython 10 has neither (its frames come from its pystack)

    def heap_lock():
        pass

    def heap_unlock():
        pass


if sys.implementation.name == "cpython":

    def collect():
        """Nothing on CPython: its heap is not a board's, and a collection there costs milliseconds
        (the host's tests build thousands of apps)."""

else:
    collect = gc.collect  # on a board: the room of what was just let go is wanted now, in one piece


def crc32_py(data, crc=0):
    """CRC-32 as binascii.crc32 (ZIP/zlib), bit by bit: the fallback for a build without
    binascii.crc32."""
    crc ^= 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


try:
    # noqa: F401  (in C on CPython, and on MicroPython/CircuitPython builds with it)
    from binascii import crc32
except ImportError:
    crc32 = crc32_py


def zeros(typecode, n):
    """array(typecode) of n zeros in one allocation: array(tc, [0] * n) first builds an n-item list
    (8 bytes an item on a 64-bit port), a same-sized hole in the heap right after a game starts."""
    from array import array

    a = array(typecode, range(n))  # MicroPython sizes the array from len(range) up front
    for i in range(n):
        a[i] = 0
    return a


def popcount(x):
    """Set bits in a small int (a card's filled mask, a mask of free boxes)."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n
