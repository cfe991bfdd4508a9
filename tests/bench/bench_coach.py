"""Strategy tables and hint cost on the MicroPython unix port (or CPython): table sizes, decode cost, first hint.

    .venv/bin/micropython tests/bench/bench_coach.py [tables/yahtzee.fdt]     (run from the repo root)

Uses tables/yahtzee.fdt when present (make tables), else the committed yacht test table. Prints:
- every rule set's table in tables/: bytes, states, bytes per state, and what the FDT2 format took;
- decode cost: one lookup of a random reachable state on a cold table cache (its segment, upper record
  and row read with seeks, the row decoded up to the state's rank), and a lookup in the row just decoded;
- the first hint of a turn (turn solve + hint after roll 1): at the start of a game (every box open, the
  most work a turn can need; no decoding since u = 0), in mid-game, and over the turns of a whole game
  played by the coach (the table's cached records as the previous turn left them);
- the CRC checks (a block is checked the first time a read touches it).
Times are the minimum / median / mean of repeated runs (the machine is shared; the minimum is the figure
least disturbed by other jobs). On MicroPython also the RP2040 estimate: unix-port time x 185 (150-214x),
the calibration from MicroPython's tests/perf_bench suite run on this unix port against the Pico figures
posted in micropython PR #12846 (9 integer benchmarks, geometric mean of the ratios).
"""
import sys

sys.path.insert(0, "lib")
from bench_clock import ticks_diff, ticks_us  # noqa: E402

import os  # noqa: E402

from fivedice import coach, rules  # noqa: E402
from fivedice import strategy_table as st  # noqa: E402
from fivedice.game import Game  # noqa: E402
from fivedice.rng import Dice, SeededBytes  # noqa: E402
from fivedice.scorecard import Card  # noqa: E402
from fivedice.strategy_table import StrategyTable  # noqa: E402


# RP2040 time = MicroPython unix-port time x RP2040_X (range LO..HI): see the module docstring
RP2040_X = 185
RP2040_LO = 150
RP2040_HI = 214
IMPL = sys.implementation.name


