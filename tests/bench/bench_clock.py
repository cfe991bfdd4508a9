"""Microsecond ticks for the benchmarks on both runtimes: MicroPython's time.ticks_us/ticks_diff, or the same
from perf_counter_ns on CPython."""
try:
    from time import ticks_us, ticks_diff  # noqa: F401
except ImportError:
    from time import perf_counter_ns

    def ticks_us():
        return perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b
