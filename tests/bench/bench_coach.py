"""Hint cost: µs per turn solve and per hint, on the MicroPython unix port (or CPython).

    .venv/bin/micropython tests/bench/bench_coach.py [tables/yahtzee.fdt]     (run from the repo root)

Uses tables/yahtzee.fdt when present (make tables), else the committed yacht test table. The turn
solve (table reads + 252 final rolls + keep averages) runs once per turn; each hint after it only
looks up <= 32 keeps.
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

from fivedice import coach, rules  # noqa: E402
from fivedice.scorecard import Card  # noqa: E402
from fivedice.strategy_table import StrategyTable  # noqa: E402


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
    t0 = ticks_us()
    s0 = cf.seeks
    for _ in range(reps):
        c._have = False
        c.prepare(card)
    solve = ticks_diff(ticks_us(), t0) // reps
    seeks = (cf.seeks - s0) // reps
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
    print("first hint of a turn = solve + hint: %d us" % (solve + hint))
    print("open + first solve on a fresh table, %d of %d %d-byte blocks CRC-checked on the way: %d us (%+d us)"
          % (checked, t.blocks, t.block, fresh, fresh - solve))
    print("checking the whole table at once (all %d blocks): %d us" % (t.blocks, whole))


main()
