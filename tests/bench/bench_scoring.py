"""Scoring benchmark: µs per box score and per full preview, bytes allocated per call, vs a naive scorer.

Run `make bench` (or `python tests/bench/bench_scoring.py`): it measures on CPython, then runs itself
under the MicroPython unix port and prints both. Figures, not tests: nothing here asserts a time.
"""
import sys

IS_MPY = sys.implementation.name == "micropython"
if not IS_MPY:
    import os

    HERE = os.path.dirname(os.path.abspath(__file__))
    ROOT = os.path.dirname(os.path.dirname(HERE))
    sys.path[:0] = [os.path.join(ROOT, "lib"), os.path.join(ROOT, "tests", "support")]

from array import array  # noqa: E402

import reference_scorer as ref  # noqa: E402
from fivedice import rules, scoring  # noqa: E402
from fivedice.scorecard import Card  # noqa: E402

from bench_clock import ticks_diff, ticks_us  # noqa: E402


def rolls():
    out = []
    for a in range(1, 7):
        for b in range(a, 7):
            for c in range(b, 7):
                for d in range(c, 7):
                    for e in range(d, 7):
                        out.append(bytearray((a, b, c, d, e)))
    return out


ROLLS = rolls()
OUT = array("h", [0] * rules.MAX_BOXES)


def allocated(fn):
    """Bytes allocated by one call of fn."""
    if IS_MPY:
        import gc

        gc.collect()
        gc.disable()
        before = gc.mem_alloc()
        fn()
        after = gc.mem_alloc()
        gc.enable()
        return after - before
    import tracemalloc

    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def timed(fn, calls):
    t0 = ticks_us()
    fn()
    return ticks_diff(ticks_us(), t0) / calls


def main():
    rs = rules.YAHTZEE
    card = Card(rs)
    card.fill(rs.box("chance"), 20)
    naive_card = {"chance": 20}
    reps = 2 if IS_MPY else 10
    nbox = 252 * rs.n * reps
    d0 = ROLLS[100]
    scoring.load(d0)

    def one_box():
        scoring.points(rs, card, 8)

    def one_preview():
        scoring.load(d0)
        scoring.preview(rs, card, OUT)

    def naive_one_preview():
        ref.choices("yahtzee", list(d0), naive_card)

    def naive_one_box():
        ref.plain_score("yahtzee", list(d0), "full_house", naive_card)

    def all_boxes():
        for _ in range(reps):
            for d in ROLLS:
                scoring.load(d)
                for b in range(13):
                    scoring.points(rs, card, b)

    def all_previews():
        for _ in range(reps):
            for d in ROLLS:
                scoring.load(d)
                scoring.preview(rs, card, OUT)

    def naive_boxes():
        for _ in range(reps):
            for d in ROLLS:
                dl = list(d)
                for b in ref.BOXES["yahtzee"]:
                    ref.plain_score("yahtzee", dl, b, naive_card)

    def naive_previews():
        for _ in range(reps):
            for d in ROLLS:
                ref.choices("yahtzee", list(d), naive_card)

    one_preview()
    naive_one_preview()
    rt = sys.implementation.name
    us_box = timed(all_boxes, nbox)
    us_prev = timed(all_previews, 252 * reps)
    us_nbox = timed(naive_boxes, nbox)
    us_nprev = timed(naive_previews, 252 * reps)
    print("[%s] fivedice  box score: %.2f us/call, %d bytes allocated" % (rt, us_box, allocated(one_box)))
    print("[%s] fivedice  preview:   %.2f us/call, %d bytes allocated" % (rt, us_prev, allocated(one_preview)))
    print("[%s] naive     box score: %.2f us/call, %d bytes allocated" % (rt, us_nbox, allocated(naive_one_box)))
    print("[%s] naive     preview:   %.2f us/call, %d bytes allocated" % (rt, us_nprev, allocated(naive_one_preview)))
    print("[%s] ratio naive/fivedice: box %.1fx, preview %.1fx" % (rt, us_nbox / us_box, us_nprev / us_prev))


if __name__ == "__main__":
    main()
    if not IS_MPY:
        import subprocess

        exe = os.path.join(os.path.dirname(sys.executable), "micropython")
        env = dict(os.environ, MICROPYPATH=":".join([os.path.join(ROOT, "lib"), os.path.join(ROOT, "tests", "support"), ".frozen"]))
        sys.stdout.flush()
        subprocess.run([exe, "-X", "heapsize=8M", os.path.abspath(__file__)], env=env, check=True)
