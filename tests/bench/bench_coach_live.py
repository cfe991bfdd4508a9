"""The cooperative coach in the app (issue #10 part 3), on the MicroPython unix port (or CPython):
the longest single loop pass while a turn is being solved, and the press-to-hint latency.

    .venv/bin/micropython tests/bench/bench_coach_live.py [tables]     (run from the repo root)

A two-player Yahtzee game (a human seat, against the perfect CPU sharing the table's coach) is driven through
App.press / App.tick as the board's loop drives it. Every tick is timed: the slowest pass while a turn solve is
in progress (one slice, coach.work) is the figure to hold under 50 ms on an RP2040. The hint is timed from the
UP press: "live" after the ticks since the turn began have solved it (a human needs far longer than five loop
passes to roll and read the dice), and "cold" with the solve forced to start at the press, which is what every
first hint cost before the solve was sliced. RP2040 estimate: unix-port time x 185 (150-214x), the calibration
from MicroPython's tests/perf_bench suite on this port against the Pico figures in micropython PR #12846.
"""
import sys

sys.path.insert(0, "lib")
from bench_clock import ticks_diff, ticks_us  # noqa: E402

from fivedice import app as A  # noqa: E402
from fivedice.rng import Dice, SeededBytes  # noqa: E402
from fivedice.scorecard import Card  # noqa: E402

RP2040_X = 185


class Null:
    """A display that draws nothing: the figures are the coach's, not the frame's (make bench-frames)."""

    def fill(self, c):
        pass

    def fill_rect(self, x, y, w, h, c):
        pass

    def rect(self, x, y, w, h, c):
        pass

    def hline(self, x, y, w, c):
        pass

    def vline(self, x, y, h, c):
        pass

    def pixel(self, x, y, c=None):
        return 0

    def show(self):
        pass


def ms(us):
    return "%.1f ms" % (us * RP2040_X / 1000)


def main():
    tables = sys.argv[1] if len(sys.argv) > 1 else "tables"
    app = A.App(Null(), dice=Dice(SeededBytes(3)), tables=tables, cpu_step_ms=100)
    if not app.seats.tables_mask & 1:
        print("no tables/yahtzee.fdt: run `make tables/yahtzee.fdt` first")
        return
    app.settings.rules_i = 0
    app.settings.players = 2
    app.settings.seats[0] = 0
    app.settings.seats[1] = 3  # CPU perfect
    app.session.new_game()
    t = 0
    worst = [0, 0]  # us: the slowest tick that did a slice of a turn solve, and the slowest other tick
    passes_to_solve = []
    live = []
    cold = []
    cards = []

    def tick():
        solving = app.session.thinking
        t0 = ticks_us()
        due = app.tick(t)
        d = ticks_diff(ticks_us(), t0)
        if due:
            app.draw()  # as the board's loop does (fdfw.loop): a pass with a frame holds its slice for the next
        k = 0 if solving else 1
        if d > worst[k]:
            worst[k] = d
        return solving

    while not app.session.game.over:
        g = app.session.game
        p = g.player
        if app.settings.seats[p]:  # the perfect CPU: its turn on ticks
            while not g.over and g.player == p:
                tick()
                t += 5
            continue
        n = 0
        while app.session.thinking:  # the human's turn begins: a slice of its solve a pass
            n += tick()
            t += 5
        passes_to_solve.append(n)
        snap = Card(g.rs)  # the card as this turn began, for the slice timings below
        snap.pts[:] = g.cards[p].pts
        snap.filled = g.cards[p].filled
        snap.extra = g.cards[p].extra
        cards.append(snap)
        app.press(A.B_ROLL, t)  # roll, let the dice land, then ask for a hint
        for _ in range(80):
            tick()
            t += 5
        t0 = ticks_us()
        app.press(A.B_UP, t)
        live.append(ticks_diff(ticks_us(), t0))
        app.seats.coach._phase = -1  # as if the turn had not been solved yet: the press solves all of it (before)
        app.session.hint_kind = 0
        t0 = ticks_us()
        app.press(A.B_UP, t)
        cold.append(ticks_diff(ticks_us(), t0))
        app.press(A.B_OK, t)  # the picker; score the best box
        app.press(A.B_OK, t)
    slowest_solving, slowest_other = worst
    # each slice alone, on the turn-start card of every human turn of a game (minimum of 15 runs: the machine is
    # shared, so a single pass can be stretched by other jobs; the minimum is the slice's own cost)
    c = app.seats.coach
    slices = 0
    c._phase = -1
    while not c.work(cards[0]):
        slices += 1
    slice_us = [0] * (slices + 1)
    for card in cards:
        for ph in range(slices + 1):
            best = 1 << 30
            for _ in range(15):
                c._phase = -1
                for _ in range(ph):  # the slices before, untimed (the table's rows cached from the first run)
                    c.work(card)
                t0 = ticks_us()
                c.work(card)
                d = ticks_diff(ticks_us(), t0)
                if d < best:
                    best = d
            if best > slice_us[ph]:
                slice_us[ph] = best
    # each slice of the final-roll groups alone (Coach._group_step: the rolls scored, or their groups found), worst
    # over the build; the build is the same sequence each time, so each step's minimum over 5 builds is its cost
    gs = c.groups
    per = None
    for _ in range(5):
        gs[0] = gs[5] = None
        times = []
        while gs[0] is not c.rs:
            kind = 0 if gs[5] is not c.rs or gs[10] < 252 else 1
            t0 = ticks_us()
            c._group_step()
            times.append((kind, ticks_diff(ticks_us(), t0)))
        per = times if per is None else [(k, min(a, b)) for (k, a), (_, b) in zip(per, times)]
    group_us = [max([u for k, u in per if k == kind] or [0]) for kind in (0, 1)]
    live.sort()
    cold.sort()
    print("cooperative coach, Yahtzee, human with a hint each turn vs the perfect CPU (%d human turns)" % len(live))
    print("  loop passes that solve a turn: %d to %d (one slice each)" % (min(passes_to_solve), max(passes_to_solve)))
    print("  slowest pass while solving: %d us on the port = %s on an RP2040 (x%d)" % (
        slowest_solving, ms(slowest_solving), RP2040_X))
    print("  slowest other pass (a CPU decision, scoring, a save-free tick): %d us = %s" % (slowest_other, ms(slowest_other)))
    print("  each slice alone, worst over the turns (min of 15 runs): " + ", ".join(
        "%d us = %s" % (u, ms(u)) for u in slice_us))
    print("  each slice of the final-roll groups alone, worst of %d (min of 5 builds): scoring %d us = %s, grouping %d us = %s" % (
        len(per), group_us[0], ms(group_us[0]), group_us[1], ms(group_us[1])))
    print("  press-to-hint, solved during the turn: median %d us = %s, max %d us = %s" % (
        live[len(live) // 2], ms(live[len(live) // 2]), live[-1], ms(live[-1])))
    print("  press-to-hint, solve forced at the press (before): median %d us = %s, max %d us = %s" % (
        cold[len(cold) // 2], ms(cold[len(cold) // 2]), cold[-1], ms(cold[-1])))


main()