def rp2040_ms(us):
    """'N ms (LO-HI ms)' for a unix-port time in us, integer arithmetic."""
    return "%d ms (%d-%d ms)" % (us * RP2040_X // 1000, us * RP2040_LO // 1000, us * RP2040_HI // 1000)


def est(us):
    return ("; RP2040 est. " + rp2040_ms(us)) if IMPL == "micropython" else ""


def stats(times):
    """(min, median, mean) of a list of us."""
    times.sort()
    return times[0], times[len(times) // 2], sum(times) // len(times)


def fdt2_size(rs, states):
    """Bytes the FDT2 format (2 bytes a state, issue #8) took for a whole-game table of rs."""
    body = 6 * (1 << (rs.n - 6)) + 4 * 64 + 64 * st.udim(rs) + 2 * states
    return 48 + body + 4 * ((body + 511) // 512)


def table_sizes():
    print("table sizes (tables/, make tables), format FDT3:")
    print("  %-14s %10s %9s %9s %11s" % ("rule set", "bytes", "states", "B/state", "FDT2 bytes"))
    for rid in rules.IDS:
        path = "tables/" + rid + ".fdt"
        rs = rules.get(rid)
        try:
            n = os.stat(path)[6]
            t = StrategyTable(open(path, "rb"), rs)
        except OSError as e:
            print("  %-14s not built or not readable (%s)" % (rid, e))
            continue
        print("  %-14s %10d %9d %5d.%03d %11d" % (rid, n, t.states, n // t.states, n * 1000 // t.states % 1000,
                                                fdt2_size(rs, t.states)))
        t.f.close()


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


def random_states(t, n):
    """n reachable (filled, u, z) of the table's rule set, from a fixed LCG."""
    rs = t.rs
    x = 2026
    out = []
    while len(out) < n:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        filled = (x >> 3) & rs.all_mask
        u = (x >> 17) % t.U
        z = (x >> 24) % t.Z
        if t.value(filled, u, z) >= 0:
            out.append((filled, u, z))
    return out


def decode_cost(t):
    states = random_states(t, 200)
    cold = []
    warm = []
    dec = 0
    for rep in range(5):
        t0 = ticks_us()
        for s in states:
            t.forget()
            t.value(s[0], s[1], s[2])
        cold.append(ticks_diff(ticks_us(), t0))
        s = states[rep]
        t.value(s[0], s[1], s[2])
        t0 = ticks_us()
        for _ in range(len(states)):
            t.value(s[0], s[1], s[2])  # again: the row is cached and decoded that far
        warm.append(ticks_diff(ticks_us(), t0))
    for s in states:
        t.forget()
        t.value(s[0], s[1], s[2])
        dec += t._dn - 1
    n = len(states)
    c = stats(cold)
    w = stats(warm)
    print("decode: a lookup on a cold cache (<= 3 reads, the row decoded up to the rank; mean %d.%d residuals): "
          "%d us min, %d median%s" % (dec // n, dec * 10 // n % 10, c[0] // n, c[1] // n, est(c[0] // n)))
    print("decode: a lookup in the row just decoded: %d us min, %d median" % (w[0] // n, w[1] // n))


def first_hints(path, rs):
    cf = CountingFile(open(path, "rb"))
    t = StrategyTable(cf, rs)
    t.verify_all()
    c = coach.Coach(rs, t)
    dice = bytearray(b"\x02\x03\x03\x05\x06")
    reps = 30
    out = []
    for label, fills in (("start of a game (every box open)", ()),
                         ("mid-game (ones 3, threes 9, fives 15, 3 of a kind 20, chance 22 filled)",
                          ((0, 3), (2, 9), (4, 15), (6, 20), (rs.n - 1, 22)))):
        card = Card(rs)
        for b, p in fills:
            card.fill(b, p)
        times = []
        s0 = cf.seeks
        for _ in range(reps):
            t.forget()  # nothing reused from an earlier turn
            c._have = False
            t0 = ticks_us()
            c.prepare(card)
            c.hint(card, dice, 1, 0)
            times.append(ticks_diff(ticks_us(), t0))
        seeks = (cf.seeks - s0) // reps
        m = stats(times)
        out.append(m[0])
        print("first hint of a turn, %s: %d us min, %d median, %d mean, %d seeks%s" % (label, m[0], m[1], m[2], seeks,
                                                                                       est(m[0])))
    # the turns of a whole game, the coach playing (each turn's first hint after the previous turn's reads)
    times = []
    for rep in range(3):
        g = Game(rs, 1, Dice(SeededBytes(7)))
        k = 0
        while not g.over:
            g.roll()
            cd = g.cards[0]
            c._have = False
            t0 = ticks_us()
            c.prepare(cd)
            c.hint(cd, g.dice, 1, g.held)
            d = ticks_diff(ticks_us(), t0)
            if rep == 0:
                times.append(d)
            elif d < times[k]:
                times[k] = d
            k += 1
            while c.hint(cd, g.dice, g.rolls, g.held) == coach.KEEP and g.rolls < 3:
                for i in range(5):
                    if ((g.held >> i) & 1) != ((c.value >> i) & 1):
                        g.toggle(i)
                g.roll()
            c.hint(cd, g.dice, 3, g.held)
            g.score(c.value)
    m = stats(times)
    print("first hint of a turn over a whole game (%d turns, min of 3 games each): %d us mean, %d median, %d max%s"
          % (len(times), m[2], m[1], times[-1], est(m[2])))
    # later hints in the turn
    card = Card(rs)
    c.prepare(card)
    t0 = ticks_us()
    n = 0
    for _ in range(reps):
        for rolls in (1, 2, 3):
            c.hint(card, dice, rolls, 0)
            n += 1
    hint = ticks_diff(ticks_us(), t0) // n
    print("a later hint in the same turn (roll 1, 2, 3 mean): %d us%s" % (hint, est(hint)))
    return t


def crc_cost(path, rs):
    t0 = ticks_us()
    ft = StrategyTable(open(path, "rb"), rs)
    c = coach.Coach(rs, ft)
    t1 = ticks_us()
    c.prepare(Card(rs))
    fresh = ticks_diff(ticks_us(), t1)
    checked = 0
    for i in range(ft.blocks):
        checked += (ft._ok[i >> 3] >> (i & 7)) & 1
    ft.f.close()
    t0 = ticks_us()
    ft = StrategyTable(open(path, "rb"), rs)
    ft.verify_all()
    whole = ticks_diff(ticks_us(), t0)
    ft.f.close()
    print("first turn solve on a freshly opened table, %d of %d %d-byte blocks CRC-checked on the way: %d us%s"
          % (checked, ft.blocks, ft.block, fresh, est(fresh)))
    print("checking the whole table at once (all %d blocks): %d us%s" % (ft.blocks, whole, est(whole)))


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "tables/yahtzee.fdt"
    rid = path.split("/")[-1].split(".")[0]
    try:
        StrategyTable(open(path, "rb"), rules.get(rid)).f.close()
    except (OSError, ValueError) as e:
        print("(%s: %s; using the committed yacht test table)" % (path, e))
        path = "tests/data/yacht.fdt"
        rid = "yacht"
    rs = rules.get(rid)
    t = StrategyTable(open(path, "rb"), rs)
    print("%s, table %s (%d states, scale %d)" % (IMPL, path, t.states, t.scale))
    if IMPL == "micropython":
        print("RP2040 estimate = unix-port time x %d (%d-%dx; perf_bench vs micropython PR #12846)"
              % (RP2040_X, RP2040_LO, RP2040_HI))
    table_sizes()
    decode_cost(t)
    first_hints(path, rs)
    crc_cost(path, rs)


main()
