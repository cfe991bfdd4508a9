"""The coach's work on a Pico, estimated (issue 34 item 4): each turn-solve slice (Coach.work) by phase, the
hint's best three (Coach.choices) and the picker's values (Coach.score_values), on the MicroPython unix port x 185.

    .venv/bin/micropython tests/bench/bench_slices.py [RULES_INDEX]     (run from the repo root, tables built)

Three solitaire games played by the coach's hints. A slice is timed three times from the same state and the fastest
kept (this machine is shared: a run's single passes take scheduler pauses); choices and values the fastest of 5.
Estimates, not board figures (the emulated Pico's are in docs/benchmarks.md).
"""
import sys

sys.path.insert(0, "lib")
from bench_clock import ticks_diff, ticks_us  # noqa: E402

from fivedice import coach, rules  # noqa: E402
from fivedice.compat import zeros  # noqa: E402
from fivedice.game import Game, SCORE  # noqa: E402
from fivedice.rng import Dice, SeededBytes  # noqa: E402
from fivedice.strategy_table import StrategyTable  # noqa: E402

X = 185


def fastest(f, n):
    b = 10 ** 9
    for _ in range(n):
        t0 = ticks_us()
        f()
        b = min(b, ticks_diff(ticks_us(), t0))
    return b


def main():
    rs = rules.ALL[int(sys.argv[1]) if len(sys.argv) > 1 else 0]
    try:
        t = StrategyTable(open("tables/%s.fdt" % rs.id, "rb"), rs)
    except OSError:
        print("no tables/%s.fdt: run `make tables` first" % rs.id)
        return
    c = coach.Coach(rs, t)
    while not c.warm():
        pass
    top = zeros("l", coach.TOP_LEN)
    out = zeros("i", rules.MAX_BOXES)
    worst = {}
    slices = []
    ch = []
    sv = []
    for seed in (1, 2, 3):
        g = Game(rs, 1, Dice(SeededBytes(seed)))
        while not g.over:
            card = g.cards[g.player]
            n = 0
            while True:
                ph = c._phase if c.filled == card.filled else 0
                st = (c._phase, c._nopen, c._hlbox, c.filled)
                d = 10 ** 9
                for rep in range(3):
                    if rep:
                        c._phase, c._nopen, c._hlbox, c.filled = st
                    t0 = ticks_us()
                    done = c.work(card)
                    d = min(d, ticks_diff(ticks_us(), t0))
                worst[ph] = max(worst.get(ph, 0), d)
                n += 1
                if done:
                    break
            slices.append(n)
            g.roll()
            while True:
                ch.append(fastest(lambda: c.choices(card, g.dice, g.rolls, g.held, top), 5))
                sv.append(fastest(lambda: c.score_values(card, g.dice, out), 5))
                if c.hint(card, g.dice, g.rolls, g.held) == SCORE:
                    g.score(c.value)
                    break
                for i in range(5):
                    if (c.value >> i) & 1:
                        g.hold(i)
                    else:
                        g.release(i)
                g.roll()
    print("%s: the turn solve in %d-%d slices (work calls)" % (rs.id, min(slices), max(slices)))
    for ph in sorted(worst):
        print("  phase %2d: slowest %4d us, %5.1f ms on an RP2040 (x%d)" % (ph, worst[ph], worst[ph] * X / 1000, X))
    for name, v in (("choices (the hint's best three)", ch), ("score_values (the picker's)", sv)):
        v.sort()
        m = v[len(v) // 2]
        print("  %s: median %d us (%.1f ms), slowest %d us (%.1f ms)" % (name, m, m * X / 1000, v[-1], v[-1] * X / 1000))


main()
