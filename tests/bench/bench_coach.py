"""Hint cost: µs per turn solve and per hint, on the MicroPython unix port (or CPython).

    .venv/bin/micropython tests/bench/bench_coach.py [tables/yahtzee.fdt]     (run from the repo root)

Uses tables/yahtzee.fdt when present (make tables), else the committed yacht test table. The turn
solve (table reads + 252 final rolls + keep averages) runs once per turn; each hint after it only
looks up <= 32 keeps. Also prints the size of every rule set's table in tables/ and, on MicroPython, the
RP2040 estimate: unix-port time x 185 (150-214x), the calibration from MicroPython's tests/perf_bench
suite run on this unix port against the Pico figures posted in micropython PR #12846 (9 integer
benchmarks, geometric mean of the ratios).
"""
import sys

sys.path.insert(0, "lib")
try:
    from time import ticks_us, ticks_diff
except ImportError:
    from time import perf_counter_ns

    def ticks_us():
        return perf_counter_ns() // 1000

    def ticks_diff(a, b):
        return a - b

import os  # noqa: E402

from fivedice import coach, rules  # noqa: E402
from fivedice.scorecard import Card  # noqa: E402
from fivedice.strategy_table import StrategyTable  # noqa: E402


# RP2040 time = MicroPython unix-port time x RP2040_X (range LO..HI): see the module docstring
RP2040_X = 185
RP2040_LO = 150
RP2040_HI = 214


def rp2040_ms(us):
    """'N ms (LO-HI ms)' for a unix-port time in us, integer arithmetic."""
    return "%d ms (%d-%d ms)" % (us * RP2040_X // 1000, us * RP2040_LO // 1000, us * RP2040_HI // 1000)


def table_sizes():
    print("table sizes (tables/, make tables):")
    for rid in rules.IDS:
        path = "tables/" + rid + ".fdt"
        try:
            n = os.stat(path)[6]
        except OSError:
            print("  %-14s not built" % rid)
            continue
        print("  %-14s %9d bytes" % (rid, n))


class CountingFile:
    """Wraps a file and counts seeks (one seek + one readinto per table read)."""

    def __init__(self, f):
        self.f = f
        self.seeks = 0

    def seek(self, pos, whence=0):
        self.seeks += 1
        return self.f.seek(pos, whence)

    def tell(self):
        return self.f.tell()

    def readinto(self, b):
        return self.f.readinto(b)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "tables/yahtzee.fdt"
    rid = path.split("/")[-1].split(".")[0]
    try:
        open(path, "rb").close()
    except OSError:
        path = "tests/core/data/yacht.fdt"
        rid = "yacht"
    rs = rules.get(rid)
    card = Card(rs)  # the start of a game: every box open, the most work a turn can need
    dice = bytearray(b"\x02\x03\x03\x05\x06")
    reps = 20
    # CRC checks: the first solve on a freshly opened table checks each block it touches (then trusted)
    ft = StrategyTable(open(path, "rb"), rs)
    c = coach.Coach(rs, ft)
    ft.f.close()
    t0 = ticks_us()
    for _ in range(reps):
        ft = StrategyTable(open(path, "rb"), rs)
        c.valuer = ft
        c._have = False
        c.prepare(card)
        ft.f.close()
    fresh = ticks_diff(ticks_us(), t0) // reps
    checked = 0
    for i in range(ft.blocks):
        checked += (ft._ok[i >> 3] >> (i & 7)) & 1
    t0 = ticks_us()
    ft = StrategyTable(open(path, "rb"), rs)
    ft.verify_all()
    whole = ticks_diff(ticks_us(), t0)
    ft.f.close()
    cf = CountingFile(open(path, "rb"))
    t = StrategyTable(cf, rs)
    c = coach.Coach(rs, t)
    c.prepare(card)
    s0 = cf.seeks
    times = []
    for _ in range(reps):
        t0 = ticks_us()
        c._have = False
        c.prepare(card)
        times.append(ticks_diff(ticks_us(), t0))
    seeks = (cf.seeks - s0) // reps
    times.sort()
    solve = sum(times) // reps
    solve_min, solve_med = times[0], times[reps // 2]
    t0 = ticks_us()
    for _ in range(reps):
        c._have = False
        c._next_values(card)
    reads = ticks_diff(ticks_us(), t0) // reps
    t0 = ticks_us()
    n = 0
    for _ in range(reps):
        for rolls in (1, 2, 3):
            c.hint(card, dice, rolls, 0)
            n += 1
    hint = ticks_diff(ticks_us(), t0) // n
    impl = sys.implementation.name
    print("%s, table %s (%d states, scale %d)" % (impl, path, t.states, t.scale))
    print("turn solve at the start of a game: %d us (of which table reads: %d us, %d seeks)" % (solve, reads, seeks))
    print("hint after the solve (roll 1, 2, 3 mean): %d us" % hint)
    print("first hint of a turn = solve + hint: %d us (fastest solve + hint: %d us, median: %d us)"
          % (solve + hint, solve_min + hint, solve_med + hint))
    print("open + first solve on a fresh table, %d of %d %d-byte blocks CRC-checked on the way: %d us (%+d us)"
          % (checked, t.blocks, t.block, fresh, fresh - solve))
    print("checking the whole table at once (all %d blocks): %d us" % (t.blocks, whole))
    table_sizes()
    if impl == "micropython":
        print("RP2040 estimate, unix-port time x %d (%d-%dx; perf_bench vs micropython PR #12846):"
              % (RP2040_X, RP2040_LO, RP2040_HI))
        print("  first hint of a turn: %s; from the fastest solve: %s" % (rp2040_ms(solve + hint), rp2040_ms(solve_min + hint)))
        print("  first hint on a freshly opened table (+ CRC checks): %s" % rp2040_ms(fresh + hint))
        print("  hint after the solve: %s" % rp2040_ms(hint))
    else:
        print("(no RP2040 estimate: the x%d factor is calibrated for the MicroPython unix port)" % RP2040_X)


main()
